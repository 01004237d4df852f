#!/bin/sh
# The generation options that choose what atdc emits:
#   --types-only  every schema in schemas/ gives code that compiles warning-free
#                 (gcc and clang, C99 and C11, -Wall -Wextra -Wpedantic
#                 -Werror; the header from C++) and holds the types and init
#                 functions only: no reader, writer, stream, pretty, copy,
#                 equal or name symbol, in the object or in the header;
#                 refused with --biniou and --lazy;
#   --no-stream, --no-pretty  leave out exactly their functions;
#   --no-stutter  type event in event.atd is `event` (functions event_read,
#                 event_copy...), the default stays event_event, a name that
#                 the shorter one makes clash is an error, and an imported
#                 type is named by the same rule.
# Usage: gen_options.sh ATDC ROOT
set -u
ATDC=${1:?usage: gen_options.sh ATDC ROOT}
ROOT=${2:?usage: gen_options.sh ATDC ROOT}
INC=$ROOT/runtime/include
TMP=$(mktemp -d "${TMPDIR:-/tmp}/atdc_genopt.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT INT TERM
fails=0
n=0
fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}
FLAGS="-Wall -Wextra -Wpedantic -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes"

# compiles DIR/BASE.c with every C compiler and standard, and BASE.h from C++
compiles() {
    for cc in gcc clang; do
        command -v $cc > /dev/null || continue
        for std in c99 c11; do
            n=$((n + 1))
            $cc -std=$std $FLAGS -I"$INC" -I"$1" -c "$1/$2.c" -o "$1/$2.o" 2> "$TMP/log" ||
                { fail "$cc -std=$std $2.c"; head -5 "$TMP/log"; }
        done
    done
    printf '#include "%s.h"\nint main() { return 0; }\n' "$2" > "$1/t.cpp"
    for cxx in g++ clang++; do
        command -v $cxx > /dev/null || continue
        n=$((n + 1))
        $cxx -std=c++11 -Wall -Wextra -Wpedantic -Werror -I"$INC" -I"$1" -fsyntax-only "$1/t.cpp" \
            2> "$TMP/log" || { fail "$cxx $2.h"; head -5 "$TMP/log"; }
    done
}

# --types-only on every schema
mkdir "$TMP/types"
for s in "$ROOT"/schemas/*.atd; do
    base=$(basename "$s" .atd)
    n=$((n + 1))
    "$ATDC" --types-only -o "$TMP/types" "$s" || { fail "atdc --types-only $s"; continue; }
    compiles "$TMP/types" "$base"
    n=$((n + 1))
    syms=$(nm -g --defined-only "$TMP/types/$base.o" | awk '{print $3}')
    [ -n "$syms" ] || fail "$base: --types-only defines no function"
    bad=$(printf '%s\n' "$syms" | grep -v '_init$')
    [ -z "$bad" ] || fail "$base: --types-only defines $bad"
    n=$((n + 1))
    if grep -E '_(read|write|from_json|to_json|copy|equal|name|of_name|next_line|to_json_pretty)\(' \
        "$TMP/types/$base.h" > "$TMP/log"; then
        fail "$base.h: --types-only declares"; head -3 "$TMP/log"
    fi
    # the same types as the full generation
    n=$((n + 1))
    "$ATDC" -o "$TMP" "$s" || fail "atdc $s"
    sed -n '/--- types ---/,/--- functions ---/p' "$TMP/$base.h" > "$TMP/full_types"
    sed -n '/--- types ---/,/--- functions ---/p' "$TMP/types/$base.h" > "$TMP/only_types"
    cmp -s "$TMP/full_types" "$TMP/only_types" || fail "$base: --types-only changes the types"
done
for opt in --biniou --lazy; do
    n=$((n + 1))
    "$ATDC" --types-only $opt -o "$TMP" "$ROOT/schemas/event.atd" 2> "$TMP/err"
    [ $? -eq 2 ] && grep -q "cannot be combined" "$TMP/err" || fail "--types-only $opt accepted"
done

# --no-stream and --no-pretty
ev=$ROOT/schemas/event.atd
for opts in "--no-stream" "--no-pretty" "--no-stream --no-pretty"; do
    d=$TMP/$(echo "$opts" | tr -d ' -')
    mkdir "$d"
    n=$((n + 1))
    "$ATDC" $opts -o "$d" "$ev" || { fail "atdc $opts"; continue; }
    compiles "$d" event
    syms=$(nm -g --defined-only "$d/event.o" | awk '{print $3}')
    for f in next_line next_element write_line to_json_pretty read write copy equal; do
        n=$((n + 1))
        case "$f $opts" in
        next_*--no-stream* | write_line*--no-stream* | to_json_pretty*--no-pretty*) want=0 ;;
        *) want=1 ;;
        esac
        got=$(printf '%s\n' "$syms" | grep -c "^event_event_$f\$")
        [ "$got" -eq "$want" ] || fail "$opts: event_event_$f defined $got times, want $want"
    done
done

# --no-stutter
mkdir "$TMP/bare"
n=$((n + 1))
"$ATDC" --no-stutter -o "$TMP/bare" "$ev" || fail "atdc --no-stutter"
compiles "$TMP/bare" event
for sym in event_read event_write event_copy event_equal event_events_read; do
    n=$((n + 1))
    nm -g --defined-only "$TMP/bare/event.o" | grep -q " $sym\$" || fail "--no-stutter: no $sym"
done
n=$((n + 1))
grep -q '^typedef struct event event;$' "$TMP/bare/event.h" || fail "--no-stutter: no type event"
n=$((n + 1))
! grep -q 'event_event\b' "$TMP/bare/event.h" || fail "--no-stutter: event_event is left"
n=$((n + 1))
grep -q '^typedef struct event_event event_event;$' "$TMP/event.h" || fail "default: not event_event"
printf 'type clash = { a : int }\ntype read = int\n' > "$TMP/clash.atd"
n=$((n + 1))
"$ATDC" -o "$TMP" "$TMP/clash.atd" || fail "clash.atd refused without --no-stutter"
n=$((n + 1))
"$ATDC" --no-stutter -o "$TMP" "$TMP/clash.atd" 2> "$TMP/err"
[ $? -eq 1 ] && grep -q "clash_read" "$TMP/err" || { fail "--no-stutter clash not reported"; cat "$TMP/err"; }

# an imported type is named by the same rule: lib.lib is `lib`
mkdir -p "$TMP/imp/lib"
printf 'type lib = { n : int; s : string }\n' > "$TMP/imp/lib/lib.atd"
printf 'from lib.lib import lib\ntype app = { l : lib.lib; k : int }\n' > "$TMP/imp/app.atd"
n=$((n + 1))
"$ATDC" --no-stutter -o "$TMP/imp/out" "$TMP/imp/lib/lib.atd" "$TMP/imp/app.atd" ||
    fail "--no-stutter with an import"
compiles "$TMP/imp/out" lib
compiles "$TMP/imp/out" app
n=$((n + 1))
grep -q '^    lib l;$' "$TMP/imp/out/app.h" || fail "--no-stutter: the imported type is not lib"

echo "$((n - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]
