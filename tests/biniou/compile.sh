#!/bin/sh
# The code of atdc --biniou compiles warning-free as C99 and C11 with gcc and
# clang (the flags of compile_generated.sh), and its header from C++, for
# tests/biniou/all.atd and every schema of schemas/ without `abstract`.
# A schema with `abstract` is refused with a located diagnostic.
# Usage: compile.sh ATDC SOURCE_ROOT
set -eu
atdc=$1
root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flags="-Wall -Wextra -Wpedantic -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -I$root/runtime/include -I$tmp"
pass=0 fail=0
run() {
    if "$@" > "$tmp/log" 2>&1; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED: $*"; head -20 "$tmp/log"; fi
}
for schema in "$root/tests/biniou/all.atd" "$root"/schemas/*.atd; do
    base=$(basename "$schema" .atd)
    if "$atdc" --biniou -o "$tmp" "$schema" 2> "$tmp/err"; then
        for cc in gcc clang; do
            command -v $cc > /dev/null || continue
            for std in c99 c11; do run $cc -std=$std $flags -c "$tmp/$base.c" -o "$tmp/out.o"; done
        done
        printf '#include "%s.h"\nint main() { return 0; }\n' "$base" > "$tmp/t.cpp"
        for cxx in g++ clang++; do
            command -v $cxx > /dev/null || continue
            run $cxx -std=c++11 -Wall -Wextra -Wpedantic -Werror -I"$root/runtime/include" -I"$tmp" -fsyntax-only "$tmp/t.cpp"
        done
    elif grep -q "^$schema:[0-9]*:[0-9]*: error: abstract has no biniou form" "$tmp/err"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAILED: atdc --biniou $schema"
        cat "$tmp/err"
    fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
