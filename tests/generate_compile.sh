#!/bin/sh
# What the generator produces for schemas it accepts compiles, and long
# names come out right:
#
# 1. Names of 5000 bytes, past any buffer an emitter could have: a field, a
#    JSON name full of quotes and backslashes, a type, a constructor, the
#    type field and a constructor's JSON name of a Type_field adapter, in
#    JSON; a field and a constructor in biniou (--biniou). Generated,
#    compiled with a program that writes a value, compares the JSON byte for
#    byte (the biniou field and variant hashtags with atdgen's hash, computed
#    there) with what it expects, and reads it back.
# 2. A sample of accepted schemas: the generator fuzzer's seeds, the valid
#    schemas, and mutants of them (random edits in the style of
#    mutate_frontend.sh) that atdc accepts, leaving out those that carry C
#    code of their own. Each is generated and its source compiled with gcc
#    -std=c99 -Wall -Wextra -Wpedantic -Werror -fsyntax-only (every
#    diagnostic, no object code: fast). Deterministic: set
#    GENCOMPILE_SEED for other mutants, GENCOMPILE_COUNT for more of them.
# Usage: generate_compile.sh ATDC ROOT (ATDRT=libatdrt.a to run part 1's
# program too, ATDRT_LDFLAGS for a sanitized library; without ATDRT, part 1
# only compiles)
set -u
ATDC=${1:?usage: generate_compile.sh ATDC ROOT}
ROOT=${2:?usage: generate_compile.sh ATDC ROOT}
SEED=${GENCOMPILE_SEED:-20261201}
COUNT=${GENCOMPILE_COUNT:-200}
CC=${CC:-gcc}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/atdc_gencompile.XXXXXX") || exit 2
trap '[ -n "${KEEP:-}" ] || rm -rf "$TMP"' EXIT INT TERM
INC="-I$ROOT/runtime/include"
FLAGS="-std=c99 -Wall -Wextra -Wpedantic -Werror"
RUNTIME=${ATDRT:-}
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

# ---- 1. long names -------------------------------------------------------
# f: field, j: JSON name (a"b\c 1000 times), k: type, c: constructor,
# t: type field of the adapter, q: JSON name of its constructor (as j).
L=5000
awk -v L=$L -v dir="$TMP" 'BEGIN {
    f = "f"; for (i = 1; i < L; i++) f = f "x"
    j = ""; for (i = 0; i < L / 5; i++) j = j "a\\\"b\\\\c"
    k = "k"; for (i = 1; i < L; i++) k = k "w"
    c = "C"; for (i = 1; i < L; i++) c = c "y"
    t = "t"; for (i = 1; i < L; i++) t = t "z"
    printf "type r = { %s : int; g <json name=\"%s\"> : string; k : %s; s : s }\n", f, j, k
    printf "type %s = [ %s | Other of int ]\n", k, c
    printf "type circ = { n : int }\n"
    printf "type s = [ Dot | Circle <json name=\"%s\"> of circ ]\n", j
    printf "  <json adapter.to_ocaml=\"Atdgen_runtime.Json_adapter.normalize_type_field \\\"%s\\\"\"\n", t
    printf "        adapter.from_ocaml=\"Atdgen_runtime.Json_adapter.restore_type_field \\\"%s\\\"\">\n", t
    printf "type b = { %s : int; v : %s }\n", f, k > (dir "/longbin.atd")
    printf "type %s = [ %s | Other of int ]\n", k, c > (dir "/longbin.atd")
}' >"$TMP/longnames.atd"
cat >"$TMP/longnames_main.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "longbin.h"
#include "longnames.h"

#define L 5000

/* n copies of one letter after a first one. */
static size_t put_name(char *out, char first, char rest)
{
    out[0] = first;
    memset(out + 1, rest, L - 1);
    return L;
}

/* a"b\c L/5 times, escaped as JSON: a\"b\\c. */
static size_t put_json_name(char *out)
{
    size_t n = 0;
    for (int i = 0; i < L / 5; i++) {
        memcpy(out + n, "a\\\"b\\\\c", 7);
        n += 7;
    }
    return n;
}

static size_t put(char *out, const char *s)
{
    memcpy(out, s, strlen(s));
    return strlen(s);
}

/* The JSON that the writer must produce, built here independently. */
static size_t expected(char *out)
{
    size_t n = put(out, "{\"");
    n += put_name(out + n, 'f', 'x');
    n += put(out + n, "\":7,\"");
    n += put_json_name(out + n);
    n += put(out + n, "\":\"v\",\"k\":\"");
    n += put_name(out + n, 'C', 'y');
    n += put(out + n, "\",\"s\":{\"");
    n += put_name(out + n, 't', 'z');
    n += put(out + n, "\":\"");
    n += put_json_name(out + n);
    n += put(out + n, "\",\"n\":3}}");
    return n;
}

