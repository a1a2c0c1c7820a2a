#!/usr/bin/env bash
# Publishes UH catalog 41 (3,873 pages: 3,868 courses) into the Firestore emulator with the release gvingest binary
# (`gvingest publish`) and with Google's own Python client writing the same documents with its BulkWriter
# (benchmarks/python/firestore_bulkwriter.py), in turns, RUNS times each, each into a fresh project (so every
# publish starts from an empty database), and prints the median wall times and their ratio; the BulkWriter is
# timed as shipped (its 500/50/5 ramp-up) and unthrottled. One emulator serves all of them; it is stopped at the end.
# Usage: benchmarks/firestore-publish.sh [RUNS]      (needs benchmarks/python/setup.sh and the Firestore emulator)
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/lib.sh
runs=${1:-5}
python=$(bench_python)
command -v gcloud >/dev/null || { echo "firestore-publish: gcloud missing: apt-get install google-cloud-cli-firestore-emulator" >&2; exit 69; }
swift build "${release[@]}" --product gvingest >/dev/null
bin=$(swift build "${release[@]}" --show-bin-path)/gvingest
work=$(mktemp -d)
port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# gcloud puts itself and java in a process group of their own: setsid makes that group's id known here.
setsid gcloud emulators firestore start --host-port="127.0.0.1:$port" >"$work/emulator.log" 2>&1 &
emulator=$!
trap '{ kill -KILL -- -"$emulator"; wait "$emulator"; } 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 300); do curl -sf "http://127.0.0.1:$port/" >/dev/null && break; sleep 0.2; done
curl -sf "http://127.0.0.1:$port/" >/dev/null || { echo "firestore-publish: the emulator did not start:" >&2; cat "$work/emulator.log" >&2; exit 1; }
export FIRESTORE_EMULATOR_HOST="127.0.0.1:$port"

"$bin" run --source "$(realworld)/acalog-uh/41" --system acalog --catalog uh --out "$work/out" --quiet 2>/dev/null
documents=$(( $(grep -o '"courseCount" *: *[0-9]*' "$work/out/catalog.json" | grep -o '[0-9]*$') \
            + $(grep -c '"id" *:' "$work/out/news.json" || true) ))
# Warm the emulator's JIT once with each client, so neither pays for the other's first requests.
"$bin" publish --firestore demo-warm-swift --out "$work/out" >/dev/null
"$python" benchmarks/python/firestore_bulkwriter.py "$work/out" demo-warm-python --unthrottled >/dev/null

check() {  # PROJECT: every document must be there
  local count
  count=$(( $("$python" benchmarks/python/firestore_bulkwriter.py --count "$1" courses) \
          + $("$python" benchmarks/python/firestore_bulkwriter.py --count "$1" news) ))
  [ "$count" = "$documents" ] || { echo "firestore-publish: project $1 holds $count documents, not $documents" >&2; exit 1; }
}
for run in $(seq "$runs"); do
  time_it "$bin" publish --firestore "demo-gvingest-$run" --out "$work/out" | cut -d' ' -f1 >>"$work/gvingest.txt"
  check "demo-gvingest-$run"
  time_it "$python" benchmarks/python/firestore_bulkwriter.py "$work/out" "demo-bulkwriter-$run" | cut -d' ' -f1 >>"$work/bulkwriter.txt"
  check "demo-bulkwriter-$run"
  time_it "$python" benchmarks/python/firestore_bulkwriter.py "$work/out" "demo-unthrottled-$run" --unthrottled | cut -d' ' -f1 >>"$work/unthrottled.txt"
  check "demo-unthrottled-$run"
done
swift=$(median <"$work/gvingest.txt")
bulk=$(median <"$work/bulkwriter.txt")
fast=$(median <"$work/unthrottled.txt")
echo "documents: $documents (UH 41's courses and news), $runs runs each, median wall seconds (process start to exit)"
echo "gvingest publish:          $swift s   (all: $(tr '\n' ' ' <"$work/gvingest.txt"))"
echo "BulkWriter as shipped:     $bulk s   (all: $(tr '\n' ' ' <"$work/bulkwriter.txt"))"
echo "BulkWriter unthrottled:    $fast s   (all: $(tr '\n' ' ' <"$work/unthrottled.txt"))"
echo "ratio: $(echo "$swift / $bulk" | bc -l | cut -c1-5) x BulkWriter as shipped, $(echo "$swift / $fast" | bc -l | cut -c1-5) x unthrottled (target <= 0.8)"
