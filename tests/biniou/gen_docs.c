/* The schema-driven side of the differential test against atdgen
 * (differential.sh): it runs the compiler's front end and lowering on a
 * schema and walks the IR that the emitters read, so that one generator
 * covers every schema, and what it generates follows every annotation the
 * emitters follow.
 *   gen_docs docs SCHEMA N SEED   N random documents, one per line, each
 *                                 "TYPE JSON" (TYPE an ATD name), in
 *                                 atdgen's standard JSON; the named types
 *                                 of the schema take turns
 *   gen_docs c SCHEMA             the X-macro list of those types for
 *                                 bin_tool.c: X(atd_name, c_name), and
 *                                 validators that accept everything
 *   gen_docs ml SCHEMA MODULE B   the OCaml table of those types for
 *                                 diff_main.ml (MODULE: "Event"; B = 1
 *                                 with the biniou functions)
 * Types whose JSON form is not atdgen's are left out, with the reason on
 * stderr (and those named in GEN_DOCS_SKIP, a comma-separated list): sums with <json repr="object">
 * (a form of newer backends), <json adapter.c> (C code of the program), imported types.
 *
 * Values stay within what both sides can represent: ints within the range
 * of their C repr, their biniou repr and 63-bit OCaml ints (|v| < 2^62),
 * floats finite (exact floats where the value is a C float or biniou
 * float32; integers under <json repr="int">), strings valid UTF-8, keys of
 * association lists distinct. Values of a wrapped type are generated
 * non-negative: the generator cannot know the user's conversion, and the
 * one of schemas/ (llabs) keeps those unchanged. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "load/deps.h"
#include "lower/lower.h"
#include "lower/sort.h"
#include "syntax/parse.h"

/* xorshift64*: the same documents on every platform for a seed. */
static uint64_t rng_state;
static uint64_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717u;
}

static uint64_t below(uint64_t n)
{
    return n == 0 ? 0 : rng() % n;
}

/* Depth beyond which containers are empty, options absent and sums
 * nullary where they can be: recursive types stay finite. */
enum { MAX_DEPTH = 4 };

