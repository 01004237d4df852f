#!/bin/sh
# examples/jsonl end to end, as a user builds it: installs the build tree
# into a temporary prefix, builds the example against it (find_package +
# atdc_generate), then
# - runs jsonl_filter on a small input with one bad line of each kind: the
#   exact stdout, stderr and exit status;
# - generates LINES (default 1500000, about 260 MB) of event records with
#   varied spacing, CRLF endings, blank lines, quoted ints, escapes, and a bad
#   line every 100003 lines (expected output and messages made alongside),
#   pipes it through jsonl_filter and checks both outputs, the exit status,
#   and that the peak RSS stays under LIMIT_KIB (0: not checked, for
#   sanitizer builds whose shadow memory dwarfs the filter's);
# - splits that input into shards, filters each (GNU parallel --pipe when
#   installed, else split and a shell loop), and checks that the
#   concatenated output equals the single run's.
# Usage: jsonl.sh BUILD_DIR SOURCE_DIR PEAK_RSS [EXTRA_FLAGS [LIMIT_KIB [LINES]]]
set -u
build=${1:?usage: jsonl.sh BUILD_DIR SOURCE_DIR PEAK_RSS [EXTRA_FLAGS [LIMIT_KIB [LINES]]]}
src=${2:?usage}
peak=${3:?usage}
extra=${4:-}
limit=${5:-16384}
lines=${6:-1500000}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/atdc_jsonl.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
n=0
fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}

cmp -s "$src/examples/jsonl/event.atd" "$src/schemas/event.atd" ||
    fail "examples/jsonl/event.atd differs from schemas/event.atd"
if ! cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1; then
    cat "$tmp/install.log"
    echo "FAIL: cmake --install"
    exit 1
fi
if ! cmake -S "$src/examples/jsonl" -B "$tmp/ex" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS="$extra" -DCMAKE_EXE_LINKER_FLAGS="$extra" \
    >"$tmp/build.log" 2>&1 || ! cmake --build "$tmp/ex" >>"$tmp/build.log" 2>&1; then
    cat "$tmp/build.log"
    echo "FAIL: building examples/jsonl against the installed package"
    exit 1
fi
filter=$tmp/ex/jsonl_filter

# ---- Small input: one bad line of each kind, exact messages.
good='{"username":"u","date":1,"event_type":"Login","payload":"x"}'
{
    printf '%s\n' "$good"
    printf '{"username":"u","date":2.5,"event_type":"Login","payload":""}\n'
    printf '\r\n'
    printf '{ "username" : "v", "date" : "7", "event_type" : "Cancel", "payload" : "\\u00e9" }\r\n'
    printf '{"username":"u","date":1,"event_type":"Foo","payload":""}\n'
    printf '{"username":"u","date":1,"event_type":"Login"}\n'
    printf '{"username":"u\377","date":1,"event_type":"Login","payload":""}\n'
    printf '\n  \n'
    printf '%s\n' "$good"
    printf '{"username":"u","date":1,'
} >"$tmp/small.jsonl"
{
    printf '%s\n' "$good"
    printf '{"username":"v","date":7,"event_type":"Cancel","payload":"\303\251"}\n'
    printf '%s\n' "$good"
} >"$tmp/small.expect"
cat >"$tmp/small.err.expect" <<'EOT'
line 2: column 24, at $.date: expected an integer, found 2.5
line 5: column 39, at $.event_type: unsupported variant "Foo" in 'event_type'
line 6: column 1, at $: missing field 'payload' in record 'event'
line 7: column 15, at $.username: invalid UTF-8 byte 0xff in string
line 11: column 26, at $: the input ends inside a record (unexpected end of input)
EOT
"$filter" <"$tmp/small.jsonl" >"$tmp/small.out" 2>"$tmp/small.err"
rc=$?
n=$((n + 1))
[ "$rc" -eq 1 ] || fail "small input: status $rc, expected 1"
n=$((n + 1))
cmp -s "$tmp/small.out" "$tmp/small.expect" || { fail "small input: output"; diff "$tmp/small.out" "$tmp/small.expect"; }
n=$((n + 1))
cmp -s "$tmp/small.err" "$tmp/small.err.expect" || { fail "small input: messages"; diff "$tmp/small.err" "$tmp/small.err.expect"; }
n=$((n + 1))
"$filter" <"$tmp/small.expect" >"$tmp/small.out2" 2>"$tmp/small.err" && cmp -s "$tmp/small.out2" "$tmp/small.expect" &&
    [ ! -s "$tmp/small.err" ] || fail "all-valid input: status 0, same bytes, no message"
n=$((n + 1))
"$filter" </dev/null >"$tmp/empty.out" 2>&1 && [ ! -s "$tmp/empty.out" ] || fail "empty input"

