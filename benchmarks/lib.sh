# Helpers the benchmark scripts source (not run on its own).

# The release build as shipped (README): the Swift runtime and Foundation linked into the binary, lld to link
# them. Every script builds with these flags, so none rebuilds what another built with other ones.
release=(-c release --static-swift-stdlib -Xswiftc -use-ld=lld)

# Builds the release products named and prints the folder the binaries are in.
release_products() {
  local product
  for product in "$@"; do swift build "${release[@]}" --product "$product" >/dev/null; done
  swift build "${release[@]}" --show-bin-path
}

# The real pages published by others (Fixtures/realworld/SOURCES.md): their realworld/ folder, unpacked from
# Fixtures/realworld.tar.xz into .build on first use (scripts/realworld.sh), the copy the tests read too.
realworld() { echo "$(scripts/realworld.sh)/realworld"; }

# The median of numbers, one per line on stdin.
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# Runs "$@" and prints "WALL CPU" in seconds (CPU: user + system, children included, so a program using both
# cores shows it). Its stdout and stderr go to $time_it_output and $time_it_errors (default: discarded).
# A failed run stops the benchmark: its time means nothing.
time_it() {
  local TIMEFORMAT='%R %U %S' measured status=0
  measured=$( { time "$@" >"${time_it_output:-/dev/null}" 2>"${time_it_errors:-/dev/null}"; } 2>&1 ) || status=$?
  if [ "$status" -ne 0 ]; then
    echo "benchmark: '$*' exited $status" >&2
    [ -z "${time_it_errors:-}" ] || tail -20 "$time_it_errors" >&2
    return 1
  fi
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

# Starts a server command that writes "port PORT" on its first line (gvingest-bench-server,
# benchmarks/python/slow_http_server.py), with its output in file $1; sets server_pid and server_port.
start_server() {
  local out=$1
  shift
  # Emptied here, not by the background job's redirection: otherwise the previous server's port could be read.
  : >"$out"
  "$@" >"$out" 2>&1 &
  server_pid=$!
  server_port=
  for _ in $(seq 100); do
    server_port=$(awk '/^port / {print $2; exit}' "$out")
    [ -n "$server_port" ] && return 0
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "benchmark: '$*' did not start serving:" >&2
  cat "$out" >&2
  return 1
}

# Stops the server start_server started and prints its last line (what it served).
stop_server() {
  [ -n "${server_pid:-}" ] || return 0
  kill -TERM "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=
  tail -1 "$1"
}
