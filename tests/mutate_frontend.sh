#!/bin/sh
# Robustness of the front end: runs `atdc --check` and `atdc --print` over a
# few thousand mutated schemas and requires exit status 0 or 1 every time --
# never a signal, never 2, never a sanitizer report, never a hang (each batch
# runs under `timeout`). The mutants are generated with awk from
# tests/valid/*.atd: every truncation of a compact schema, random edits
# (byte replacements with "interesting" bytes, deletions, insertions of
# tokens, duplicated chunks), and random token soup. Deterministic: set
# MUTATE_SEED to explore other mutants, MUTATE_COUNT for more of them.
# Usage: mutate_frontend.sh ATDC ROOT
set -u
ATDC=${1:?usage: mutate_frontend.sh ATDC ROOT}
ROOT=${2:?usage: mutate_frontend.sh ATDC ROOT}
SEED=${MUTATE_SEED:-20240611}
COUNT=${MUTATE_COUNT:-2500}
BATCH=100
TIMEOUT=${MUTATE_TIMEOUT:-60}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/atdc_mutate.XXXXXX") || exit 2
KEEP="${TMPDIR:-/tmp}/atdc_mutate_failures" # failing mutants are copied here
trap 'rm -rf "$TMP"' EXIT INT TERM
mkdir "$TMP/m"

# A compact schema with most constructs: truncated at every offset.
cat >"$TMP/compact.atd" <<'ATD'
<doc text="x\n\065">
from a.b <o n="1"> as m import t, 'x u, ('k, 'v) w
(* c (* n "*)" *) ' *)
type ('a, 'b) p <c name="q"> = ('a * <o d="0"> : 'b * : int) list option
type r = { a : int; ?b <json name="B"> : string option; ~c : int list; inherit s; }
type s = [ | A | B <json name='Up'> of (int) | inherit e ] <json open_enum>
type from = (int, string) p m.t <x y.z="\\\"\t\x41">
ATD

awk -v seed="$SEED" -v count="$COUNT" -v out="$TMP/m" -v compact="$TMP/compact.atd" '
function ch(n) { return sprintf("%c", n) }
function pick(arr, n) { return arr[int(rand() * n) + 1] }
function emit(text) {
    nout++
    f = sprintf("%s/m%05d.atd", out, nout)
    printf "%s", text > f
    close(f)
}
function mutate(s,    ops, k, op, p, L, q) {
    ops = 1 + int(rand() * 4)
    for (k = 0; k < ops; k++) {
        L = length(s)
        p = int(rand() * (L + 1))
        op = int(rand() * 6)
        if (op == 0 && L > 0)        # replace one byte
            s = substr(s, 1, p) pick(bytes, nbytes) substr(s, p + 2)
        else if (op == 1 && L > 0)   # delete a few bytes
            s = substr(s, 1, p) substr(s, p + 1 + 1 + int(rand() * 8))
        else if (op == 2)            # insert a token
            s = substr(s, 1, p) pick(toks, ntoks) substr(s, p + 1)
        else if (op == 3 && L > 0) { # duplicate a chunk elsewhere
            q = int(rand() * L)
            s = substr(s, 1, p) substr(s, q + 1, 1 + int(rand() * 40)) substr(s, p + 1)
        } else if (op == 4)          # truncate
            s = substr(s, 1, p)
        else                         # insert an interesting byte
            s = substr(s, 1, p) pick(bytes, nbytes) substr(s, p + 1)
    }
    return s
}
BEGIN {
    srand(seed)
    nb = split("( ) [ ] { } < > ; , : * | = ? ~ . _ # $ 0 9 a z A Z \\ \" '\''", bytes, " ")
    bytes[++nb] = ch(13); bytes[++nb] = ch(12); bytes[++nb] = ch(11); bytes[++nb] = ch(9)
    bytes[++nb] = ch(10); bytes[++nb] = ch(195); bytes[++nb] = ch(255); bytes[++nb] = ch(127)
    bytes[++nb] = ch(1); bytes[++nb] = " "
    nbytes = nb
    ntoks = split("type of inherit from import as list int option (* *) (**) (*) \" '\'' '\''a '\''Up'\'' " \
                  "\\x \\300 \\u \\\\ A B of_ _x x'\'' <json name=\"x\"> <c> <doc text=\"\\065\"> " \
                  "{ } [ ] ( ) | ; : * , = ? ~ . < >", toks, " ")
    toks[++ntoks] = " "; toks[++ntoks] = ch(10); toks[++ntoks] = ch(13) ch(10)
}
FILENAME == compact { compact_text = compact_text $0 "\n"; next }
FNR == 1 { nseeds++ }
{ seeds[nseeds] = seeds[nseeds] $0 "\n" }
END {
    L = length(compact_text)
    for (i = 0; i <= L; i++)
        emit(substr(compact_text, 1, i))
    nsoup = int(count / 6)
    for (i = 0; i < count - nsoup && nseeds > 0; i++)
        emit(mutate(seeds[int(rand() * nseeds) + 1]))
    for (i = 0; i < nsoup; i++) {
        s = ""
        n = 1 + int(rand() * 60)
        for (k = 0; k < n; k++)
            s = s pick(toks, ntoks) (rand() < 0.7 ? " " : "")
        emit(s)
    }
}' "$TMP/compact.atd" "$ROOT"/tests/valid/*.atd || { echo "FAIL: mutant generation"; exit 1; }

# Sanitizer reports must be visible as such whatever the build's defaults.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86"
UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=86:print_stacktrace=1"
export ASAN_OPTIONS UBSAN_OPTIONS

fails=0
total=0
# check_one MODE FILE...: runs one batch; on failure, finds the culprits.
check_batch() {
    mode=$1
    shift
    timeout "$TIMEOUT" "$ATDC" "$mode" "$@" >/dev/null 2>"$TMP/err"
    status=$?
    if [ "$status" -le 1 ] && ! grep -q -E 'Sanitizer|runtime error|internal error' "$TMP/err"; then
        return 0
    fi
    for f in "$@"; do
        timeout "$TIMEOUT" "$ATDC" "$mode" "$f" >/dev/null 2>"$TMP/err1"
        s=$?
        if [ "$s" -gt 1 ] || grep -q -E 'Sanitizer|runtime error|internal error' "$TMP/err1"; then
            fails=$((fails + 1))
            mkdir -p "$KEEP"
            keep="$KEEP/$(basename "$f")"
            cp "$f" "$keep" 2>/dev/null || keep=$f
            echo "FAIL: atdc $mode on a mutant exited with $s (input kept in $keep)"
            head -20 "$TMP/err1"
        fi
    done
}

set -- 
for f in "$TMP"/m/*.atd; do
    set -- "$@" "$f"
    total=$((total + 1))
    if [ $# -ge $BATCH ]; then
        check_batch --check "$@"
        check_batch --print "$@"
        set --
    fi
done
if [ $# -gt 0 ]; then
    check_batch --check "$@"
    check_batch --print "$@"
fi

if [ "$fails" -ne 0 ]; then
    echo "mutate_frontend: $fails failing mutant(s) out of $total (seed $SEED)"
    exit 1
fi
echo "mutate_frontend: $total mutants OK (seed $SEED)"
exit 0
