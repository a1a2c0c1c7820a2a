#!/usr/bin/env bash
# Times a release build of `gvingest diff --json` over two synthetic snapshots of 50,000 courses each
# (realistic records, ~1.5 KB each; the second with ~1 % changed, 0.5 % removed, 0.5 % added, 0.2 %
# renumbered) and reports wall time and peak memory from /usr/bin/time -v. Targets (issue 29): ≤ 3 s, ≤ 600 MiB.
# Usage: benchmarks/diff-50k.sh [COURSES] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/lib.sh
courses=${1:-50000}
runs=${2:-5}
[ -x /usr/bin/time ] || { echo "/usr/bin/time missing: apt-get install time" >&2; exit 69; }
swift build "${release[@]}" --product gvingest >/dev/null
swift build "${release[@]}" --product SyntheticSnapshots >/dev/null
bin=$(swift build "${release[@]}" --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$bin/SyntheticSnapshots" pair "$work/old.json" "$work/new.json" --courses "$courses"
summary=$("$bin/gvingest" diff "$work/old.json" "$work/new.json" | tail -1 || true)
for _ in $(seq "$runs"); do
  status=0
  /usr/bin/time -v "$bin/gvingest" diff --json "$work/old.json" "$work/new.json" >"$work/diff.json" 2>"$work/time.txt" || status=$?
  [ "$status" -eq 1 ] || { echo "gvingest diff exited $status" >&2; cat "$work/time.txt" >&2; exit 1; }
  echo "$(time_v_wall "$work/time.txt") $(time_v_rss "$work/time.txt")"
done >"$work/runs.txt"

printf 'snapshots: %d courses each, %s and %s bytes; cores: %d\n' "$courses" \
  "$(stat -c %s "$work/old.json")" "$(stat -c %s "$work/new.json")" "$(nproc)"
printf 'diff: %s\n' "$summary"
printf 'wall time (median of %d): %.2f s   (target ≤ 3 s)\n' "$runs" "$(cut -d' ' -f1 "$work/runs.txt" | median)"
printf 'peak memory (largest):    %.0f MiB (target ≤ 600 MiB)\n' "$(cut -d' ' -f2 "$work/runs.txt" | sort -n | tail -1 | awk '{print $1 / 1024}')"
