#!/usr/bin/env bash
# Runs the pipeline and publishes catalog.json (and the news) only when the run succeeded.
# Used by publish-catalog.yml; runs the same on a laptop:
#   docs/recipes/publish-catalog.sh GVINGEST CONFIG OUTPUT_DIR SITE_DIR
set -euo pipefail
gvingest=${1:?path to the gvingest binary}
config=${2:?pipeline configuration}
out=${3:?the output directory of the configuration}
site=${4:?directory to publish into}

if "$gvingest" run --config "$config" --log-format json; then
  mkdir -p "$site"
  for file in catalog.json news.json news.atom; do
    cp "$out/$file" "$site/$file.tmp" && mv "$site/$file.tmp" "$site/$file"
  done
  # The catalog states its own count; counting "id" keys would count the catalog's id too.
  courses=$(sed -n 's/^  "courseCount" *: *\([0-9]*\).*/\1/p' "$site/catalog.json")
  echo "published $courses courses to $site" >&2
else
  status=$?
  echo "gvingest run failed (exit $status): nothing published; $site keeps the last good catalog" >&2
  exit "$status"
fi
