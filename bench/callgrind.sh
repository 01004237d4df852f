#!/bin/sh
# Instruction counts per document (valgrind --tool=callgrind), deterministic
# where wall-clock figures are not: on each workload, the generated reader and
# writer and the generic contenders each run N times in atdc_bench's
# measured_loop (--only ID --iters N), and only that function is counted
# (--toggle-collect=measured_loop). Writes a markdown table to stdout and, per
# workload, the callgrind_annotate profiles of the generated reader and
# writer (where their instructions go, by function) into the output folder.
#
# Usage: sh bench/callgrind.sh BENCH_BINARY DATA_DIR [OUT_DIR] [N]
# Environment: WORKLOADS and CONTENDERS (space-separated) replace the
# default lists below.
set -eu
bench=$1
data=$2
out=${3:-bench/results}
n=${4:-2}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

workloads=${WORKLOADS:-"event twitter citm_catalog canada github blockchain donut"}
contenders=${CONTENDERS:-"gen.read gen.read.borrow gen.write yyjson.parse yyjson.parse+conv yyjson.print
    simdjson.dom simdjson.ondemand simdjson.minify atd_json.parse atd_json.print cjson.parse cjson.print"}
echo "| workload | contender | instructions / document | bytes / document | instructions / byte |"
echo "|---|---|---:|---:|---:|"
for wl in $workloads; do
    for id in $contenders; do
        cg="$tmp/cg.$wl.$id"
        if ! valgrind --tool=callgrind --callgrind-out-file="$cg" \
            --toggle-collect=measured_loop "$bench" --data "$data" --workload "$wl" \
            --only "$id" --iters "$n" > "$tmp/log" 2>&1; then
            echo "| $wl | $id | failed (see valgrind log) | | |"
            continue
        fi
        # Skip contenders that do not run on this workload (or are not built).
        line=$(grep " iterations, " "$tmp/log" || true)
        [ -n "$line" ] || continue
        # "WORKLOAD ID: N iterations, B bytes each": bytes of input (readers)
        # or of the contender's own output (writers).
        bytes=$(echo "$line" | sed 's/.* iterations, \([0-9]*\) bytes each.*/\1/')
        ir=$(awk '/^(summary|totals):/ { print $2; exit }' "$cg")
        awk -v ir="$ir" -v n="$n" -v b="$bytes" -v w="$wl" -v id="$id" \
            'BEGIN { printf "| %s | %s | %.0f | %d | %.2f |\n", w, id, ir / n, b, ir / n / b }'
        case $id in
        gen.read | gen.write)
            callgrind_annotate --inclusive=no "$cg" 2>/dev/null | head -40 \
                > "$out/callgrind_${wl}_$(echo "$id" | tr . _).txt" ;;
        esac
    done
done
echo
echo "N = $n documents per contender; instructions counted inside measured_loop only."
echo "Readers per byte of input, writers per byte of their own output. valgrind counts"
echo "a large rep-movsb memcpy as about one instruction per byte. simdjson's rows say"
echo "failed on CPUs with AVX-512 (valgrind does not emulate the kernels it picks there)."
