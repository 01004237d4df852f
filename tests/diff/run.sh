#!/bin/sh
# atdc diff: golden findings for old/new schema pairs, and its command line.
# Each case is a folder tests/diff/NAME holding old.atd and new.atd (or
# old/main.atd and new/main.atd, with the schemas they import beside them),
# optionally `args` (extra options, one line), and `expected`: the standard
# output of `atdc diff ARGS OLD NEW`, run from the repository root, followed
# by a line `exit: N`. With UPDATE=1 the expected files are rewritten from
# the current output; review them before committing.
# Then: usage and schema errors exit 1 with a message; every valid schema of
# tests/valid compared with itself has no finding, and compared with the
# next one gives findings or none, never a crash.
# Usage: run.sh ATDC ROOT
set -u
ATDC=${1:?usage: run.sh ATDC ROOT}
ROOT=${2:?usage: run.sh ATDC ROOT}
case $ATDC in
/*) ;;
*) ATDC=$(pwd)/$ATDC ;;
esac
cd "$ROOT" || exit 2
TMP=$(mktemp -d "${TMPDIR:-/tmp}/atdc_diff.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT INT TERM
if command -v timeout >/dev/null 2>&1; then
    LIMIT="timeout 20"
else
    LIMIT=""
fi

passed=0
failed=0
findings=0
fail() {
    echo "FAIL: $*"
    failed=$((failed + 1))
}

for dir in tests/diff/*/; do
    dir=${dir%/}
    if [ -f "$dir/old.atd" ]; then
        old=$dir/old.atd new=$dir/new.atd
    else
        old=$dir/old/main.atd new=$dir/new/main.atd
    fi
    args=""
    [ -f "$dir/args" ] && args=$(cat "$dir/args")
    # shellcheck disable=SC2086 # $args and $LIMIT are word lists
    $LIMIT "$ATDC" diff $args "$old" "$new" >"$TMP/out" 2>"$TMP/err" </dev/null
    status=$?
    echo "exit: $status" >>"$TMP/out"
    if [ "${UPDATE:-0}" = 1 ]; then
        cp "$TMP/out" "$dir/expected"
    fi
    if [ -s "$TMP/err" ]; then
        fail "$dir: unexpected messages"
        sed 's/^/    /' "$TMP/err" | head -10
    elif ! cmp -s "$dir/expected" "$TMP/out"; then
        fail "$dir: output differs from $dir/expected"
        diff -u "$dir/expected" "$TMP/out" | sed 's/^/    /' | head -40
    else
        passed=$((passed + 1))
        # Text findings are the lines that start with a location.
        n=$(grep -c '^[^ ].*:[0-9]*:[0-9]*: [a-z ]*incompatibility' "$TMP/out")
        findings=$((findings + n))
    fi
done

# expect_error STATUS PATTERN ARGS...: atdc diff ARGS exits STATUS, prints
# nothing on stdout and PATTERN (grep -E) on stderr.
expect_error() {
    want=$1 pattern=$2
    shift 2
    $LIMIT "$ATDC" diff "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
    status=$?
    if [ "$status" -ne "$want" ] || [ -s "$TMP/out" ] || ! grep -Eq -- "$pattern" "$TMP/err"; then
        fail "atdc diff $*: status $status (expected $want), stderr:"
        sed 's/^/    /' "$TMP/err" | head -5
    else
        passed=$((passed + 1))
    fi
}
F=tests/diff/fields
expect_error 1 "give two schemas" "$F/old.atd"
expect_error 1 "unexpected argument" "$F/old.atd" "$F/new.atd" "$F/new.atd"
expect_error 1 "unknown option '--nope'" --nope "$F/old.atd" "$F/new.atd"
expect_error 1 "'--types' needs" "$F/old.atd" "$F/new.atd" --types
expect_error 1 "no type 'nope' in either schema" --types r,nope "$F/old.atd" "$F/new.atd"
expect_error 1 "cannot read 'missing.atd'" missing.atd "$F/new.atd"
expect_error 1 "cannot read 'tests': Is a directory" tests "$F/new.atd"
expect_error 1 "only one of the schemas can be standard input" - -
printf 'type t = { x : int\n' >"$TMP/bad.atd"
expect_error 1 "bad.atd:1:19: error: syntax error" "$TMP/bad.atd" "$F/new.atd"
printf 'type t = { x : nope }\n' >"$TMP/unbound.atd"
expect_error 1 "unbound.atd:1:16: error" "$F/old.atd" "$TMP/unbound.atd"
printf 'from nowhere import t\ntype u = nowhere.t\n' >"$TMP/noimport.atd"
expect_error 1 "nowhere" "$F/old.atd" "$TMP/noimport.atd"
# Standard input for one of the two.
"$ATDC" diff - "$F/new.atd" <"$F/old.atd" >"$TMP/out" 2>&1
status=$?
if [ "$status" -eq 3 ] && grep -q "^<stdin>:3:3: forward incompatibility: required field 'removed' disappeared" "$TMP/out"; then
    passed=$((passed + 1))
else
    fail "atdc diff - NEW.atd <OLD.atd"
fi

prev=""
for atd in tests/valid/*.atd; do
    $LIMIT "$ATDC" diff "$atd" "$atd" >"$TMP/out" 2>"$TMP/err" </dev/null
    status=$?
    # A schema atdc refuses to lower (a C-specific limit) is a clean exit 1.
    if [ "$status" -eq 1 ] && [ ! -s "$TMP/out" ] && [ -s "$TMP/err" ]; then
        passed=$((passed + 1))
    elif [ "$status" -ne 0 ] || [ -s "$TMP/out" ]; then
        fail "$atd compared with itself: status $status"
        head -5 "$TMP/out" "$TMP/err" | sed 's/^/    /'
    else
        passed=$((passed + 1))
    fi
    if [ -n "$prev" ]; then
        $LIMIT "$ATDC" diff --json "$prev" "$atd" >"$TMP/out" 2>"$TMP/err" </dev/null
        status=$?
        case $status in
        0 | 1 | 3) passed=$((passed + 1)) ;;
        *)
            fail "$prev vs $atd: status $status"
            head -5 "$TMP/err" | sed 's/^/    /'
            ;;
        esac
    fi
    prev=$atd
done

echo "diff: $passed passed, $failed failed ($findings findings in the golden cases)"
[ "$failed" -eq 0 ]
