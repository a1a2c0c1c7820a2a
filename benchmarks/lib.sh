# Helpers the benchmark scripts source (not run on its own).

# The median of numbers, one per line on stdin.
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# Runs "$@" with its output discarded and prints "WALL CPU" in seconds (CPU: user + system, children
# included, so a program using both cores shows it). A failed run stops the benchmark: its time means nothing.
time_it() {
  local TIMEFORMAT='%R %U %S' measured status=0
  measured=$( { time "$@" >/dev/null 2>&1; } 2>&1 ) || status=$?
  [ "$status" -eq 0 ] || { echo "benchmark: '$*' exited $status" >&2; return 1; }
  awk '{printf "%.3f %.3f\n", $1, $2 + $3}' <<<"$measured"
}

# Wall seconds and peak RSS (KiB) from a /usr/bin/time -v report in file $1.
time_v_wall() { awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s}' "$1"; }
time_v_rss() { awk -F': ' '/Maximum resident set size/ {print $2}' "$1"; }

# The bench venv's python (benchmarks/python/setup.sh makes it), or a clear error.
bench_python() {
  local python=.build/bench-venv/bin/python
  [ -x "$python" ] || { echo "benchmark: $python missing: run benchmarks/python/setup.sh" >&2; return 69; }
  echo "$python"
}
