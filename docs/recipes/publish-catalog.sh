#!/usr/bin/env bash
# Runs the pipeline and, only when the run succeeded, renders the catalog website into the site folder: the pages for
# people, with catalog.json, news.json and news.atom beside them at the same URLs as before.
# Used by publish-catalog.yml; runs the same on a laptop:
#   docs/recipes/publish-catalog.sh GVINGEST CONFIG OUTPUT_DIR SITE_DIR
set -euo pipefail
gvingest=${1:?path to the gvingest binary}
config=${2:?pipeline configuration}
out=${3:?the output directory of the configuration}
site=${4:?directory to publish into}

if "$gvingest" run --config "$config" --log-format json; then
  # The site folder is replaced whole, in one rename (gvingest refuses a folder it did not write).
  "$gvingest" site --config "$config" --out "$site"
  # The catalog states its own count; counting "id" keys would count the catalog's id too.
  courses=$(sed -n 's/^  "courseCount" *: *\([0-9]*\).*/\1/p' "$site/catalog.json")
  echo "published $courses courses to $site (open $site/index.html)" >&2
else
  status=$?
  echo "gvingest run failed (exit $status): nothing published; $site keeps the last good catalog" >&2
  exit "$status"
fi
