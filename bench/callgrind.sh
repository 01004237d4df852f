#!/bin/sh
# Instruction counts per document (valgrind --tool=callgrind), deterministic
# where wall-clock figures are not: for twitter, citm_catalog and canada, the
# generated reader and writer and the generic parsers each run N times in
# atdc_bench's measured_loop (--only ID --iters N), and only that function is
# counted (--toggle-collect=measured_loop). Writes a markdown table to stdout
# and, per file, the callgrind_annotate profile of the generated reader
# (where its instructions go, by function) into the output folder.
#
# Usage: sh bench/callgrind.sh BENCH_BINARY DATA_DIR [OUT_DIR] [N]
set -eu
bench=$1
data=$2
out=${3:-bench/results}
n=${4:-3}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

contenders="gen.read gen.read.borrow gen.write atd_json.parse cjson.parse jansson.parse jsonc.parse simdjson.dom simdjson.ondemand atd_json.print cjson.print jansson.print jsonc.print"
echo "| file | contender | instructions / document | instructions / byte |"
echo "|---|---|---:|---:|"
for file in twitter citm_catalog canada; do
    bytes=$(wc -c < "$data/$file.json")
    for id in $contenders; do
        cg="$tmp/cg.$file.$id"
        if ! valgrind --tool=callgrind --callgrind-out-file="$cg" \
            --toggle-collect=measured_loop "$bench" --data "$data" --workload "$file" \
            --only "$id" --iters "$n" > "$tmp/log" 2>&1; then
            echo "| $file | $id | failed (see valgrind log) | |"
            continue
        fi
        # Skip contenders not built (e.g. no simdjson): nothing was run.
        grep -q "iterations" "$tmp/log" || continue
        ir=$(awk '/^(summary|totals):/ { print $2; exit }' "$cg")
        awk -v ir="$ir" -v n="$n" -v b="$bytes" -v f="$file" -v id="$id" \
            'BEGIN { printf "| %s | %s | %.0f | %.1f |\n", f, id, ir / n, ir / n / b }'
        if [ "$id" = gen.read ]; then
            callgrind_annotate --inclusive=no "$cg" 2>/dev/null | head -40 \
                > "$out/callgrind_${file}_gen_read.txt"
        fi
    done
done
echo
echo "N = $n documents per contender; instructions counted inside measured_loop only."
echo "Writers are per byte of the file read (not of their output). valgrind counts a"
echo "large rep-movsb memcpy as about one instruction per byte."
