/* The generic JSON value (json.h): reading it with the reader primitives,
 * writing it back compactly (atdgen's forms), deep copy, equality and member
 * lookup.
 *
 * Every walk is iterative, so no input and no hand-built tree can exhaust the
 * C stack: reading keeps an explicit stack of open containers (bounded by the
 * reader's max_depth), writing and comparing keep one of (node, index) pairs,
 * copying one of the nodes left to copy.
 *
 * Arrays and objects of unknown length are collected on one scratch stack of
 * pending values shared by all nesting levels; when a container closes, its
 * items are copied once into an exact-size block of the arena and popped. So
 * the arena holds no abandoned partial arrays, and the scratch stack (from the
 * arena's allocator, starting in a local buffer) is reused by every container
 * of the document: no per-element allocation at all. The scratch stack counts
 * against the arena's memory budget while it exists. */
#include "atd/json.h"
#include "atd/number.h"
#include "atd/value.h"
#include "atd/writer.h"
#include "alloc.h"
#include "error_path.h"
#include "reader_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Growable stacks with local initial storage                               */
/* ------------------------------------------------------------------------ */

typedef struct stack {
    char *data;
    size_t len; /* bytes in use */
    size_t cap;
    char *local; /* initial storage, not freed */
    atd_allocator al;
    atd_arena *budget; /* whose memory budget the stack counts against; may be NULL */
} stack;

static void stack_init(stack *s, void *local, size_t local_size, const atd_allocator *al)
{
    s->data = local;
    s->len = 0;
    s->cap = local_size;
    s->local = local;
    s->al = atd__allocator_or_default(al);
    s->budget = NULL;
}

static void stack_free(stack *s)
{
    if (s->data != s->local) {
        s->al.free(s->al.ctx, s->data);
        if (s->budget != NULL)
            atd__arena_release(s->budget, s->cap);
    }
}

/* Makes room for n more bytes; false when out of memory. */
static bool stack_grow(stack *s, size_t n)
{
    size_t cap = s->cap;
    while (cap - s->len < n) {
        if (cap > SIZE_MAX / 2)
            return false;
        cap *= 2;
    }
    if (s->budget != NULL && !atd__arena_hold(s->budget, cap))
        return false;
    char *fresh = s->al.alloc(s->al.ctx, cap);
    if (fresh == NULL) {
        if (s->budget != NULL)
            atd__arena_release(s->budget, cap);
        return false;
    }
    memcpy(fresh, s->data, s->len);
    stack_free(s);
    s->data = fresh;
    s->cap = cap;
    return true;
}

static inline void *stack_push(stack *s, size_t n)
{
    if (ATD_UNLIKELY(s->cap - s->len < n) && !stack_grow(s, n))
        return NULL;
    void *p = s->data + s->len;
    s->len += n;
    return p;
}

/* Local storage, aligned for every entry type stored on the stacks. */
typedef union local_block {
    atd_json_member member;
    atd_json value;
    size_t index;
    void *ptr;
} local_block;

/* ------------------------------------------------------------------------ */
/* Reading                                                                   */
/* ------------------------------------------------------------------------ */

/* An open container while reading. Its pending items sit on the value stack
 * from `base` on: atd_json for arrays, atd_json_member for objects. */
typedef struct read_frame {
    size_t base;
    size_t count; /* items completed */
    bool object;
    bool in_item; /* reading an item: a failure inside adds this level to the path */
} read_frame;

static bool fail_nomem(atd_reader *r)
{
    return atd_reader_fail(r, ATD_ERR_NOMEM, "out of memory");
}

static bool in_input(const atd_reader *r, const char *p)
{
    return (uintptr_t)p >= (uintptr_t)r->start && (uintptr_t)p < (uintptr_t)r->end;
}

/* Keeps the number token [p, q) as its text (ATD_JSON_BIGINT), borrowed
 * from the input or copied into the arena. */
static bool keep_number_text(atd_reader *r, atd_json *v, const char *p, const char *q)
{
    size_t len = (size_t)(q - p);
    v->kind = ATD_JSON_BIGINT;
    v->u.string.len = len;
    if (r->flags & ATD_READ_BORROW_STRINGS) {
        v->u.string.ptr = p;
    } else {
        char *copy = r->arena != NULL ? atd_arena_strdup(r->arena, p, len) : NULL;
        if (copy == NULL)
            return fail_nomem(r);
        v->u.string.ptr = copy;
    }
    r->cur = q;
    return true;
}

