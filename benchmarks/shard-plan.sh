#!/usr/bin/env bash
# Times `gvingest shards` over CATALOGS catalogs whose last snapshots hold COURSES synthetic courses each (one file,
# hard-linked into every catalog's store): the plan weighs each catalog by its last page count, and every
# `run --shard` worker makes the same plan before it starts. GVINGEST_BIN times another build of gvingest.
# Usage: benchmarks/shard-plan.sh [CATALOGS] [COURSES] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/lib.sh
catalogs=${1:-100}
courses=${2:-4000}
runs=${3:-3}
folder=$(release_products gvingest SyntheticSnapshots)
bin=${GVINGEST_BIN:-$folder/gvingest}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$folder/SyntheticSnapshots" pair "$work/old.json" "$work/new.json" --courses "$courses"
{
  printf '{"schemaVersion": 1, "catalogs": [\n'
  for i in $(seq 0 $((catalogs - 1))); do
    mkdir -p "$work/out/snapshots/c$i"
    ln "$work/new.json" "$work/out/snapshots/c$i/snapshot-000001-20240501T104000Z.json"
    printf '%s{"id": "c%d", "name": "C%d", "system": "acalog", "source": {"http": {"startUrls": ["https://catalog.example%d.edu/"]}}}\n' \
      "$([ "$i" -gt 0 ] && echo ,)" "$i" "$i" "$i"
  done
  printf ']}\n'
} >"$work/pipeline.json"
(cd "$work" && "$bin" shards --count 4 >/dev/null)
for _ in $(seq "$runs"); do (cd "$work" && time_it "$bin" shards --count 4); done >"$work/runs.txt"
printf '%d catalogs, a snapshot of %d courses (%s bytes) each: shards --count 4 in %.2f s (median of %d; CPU %.2f s)\n' \
  "$catalogs" "$courses" "$(stat -c %s "$work/new.json")" "$(cut -d' ' -f1 "$work/runs.txt" | median)" "$runs" \
  "$(cut -d' ' -f2 "$work/runs.txt" | median)"
