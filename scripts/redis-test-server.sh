#!/usr/bin/env bash
# Starts and stops a throwaway redis-server for the cache tests.
#
#   export CEW_TEST_REDIS_URL=$(scripts/redis-test-server.sh start [port])
#   go test -race ./cache/...
#   scripts/redis-test-server.sh stop
#
# start installs Debian's redis-server when it is missing (apt-get), runs it
# on 127.0.0.1 (the given port, $CEW_REDIS_TEST_PORT, or a free one) with no
# persistence, and prints the URL to use on stdout; everything else goes to
# stderr. Running start twice prints the URL of the server already running.
# stop stops only the server start started, found by its pidfile.
set -euo pipefail

state_dir="${CEW_REDIS_TEST_DIR:-${TMPDIR:-/tmp}/cew-redis-test}"
pidfile="$state_dir/redis.pid"
portfile="$state_dir/port"

log() { echo "redis-test-server: $*" >&2; }
# shellcheck source=server-lib.sh
. "$(dirname "$0")/server-lib.sh"

# ours prints the pid of the server this script started, if it is running.
ours() { owned_pid "$pidfile" redis-server; }

install_redis() {
  command -v redis-server >/dev/null && return
  if ! command -v apt-get >/dev/null; then
    log "redis-server is not in PATH and apt-get is not available; install Redis and retry"
    exit 1
  fi
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  log "installing redis-server with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  if ! "${sudo[@]}" apt-get install -y --no-install-recommends redis-server >&2; then
    "${sudo[@]}" apt-get update >&2
    "${sudo[@]}" apt-get install -y --no-install-recommends redis-server >&2
  fi
}

# ping speaks RESP directly, so no redis-cli is needed.
ping() {
  local reply
  exec 3<>"/dev/tcp/127.0.0.1/$1" || return 1
  printf 'PING\r\n' >&3
  IFS= read -r -t 1 reply <&3 || true
  exec 3<&- 3>&-
  [[ "$reply" == +PONG* ]]
}

start() {
  if ours >/dev/null; then
    echo "redis://127.0.0.1:$(cat "$portfile")/0"
    return
  fi
  install_redis
  local port
  port=$(pick_port "${1:-${CEW_REDIS_TEST_PORT:-}}")
  mkdir -p "$state_dir"
  rm -f "$pidfile"
  redis-server --bind 127.0.0.1 --port "$port" \
    --save "" --appendonly no \
    --daemonize yes --pidfile "$pidfile" \
    --dir "$state_dir" --logfile "$state_dir/redis.log" >&2
  for _ in $(seq 1 100); do
    if ping "$port"; then
      echo "$port" >"$portfile"
      log "redis-server $(cat "$pidfile") listening on 127.0.0.1:$port"
      echo "redis://127.0.0.1:$port/0"
      return
    fi
    sleep 0.1
  done
  log "redis-server did not answer on port $port; see $state_dir/redis.log"
  tail -n 20 "$state_dir/redis.log" >&2 || true
  exit 1
}

stop() { stop_server redis-server 5 "$pidfile" "$portfile"; }

case "${1:-}" in
start) shift; start "$@" ;;
stop) stop ;;
*)
  echo "usage: $0 start [port] | stop" >&2
  exit 2
  ;;
esac
