#!/bin/sh
# What the generator produces for schemas it accepts compiles, and long
# names come out right:
#
# 1. A schema with a 2000-byte field name, a 1500-byte JSON name full of
#    quotes and backslashes and a 1500-byte constructor name: generated,
#    compiled with a program that writes a value, compares the JSON byte for
#    byte with what it expects, and reads it back.
# 2. A sample of accepted schemas: the generator fuzzer's seeds, the valid
#    schemas, and mutants of them (random edits in the style of
#    mutate_frontend.sh) that atdc accepts, leaving out those that carry C
#    code of their own. Each is generated and its source compiled with gcc
#    -std=c99 -Wall -Wextra -Wpedantic -Werror -fsyntax-only (every
#    diagnostic, no object code: fast). Deterministic: set
#    GENCOMPILE_SEED for other mutants, GENCOMPILE_COUNT for more of them.
# Usage: generate_compile.sh ATDC ROOT (ATDRT=libatdrt.a to run part 1's
# program too; without it, part 1 only compiles)
set -u
ATDC=${1:?usage: generate_compile.sh ATDC ROOT}
ROOT=${2:?usage: generate_compile.sh ATDC ROOT}
SEED=${GENCOMPILE_SEED:-20261201}
COUNT=${GENCOMPILE_COUNT:-200}
CC=${CC:-gcc}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/atdc_gencompile.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT INT TERM
INC="-I$ROOT/runtime/include"
FLAGS="-std=c99 -Wall -Wextra -Wpedantic -Werror"
RUNTIME=${ATDRT:-}
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

# ---- 1. long names -------------------------------------------------------
awk 'BEGIN {
    f = "f"; for (i = 0; i < 1999; i++) f = f "x"
    j = ""; for (i = 0; i < 300; i++) j = j "a\\\"b\\\\c"
    c = "C"; for (i = 0; i < 1499; i++) c = c "y"
    printf "type r = { %s : int; g <json name=\"%s\"> : string; k : k }\n", f, j
    printf "type k = [ %s | Other of int ]\n", c
}' >"$TMP/longnames.atd"
cat >"$TMP/longnames_main.c" <<'C'
#include <stdio.h>
#include <string.h>

#include "longnames.h"

/* The JSON that the writer must produce, built here independently. */
static size_t expected(char *out)
{
    size_t n = 0;
    out[n++] = '{';
    out[n++] = '"';
    out[n++] = 'f';
    for (int i = 0; i < 1999; i++)
        out[n++] = 'x';
    memcpy(out + n, "\":7,\"", 5);
    n += 5;
    for (int i = 0; i < 300; i++) {
        memcpy(out + n, "a\\\"b\\\\c", 7); /* a\"b\\c: the name a"b\c escaped */
        n += 7;
    }
    memcpy(out + n, "\":\"v\",\"k\":\"C", 12);
    n += 12;
    for (int i = 0; i < 1499; i++)
        out[n++] = 'y';
    memcpy(out + n, "\"}", 2);
    n += 2;
    return n;
}

int main(void)
{
    static char want[8192];
    size_t want_len = expected(want);
    longnames_r v;
    longnames_r_init(&v);
    char *field = (char *)&v; /* the first member is the long-named int */
    (void)field;
    v.f_long = 7;
    v.g.ptr = "v";
    v.g.len = 1;
    v.k.tag = LONGNAMES_K_C_LONG;
    atd_buf out;
    atd_buf_init(&out);
    atd_error err;
    if (longnames_r_to_json(&v, &out, &err) != 0 || out.len != want_len ||
        memcmp(out.data, want, want_len) != 0) {
        printf("wrong JSON (%zu bytes, expected %zu)\n", out.len, want_len);
        return 1;
    }
    atd_arena *arena = atd_arena_new(0, NULL);
    longnames_r back;
    if (longnames_r_from_json(out.data, out.len, arena, &back, &err) != 0 || back.f_long != 7 ||
        back.k.tag != LONGNAMES_K_C_LONG || back.g.len != 1) {
        printf("the JSON does not read back\n");
        return 1;
    }
    atd_arena_free(arena);
    atd_buf_free(&out);
    return 0;
}
C
# The C names of the long members are long too: refer to them through
# macros, so that the program above stays readable.
fname=$(awk 'BEGIN { f = "f"; for (i = 0; i < 1999; i++) f = f "x"; print f }')
cname=$(awk 'BEGIN { c = "C"; for (i = 0; i < 1499; i++) c = c "Y"; print c }')
if ! "$ATDC" -o "$TMP" "$TMP/longnames.atd" 2>"$TMP/err"; then
    fail "long names: atdc rejected the schema"
    cat "$TMP/err"
