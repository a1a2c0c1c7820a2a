#!/usr/bin/env bash
# Crawls the same loopback site (a listing and 1,000 course pages, 50 ms to render each, ETags, robots.txt a 404)
# with the release gvingest binary and with a Scrapy spider (benchmarks/python/crawl_spider.py), both at
# concurrency 16 with no delay, RUNS times each (a fresh gvingest-bench-server per crawl, so each starts cold and
# the server's counts are its own), and prints each median wall time against the bound 1000 x 0.05 / 16 = 3.125 s.
# The trivial keep-alive client (gvingest-server-bench --target) runs against the same server first: the bound the
# server allows.
# Usage: benchmarks/crawl-vs-scrapy.sh [RUNS]      (needs benchmarks/python/setup.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/lib.sh
runs=${1:-3}
pages=1000
latency_ms=50
concurrency=16
python=$(bench_python)
for product in gvingest gvingest-bench-server gvingest-server-bench; do swift build "${release[@]}" --product "$product" >/dev/null; done
bin=$(swift build "${release[@]}" --show-bin-path)
work=$(mktemp -d)
trap 'stop_server "$work/server.txt" >/dev/null; rm -rf "$work"' EXIT
serve() { start_server "$work/server.txt" "$bin/gvingest-bench-server" --pages "$pages" --latency-ms "$latency_ms" --seconds 300; }
bound=$(echo "$pages * $latency_ms / 1000 / $concurrency" | bc -l)

serve
client=$("$bin/gvingest-server-bench" --target "$server_port" | grep '^wall time')
stop_server "$work/server.txt" >/dev/null

# Each crawl must have fetched the listing and every course page and read a course from each.
check() {  # NAME: the crawl's JSON summary is in $work/NAME.json
  local fetched courses
  fetched=$(grep -o '"pagesFetched" *: *[0-9]*' "$work/$1.json" | grep -o '[0-9]*$')
  courses=$(grep -o '"courses" *: *[0-9]*' "$work/$1.json" | grep -o '[0-9]*$')
  [ "$fetched" = $((pages + 1)) ] && [ "$courses" = "$pages" ] \
    || { echo "crawl-vs-scrapy: $1 fetched ${fetched:-?} pages and read ${courses:-?} courses:" >&2; cat "$work/$1.json" "$work/$1.err" >&2; exit 1; }
  echo "$fetched $courses" >"$work/$1-pages.txt"
  # The crawler's own clock: the crawl without the process's start (Python's and Scrapy's imports).
  grep -o '"elapsedSeconds" *: *[0-9.]*' "$work/$1.json" | grep -o '[0-9.]*$' >>"$work/$1-own.txt"
}

for _ in $(seq "$runs"); do
  serve
  listing="http://127.0.0.1:$server_port/catalog/subject/benchmark.htm"
  # gvingest takes concurrency and delay from a configuration only; everything else is its default.
  cat >"$work/bench.json" <<JSON
{"schemaVersion": 1,
 "catalogs": [{"id": "bench", "name": "Benchmark", "system": "gvsu", "source": {"http": {"startUrls": ["$listing"]}}}],
 "fetch": {"concurrency": $concurrency, "perHostConcurrency": $concurrency, "minimumDelayMs": 0}}
JSON
  time_it_output=$work/gvingest.json time_it_errors=$work/gvingest.err \
    time_it "$bin/gvingest" fetch --config "$work/bench.json" --system gvsu --json --quiet >>"$work/gvingest.txt"
  stop_server "$work/server.txt" >"$work/gvingest-server.txt"
  check gvingest

  serve
  time_it_output=$work/scrapy.json time_it_errors=$work/scrapy.err \
    time_it "$python" benchmarks/python/crawl_spider.py "http://127.0.0.1:$server_port/catalog/subject/benchmark.htm" >>"$work/scrapy.txt"
  stop_server "$work/server.txt" >"$work/scrapy-server.txt"
  check scrapy
done

wall() { cut -d' ' -f1 "$work/$1.txt" | median; }
cpu() { cut -d' ' -f2 "$work/$1.txt" | median; }
row() {  # LABEL NAME
  read -r fetched courses <"$work/$2-pages.txt"
  local own
  own=$(median <"$work/$2-own.txt")
  printf '%-22s %6.3f s  %.2f x bound  (own clock %.3f s, %.2f x)  %5.3f s CPU  %d pages, %d courses\n' "$1" "$(wall "$2")" \
    "$(echo "$(wall "$2") / $bound" | bc -l)" "$own" "$(echo "$own / $bound" | bc -l)" "$(cpu "$2")" "$fetched" "$courses"
  printf '%-22s server: %s\n' '' "$(sed 's/^served //' "$work/$2-server.txt")"
}
printf 'site: 1 listing + %d course pages, %d ms to render each, concurrency %d; runs: %d (median); cores: %d\n' \
  "$pages" "$latency_ms" "$concurrency" "$runs" "$(nproc)"
printf 'bound %d x %.3f / %d = %.3f s\n' "$pages" "$(echo "$latency_ms / 1000" | bc -l)" "$concurrency" "$bound"
echo "trivial keep-alive client, same server: $client"
row 'gvingest fetch' gvingest
row 'Scrapy (crawl_spider)' scrapy
printf 'ratio Scrapy/gvingest  %.2f (wall)\n' "$(echo "$(wall scrapy) / $(wall gvingest)" | bc -l)"
echo "Wall times include starting the process; \"own clock\" is the time each crawler reports for the crawl itself."
