/* Tests of the parser (lexer.l + parser.y) through parse_module on memory
 * buffers: the AST shape of every construct of the grammar (imports, type
 * parameters, postfix application, tuples and their cells, records and field
 * kinds, sums and inherit, annotations in each position), the locations
 * (line, column, end, offset) of representative nodes, annotation values
 * after unescaping, the lexical quirks of ATD, and that errors give
 * NULL with a located message. */
#include "test_main.h"

#include <string.h>

#include "driver.h"
#include "syntax/parse.h"

typedef struct capture {
    char text[4096];
    size_t len;
} capture;

static void capture_sink(void *ctx, const char *text, size_t len)
{
    capture *c = ctx;
    if (c->len + len >= sizeof c->text)
        len = sizeof c->text - 1 - c->len;
    memcpy(c->text + c->len, text, len);
    c->len += len;
    c->text[c->len] = '\0';
}

static atd_arena *arena;
static diag_ctx d;
static capture cap;

static void setup(void)
{
    arena = atd_arena_new(0, NULL);
    ck_assert_ptr_nonnull(arena);
    memset(&cap, 0, sizeof cap);
    diag_init(&d);
    d.sink = capture_sink;
    d.sink_ctx = &cap;
}

static void teardown(void)
{
    diag_free(&d);
    atd_arena_free(arena);
}

static const ast_module *parse(const char *src)
{
    diag_add_source(&d, "t.atd", src, strlen(src));
    const ast_module *m = parse_module(arena, &d, "t.atd", src, strlen(src));
    ck_assert_msg(m != NULL, "parse failed:\n%s", cap.text);
    ck_assert_int_eq(d.errors, 0);
    return m;
}

static void parse_fails(const char *src, const char *want_in_message)
{
    diag_add_source(&d, "t.atd", src, strlen(src));
    const ast_module *m = parse_module(arena, &d, "t.atd", src, strlen(src));
    ck_assert_msg(m == NULL, "parse of '%s' should fail", src);
    ck_assert_int_gt(d.errors, 0);
    ck_assert_msg(strstr(cap.text, want_in_message) != NULL, "'%s' not in:\n%s", want_in_message,
                  cap.text);
}

static void loc_is(ast_loc l, int line, int col, int end_line, int end_col)
{
    ck_assert_msg(l.line == line && l.col == col && l.end_line == end_line && l.end_col == end_col,
                  "location %d:%d-%d:%d, wanted %d:%d-%d:%d", l.line, l.col, l.end_line,
                  l.end_col, line, col, end_line, end_col);
    ck_assert_str_eq(l.file, "t.atd");
}

static const ast_type *rhs(const ast_module *m, size_t i)
{
    ck_assert_uint_lt(i, m->ndefs);
    return m->defs[i].rhs;
}

static void is_name(const ast_type *t, const char *name, size_t nargs)
{
    ck_assert_int_eq(t->kind, AST_NAME);
    ck_assert_uint_eq(t->u.name.npath, 1);
    ck_assert_str_eq(t->u.name.path[0], name);
    ck_assert_uint_eq(t->u.name.nargs, nargs);
}

/* --- shapes --- */

START_TEST(test_empty_and_comments)
{
    const ast_module *m = parse("");
    ck_assert_uint_eq(m->ndefs, 0);
    ck_assert_uint_eq(m->nimports, 0);
    ck_assert_uint_eq(m->annots.len, 0);
    m = parse("(* a (* nested *) \"*)\" it's *)\n(**)(*)*)");
    ck_assert_uint_eq(m->ndefs, 0);
}
END_TEST

START_TEST(test_postfix_application)
{
    const ast_module *m = parse("type t = int list option\n"
                                "type u = (int, string list) pair list\n"
                                "type 'a v = 'a\n"
                                "type w = m.t\n");
    const ast_type *t = rhs(m, 0);
    is_name(t, "option", 1);
    is_name(t->u.name.args[0], "list", 1);
    is_name(t->u.name.args[0]->u.name.args[0], "int", 0);
    t = rhs(m, 1);
    is_name(t, "list", 1);
    const ast_type *pair = t->u.name.args[0];
    is_name(pair, "pair", 2);
    is_name(pair->u.name.args[0], "int", 0);
    is_name(pair->u.name.args[1], "list", 1);
    ck_assert_int_eq(rhs(m, 2)->kind, AST_TVAR);
    ck_assert_str_eq(rhs(m, 2)->u.tvar.name, "a");
    ck_assert_uint_eq(m->defs[2].nparams, 1);
    ck_assert_str_eq(m->defs[2].params[0].name, "a");
    t = rhs(m, 3);
    ck_assert_uint_eq(t->u.name.npath, 2);
    ck_assert_str_eq(t->u.name.path[0], "m");
    ck_assert_str_eq(t->u.name.path[1], "t");
}
END_TEST

