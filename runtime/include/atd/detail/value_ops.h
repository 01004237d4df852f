/* The deep copy and value equality that generated code defines for each
 * type, as one macro per shape of type: the functions of every list, of
 * every option... are the same lines, differing only in names; the same
 * for the name functions of enums and sum tags (at the end). atd.h
 * includes this file; generated .c files use the macros, and their headers
 * declare (and document) the functions. Not API: the macros may change in
 * any release.
 *
 * The functions are
 *     int T_copy(const T *src, atd_arena *a, T *dst);   0 or ATD_ERR_NOMEM
 *     bool T_equal(const T *a, const T *b);
 * for a type of C name T (the prefix of its functions too); LINKAGE is
 * static or extern. A copy may have src == dst (the value then moves into the
 * arena); on failure *dst stays a valid value.
 *
 * The macros take the copy and the equality of a part of the value (an
 * item, an option's value) as the name of a function or function-like
 * macro of the same form, on pointers:
 *     COPY(const P *src, atd_arena *a, P *dst)   nonzero on failure
 *     EQUAL(const P *x, const P *y)              true when equal
 * the part's own T_copy and T_equal, atd_json_copy, atd_string_equal...
 * or one of the helpers below. */
#ifndef ATD_DETAIL_VALUE_OPS_H
#define ATD_DETAIL_VALUE_OPS_H

/* COPY of a part that holds no memory of its own: nothing to do. */
#define ATD_COPY_NONE(SRC, A, DST) ((void)(SRC), (void)(A), (void)(DST), 0)

/* COPY of an atd_string: its bytes into the arena. */
#define ATD_COPY_STRING(SRC, A, DST) atd_string_dup((A), (SRC)->ptr, (SRC)->len, (DST))

/* EQUAL of a scalar (bool, number, enum): C's ==, so -0.0 equals 0.0 and
 * NaN equals nothing, as the writer compares defaults. */
#define ATD_EQUAL_SCALAR(X, Y) (*(X) == *(Y))

/* EQUAL of a part that has one value (unit): always true. */
#define ATD_EQUAL_ALWAYS(X, Y) ((void)(X), (void)(Y), 1)

/* T_copy of a value copied whole by COPY, after *dst = *src: with
 * ATD_COPY_NONE, a type that holds no memory (copied by assignment). */
#define ATD_DEFINE_COPY(LINKAGE, T, COPY)                                                          \
    LINKAGE int T##_copy(const T *src, atd_arena *a, T *dst)                                       \
    {                                                                                              \
        *dst = *src;                                                                               \
        return COPY(dst, a, dst) ? ATD_ERR_NOMEM : 0;                                              \
    }

/* T_equal of a value compared whole by EQUAL. */
#define ATD_DEFINE_EQUAL(LINKAGE, T, EQUAL)                                                        \
    LINKAGE bool T##_equal(const T *a, const T *b)                                                 \
    {                                                                                              \
        return EQUAL(a, b);                                                                        \
    }

/* T_copy of an option or a nullable (bool has; V value;): the value by
 * COPY when there is one. */
#define ATD_DEFINE_OPTION_COPY(LINKAGE, T, COPY)                                                   \
    LINKAGE int T##_copy(const T *src, atd_arena *a, T *dst)                                       \
    {                                                                                              \
        *dst = *src;                                                                               \
        return dst->has && COPY(&dst->value, a, &dst->value) ? ATD_ERR_NOMEM : 0;                  \
    }

/* T_equal of an option or a nullable: both absent (whatever their unused
 * value holds), or both present with values equal by EQUAL. */
#define ATD_DEFINE_OPTION_EQUAL(LINKAGE, T, EQUAL)                                                 \
    LINKAGE bool T##_equal(const T *a, const T *b)                                                 \
    {                                                                                              \
        return a->has == b->has && (!a->has || EQUAL(&a->value, &b->value));                       \
    }

/* T_copy of a list (ITEM *items; size_t len;): new items of type ITEM,
 * each copied by COPY, put in place only once all are. */
#define ATD_DEFINE_LIST_COPY(LINKAGE, T, ITEM, COPY)                                               \
    LINKAGE int T##_copy(const T *src, atd_arena *a, T *dst)                                       \
    {                                                                                              \
        ITEM *items = ATD_LIST_ALLOC(a, ITEM, src->len);                                           \
        if (items == NULL)                                                                         \
            return ATD_ERR_NOMEM;                                                                  \
        for (size_t i = 0; i < src->len; i++) {                                                    \
            items[i] = src->items[i];                                                              \
            if (COPY(&items[i], a, &items[i]))                                                     \
                return ATD_ERR_NOMEM;                                                              \
        }                                                                                          \
        dst->items = items;                                                                        \
        dst->len = src->len;                                                                       \
        return 0;                                                                                  \
    }

/* T_equal of a list: the same length and items equal by EQUAL, in order. */
#define ATD_DEFINE_LIST_EQUAL(LINKAGE, T, EQUAL)                                                   \
    LINKAGE bool T##_equal(const T *a, const T *b)                                                 \
    {                                                                                              \
        if (a->len != b->len)                                                                      \
            return false;                                                                          \
        for (size_t i = 0; i < a->len; i++)                                                        \
            if (!EQUAL(&a->items[i], &b->items[i]))                                                \
                return false;                                                                      \
        return true;                                                                               \
    }

