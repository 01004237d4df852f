#!/bin/sh
# Command-line behaviour of atdc: options, exit statuses (0 ok, 1 schema
# errors, 2 usage or I/O errors), file errors, stdin, --print output, the
# error limit, and resource limits on pathological input.
# Usage: cli.sh ATDC ROOT
set -u
ATDC=${1:?usage: cli.sh ATDC ROOT}
ROOT=${2:?usage: cli.sh ATDC ROOT}
case $ATDC in
/*) ;;
*) ATDC=$(pwd)/$ATDC ;;
esac
case $ROOT in
/*) ;;
*) ROOT=$(pwd)/$ROOT ;;
esac
TMP=$(mktemp -d "${TMPDIR:-/tmp}/atdc_cli.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT INT TERM
fails=0
n=0

# Every case writes into $TMP (generation always gets -o "$TMP"): a test run
# must leave the source tree as it found it, which is checked at the end when
# ROOT is a git checkout. The commands run from $TMP so that a case that forgot
# -o could not write into the tree either.
if git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    # --no-optional-locks: a test must not even refresh the index.
    git --no-optional-locks -C "$ROOT" status --porcelain >"$TMP/git_before" 2>/dev/null
    check_tree=1
else
    check_tree=0
fi
cd "$TMP" || exit 2

fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}

# run EXPECTED_STATUS ARGS...: runs atdc with stdout/stderr in $TMP/out, $TMP/err.
run() {
    expected=$1
    shift
    n=$((n + 1))
    "$ATDC" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
    status=$?
    if [ "$status" -ne "$expected" ]; then
        fail "atdc $* exited with $status, expected $expected"
        sed 's/^/    /' "$TMP/err" | head -10
        return 1
    fi
    return 0
}

# expect_file FILE TEXT: FILE holds exactly TEXT (plus a final newline).
expect_file() {
    printf '%s\n' "$2" >"$TMP/expected"
    if ! cmp -s "$1" "$TMP/expected"; then
        fail "unexpected output in $(basename "$1") (case $n)"
        diff "$TMP/expected" "$1" | head -20
    fi
}

expect_empty() {
    if [ -s "$1" ]; then
        fail "$(basename "$1") should be empty (case $n)"
        head -5 "$1"
    fi
}

expect_grep() {
    if ! grep -q -- "$2" "$1"; then
        fail "'$2' not found in $(basename "$1") (case $n)"
        head -5 "$1"
    fi
}

printf 'type t = int\n' >"$TMP/good.atd"
printf 'type t = [ A | ]\n' >"$TMP/bad.atd"

# ---- Information options
run 0 --version && expect_file "$TMP/out" "atdc 0.1.0"
run 0 --help && expect_grep "$TMP/out" "Usage: atdc"
run 0 -h && expect_grep "$TMP/out" "--max-errors"

# ---- Usage errors
run 2 && expect_file "$TMP/err" "atdc: error: no input file
Try 'atdc --help' for more information."
run 2 --frobnicate "$TMP/good.atd" && expect_file "$TMP/err" "atdc: error: unknown option '--frobnicate'
Try 'atdc --help' for more information."
run 2 --max-errors && expect_grep "$TMP/err" "needs a value"
run 2 --max-errors abc "$TMP/good.atd" && expect_grep "$TMP/err" "invalid --max-errors value 'abc'"
run 2 --max-errors -3 "$TMP/good.atd"
run 2 --prefix && expect_grep "$TMP/err" "needs a value"
run 2 -o && expect_grep "$TMP/err" "needs a directory"

# ---- File errors: one clean line
run 2 --check "$TMP/missing.atd" &&
    expect_file "$TMP/err" "atdc: error: cannot open '$TMP/missing.atd': No such file or directory"
mkdir "$TMP/dir.atd"
run 2 --check "$TMP/dir.atd" && expect_file "$TMP/err" "atdc: error: cannot read '$TMP/dir.atd': Is a directory"
# The worst status wins, and every file is still processed.
run 2 --check "$TMP/bad.atd" "$TMP/missing.atd" && expect_grep "$TMP/err" "unexpected ']'"
run 1 --check "$TMP/good.atd" "$TMP/bad.atd"

# ---- Success: nothing printed
run 0 --check "$TMP/good.atd" && expect_empty "$TMP/err" && expect_empty "$TMP/out"
run 0 -o "$TMP" "$TMP/good.atd" && expect_empty "$TMP/out" && {
    [ -f "$TMP/good.h" ] && [ -f "$TMP/good.c" ] || fail "-o did not receive good.h and good.c"
}
run 0 -o "$TMP" --prefix pfx "$TMP/good.atd"
# -o creates the folder and its parents, like mkdir -p.
run 0 -o "$TMP/gen/sub" "$TMP/good.atd" && {
    [ -f "$TMP/gen/sub/good.h" ] && [ -f "$TMP/gen/sub/good.c" ] || fail "-o did not create gen/sub"
}
# Output names come from the schema's file name with '-' made '_'.
cp "$TMP/good.atd" "$TMP/my-schema.atd"
run 0 -o "$TMP/gen" "$TMP/my-schema.atd" && {
    [ -f "$TMP/gen/my_schema.h" ] && grep -q "my_schema_t" "$TMP/gen/my_schema.h" ||
        fail "my-schema.atd did not give my_schema.h with my_schema_t"
}
# I/O errors name the OS reason and exit 2.
printf 'x' >"$TMP/notdir"
run 2 -o "$TMP/notdir/gen" "$TMP/good.atd" &&
    expect_file "$TMP/err" "atdc: error: cannot create directory '$TMP/notdir': Not a directory"
mkdir "$TMP/ro" && chmod 555 "$TMP/ro"
if [ "$(id -u)" -ne 0 ]; then
    run 2 -o "$TMP/ro" "$TMP/good.atd" &&
        expect_grep "$TMP/err" "atdc: error: cannot write '$TMP/ro/good.h[^']*': Permission denied"
fi
mkdir -p "$TMP/clash/good.h"
run 2 -o "$TMP/clash" "$TMP/good.atd" &&
    expect_grep "$TMP/err" "cannot rename .*: Is a directory"
run 0 -o"$TMP" --prefix=pfx --ignore-adapters "$TMP/good.atd"
run 0 --check -- "$TMP/good.atd"
printf '' >"$TMP/empty.atd"
run 0 --check "$TMP/empty.atd"
printf '(* only a comment *)\n' >"$TMP/comment.atd"
run 0 --check "$TMP/comment.atd"

# ---- Warnings: tolerated annotations, -Werror, -Wno-KIND
printf 'type t = { a : int <json something="x"> }\n' >"$TMP/warn.atd"
run 0 --check "$TMP/warn.atd" &&
    expect_grep "$TMP/err" "warning: unknown annotation '<json something>' is ignored \[-Wunknown-annotation\]"
run 1 --check -Werror "$TMP/warn.atd" && expect_grep "$TMP/err" "error: .*\[-Werror=unknown-annotation\]"
run 0 --check -Wno-unknown-annotation "$TMP/warn.atd" && expect_empty "$TMP/err"
run 0 --check -Werror -Wno-unknown-annotation "$TMP/warn.atd" && expect_empty "$TMP/err"
run 1 --check -Wno-unknown-annotation -Wunknown-annotation -Werror "$TMP/warn.atd"
run 0 -o "$TMP/gen" "$TMP/warn.atd" && grep -q "warn_t_read" "$TMP/gen/warn.h" || fail "warn.atd not generated"
run 2 --check -Wfrobnicate "$TMP/warn.atd" && expect_grep "$TMP/err" "unknown warning option '-Wfrobnicate'"

# An <ocaml default> of an <ocaml t> wrap's own type: warned, the wire
# type's zero used (read from {}, nothing is written back)
cat >"$TMP/wrapdef.atd" <<'EOT'
type t = {
  ~on <ocaml default="false"> : string wrap <ocaml t="bool" wrap="bool_of_string" unwrap="string_of_bool">;
}
EOT
run 0 -o "$TMP/gen" "$TMP/wrapdef.atd" &&
    expect_grep "$TMP/err" "wrapdef.atd:2:22: warning: <ocaml default=\"false\"> of field 'on' is a value of the wrap's OCaml type.*\[-Wignored-annotation\]"
grep -q 'memset(v, 0, sizeof \*v);' "$TMP/gen/wrapdef.c" || fail "wrapdef_t_init does not zero the value"
run 1 --check -Werror "$TMP/wrapdef.atd"

# ---- Documentation: (** ... *) comments and <doc text> go into the header
# as C comments; <doc text> on a type expression is warned about.
cat >"$TMP/doc.atd" <<'EOT'
(** A point in the plane. *)
type point = {
  (** abscissa *)
  x : int;
  y <doc text="ordinate"> : int;
}
type color = [
  (** the red one *)
  | Red
  | (** not red *) Blue
]
(** ignored: a comment comes between *)
(* plain comment *)
type plain = int
EOT
run 0 -o "$TMP/gen_doc" "$TMP/doc.atd" && expect_empty "$TMP/err"
for want in "/\* A point in the plane. \*/" "/\* abscissa \*/" "/\* ordinate \*/" \
    "/\* the red one \*/" "/\* not red \*/"; do
    expect_grep "$TMP/gen_doc/doc.h" "^ *$want\$"