elif [ -n "$RUNTIME" ]; then
    if ! $CC $FLAGS $INC -I"$TMP" -Df_long="$fname" -DLONGNAMES_K_C_LONG="LONGNAMES_K_$cname" \
        "$TMP/longnames_main.c" "$TMP/longnames.c" "$RUNTIME" -o "$TMP/longnames" -lm \
        2>"$TMP/err"; then
        fail "long names: the generated code does not compile"
        head -20 "$TMP/err"
    elif ! "$TMP/longnames"; then
        fail "long names: wrong JSON keys"
    fi
else
    $CC $FLAGS $INC -c "$TMP/longnames.c" -o "$TMP/longnames.o" 2>"$TMP/err" ||
        { fail "long names: the generated code does not compile"; head -20 "$TMP/err"; }
fi

# ---- 2. a sample of accepted schemas -------------------------------------
mkdir "$TMP/m" "$TMP/out"
awk -v seed="$SEED" -v count="$COUNT" -v out="$TMP/m" '
function pick(arr, n) { return arr[int(rand() * n) + 1] }
function mutate(s,    ops, k, op, p, L, q) {
    ops = 1 + int(rand() * 2)
    for (k = 0; k < ops; k++) {
        L = length(s)
        p = int(rand() * (L + 1))
        op = int(rand() * 4)
        if (op == 0 && L > 0)        # delete a few bytes
            s = substr(s, 1, p) substr(s, p + 2 + int(rand() * 8))
        else if (op == 1)            # insert a token
            s = substr(s, 1, p) pick(toks, ntoks) substr(s, p + 1)
        else if (op == 2 && L > 0) { # duplicate a chunk elsewhere
            q = int(rand() * L)
            s = substr(s, 1, p) substr(s, q + 1, 1 + int(rand() * 60)) substr(s, p + 1)
        } else                       # duplicate a line
            s = s pick(lines, nlines) "\n"
    }
    return s
}
BEGIN {
    srand(seed)
    ntoks = split("list option nullable int string bool float ; | * ( ) { } [ ] ? ~ " \
                  "x y z A B C inherit of type <json name=\"q\"> <c repr=\"int8\"> " \
                  "<json repr=\"object\"> <ocaml default=\"[]\">", toks, " ")
    toks[++ntoks] = " "; toks[++ntoks] = "\n"
}
FNR == 1 { nseeds++ }
{ seeds[nseeds] = seeds[nseeds] $0 "\n"; if ($0 ~ /^type /) lines[++nlines] = $0 }
END {
    for (i = 1; i <= count; i++) {
        f = sprintf("%s/m%04d.atd", out, i)
        printf "%s", mutate(seeds[1 + int(rand() * nseeds)]) > f
        close(f)
    }
}' "$ROOT"/tests/fuzz/corpus/fuzz_generate/*.atd "$ROOT"/tests/valid/check_*.atd
accepted=0
for atd in "$ROOT"/tests/fuzz/corpus/fuzz_generate/*.atd "$ROOT"/tests/valid/*.atd "$TMP"/m/*.atd; do
    [ -e "$atd" ] || continue
    # C written by the user (<c default>, <c t>, <c include>...) is copied
    # as it is: a mutant of it need not compile, and is not the generator's.
    grep -Eq '<c [^>]*(include|default|t|wrap|unwrap)=' "$atd" && continue
    args=""
    [ -f "${atd%.atd}.args" ] && args=$(cat "${atd%.atd}.args")
    rm -f "$TMP"/out/*
    # shellcheck disable=SC2086 # $args is a word list
    "$ATDC" $args -o "$TMP/out" "$atd" >/dev/null 2>"$TMP/err"
    status=$?
    case $status in
    0) ;;
    1) continue ;;
    *) fail "$atd: atdc exit status $status"; cat "$TMP/err"; continue ;;
    esac
    accepted=$((accepted + 1))
    for src in "$TMP"/out/*.c; do
        if ! $CC $FLAGS $INC -I"$TMP/out" -fsyntax-only "$src" 2>"$TMP/cc"; then
            fail "$atd: the generated code does not compile"
            mkdir -p "${TMPDIR:-/tmp}/atdc_gencompile_failures"
            cp "$atd" "${TMPDIR:-/tmp}/atdc_gencompile_failures/"
            head -20 "$TMP/cc"
        fi
    done
done
echo "generate_compile: long names, $accepted accepted schemas compiled, $failed failures"
[ "$failed" -eq 0 ]
