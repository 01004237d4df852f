#!/bin/sh
# The public header atd.h must compile on its own, warning-free, as C99 and
# C11 with gcc and clang, and as C++ (its extern "C" guards), so that any
# generated header that includes it can be used from all of these.
set -eu
inc=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#include <atd.h>\nint main(void) { atd_buf b; atd_buf_init(&b); atd_buf_free(&b); return 0; }\n' > "$tmp/t.c"
cp "$tmp/t.c" "$tmp/t.cpp"
pass=0 fail=0
run() {
    if "$@" > "$tmp/log" 2>&1; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED: $*"; cat "$tmp/log"; fi
}
flags="-Wall -Wextra -Wpedantic -Werror -fsyntax-only -I$inc"
for cc in gcc clang; do
    command -v $cc > /dev/null || continue
    for std in c99 c11; do run $cc -std=$std $flags "$tmp/t.c"; done
done
for cxx in g++ clang++; do
    command -v $cxx > /dev/null || continue
    run $cxx -std=c++11 $flags "$tmp/t.cpp"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