done
grep -q "ignored" "$TMP/gen_doc/doc.h" && fail "a comment separated from its definition was kept"
printf 'type t = int list <doc text="lost">\n' >"$TMP/doc_expr.atd"
run 0 --check "$TMP/doc_expr.atd" &&
    expect_grep "$TMP/err" "warning: misplaced annotation '<doc text>' is ignored \[-Wmisplaced-annotation\]"

# ---- --depfile with several inputs: one rule each, in one file
printf 'type a = int\n' >"$TMP/dep_a.atd"
printf 'type b = string\n' >"$TMP/dep_b.atd"
run 0 -o "$TMP/gen_dep" --depfile "$TMP/deps.d" "$TMP/dep_a.atd" "$TMP/dep_b.atd" &&
    expect_grep "$TMP/deps.d" "^$TMP/gen_dep/dep_a.h $TMP/gen_dep/dep_a.c: $TMP/dep_a.atd" &&
    expect_grep "$TMP/deps.d" "^$TMP/gen_dep/dep_b.h $TMP/gen_dep/dep_b.c: $TMP/dep_b.atd"

# ---- A UTF-8 byte order mark: ignored with a warning at the start of the
# file, an illegal character anywhere else
printf '\357\273\277type t = int\n' >"$TMP/bom.atd"
run 0 --check "$TMP/bom.atd" && expect_grep "$TMP/err" "bom.atd:1:1: warning: UTF-8 byte order mark ignored"
printf 'type t = int\n\357\273\277type u = int\n' >"$TMP/bom2.atd"
run 1 --check "$TMP/bom2.atd" && expect_grep "$TMP/err" "bom2.atd:2:1: error: illegal character '\\\\xef'"

