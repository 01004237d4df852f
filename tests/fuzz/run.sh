#!/bin/sh
# Runs one libFuzzer target for a while:
#
#     tests/fuzz/run.sh TARGET SECONDS [BINARY]
#
# TARGET is fuzz_json, fuzz_everything, fuzz_biniou, fuzz_lazy, fuzz_number, fuzz_stream,
# fuzz_frontend or fuzz_generate. Without BINARY, the clang fuzz build in build-fuzz/ (or
# $ATDC_FUZZ_BUILD) is configured when missing and the target is (re)built. The corpus grows in
# $ATDC_FUZZ_WORK/TARGET (default: BUILD/fuzz-work/TARGET, outside the
# sources); the committed seeds of tests/fuzz/corpus/TARGET and, for some
# targets, files of the repository and of the shared data folder are read in
# place as extra seed folders. Findings (crash-*, leak-*, timeout-*) are
# written to the work folder; the exit status is libFuzzer's (0: none).
# The run is niced: the machine's cores are shared.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
target=${1:?usage: run.sh TARGET SECONDS [BINARY]}
seconds=${2:?usage: run.sh TARGET SECONDS [BINARY]}
binary=${3:-}
shared=${ATD_SHARED_DIR:-$root/../shared}

if [ -z "$binary" ]; then
    build=${ATDC_FUZZ_BUILD:-$root/build-fuzz}
    if [ ! -f "$build/CMakeCache.txt" ]; then
        CC=clang cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DATDC_FUZZ=ON \
            -DATDC_SANITIZE=ON "-DCMAKE_C_FLAGS=-O1 -fsanitize=fuzzer-no-link" \
            -DATDC_SHARED_DIR="$shared" > /dev/null
    fi
    cmake --build "$build" --target "$target" -j 2 > /dev/null
    binary=$build/tests/fuzz/$target
    work=${ATDC_FUZZ_WORK:-$build/fuzz-work}/$target
else
    work=${ATDC_FUZZ_WORK:-$(dirname "$binary")/fuzz-work}/$target
fi
mkdir -p "$work"
work=$(cd "$work" && pwd)
binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")

# Seed folders (read only: libFuzzer writes new inputs to the first folder).
seeds="$here/corpus/$target"
case $target in
    fuzz_json)
        max_len=4096
        [ -d "$shared/data/jsontestsuite/test_parsing" ] &&
            seeds="$seeds $shared/data/jsontestsuite/test_parsing"
        [ -d "$shared/data/jsontestsuite/test_transform" ] &&
            seeds="$seeds $shared/data/jsontestsuite/test_transform" ;;
    fuzz_everything) max_len=8192 ;;
    fuzz_biniou) max_len=8192 ;;
    fuzz_lazy) max_len=4096 ;;
    fuzz_number) max_len=512 ;;
    fuzz_stream)
        max_len=4096
        [ -d "$shared/data/jsontestsuite/test_parsing" ] &&
            seeds="$seeds $shared/data/jsontestsuite/test_parsing" ;;
    fuzz_frontend)
        max_len=4096
        seeds="$seeds $root/schemas $root/tests/valid" ;;
    fuzz_generate)
        max_len=4096
        seeds="$seeds $root/schemas $root/tests/valid" ;;
    *) echo "run.sh: unknown target $target" >&2; exit 2 ;;
esac

cd "$work"
# -timeout: an input taking 10 s is a hang; -rss_limit_mb: documents are
# small, so 2 GB of memory is a leak or a blow-up.
# A finding's report is followed by the input, which can run to thousands of
# lines; the report is printed again last, where a log's tail shows it.
log=$work/last-run.log
status=0
# shellcheck disable=SC2086
nice -n 19 "$binary" -max_total_time="$seconds" -max_len="$max_len" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/" "$work" $seeds \
    > "$log" 2>&1 || status=$?
cat "$log"
if [ "$status" -ne 0 ]; then
    echo "--- $target: the finding's report again ---"
    sed -n '/ERROR: /,/^SUMMARY: /p' "$log" | head -n 60
fi
exit "$status"
