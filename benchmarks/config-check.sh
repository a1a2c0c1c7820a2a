#!/usr/bin/env bash
# Times a release build of `gvingest config check` over configurations of 20,000, 40,000 and 200,000 announce
# channels (each a webhook named by its variable), and reports wall time and peak memory from /usr/bin/time -v.
# Target (issue 39): linear, and 200,000 channels within 2 s.
# Usage: benchmarks/config-check.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/lib.sh
runs=${1:-3}
[ -x /usr/bin/time ] || { echo "/usr/bin/time missing: apt-get install time" >&2; exit 69; }
bin=$(release_products gvingest)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for count in 20000 40000 200000; do
  {
    printf '{"schemaVersion": 1, "catalogs": [{"id": "gvsu", "name": "GVSU", "system": "gvsu", "source": {"replay": "gvsu"}}],\n'
    printf ' "announce": {"channels": [\n'
    seq 0 $((count - 1)) | awk '{printf "%s{\"name\": \"hook-%d\", \"webhook\": {\"urlEnv\": \"GVINGEST_HOOK_URL\"}}\n", (NR > 1 ? "," : ""), $1}'
    printf ']}}\n'
  } >"$work/pipeline.json"
  for _ in $(seq "$runs"); do
    /usr/bin/time -v "$bin/gvingest" config check "$work/pipeline.json" >/dev/null 2>"$work/time.txt" \
      || { echo "gvingest config check failed" >&2; cat "$work/time.txt" >&2; exit 1; }
    echo "$(time_v_wall "$work/time.txt") $(time_v_rss "$work/time.txt")"
  done >"$work/runs.txt"
  printf '%6d channels (%s bytes): %.2f s median of %d, at most %.2f s; peak %.0f MiB\n' "$count" "$(stat -c %s "$work/pipeline.json")" \
    "$(cut -d' ' -f1 "$work/runs.txt" | median)" "$runs" "$(cut -d' ' -f1 "$work/runs.txt" | sort -n | tail -1)" \
    "$(cut -d' ' -f2 "$work/runs.txt" | sort -n | tail -1 | awk '{print $1 / 1024}')"
done
echo "target: 200,000 channels within 2 s"
