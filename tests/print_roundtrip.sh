#!/bin/sh
# Round trip of the ATD printer, for every tests/valid/*.atd and schemas/*.atd:
#   A = print(F), B = print(A): A and B are identical (the layout is stable),
#   F and A are both accepted by `atdc --check`, and
#   dump(F) = dump(A): printing kept the whole structure (--dump-ast shows every
#   name, annotation and flag, without locations).
# Extra --check options for a schema are read from NAME.args.
# Usage: print_roundtrip.sh ATDC ROOT
set -u
ATDC=${1:?usage: print_roundtrip.sh ATDC ROOT}
ROOT=${2:?usage: print_roundtrip.sh ATDC ROOT}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/atdc_print.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT INT TERM

fail=0
count=0
for f in "$ROOT"/tests/valid/*.atd "$ROOT"/schemas/*.atd; do
    [ -f "$f" ] || continue
    count=$((count + 1))
    name=$(basename "$f" .atd)
    # Same file name as the original: the name gives the C prefix, which
    # <c default> texts may spell out.
    mkdir -p "$TMP/a" "$TMP/b"
    a="$TMP/a/$name.atd"
    b="$TMP/b/$name.atd"
    # Extra --check options a schema needs live in NAME.args (as for valid/run.sh).
    args=""
    [ -f "${f%.atd}.args" ] && args=$(cat "${f%.atd}.args")
    # shellcheck disable=SC2086 # $args is a word list
    if ! "$ATDC" --check $args "$f" 2>"$TMP/err"; then
        echo "FAIL $f: not accepted by --check"; cat "$TMP/err"; fail=1; continue
    fi
    if ! "$ATDC" --print "$f" >"$a" 2>"$TMP/err"; then
        echo "FAIL $f: --print failed"; cat "$TMP/err"; fail=1; continue
    fi
    # shellcheck disable=SC2086
    if ! "$ATDC" --check $args "$a" 2>"$TMP/err"; then
        echo "FAIL $f: printed form not accepted by --check"; cat "$TMP/err"; fail=1; continue
    fi
    if ! "$ATDC" --print "$a" >"$b" 2>"$TMP/err"; then
        echo "FAIL $f: --print of the printed form failed"; cat "$TMP/err"; fail=1; continue
    fi
    if ! cmp -s "$a" "$b"; then
        echo "FAIL $f: printing is not stable"; diff "$a" "$b" | head -20; fail=1; continue
    fi
    "$ATDC" --dump-ast "$f" >"$TMP/d1" 2>/dev/null
    "$ATDC" --dump-ast "$a" >"$TMP/d2" 2>/dev/null
    if ! cmp -s "$TMP/d1" "$TMP/d2"; then
        echo "FAIL $f: the printed form parses to a different AST"
        diff "$TMP/d1" "$TMP/d2" | head -20; fail=1; continue
    fi
done
if [ "$count" -eq 0 ]; then
    echo "FAIL: no schema found under $ROOT/tests/valid or $ROOT/schemas"
    exit 1
fi
[ "$fail" -eq 0 ] && echo "print round trip: $count schemas OK"
exit "$fail"
