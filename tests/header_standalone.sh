#!/bin/sh
# The public header atd.h, and each atd/*.h on its own, must compile
# warning-free as C99 and C11 with gcc and clang, and as C++ (their extern
# "C" guards), so that any generated header that includes them can be used
# from all of these. The reader's internals (runtime/src/reader_internal.h)
# must not be declared by them: t.c reuses their names for variables. The
# top-level headers declare no atd__ name: the halves of their inline
# functions are in atd/detail/, apart from the user API.
set -eu
inc=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#include <atd.h>\nint atd__scan_string, atd__fail_found, atd__quote_token, atd__match_literal,\n    atd__read_small_int, atd__char_class;\nint main(void) { atd_buf b; atd_buf_init(&b); atd_buf_free(&b); return 0; }\n' > "$tmp/t.c"
cp "$tmp/t.c" "$tmp/t.cpp"
for h in "$inc"/atd/*.h; do
    n=$(basename "$h" .h)
    printf '#include <atd/%s.h>\nint main(void) { return 0; }\n' "$n" > "$tmp/h_$n.c"
    cp "$tmp/h_$n.c" "$tmp/h_$n.cpp"
done
pass=0 fail=0
# a declaration starts in column 0; calls and comments are indented
if grep -nE '^[^ #/*].*[^A-Za-z0-9_]atd__[a-z0-9_]+' "$inc"/atd/*.h "$inc"/atd.h; then
    echo "FAILED: atd__ declarations in top-level headers (they go in atd/detail/)"
    fail=$((fail + 1))
else
    pass=$((pass + 1))
fi
run() {
    if "$@" > "$tmp/log" 2>&1; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED: $*"; cat "$tmp/log"; fi
}
flags="-Wall -Wextra -Wpedantic -Werror -fsyntax-only -I$inc"
for cc in gcc clang; do
    command -v $cc > /dev/null || continue
    for std in c99 c11; do
        for f in "$tmp"/*.c; do run $cc -std=$std $flags "$f"; done
    done
done
for cxx in g++ clang++; do
    command -v $cxx > /dev/null || continue
    for f in "$tmp"/*.cpp; do run $cxx -std=c++11 $flags "$f"; done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
