#!/usr/bin/env bash
# Wall time, peak memory and exit status of `gvingest run` against each hostile server case of issue 19
# (gvingest-bench-server --hostile CASE: the benchmark site with its first course page, or robots.txt, made
# hostile), with deadlineSeconds 20 and requestTimeoutSeconds 5; then of `gvingest parse` on a generated Acalog
# listing of 100,000 links and a course page with a 2 MB prerequisite. Every run under /usr/bin/time -v.
# Usage: benchmarks/hostile-cases.sh [debug|release]     (needs /usr/bin/time: apt-get install time)
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/lib.sh
mode=${1:-release}
if [ "$mode" = release ]; then flags=("${release[@]}"); else flags=(); fi
[ -x /usr/bin/time ] || { echo "hostile-cases: /usr/bin/time missing: apt-get install time" >&2; exit 69; }
swift build "${flags[@]}" --product gvingest >/dev/null
swift build "${flags[@]}" --product gvingest-bench-server >/dev/null
bin=$(swift build "${flags[@]}" --show-bin-path)
work=$(mktemp -d)
trap 'stop_server "$work/server.txt" >/dev/null; rm -rf "$work"' EXIT

printf '| case | exit | wall | peak memory | what the run said |\n| --- | --- | --- | --- | --- |\n'
for case in drip header-drip slow-robots retry-after gzip-bomb gzip-bomb-40g endless redirect-port redirect-file; do
  start_server "$work/server.txt" "$bin/gvingest-bench-server" --hostile "$case" --pages 20 --latency-ms 0 --seconds 300
  cat >"$work/pipeline.json" <<JSON
{"schemaVersion": 1,
 "catalogs": [{"id": "bench", "name": "Benchmark", "system": "gvsu",
               "source": {"http": {"startUrls": ["http://127.0.0.1:$server_port/catalog/subject/benchmark.htm"]}}}],
 "fetch": {"minimumDelayMs": 0, "deadlineSeconds": 20, "requestTimeoutSeconds": 5, "maxAttempts": 4,
           "backoffBaseMs": 100, "backoffMaxMs": 1000, "retryAfterMaxSeconds": 3600},
 "outputs": {"directory": "out-$case"}}
JSON
  status=0
  /usr/bin/time -v "$bin/gvingest" run --config "$work/pipeline.json" --quiet 2>"$work/time.txt" || status=$?
  said=$(grep -E '(deadline|ben-100|refused|larger)' "$work/time.txt" | head -1 | sed 's/^.*\] //; s/|/\\|/g' | cut -c1-150)
  printf '| %s | %s | %.1f s | %.0f MiB | %s |\n' "$case" "$status" "$(time_v_wall "$work/time.txt")" \
    "$(awk '{print $1 / 1024}' <<<"$(time_v_rss "$work/time.txt")")" "$said"
  stop_server "$work/server.txt" >/dev/null
done

# Crafted files: generated here, never committed.
python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
links = ''.join('<li><a href="preview_course_nopop.php?catoid=35&amp;coid=%d">EE %d Topic %d (3)</a></li>\n' % (200000 + i, 1000 + i % 9000, i)
                for i in range(100000))
open(work + '/listing.html', 'w').write('<html><body><table><tr><td class="block_content"><h1 id="acalog-content">EE</h1><ul>'
                                        + links + '</ul></td></tr></table></body></html>')
prose = ', '.join('CS %d and MTH %d' % (100 + i % 800, 100 + (i * 7) % 800) for i in range(110000))[:2_000_000]
open(work + '/prerequisite.html', 'w').write('<html><body><h1>CS 101 - Intro</h1><p>Description.</p><p>Prerequisite: '
                                             + prose + '</p><p>Credits: 3</p></body></html>')
PY
for file in listing prerequisite; do
  system=$([ "$file" = listing ] && echo acalog || echo gvsu)
  status=0
  /usr/bin/time -v "$bin/gvingest" parse --system "$system" "$work/$file.html" >/dev/null 2>"$work/time.txt" || status=$?
  printf '| %s (%s bytes) | %s | %.1f s | %.0f MiB | %s |\n' "$file" "$(stat -c %s "$work/$file.html")" "$status" \
    "$(time_v_wall "$work/time.txt")" "$(awk '{print $1 / 1024}' <<<"$(time_v_rss "$work/time.txt")")" \
    "$(grep -o 'gvingest parse: .*' "$work/time.txt" | head -1)"
done
