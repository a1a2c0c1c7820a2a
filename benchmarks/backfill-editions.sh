#!/usr/bin/env bash
# Times a release build of `gvingest backfill` over synthetic editions (issue 34's target: 15 editions of 5,000
# courses in at most 60 s and 1 GiB), the pages written by benchmarks/python/synthetic_editions.py.
# Usage: benchmarks/backfill-editions.sh [EDITIONS] [COURSES]
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/lib.sh
editions=${1:-15}
courses=${2:-5000}
[ -x /usr/bin/time ] || { echo "/usr/bin/time missing: apt-get install time" >&2; exit 69; }
swift build "${release[@]}" --product gvingest >/dev/null
bin=$(swift build "${release[@]}" --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mapfile -t labelled < <(python3 benchmarks/python/synthetic_editions.py "$work/pages" "$editions" "$courses")
mkdir -p "$work/project/pages"
cat >"$work/project/pipeline.json" <<JSON
{"schemaVersion": 1, "catalogs": [{"id": "synthetic", "name": "Synthetic", "system": "gvsu", "source": {"directory": "pages"}}],
 "outputs": {"directory": "out"}, "guards": {"minimumCourses": 1}}
JSON
(cd "$work/project" && /usr/bin/time -v "$bin/gvingest" backfill "${labelled[@]}" 2>"$work/log.txt") || { tail -20 "$work/log.txt" >&2; exit 1; }
grep -E '\[backfill\]' "$work/log.txt" | tail -2
printf 'editions: %d of %d courses; cores: %d\n' "$editions" "$courses" "$(nproc)"
printf 'wall time: %s s   (target ≤ 60 s)\n' "$(time_v_wall "$work/log.txt")"
printf 'peak memory: %d MiB   (target ≤ 1024 MiB)\n' "$(( $(time_v_rss "$work/log.txt") / 1024 ))"
python3 - "$work/project/out/catalog.json" <<'PY'
import collections, json, sys
courses = json.load(open(sys.argv[1]))["courses"]
print("first editions:", dict(sorted(collections.Counter(c.get("firstEdition") for c in courses).items())))
PY
