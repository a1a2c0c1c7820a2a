#!/usr/bin/env bash
# Sets up a fresh machine (libxml2-dev, libcurl4-openssl-dev, pkg-config, python3-jsonschema), builds gvingest in
# release mode with the Swift runtime and Foundation linked into the binary (README),
# and runs the whole pipeline offline on the recorded fixture catalog (Fixtures/pipeline.json: a replay
# of the mirror in Fixtures/gvsu). The outputs are left in Fixtures/out/ to look at.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
dpkg -s libxml2-dev >/dev/null 2>&1 || missing+=(libxml2-dev)
# A release build links Foundation statically, and FoundationNetworking then links libcurl by name.
dpkg -s libcurl4-openssl-dev >/dev/null 2>&1 || missing+=(libcurl4-openssl-dev)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
/usr/bin/python3 -c 'import jsonschema' >/dev/null 2>&1 || missing+=(python3-jsonschema)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi

# The release build as shipped: the Swift runtime and Foundation linked in (the binary starts in 9 ms instead of
# 15 and parses faster), lld to link them; the same flags as benchmarks/lib.sh, so neither rebuilds the other's.
release=(-c release --static-swift-stdlib -Xswiftc -use-ld=lld)
swift build "${release[@]}" --product gvingest
bin=$(swift build "${release[@]}" --show-bin-path)/gvingest
"$bin" config check Fixtures/pipeline.json
"$bin" run --config Fixtures/pipeline.json
echo >&2
echo "Outputs in Fixtures/out/: catalog.json, news.json, news.atom, digest-gvsu-fixture.md, run-report.json, snapshots/" >&2
echo "Try: $bin parse Fixtures/gvsu/course/cis-452.html   (every field and the rule it came from)" >&2
echo "     $bin diff --config Fixtures/pipeline.json      (after a second run)" >&2
