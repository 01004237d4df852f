#!/bin/sh
# atdc --json-schema against atdc's own readers: for each case (a schema, its
# root type and seed documents), generates the C code and the JSON Schema,
# builds reader.c for the root type, and runs check.py (python3-jsonschema):
# the seeds and their mutants that the reader accepts validate, those it
# rejects for a type reason do not. Then the option's errors.
# Usage: run.sh ATDC ROOT LIBATDRT SHARED_DIR [EXTRA_FLAGS] (EXTRA_FLAGS: the
# sanitizer flags of the build, to link the generated code the same way).
set -u
ATDC=${1:?usage: run.sh ATDC ROOT LIBATDRT SHARED_DIR [EXTRA_FLAGS]}
ROOT=${2:?usage: run.sh ATDC ROOT LIBATDRT SHARED_DIR [EXTRA_FLAGS]}
LIB=${3:?usage: run.sh ATDC ROOT LIBATDRT SHARED_DIR [EXTRA_FLAGS]}
SHARED=${4:?usage: run.sh ATDC ROOT LIBATDRT SHARED_DIR [EXTRA_FLAGS]}
EXTRA=${5:-}
cd "$ROOT" || exit 2
# Debian's python3-jsonschema is the system interpreter's.
if [ -z "${PYTHON:-}" ]; then
    PYTHON=python3
    [ -x /usr/bin/python3 ] && PYTHON=/usr/bin/python3
fi
if ! "$PYTHON" -c 'import jsonschema' 2>/dev/null; then
    echo "python3-jsonschema is missing (scripts/install-deps.sh)"
    exit 1
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/atdc_jsonschema.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT INT TERM
CC=${CC:-cc}
BENCH=$SHARED/data/bench
failed=0
passed=0
fail() {
    echo "FAIL: $*"
    failed=$((failed + 1))
}

# case SCHEMA ROOT MUTANTS C_FILES SEEDS...: C_FILES (space-separated, may be
# empty) are the other C sources the reader needs.
case_() {
    schema=$1 root=$2 mutants=$3 cfiles=$4
    shift 4
    base=$(basename "$schema" .atd)
    out=$TMP/$base
    mkdir -p "$out"
    if ! "$ATDC" -I tests/jsonschema -o "$out" "$schema" 2>"$TMP/err" ||
        ! "$ATDC" -I tests/jsonschema --json-schema "$root" "$schema" >"$out/schema.json" 2>>"$TMP/err"; then
        fail "$schema: atdc failed"
        sed 's/^/    /' "$TMP/err" | head -10
        return
    fi
    srcs=""
    for c in $cfiles; do
        case $c in
        *.atd)
            "$ATDC" -o "$out" "$c" || fail "$c: atdc failed"
            srcs="$srcs $out/$(basename "$c" .atd).c"
            ;;
        *) srcs="$srcs $c" ;;
        esac
    done
    # -O0: the test is about what the reader accepts; under the sanitizers
    # the generated code compiles many times as fast as at -O1
    # shellcheck disable=SC2086 # $EXTRA and $srcs are word lists
    if ! $CC -std=c11 -O0 $EXTRA -Iruntime/include -I"$out" -DHEADER="\"$base.h\"" \
        -DROOT_T="${base}_$root" -DROOT_FROM_JSON="${base}_${root}_from_json" \
        tests/jsonschema/reader.c "$out/$base.c" $srcs "$LIB" -lm -o "$out/reader" 2>"$TMP/err"; then
        fail "$schema: the reader does not build"
        sed 's/^/    /' "$TMP/err" | head -10
        return
    fi
    if "$PYTHON" tests/jsonschema/check.py "$out/schema.json" "$out/reader" "$@" --mutants "$mutants"; then
        passed=$((passed + 1))
    else
        fail "$schema: the JSON Schema and the reader disagree"
    fi
}

case_ tests/jsonschema/schema_features.atd root 300 tests/jsonschema/geo.atd \
    tests/jsonschema/schema_features.json tests/jsonschema/schema_features_min.json
case_ schemas/everything.atd root 400 "" tests/conformance/everything_root.json
case_ schemas/adapters.atd doc 300 "" tests/jsonschema/adapters.json
case_ schemas/validators.atd doc 250 tests/jsonschema/validators_fns.c tests/jsonschema/validators.json
case_ schemas/donut.atd root 150 "" "$BENCH/donut.json"
case_ schemas/github.atd root 100 "" "$BENCH/github.json"
case_ schemas/blockchain.atd root 100 "" "$BENCH/blockchain.json"
case_ schemas/twitter.atd root 10 "" "$BENCH/twitter.json"

# expect_error PATTERN ARGS...: atdc ARGS exits 1, prints nothing on stdout
# and PATTERN (grep -E) on stderr.
expect_error() {
    pattern=$1
    shift
    "$ATDC" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
    status=$?
    if [ "$status" -ne 1 ] || [ -s "$TMP/out" ] || ! grep -Eq -- "$pattern" "$TMP/err"; then
        fail "atdc $*: status $status (expected 1), stderr:"
        sed 's/^/    /' "$TMP/err" | head -5
    else
        passed=$((passed + 1))
    fi
}
expect_error "no type 'nope' in 'schemas/event.atd'" --json-schema nope schemas/event.atd
expect_error "type 'page' has parameters" --json-schema page schemas/everything.atd
printf 'type t = { x : nope }\n' >"$TMP/unbound.atd"
expect_error "unbound.atd:1:16: error" --json-schema t "$TMP/unbound.atd"
printf 'from nowhere import t\ntype u = nowhere.t\n' >"$TMP/noimport.atd"
expect_error "nowhere" --json-schema u "$TMP/noimport.atd"
"$ATDC" --json-schema >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "needs a type name" "$TMP/err" && passed=$((passed + 1)) ||
    fail "atdc --json-schema without a type"

# Every non-parametrized definition of every valid schema: a schema that is
# itself valid (Draft 2020-12 meta-schema), or a clean error, never a crash.
mkdir -p "$TMP/valid"
n=0
for atd in tests/valid/*.atd; do
    for t in $(sed -n 's/^type  *\([a-z_][A-Za-z0-9_]*\) .*/\1/p' "$atd" | head -20); do
        n=$((n + 1))
        "$ATDC" --json-schema "$t" "$atd" >"$TMP/valid/$n.json" 2>"$TMP/err" </dev/null
        status=$?
        if [ "$status" -ne 0 ] && { [ "$status" -ne 1 ] || [ ! -s "$TMP/err" ]; }; then
            fail "atdc --json-schema $t $atd: status $status"
        fi
        [ "$status" -eq 0 ] || rm -f "$TMP/valid/$n.json"
    done
done
if "$PYTHON" -c '
import glob, json, sys, jsonschema
files = glob.glob(sys.argv[1] + "/*.json")
for f in files:
    jsonschema.Draft202012Validator.check_schema(json.load(open(f)))
print("%d schemas of tests/valid definitions are valid JSON Schemas" % len(files))
' "$TMP/valid"; then
    passed=$((passed + 1))
else
    fail "a schema of a tests/valid definition is not a valid JSON Schema"
fi

echo "jsonschema: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
