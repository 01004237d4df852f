#!/bin/sh
# Instruction counts of the reader primitives, deterministic (callgrind):
# instructions per input byte for atd_skip_value, the DOM parse and the
# generated readers on twitter, citm_catalog and canada, counted only inside
# run_once() of bench/bench_reader.c (so file loading and setup are excluded).
#
# Usage (from the repository root):
#   sh bench/profile_reader.sh BUILD_DIR [DATA_DIR]
#     BUILD_DIR  a build configured with -DATDC_BUILD_BENCH=ON; the script
#                builds its atdc_bench_reader target. To profile the portable
#                scalar path, configure that build with
#                -DCMAKE_C_FLAGS=-DATD_NO_SIMD.
#     DATA_DIR   default ../shared/data/bench
# Environment: OUT (where callgrind.out.* go, default /tmp/atd-profile),
#   ITER (iterations per run, default 3), ANNOTATE=1 to print the top
#   functions of each run with callgrind_annotate.
set -eu
build=$1
data=${2:-../shared/data/bench}
out=${OUT:-/tmp/atd-profile}
iter=${ITER:-3}
mkdir -p "$out"
# memcpy and memset without rep movsb/stosb, which valgrind counts once per
# byte (bench/callgrind.sh says why)
export GLIBC_TUNABLES=glibc.cpu.x86_rep_movsb_threshold=4294967295:glibc.cpu.x86_rep_stosb_threshold=4294967295
cmake --build "$build" --target atdc_bench_reader -j2 > /dev/null
bin="$build/bench/atdc_bench_reader"
printf '%-18s %-6s %12s %14s %10s\n' file what bytes instructions instr/byte
for f in twitter.json citm_catalog.json canada.json; do
    bytes=$(wc -c < "$data/$f")
    for c in skip dom gen; do
        cg="$out/callgrind.out.$c.${f%.json}"
        valgrind --tool=callgrind --toggle-collect=run_once --callgrind-out-file="$cg" \
            "$bin" --once "$c" "$f" "$iter" "$data" > /dev/null 2>&1
        ir=$(callgrind_annotate "$cg" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }')
        awk -v f="$f" -v c="$c" -v b="$bytes" -v ir="$ir" -v n="$iter" \
            'BEGIN { printf "%-18s %-6s %12d %14.0f %10.2f\n", f, c, b, ir / n, ir / n / b }'
        if [ "${ANNOTATE:-0}" = 1 ]; then
            callgrind_annotate --inclusive=no "$cg" 2>/dev/null | sed -n '/^Ir/,/^$/p;/file:function/,+15p' | head -25
        fi
    done
done
