#!/bin/sh
# <ocaml from="M"> (atdgen's way to use a type of m.atd before imports):
# generated like an import, the record's fields typed (a wrong field type
# is an error), also through <ocaml t="other">; atdc diff and --json-schema
# follow it into m.atd.
# Usage: ocaml_from.sh ATDC ROOT LIBATDRT [EXTRA_FLAGS]
set -u
ATDC=${1:?usage: ocaml_from.sh ATDC ROOT LIBATDRT [EXTRA_FLAGS]}
ROOT=${2:?usage: ocaml_from.sh ATDC ROOT LIBATDRT [EXTRA_FLAGS]}
LIB=${3:?usage: ocaml_from.sh ATDC ROOT LIBATDRT [EXTRA_FLAGS]}
EXTRA=${4:-}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/atdc_from.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT INT TERM
mkdir -p "$TMP/from"
printf 'type loc <ocaml from="Places"> = abstract\ntype here <ocaml from="Places" t="loc"> = abstract\ntype r = { l : loc; h : here }\n' >"$TMP/from/uses.atd"
printf 'type loc = { file : string; line : int }\n' >"$TMP/from/places.atd"
cat >"$TMP/from/main.c" <<'EOC'
#include <string.h>
#include "uses.h"
int main(void)
{
    const char *good = "{\"l\":{\"file\":\"a\",\"line\":1},\"h\":{\"file\":\"b\",\"line\":2}}";
    const char *bad = "{\"l\":{\"file\":\"a\",\"line\":\"x\"},\"h\":{\"file\":\"b\",\"line\":2}}";
    atd_arena *a = atd_arena_new(0, NULL);
    uses_r v;
    atd_error err;
    int ok = uses_r_from_json(good, strlen(good), a, &v, &err) == 0 && v.h.line == 2 &&
             uses_r_from_json(bad, strlen(bad), a, &v, &err) != 0;
    atd_arena_free(a);
    return ok ? 0 : 1;
}
EOC
if ! "$ATDC" -o "$TMP/from" "$TMP/from/uses.atd" "$TMP/from/places.atd"; then
    echo "FAIL: atdc refused <ocaml from>"
    exit 1
fi
if ! ${CC:-cc} -std=c99 $EXTRA -Wall -Wextra -Wpedantic -Werror -I"$ROOT/runtime/include" -I"$TMP/from" \
    "$TMP/from/main.c" "$TMP/from/uses.c" "$TMP/from/places.c" "$LIB" -lm -o "$TMP/from/prog" ||
    ! "$TMP/from/prog"; then
    echo "FAIL: <ocaml from> is not read as the imported record"
    exit 1
fi
# atdc diff and --json-schema see through it too.
printf 'type loc = { file : string; line : int; col : int }\n' >"$TMP/from/new_places.atd"
mkdir -p "$TMP/new" && cp "$TMP/from/uses.atd" "$TMP/new/uses.atd" && cp "$TMP/from/new_places.atd" "$TMP/new/places.atd"
"$ATDC" diff "$TMP/from/uses.atd" "$TMP/new/uses.atd" >"$TMP/diff.out"
if [ $? -ne 3 ] || ! grep -q "backward incompatibility: required field 'col' is new" "$TMP/diff.out"; then
    echo "FAIL: atdc diff through <ocaml from>"
    cat "$TMP/diff.out"
    exit 1
fi
if ! "$ATDC" --json-schema r "$TMP/from/uses.atd" | grep -q '"places.loc"'; then
    echo "FAIL: atdc --json-schema through <ocaml from>"
    exit 1
fi
echo "ocaml_from: OK"

