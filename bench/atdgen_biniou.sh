#!/bin/sh
# atdgen's own JSON and biniou speed on the event workload, next to atdc's,
# on the same 1000 events (atdc_bench --dump-events), in one table:
#     sh bench/atdgen_biniou.sh BUILD_DIR [ROUNDS]
# BUILD_DIR is a Release build with -DATDC_BUILD_BENCH=ON (atdc_bench built).
# Needs atdgen, ocamlfind and the atdgen-runtime package (scripts/install-deps.sh).
# (Byte identity of the two biniou outputs is tests/biniou/differential.sh's job;
# here the sizes are printed side by side.)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:?usage: atdgen_biniou.sh BUILD_DIR [ROUNDS]}" && pwd)
rounds=${2:-25}
bench=$build/bench/atdc_bench
for tool in atdgen ocamlfind; do
    command -v $tool > /dev/null || { echo "atdgen_biniou.sh: $tool is not installed" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
cp "$root/schemas/event.atd" "$root/bench/atdgen/event_bench.ml" .
atdgen -t event.atd
atdgen -j -j-std event.atd
atdgen -b event.atd
ocamlfind ocamlopt -O3 -package atdgen-runtime,unix -linkpkg event_t.mli event_t.ml \
    event_j.mli event_j.ml event_b.mli event_b.ml event_bench.ml -o event_bench 2> /dev/null ||
    ocamlfind ocamlopt -package atdgen-runtime,unix -linkpkg event_t.mli event_t.ml \
        event_j.mli event_j.ml event_b.mli event_b.ml event_bench.ml -o event_bench
"$bench" --dump-events events.json
./event_bench events.json "$rounds" > atdgen.txt
# atdc's figures: the same cases of atdc_bench's event workload
"$bench" --workload event --rounds "$rounds" --data /nonexistent > atdc.md
# atdc's biniou of the same events, for the byte comparison
awk -F'|' '$2 ~ /^ event $/ && $3 ~ /^ (gen|bin)\.(read|write) $/ { gsub(/ /, "", $3); gsub(/ /, "", $4); print "atdc." $3, $4 }' atdc.md > atdc.txt
echo "| case | bytes | MB/s (best of $rounds) |"
echo "|---|---:|---:|"
awk '{ printf "| %s | %s | %s |\n", $1, $2, $3 }' atdgen.txt
json_bytes=$(wc -c < events.json)
bin_bytes=$(wc -c < events.json.bin)
awk -v jb="$json_bytes" -v bb="$bin_bytes" '{
    bytes = ($1 ~ /bin\./) ? bb : jb
    name = $1; sub(/gen\./, "json.", name)
    printf "| %s | %s | %s |\n", name, bytes, $2 }' atdc.txt
echo
echo "atdgen biniou read / JSON read speed: $(awk '/atdgen.json.read/ {j=$3} /atdgen.bin.read/ {b=$3} END {printf "%.2f", (b*'"$bin_bytes"')/(j*'"$json_bytes"')}' atdgen.txt)x (documents per second)"
