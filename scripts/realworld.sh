#!/usr/bin/env bash
# Prints the folder holding the real catalog pages published by others (Fixtures/realworld/SOURCES.md), with
# realworld/ and prereqs/ in it: .build/fixtures/published, unpacked from Fixtures/realworld.tar.xz on first use and
# again whenever the archive differs from the copy kept beside it. Tests, benchmarks and fuzz/run.sh read this copy.
# Callers at the same moment wait on a lock; the archive is unpacked into a temporary folder that is then renamed into
# place, so nobody reads a half-unpacked folder, and the copy of the archive is written last, once all of it is there.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
archive=$root/Fixtures/realworld.tar.xz
dir=$root/.build/fixtures
target=$dir/published
stamp=$dir/published.tar.xz
mkdir -p "$dir"
exec 9>"$dir/published.lock"
flock 9
if [ ! -d "$target" ] || ! cmp -s "$archive" "$stamp"; then
  rm -f "$stamp"
  fresh=$(mktemp -d "$dir/published.XXXXXX")
  xz -dc "$archive" | tar -xf - -C "$fresh"
  [ ! -d "$target" ] || mv -T "$target" "$fresh.old"
  mv -T "$fresh" "$target"
  rm -rf "$fresh.old"
  cp "$archive" "$stamp"
fi
echo "$target"
