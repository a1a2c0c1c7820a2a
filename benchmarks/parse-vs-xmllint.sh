#!/usr/bin/env bash
# Times a release build of `gvingest parse --json` over the ~4,000 UH pages of catalog 44 against
# `xmllint --html --noout` over the same files (libxml2 alone: the floor), and prints the ratio.
# Usage: benchmarks/parse-vs-xmllint.sh [RUNS]   (needs xmllint: apt-get install libxml2-utils)
# benchmarks/parse-compare.sh times the Python lxml equivalent beside them.
set -euo pipefail
exec "$(dirname "$0")/parse-compare.sh" --without-python "$@"
