#!/bin/sh
# The main job: install what is missing, build Release, then run the benchmark.
set -eu
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DATDC_BUILD_BENCH=ON > /dev/null
cmake --build build/release -j "$(nproc)"
./build/release/bench/runtime_demo "${ATD_SHARED_DIR:-../shared}/data/bench"