/* A number token: int64 when it is an integer that fits, else a double,
 * else (an integer beyond int64, a float beyond double's range such as
 * 1e999) its text, so that every valid document writes back as it came. */
static bool read_number(atd_reader *r, atd_json *v)
{
    const char *p = r->cur;
    /* Fast paths: a short integer, or a number with a fraction or an
     * exponent parsed in one pass. Everything else (long integers, errors,
     * lenient forms, infinities) goes the general way below. */
    bool fraction;
    const char *q = atd__read_small_int(p, r->end, &v->u.integer, &fraction);
    if (q) {
        v->kind = ATD_JSON_INT;
        r->cur = q;
        return true;
    }
    if (fraction) {
        q = atd_parse_double_prefix(p, r->end, &v->u.number);
        if (q != p && (q == r->end || (atd__char_class[(unsigned char)*q] & ATD__CC_DELIM)) &&
            !isinf(v->u.number)) {
            v->kind = ATD_JSON_FLOAT;
            r->cur = q;
            return true;
        }
    }
    bool is_int;
    q = atd_scan_number(p, r->end, &is_int);
    if (q == p || (q < r->end && !(atd__char_class[(unsigned char)*q] & ATD__CC_DELIM))) {
        if ((r->flags & ATD_READ_LENIENT) && q == p) {
            /* -Infinity */
            v->kind = ATD_JSON_FLOAT;
            return atd_read_double(r, &v->u.number);
        }
        char quote[80];
        atd__quote_token(r, p, quote, sizeof quote);
        return atd_reader_fail(r, ATD_ERR_NUMBER, "invalid number %s", quote);
    }
    if (is_int) {
        atd_num_status st = atd_parse_int64(p, q, &v->u.integer);
        if (st == ATD_NUM_OK) {
            v->kind = ATD_JSON_INT;
            r->cur = q;
            return true;
        }
        if (st == ATD_NUM_RANGE)
            return keep_number_text(r, v, p, q);
    }
    if (atd_parse_double(p, q, &v->u.number) != ATD_NUM_OK) {
        char quote[80];
        atd__quote_token(r, p, quote, sizeof quote);
        return atd_reader_fail(r, ATD_ERR_NUMBER, "invalid number %s", quote);
    }
    if (isinf(v->u.number))
        return keep_number_text(r, v, p, q);
    v->kind = ATD_JSON_FLOAT;
    r->cur = q;
    return true;
}

/* Reads an object key (and the ':'), owning a copy unless strings are
 * borrowed, and pushes the member that will receive the value. */
static bool read_member_key(atd_reader *r, stack *values)
{
    atd_string key;
    if (!atd_object_key(r, &key))
        return false;
    if (!(r->flags & ATD_READ_BORROW_STRINGS) && in_input(r, key.ptr)) {
        char *copy = r->arena != NULL ? atd_arena_strdup(r->arena, key.ptr, key.len) : NULL;
        if (copy == NULL)
            return fail_nomem(r);
        key.ptr = copy;
    }
    atd_json_member *m = stack_push(values, sizeof *m);
    if (m == NULL)
        return fail_nomem(r);
    m->key = key;
    m->value.kind = ATD_JSON_NULL;
    return true;
}

/* Moves the items above `base` on the value stack into the arena. */
static void *pop_items(atd_reader *r, stack *values, size_t base)
{
    size_t bytes = values->len - base;
    void *items =
        r->arena != NULL ? atd_arena_alloc(r->arena, bytes, _Alignof(atd_json_member)) : NULL;
    if (items == NULL)
        return NULL;
    memcpy(items, values->data + base, bytes);
    values->len = base;
    return items;
}

/* Reads the value at the cursor into v, or opens a container (pushing a
 * frame). Returns 1 for a complete value, 0 for an opened container, -1 on error. */
