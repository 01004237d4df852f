#!/bin/sh
# Accepted means compiles, for the C that schemas carry: mutants of the
# repository's schemas (schemas/ and tests/valid/) whose edits aim at what
# atdc pastes into C -- <c default> texts (broken ones: comments, open
# brackets, ';', '#', stray backslashes and commas, unterminated literals,
# operators without operands, empty braces, a scalar for a struct; and
# constants valid for any field of their kind), <c name> and <c prefix>
# values, <json name> values, field names (C keywords, the runtime's atd_,
# the generated code's own locals), the file name (a leading digit or '_',
# atd.atd) and --prefix. Each mutant is run through atdc; every one it
# accepts is compiled with gcc -std=c99 -Wall -Wextra -Wpedantic -Werror
# -fsyntax-only (and every fifth with clang -std=c11): any diagnostic is a
# failure. Prints the counts (generated, accepted, compiled).
#
# What stays the user's: which identifiers exist (a <c default> naming an
# undefined macro), and whether the items of a braced initializer match the
# C struct (atdc checks their tokens, the C compiler their types). So the
# constants the mutants use are ones every field of the kind takes ({0} for
# structs); mutants keep the seeds' <c t>/<c include> lines out (C types and
# headers of the user's own).
#
# CI runs a sample (MUTCOMPILE_COUNT, default 100: about 40 seconds); the full
# run is MUTCOMPILE_COUNT=5000 (see docs/conformance.md). MUTCOMPILE_SEED
# picks other mutants. Usage: mutate_compile.sh ATDC ROOT
set -u
ATDC=${1:?usage: mutate_compile.sh ATDC ROOT}
ROOT=${2:?usage}
SEED=${MUTCOMPILE_SEED:-20261202}
COUNT=${MUTCOMPILE_COUNT:-100}
CC=${CC:-gcc}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/atdc_mutcompile.XXXXXX") || exit 2
trap '[ -n "${KEEP:-}" ] || rm -rf "$TMP"' EXIT INT TERM
INC="-I$ROOT/runtime/include"
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

