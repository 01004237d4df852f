#!/bin/sh
# The peak memory of a stream, against the bound atd/stream.h documents:
# one chunk plus the current record's bytes plus its values (the arena),
# i.e. peak RSS <= chunk + record + values + the process's baseline. Each
# hostile line goes through tests/stream_peak (standard input, a pipe):
# - one line of 60 MB: a string of that size (record + an equal copy);
# - one line of 60 MB of [[],[],...] as `abstract` (values 20 times the
#   input without a budget: stops at the default max_memory, ATD_ERR_LIMIT);
# - a 10 MB line of "" as string list list (about 200 MB of values, within
#   the default budget).
# Prints every figure. Sanitizer builds check nothing but the outcomes
# (their shadow memory and quarantine are not the stream's): CHECK=0.
# Usage: stream_memory.sh STREAM_PEAK PEAK_RSS [CHECK]
set -u
PROG=${1:?usage: stream_memory.sh STREAM_PEAK PEAK_RSS [CHECK]}
PEAK=${2:?usage}
CHECK=${3:-1}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/atdc_streammem.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT INT TERM
fails=0
CHUNK=65536
BASELINE=$((8 * 1024 * 1024))
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

awk 'BEGIN { s = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
    printf "{\"name\":\""; for (i = 0; i < 60000000 / 150; i++) printf "%s", s
    print "\",\"rows\":[]}" }' >"$TMP/string.jsonl"
awk 'BEGIN { printf "["; for (i = 0; i < 20000000 / 100; i++) printf "[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],"
    print "[]]" }' >"$TMP/empties.jsonl"
awk 'BEGIN { printf "{\"name\":\"x\",\"rows\":["
    for (i = 0; i < 3400; i++) { printf "%s[", i ? "," : ""
        for (j = 0; j < 1000; j++) printf "%s\"\"", j ? "," : ""
        printf "]" }
    print "]}" }' >"$TMP/rows.jsonl"

run() { # NAME TYPE EXPECTED_CODE
    size=$(wc -c <"$TMP/$1.jsonl")
    "$PEAK" "$TMP/rss" "$PROG" "$2" <"$TMP/$1.jsonl" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    rss=$(cat "$TMP/rss")
    read -r _ records _ bad _ arena _ code <"$TMP/out"
    bound=$(( (CHUNK + size + arena + BASELINE) / 1024 ))
    echo "stream_memory.sh: $1 ($size bytes as $2): $code, $records records, arena $arena bytes, peak RSS $rss KiB, bound $bound KiB"
    [ "$rc" -eq 0 ] || fail "$1: status $rc"
    [ "$code" = "$3" ] || { fail "$1: code $code, expected $3"; cat "$TMP/err"; }
    if [ "$CHECK" -ne 0 ] && [ "$rss" -gt "$bound" ]; then
        fail "$1: peak RSS $rss KiB over the bound $bound KiB"
    fi
}
run string doc OK
run empties anything LIMIT
run rows doc OK
[ "$fails" -eq 0 ]
