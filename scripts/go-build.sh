#!/usr/bin/env bash
# go build with a progress count instead of a silent pause: the first build
# on a machine downloads the modules and compiles about 670 packages (about
# 2 minutes on 2 cores); later builds compile only what changed, in seconds.
#
#   GO=go scripts/go-build.sh [go build flags and packages]
#
# Compiler errors and "go: downloading" lines pass through; the exit status
# is go build's.
set -uo pipefail
go_cmd=${GO:-go}
tty=0
[ -t 2 ] && tty=1
"$go_cmd" build -v "$@" 2>&1 | awk -v tty="$tty" '
  # go build -v names each package as it compiles it: one import path a line.
  /^[^ :]+$/ {
    n++
    if (tty) printf "\rcompiling: %d packages", n > "/dev/stderr"
    else if (n % 100 == 0) printf "compiling: %d packages…\n", n > "/dev/stderr"
    next
  }
  { if (tty && n) printf "\n" > "/dev/stderr"; print > "/dev/stderr" }
  END { if (n) { if (tty) printf "\r"; printf "compiled %d packages\n", n > "/dev/stderr" } }'
exit "${PIPESTATUS[0]}"
