#!/usr/bin/env bash
# Keeps gvingest's state (the snapshots and news.json) on a git branch between CI runs, where it does not expire
# as a cache does: without the previous snapshot a run becomes a new baseline and announces nothing.
#   docs/recipes/keep-state.sh restore REMOTE BRANCH OUTPUT_DIR   copy the branch's state into OUTPUT_DIR
#   docs/recipes/keep-state.sh save REMOTE BRANCH OUTPUT_DIR      commit OUTPUT_DIR's state to the branch and push it
# A branch that does not exist yet is a first run; a remote that cannot be reached fails the step (rather than
# starting a new baseline unnoticed).
set -euo pipefail
action=${1:?restore or save}
remote=${2:?git remote URL}
branch=${3:?branch name}
out=${4:?the output directory of the configuration}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

branch_exists() {
  local status=0
  git ls-remote --exit-code --heads "$remote" "$branch" >/dev/null || status=$?
  case $status in
    0) return 0 ;;
    2) return 1 ;;
    *) echo "keep-state: cannot reach $remote (git exit $status)" >&2; exit 75 ;;
  esac
}

case $action in
  restore)
    if branch_exists; then
      git clone --quiet --depth 1 --branch "$branch" "$remote" "$work/state"
      mkdir -p "$out"
      cp -a "$work/state/out/." "$out/"
      count=$(find "$out/snapshots" -name 'snapshot-*.json' 2>/dev/null | wc -l)
      echo "keep-state: restored $count snapshot(s) and the news from $branch" >&2
    else
      echo "keep-state: no branch $branch yet: this run records the first snapshot" >&2
    fi
    ;;
  save)
    if branch_exists; then
      git clone --quiet --depth 1 --branch "$branch" "$remote" "$work/state"
    else
      git init --quiet "$work/state"
      git -C "$work/state" checkout --quiet --orphan "$branch"
      git -C "$work/state" remote add origin "$remote"
    fi
    rm -rf "$work/state/out"
    mkdir -p "$work/state/out"
    cp -a "$out/snapshots" "$work/state/out/"
    if [ -f "$out/news.json" ]; then cp -a "$out/news.json" "$work/state/out/"; fi
    git -C "$work/state" add --all out
    if git -C "$work/state" diff --cached --quiet 2>/dev/null && git -C "$work/state" rev-parse --verify --quiet HEAD >/dev/null; then
      echo "keep-state: nothing new to keep" >&2
      exit 0
    fi
    git -C "$work/state" -c user.name=gvingest -c user.email=gvingest@users.noreply.github.com \
      commit --quiet -m "gvingest state: $(find "$out/snapshots" -name 'snapshot-*.json' | sort | tail -1 | xargs -r basename)"
    git -C "$work/state" push --quiet origin "HEAD:refs/heads/$branch"
    echo "keep-state: saved the snapshots and the news to $branch" >&2
    ;;
  *)
    echo "keep-state: the action is restore or save, not '$action'" >&2
    exit 64
    ;;
esac
