#!/usr/bin/env python3
"""The crawl benchmarks' site served by Python's http.server, to compare with the Swift loopback server.

Serves the pages `gvingest-bench-server --write-site DIR` wrote (so the bytes are the ones the Swift server
sends) from memory with ThreadingHTTPServer and HTTP/1.1 keep-alive, written the way the standard library's
documentation shows: send_response, send_header, end_headers, wfile.write. Like the Swift server, every full
response sleeps LATENCY first ("rendering"), a matching If-None-Match gets 304 at once, and robots.txt is a 404.

  slow_http_server.py SITE_DIR [--latency-ms 50] [--seconds 600] [--buffered]

--buffered sends each response in one write (wbufsize = -1) instead of the head and the body in two: with two,
Nagle's algorithm holds the body until the client acknowledges the head, which the client delays.

Prints "port PORT" (an ephemeral port on 127.0.0.1) and serves until SIGTERM/SIGINT or SECONDS have passed,
then prints how many requests and connections it served.
"""
import argparse
import hashlib
import os
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def load_site(root):
    site = {}
    for directory, _, names in os.walk(root):
        for name in names:
            path = os.path.join(directory, name)
            with open(path, "rb") as handle:
                body = handle.read()
            url_path = "/" + os.path.relpath(path, root).replace(os.sep, "/")
            site[url_path] = (body, '"%s"' % hashlib.sha1(body).hexdigest()[:16])
    return site


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", help="directory written by gvingest-bench-server --write-site")
    parser.add_argument("--latency-ms", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--buffered", action="store_true", help="one write per response instead of two")
    options = parser.parse_args()
    site = load_site(options.site)
    if not site:
        sys.exit("slow_http_server.py: no pages under %s (run gvingest-bench-server --write-site first)" % options.site)
    latency = options.latency_ms / 1000
    counts = {"requests": 0, "connections": 0}
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        wbufsize = -1 if options.buffered else 0

        def setup(self):
            super().setup()
            with lock:
                counts["connections"] += 1

        def log_message(self, format, *args):
            pass  # a line per request on stderr would cost more than the pages

        def do_GET(self):
            with lock:
                counts["requests"] += 1
            found = site.get(self.path)
            if found is None:
                body = b"not found\n"
                self.send_response(404)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
            body, etag = found
            if self.headers.get("If-None-Match") == etag:
                self.send_response(304)
                self.send_header("ETag", etag)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            time.sleep(latency)
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("ETag", etag)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    stop = threading.Event()
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, lambda *_: stop.set())
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print("port %d" % server.server_address[1], flush=True)
    stop.wait(options.seconds)
    server.shutdown()
    print("served %d requests over %d connections" % (counts["requests"], counts["connections"]), flush=True)


if __name__ == "__main__":
    main()