START_TEST(test_params)
{
    const ast_module *m = parse("type ('k, 'v) entry = ('k * 'v)\ntype 'x one = 'x list\n");
    ck_assert_uint_eq(m->defs[0].nparams, 2);
    ck_assert_str_eq(m->defs[0].params[0].name, "k");
    ck_assert_str_eq(m->defs[0].params[1].name, "v");
    loc_is(m->defs[0].params[1].loc, 1, 11, 1, 13);
    ck_assert_uint_eq(m->defs[1].nparams, 1);
}
END_TEST

START_TEST(test_tuples)
{
    const ast_module *m = parse("type a = (int * <ocaml default=\"0\"> : int * : string)\n"
                                "type b = (int)\n"
                                "type c = ()\n");
    const ast_type *t = rhs(m, 0);
    ck_assert_int_eq(t->kind, AST_TUPLE);
    ck_assert_uint_eq(t->u.tuple.len, 3);
    ck_assert(!t->u.tuple.cells[0].has_colon);
    ck_assert(t->u.tuple.cells[1].has_colon);
    ck_assert_uint_eq(t->u.tuple.cells[1].annots.len, 1);
    ck_assert_str_eq(t->u.tuple.cells[1].annots.items[0].section, "ocaml");
    ck_assert(t->u.tuple.cells[2].has_colon); /* a bare ':' */
    ck_assert_uint_eq(t->u.tuple.cells[2].annots.len, 0);
    is_name(t->u.tuple.cells[2].type, "string", 0);
    /* (T) is a one-element tuple, () parses as an empty one. */
    ck_assert_int_eq(rhs(m, 1)->kind, AST_TUPLE);
    ck_assert_uint_eq(rhs(m, 1)->u.tuple.len, 1);
    ck_assert_int_eq(rhs(m, 2)->kind, AST_TUPLE);
    ck_assert_uint_eq(rhs(m, 2)->u.tuple.len, 0);
}
END_TEST

START_TEST(test_records)
{
    const ast_module *m = parse("type r = {\n"
                                "  a : int;\n"
                                "  ?b <json name=\"B\"> : int option;\n"
                                "  ~c : int list;\n"
                                "  inherit base;\n"
                                "  from : int;\n"
                                "}\n"
                                "type e = {}\n");
    const ast_type *t = rhs(m, 0);
    ck_assert_int_eq(t->kind, AST_RECORD);
    ck_assert_uint_eq(t->u.record.len, 5);
    const ast_field *f = t->u.record.fields;
    ck_assert_int_eq(f[0].kind, AST_FIELD_REQUIRED);
    ck_assert_str_eq(f[0].name, "a");
    ck_assert_int_eq(f[1].kind, AST_FIELD_OPTIONAL);
    ck_assert_str_eq(f[1].name, "b");
    ck_assert_uint_eq(f[1].annots.len, 1);
    ck_assert_int_eq(f[2].kind, AST_FIELD_DEFAULT);
    ck_assert_int_eq(f[3].kind, AST_FIELD_INHERIT);
    ck_assert_ptr_null(f[3].name);
    is_name(f[3].type, "base", 0);
    ck_assert_str_eq(f[4].name, "from"); /* soft keyword as a field name */
    /* Locations: the name, the whole field, the record. */
    loc_is(f[1].name_loc, 3, 4, 3, 5);
    loc_is(f[0].loc, 2, 3, 2, 10);
    loc_is(t->loc, 1, 10, 7, 2);
    ck_assert_uint_eq(rhs(m, 1)->u.record.len, 0);
}
END_TEST

START_TEST(test_sums)
{
    const ast_module *m = parse("type s = [ | A | B of int list | inherit t | C <json name=\"c\"> ]\n"
                                "type n = []\n");
    const ast_type *t = rhs(m, 0);
    ck_assert_int_eq(t->kind, AST_SUM);
    ck_assert_uint_eq(t->u.sum.len, 4);
    const ast_variant *v = t->u.sum.variants;
    ck_assert_str_eq(v[0].name, "A");
    ck_assert_ptr_null(v[0].arg);
    ck_assert_str_eq(v[1].name, "B");
    is_name(v[1].arg, "list", 1);
    ck_assert(v[2].is_inherit);
    is_name(v[2].arg, "t", 0);
    ck_assert_uint_eq(v[3].annots.len, 1);
    loc_is(v[1].name_loc, 1, 18, 1, 19);
    loc_is(v[1].loc, 1, 18, 1, 31);
    ck_assert_uint_eq(rhs(m, 1)->u.sum.len, 0);
}
END_TEST

