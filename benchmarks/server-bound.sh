#!/usr/bin/env bash
# How close a trivial keep-alive client (gvingest-server-bench: 16 threads, one connection each, raw sockets) gets
# to the bound 1000 x 0.05 / 16 = 3.125 s against each server of the crawl benchmarks' site: the Swift loopback
# server in process, the same server standalone (gvingest-bench-server, what gvingest and Scrapy crawl), and
# Python's http.server (benchmarks/python/slow_http_server.py), as documented and with one write per response.
# A server the crawl benchmark may use must let the client reach 95 % of the bound.
# Usage: benchmarks/server-bound.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/lib.sh
command -v python3 >/dev/null || { echo "server-bound: python3 missing: apt-get install python3" >&2; exit 69; }
for product in gvingest-bench-server gvingest-server-bench; do swift build "${release[@]}" --product "$product" >/dev/null; done
bin=$(swift build "${release[@]}" --show-bin-path)
work=$(mktemp -d)
trap 'stop_server "$work/server.txt" >/dev/null; rm -rf "$work"' EXIT
"$bin/gvingest-bench-server" --write-site "$work/site"

efficiency() {  # LABEL [PORT]: one client run, against PORT or the in-process server
  local line
  line=$("$bin/gvingest-server-bench" ${2:+--target "$2"} | grep '^wall time')
  printf '%-46s %s\n' "$1" "$line"
}
efficiency 'Swift loopback server, in process'
start_server "$work/server.txt" "$bin/gvingest-bench-server" --seconds 120
efficiency 'Swift loopback server, standalone' "$server_port"
stop_server "$work/server.txt" >/dev/null
start_server "$work/server.txt" python3 benchmarks/python/slow_http_server.py "$work/site" --seconds 120
efficiency 'Python http.server (ThreadingHTTPServer)' "$server_port"
stop_server "$work/server.txt" >/dev/null
start_server "$work/server.txt" python3 benchmarks/python/slow_http_server.py "$work/site" --seconds 120 --buffered
efficiency 'Python http.server, one write per response' "$server_port"
stop_server "$work/server.txt" >/dev/null
echo "(needed for a benchmark server: efficiency >= 95 %)"
