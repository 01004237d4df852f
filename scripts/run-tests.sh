#!/bin/sh
# The whole test suite: install what is missing, build with ASan+UBSan and
# warnings as errors, run every ctest suite (with the benchmark's --quick
# mode, which verifies every contender's result); then the core suites under
# valgrind on a plain build (scripts/run-valgrind.sh); then, when clang is
# there, a 5-second smoke run of each libFuzzer target (ctest -L fuzz).
set -eu
cd "$(dirname "$0")/.."
# The time each step starts at (the CI has a time limit: this shows where
# the time goes).
t0=$(date +%s)
step() {
    echo "run-tests: $1 at $(($(date +%s) - t0)) s"
}
step "installing dependencies"
sh scripts/install-deps.sh
step "ASan+UBSan build and suite"
cmake -S . -B build/sanitize -DCMAKE_BUILD_TYPE=Sanitize -DATDC_WERROR=ON -DATDC_BUILD_BENCH=ON > /dev/null
cmake --build build/sanitize -j "$(nproc)"
(cd build/sanitize && ctest --output-on-failure -j "$(nproc)")

# The runtime and generated-code suites again with the portable kernels only
# (ATD_NO_SIMD): every SIMD kernel has a scalar twin, tested here.
step "portable kernels (ATD_NO_SIMD)"
scalar_suites="arena buf writer write_cursor json reader strings number error event everything gen_mapping roundtrip faults conformance"
cmake -S . -B build/nosimd -DCMAKE_BUILD_TYPE=Sanitize -DATDC_WERROR=ON -DATDC_NO_SIMD=ON > /dev/null
# shellcheck disable=SC2086
cmake --build build/nosimd -j "$(nproc)" --target $(printf 'test_%s ' $scalar_suites)
(cd build/nosimd && ctest --output-on-failure -j "$(nproc)" \
    -R "^unit_($(echo $scalar_suites | tr ' ' '|'))\$")

step "valgrind"
sh scripts/run-valgrind.sh

# Fuzz smoke: the targets and the libraries instrumented for coverage, as
# tests/fuzz/run.sh builds them; only the fuzz targets are built here.
step "fuzz smoke"
probe=$(mktemp -d)
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' > "$probe/p.c"
if command -v clang > /dev/null 2>&1 &&
    clang -fsanitize=fuzzer,address "$probe/p.c" -o "$probe/p" > /dev/null 2>&1; then
    CC=clang cmake -S . -B build/fuzz -DCMAKE_BUILD_TYPE=Debug -DATDC_WERROR=ON -DATDC_FUZZ=ON \
        -DATDC_SANITIZE=ON -DCMAKE_C_FLAGS=-fsanitize=fuzzer-no-link > /dev/null
    cmake --build build/fuzz -j "$(nproc)" --target fuzz_all
    (cd build/fuzz && ctest --output-on-failure -L fuzz -j "$(nproc)")
else
    echo "clang with libFuzzer not found: fuzz smoke tests skipped (scripts/install-deps.sh installs it)"
fi
rm -rf "$probe"
step "done"
