#!/usr/bin/env bash
# What one machine spends per page and per catalog, for docs/SHARDING.md's capacity (release build, /usr/bin/time -v):
#   1. a large catalog: a first run over the 3,993 saved UH 44 pages (CPU and peak memory per page);
#   2. a small catalog: a first run replaying the 77-page GVSU mirror (what a catalog costs beyond its pages);
#   3. a shard: `run --all` over 24 catalogs replaying that mirror, 4 at a time (fetch.maxConcurrentHosts), each its
#      own key: the peak memory of a worker with several catalogs in flight.
# Usage: benchmarks/shard-capacity.sh [RUNS]      (needs /usr/bin/time: apt-get install time)
# GVINGEST_BIN=PATH measures that binary (a release build) instead of building one.
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/lib.sh
runs=${1:-3}
[ -x /usr/bin/time ] || { echo "shard-capacity: /usr/bin/time missing: apt-get install time" >&2; exit 69; }
if [ -n "${GVINGEST_BIN:-}" ]; then
  bin=$GVINGEST_BIN
else
  swift build "${release[@]}" --product gvingest >/dev/null
  bin=$(swift build "${release[@]}" --show-bin-path)/gvingest
fi
uh=$(realworld)/acalog-uh/44
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Runs "$@" under /usr/bin/time -v; prints "CPU_SECONDS PEAK_KIB".
measure() {
  local status=0
  /usr/bin/time -v "$@" >/dev/null 2>"$work/time.txt" || status=$?
  [ "$status" -eq 0 ] || { tail -20 "$work/time.txt" >&2; echo "shard-capacity: '$*' exited $status" >&2; exit 1; }
  awk -F': ' '/User time/ {u = $2} /System time/ {s = $2} /Maximum resident set size/ {m = $2} END {print u + s, m}' "$work/time.txt"
}

ln -s "$PWD/Fixtures/gvsu" "$work/gvsu"
entries=$(for i in $(seq -w 1 24); do printf '{"id": "c%s", "name": "C%s", "system": "gvsu", "source": {"replay": "gvsu"}},' "$i" "$i"; done)
printf '{"schemaVersion": 1, "catalogs": [%s], "fetch": {"maxConcurrentHosts": 4}, "outputs": {"directory": "out"}}\n' \
  "${entries%,}" >"$work/many.json"
printf '{"schemaVersion": 1, "catalogs": [{"id": "one", "name": "One", "system": "gvsu", "source": {"replay": "gvsu"}}], "outputs": {"directory": "out1"}}\n' \
  >"$work/one.json"
for run in $(seq "$runs"); do
  rm -rf "$work/uh" "$work/out" "$work/out1"
  echo "large $(measure "$bin" run --source "$uh" --system acalog --catalog uh --out "$work/uh" --quiet)"
  echo "small $(measure "$bin" run --config "$work/one.json" --quiet)"
  echo "shard $(measure "$bin" run --all --config "$work/many.json")"
done >"$work/runs.txt"

pages_large=$(find "$uh" -name '*.html' | wc -l)
pages_small=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["pages"]))' Fixtures/gvsu/index.json 2>/dev/null || echo 77)
cpu() { awk -v l="$1" '$1 == l {print $2}' "$work/runs.txt" | median; }
rss() { awk -v l="$1" '$1 == l {print $3}' "$work/runs.txt" | sort -n | tail -1 | awk '{printf "%.0f", $1 / 1024}'; }
printf 'runs: %d; cores: %d; CPU = user + system (median), memory = peak RSS (largest)\n' "$runs" "$(nproc)"
printf 'large catalog (%d pages, first run): %.2f s CPU, %s MiB; %.3f ms CPU a page\n' "$pages_large" "$(cpu large)" "$(rss large)" \
  "$(awk -v c="$(cpu large)" -v p="$pages_large" 'BEGIN {print c / p * 1000}')"
printf 'large catalog outputs after one run: %s MiB (catalog.json, news, one snapshot)\n' "$(du -sm "$work/uh" | cut -f1)"
printf 'small catalog (%d pages, first run): %.3f s CPU, %s MiB\n' "$pages_small" "$(cpu small)" "$(rss small)"
printf 'shard of 24 small catalogs, 4 at a time: %.2f s CPU (%.3f s a catalog), %s MiB\n' "$(cpu shard)" \
  "$(awk -v c="$(cpu shard)" 'BEGIN {print c / 24}')" "$(rss shard)"
