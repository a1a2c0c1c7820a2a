#!/usr/bin/env bash
# Times, over the same ~4,000 UH pages of catalog 44, a release build of `gvingest parse --json`, `xmllint --html
# --noout` (libxml2 alone: the floor) and benchmarks/python/uh_lxml.py (what a Python user would write: lxml and
# XPath, the same fields), median of RUNS runs each, and prints gvingest/xmllint (also round by round, with its
# spread) and lxml/gvingest. Before timing,
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
pages=$(realworld)/acalog-uh/44
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

# Taken in turns, the order turned one place each round (gvingest, xmllint, lxml; then xmllint, lxml, gvingest; …):
# a machine that slows down or speeds up during the benchmark (a shared VM does) shifts every contender alike
# instead of the ratio, and no contender always runs right after the same one (the 2-second lxml run, say).
contenders=(gvingest)
[ -z "$baseline" ] || contenders+=(baseline)
contenders+=(xmllint)
[ "$with_python" -eq 0 ] || contenders+=(lxml)
run_contender() {
  case $1 in
    gvingest) time_it "$bin" parse --json "$pages" ;;
    baseline) time_it "$baseline" parse --json "$pages" ;;
    xmllint) time_it xmllint --html --noout "${files[@]}" ;;
    lxml) time_it "$python" benchmarks/python/uh_lxml.py "$pages" ;;
  esac
}
for round in $(seq "$runs"); do
  for turn in "${!contenders[@]}"; do
    contender=${contenders[$(( (turn + round) % ${#contenders[@]} ))]}
    run_contender "$contender" >>"$work/$contender.txt"
  done
done
wall() { cut -d' ' -f1 "$work/$1.txt" | median; }
cpu() { cut -d' ' -f2 "$work/$1.txt" | median; }
# A's wall time over B's round by round (both ran in the same minute), as "median (lowest–highest)": the spread
# is how far this machine wanders, against which a difference of a few per cent means nothing.
per_round() {
  paste -d' ' "$work/$1.txt" "$work/$2.txt" | awk '{printf "%.4f\n", $1 / $3}' | sort -n \
    | awk '{a[NR]=$1} END {m = (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2; printf "%.2f (%.2f–%.2f)", m, a[1], a[NR]}'
}

printf 'pages: %d, records: %d, runs: %d (median), cores: %d\n' "${#files[@]}" "$records" "$runs" "$(nproc)"
printf '%-30s %7s %9s\n' '' wall 'CPU time'
printf '%-30s %6.3f s %7.3f s\n' 'gvingest parse --json' "$(wall gvingest)" "$(cpu gvingest)"
[ -z "$baseline" ] || printf '%-30s %6.3f s %7.3f s\n' 'baseline parse --json' "$(wall baseline)" "$(cpu baseline)"
printf '%-30s %6.3f s %7.3f s\n' 'xmllint --html --noout' "$(wall xmllint)" "$(cpu xmllint)"
[ "$with_python" -eq 0 ] || printf '%-30s %6.3f s %7.3f s\n' 'python uh_lxml.py (lxml)' "$(wall lxml)" "$(cpu lxml)"
printf 'ratio gvingest/xmllint  %.2f (wall); round by round %s\n' "$(echo "$(wall gvingest) / $(wall xmllint)" | bc -l)" \
  "$(per_round gvingest xmllint)"
if [ -n "$baseline" ]; then
  printf 'ratio baseline/xmllint  %.2f (wall); round by round %s\n' "$(echo "$(wall baseline) / $(wall xmllint)" | bc -l)" \
    "$(per_round baseline xmllint)"
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