seeds=""
for f in "$ROOT"/schemas/*.atd "$ROOT"/tests/valid/*.atd; do
    grep -Eq '^(import|from) |<c [^>]*(t|include|wrap|unwrap)=' "$f" && continue
    seeds="$seeds $f"
done
mkdir "$TMP/m"
# shellcheck disable=SC2086 # $seeds is a word list
awk -v seed="$SEED" -v count="$COUNT" -v out="$TMP/m" '
function pick(arr, n) { return arr[int(rand() * n) + 1] }
# The matches of `re` in s: their count; pos[] and len[] hold them.
function nth_match(s, re,    n, rest, off) {
    n = 0; rest = s; off = 0
    while (match(rest, re)) {
        n++; pos[n] = off + RSTART; len[n] = RLENGTH
        off += RSTART + RLENGTH - 1; rest = substr(rest, RSTART + RLENGTH)
    }
    return n
}
function mutate(s,    ops, k, op, n, i, a) {
    ops = 1 + int(rand() * 2)
    for (k = 0; k < ops; k++) {
        op = int(rand() * 6)
        if (op == 0 && (n = nth_match(s, "<c default=\"([^\"\\\\]|\\\\.)*\">")) > 0) {
            i = 1 + int(rand() * n)
            s = substr(s, 1, pos[i] - 1) "<c default=\"" pick(defs, ndefs) "\">" substr(s, pos[i] + len[i])
        } else if (op <= 1 && (n = nth_match(s, "~[a-z_][a-zA-Z0-9_]* ")) > 0) {
            i = 1 + int(rand() * n)
            a = pos[i] + len[i] - 1
            s = substr(s, 1, a - 1) " <c default=\"" pick(defs, ndefs) "\">" substr(s, a)
        } else if (op == 2 && (n = nth_match(s, "[a-z_][a-zA-Z0-9_]* :")) > 0) {
            i = 1 + int(rand() * n)
            a = pos[i] + len[i] - 2
            s = substr(s, 1, a - 1) " <c name=\"" pick(cnames, ncnames) "\">" substr(s, a)
        } else if (op == 3 && (n = nth_match(s, "[a-z_][a-zA-Z0-9_]* :")) > 0) {
            i = 1 + int(rand() * n)
            a = pos[i] + len[i] - 2
            s = substr(s, 1, a - 1) " <json name=\"" pick(jnames, njnames) "\">" substr(s, a)
        } else if (op == 4 && (n = nth_match(s, "[a-z_][a-zA-Z0-9_]* :")) > 0) {
            i = 1 + int(rand() * n)
            s = substr(s, 1, pos[i] - 1) pick(fields, nfields) " :" substr(s, pos[i] + len[i])
        } else {
            s = "<c prefix=\"" pick(prefixes, nprefixes) "\">\n" s
        }
    }
    return s
}
BEGIN {
    srand(seed)
    # <c default> texts, as written inside the annotation (ATD escapes).
    ndefs = split("0|1|-1|0 /*|(1|1)|{0}|{|}|1;|\\\"a\\\"|\\\"a|'\''a'\''|1\\\\|#x|1, 2|" \
                  "INT64_MAX|\\\"\\\"|1 +|x y|true|0.5|~0|-(2)|{ }|// x|(1 << 2)|{0}|" \
                  "\\\"\\\\n\\\"|(int64_t)1|1 2|sizeof(int)", defs, "|")
    ncnames = split("3x|int|_x|__x|atd_buf|x y|okname|has_f|default|x|X|v|p|r|w|out|len|items", cnames, "|")
    njnames = split("|\\\"|\\\\|x|a b|tag|type", jnames, "|")
    nfields = split("p|r|w|v|x|out|err|len|items|has|tag|default", fields, "|")
    nprefixes = split("3x|atd|_p|pp|p_|ATD_x|Atd|x-y|", prefixes, "|")
}
FNR == 1 { nseeds++; names[nseeds] = FILENAME }
{ text[nseeds] = text[nseeds] $0 "\n" }
END {
    nbases = split("m|m|m|m|m|m|m|m|m|m|m|m|2fast|atd|_x|Atd|x-y", bases, "|")
    for (i = 1; i <= count; i++) {
        b = pick(bases, nbases); if (b == "m") b = sprintf("m%04d", i)
        d = sprintf("%s/%04d", out, i)
        system("mkdir -p " d)
        s = 1 + int(rand() * nseeds)
        f = d "/" b ".atd"
        printf "%s", mutate(text[s]) > f
        close(f)
        print names[s] > (d "/seed")
        close(d "/seed")
    }
}' $seeds
opts_list="none none none none none none none none --prefix=3x --prefix=pp --prefix=atd_ --prefix=_p --biniou-skip-abstract --prefix=P_"
generated=0
accepted=0
compiled=0
i=0
for dir in "$TMP"/m/*; do
    atd=$(ls "$dir"/*.atd)
    seed=$(cat "$dir/seed")
    generated=$((generated + 1))
    i=$((i + 1))
    args=""
    [ -f "${seed%.atd}.args" ] && args=$(cat "${seed%.atd}.args")
    # one option per mutant, in turn
    set -- $opts_list
    shift $((i % $#))
    opt=$1
    [ "$opt" = none ] && opt=""
    opt=$(printf '%s' "$opt" | tr '=' ' ')
    mkdir "$dir/out"
    # shellcheck disable=SC2086 # $args and $opt are word lists
    "$ATDC" $args $opt -o "$dir/out" "$atd" >/dev/null 2>"$dir/err"
    status=$?
    case $status in
    0) ;;
    1) continue ;;
    *) fail "$atd: atdc exit status $status"; cat "$dir/err"; continue ;;
    esac
    accepted=$((accepted + 1))
    ok=1
    for src in "$dir"/out/*.c; do
        cc=$CC
        std=c99
        if [ $((i % 5)) -eq 0 ] && command -v clang >/dev/null 2>&1; then
            cc=clang
            std=c11
        fi
        if ! $cc -std=$std -Wall -Wextra -Wpedantic -Werror $INC -I"$dir/out" -fsyntax-only \
            "$src" 2>"$dir/cc"; then
            ok=0
            fail "mutant of $seed ($(basename "$atd") $opt): the generated code does not compile"
            mkdir -p "${TMPDIR:-/tmp}/atdc_mutcompile_failures"
            cp "$atd" "${TMPDIR:-/tmp}/atdc_mutcompile_failures/$(basename "$dir")_$(basename "$atd")"
            head -8 "$dir/cc"
        fi
    done
    [ "$ok" -eq 1 ] && compiled=$((compiled + 1))
done
echo "mutate_compile: $generated mutants generated, $accepted accepted, $compiled compiled ($failed failures)"
[ "$failed" -eq 0 ] && [ "$generated" -eq "$COUNT" ]
