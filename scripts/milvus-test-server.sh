#!/usr/bin/env bash
# Starts and stops a throwaway Milvus Lite server for the Milvus tests.
#
#   export CEW_TEST_MILVUS_ADDRESS=$(scripts/milvus-test-server.sh start [port])
#   go test -race ./store/milvus/...
#   scripts/milvus-test-server.sh stop
#
# start installs the pinned PyPI packages (scripts/milvus-lite-requirements.txt)
# into a virtualenv outside the repository ($CEW_MILVUS_VENV, by default under
# ~/.cache/cew) when it is missing, runs `milvus-lite server` on 127.0.0.1 (the
# given port, $CEW_MILVUS_TEST_PORT, or a free one) with a fresh data directory,
# waits until it accepts connections, and prints host:port on stdout; everything
# else goes to stderr. Running start twice prints the address of the server
# already running. stop stops only the server start started (SIGTERM: Milvus
# Lite ignores SIGINT in the background), found by its pidfile, and removes its
# data. bin prints the path of the milvus-lite executable (installing it when
# missing), for tests that start and stop servers of their own.
#
# CEW_MILVUS_ENGINE=lite25 runs the C++ Milvus engine that PyPI milvus-lite
# 2.5.1 ships instead (scripts/milvus-lite25-requirements.txt, its own
# virtualenv and data directory, so both can run at once). It cannot filter a
# collection with a partition key and has no HNSW and no partial update: run
# the tests against it with CEW_TEST_MILVUS_PARTITION_KEY=false
# CEW_TEST_MILVUS_DENSE_INDEX=flat CEW_TEST_MILVUS_PARTIAL_UPDATE=false (see
# .ci/run). bin is not available for it.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
engine="${CEW_MILVUS_ENGINE:-lite3}"
case "$engine" in
lite3)
  requirements="$root/scripts/milvus-lite-requirements.txt"
  state_dir="${CEW_MILVUS_TEST_DIR:-${TMPDIR:-/tmp}/cew-milvus-test}"
  process=milvus-lite
  ;;
lite25)
  requirements="$root/scripts/milvus-lite25-requirements.txt"
  state_dir="${CEW_MILVUS_TEST_DIR:-${TMPDIR:-/tmp}/cew-milvus25-test}"
  process=milvus_lite/lib/milvus
  ;;
*)
  echo "milvus-test-server: CEW_MILVUS_ENGINE=$engine is not lite3 or lite25" >&2
  exit 2
  ;;
esac
venv="${CEW_MILVUS_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/cew/milvus-lite-$(sha256sum "$requirements" | cut -c1-12)}"
pidfile="$state_dir/milvus.pid"
portfile="$state_dir/port"

log() { echo "milvus-test-server: $*" >&2; }

# shellcheck source=server-lib.sh
. "$root/scripts/server-lib.sh"

# ours prints the pid of the server this script started, if it is running.
ours() { owned_pid "$pidfile" "$process"; }

install_venv() {
  if [ -f "$venv/.installed" ]; then
    return
  fi
  local python
  python=$(command -v python3 || true)
  if [ -z "$python" ] || ! "$python" -c 'import venv, ensurepip' 2>/dev/null; then
    if ! command -v apt-get >/dev/null; then
      log "python3 with venv is needed and apt-get is not available; install Python 3.10+ and retry"
      exit 1
    fi
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    log "installing python3-venv with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update >&2
    "${sudo[@]}" apt-get install -y --no-install-recommends python3 python3-venv >&2
    python=$(command -v python3)
  fi
  log "installing Milvus Lite into $venv"
  rm -rf "$venv"
  mkdir -p "$(dirname "$venv")"
  "$python" -m venv "$venv" >&2
  "$venv/bin/pip" install --quiet --disable-pip-version-check --only-binary=:all: -r "$requirements" >&2
  touch "$venv/.installed"
}

start() {
  if ours >/dev/null; then
    echo "127.0.0.1:$(cat "$portfile")"
    return
  fi
  install_venv
  local port pid
  port=$(pick_port "${1:-${CEW_MILVUS_TEST_PORT:-}}")
  mkdir -p "$state_dir"
  rm -rf "$state_dir/data" "$pidfile"
  if [ "$engine" = lite25 ]; then
    # The engine binary and its libraries sit in the package's lib folder.
    local lib
    lib=$("$venv/bin/python" -c 'import milvus_lite, os; print(os.path.join(os.path.dirname(milvus_lite.__file__), "lib"))')
    mkdir -p "$state_dir/data"
    LD_LIBRARY_PATH="$lib" setsid "$lib/milvus" "$state_dir/data/milvus.db" "127.0.0.1:$port" INFO \
      >"$state_dir/milvus.log" 2>&1 </dev/null &
  else
    # The default host is 0.0.0.0: always bind the loopback. Unbuffered, so
    # the log says how far a server that does not come up got.
    PYTHONUNBUFFERED=1 setsid "$venv/bin/milvus-lite" server --data-dir "$state_dir/data" --host 127.0.0.1 --port "$port" \
      >"$state_dir/milvus.log" 2>&1 </dev/null &
  fi
  pid=$!
  echo "$pid" >"$pidfile"
  # A busy machine can take a while to bring the engine up: wait up to
  # $CEW_MILVUS_START_SECONDS (default 120).
  local seconds=${CEW_MILVUS_START_SECONDS:-120}
  for _ in $(seq 1 $((seconds * 10))); do
    if ! alive "$pid"; then
      log "milvus-lite exited before it answered on port $port; its log ends:"
      tail -n 20 "$state_dir/milvus.log" >&2 || true
      stop
      exit 1
    fi
    if port_in_use "$port"; then
      echo "$port" >"$portfile"
      log "milvus-lite $pid listening on 127.0.0.1:$port"
      echo "127.0.0.1:$port"
      return
    fi
    sleep 0.1
  done
  log "milvus-lite did not answer on port $port within $seconds s; its log ends:"
  tail -n 20 "$state_dir/milvus.log" >&2 || true
  log "process $pid is running; listening sockets:"
  (ss -ltnp 2>/dev/null || netstat -ltnp 2>/dev/null || true) | grep -F "pid=$pid," >&2 || true
  stop
  exit 1
}

stop() { stop_server "$process" 10 "$pidfile" "$portfile" "$state_dir/data"; }

case "${1:-}" in
start) shift; start "$@" ;;
stop) stop ;;
bin)
  if [ "$engine" != lite3 ]; then
    echo "milvus-test-server: bin is for CEW_MILVUS_ENGINE=lite3" >&2
    exit 2
  fi
  install_venv
  echo "$venv/bin/milvus-lite"
  ;;
*)
  echo "usage: $0 start [port] | stop | bin" >&2
  exit 2
  ;;
esac
