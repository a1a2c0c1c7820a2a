#ifndef GVINGEST_CLIBXML2_SHIM_H
#define GVINGEST_CLIBXML2_SHIM_H

// xmlversion.h first: with ICU enabled, libxml2's headers pull in ICU's
// UErrorCode, which clashes with the one Foundation brings in.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/uri.h>
#include <libxml/xmlerror.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

// Swift 6 rejects the mutable C global `xmlFree` (a function pointer).
static inline void gvingest_xmlFree(void *pointer) {
    xmlFree(pointer);
}

// The same for `xmlParserMaxDepth`, set once, before the first parse.
static inline void gvingest_setParserMaxDepth(unsigned int depth) {
    xmlParserMaxDepth = depth;
}

#endif