# ---- Schema errors: status 1, gcc-style message
run 1 --check "$TMP/bad.atd" && expect_file "$TMP/err" "$TMP/bad.atd:1:16: error: syntax error, unexpected ']', expecting 'inherit' or constructor name
    1 | type t = [ A | ]
      |                ^
$TMP/bad.atd:1:16: note: a sum may start with '|' but not end with one"

# ---- stdin and --print
n=$((n + 1))
printf 'type  t=int list(*c*)<json  repr="array">\ntype r={a:int;?b:int option}\n' |
    "$ATDC" --print - >"$TMP/out" 2>"$TMP/err" || fail "--print - failed"
expect_file "$TMP/out" 'type t = int list <json repr="array">

type r = {
  a : int;
  ?b : int option;
}'
n=$((n + 1))
printf 'type t = [ A | ]\n' | "$ATDC" --check - 2>"$TMP/err"
[ $? -eq 1 ] || fail "--check - on a bad schema should exit 1"
expect_grep "$TMP/err" "^<stdin>:1:16: error: syntax error"
# A schema read from stdin generates stdin.h and stdin.c with the prefix
# stdin_ (no reserved identifier).
n=$((n + 1))
printf 'type t = int\n' | "$ATDC" -o "$TMP/gen_stdin" - 2>"$TMP/err" || fail "generating from stdin failed"
[ -f "$TMP/gen_stdin/stdin.h" ] && [ -f "$TMP/gen_stdin/stdin.c" ] || fail "stdin: no stdin.h/stdin.c"
expect_grep "$TMP/gen_stdin/stdin.h" "typedef int64_t stdin_t;"
run 0 --dump-ast "$TMP/good.atd" && expect_file "$TMP/out" "module
  typedef t
    name int"

# ---- The error limit
i=0
: >"$TMP/many.atd"
while [ $i -lt 30 ]; do
    printf 'type t%d = [ A | ]\n' $i >>"$TMP/many.atd"
    i=$((i + 1))
done
run 1 --check "$TMP/many.atd" && {
    [ "$(grep -c 'many.atd:[0-9]*:[0-9]*: error: ' "$TMP/err")" -eq 20 ] || fail "default limit is not 20 errors"
    expect_grep "$TMP/err" "^atdc: error: too many errors emitted, stopping now"
}
run 1 --check --max-errors 3 "$TMP/many.atd" && {
    [ "$(grep -c 'many.atd:[0-9]*:[0-9]*: error: ' "$TMP/err")" -eq 3 ] || fail "--max-errors 3 not obeyed"
    [ "$(tail -n 1 "$TMP/err")" = "atdc: error: too many errors emitted, stopping now (use --max-errors N)" ] ||
        fail "the limit line is not last"
}
run 1 --check --max-errors 0 "$TMP/many.atd" && {
    [ "$(grep -c 'many.atd:[0-9]*:[0-9]*: error: ' "$TMP/err")" -eq 30 ] || fail "--max-errors 0 should not limit"
}