# ---- The big input, generated with its expected output and messages.
awk -v n="$lines" -v IN="$tmp/big.jsonl" -v OUT="$tmp/big.expect" -v ERR="$tmp/big.err.expect" '
function emit(text, eol) {
    printf "%s%s", text, eol > IN
    ln++
}
BEGIN {
    split("Login Purchase Logout Cancel", types, " ")
    pay = "lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua 0123456789 ABCDEFGHIJ"
    ln = 0
    for (i = 1; i <= n; i++) {
        t = types[1 + i % 4]; d = 1600000000 + i; u = "user" (i % 1000)
        p = substr(pay, 1 + i % 40, 60 + i % 80)
        if (i % 100003 == 77) {
            k = int(i / 100003) % 4
            if (k == 0) { line = "{\"username\":\"" u "\",\"date\":2.5}"; col = 14 + length(u) + 9; msg = "expected an integer, found 2.5"; at = "$.date" }
            if (k == 1) { line = "{\"username\":\"" u "\",\"date\":1,\"event_type\":\"Foo\",\"payload\":\"\"}"; col = 14 + length(u) + 24; msg = "unsupported variant \"Foo\" in '\''event_type'\''"; at = "$.event_type" }
            if (k == 2) { line = "{\"username\":\"" u "\",\"date\":" d ",\"event_type\":\"Login\"}"; col = 1; msg = "missing field '\''payload'\'' in record '\''event'\''"; at = "$" }
            if (k == 3) { line = "{\"username\":\"" u "\",\"date\":\"" d; col = 14 + length(u) + 9; msg = "unterminated string"; at = "$.date" }
            emit(line, "\n")
            printf "line %d: column %d, at %s: %s\n", ln, col, at, msg > ERR
            continue
        }
        q = p
        if (i % 17 == 4) { p = p "\\u00e9\\t\\/\\\""; q = q "\303\251\\t/\\\"" }
        canon = "{\"username\":\"" u "\",\"date\":" d ",\"event_type\":\"" t "\",\"payload\":\"" q "\"}"
        if (i % 7 == 3)
            line = "{ \"username\" : \"" u "\" , \"date\" : " d " ,\t\"event_type\" : \"" t "\" , \"payload\" : \"" p "\" }  "
        else if (i % 13 == 2)
            line = "{\"payload\":\"" p "\",\"event_type\":\"" t "\",\"date\":\"" d "\",\"username\":\"" u "\"}"
        else
            line = "{\"username\":\"" u "\",\"date\":" d ",\"event_type\":\"" t "\",\"payload\":\"" p "\"}"
        emit(line, i % 11 == 5 ? "\r\n" : "\n")
        print canon > OUT
        if (i % 19 == 0) emit(i % 38 == 0 ? "  \r" : "", "\n")
    }
}'
size=$(wc -c <"$tmp/big.jsonl")
cat "$tmp/big.jsonl" | "$peak" "$tmp/rss" "$filter" >"$tmp/big.out" 2>"$tmp/big.err"
rc=$?
n=$((n + 1))
[ "$rc" -eq 1 ] || fail "big input: status $rc, expected 1"
n=$((n + 1))
cmp -s "$tmp/big.out" "$tmp/big.expect" || { fail "big input: output differs"; cmp "$tmp/big.out" "$tmp/big.expect"; }
n=$((n + 1))
cmp -s "$tmp/big.err" "$tmp/big.err.expect" || { fail "big input: messages differ"; diff "$tmp/big.err" "$tmp/big.err.expect" | head; }
rss=$(cat "$tmp/rss")
echo "jsonl.sh: $lines lines, $size bytes through a pipe: peak RSS $rss KiB (limit: ${limit:-none} KiB)"
if [ "$limit" -gt 0 ]; then
    n=$((n + 1))
    [ "$rss" -lt "$limit" ] || fail "peak RSS $rss KiB, limit $limit KiB"
fi
rm -f "$tmp/big.expect"

# ---- Shards give the same output as one run.
if command -v parallel >/dev/null 2>&1; then
    how="GNU parallel --pipe"
    parallel --will-cite -k --pipe --block 8M "$filter" <"$tmp/big.jsonl" >"$tmp/shards.out" 2>/dev/null
else
    how="split and a loop"
    (cd "$tmp" && split -n l/4 big.jsonl shard.)
    for s in "$tmp"/shard.*; do
        "$filter" <"$s" 2>/dev/null
    done >"$tmp/shards.out"
fi
n=$((n + 1))
cmp -s "$tmp/shards.out" "$tmp/big.out" || fail "sharded run ($how) differs from the single run"
echo "jsonl.sh: sharded with $how"

echo "jsonl.sh: $n checks, $fails failures"
[ "$fails" -eq 0 ]
