#!/bin/sh
# The code of atdc --biniou compiles warning-free as C99 and C11 with gcc and
# clang (the flags of compile_generated.sh), and its header from C++, for
# tests/biniou/all.atd and every schema of schemas/ without `abstract`.
# A schema with `abstract` is refused with a located diagnostic; with
# --biniou-skip-abstract it generates, and that code compiles alike. On
# schemas/everything.atd: the exact diagnostic, one note per definition that
# holds abstract (and only those), and biniou functions in the header for
# exactly the other definitions.
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
# Compiles $tmp/$1.c and its header (C++).
compile() {
    for cc in gcc clang; do
        command -v $cc > /dev/null || continue
        for std in c99 c11; do run $cc -std=$std $flags -c "$tmp/$1.c" -o "$tmp/out.o"; done
    done
    printf '#include "%s.h"\nint main() { return 0; }\n' "$1" > "$tmp/t.cpp"
    for cxx in g++ clang++; do
        command -v $cxx > /dev/null || continue
        run $cxx -std=c++11 -Wall -Wextra -Wpedantic -Werror -I"$root/runtime/include" -I"$tmp" -fsyntax-only "$tmp/t.cpp"
    done
}
skipped=0
for schema in "$root/tests/biniou/all.atd" "$root"/schemas/*.atd; do
    base=$(basename "$schema" .atd)
    if "$atdc" --biniou -o "$tmp" "$schema" 2> "$tmp/err"; then
        compile "$base"
    elif grep -q "^$schema:[0-9]*:[0-9]*: error: abstract has no biniou form" "$tmp/err"; then
        pass=$((pass + 1))
        if "$atdc" --biniou-skip-abstract -o "$tmp" "$schema" 2> "$tmp/err"; then
            compile "$base"
            skipped=$((skipped + 1))
        else
            fail=$((fail + 1))
            echo "FAILED: atdc --biniou-skip-abstract $schema"
            cat "$tmp/err"
        fi
    else
        fail=$((fail + 1))
        echo "FAILED: atdc --biniou $schema"
        cat "$tmp/err"
    fi
done

# everything.atd: the default refuses it at the first abstract, naming the option.
check() {
    if [ "$1" = "$2" ]; then pass=$((pass + 1)); else
        fail=$((fail + 1))
        printf 'FAILED: %s\n--- expected\n%s\n--- got\n%s\n' "$3" "$2" "$1"
    fi
}
ev=$root/schemas/everything.atd
status=0
"$atdc" --biniou -o "$tmp" "$ev" 2> "$tmp/err" || status=$?
check "$status $(head -n 1 "$tmp/err")" "1 $ev:31:19: error: abstract has no biniou form (atdgen cannot write it either): generate this schema without --biniou, or with --biniou-skip-abstract to leave out the types that hold it" \
    "atdc --biniou everything.atd"
# The opt-in: a note for each definition that holds abstract, with the way to it.
status=0
"$atdc" --biniou-skip-abstract -o "$tmp" "$ev" 2> "$tmp/err" || status=$?
check "$status
$(grep ': note: ' "$tmp/err")" "0
$ev:31:6: note: no biniou functions for 'json_value': it is abstract
$ev:53:6: note: no biniou functions for 'shape': it holds abstract at shape.Any
$ev:195:6: note: no biniou functions for 'abstract_list': it holds abstract at abstract_list[]
$ev:213:6: note: no biniou functions for 'reprs': it holds abstract at reprs.raw
$ev:293:6: note: no biniou functions for 'root': it holds abstract at root.values[]" \
    "atdc --biniou-skip-abstract everything.atd: notes"
check "$(grep -c ': error: \|: warning: ' "$tmp/err")" 0 "no error or warning with --biniou-skip-abstract"
# Every definition has JSON functions; all but those five have biniou ones.
grep -o 'int everything_[a-z_0-9]*_from_json(' "$tmp/everything.h" |
    sed 's/^int everything_//; s/_from_json($//' | sort > "$tmp/json"
grep -o 'int everything_[a-z_0-9]*_from_biniou(' "$tmp/everything.h" |
    sed 's/^int everything_//; s/_from_biniou($//' | sort > "$tmp/bin"
check "$(comm -23 "$tmp/json" "$tmp/bin" | tr '\n' ' ')" "abstract_list json_value reprs root shape " \
    "definitions without biniou functions"
check "$(comm -13 "$tmp/json" "$tmp/bin" | wc -l) $(wc -l < "$tmp/bin")" "0 43" \
    "definitions with biniou functions"
# Without abstract, the option changes nothing.
"$atdc" --biniou -o "$tmp/a" "$root/tests/biniou/all.atd"
"$atdc" --biniou-skip-abstract -o "$tmp/b" "$root/tests/biniou/all.atd" 2> "$tmp/err"
check "$(cmp "$tmp/a/all.c" "$tmp/b/all.c" && cmp "$tmp/a/all.h" "$tmp/b/all.h" && wc -c < "$tmp/err")" 0 \
    "--biniou-skip-abstract on a schema without abstract"
# An enum used only as a list element (its constructor table is its writer's).
printf 'type m = [ A | B ]\ntype l = m list\n' > "$tmp/enum_list.atd"
"$atdc" --biniou -o "$tmp" "$tmp/enum_list.atd"
compile enum_list
# --lazy needs every type's biniou form: abstract stays an error there.
status=0
"$atdc" --lazy --biniou-skip-abstract -o "$tmp" "$ev" 2> "$tmp/err" || status=$?
check "$status $(head -n 1 "$tmp/err")" "1 $ev:31:19: error: abstract has no biniou form (atdgen cannot write it either): generate this schema without --lazy" \
    "atdc --lazy --biniou-skip-abstract everything.atd"

echo "$pass passed, $fail failed ($skipped schemas with abstract generated with --biniou-skip-abstract)"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ] && [ "$skipped" -gt 0 ]
