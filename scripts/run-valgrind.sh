#!/bin/sh
# The core unit suites under valgrind: memcheck on a plain build, as a second
# opinion to the ASan run of run-tests.sh (valgrind sees uninitialised reads,
# which ASan does not, and checks the code as users compile it, without
# sanitizer instrumentation).
#
#     scripts/run-valgrind.sh [SUITE...]
#
# SUITE is a unit suite name without its prefix (arena, json, faults, ...);
# the default list below is the runtime's suites and the generated-code
# suites. The build is RelWithDebInfo in build/valgrind: -O2 is about 1.5
# times faster under valgrind than -O0 (most of the time goes to Check's
# bookkeeping of each assertion, which memcheck makes costly), -g gives the
# reports their lines; assert() is off there (NDEBUG): the Debug and
# Sanitize runs check the assertions. Each suite runs in process (CK_FORK=no:
# valgrind follows one process, and a leak in a test is then a leak of the
# run). The suites run as many at a time as there are cores (each valgrind
# is single-threaded). Prints "N passed, M failed"; exits 1 if any failed.
#
# Left out of the default list for time (they run under ASan in
# run-tests.sh): number (its float formatting and parsing loops had run for
# 2.5 minutes under valgrind when stopped), corrupt (tens of MB parsed per
# damaged file), limits (inputs of 10^6 to 10^7 elements), lazy (over three
# minutes under valgrind), and the front-end suites (parse, diag, names:
# compiler code, not runtime or generated code).
set -eu
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
cd "$(dirname "$0")/.."
build=build/valgrind

# One suite (the script calls itself once per suite, in parallel): its log
# in $build/valgrind-SUITE.log, its status in $build/valgrind-SUITE.status.
if [ "${1:-}" = "--one" ]; then
    s=$2
    log=$build/valgrind-$s.log
    start=$(date +%s)
    # --errors-for-leak-kinds: a definite or indirect leak fails the run;
    # "possibly"/"still reachable" blocks are Check's and libc's own.
    # ATDC_BIN_SAMPLES: a smaller sample of the damaged biniou documents of
    # test_biniou (each large one is read whole per sample).
    if CK_FORK=no ATDC_BIN_SAMPLES=32 valgrind --quiet --error-exitcode=1 --leak-check=full \
        --errors-for-leak-kinds=definite,indirect "$build/tests/test_$s" > "$log" 2>&1; then
        echo passed > "$build/valgrind-$s.status"
        echo "valgrind: $s passed ($(($(date +%s) - start)) s)"
    else
        echo failed > "$build/valgrind-$s.status"
        echo "valgrind: $s FAILED ($(($(date +%s) - start)) s), log: $log"
        tail -n 30 "$log"
    fi
    exit 0
fi

suites=${*:-"arena buf writer write_cursor json reader strings error event everything gen_mapping value_ops roundtrip faults conformance stream pretty biniou"}

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DATDC_WERROR=ON > /dev/null
targets=""
for s in $suites; do
    targets="$targets test_$s"
done
# shellcheck disable=SC2086
cmake --build "$build" -j "$(nproc)" --target $targets > /dev/null

for s in $suites; do
    rm -f "$build/valgrind-$s.status"
done
# shellcheck disable=SC2086
printf '%s\n' $suites | xargs -P "$(nproc)" -I{} sh "$self" --one {}

passed=0
failed=0
failures=""
for s in $suites; do
    if [ "$(cat "$build/valgrind-$s.status" 2>/dev/null)" = passed ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        failures="$failures $s"
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] || { echo "failed:$failures"; exit 1; }
