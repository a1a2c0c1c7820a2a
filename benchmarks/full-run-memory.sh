#!/usr/bin/env bash
# Wall time and peak memory of a whole `gvingest run` (release build) over the largest offline input: the 3,993 UH
# pages of catalog 44 read as saved pages, parsed, normalized, diffed against the snapshot of a first run over
# catalog 41 (3,873 pages, so the diff and the announcements have real work), announced and published. Only the
# second run is measured, under /usr/bin/time -v; each of RUNS runs starts from a fresh output directory.
# Usage: benchmarks/full-run-memory.sh [RUNS]      (needs /usr/bin/time: apt-get install time)
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/lib.sh
runs=${1:-3}
old=../shared/realworld/acalog-uh/41
new=../shared/realworld/acalog-uh/44
for pages in "$old" "$new"; do
  [ -d "$pages" ] || { echo "full-run-memory: $pages missing: shared/ must sit beside the checkout" >&2; exit 66; }
done
[ -x /usr/bin/time ] || { echo "full-run-memory: /usr/bin/time missing: apt-get install time" >&2; exit 69; }
swift build "${release[@]}" --product gvingest >/dev/null
bin=$(swift build "${release[@]}" --show-bin-path)/gvingest
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for run in $(seq "$runs"); do
  out=$work/out-$run
  # The same --catalog id makes the second run diff against the first one's snapshot.
  "$bin" run --source "$old" --system acalog --catalog uh --out "$out" --quiet 2>"$work/first.txt" \
    || { cat "$work/first.txt" >&2; echo "full-run-memory: the first run (catalog 41) failed" >&2; exit 1; }
  status=0
  /usr/bin/time -v "$bin" run --source "$new" --system acalog --catalog uh --out "$out" --quiet 2>"$work/time.txt" || status=$?
  [ "$status" -eq 0 ] || { cat "$work/time.txt" >&2; echo "full-run-memory: gvingest run exited $status" >&2; exit 1; }
  echo "$(time_v_wall "$work/time.txt") $(time_v_rss "$work/time.txt")"
done >"$work/runs.txt"

printf 'input: %d pages (catalog 44) after a first run over %d (catalog 41); runs: %d; cores: %d\n' \
  "$(find "$new" -name '*.html' | wc -l)" "$(find "$old" -name '*.html' | wc -l)" "$runs" "$(nproc)"
grep -o '\[publish\].*' "$work/time.txt" | sed 's/; wrote .*//; s/^/last run: /'
printf 'wall time (median of %d): %.2f s\n' "$runs" "$(cut -d' ' -f1 "$work/runs.txt" | median)"
printf 'peak memory (largest):    %.0f MiB\n' "$(cut -d' ' -f2 "$work/runs.txt" | sort -n | tail -1 | awk '{print $1 / 1024}')"
echo 'stages of the last run (run-report.json):'
awk -F': ' '/"name"/ {gsub(/[",]/, "", $2); name = $2} /"seconds"/ {gsub(/,/, "", $2); printf "  %-24s %s s\n", name, $2}' \
  "$work/out-$runs/run-report.json"
