#!/usr/bin/env bash
# Times a release build of `gvingest parse --json` over the ~4,000 UH pages of catalog 44 against
# `xmllint --html --noout` over the same files (libxml2 alone: the floor), and prints the ratio.
# Usage: benchmarks/parse-vs-xmllint.sh [RUNS]   (needs xmllint: apt-get install libxml2-utils)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
pages=../shared/realworld/acalog-uh/44
command -v xmllint >/dev/null || { echo "xmllint missing: apt-get install libxml2-utils" >&2; exit 69; }
swift build -c release --product gvingest >/dev/null
bin=$(swift build -c release --show-bin-path)/gvingest
files=("$pages"/*.html)

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
time_it() {  # prints seconds for one run of "$@"
  local start end
  start=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; end=$(date +%s.%N)
  echo "$end - $start" | bc -l
}

# Warm the page cache so both read the files from memory.
cat "${files[@]}" >/dev/null
gv=$(for _ in $(seq "$runs"); do time_it "$bin" parse --json "$pages"; done | median)
xl=$(for _ in $(seq "$runs"); do time_it xmllint --html --noout "${files[@]}"; done | median)
records=$("$bin" parse --json "$pages" 2>/dev/null | grep -c '"id" :')
printf 'pages: %d, records: %d, runs: %d (median), cores: %d\n' "${#files[@]}" "$records" "$runs" "$(nproc)"
printf 'gvingest parse --json   %.3f s\n' "$gv"
printf 'xmllint --html --noout  %.3f s\n' "$xl"
printf 'ratio gvingest/xmllint  %.2f\n' "$(echo "$gv / $xl" | bc -l)"
