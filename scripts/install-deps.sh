#!/bin/sh
# Installs the Debian packages atdc needs to build, test and benchmark.
# As root it runs apt-get; otherwise it prints the exact command to run.
set -eu
packages="build-essential cmake flex bison pkg-config check clang libclang-rt-14-dev g++ valgrind
          libcjson-dev libjansson-dev libjson-c-dev libsimdjson-dev gnuplot-nox parallel
          ocaml-nox ocaml-findlib libatdgen-ocaml-dev python3-jsonschema"
missing=""
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
    echo "installing:$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $missing > /dev/null
else
    echo "missing packages; run as root:"
    echo "  apt-get update && apt-get install -y$missing"
    exit 1
fi
