#!/bin/sh
# Differential test of atdgen's built-in JSON adapters (schemas/adapters.atd:
# Type_field, normalize/restore_type_field, One_field, the codec runtime's
# Type_field, Type_and_value_fields through adapters_lib.ml): every line of
# cases.jsonl is read and written back by the code atdc generates and by an OCaml program built with atdgen -j -j-std,
# and both must print the same JSON, or both fail ("ERROR"). Without atdgen
# and ocamlfind (Debian: libatdgen-ocaml-dev, ocaml-findlib) the OCaml half
# is skipped with a message (exit 77), after the C half is built and run.
# Usage: run.sh ATDC ROOT LIBATDRT [EXTRA_FLAGS]
set -u
ATDC=${1:?usage: run.sh ATDC ROOT LIBATDRT [EXTRA_FLAGS]}
ROOT=${2:?usage: run.sh ATDC ROOT LIBATDRT [EXTRA_FLAGS]}
LIB=${3:?usage: run.sh ATDC ROOT LIBATDRT [EXTRA_FLAGS]}
EXTRA=${4:-}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/atdc_adapters.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT INT TERM
HERE=$ROOT/tests/atdgen_adapters
CASES=$HERE/cases.jsonl
CC=${CC:-cc}

mkdir "$TMP/c" "$TMP/ml"
"$ATDC" -o "$TMP/c" "$ROOT/schemas/adapters.atd" || { echo "FAIL: atdc"; exit 1; }
# shellcheck disable=SC2086 # word list
$CC -std=c99 -Wall -Wextra -Wpedantic -Werror $EXTRA -I"$ROOT/runtime/include" -I"$TMP/c" \
    "$HERE/roundtrip.c" "$TMP/c/adapters.c" "$LIB" -lm -o "$TMP/c/roundtrip" ||
    { echo "FAIL: compiling the C round trip"; exit 1; }
"$TMP/c/roundtrip" <"$CASES" >"$TMP/c.out" 2>"$TMP/c.err" || { echo "FAIL: C round trip"; exit 1; }

if ! command -v atdgen >/dev/null 2>&1 || ! command -v ocamlfind >/dev/null 2>&1 ||
    ! ocamlfind query atdgen-runtime atdgen-codec-runtime >/dev/null 2>&1; then
    echo "SKIP: atdgen or ocamlfind not installed (scripts/install-deps.sh installs them)"
    exit 77
fi
cp "$ROOT/schemas/adapters.atd" "$HERE/adapters_lib.ml" "$TMP/ml/"
cat >"$TMP/ml/rt.ml" <<'ML'
let () =
  try
    while true do
      let line = input_line stdin in
      (try print_endline (Adapters_j.string_of_doc (Adapters_j.doc_of_string line))
       with _ -> print_endline "ERROR")
    done
  with End_of_file -> ()
ML
(cd "$TMP/ml" && atdgen -t adapters.atd && atdgen -j -j-std adapters.atd &&
    ocamlfind ocamlopt -package atdgen-runtime,atdgen-codec-runtime -linkpkg \
        adapters_lib.ml adapters_t.mli adapters_t.ml adapters_j.mli adapters_j.ml rt.ml -o rt) >"$TMP/ml.log" 2>&1 ||
    { echo "FAIL: building the atdgen program"; cat "$TMP/ml.log"; exit 1; }
"$TMP/ml/rt" <"$CASES" >"$TMP/ml.out"

total=$(wc -l <"$CASES")
if ! cmp -s "$TMP/ml.out" "$TMP/c.out"; then
    echo "FAIL: atdc and atdgen differ (< atdgen, > atdc):"
    diff "$TMP/ml.out" "$TMP/c.out" | head -40
    exit 1
fi
errors=$(grep -c '^ERROR$' "$TMP/c.out")
echo "atdgen_adapters: $total cases, same output as atdgen ($errors rejected by both)"
exit 0
