#!/bin/sh
# The README's first example, as a newcomer runs it: the schema, the program
# and the expected output are the code blocks that follow the markers
# `<!-- readme-test: shapes.atd -->`, `<!-- readme-test: main.c -->` and
# `<!-- readme-test: output -->` in README.md. Generates the code with the
# build's atdc, compiles the program with the generated source against the
# build's runtime (warnings as errors), runs it, and compares its standard
# output with the expected block byte for byte.
# Usage: readme_example.sh ATDC ATDRT_LIB SOURCE_DIR [EXTRA_FLAGS]
set -u
atdc=${1:?usage: readme_example.sh ATDC ATDRT_LIB SOURCE_DIR [EXTRA_FLAGS]}
lib=${2:?usage}
src=${3:?usage}
extra=${4:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/atdc_readme.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

# block NAME: the lines between the fences of the block after NAME's marker.
block() {
    awk -v marker="<!-- readme-test: $1 -->" '
        $0 == marker { found = 1; next }
        found == 1 && /^```/ { found = 2; next }
        found == 2 && /^```/ { exit }
        found == 2 { print }' "$src/README.md"
}
block shapes.atd >"$tmp/shapes.atd"
block main.c >"$tmp/main.c"
block output >"$tmp/expect"
for f in shapes.atd main.c expect; do
    [ -s "$tmp/$f" ] || { echo "FAIL: README.md has no readme-test block for $f"; exit 1; }
done

"$atdc" -o "$tmp/gen" "$tmp/shapes.atd" || { echo "FAIL: atdc rejected the README's schema"; exit 1; }
# shellcheck disable=SC2086
cc -std=c99 -Wall -Wextra -Wpedantic -Werror $extra -I"$tmp/gen" -I"$src/runtime/include" \
    "$tmp/main.c" "$tmp/gen/shapes.c" "$lib" -lm -o "$tmp/shapes" ||
    { echo "FAIL: the README's program does not compile"; exit 1; }
"$tmp/shapes" >"$tmp/out" || { echo "FAIL: the README's program failed"; exit 1; }
if ! cmp -s "$tmp/out" "$tmp/expect"; then
    echo "FAIL: the README's program printed something else:"
    diff "$tmp/expect" "$tmp/out"
    exit 1
fi
echo "readme_example: 1 passed, 0 failed"
