#!/bin/sh
# Regenerates the C code of every schema in schemas/ into a temporary
# directory and compares it with the committed generated/ folder: any
# difference (or a missing or extra file) fails. Regenerate with
#   for s in schemas/*.atd; do atdc -o generated "$s"; done
# Usage: golden_generated.sh ATDC SOURCE_ROOT
set -eu
atdc=$1
root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for s in "$root"/schemas/*.atd; do
    if ! "$atdc" -o "$tmp" "$s"; then
        echo "FAILED: atdc $s"
        fail=1
    fi
done
if ! diff -r "$root/generated" "$tmp" > "$tmp.diff" 2>&1; then
    echo "generated/ differs from the output of atdc:"
    head -50 "$tmp.diff"
    fail=1
fi
rm -f "$tmp.diff"
[ "$fail" -eq 0 ] && echo "generated/ is up to date"
exit "$fail"
