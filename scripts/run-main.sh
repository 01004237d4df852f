#!/bin/sh
# The main job: install what is missing, build Release (with the benchmark),
# run the benchmark, and keep its results in bench/results/: the markdown
# table (latest.md), the CSV (latest.csv) and the chart (throughput.png).
set -eu
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
shared=${ATD_SHARED_DIR:-../shared}
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DATDC_BUILD_BENCH=ON \
    -DATDC_SHARED_DIR="$shared" > /dev/null
cmake --build build/release -j "$(nproc)"
mkdir -p bench/results
./build/release/bench/atdc_bench --data "$shared/data/bench" \
    --csv bench/results/latest.csv | tee bench/results/latest.md
sh bench/plot.sh bench/results/latest.csv bench/results/throughput.png
