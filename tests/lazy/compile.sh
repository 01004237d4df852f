#!/bin/sh
# atdc --lazy output compiles warning-free as C99 and C11 with gcc and clang
# (the flags of compile_generated.sh) and its header from C++, for
# schemas/revindex.atd and tests/lazy/*.atd; and the lazy format's
# annotations change nothing in the JSON and biniou code: revindex.atd with
# them and without them generates the same files, but for the name of a map
# with <c index>, which is named after its field (corpus.titles).
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
for schema in "$root/schemas/revindex.atd" "$root"/tests/lazy/*.atd; do
    base=$(basename "$schema" .atd)
    run "$atdc" --lazy -o "$tmp" "$schema"
    for cc in gcc clang; do
        command -v $cc > /dev/null || continue
        for std in c99 c11; do run $cc -std=$std $flags -c "$tmp/$base.c" -o "$tmp/out.o"; done
    done
    printf '#include "%s.h"\nint main() { return 0; }\n' "$base" > "$tmp/t.cpp"
    for cxx in g++ clang++; do
        command -v $cxx > /dev/null || continue
        run $cxx -std=c++11 -Wall -Wextra -Wpedantic -Werror -I"$root/runtime/include" -I"$tmp" -fsyntax-only "$tmp/t.cpp"
    done
done
# the same schema without the annotations: identical JSON and biniou code
mkdir "$tmp/with" "$tmp/without"
sed -e 's/ <c lazy>//g' -e 's/ <c shared>//g' -e 's/ <c index>//g' "$root/schemas/revindex.atd" > "$tmp/without/revindex.atd"
if grep -q ' <c \(lazy\|shared\|index\)>' "$tmp/without/revindex.atd"; then
    echo "FAILED: annotations left in the stripped schema"; fail=$((fail + 1))
fi
run "$atdc" --biniou -o "$tmp/with" "$root/schemas/revindex.atd"
run "$atdc" --biniou -o "$tmp/without" "$tmp/without/revindex.atd"
for ext in c h; do
    sed 's/revindex_corpus_titles/revindex_string_assoc/g' "$tmp/with/revindex.$ext" > "$tmp/with/renamed.$ext"
    run diff "$tmp/with/renamed.$ext" "$tmp/without/revindex.$ext"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
