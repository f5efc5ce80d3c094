# Helpers shared by the scripts that start and stop a loopback server for
# tests or evaluations (redis-test-server.sh, milvus-test-server.sh,
# llm-server.sh). Source it after defining log().

# port_in_use reports whether something listens on 127.0.0.1:$1.
port_in_use() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# free_port prints a port on 127.0.0.1 that nothing listens on.
free_port() {
  local port
  for _ in $(seq 1 100); do
    port=$((20000 + RANDOM % 40000))
    port_in_use "$port" || { echo "$port"; return; }
  done
  log "no free port found"
  exit 1
}

# owned_pid prints the pid recorded in pidfile $1 when that process is
# running and its command line contains $2: a recycled pid belongs to
# someone else.
owned_pid() {
  [ -f "$1" ] || return 1
  local pid
  pid=$(cat "$1" 2>/dev/null) || return 1
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "$2" || return 1
  echo "$pid"
}

# alive reports whether process $1, which the sourcing script has just
# started in the background, is still running. The wait for a new server
# must not ask owned_pid: between bash's fork and the exec of the server,
# the child's command line is still the script's own, and a check that
# lands in that window would take a starting server for a dead one.
alive() {
  kill -0 "$1" 2>/dev/null
}

# terminate stops process $1: TERM, up to $2 seconds (default 5) to exit,
# then KILL.
terminate() {
  kill "$1"
  for _ in $(seq 1 $((${2:-5} * 10))); do
    kill -0 "$1" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -9 "$1" 2>/dev/null || true
}

# pick_port prints port $1, or a free one when $1 is empty; a port already
# in use is an error.
pick_port() {
  local port="$1"
  [ -n "$port" ] || port=$(free_port)
  if port_in_use "$port"; then
    log "port $port is already in use"
    exit 1
  fi
  echo "$port"
}

# stop_server stops the server the sourcing script's ours() reports — the
# one its start started — giving it $2 seconds to exit, and removes the
# files and folders named by the arguments after $2 whether or not one was
# running; $1 names the server in messages.
stop_server() {
  local what=$1 wait=$2 pid
  shift 2
  if ! pid=$(ours); then
    log "no $what started by this script is running"
    rm -rf -- "$@"
    return
  fi
  terminate "$pid" "$wait"
  rm -rf -- "$@"
  log "stopped $what $pid"
}
