#!/usr/bin/env bash
# Builds one libFuzzer target and runs it for SECONDS, single process (docs/FUZZING.md).
#
#   fuzz/run.sh html|requisites SECONDS [libFuzzer flags...]
#
# Seeds are gathered afresh into .build/fuzz/seeds/TARGET from Fixtures/ and the real pages of
# Fixtures/realworld.tar.xz (unpacked into .build by scripts/realworld.sh) plus Fixtures/fuzz-regressions/TARGET; the corpus libFuzzer grows lives in
# .build/fuzz/corpus/TARGET and is kept between runs; crashes, leaks and timeouts land in
# .build/fuzz/artifacts/TARGET/; the whole output in .build/fuzz/logs/. Exits with libFuzzer's status.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"

usage() { echo "usage: fuzz/run.sh html|requisites SECONDS [libFuzzer flags...]" >&2; exit 64; }
[ $# -ge 2 ] || usage
target=$1
seconds=$2
shift 2
[[ $seconds =~ ^[0-9]+$ ]] || usage
case $target in
  # HTML pages run to 100 KB (the UM-Dearborn listing is 94 KB); twice that leaves room to grow.
  html) product=gvingest-fuzz-html; max_len=200000 ;;
  # Real prerequisite sentences are under 1 KB.
  requisites) product=gvingest-fuzz-requisites; max_len=2048 ;;
  *) usage ;;
esac
published=$(scripts/realworld.sh)
work=.build/fuzz
seeds=$work/seeds/$target
corpus=$work/corpus/$target
artifacts=$work/artifacts/$target
mkdir -p "$corpus" "$artifacts" "$work/logs"
rm -rf "$seeds"
mkdir -p "$seeds"

# The fuzz build has its own scratch path: instrumented objects never mix with the normal build's.
swift build -c release --product "$product" --scratch-path "$work/build" \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING

# An HTML seed is one selector byte (bits 0-2 parser, 3-5 Content-Type, 6-7 URL; see HTMLHarness)
# and the page. Each page goes in twice: recognized automatically, and read by its own system
# with its site's URL (0x40 GVSU, 0x80 Acalog, 0xC0 CourseLeaf).
html_seed() { # FILE NAME SELECTOR
  { printf "\\x$3"; cat "$1"; } >"$seeds/$2-$3"
  { printf '\x00'; cat "$1"; } >"$seeds/$2-00"
}
html_seeds() { # SELECTOR FILE...
  local selector=$1 file
  shift
  for file in "$@"; do
    [ -f "$file" ] && html_seed "$file" "$(basename "$(dirname "$file")")-$(basename "$file")" "$selector"
  done
  return 0
}

case $target in
  html)
    html_seeds 41 Fixtures/gvsu/course/*.html Fixtures/gvsu/subject/*.html
    html_seeds 82 Fixtures/acalog/*.html "$published"/realworld/acalog-lsu/*.html
    # A sample of the 7,866 Houston pages: every 250th, sorted, so runs seed alike.
    if [ -d "$published/realworld/acalog-uh/41" ]; then
      mapfile -t uh < <(find "$published/realworld/acalog-uh/41" "$published/realworld/acalog-uh/44" -name '*.html' | sort | awk 'NR % 250 == 1')
      html_seeds 82 "${uh[@]}"
    fi
    html_seeds C3 "$published"/realworld/courseleaf-umdearborn/*.html
    html_seeds 04 "$published"/realworld/banner/*.html
    ;;
  requisites)
    if [ -f "$published/prereqs/prereqs.tsv" ]; then
      # One file a sentence: the third column, the header skipped.
      tail -n +2 "$published/prereqs/prereqs.tsv" | cut -f3 |
        awk -v dir="$seeds" '{ f = sprintf("%s/prereqs-%03d", dir, NR); printf "%s", $0 > f; close(f) }'
    fi
    # The GVSU pages' prerequisites as the parsers gave them (the golden records).
    grep -ho '"prerequisiteString" *: *"[^"]*"' Fixtures/gvsu/course/*.golden.json 2>/dev/null |
      sed 's/^"prerequisiteString" *: *"//; s/"$//' | sort -u |
      awk -v dir="$seeds" '{ f = sprintf("%s/gvsu-%03d", dir, NR); printf "%s", $0 > f; close(f) }' || true
    ;;
esac
if [ -d "Fixtures/fuzz-regressions/$target" ]; then
  cp Fixtures/fuzz-regressions/"$target"/* "$seeds"/ 2>/dev/null || true
fi
echo "fuzz/run.sh: $(find "$seeds" -type f | wc -l) seeds, $(find "$corpus" -type f | wc -l) corpus inputs, ${seconds}s" >&2

log="$work/logs/$target-$(date -u +%Y%m%dT%H%M%SZ).log"
# Leaks: LeakSanitizer runs with ASan by default on Linux; said explicitly so an inherited setting can't turn it off.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1"
# Swift's own crash backtracer reads memory ASan guards and dies inside itself; libFuzzer and ASan report instead.
export SWIFT_BACKTRACE=enable=no
status=0
"$work/build/release/$product" "$corpus" "$seeds" \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 -max_len="$max_len" \
  -detect_leaks=1 -print_final_stats=1 -artifact_prefix="$artifacts/" "$@" 2>&1 | tee "$log" || status=${PIPESTATUS[0]}
echo "fuzz/run.sh: log in $log, status $status" >&2
exit "$status"
