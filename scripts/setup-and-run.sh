#!/usr/bin/env bash
# Sets up a fresh machine (libxml2-dev, pkg-config), builds gvingest in release mode, and runs it
# offline on the recorded fixture catalog in Fixtures/gvsu.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
dpkg -s libxml2-dev >/dev/null 2>&1 || missing+=(libxml2-dev)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
/usr/bin/python3 -c 'import jsonschema' >/dev/null 2>&1 || missing+=(python3-jsonschema)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi

swift build -c release --product gvingest
bin=$(swift build -c release --show-bin-path)/gvingest
mkdir -p out
"$bin" parse --json Fixtures/gvsu > out/fixture-courses.json
"$bin" parse Fixtures/gvsu/course/cis-452.html
echo "Parsed the recorded GVSU catalog: $(grep -c '"id" :' out/fixture-courses.json) courses in out/fixture-courses.json" >&2
