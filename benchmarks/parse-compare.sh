#!/usr/bin/env bash
# Times, over the same ~4,000 UH pages of catalog 44, a release build of `gvingest parse --json`, `xmllint --html
# --noout` (libxml2 alone: the floor) and benchmarks/python/uh_lxml.py (what a Python user would write: lxml and
# XPath, the same fields), median of RUNS runs each, and prints gvingest/xmllint and lxml/gvingest. Before timing,
# the lxml script's records are checked against gvingest's, so both are known to extract the same thing.
# With --baseline BIN, another gvingest binary (a release build of an earlier commit) takes its turn too, so a
# change is measured against its starting point in the same minutes, not against figures taken another hour.
# Usage: benchmarks/parse-compare.sh [--without-python] [--baseline BIN] [RUNS]
#   needs xmllint (apt-get install libxml2-utils) and, unless --without-python, benchmarks/python/setup.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/lib.sh
with_python=1
baseline=
while [ $# -gt 0 ]; do
  case $1 in
    --without-python) with_python=0; shift ;;
    --baseline) [ $# -ge 2 ] && [ -x "$2" ] || { echo "parse-compare: --baseline needs an executable gvingest" >&2; exit 64; }
                baseline=$2; shift 2 ;;
    *) break ;;
  esac
done
runs=${1:-5}
pages=../shared/realworld/acalog-uh/44
[ -d "$pages" ] || { echo "parse-compare: $pages missing: shared/ must sit beside the checkout" >&2; exit 66; }
command -v xmllint >/dev/null || { echo "parse-compare: xmllint missing: apt-get install libxml2-utils" >&2; exit 69; }
[ "$with_python" -eq 0 ] || python=$(bench_python)
swift build "${release[@]}" --product gvingest >/dev/null
bin=$(swift build "${release[@]}" --show-bin-path)/gvingest
files=("$pages"/*.html)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Warm the page cache so every contender reads the files from memory.
cat "${files[@]}" >/dev/null
"$bin" parse --json "$pages" >"$work/gvingest.json" 2>/dev/null
records=$(grep -c '"id" :' "$work/gvingest.json")
if [ "$with_python" -eq 1 ]; then
  "$python" benchmarks/python/uh_lxml.py "$pages" --check "$work/gvingest.json" >"$work/agreement.txt" \
    || { cat "$work/agreement.txt" >&2; echo "parse-compare: the lxml script and gvingest disagree" >&2; exit 1; }
fi

# Taken in turns (gvingest, xmllint, lxml, gvingest, …), so a machine that slows down or speeds up during the
# benchmark (a shared VM does) shifts every contender alike instead of the ratio.
for _ in $(seq "$runs"); do
  time_it "$bin" parse --json "$pages" >>"$work/gvingest.txt"
  [ -z "$baseline" ] || time_it "$baseline" parse --json "$pages" >>"$work/baseline.txt"
  time_it xmllint --html --noout "${files[@]}" >>"$work/xmllint.txt"
  [ "$with_python" -eq 0 ] || time_it "$python" benchmarks/python/uh_lxml.py "$pages" >>"$work/lxml.txt"
done
wall() { cut -d' ' -f1 "$work/$1.txt" | median; }
cpu() { cut -d' ' -f2 "$work/$1.txt" | median; }

printf 'pages: %d, records: %d, runs: %d (median), cores: %d\n' "${#files[@]}" "$records" "$runs" "$(nproc)"
printf '%-30s %7s %9s\n' '' wall 'CPU time'
printf '%-30s %6.3f s %7.3f s\n' 'gvingest parse --json' "$(wall gvingest)" "$(cpu gvingest)"
[ -z "$baseline" ] || printf '%-30s %6.3f s %7.3f s\n' 'baseline parse --json' "$(wall baseline)" "$(cpu baseline)"
printf '%-30s %6.3f s %7.3f s\n' 'xmllint --html --noout' "$(wall xmllint)" "$(cpu xmllint)"
[ "$with_python" -eq 0 ] || printf '%-30s %6.3f s %7.3f s\n' 'python uh_lxml.py (lxml)' "$(wall lxml)" "$(cpu lxml)"
printf 'ratio gvingest/xmllint  %.2f (wall)\n' "$(echo "$(wall gvingest) / $(wall xmllint)" | bc -l)"
if [ -n "$baseline" ]; then
  printf 'ratio baseline/xmllint  %.2f (wall)\n' "$(echo "$(wall baseline) / $(wall xmllint)" | bc -l)"
  printf 'ratio gvingest/baseline %.3f (wall), %.3f (CPU time)\n' "$(echo "$(wall gvingest) / $(wall baseline)" | bc -l)" \
    "$(echo "$(cpu gvingest) / $(cpu baseline)" | bc -l)"
fi
if [ "$with_python" -eq 1 ]; then
  printf 'ratio lxml/gvingest     %.2f (wall), %.2f (CPU time)\n' "$(echo "$(wall lxml) / $(wall gvingest)" | bc -l)" \
    "$(echo "$(cpu lxml) / $(cpu gvingest)" | bc -l)"
  echo "gvingest parse spreads pages over every core; xmllint and the lxml script are one process on one core,"
  echo "as people run them. The lxml script extracts the same fields but, unlike gvingest, does not parse"
  echo "prerequisites into trees, build reverse links or record each field's source."
  echo "agreement of the lxml script with gvingest:"
  sed 's/^/  /' "$work/agreement.txt"
fi
