#!/bin/sh
# Every generated/*.c compiles warning-free with gcc and clang as C99 and
# C11 (-Wall -Wextra -Wpedantic -Werror, plus -Wshadow -Wstrict-prototypes
# -Wmissing-prototypes), and every generated header compiles included from
# C++ (g++, its extern "C" guards).
# Usage: compile_generated.sh SOURCE_ROOT
set -eu
root=$1
inc=$root/runtime/include
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flags="-Wall -Wextra -Wpedantic -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -I$inc -I$root/generated"
pass=0 fail=0
run() {
    if "$@" > "$tmp/log" 2>&1; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED: $*"; head -20 "$tmp/log"; fi
}
for src in "$root"/generated/*.c; do
    for cc in gcc clang; do
        command -v $cc > /dev/null || continue
        for std in c99 c11; do run $cc -std=$std $flags -c "$src" -o "$tmp/out.o"; done
    done
done
for hdr in "$root"/generated/*.h; do
    printf '#include "%s"\nint main() { return 0; }\n' "$(basename "$hdr")" > "$tmp/t.cpp"
    for cxx in g++ clang++; do
        command -v $cxx > /dev/null || continue
        run $cxx -std=c++11 -Wall -Wextra -Wpedantic -Werror -I$inc -I$root/generated -fsyntax-only "$tmp/t.cpp"
    done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
