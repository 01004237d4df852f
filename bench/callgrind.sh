#!/bin/sh
# Instruction counts per document (valgrind --tool=callgrind), deterministic
# where wall-clock figures are not: on each workload, the generated reader and
# writer and the generic contenders each run N times in atdc_bench's
# measured_loop (--only ID --iters N), and only that function is counted
# (--toggle-collect=measured_loop); on each variant of a workload's input
# (WORKLOAD.sorted, .reversed, .hashed, .shuffled, .escaped, .pretty:
# bench/variants.c), the generated reader and yyjson. Writes to stdout a
# markdown table of every count, then the instructions per byte of atdc's
# reader against yyjson's for every workload and variant; and, per
# workload, the callgrind_annotate profiles of the generated reader and
# writer (where their instructions go, by function) into the output folder.
#
# Usage: sh bench/callgrind.sh BENCH_BINARY DATA_DIR [OUT_DIR] [N]
# Environment: WORKLOADS, VARIANTS, CONTENDERS, VARIANT_CONTENDERS and
# PARTIAL_WORKLOADS (those that also count gen.read.partial, on the workload
# and its variants) replace the default lists below (VARIANTS="" or
# PARTIAL_WORKLOADS="" for none).
set -eu
bench=$1
data=$2
out=${3:-bench/results}
n=${4:-2}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# valgrind counts every byte that a `rep movsb` copies (or `rep stosb`
# sets) as one instruction, where the CPU runs it as one: glibc's memcpy
# takes that path above 2 KB, so a contender that copies its input (yyjson
# without INSITU) would be charged a byte's instruction per byte. With these
# thresholds out of reach, memcpy and memset run their vector loops, whose
# instructions are what a CPU runs.
GLIBC_TUNABLES=glibc.cpu.x86_rep_movsb_threshold=4294967295:glibc.cpu.x86_rep_stosb_threshold=4294967295
export GLIBC_TUNABLES

workloads=${WORKLOADS:-"event event.unknown10 twitter citm_catalog canada github blockchain donut"}
variants=${VARIANTS-"sorted reversed hashed shuffled escaped pretty"}
contenders=${CONTENDERS:-"gen.read gen.read.borrow gen.write yyjson.parse yyjson.parse+conv yyjson.print
    simdjson.dom simdjson.ondemand simdjson.minify atd_json.parse atd_json.print cjson.parse cjson.print"}
variant_contenders=${VARIANT_CONTENDERS:-"gen.read yyjson.parse"}
partial_workloads=${PARTIAL_WORKLOADS-"twitter"}
# "workload contender instructions/document bytes/document" per line.
counts="$tmp/counts"
: > "$counts"

# Counts contender $2 on workload $1 (one table row); keeps the profile of
# the generated reader and writer of the workloads themselves.
count() {
    # (sh has no local variables: these names are count's alone)
    c_wl=$1
    c_id=$2
    cg="$tmp/cg.$c_wl.$c_id"
    if ! valgrind --tool=callgrind --callgrind-out-file="$cg" \
        --toggle-collect=measured_loop "$bench" --data "$data" --workload "$c_wl" \
        --only "$c_id" --iters "$n" > "$tmp/log" 2>&1; then
        echo "| $c_wl | $c_id | failed (see valgrind log) | | |"
        return
    fi
    # Skip contenders that do not run on this workload (or are not built).
    line=$(grep " iterations, " "$tmp/log" || true)
    [ -n "$line" ] || return 0
    # "WORKLOAD ID: N iterations, B bytes each": bytes of input (readers)
    # or of the contender's own output (writers).
    bytes=$(echo "$line" | sed 's/.* iterations, \([0-9]*\) bytes each.*/\1/')
    ir=$(awk '/^(summary|totals):/ { print $2; exit }' "$cg")
    awk -v ir="$ir" -v n="$n" -v b="$bytes" -v w="$c_wl" -v id="$c_id" -v f="$counts" \
        'BEGIN { printf "| %s | %s | %.0f | %d | %.2f |\n", w, id, ir / n, b, ir / n / b
                 printf "%s %s %.0f %d\n", w, id, ir / n, b >> f }'
    case $c_wl in *.*) return 0 ;; esac # a variant: no profile
    case $c_id in
    gen.read | gen.write)
        # Without the temporary folder, the data folder and the binary's
        # path: the profile says the same on every machine.
        callgrind_annotate --inclusive=no "$cg" 2>/dev/null | head -40 |
            sed -e "s|$tmp/||g" -e "s|$data|DATA_DIR|g" -e "s|$bench|atdc_bench|g" \
                -e 's| \[/[^]]*\]$||' \
                > "$out/callgrind_${c_wl}_$(echo "$c_id" | tr . _).txt" ;;
    esac
}

echo "| workload | contender | instructions / document | bytes / document | instructions / byte |"
echo "|---|---|---:|---:|---:|"
for wl in $workloads; do
    # gen.read.partial: where a schema for part of the document exists
    case " $partial_workloads " in *" $wl "*) partial=gen.read.partial ;; *) partial= ;; esac
    for id in $contenders $partial; do
        count "$wl" "$id"
    done
    for v in $variants; do
        for id in $variant_contenders $partial; do
            count "$wl.$v" "$id"
        done
    done
done
# The instructions per byte of reader $1 and of yyjson.parse on every
# workload where $1 ran, and their quotient.
reading_table() {
    echo "| workload | bytes | atdc $1 | yyjson.parse | atdc / yyjson |"
    echo "|---|---:|---:|---:|---:|"
    awk -v id="$1" '$2 == id { atdc[$1] = $3 / $4; bytes[$1] = $4; order[++k] = $1 }
         $2 == "yyjson.parse" { yy[$1] = $3 / $4 }
         END {
             for (i = 1; i <= k; i++) {
                 w = order[i]
                 if (w in yy)
                     printf "| %s | %d | %.2f | %.2f | %.3f |\n", w, bytes[w], atdc[w], yy[w], atdc[w] / yy[w]
                 else
                     printf "| %s | %d | %.2f | n/a | |\n", w, bytes[w], atdc[w]
             }
         }' "$counts"
}

echo
echo "N = $n documents per contender; instructions counted inside measured_loop only."
echo "Readers per byte of input, writers per byte of their own output. glibc's"
echo "memcpy and memset run their vector loops (GLIBC_TUNABLES), not rep movsb or"
echo "rep stosb, which valgrind would count once per byte. simdjson's rows say"
echo "failed on CPUs with AVX-512 (valgrind does not emulate the kernels it picks there)."
echo
echo "### Reading: atdc against yyjson, instructions per byte of input"
echo
reading_table gen.read
echo
echo "atdc / yyjson is the share of yyjson's instructions the generated reader runs"
echo "(the required bound is 1/1.3 = 0.769 or less, on every workload and variant)."
if [ -n "$partial_workloads" ]; then
    echo
    echo "### Reading part of a document: gen.read.partial against yyjson"
    echo
    echo "A schema of a few of the document's fields (bench/twitter_partial.atd): most"
    echo "members are unknown fields, whose values the reader skips and validates."
    echo
    reading_table gen.read.partial
fi
