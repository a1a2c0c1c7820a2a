#ifndef GVINGEST_CLIBCURL_SHIM_H
#define GVINGEST_CLIBCURL_SHIM_H

#include <curl/curl.h>

// curl_easy_setopt is variadic, which Swift cannot call: one typed wrapper for each kind of value used.
static inline CURLcode gvingest_curl_setopt_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode gvingest_curl_setopt_pointer(CURL *curl, CURLoption option, const void *value) {
    return curl_easy_setopt(curl, option, value);
}

// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION share this shape.
static inline CURLcode gvingest_curl_setopt_write(CURL *curl, CURLoption option, curl_write_callback callback) {
    return curl_easy_setopt(curl, option, callback);
}

static inline CURLcode gvingest_curl_setopt_xferinfo(CURL *curl, curl_xferinfo_callback callback) {
    return curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, callback);
}

// The last reply code of the server (an SMTP status such as 250 or 535, an HTTP status).
static inline long gvingest_curl_response_code(CURL *curl) {
    long code = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
    return code;
}

#endif