static int read_start(atd_reader *r, stack *values, stack *frames, atd_json *v)
{
    int c = atd_peek(r);
    switch (c) {
    case '"':
        v->kind = ATD_JSON_STRING;
        return atd_read_string(r, &v->u.string) ? 1 : -1;
    case '[':
    case '{': {
        bool nonempty;
        bool object = c == '{';
        if (!(object ? atd_object_begin(r, &nonempty) : atd_array_begin(r, &nonempty)))
            return -1;
        if (!nonempty) {
            v->kind = object ? ATD_JSON_OBJECT : ATD_JSON_ARRAY;
            v->u.array.items = NULL;
            v->u.array.len = 0;
            return 1;
        }
        read_frame *f = stack_push(frames, sizeof *f);
        if (f == NULL) {
            fail_nomem(r);
            return -1;
        }
        f->base = values->len;
        f->count = 0;
        f->object = object;
        f->in_item = false;
        if (object && !read_member_key(r, values))
            return -1;
        f->in_item = true;
        return 0;
    }
    case 't':
    case 'f':
        v->kind = ATD_JSON_BOOL;
        return atd_read_bool(r, &v->u.boolean) ? 1 : -1;
    case 'n':
        v->kind = ATD_JSON_NULL;
        return atd_read_null(r) ? 1 : -1;
    case '-':
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7':
    case '8':
    case '9':
        return read_number(r, v) ? 1 : -1;
    case 'N':
    case 'I':
        if (r->flags & ATD_READ_LENIENT) {
            v->kind = ATD_JSON_FLOAT;
            return atd_read_double(r, &v->u.number) ? 1 : -1;
        }
        break;
    default:
        break;
    }
    atd_reader_fail_expected(r, r->cur, "a JSON value");
    return -1;
}

/* Adds the path of every open container, innermost first, as the generated
 * readers do while unwinding. */
static void push_path(atd_reader *r, const stack *values, const stack *frames)
{
    const read_frame *fs = (const read_frame *)(const void *)frames->data;
    for (size_t i = frames->len / sizeof *fs; i-- > 0;) {
        const read_frame *f = &fs[i];
        if (!f->in_item)
            continue;
        if (f->object) {
            const atd_json_member *m =
                (const atd_json_member *)(const void *)(values->data + f->base) + f->count;
            atd_reader_push_field(r, m->key.ptr, m->key.len);
        } else {
            atd_reader_push_index(r, f->count);
        }
    }
}

static bool read_tree(atd_reader *r, stack *values, stack *frames, atd_json *out)
{
    atd_json v;
    for (;;) {
        int got = read_start(r, values, frames, &v);
        if (got < 0)
            goto fail;
        if (got == 0)
            continue; /* a container opened: read its first item */
        /* v is complete: attach it to the innermost open container, closing
         * as many containers as end here. */
        for (;;) {
            if (frames->len == 0) {
                *out = v;
                return true;
            }
            read_frame *f = (read_frame *)(void *)(frames->data + frames->len) - 1;
            bool more;
            if (f->object) {
                atd_json_member *m = (atd_json_member *)(void *)(values->data + f->base) + f->count;
                m->value = v;
                f->count++;
                f->in_item = false;
                if (!atd_object_next(r, &more))
                    goto fail;
                if (more) {
                    if (!read_member_key(r, values))
                        goto fail;
                    f->in_item = true;
                    break;
                }
                v.kind = ATD_JSON_OBJECT;
                v.u.object.len = f->count;
                v.u.object.members = pop_items(r, values, f->base);
                if (v.u.object.members == NULL) {
                    fail_nomem(r);
                    goto fail;
                }
            } else {
                atd_json *slot = stack_push(values, sizeof *slot);
                if (slot == NULL) {
                    fail_nomem(r);
                    goto fail;
                }
                *slot = v;
                f->count++;
                f->in_item = false;
                if (!atd_array_next(r, &more))
                    goto fail;
                if (more) {
                    f->in_item = true;
                    break;
                }
                v.kind = ATD_JSON_ARRAY;
                v.u.array.len = f->count;
                v.u.array.items = pop_items(r, values, f->base);
                if (v.u.array.items == NULL) {
                    fail_nomem(r);
                    goto fail;
                }
            }
            frames->len -= sizeof *f;
        }
    }
fail:
    push_path(r, values, frames);
    return false;
}

bool atd_json_read(atd_reader *r, atd_json *out)
{
    local_block value_space[48];
    read_frame frame_space[32];
    stack values, frames;
    const atd_allocator *al = r->arena != NULL ? &r->arena->allocator : NULL;
    stack_init(&values, value_space, sizeof value_space, al);
    stack_init(&frames, frame_space, sizeof frame_space, al);
    values.budget = r->arena;
    bool ok = read_tree(r, &values, &frames, out);
    stack_free(&values);
    stack_free(&frames);
    if (!ok)
        out->kind = ATD_JSON_NULL;
    return ok;
}