START_TEST(test_imports)
{
    const ast_module *m = parse("<doc text=\"head\">\n"
                                "from a.b <c name=\"ab\"> as m import t, 'x u <foo>, ('k, 'v) w\n"
                                "from c import d\n"
                                "type x = m.t\n");
    ck_assert_uint_eq(m->annots.len, 1);
    ck_assert_uint_eq(m->nimports, 2);
    const ast_import *im = &m->imports[0];
    ck_assert_uint_eq(im->npath, 2);
    ck_assert_str_eq(im->path[0], "a");
    ck_assert_str_eq(im->path[1], "b");
    ck_assert_str_eq(im->alias, "m");
    ck_assert_uint_eq(im->annots.len, 1);
    ck_assert_uint_eq(im->ntypes, 3);
    ck_assert_str_eq(im->types[0].name, "t");
    ck_assert_uint_eq(im->types[0].nparams, 0);
    ck_assert_uint_eq(im->types[1].nparams, 1);
    ck_assert_uint_eq(im->types[1].annots.len, 1);
    ck_assert_uint_eq(im->types[2].nparams, 2);
    loc_is(im->path_loc, 2, 6, 2, 9);
    ck_assert_ptr_null(m->imports[1].alias);
}
END_TEST

START_TEST(test_soft_keywords)
{
    const ast_module *m = parse("from from as as import import\n"
                                "type from = (int * as.import)\n"
                                "type t = { import : int } <from from=\"x\" import>\n");
    ck_assert_str_eq(m->imports[0].path[0], "from");
    ck_assert_str_eq(m->imports[0].alias, "as");
    ck_assert_str_eq(m->imports[0].types[0].name, "import");
    ck_assert_str_eq(m->defs[0].name, "from");
    ck_assert_str_eq(rhs(m, 1)->annots.items[0].section, "from");
}
END_TEST

/* --- annotations --- */

START_TEST(test_annotation_positions)
{
    const ast_module *m = parse("type t <a x> = int <b> list <c> <c2>\n");
    const ast_typedef *td = &m->defs[0];
    ck_assert_uint_eq(td->annots.len, 1);
    ck_assert_str_eq(td->annots.items[0].section, "a");
    /* `<b>` belongs to int, `<c> <c2>` to the list. */
    const ast_type *list = td->rhs;
    ck_assert_uint_eq(list->annots.len, 2);
    ck_assert_str_eq(list->annots.items[1].section, "c2");
    ck_assert_uint_eq(list->u.name.args[0]->annots.len, 1);
    ck_assert_str_eq(list->u.name.args[0]->annots.items[0].section, "b");
}
END_TEST

START_TEST(test_annotation_fields)
{
    const ast_module *m = parse("type t = int <json a b=\"v\" adapter.ocaml=\"M\" c='D'>\n");
    const ast_annot *an = &rhs(m, 0)->annots.items[0];
    ck_assert_str_eq(an->section, "json");
    ck_assert_uint_eq(an->nfields, 4);
    ck_assert_str_eq(an->fields[0].name, "a");
    ck_assert_ptr_null(an->fields[0].value); /* a flag */
    ck_assert_str_eq(an->fields[1].value, "v");
    ck_assert_uint_eq(an->fields[1].value_len, 1);
    ck_assert_str_eq(an->fields[2].name, "adapter.ocaml");
    ck_assert_str_eq(an->fields[3].value, "D"); /* 'D': a string, uppercase */
    loc_is(an->loc, 1, 14, 1, 52);
    loc_is(an->fields[1].loc, 1, 22, 1, 23);
    loc_is(an->fields[1].value_loc, 1, 24, 1, 27);
}
END_TEST

START_TEST(test_string_escapes)
{
    const ast_module *m = parse("type t = int <x a=\"q\\\"b\\\\s\\'n\\nr\\rt\\tb\\b\" "
                                "h=\"\\x41\\x6a\\065\\000z\" c=\"one\\\n   two\" "
                                "raw=\"l1\nl2 'sq'\" s='Dq\"'>\n");
    const ast_annot *an = &rhs(m, 0)->annots.items[0];
    ck_assert_str_eq(an->fields[0].value, "q\"b\\s'n\nr\rt\tb\b");
    ck_assert_uint_eq(an->fields[1].value_len, 5);
    ck_assert(memcmp(an->fields[1].value, "AjA\0z", 5) == 0); /* NUL kept, counted */
    ck_assert_str_eq(an->fields[2].value, "onetwo");          /* line continuation */
    ck_assert_str_eq(an->fields[3].value, "l1\nl2 'sq'");
    ck_assert_str_eq(an->fields[4].value, "Dq\"");
    /* The value's location spans lines. */
    ck_assert_int_eq(an->fields[3].value_loc.line, 2);
    ck_assert_int_eq(an->fields[3].value_loc.end_line, 3);
}
END_TEST

/* --- locations --- */