/* T_copy of an association list (T_item *items; size_t len; each item an
 * atd_string key and a value): the keys' bytes and the values by COPY, as
 * ATD_DEFINE_LIST_COPY does. */
#define ATD_DEFINE_ASSOC_COPY(LINKAGE, T, COPY)                                                    \
    LINKAGE int T##_copy(const T *src, atd_arena *a, T *dst)                                       \
    {                                                                                              \
        T##_item *items = ATD_LIST_ALLOC(a, T##_item, src->len);                                   \
        if (items == NULL)                                                                         \
            return ATD_ERR_NOMEM;                                                                  \
        for (size_t i = 0; i < src->len; i++) {                                                    \
            items[i] = src->items[i];                                                              \
            if (ATD_COPY_STRING(&items[i].key, a, &items[i].key) ||                                \
                COPY(&items[i].value, a, &items[i].value))                                         \
                return ATD_ERR_NOMEM;                                                              \
        }                                                                                          \
        dst->items = items;                                                                        \
        dst->len = src->len;                                                                       \
        return 0;                                                                                  \
    }

/* T_equal of an association list: the same length, and the same keys
 * (bytes) with values equal by EQUAL, in order. */
#define ATD_DEFINE_ASSOC_EQUAL(LINKAGE, T, EQUAL)                                                  \
    LINKAGE bool T##_equal(const T *a, const T *b)                                                 \
    {                                                                                              \
        if (a->len != b->len)                                                                      \
            return false;                                                                          \
        for (size_t i = 0; i < a->len; i++)                                                        \
            if (!atd_string_equal(&a->items[i].key, &b->items[i].key) ||                           \
                !EQUAL(&a->items[i].value, &b->items[i].value))                                    \
                return false;                                                                      \
        return true;                                                                               \
    }

/* T__copy_ptr and T__equal_ptr: the COPY and EQUAL of a member that
 * points to a T (how recursive types hold each other), NULL or a value in
 * the arena. The copy puts a new T, copied by COPY after assignment, in
 * place of the pointer; pointers compare by what they point to. */
#define ATD_DEFINE_PTR_OPS(T, COPY)                                                                \
    static int T##__copy_ptr(T *const *src, atd_arena *a, T **dst)                                 \
    {                                                                                              \
        T *p = NULL;                                                                               \
        if (*src != NULL) {                                                                        \
            p = ATD_LIST_ALLOC(a, T, 1);                                                           \
            if (p == NULL)                                                                         \
                return ATD_ERR_NOMEM;                                                              \
            *p = **src;                                                                            \
            if (COPY(p, a, p))                                                                     \
                return ATD_ERR_NOMEM;                                                              \
        }                                                                                          \
        *dst = p;                                                                                  \
        return 0;                                                                                  \
    }                                                                                              \
    static bool T##__equal_ptr(T *const *a, T *const *b)                                           \
    {                                                                                              \
        return *a == NULL ? *b == NULL : *b != NULL && T##_equal(*a, *b);                          \
    }

/* NAME, the COPY of a <c t> wrap U around a wire value W that holds memory:
 * the wire value from UNWRAP(*src), copied by COPY, wrapped back with WRAP
 * into *dst. */
#define ATD_DEFINE_WRAP_COPY(NAME, U, W, UNWRAP, WRAP, COPY)                                       \
    static int NAME(const U *src, atd_arena *a, U *dst)                                            \
    {                                                                                              \
        W x = UNWRAP(*src);                                                                        \
        if (COPY(&x, a, &x))                                                                       \
            return ATD_ERR_NOMEM;                                                                  \
        *dst = WRAP(x);                                                                            \
        return 0;                                                                                  \
    }

/* NAME, the EQUAL of a wrap U: its wire values (of type W, from UNWRAP)
 * equal by EQUAL. */
#define ATD_DEFINE_WRAP_EQUAL(NAME, U, W, UNWRAP, EQUAL)                                           \
    static bool NAME(const U *a, const U *b)                                                       \
    {                                                                                              \
        const W x = UNWRAP(*a), y = UNWRAP(*b);                                                    \
        return EQUAL(&x, &y);                                                                      \
    }

/* T_name and T_of_name of an enum or a sum's tag type T, around the table
 * T__names of its N constructors' names: the name of a value (NULL for no
 * constructor), and the value of a name (bytes, matched exactly; 0, or
 * ATD_ERR_INVALID for no constructor's name). */
#define ATD_DEFINE_NAMES(T, N)                                                                     \
    const char *T##_name(T v)                                                                      \
    {                                                                                              \
        return (size_t)v < (N) ? T##__names[v].ptr : NULL;                                         \
    }                                                                                              \
    int T##_of_name(const char *s, size_t len, T *out)                                             \
    {                                                                                              \
        const atd_string name = {s, len};                                                          \
        for (size_t i = 0; i < (N); i++) {                                                         \
            if (atd_string_equal(&T##__names[i], &name)) {                                         \
                *out = (T)i;                                                                       \
                return 0;                                                                          \
            }                                                                                      \
        }                                                                                          \
        return ATD_ERR_INVALID;                                                                    \
    }

#endif
