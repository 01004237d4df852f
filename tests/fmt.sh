#!/bin/sh
# atdc-fmt end to end: every JSONTestSuite y_ file pretty-prints to valid
# JSON that compacts to the same bytes as the original; every n_ file is
# rejected with status 1, nothing on standard output and one message naming
# line and column; usage and file errors give status 2; --help and the man
# page list the same options with the same words.
# Usage: fmt.sh ATDC_FMT SOURCE_DIR SHARED_DIR
set -u
fmt=${1:?usage: fmt.sh ATDC_FMT SOURCE_DIR SHARED_DIR}
src=${2:?usage: fmt.sh ATDC_FMT SOURCE_DIR SHARED_DIR}
suite=${3:?usage: fmt.sh ATDC_FMT SOURCE_DIR SHARED_DIR}/data/jsontestsuite/test_parsing
tmp=$(mktemp -d "${TMPDIR:-/tmp}/atdc_fmt.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
n=0
fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}

ny=0
for f in "$suite"/y_*.json; do
    n=$((n + 1))
    ny=$((ny + 1))
    if ! "$fmt" "$f" >"$tmp/pretty" 2>"$tmp/err"; then
        fail "$(basename "$f"): rejected: $(cat "$tmp/err")"
        continue
    fi
    "$fmt" -c "$f" >"$tmp/compact" 2>/dev/null &&
        "$fmt" -c <"$tmp/pretty" >"$tmp/again" 2>/dev/null &&
        cmp -s "$tmp/compact" "$tmp/again" ||
        fail "$(basename "$f"): the pretty output does not compact back to the same bytes"
done
[ "$ny" -ge 90 ] || fail "only $ny y_ files in $suite"

nn=0
for f in "$suite"/n_*.json; do
    n=$((n + 1))
    nn=$((nn + 1))
    "$fmt" "$f" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ "$rc" -eq 1 ] || fail "$(basename "$f"): status $rc, expected 1"
    [ ! -s "$tmp/out" ] || fail "$(basename "$f"): wrote to standard output"
    grep -q "^atdc-fmt: .*: line [0-9]*, column [0-9]*, at \\$" "$tmp/err" ||
        fail "$(basename "$f"): message '$(cat "$tmp/err")'"
done
[ "$nn" -ge 180 ] || fail "only $nn n_ files in $suite"

# Exact layout, stdin and '-', the message of a syntax error.
printf ' {"a" : [1, {"b":[ ]}, "x"], "c":{}}' >"$tmp/in.json"
printf '{\n  "a": [\n    1,\n    {\n      "b": []\n    },\n    "x"\n  ],\n  "c": {}\n}\n' >"$tmp/expect"
n=$((n + 1))
"$fmt" <"$tmp/in.json" >"$tmp/out" && cmp -s "$tmp/out" "$tmp/expect" || fail "pretty layout from stdin"
n=$((n + 1))
"$fmt" - <"$tmp/in.json" >"$tmp/out" && cmp -s "$tmp/out" "$tmp/expect" || fail "'-' for stdin"
n=$((n + 1))
printf '{"a":[1,{"b":[]},"x"],"c":{}}\n' >"$tmp/expect"
"$fmt" -c "$tmp/in.json" >"$tmp/out" && cmp -s "$tmp/out" "$tmp/expect" || fail "-c layout"
n=$((n + 1))
printf '{"a": [1,\n 2,, 3]}' >"$tmp/bad.json"
"$fmt" "$tmp/bad.json" 2>"$tmp/err" >/dev/null
[ "$(cat "$tmp/err")" = "atdc-fmt: $tmp/bad.json: line 2, column 4, at \$.a[2]: expected a JSON value, found ','" ] ||
    fail "syntax error message: $(cat "$tmp/err")"

# A leading UTF-8 byte order mark is skipped with a warning that names it;
# elsewhere it is invalid JSON.
printf '\357\273\277{"a":1}' >"$tmp/bom.json"
printf '{\n  "a": 1\n}\n' >"$tmp/expect"
n=$((n + 1))
"$fmt" "$tmp/bom.json" >"$tmp/out" 2>"$tmp/err" && cmp -s "$tmp/out" "$tmp/expect" ||
    fail "byte order mark: not skipped"
n=$((n + 1))
[ "$(cat "$tmp/err")" = "atdc-fmt: $tmp/bom.json: warning: UTF-8 byte order mark ignored" ] ||
    fail "byte order mark warning: $(cat "$tmp/err")"
n=$((n + 1))
printf '[1,\357\273\2772]' >"$tmp/bom.json"
"$fmt" "$tmp/bom.json" >/dev/null 2>&1 && fail "byte order mark inside the document accepted"

# Usage and file errors.
for args in "--bogus" "a.json b.json" "$tmp/missing.json"; do
    n=$((n + 1))
    # shellcheck disable=SC2086
    "$fmt" $args >/dev/null 2>"$tmp/err" </dev/null
    rc=$?
    [ "$rc" -eq 2 ] || fail "atdc-fmt $args: status $rc, expected 2"
    grep -q "^atdc-fmt: error: " "$tmp/err" || fail "atdc-fmt $args: message '$(cat "$tmp/err")'"
done

# --help and the man page list the same options with the same words.
man=$src/docs/atdc-fmt.1
"$fmt" --help | sed -n 's/^  \(-[^ ]*\).*/\1/p' >"$tmp/help_opts"
sed -n '/^\.SH OPTIONS/,/^\.SH EXIT/s/^\.B[I]* \(\\-[^ ]*\).*/\1/p' "$man" | sed 's/\\-/-/g' >"$tmp/man_opts"
n=$((n + 1))
cmp -s "$tmp/help_opts" "$tmp/man_opts" || { fail "options of --help and atdc-fmt.1 differ"; diff "$tmp/help_opts" "$tmp/man_opts"; }
"$fmt" --help | sed -n 's/^  -[^ ]*  *//p' | while IFS= read -r text; do
    grep -qxF -- "$text" "$man" || echo "$text"
done >"$tmp/undocumented"
n=$((n + 1))
[ ! -s "$tmp/undocumented" ] || { fail "--help wording missing from atdc-fmt.1:"; cat "$tmp/undocumented"; }

echo "fmt.sh: $n checks, $fails failures"
[ "$fails" -eq 0 ]
