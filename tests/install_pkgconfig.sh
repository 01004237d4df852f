#!/bin/sh
# Installs the build tree into a temporary prefix and builds a strict C99
# program against it with pkg-config alone, as a user would:
#   cc -std=c99 -Wall -Wextra -Wpedantic -Werror prog.c $(pkg-config --cflags --libs atdrt)
# then runs it. Usage: install_pkgconfig.sh BUILD_DIR [EXTRA_LINK_FLAGS]
# (a sanitizer build passes its -fsanitize flags, which libatdrt.a needs).
set -eu
build=$1
extra=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" > "$tmp/install.log"
for f in bin/atdc include/atd.h include/atd/reader.h lib/libatdrt.a lib/pkgconfig/atdrt.pc; do
    [ -e "$tmp/prefix/$f" ] || { echo "missing from the install tree: $f"; exit 1; }
done
"$tmp/prefix/bin/atdc" --version | grep -q '^atdc ' || { echo "installed atdc --version failed"; exit 1; }
cat > "$tmp/prog.c" <<'C'
#include <atd.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    const char *text = "{\"a\": [1, 2.5, \"x\"]}";
    atd_arena *arena = atd_arena_new(0, NULL);
    atd_json v;
    atd_error err;
    atd_buf out;
    int ok;
    if (!arena || atd_json_parse(text, strlen(text), arena, 0, &v, &err) != 0)
        return 1;
    atd_buf_init(&out);
    ok = atd_json_write(&v, &out, &err) == 0 && out.len == 17 &&
         memcmp(out.data, "{\"a\":[1,2.5,\"x\"]}", 17) == 0;
    atd_buf_free(&out);
    atd_arena_free(arena);
    puts(ok ? "ok" : "wrong output");
    return ok ? 0 : 1;
}
C
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
# shellcheck disable=SC2046,SC2086
cc -std=c99 -Wall -Wextra -Wpedantic -Werror "$tmp/prog.c" $(pkg-config --cflags --libs atdrt) $extra -o "$tmp/prog"
"$tmp/prog"
echo "1 passed, 0 failed"