const char *atd_json_read_p(atd_reader *r, const char *p, atd_json *out)
{
    /* the tree reader runs on r->cur: the cursor goes there and back */
    r->cur = p;
    return atd_json_read(r, out) ? r->cur : NULL;
}

int atd_json_parse(const char *json, size_t len, atd_arena *arena, unsigned flags, atd_json *out,
                   atd_error *err)
{
    atd_reader r;
    atd_reader_init(&r, json, len, arena, flags);
    if (atd_json_read(&r, out) && !atd_read_end(&r))
        out->kind = ATD_JSON_NULL;
    return atd_reader_get_error(&r, err);
}

/* ------------------------------------------------------------------------ */
/* Writing                                                                   */
/* ------------------------------------------------------------------------ */

/* atd_buf_putc with its fast path inlined: punctuation is a third of the
 * calls made while writing. */
static inline void put1(atd_buf *out, char c)
{
    if (ATD_LIKELY(out->len < out->cap && out->status == 0))
        out->data[out->len++] = c;
    else
        atd_buf_putc(out, c);
}

typedef struct walk_frame {
    const atd_json *node;
    size_t index; /* item being visited */
} walk_frame;

/* Renders the JSONPath-like location "$.a[2]" of the node being written: each
 * frame contributes its current item, innermost first as readers and writers
 * push them (error_path.c). `levels` frames are used. */
static void build_path(char *path, const walk_frame *fs, size_t levels)
{
    atd_error_path p;
    atd__path_clear(&p);
    for (size_t i = levels; i-- > 0;) {
        const atd_json *n = fs[i].node;
        if (n->kind == ATD_JSON_ARRAY) {
            atd__path_push_index(&p, fs[i].index);
        } else {
            const atd_string *k = &n->u.object.members[fs[i].index].key;
            atd__path_push_field(&p, k->ptr, k->len);
        }
    }
    atd__path_compose(&p, path, ATD_ERROR_PATH_MAX);
}

static int write_error(atd_error *err, int code, const walk_frame *fs, size_t levels,
                       const char *detail)
{
    if (err != NULL) {
        char path[ATD_ERROR_PATH_MAX];
        build_path(path, fs, levels);
        atd_error_set(err, (atd_error_code)code, path, detail);
    }
    return code;
}

/* The text of an ATD_JSON_BIGINT must be exactly one JSON number. */
static bool number_text_ok(const atd_string *s)
{
    bool is_int;
    return s->len != 0 && atd_scan_number(s->ptr, s->ptr + s->len, &is_int) == s->ptr + s->len;
}

/* Writes a scalar, or the opening bracket of a container. */
static int write_start(atd_buf *out, const atd_json *v)
{
    switch (v->kind) {
    case ATD_JSON_NULL:
    case ATD_JSON_BOOL: {
        char *p = atd_buf_reserve(out, 5);
        if (p == NULL)
            return out->status;
        bool t = v->kind == ATD_JSON_BOOL && v->u.boolean;
        memcpy(p, v->kind == ATD_JSON_NULL ? "null" : t ? "true" : "false", 5);
        atd_buf_commit(out, p + (v->kind == ATD_JSON_BOOL && !t ? 5 : 4));
        return 0;
    }
    case ATD_JSON_INT:
        return atd_buf_write_int64(out, v->u.integer);
    case ATD_JSON_BIGINT:
        if (!number_text_ok(&v->u.string))
            return ATD_ERR_INVALID;
        atd_buf_append(out, v->u.string.ptr, v->u.string.len);
        return 0;
    case ATD_JSON_FLOAT:
        return atd_buf_write_double(out, v->u.number);
    case ATD_JSON_STRING:
        return atd_buf_write_string(out, v->u.string.ptr, v->u.string.len, 0);
    case ATD_JSON_ARRAY:
        put1(out, '[');
        return 0;
    case ATD_JSON_OBJECT:
        put1(out, '{');
        return 0;
    }
    return ATD_ERR_INVALID;
}

static const char *write_detail(int code)
{
    switch (code) {
    case ATD_ERR_UTF8:
        return "string is not valid UTF-8";
    case ATD_ERR_INVALID:
        return "invalid value (unknown kind, or a big number whose text is not a JSON number)";
    default:
        return atd_error_code_text((atd_error_code)code);
    }
}