/* atdgen's hash, written again here: h = 223 h + c, the low 31 bits. */
static uint32_t hash(char first, char rest)
{
    uint32_t h = (unsigned char)first;
    for (int i = 1; i < L; i++)
        h = 223 * h + (unsigned char)rest;
    return h & 0x7fffffffu;
}

static int contains_be32(const atd_buf *b, uint32_t h)
{
    for (size_t i = 0; i + 4 <= b->len; i++) {
        const unsigned char *p = (const unsigned char *)b->data + i;
        if (((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]) == h)
            return 1;
    }
    return 0;
}

static int json(void)
{
    static char want[64 * 1024];
    size_t want_len = expected(want);
    longnames_r v;
    longnames_r_init(&v);
    v.f_long = 7;
    v.g.ptr = "v";
    v.g.len = 1;
    v.k.tag = K_C_LONG;
    v.s.tag = LONGNAMES_S_CIRCLE;
    v.s.u.Circle.n = 3;
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
        back.k.tag != K_C_LONG || back.g.len != 1 || back.s.tag != LONGNAMES_S_CIRCLE ||
        back.s.u.Circle.n != 3) {
        printf("the JSON does not read back: %s\n", err.message);
        return 1;
    }
    atd_arena_free(arena);
    atd_buf_free(&out);
    return 0;
}

static int biniou(void)
{
    longbin_b v;
    longbin_b_init(&v);
    v.f_long = 7;
    v.v.tag = BIN_C_LONG;
    atd_buf out;
    atd_buf_init(&out);
    atd_error err;
    if (longbin_b_to_biniou(&v, &out, &err) != 0) {
        printf("biniou: %s\n", err.message);
        return 1;
    }
    if (!contains_be32(&out, hash('f', 'x') | 0x80000000u) || !contains_be32(&out, hash('C', 'y'))) {
        printf("biniou: the hashtags of the long names are not in the output\n");
        return 1;
    }
    atd_arena *arena = atd_arena_new(0, NULL);
    longbin_b back;
    if (longbin_b_from_biniou(out.data, out.len, arena, &back, &err) != 0 || back.f_long != 7 ||
        back.v.tag != BIN_C_LONG) {
        printf("the biniou does not read back: %s\n", err.message);
        return 1;
    }
    atd_arena_free(arena);
    atd_buf_free(&out);
    return 0;
}

int main(void)
{
    return json() || biniou();
}
C
# The C names of the long members are long too: refer to them through
# macros, so that the program above stays readable. A 5000-byte name makes
# string literals longer than the 4095 bytes ISO C99 requires compilers to
# accept (gcc and clang take any length): that one warning is off here.
LONG_FLAGS="$FLAGS -Wno-overlength-strings"
fname=$(awk -v L=$L 'BEGIN { f = "f"; for (i = 1; i < L; i++) f = f "x"; print f }')
kname=$(awk -v L=$L 'BEGIN { k = "K"; for (i = 1; i < L; i++) k = k "W"; print k }')
cname=$(awk -v L=$L 'BEGIN { c = "C"; for (i = 1; i < L; i++) c = c "Y"; print c }')
if ! "$ATDC" -o "$TMP" "$TMP/longnames.atd" 2>"$TMP/err" ||
    ! "$ATDC" --biniou -o "$TMP" "$TMP/longbin.atd" 2>>"$TMP/err"; then
    fail "long names: atdc rejected the schema"
    head -c 2000 "$TMP/err"
elif [ -n "$RUNTIME" ]; then
    if ! $CC $LONG_FLAGS $INC -I"$TMP" -Df_long="$fname" -DK_C_LONG="LONGNAMES_${kname}_$cname" \
        -DBIN_C_LONG="LONGBIN_${kname}_$cname" \
        "$TMP/longnames_main.c" "$TMP/longnames.c" "$TMP/longbin.c" "$RUNTIME" ${ATDRT_LDFLAGS:-} \
        -o "$TMP/longnames" -lm 2>"$TMP/err"; then
        fail "long names: the generated code does not compile"
        head -c 2000 "$TMP/err"
    elif ! "$TMP/longnames"; then
        fail "long names: wrong JSON keys or biniou hashtags"
    fi
else
    for f in longnames longbin; do
        $CC $LONG_FLAGS $INC -c "$TMP/$f.c" -o "$TMP/$f.o" 2>"$TMP/err" ||
            { fail "long names: the generated code does not compile"; head -c 2000 "$TMP/err"; }
    done
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