START_TEST(test_typedef_locations)
{
    const ast_module *m = parse("(* c *)\n"
                                "type  point =\n"
                                "\t{ x : float }\r\n"
                                "type u = int list\n");
    const ast_typedef *td = &m->defs[0];
    loc_is(td->name_loc, 2, 7, 2, 12);
    loc_is(td->loc, 2, 1, 3, 15);
    loc_is(td->rhs->loc, 3, 2, 3, 15); /* a tab is one column */
    ck_assert_uint_eq(td->name_loc.offset, 14);
    ck_assert_uint_eq(td->name_loc.end_offset, 19);
    /* CR LF is one line end. */
    const ast_type *list = rhs(m, 1);
    loc_is(list->loc, 4, 10, 4, 18);
    loc_is(list->u.name.name_loc, 4, 14, 4, 18);
    loc_is(list->u.name.args[0]->loc, 4, 10, 4, 13);
}
END_TEST

/* --- errors --- */

START_TEST(test_errors)
{
    parse_fails("type t = [ A | ]", "t.atd:1:16: error: syntax error, unexpected ']'");
}
END_TEST

START_TEST(test_error_eof_after_last_token)
{
    parse_fails("type t =\n\n", "t.atd:1:9: error: syntax error, unexpected end of file");
}
END_TEST

START_TEST(test_lexical_quirks)
{
    /* 'up' is a type variable followed by a quote: a syntax error. */
    parse_fails("type t = int <json name='up'>", "error: ");
}
END_TEST

START_TEST(test_lexical_errors)
{
    parse_fails("type _ = int", "t.atd:1:6: error: illegal character '_'");
}
END_TEST

START_TEST(test_bad_escape)
{
    parse_fails("type t = int <x a=\"\\u0041\">", "invalid escape sequence '\\u'");
}
END_TEST

START_TEST(test_decimal_escape_too_large)
{
    parse_fails("type t = int <x a=\"\\300\">", "error: ");
}
END_TEST

START_TEST(test_unterminated)
{
    parse_fails("type t = int (* open", "unterminated comment");
}
END_TEST

START_TEST(test_lone_cr_and_nul)
{
    static const char src[] = "type t =\rint";
    diag_add_source(&d, "t.atd", src, sizeof src - 1);
    ck_assert_ptr_null(parse_module(arena, &d, "t.atd", src, sizeof src - 1));
    ck_assert_ptr_nonnull(strstr(cap.text, "carriage return"));
    static const char nul[] = "type t = int\0";
    ck_assert_ptr_null(parse_module(arena, &d, "t.atd", nul, sizeof nul - 1));
    ck_assert_ptr_nonnull(strstr(cap.text, "illegal character '\\x00'"));
}
END_TEST

START_TEST(test_recovery_reports_next_definition)
{
    parse_fails("type t = { a : int\ntype = int\n", "t.atd:2:6: error: ");
    ck_assert_int_eq(d.errors, 2);
}
END_TEST

START_TEST(test_keyword_as_name_one_error)
{
    parse_fails("type t = { type : int }\n", "reserved word");
    ck_assert_int_eq(d.errors, 1); /* no cascade at ':' */
}
END_TEST

START_TEST(test_nesting_limit)
{
    char src[4096] = "type t = int";
    for (int i = 0; i < 300; i++)
        strcat(src, " list");
    parse_fails(src, "nested too deeply");
}
END_TEST

static Suite *parse_suite(void)
{
    Suite *s = suite_create("parse");
    TCase *tc = tcase_create("shapes");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_empty_and_comments);
    tcase_add_test(tc, test_postfix_application);
    tcase_add_test(tc, test_params);
    tcase_add_test(tc, test_tuples);
    tcase_add_test(tc, test_records);
    tcase_add_test(tc, test_sums);
    tcase_add_test(tc, test_imports);
    tcase_add_test(tc, test_soft_keywords);
    suite_add_tcase(s, tc);
    tc = tcase_create("annotations");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_annotation_positions);
    tcase_add_test(tc, test_annotation_fields);
    tcase_add_test(tc, test_string_escapes);
    suite_add_tcase(s, tc);
    tc = tcase_create("locations");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_typedef_locations);
    suite_add_tcase(s, tc);
    tc = tcase_create("errors");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_error_eof_after_last_token);
    tcase_add_test(tc, test_lexical_quirks);
    tcase_add_test(tc, test_lexical_errors);
    tcase_add_test(tc, test_bad_escape);
    tcase_add_test(tc, test_decimal_escape_too_large);
    tcase_add_test(tc, test_unterminated);
    tcase_add_test(tc, test_lone_cr_and_nul);
    tcase_add_test(tc, test_recovery_reports_next_definition);
    tcase_add_test(tc, test_keyword_as_name_one_error);
    tcase_add_test(tc, test_nesting_limit);
    suite_add_tcase(s, tc);
    return s;
}

ATD_CHECK_MAIN(parse_suite)
