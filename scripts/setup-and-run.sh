#!/usr/bin/env bash
# Sets up a fresh machine (libxml2-dev, libcurl4-openssl-dev, pkg-config, python3-jsonschema), builds gvingest in
# release mode with the Swift runtime and Foundation linked into the binary (README),
# and runs the whole pipeline offline on the recorded fixture catalog twice (Fixtures/pipeline.json: a replay of
# the mirror in Fixtures/gvsu, then of its later edition in Fixtures/gvsu-next), so the second run announces the
# new courses; then shows the diff, the news, the messages it would announce, and renders the website. The outputs are left in Fixtures/out/ to
# look at, the website in Fixtures/out/site/.
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
# Two editions of the recorded catalog, run one after the other as two nights would: the first is the baseline,
# the second brings news. Fixtures/out/ is the demo's own output directory: it starts empty each time.
rm -rf Fixtures/out
echo "== the first edition (Fixtures/gvsu): the baseline, which announces nothing" >&2
"$bin" run --config Fixtures/pipeline.json
echo "== a later edition (Fixtures/gvsu-next): new, removed, renumbered and changed courses" >&2
"$bin" run --config Fixtures/pipeline.json --replay Fixtures/gvsu-next
echo "== what changed between them (gvingest diff --config Fixtures/pipeline.json)" >&2
"$bin" diff --config Fixtures/pipeline.json || [ $? -eq 1 ]
echo "== the news, as the Atom feed Fixtures/out/news.atom carries it" >&2
grep -o '<title>New course: [^<]*</title>' Fixtures/out/news.atom | sed 's/<[^>]*>//g; s/^/  /' >&2
echo "== the messages Discord and Slack would get (gvingest announce --dry-run; set the webhooks to send them)" >&2
"$bin" announce --config Fixtures/pipeline.json --dry-run | grep -E '"(content|text)" : "' | sed 's/^ */  /' | head -12 >&2 || true
echo "== the catalog website (gvingest site --config Fixtures/pipeline.json --out Fixtures/out/site)" >&2
"$bin" site --config Fixtures/pipeline.json --out Fixtures/out/site
echo >&2
echo "Outputs in Fixtures/out/: catalog.json, news.json, news.atom, digest-gvsu-fixture.md, run-report.json, snapshots/" >&2
echo "Try: $bin search --config Fixtures/pipeline.json \"machine learning\"" >&2
echo "     $bin parse Fixtures/gvsu-next/course/cis-380.html   (every field and the rule it came from)" >&2
echo "The website is in Fixtures/out/site/: open $PWD/Fixtures/out/site/index.html in a browser (no server needed)." >&2
