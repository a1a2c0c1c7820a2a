#!/usr/bin/env bash
# Every benchmark of docs/BENCHMARKS.md in one run on one machine, one after another (never two at once), with the
# machine and the date at the top; the whole output also goes to .build/benchmarks-<date>.log. Run it on a quiet
# machine: nothing else building or testing beside it.
# Usage: benchmarks/run-all.sh [RUNS]     (RUNS for the repeated ones, default 5)
#   needs xmllint (libxml2-utils), /usr/bin/time (time), benchmarks/python/setup.sh's venv and the Firestore emulator
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/lib.sh
runs=${1:-5}
mkdir -p .build
log=.build/benchmarks-$(date -u +%Y%m%dT%H%M%SZ).log
{
  echo "== machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $(. /etc/os-release && echo "$PRETTY_NAME")," \
       "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
  echo "== $(swift --version 2>&1 | head -1); $(xmllint --version 2>&1 | head -1)"
  echo "== date: $(date -u +%Y-%m-%dT%H:%MZ); commit $(git rev-parse --short HEAD)$(git diff --quiet || echo ' (with uncommitted changes)')"
  swift build "${release[@]}" >/dev/null
  echo; echo "== parse: gvingest, xmllint, lxml";                  benchmarks/parse-compare.sh "$runs"
  echo; echo "== parse: where the time goes (one core)";            "$(swift build "${release[@]}" --show-bin-path)/gvingest-parse-stages"
  echo; echo "== prerequisite parser throughput";                   "$(swift build "${release[@]}" --show-bin-path)/gvingest-prereq-bench" 3
  echo; echo "== servers against the bound";                        benchmarks/server-bound.sh
  echo; echo "== crawl: gvingest against Scrapy";                   benchmarks/crawl-vs-scrapy.sh "$runs"
  echo; echo "== crawl in process, then the cached re-run";         "$(swift build "${release[@]}" --show-bin-path)/gvingest-fetch-bench"
  echo; echo "== diff of two 50,000-course snapshots";              benchmarks/diff-50k.sh 50000 3
  echo; echo "== a full run: wall time and peak memory";            benchmarks/full-run-memory.sh 3
  echo; echo "== config check of 20,000 to 200,000 channels";     benchmarks/config-check.sh 3
  echo; echo "== the shard plan of 100 catalogs";                  benchmarks/shard-plan.sh 100 4000 3
  echo; echo "== Firestore publish against the BulkWriter";         benchmarks/firestore-publish.sh "$runs"
} 2>&1 | tee "$log"
echo "(saved in $log)"
