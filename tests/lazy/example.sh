#!/bin/sh
# examples/lazy end to end, as a user builds it: installs the build tree
# into a temporary prefix, builds the example against it (find_package +
# atdc_generate --lazy), then builds a word index from JSON Lines and checks
# the exact answers of lookups, that rebuilding replaces the database while
# it is being read from, that verify passes, that a flipped byte is
# reported, and the errors for a bad input line and a duplicate word.
# Usage: example.sh BUILD_DIR SOURCE_DIR [EXTRA_FLAGS]
set -u
build=${1:?usage: example.sh BUILD_DIR SOURCE_DIR [EXTRA_FLAGS]}
src=${2:?usage}
extra=${3:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/atdc_lazy_example.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}
if ! cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1; then
    cat "$tmp/install.log"
    echo "FAIL: cmake --install"
    exit 1
fi
if ! cmake -S "$src/examples/lazy" -B "$tmp/ex" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS="$extra" -DCMAKE_EXE_LINKER_FLAGS="$extra" \
    >"$tmp/build.log" 2>&1 || ! cmake --build "$tmp/ex" >>"$tmp/build.log" 2>&1; then
    cat "$tmp/build.log"
    echo "FAIL: building examples/lazy against the installed package"
    exit 1
fi
wi=$tmp/ex/word_index
db=$tmp/words.db

# expect STATUS STDOUT_FILE STDERR_FILE CMD...: exact outputs and status
check() {
    want_status=$1 want_out=$2 want_err=$3
    shift 3
    "$@" >"$tmp/out" 2>"$tmp/err" < "${input:-/dev/null}"
    status=$?
    [ "$status" -eq "$want_status" ] || fail "$*: status $status, expected $want_status"
    printf '%s' "$want_out" | cmp -s - "$tmp/out" || { fail "$*: stdout"; cat "$tmp/out"; }
    printf '%s' "$want_err" | cmp -s - "$tmp/err" || { fail "$*: stderr"; cat "$tmp/err"; }
}

cat > "$tmp/in.jsonl" <<'JSON'
{"word": "lazy", "postings": [{"file": "README.md", "line": 455}, {"file": "docs/lazy-format.md", "line": 1}]}
{"word": "index", "postings": [{"file": "docs/lazy-format.md", "line": 172}]}
{"word": "crc", "postings": [{"file": "runtime/src/crc32c.c", "line": 1}, {"file": "README.md", "line": 490}, {"file": "runtime/src/crc32c.c", "line": 60}]}
{"word": "empty", "postings": []}
JSON
input=$tmp/in.jsonl check 0 "" "" "$wi" build "$db"
check 0 "crc: runtime/src/crc32c.c:1 README.md:490 runtime/src/crc32c.c:60
lazy: README.md:455 docs/lazy-format.md:1
empty:
" "" "$wi" query "$db" crc lazy empty
check 1 "index: docs/lazy-format.md:172
absent: not found
" "" "$wi" query "$db" index absent
check 0 "$db: 4 words, all checksums match
" "" "$wi" verify "$db"

# rebuilt while a reader may be reading the old one: the reader is unharmed
# (unit_lazy holds the old file open across a replacement deterministically).
# It opened either file, as the two processes raced: the old one has the
# word, the new one answers "not found" (exit 1); nothing else is right.
printf '{"word": "new", "postings": [{"file": "a", "line": 2}]}\n' > "$tmp/in2.jsonl"
sleep_reader() { "$wi" query "$db" crc > "$tmp/reader.out" 2>&1; }
sleep_reader &
reader=$!
input=$tmp/in2.jsonl check 0 "" "" "$wi" build "$db"
wait $reader
status=$?
case "$status:$(cat "$tmp/reader.out")" in
"0:crc: runtime/src/crc32c.c:1 README.md:490 runtime/src/crc32c.c:60" | "1:crc: not found") ;;
*) fail "a reader of the replaced database failed (exit $status): $(cat "$tmp/reader.out")" ;;
esac
check 0 "new: a:2
" "" "$wi" query "$db" new
[ "$(ls "$tmp" | grep -c 'words.db.tmp')" -eq 0 ] || fail "temporary files left behind"

# a byte flipped in the middle of the file: verify reports it
size=$(wc -c < "$db")
cp "$db" "$tmp/bad.db"
printf '\377' | dd of="$tmp/bad.db" bs=1 seek=$((size / 3)) conv=notrunc 2>/dev/null
"$wi" verify "$tmp/bad.db" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "corrupt\|byte " "$tmp/err" || fail "verify missed a flipped byte: $(cat "$tmp/err")"

# a bad line, a duplicate word: status 1, the message, the database kept
printf '{"word": "x", "postings": [{"file": "a", "line": "two"}]}\n' > "$tmp/bad.jsonl"
input=$tmp/bad.jsonl check 1 "" "word_index: <stdin>:1:50: expected an integer, found \"two\" (at \$.postings[0].line)
" "$wi" build "$db"
printf '{"word": "x", "postings": []}\n{"word": "x", "postings": []}\n' > "$tmp/dup.jsonl"
input=$tmp/dup.jsonl check 1 "" "word_index: $db: duplicate key \"x\" in an indexed map (at \$[1])
" "$wi" build "$db"
check 0 "new: a:2
" "" "$wi" query "$db" new
check 2 "" "word_index: $tmp/none.db: cannot open $tmp/none.db: No such file or directory
" "$wi" query "$tmp/none.db" x

if [ "$fails" -ne 0 ]; then
    echo "$fails failures"
    exit 1
fi
echo "examples/lazy: all checks passed"
