#!/usr/bin/env bash
# Wall time and peak memory of a whole `gvingest run` (release build) over the largest offline input: the 3,993 UH
# pages of catalog 44 read as saved pages, parsed, normalized, diffed against the snapshot of a first run over
# catalog 41 (3,873 pages, so the diff and the announcements have real work), announced and published. Only the
# second run is measured, under /usr/bin/time -v; each of RUNS runs starts from a fresh output directory.
# With --baseline BIN, another gvingest binary (a release build of an earlier commit) takes its turn in each run too,
# so a change is measured against its starting point in the same minutes.
# Usage: benchmarks/full-run-memory.sh [--baseline BIN] [RUNS]      (needs /usr/bin/time: apt-get install time)
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/lib.sh
baseline=
if [ "${1:-}" = --baseline ]; then
  [ $# -ge 2 ] && [ -x "$2" ] || { echo "full-run-memory: --baseline needs an executable gvingest" >&2; exit 64; }
  baseline=$2; shift 2
fi
runs=${1:-3}
old=$(realworld)/acalog-uh/41
new=$(realworld)/acalog-uh/44
[ -x /usr/bin/time ] || { echo "full-run-memory: /usr/bin/time missing: apt-get install time" >&2; exit 69; }
swift build "${release[@]}" --product gvingest >/dev/null
bin=$(swift build "${release[@]}" --show-bin-path)/gvingest
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One run of `$1`, labelled `$2`: the first run, then the timed second one; prints "label wall rss".
measure() {
  local out=$work/out-$2-$run status=0
  # The same --catalog id makes the second run diff against the first one's snapshot.
  "$1" run --source "$old" --system acalog --catalog uh --out "$out" --quiet 2>"$work/first.txt" \
    || { cat "$work/first.txt" >&2; echo "full-run-memory: the first run (catalog 41) failed" >&2; exit 1; }
  /usr/bin/time -v "$1" run --source "$new" --system acalog --catalog uh --out "$out" --quiet 2>"$work/time.txt" || status=$?
  [ "$status" -eq 0 ] || { cat "$work/time.txt" >&2; echo "full-run-memory: gvingest run exited $status" >&2; exit 1; }
  echo "$2 $(time_v_wall "$work/time.txt") $(time_v_rss "$work/time.txt")"
}
for run in $(seq "$runs"); do
  [ -z "$baseline" ] || measure "$baseline" baseline
  measure "$bin" gvingest
done >"$work/runs.txt"

printf 'input: %d pages (catalog 44) after a first run over %d (catalog 41); runs: %d; cores: %d\n' \
  "$(find "$new" -name '*.html' | wc -l)" "$(find "$old" -name '*.html' | wc -l)" "$runs" "$(nproc)"
grep -o '\[publish\].*' "$work/time.txt" | sed 's/; wrote .*//; s/^/last run: /'
for label in gvingest ${baseline:+baseline}; do
  printf '%-8s wall time (median of %d): %.2f s, peak memory (largest): %.0f MiB\n' "$label" "$runs" \
    "$(awk -v l="$label" '$1 == l {print $2}' "$work/runs.txt" | median)" \
    "$(awk -v l="$label" '$1 == l {print $3}' "$work/runs.txt" | sort -n | tail -1 | awk '{print $1 / 1024}')"
done
echo 'stages of the last run (run-report.json):'
awk -F': ' '/"name"/ {gsub(/[",]/, "", $2); name = $2} /"seconds"/ {gsub(/,/, "", $2); printf "  %-24s %s s\n", name, $2}' \
  "$work/out-gvingest-$runs/run-report.json"
