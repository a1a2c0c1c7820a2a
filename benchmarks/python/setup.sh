#!/usr/bin/env bash
# Makes the benchmarks' Python environment in .build/bench-venv (ignored by git, beside the Swift build)
# and installs benchmarks/python/requirements.txt into it. Nothing in the product or CI uses it.
# Usage: benchmarks/python/setup.sh      (needs python3 with the venv module: apt-get install python3-venv)
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=.build/bench-venv
python=${PYTHON:-python3}
command -v "$python" >/dev/null || { echo "setup.sh: $python missing: apt-get install python3 python3-venv" >&2; exit 69; }
if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv "$venv" || { echo "setup.sh: '$python -m venv' failed: apt-get install python3-venv" >&2; exit 69; }
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r benchmarks/python/requirements.txt
"$venv/bin/python" -c 'import lxml.etree, scrapy; print("bench-venv: lxml", lxml.etree.__version__, "(libxml2 %d.%d.%d)" % lxml.etree.LIBXML_VERSION, "scrapy", scrapy.__version__)'
