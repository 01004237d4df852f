#!/bin/sh
# Valid schemas: every tests/valid/*.atd and schemas/*.atd must pass
# `atdc --check` (run from the repository root) with exit status 0 and no
# `error:` on stderr. Warnings are allowed (some files test them) and are
# shown. Extra options, when a file needs them, are read from NAME.args.
# Usage: run.sh ATDC ROOT
set -u
ATDC=${1:?usage: run.sh ATDC ROOT}
ROOT=${2:?usage: run.sh ATDC ROOT}
case $ATDC in
/*) ;;
*) ATDC=$(pwd)/$ATDC ;;
esac
cd "$ROOT" || exit 2
TMP=$(mktemp -d "${TMPDIR:-/tmp}/atdc_valid.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT INT TERM

if command -v timeout >/dev/null 2>&1; then
    LIMIT="timeout 20"
else
    LIMIT=""
fi

passed=0
failed=0
for atd in tests/valid/*.atd schemas/*.atd; do
    [ -e "$atd" ] || continue
    name=${atd%.atd}
    args=""
    if [ -f "$name.args" ]; then
        args=$(cat "$name.args")
    fi
    # shellcheck disable=SC2086 # $args and $LIMIT are word lists
    $LIMIT "$ATDC" --check $args "$atd" >"$TMP/out" 2>"$TMP/err" </dev/null
    status=$?
    if [ "$status" -ne 0 ] || grep -q 'error:' "$TMP/err"; then
        echo "FAIL: $atd: exit status $status"
        sed 's/^/    /' "$TMP/err" | head -40
        failed=$((failed + 1))
    else
        if [ -s "$TMP/err" ]; then
            echo "note: $atd passes with warnings:"
            sed 's/^/    /' "$TMP/err" | head -20
        fi
        passed=$((passed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
