#!/bin/sh
# Instruction counts of the reader primitives, deterministic (callgrind):
# instructions per input byte for atd_skip_value, the DOM parse and the
# generated readers on twitter, citm_catalog and canada, counted only inside
# run_once() of tools/bench_reader.c (so file loading and setup are excluded).
#
# Usage (from the repository root):
#   sh tools/profile_reader.sh [OUTDIR] [EXTRA_CFLAGS...]
#     OUTDIR        where the binary and callgrind.out.* go (default /tmp/atd-profile)
#     EXTRA_CFLAGS  e.g. -DATD_NO_SIMD to profile the portable fallback
# Environment: CC (default cc), DATA (default ../shared/data/bench),
#   ITER (iterations per run, default 3), ANNOTATE=1 to print the top
#   functions of each run with callgrind_annotate.
set -eu
root=$(pwd)
out=${1:-/tmp/atd-profile}
[ $# -gt 0 ] && shift
cc=${CC:-cc}
data=${DATA:-$root/../shared/data/bench}
iter=${ITER:-3}
mkdir -p "$out"
# -g for callgrind_annotate's per-line view; -O2 as in Release.
$cc -std=c11 -O2 -g "$@" -Iruntime/include -Igenerated tools/bench_reader.c runtime/src/*.c \
    generated/twitter.c generated/citm_catalog.c generated/canada.c -lm -o "$out/bench_reader"
printf '%-18s %-6s %12s %14s %10s\n' file what bytes instructions instr/byte
for f in twitter.json citm_catalog.json canada.json; do
    bytes=$(wc -c < "$data/$f")
    for c in skip dom gen; do
        cg="$out/callgrind.out.$c.${f%.json}"
        valgrind --tool=callgrind --toggle-collect=run_once --callgrind-out-file="$cg" \
            "$out/bench_reader" --once "$c" "$f" "$iter" "$data" > /dev/null 2>&1
        ir=$(callgrind_annotate "$cg" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }')
        awk -v f="$f" -v c="$c" -v b="$bytes" -v ir="$ir" -v n="$iter" \
            'BEGIN { printf "%-18s %-6s %12d %14.0f %10.2f\n", f, c, b, ir / n, ir / n / b }'
        if [ "${ANNOTATE:-0}" = 1 ]; then
            callgrind_annotate --inclusive=no "$cg" 2>/dev/null | sed -n '/^Ir/,/^$/p;/file:function/,+15p' | head -25
        fi
    done
done
