#!/bin/sh
# Golden diagnostics: every tests/errors/NAME.atd must be rejected by
# `atdc --check tests/errors/NAME.atd` (run from the repository root, so the
# paths in the messages are stable) with exit status 1 and exactly the
# stderr stored in NAME.err. Extra options, when a case needs them, are read
# from NAME.args (one line). With UPDATE=1 the .err files are rewritten from
# the current output instead; review them before committing.
# Usage: run.sh ATDC ROOT
set -u
ATDC=${1:?usage: run.sh ATDC ROOT}
ROOT=${2:?usage: run.sh ATDC ROOT}
case $ATDC in
/*) ;;
*) ATDC=$(pwd)/$ATDC ;;
esac
cd "$ROOT" || exit 2
TMP=$(mktemp -d "${TMPDIR:-/tmp}/atdc_errors.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT INT TERM

# A hang is a failure, not a stuck test run.
if command -v timeout >/dev/null 2>&1; then
    LIMIT="timeout 20"
else
    LIMIT=""
fi

passed=0
failed=0
for atd in tests/errors/*.atd; do
    [ -e "$atd" ] || continue
    name=${atd%.atd}
    args=""
    if [ -f "$name.args" ]; then
        args=$(cat "$name.args")
    fi
    # shellcheck disable=SC2086 # $args and $LIMIT are word lists
    $LIMIT "$ATDC" --check $args "$atd" >"$TMP/out" 2>"$TMP/err" </dev/null
    status=$?
    if [ "${UPDATE:-0}" = 1 ]; then
        cp "$TMP/err" "$name.err"
    fi
    ok=1
    if [ "$status" -ne 1 ]; then
        echo "FAIL: $atd: exit status $status, expected 1"
        ok=0
    fi
    if [ ! -f "$name.err" ]; then
        echo "FAIL: $atd: missing $name.err (run with UPDATE=1 to create it)"
        ok=0
    elif ! cmp -s "$name.err" "$TMP/err"; then
        echo "FAIL: $atd: stderr differs from $name.err"
        diff -u "$name.err" "$TMP/err" | sed 's/^/    /'
        ok=0
    fi
    if [ "$ok" = 1 ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