/* Writes `"key":` for item i of the object node. */
static int write_key(atd_buf *out, const atd_json *node, size_t i)
{
    const atd_string *k = &node->u.object.members[i].key;
    int rc = atd_buf_write_string(out, k->ptr, k->len, 0);
    if (rc == 0)
        put1(out, ':');
    return rc;
}

static const atd_json *item(const atd_json *node, size_t i)
{
    return node->kind == ATD_JSON_ARRAY ? &node->u.array.items[i]
                                        : &node->u.object.members[i].value;
}

static size_t item_count(const atd_json *node)
{
    return node->kind == ATD_JSON_ARRAY ? node->u.array.len : node->u.object.len;
}

static int json_write(const atd_json *v, atd_buf *out, atd_error *err, stack *frames)
{
    const atd_json *cur = v;
    for (;;) {
        int rc = write_start(out, cur);
        size_t levels = frames->len / sizeof(walk_frame);
        walk_frame *fs = (walk_frame *)(void *)frames->data;
        if (rc != 0 && rc != out->status)
            return write_error(err, rc, fs, levels, write_detail(rc));
        if (out->status != 0)
            return write_error(err, out->status, fs, 0, write_detail(out->status));
        if ((cur->kind == ATD_JSON_ARRAY || cur->kind == ATD_JSON_OBJECT) && item_count(cur) > 0) {
            walk_frame *f = stack_push(frames, sizeof *f);
            if (f == NULL)
                return write_error(err, ATD_ERR_NOMEM, fs, 0, write_detail(ATD_ERR_NOMEM));
            f->node = cur;
            f->index = 0;
            if (cur->kind == ATD_JSON_OBJECT && (rc = write_key(out, cur, 0)) != 0) {
                fs = (walk_frame *)(void *)frames->data;
                return write_error(err, rc, fs, levels, "object key is not valid UTF-8");
            }
            cur = item(cur, 0);
            continue;
        }
        if (cur->kind == ATD_JSON_ARRAY)
            put1(out, ']');
        else if (cur->kind == ATD_JSON_OBJECT)
            put1(out, '}');
        /* Move to the next item, closing finished containers. */
        for (;;) {
            levels = frames->len / sizeof(walk_frame);
            if (levels == 0)
                return out->status == 0
                           ? 0
                           : write_error(err, out->status, NULL, 0, write_detail(out->status));
            fs = (walk_frame *)(void *)frames->data;
            walk_frame *f = &fs[levels - 1];
            f->index++;
            if (f->index < item_count(f->node)) {
                put1(out, ',');
                if (f->node->kind == ATD_JSON_OBJECT &&
                    (rc = write_key(out, f->node, f->index)) != 0)
                    return write_error(err, rc, fs, levels - 1, "object key is not valid UTF-8");
                cur = item(f->node, f->index);
                break;
            }
            put1(out, f->node->kind == ATD_JSON_ARRAY ? ']' : '}');
            frames->len -= sizeof *f;
        }
    }
}

int atd_json_write(const atd_json *v, atd_buf *out, atd_error *err)
{
    walk_frame space[32];
    stack frames;
    stack_init(&frames, space, sizeof space, &out->allocator);
    size_t start = out->len;
    int rc = json_write(v, out, err, &frames);
    stack_free(&frames);
    if (rc != 0 && out->sink == NULL && out->status == 0)
        out->len = start; /* in memory, a failed write leaves no partial output */
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Equality and lookup                                                       */
/* ------------------------------------------------------------------------ */

typedef struct pair_frame {
    const atd_json *a;
    const atd_json *b;
    size_t index;
} pair_frame;

static bool same_string(const atd_string *a, const atd_string *b)
{
    return a->len == b->len && (a->len == 0 || memcmp(a->ptr, b->ptr, a->len) == 0);
}

/* Compares everything but the items of containers. */
static bool shallow_equal(const atd_json *a, const atd_json *b)
{
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case ATD_JSON_NULL:
        return true;
    case ATD_JSON_BOOL:
        return a->u.boolean == b->u.boolean;
    case ATD_JSON_INT:
        return a->u.integer == b->u.integer;
    case ATD_JSON_FLOAT:
        return a->u.number == b->u.number;
    case ATD_JSON_BIGINT:
    case ATD_JSON_STRING:
        return same_string(&a->u.string, &b->u.string);
    case ATD_JSON_ARRAY:
        return a->u.array.len == b->u.array.len;
    case ATD_JSON_OBJECT:
        return a->u.object.len == b->u.object.len;
    }
    return false;
}

