/* The block copy of the string reader (read_string.c, internal to atdrt),
 * written once and included once per vector width. The includer defines
 *   BLOCK_BYTES          the bytes of a block: 16 (SSE2) or 32 (AVX2);
 *   BLOCK_NAME(x)        the name of function x at this width (x_16, x_32);
 *   BLOCK_TARGET         the functions' target attribute (or nothing);
 *   BLOCK_COPY_STOPS     unsigned f(const char *s, char *d): stores the
 *                        block at s to d and returns the mask of its bytes
 *                        that stop a plain string (atd__string_stops);
 * and this file undefines them. No include guard: that is the point. */

/* The ASCII string whose body starts at s = open_quote + 1, scanned and
 * copied into the arena's current chunk in one pass, a block at a time:
 * each block is stored whole at the copy's end before its bytes are looked
 * at, so a short string costs one load, one store and no branch on its
 * length. The stores past the string's end land in the chunk's free room
 * (checked before each block) and are not allocated: the next allocation
 * overwrites them. A short escape (the \/ of every slash, \n, \") becomes
 * its byte where its block was stored, and the blocks go on after it: a
 * few instructions per escape, no call. Returns the byte after the closing
 * quote with *out set, or NULL with *stop where the scan must go on and
 * *stop_dst where its output goes: at a byte that needs the decoder
 * (\uXXXX or a bad escape, non-ASCII, control byte; *special then), or at
 * the first block that the input or the chunk cannot hold whole. The first
 * `done` bytes of the body are plain and copied already. */
static BLOCK_TARGET ATD__HOT_INLINE const char *
BLOCK_NAME(scan_copy_blocks)(atd_arena *a, const char *open_quote, size_t done, const char *end,
                             atd_string *out, const char **stop, char **stop_dst, bool *special)
{
    const char *s = open_quote + 1 + done;
    char *const start = a->cur;
    char *d = start;
    if (done != 0) /* copied by the inline half: the chunk is there (cur is not NULL) */
        d += done;
    /* Blocks go on while a block and one byte are left before the limit:
     * the byte after an escape's backslash. `last` is the limit less a
     * block, so that the loop's test is one compare. */
    size_t n = block_span(a, end, s, d);
    if (n > BLOCK_BYTES) {
        const char *const last = s + (n - BLOCK_BYTES);
        do {
            unsigned bits = BLOCK_COPY_STOPS(s, d);
            if (bits) {
                unsigned i = (unsigned)__builtin_ctz(bits);
                s += i;
                d += i;
                enum block_stop k = block_stop(a, start, &s, &d, out);
                if (ATD_LIKELY(k == BLOCK_CLOSED))
                    return s;
                if (k == BLOCK_DECODED)
                    continue;
                *stop = s;
                *stop_dst = d;
                *special = true;
                return NULL;
            }
            s += BLOCK_BYTES;
            d += BLOCK_BYTES;
        } while (s < last);
    }
    *special = false;
    *stop = s;
    *stop_dst = d;
    return NULL;
}

/* The copied string at the quote p whose first `done` bytes of body are
 * plain and already at the arena's cursor: the blocks go on after them;
 * what they leave goes to the general paths. */
static BLOCK_TARGET const char *BLOCK_NAME(copy_blocks_from)(atd_reader *r, atd_arena *a,
                                                             const char *p, size_t done,
                                                             atd_string *out)
{
    const char *from;
    bool special;
    char *to;
    const char *after =
        BLOCK_NAME(scan_copy_blocks)(a, p, done, r->end, out, &from, &to, &special);
    if (ATD_LIKELY(after != NULL))
        return after;
    if (special) /* \uXXXX, non-ASCII text, control bytes */
        return read_string_decoding(r, p, from, to, out);
    return blocks_left_off(r, a, p, from, to, out);
}

#undef BLOCK_BYTES
#undef BLOCK_NAME
#undef BLOCK_TARGET
#undef BLOCK_COPY_STOPS
