#!/bin/sh
# atdc's memory grows with the schema's size, not with its inheritance
# structure: schemas of about 4 KB made of inheritance cycles and diamonds
# (records that each inherit all the others; a diamond ladder) are checked
# under LIMIT_KIB of peak RSS (once 550 MB to 1.4 GB).
# Usage: bounded_compiler.sh ATDC PEAK_RSS [LIMIT_KIB]
set -u
ATDC=${1:?usage: bounded_compiler.sh ATDC PEAK_RSS [LIMIT_KIB]}
PEAK=${2:?usage}
LIMIT=${3:-65536}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/atdc_bounded.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT INT TERM
fails=0
awk 'BEGIN { n = 17
    for (i = 0; i < n; i++) {
        s = "type t" i " = {"
        for (j = 0; j < n; j++) s = s " inherit t" j ";"
        print s " f" i " : int }"
    } }' >"$TMP/clique.atd"
awk 'BEGIN { n = 33
    print "type d0 = { x0 : int }"
    for (i = 1; i < n; i++) {
        print "type l" i " = { inherit d" i - 1 "; a" i " : int }"
        print "type r" i " = { inherit d" i - 1 "; b" i " : int }"
        print "type d" i " = { inherit l" i "; inherit r" i "; inherit d" i " }"
    } }' >"$TMP/diamonds.atd"
for s in clique diamonds; do
    size=$(wc -c <"$TMP/$s.atd")
    "$PEAK" "$TMP/rss" "$ATDC" --check --max-errors 1000 "$TMP/$s.atd" >/dev/null 2>"$TMP/err"
    rc=$?
    rss=$(cat "$TMP/rss")
    echo "bounded_compiler.sh: $s.atd ($size bytes): status $rc, peak RSS $rss KiB (limit $LIMIT KiB)"
    [ "$rc" -eq 1 ] || { echo "FAIL: $s.atd: status $rc, expected 1 (cycles)"; fails=$((fails + 1)); }
    grep -q "cyclic inheritance" "$TMP/err" || { echo "FAIL: $s.atd: no cycle reported"; fails=$((fails + 1)); }
    [ "$rss" -lt "$LIMIT" ] || { echo "FAIL: $s.atd: peak RSS $rss KiB"; fails=$((fails + 1)); }
done
[ "$fails" -eq 0 ]