static bool json_equal(const atd_json *a, const atd_json *b, stack *frames)
{
    for (;;) {
        if (!shallow_equal(a, b))
            return false;
        if ((a->kind == ATD_JSON_ARRAY || a->kind == ATD_JSON_OBJECT) && item_count(a) > 0) {
            pair_frame *f = stack_push(frames, sizeof *f);
            if (f == NULL)
                return false;
            f->a = a;
            f->b = b;
            f->index = 0;
        } else {
            /* Advance to the next pair of items. */
            for (;;) {
                if (frames->len == 0)
                    return true;
                pair_frame *f = (pair_frame *)(void *)(frames->data + frames->len) - 1;
                f->index++;
                if (f->index < item_count(f->a))
                    break;
                frames->len -= sizeof *f;
            }
        }
        pair_frame *f = (pair_frame *)(void *)(frames->data + frames->len) - 1;
        if (f->a->kind == ATD_JSON_OBJECT && !same_string(&f->a->u.object.members[f->index].key,
                                                          &f->b->u.object.members[f->index].key))
            return false;
        a = item(f->a, f->index);
        b = item(f->b, f->index);
    }
}

bool atd_json_equal(const atd_json *a, const atd_json *b)
{
    pair_frame space[32];
    stack frames;
    stack_init(&frames, space, sizeof space, NULL);
    bool eq = json_equal(a, b, &frames);
    stack_free(&frames);
    return eq;
}

/* The copy works in place: *dst is first a shallow copy, and every node on
 * the stack is a node in new memory whose strings and items still point
 * into the old. A node's items are replaced only once they are all copied,
 * so a failure leaves a valid value. */
static int json_copy_node(atd_json *v, atd_arena *a, stack *todo)
{
    switch (v->kind) {
    case ATD_JSON_BIGINT:
    case ATD_JSON_STRING:
        return atd_string_dup(a, v->u.string.ptr, v->u.string.len, &v->u.string);
    case ATD_JSON_ARRAY: {
        size_t n = v->u.array.len;
        atd_json *items = ATD_LIST_ALLOC(a, atd_json, n);
        atd_json **next = stack_push(todo, n * sizeof *next);
        if (items == NULL || (n > 0 && next == NULL))
            return ATD_ERR_NOMEM;
        for (size_t i = 0; i < n; i++) {
            items[i] = v->u.array.items[i];
            next[i] = &items[i];
        }
        v->u.array.items = items;
        return 0;
    }
    case ATD_JSON_OBJECT: {
        size_t n = v->u.object.len;
        atd_json_member *members = ATD_LIST_ALLOC(a, atd_json_member, n);
        atd_json **next = stack_push(todo, n * sizeof *next);
        if (members == NULL || (n > 0 && next == NULL))
            return ATD_ERR_NOMEM;
        for (size_t i = 0; i < n; i++) {
            members[i] = v->u.object.members[i];
            if (atd_string_dup(a, members[i].key.ptr, members[i].key.len, &members[i].key))
                return ATD_ERR_NOMEM;
            next[i] = &members[i].value;
        }
        v->u.object.members = members;
        return 0;
    }
    case ATD_JSON_NULL:
    case ATD_JSON_BOOL:
    case ATD_JSON_INT:
    case ATD_JSON_FLOAT:
        break;
    }
    return 0;
}

int atd_json_copy(const atd_json *src, atd_arena *a, atd_json *dst)
{
    atd_json *space[32];
    stack todo;
    stack_init(&todo, space, sizeof space, NULL);
    *dst = *src;
    int rc = json_copy_node(dst, a, &todo);
    while (rc == 0 && todo.len > 0) {
        todo.len -= sizeof(atd_json *);
        atd_json *v;
        memcpy(&v, todo.data + todo.len, sizeof v);
        rc = json_copy_node(v, a, &todo);
    }
    stack_free(&todo);
    return rc;
}

const atd_json *atd_json_get(const atd_json *object, const char *key, size_t key_len)
{
    if (object == NULL || object->kind != ATD_JSON_OBJECT)
        return NULL;
    atd_string k = {key, key_len};
    for (size_t i = object->u.object.len; i-- > 0;) {
        if (same_string(&object->u.object.members[i].key, &k))
            return &object->u.object.members[i].value;
    }
    return NULL;
}