static void put_json_string(const char *s, size_t n)
{
    putchar('"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

static void gen_string(void)
{
    static const char *const special[] = {"\"", "\\", "/", "\n", "\t", "\x01", "\x7f"};
    static const char *const utf8[] = {"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80"};
    char buf[64];
    size_t n = 0, len = (size_t)below(12);
    for (size_t i = 0; i < len; i++) {
        const char *piece;
        char one[2] = {0, 0};
        switch (below(8)) {
        case 0:
            piece = special[below(sizeof special / sizeof *special)];
            break;
        case 1:
            piece = utf8[below(sizeof utf8 / sizeof *utf8)];
            break;
        default:
            one[0] = (char)(32 + below(95));
            piece = one;
            break;
        }
        size_t k = strlen(piece);
        memcpy(buf + n, piece, k);
        n += k;
    }
    put_json_string(buf, n);
}

/* The range of an int: its C repr, its biniou repr, 63-bit OCaml ints. */
static void int_range(const ir_type *t, bool nonneg, int64_t *lo, int64_t *hi)
{
    static const int64_t c_lo[] = {INT64_MIN, INT8_MIN, INT16_MIN, INT32_MIN, 0, 0, 0};
    static const int64_t c_hi[] = {INT64_MAX, INT8_MAX,   INT16_MAX, INT32_MAX,
                                   UINT8_MAX, UINT16_MAX, UINT32_MAX};
    int64_t l = -((int64_t)1 << 62), h = ((int64_t)1 << 62) - 1;
    switch (t->bin_int) {
    case 1: /* int8 */
        l = 0, h = 255;
        break;
    case 2: /* int16 */
        l = 0, h = 65535;
        break;
    case 3: /* int32 */
        l = INT32_MIN, h = INT32_MAX;
        break;
    case 16: /* uvint */
        l = 0;
        break;
    default:
        break;
    }
    if (c_lo[t->int_repr] > l)
        l = c_lo[t->int_repr];
    if (c_hi[t->int_repr] < h)
        h = c_hi[t->int_repr];
    if (l < 0 && -h > l) /* symmetric: a mutation that drops the '-' stays in range */
        l = -h;
    if (nonneg && l < 0)
        l = 0;
    *lo = l;
    *hi = h;
}

static void gen_int(const ir_type *t, bool nonneg)
{
    int64_t lo, hi, v;
    int_range(t, nonneg, &lo, &hi);
    uint64_t span = (uint64_t)hi - (uint64_t)lo;
    switch (below(5)) {
    case 0: /* small values, where the vint forms change */
        v = (int64_t)below(300) - 150;
        break;
    case 1: /* the bounds */
        v = below(2) ? lo : hi;
        break;
    case 2:
        v = (int64_t)below(1u << 20) - (1 << 19);
        break;
    default:
        v = (int64_t)((uint64_t)lo + (span == UINT64_MAX ? rng() : below(span + 1)));
        break;
    }
    if (v < lo || v > hi)
        v = (int64_t)((uint64_t)lo + (span == UINT64_MAX ? rng() : below(span + 1)));
    if (t->int_as_string)
        printf("\"%" PRId64 "\"", v);
    else
        printf("%" PRId64, v);
}

static void gen_float(const ir_type *t)
{
    double d;
    if (t->float_as_int) {
        printf("%" PRId64, (int64_t)below(2000000) - 1000000);
        return;
    }
    switch (below(5)) {
    case 0:
        d = (double)((int64_t)below(2000) - 1000);
        break;
    case 1:
        d = (double)((int64_t)below(4000) - 2000) / 8;
        break;
    case 2: {
        static const double picks[] = {0.0, -0.0, 0.1, 1e300, 1e-300, 2.5, 1e16, 3e-08};
        d = picks[below(sizeof picks / sizeof *picks)];
        break;
    }
    default: {
        uint64_t bits = rng();
        memcpy(&d, &bits, sizeof d);
        if (d != d || d - d != 0)
            d = 1.5;
        break;
    }
    }
    if (t->float32 || t->bin_float32) {
        float f = (float)d;
        if (f - f != 0)
            f = 0.5f;
        d = f;
    }
    if (t->precision > 0) /* what N significant digits keep */
        d = (double)((int64_t)below(20000) - 10000) / 16;
    /* 17 digits give the double back exactly, on both sides */
    printf("%.17g", d);
}

static void gen(const ir_type *t, int depth, bool nonneg);

static void gen_slot(const ir_slot *s, int depth, bool nonneg)
{
    gen(s->type, depth, nonneg);
}

static size_t gen_len(int depth)
{
    static const size_t lens[] = {0, 0, 1, 2, 3, 5};
    return depth >= MAX_DEPTH ? 0 : lens[below(sizeof lens / sizeof *lens)];
}

/* Any JSON value, for abstract (numbers as ints: float digits would be
 * Yojson's own choice, not atdgen's). */
static void gen_any(int depth)
{
    switch (below(depth >= MAX_DEPTH ? 4 : 6)) {
    case 0:
        printf("null");
        break;
    case 1:
        printf(below(2) ? "true" : "false");
        break;
    case 2:
        printf("%d", (int)below(2000) - 1000);
        break;
    case 3:
        gen_string();
        break;
    case 4: {
        size_t n = gen_len(depth);
        putchar('[');
        for (size_t i = 0; i < n; i++) {
            if (i)
                putchar(',');
            gen_any(depth + 1);
        }
        putchar(']');
        break;
    }
    default: {
        size_t n = gen_len(depth);
        putchar('{');
        for (size_t i = 0; i < n; i++) {
            printf("%s\"k%zu\":", i ? "," : "", i);
            gen_any(depth + 1);
        }
        putchar('}');
        break;
    }
    }
}

static void gen_record(const ir_type *t, int depth)
{
    bool first = true;
    putchar('{');
    for (size_t i = 0; i < t->nfields; i++) {
        const ir_field *f = &t->fields[i];
        /* `?` and `~` fields absent half of the time, always past the depth */
        if (f->kind != IR_FIELD_REQUIRED && (depth >= MAX_DEPTH || below(2)))
            continue;
        if (!first)
            putchar(',');
        first = false;
        put_json_string(f->json_name, f->json_len);
        putchar(':');
        gen_slot(&f->slot, depth + 1, false);
    }
    putchar('}');
}

static void gen_sum(const ir_type *t, int depth)
{
    size_t k = (size_t)below(t->ncases);
    if (depth >= MAX_DEPTH) /* a nullary constructor, if there is one */
        for (size_t i = 0; i < t->ncases; i++)
            if (t->cases[i].arg.type == NULL) {
                k = i;
                break;
            }
    const ir_case *c = &t->cases[k];
    if (c->catch_all) { /* an open enum's string: none of the names */
        printf("\"other-%u\"", (unsigned)below(1000));
        return;
    }
    if (c->arg.type == NULL) {
        put_json_string(c->json_name, c->json_len);
        return;
    }
    putchar('[');
    put_json_string(c->json_name, c->json_len);
    putchar(',');
    gen_slot(&c->arg, depth + 1, false);
    putchar(']');
}

static void gen(const ir_type *t, int depth, bool nonneg)
{
    switch (t->kind) {
    case IR_UNIT:
        printf("null");
        break;
    case IR_BOOL:
        printf(below(2) ? "true" : "false");
        break;
    case IR_INT:
        gen_int(t, nonneg);
        break;
    case IR_FLOAT:
        gen_float(t);
        break;
    case IR_STRING:
        gen_string();
        break;
    case IR_ABSTRACT:
        gen_any(depth);
        break;
    case IR_WRAP:
        gen(t->elem.type, depth, true);
        break;
    case IR_RECORD:
        gen_record(t, depth);
        break;
    case IR_ENUM:
    case IR_SUM:
        gen_sum(t, depth);
        break;
    case IR_TUPLE:
        putchar('[');
        for (size_t i = 0; i < t->ncells; i++) {
            if (i)
                putchar(',');
            gen_slot(&t->cells[i].slot, depth + 1, false);
        }
        putchar(']');
        break;
    case IR_LIST: {
        size_t n = gen_len(depth);
        putchar('[');
        for (size_t i = 0; i < n; i++) {
            if (i)
                putchar(',');
            gen_slot(&t->elem, depth + 1, nonneg);
        }
        putchar(']');
        break;
    }
    case IR_ASSOC: {
        size_t n = gen_len(depth);
        putchar('{');
        for (size_t i = 0; i < n; i++) {
            printf("%s\"key%zu-%u\":", i ? "," : "", i, (unsigned)below(100));
            gen_slot(&t->elem, depth + 1, nonneg);
        }
        putchar('}');
        break;
    }
    case IR_OPTION:
        if (depth >= MAX_DEPTH || below(2)) {
            printf("\"None\"");
        } else {
            printf("[\"Some\",");
            gen_slot(&t->elem, depth + 1, nonneg);
            putchar(']');
        }
        break;
    case IR_NULLABLE:
        if (depth >= MAX_DEPTH || below(2))
            printf("null");
        else
            gen_slot(&t->elem, depth + 1, nonneg);
        break;
    }
}

/* Prints a validator that accepts everything, once per name: atdgen reads
 * JSON without validating (its -v validators are functions of their own). */
static void stub(const char *fn, const char *type_name, const char ***done, size_t *ndone)
{
    for (size_t i = 0; i < *ndone; i++)
        if (strcmp((*done)[i], fn) == 0)
            return;
    *done = realloc(*done, (*ndone + 1) * sizeof **done);
    (*done)[(*ndone)++] = fn;
    printf("bool %s(const %s *v, const char **why)\n{\n    (void)v;\n    (void)why;\n"
           "    return true;\n}\n",
           fn, type_name);
}

/* Stubs every validator of a chain of checks on values of C type `type_name`. */
static void stub_checks(const ir_check *c, const char *type_name, const char ***done, size_t *ndone)
{
    for (; c != NULL; c = c->next)
        if (c->validator != NULL)
            stub(c->validator, type_name, done, ndone);
}

static void stub_slot(const ir_slot *s, const char ***done, size_t *ndone)
{
    if (s->type != NULL)
        stub_checks(s->check, s->type->name, done, ndone);
}

static void stub_validators(const ir_module *m)
{
    const char **done = NULL;
    size_t ndone = 0;
    for (size_t i = 0; i < m->ntypes; i++) {
        const ir_type *t = m->types[i];
        if (t->validator != NULL)
            stub(t->validator, t->name, &done, &ndone);
        for (size_t j = 0; t->kind == IR_RECORD && j < t->nfields; j++)
            stub_slot(&t->fields[j].slot, &done, &ndone);
        for (size_t j = 0; (t->kind == IR_SUM || t->kind == IR_ENUM) && j < t->ncases; j++)
            stub_slot(&t->cases[j].arg, &done, &ndone);
        for (size_t j = 0; t->kind == IR_TUPLE && j < t->ncells; j++)
            stub_slot(&t->cells[j].slot, &done, &ndone);
        if (t->kind == IR_LIST || t->kind == IR_ASSOC || t->kind == IR_OPTION ||
            t->kind == IR_NULLABLE || t->kind == IR_WRAP)
            stub_slot(&t->elem, &done, &ndone);
    }
    for (size_t i = 0; i < m->ndefs; i++)
        stub_checks(m->defs[i].check, m->defs[i].type->name, &done, &ndone);
    free(done);
}

/* Why values of t have no atdgen JSON form, or NULL (a walk of everything t
 * reaches; `mark` avoids cycles). */
/* Whether a chain of checks has a declarative one (<c min>...), which
 * refuses values atdgen accepts: random values would break it. */
static bool has_declarative(const ir_check *c)
{
    for (; c != NULL; c = c->next)
        if (c->min != NULL || c->max != NULL || c->min_len != NULL || c->max_len != NULL)
            return true;
    return false;
}

static const char *not_atdgen_slot(const ir_slot *s, int pass);

static const char *not_atdgen(ir_type *t, int pass)
{
    if (t->mark == pass)
        return NULL;
    t->mark = pass;
    if (t->imported)
        return "an imported type";
    if ((t->kind == IR_SUM || t->kind == IR_ENUM) && t->json_object)
        return "<json repr=\"object\"> on a sum";
    if (t->c_adapter != NULL)
        return "<json adapter.c>";
    const char *why = NULL;
    switch (t->kind) {
    case IR_RECORD:
        for (size_t i = 0; i < t->nfields && why == NULL; i++)
            why = not_atdgen_slot(&t->fields[i].slot, pass);
        break;
    case IR_ENUM:
    case IR_SUM:
        for (size_t i = 0; i < t->ncases && why == NULL; i++)
            if (t->cases[i].arg.type != NULL)
                why = not_atdgen_slot(&t->cases[i].arg, pass);
        break;
    case IR_TUPLE:
        for (size_t i = 0; i < t->ncells && why == NULL; i++)
            why = not_atdgen_slot(&t->cells[i].slot, pass);
        break;
    case IR_WRAP:
    case IR_LIST:
    case IR_ASSOC:
    case IR_OPTION:
    case IR_NULLABLE:
        why = not_atdgen_slot(&t->elem, pass);
        break;
    default:
        break;
    }
    return why;
}

static const char *not_atdgen_slot(const ir_slot *s, int pass)
{
    if (has_declarative(s->check))
        return "declarative checks (<c min>, <c max_len>...), which atdgen does not have";
    return not_atdgen(s->type, pass);
}

static ir_module *load(atd_arena *arena, diag_ctx *d, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        perror(path);
        return NULL;
    }
    static char text[1 << 20];
    size_t len = fread(text, 1, sizeof text, f);
    fclose(f);
    diag_add_source(d, path, text, len);
    ast_module *m = parse_module(arena, d, path, text, len);
    if (m == NULL)
        return NULL;
    deps_graph g;
    if (!deps_load(&g, arena, d, m, path, NULL, 0))
        return NULL;
    check_options copts;
    memset(&copts, 0, sizeof copts);
    const checked_module *cm = check_module(d, arena, m, g.imports, &copts);
    if (cm == NULL)
        return NULL;
    ir_module *ir = lower_module(d, arena, cm, NULL);
    if (ir == NULL || !sort_module(ir, arena))
        return NULL;
    return ir;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: gen_docs docs SCHEMA N SEED | c SCHEMA | ml SCHEMA MODULE B\n");
        return 2;
    }
    const char *mode = argv[1];
    diag_ctx d;
    diag_init(&d);
    atd_arena *arena = atd_arena_new(0, NULL);
    ir_module *m = arena ? load(arena, &d, argv[2]) : NULL;
    if (m == NULL)
        return 1;
    /* the named types with atdgen's JSON form */
    const ir_def **defs = calloc(m->ndefs + 1, sizeof *defs);
    size_t n = 0;
    for (size_t i = 0; i < m->ndefs; i++) {
        const char *skip = getenv("GEN_DOCS_SKIP"), *name = m->defs[i].atd_name;
        size_t len = strlen(name);
        bool skipped = false;
        for (const char *p = skip; p != NULL && *p != '\0';
             p += strcspn(p, ",") + (p[strcspn(p, ",")] != 0))
            if (strncmp(p, name, len) == 0 && (p[len] == ',' || p[len] == '\0'))
                skipped = true;
        const char *why = skipped ? "in GEN_DOCS_SKIP"
                          : m->defs[i].type->kind == IR_ABSTRACT
                              ? "abstract (atdgen has no functions for it)"
                          : has_declarative(m->defs[i].check)
                              ? "declarative checks (<c min>, <c max_len>...), which atdgen does not have"
                              : not_atdgen(m->defs[i].type, (int)i + 1000);
        if (why != NULL)
            fprintf(stderr, "gen_docs: %s: type %s left out: %s\n", argv[2], m->defs[i].atd_name,
                    why);
        else
            defs[n++] = &m->defs[i];
    }
    if (strcmp(mode, "docs") == 0 && argc == 5) {
        unsigned long count = strtoul(argv[3], NULL, 10);
        rng_state = strtoull(argv[4], NULL, 10) * 0x9e3779b97f4a7c15u + 1;
        for (unsigned long i = 0; i < count && n > 0; i++) {
            const ir_def *def = defs[i % n];
            printf("%s ", def->atd_name);
            gen(def->type, 0, false);
            putchar('\n');
        }
    } else if (strcmp(mode, "c") == 0) {
        printf("#define DIFF_TYPES(X)");
        for (size_t i = 0; i < n; i++)
            printf(" \\\n    X(%s, %s)", defs[i]->atd_name, defs[i]->c_name);
        printf("\n");
        stub_validators(m);
    } else if (strcmp(mode, "ml") == 0 && argc == 5) {
        const char *mod = argv[3];
        bool bin = strcmp(argv[4], "1") == 0;
        printf("(* generated by gen_docs from %s *)\nlet types = [\n", argv[2]);
        for (size_t i = 0; i < n; i++) {
            const char *a = defs[i]->atd_name;
            printf("  (\"%s\", Diff_lib.conv %s_j.%s_of_string %s_j.string_of_%s", a, mod, a, mod,
                   a);
            if (bin)
                printf(" (Some ((fun s -> %s_b.%s_of_string s), (fun x -> %s_b.string_of_%s x)))",
                       mod, a, mod, a);
            else
                printf(" None");
            printf(");\n");
        }
        printf("]\n");
    } else {
        fprintf(stderr, "gen_docs: bad arguments\n");
        return 2;
    }
    free(defs);
    atd_arena_free(arena);
    diag_free(&d);
    return 0;
}
