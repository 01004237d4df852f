#!/bin/sh
# Multi-file schemas: generates shapes.atd and the two schemas it imports
# (geo/point.atd next to it, lib/units.atd through -I) into a temporary
# folder, compiles the three sources warning-free as C99 and C11 and the
# headers from C++, runs main.c (read JSON through imported types, change a
# value, write it back), and checks -M, --depfile and the import errors
# (cycle, missing file, parametrized imported type).
# Usage: run.sh ATDC ROOT LIBATDRT [EXTRA_FLAGS] (a sanitizer build passes its
# -fsanitize flags, which the runtime library needs).
set -u
ATDC=${1:?usage: run.sh ATDC ROOT LIBATDRT [EXTRA_FLAGS]}
ROOT=${2:?usage: run.sh ATDC ROOT LIBATDRT [EXTRA_FLAGS]}
LIB=${3:?usage: run.sh ATDC ROOT LIBATDRT [EXTRA_FLAGS]}
EXTRA=${4:-}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/atdc_imports.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT INT TERM
cd "$ROOT/tests/imports" || exit 2
fails=0
n=0
check() { # check DESCRIPTION COMMAND...
    n=$((n + 1))
    desc=$1
    shift
    if ! "$@" >"$TMP/log" 2>&1; then
        echo "FAIL: $desc"
        sed 's/^/    /' "$TMP/log" | head -20
        fails=$((fails + 1))
    fi
}
CC=${CC:-cc}
CXX=${CXX:-c++}
WARN="-Wall -Wextra -Wpedantic -Werror"
INC="-I$ROOT/runtime/include -I$TMP/gen"
mkdir "$TMP/gen"

check "generate the three schemas" sh -c "'$ATDC' -I lib -o '$TMP/gen' shapes.atd geo/point.atd lib/units.atd"
for std in c99 c11; do
    # shellcheck disable=SC2086 # word lists
    check "compile as $std" $CC -std=$std $WARN $INC $EXTRA main.c "$TMP/gen/shapes.c" \
        "$TMP/gen/point.c" "$TMP/gen/units.c" "$LIB" -lm -o "$TMP/prog_$std"
done
printf '#include "shapes.h"\nint main() { shapes_drawing d; shapes_drawing_init(&d); return 0; }\n' >"$TMP/cxx.cc"
if command -v "$CXX" >/dev/null 2>&1; then
    # shellcheck disable=SC2086
    check "headers from C++" $CXX -std=c++11 $WARN $INC -fsyntax-only "$TMP/cxx.cc"
fi
expected='{"title":"plan","shapes":[{"name":"box","origin":{"x":11.0,"y":2.5},"corners":[{"x":0.0,"y":0.0},{"x":3.0,"y":4.0}],"fill":"Blue","size":{"value":12.0},"tags":{"a":{"x":-1.0,"y":0.5}}}]}'
run_prog() {
    out=$("$TMP/prog_c99") || return 1
    [ "$out" = "$expected" ] || { echo "got:      $out"; echo "expected: $expected"; return 1; }
}
[ -x "$TMP/prog_c99" ] && check "read, change and write through imported types" run_prog

# -M and --depfile print the same rule, like cc -M and cc -MD -MF.
rule_ok() {
    "$ATDC" -M -I lib -o out shapes.atd >"$TMP/m.d" || return 1
    printf '%s\n' 'out/shapes.h out/shapes.c: shapes.atd \' '  geo/point.atd \' '  lib/units.atd' '' \
        'geo/point.atd:' '' 'lib/units.atd:' >"$TMP/want.d"
    diff "$TMP/want.d" "$TMP/m.d" || return 1
    "$ATDC" -I lib -o "$TMP/gen" --depfile "$TMP/gen.d" shapes.atd || return 1
    sed "s|$TMP/gen|out|g" "$TMP/gen.d" | diff "$TMP/want.d" -
}
check "-M and --depfile" rule_ok
check "-M of a schema without imports" sh -c "'$ATDC' -M geo/point.atd | grep -qx 'point.h point.c: geo/point.atd'"

# Errors: exit status 1 and a message at the import.
expect_error() { # expect_error TEXT ARGS...
    text=$1
    shift
    "$ATDC" "$@" -o "$TMP" >"$TMP/out" 2>"$TMP/err"
    status=$?
    [ "$status" -eq 1 ] || { echo "exit status $status"; cat "$TMP/err"; return 1; }
    grep -qF -- "$text" "$TMP/err" || { echo "no '$text' in:"; cat "$TMP/err"; return 1; }
}
check "import cycle" expect_error \
    "cycle/b.atd:1:6: error: import cycle: 'cycle/a.atd' -> 'cycle/b.atd' -> 'cycle/a.atd'" cycle/a.atd
check "missing imported schema" expect_error \
    "shapes.atd:5:6: error: cannot find 'units.atd' for module 'units'" shapes.atd
printf "from geo.point import 'a pair\ntype t = { p : int point.pair }\n" >"$TMP/param.atd"
printf "type 'a pair = ('a * 'a)\n" >"$TMP/pair.atd"
mkdir -p "$TMP/geo" && cp "$TMP/pair.atd" "$TMP/geo/point.atd"
check "parametrized imported type" expect_error \
    "parametrized imported type 'point.pair' is not supported" "$TMP/param.atd"

echo "$((n - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]
