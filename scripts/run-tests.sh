#!/bin/sh
# The whole test suite: install what is missing, build with ASan+UBSan and
# warnings as errors, run every ctest suite.
set -eu
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
cmake -S . -B build/sanitize -DCMAKE_BUILD_TYPE=Sanitize -DATDC_WERROR=ON > /dev/null
cmake --build build/sanitize -j "$(nproc)"
cd build/sanitize
ctest --output-on-failure -j "$(nproc)"
