#!/bin/sh
# Writes seeds of fuzz_biniou for the types of schemas/everything.atd: random
# documents from gen_docs (tests/biniou/gen_docs.c, the differential test's
# generator), written as biniou by atdc's own code (tests/biniou/bin_tool.c),
# each prefixed with the byte that makes fuzz_biniou.c read it as its type:
#
#     tests/fuzz/biniou_seeds.sh ATDC GEN_DOCS ATDRT_LIB OUT_DIR [PER_TYPE [SEED]]
#
# PER_TYPE documents per type (default 2) of at most 4 KiB, as OUT_DIR/everything_TYPE_K.
# The committed seeds were written with the defaults.
set -eu
atdc=$1
gen_docs=$2
atdrt=$3
out=$4
per_type=${5:-2}
seed=${6:-1}
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
schema=$root/schemas/everything.atd
"$atdc" --biniou-skip-abstract -o "$tmp" "$schema" 2> /dev/null
# the definitions that hold abstract have no biniou functions
GEN_DOCS_SKIP=json_value,shape,abstract_list,reprs,root
export GEN_DOCS_SKIP
"$gen_docs" c "$schema" > "$tmp/diff_types.h" 2> /dev/null
cc -std=c11 -O1 -DDIFF_BINIOU -I"$root/runtime/include" -I"$tmp" -DSCHEMA_H='"everything.h"' \
    -DTYPES_H='"diff_types.h"' "$root/tests/biniou/bin_tool.c" "$tmp/everything.c" "$atdrt" -lm \
    -o "$tmp/bin_tool"
ntypes=$(grep -c '^ *X(' "$tmp/diff_types.h")
"$gen_docs" docs "$schema" $((per_type * ntypes)) "$seed" 2> /dev/null | "$tmp/bin_tool" json2bin > "$tmp/docs"
# ATD name -> C name (diff_types.h), C name -> index in fuzz_biniou.c's table
sed -n 's/^ *X(\([a-z_0-9]*\), *everything_\([a-z_0-9]*\)).*/\1 \2/p' "$tmp/diff_types.h" > "$tmp/names"
grep -o '^ *X([a-z]*, [a-z_0-9]*)' "$root/tests/fuzz/fuzz_biniou.c" | sed 's/^ *X(\([a-z]*\), \(.*\))/\1_\2/' |
    awk '{ print $1, NR - 1 }' > "$tmp/index"
awk -v out="$out" -v max=4096 '
    FILENAME == ARGV[1] { cname[$1] = $2; next }
    FILENAME == ARGV[2] { index_of[$1] = $2; next }
    $2 == "ERR" || length($2) > 2 * max { next }
    {
        c = cname[$1]; i = index_of["everything_" c]
        if (c == "" || i == "") { print "no fuzz_biniou entry for " $1 > "/dev/stderr"; exit 1 }
        k = ++count[c]
        printf "%02x%s\n", i, $2 > (out "/everything_" c "_" k ".hex")
    }' "$tmp/names" "$tmp/index" "$tmp/docs"
for f in "$out"/everything_*.hex; do
    xxd -r -p "$f" > "${f%.hex}"
    rm "$f"
done
echo "$(ls "$out" | grep -c '^everything_') seeds in $out"