# The checker's passes report in source order, and the limit keeps the first
# errors of the file: here a later pass finds the error of line 1.
printf 'type a = { x <json repr="object"> : int }\ntype b = missing\n' >"$TMP/order.atd"
run 1 --check -Werror "$TMP/order.atd" && {
    grep -n 'error: ' "$TMP/err" | sed 's/: error: .*//' >"$TMP/order"
    expect_file "$TMP/order" "1:$TMP/order.atd:1:20
4:$TMP/order.atd:2:10"
}
run 1 --check -Werror --max-errors 1 "$TMP/order.atd" && expect_grep "$TMP/err" "order.atd:1:20: error: "

# ---- Pathological input: errors, never a crash
awk 'BEGIN { printf "type t = int"; for (i = 0; i < 5000; i++) printf " list"; print "" }' >"$TMP/deep1.atd"
run 1 --check "$TMP/deep1.atd" && expect_grep "$TMP/err" "nested too deeply"
awk 'BEGIN { printf "type t = "; for (i = 0; i < 100000; i++) printf "("; print "" }' >"$TMP/deep2.atd"
run 1 --check "$TMP/deep2.atd" && expect_grep "$TMP/err" "nested too deeply"
awk 'BEGIN { printf "type t = "; for (i = 0; i < 3000; i++) printf "[A of "; printf "int"; for (i = 0; i < 3000; i++) printf "]"; print "" }' >"$TMP/deep3.atd"
run 1 --check "$TMP/deep3.atd" && expect_grep "$TMP/err" "nested too deeply"
awk 'BEGIN { printf "type t = "; for (i = 0; i < 150; i++) printf "{ a : "; printf "int"; for (i = 0; i < 150; i++) printf " }"; print "" }' >"$TMP/deep4.atd"
run 0 --print "$TMP/deep4.atd"
awk 'BEGIN { for (i = 0; i < 20000; i++) printf "(*"; print "" }' >"$TMP/comments.atd"
run 1 --check "$TMP/comments.atd" && expect_grep "$TMP/err" "unterminated comment"
awk 'BEGIN { for (i = 0; i < 20000; i++) printf "type t%d = { a : int list; b : [ A | B of string ] }\n", i }' >"$TMP/wide.atd"
run 0 --print "$TMP/wide.atd"
# More definitions than the limit of instantiations of parametrized types
# (2000): only instances count against it.
awk 'BEGIN { for (i = 0; i < 3000; i++) printf "type t%d = { a%d : int }\n", i, i }' >"$TMP/many.atd"
run 0 --check "$TMP/many.atd"

# ---- A made-up C name that a definition also has: renamed, with a note
run 0 -o "$TMP/renamed" "$ROOT/tests/valid/clash_renamed_list.atd" &&
    expect_grep "$TMP/err" "note: generated C name 'clash_renamed_list_foo_list' of the list type 'foo_list' is also the name of the type definition 'foo_list': it is named 'clash_renamed_list_foo_list_2' instead"
n=$((n + 1))
if ! ${CC:-cc} -std=c99 -Wall -Wextra -Wpedantic -Werror -I"$ROOT/runtime/include" -c \
    "$TMP/renamed/clash_renamed_list.c" -o "$TMP/renamed/clash_renamed_list.o"; then
    fail "the code of the renamed list type does not compile"
fi

# ---- Nothing written into the source tree
if [ "$check_tree" -eq 1 ]; then
    n=$((n + 1))
    git --no-optional-locks -C "$ROOT" status --porcelain >"$TMP/git_after" 2>/dev/null
    # Only entries that appeared count: others may be editing the tree.
    sort "$TMP/git_before" >"$TMP/git_before.s"
    sort "$TMP/git_after" >"$TMP/git_after.s"
    comm -13 "$TMP/git_before.s" "$TMP/git_after.s" >"$TMP/git_new"
    if [ -s "$TMP/git_new" ]; then
        fail "the test run changed 'git status' of $ROOT:"
        head -10 "$TMP/git_new"
    fi
fi

if [ "$fails" -ne 0 ]; then
    echo "cli: $fails failure(s) in $n cases"
    exit 1
fi
echo "cli: $n cases OK"
exit 0
