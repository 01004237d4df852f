/* Tests of the code generated for schemas/event.atd (generated/event.c,
 * included directly so no build wiring is needed): exact output bytes, and
 * every error path of the reader with its exact message (line, column, JSON
 * path), plus the reader options (strict fields, borrowed strings). */
#include <check.h>
#include <string.h>

#include "test_main.h"

#include "event.h"

static atd_arena *arena;

static void setup(void)
{
    arena = atd_arena_new(0, NULL);
}

static void teardown(void)
{
    atd_arena_free(arena);
}

/* Reads `json` as events, writes it back, compares with `expect`. */
static void echo(const char *json, const char *expect)
{
    event_events v;
    atd_error err;
    atd_buf b;
    atd_buf_init(&b);
    ck_assert_msg(event_events_from_json(json, strlen(json), arena, &v, &err) == 0, "%s",
                  err.message);
    ck_assert_int_eq(event_events_to_json(&v, &b, &err), 0);
    ck_assert_uint_eq(b.len, strlen(expect));
    ck_assert(memcmp(b.data, expect, b.len) == 0);
    atd_buf_free(&b);
}

/* Reads `json` and expects the error `code` with `message`. */
static void fails(const char *json, int code, const char *message)
{
    event_events v;
    atd_error err;
    int rc = event_events_from_json(json, strlen(json), arena, &v, &err);
    ck_assert_int_eq(rc, code);
    ck_assert_str_eq(err.message, message);
}

START_TEST(test_write_bytes)
{
    echo("[]", "[]");
    echo(" [ { \"username\" : \"bob\", \"date\" : 12, \"event_type\" : \"Login\", "
         "\"payload\" : \"x\" } ] ",
         "[{\"username\":\"bob\",\"date\":12,\"event_type\":\"Login\",\"payload\":\"x\"}]");
    /* any field order in, declaration order out; unknown fields skipped;
     * escapes decoded and re-escaped minimally; the last duplicate wins */
    echo("[{\"payload\":\"a\\/b\\u00e9\\n\",\"date\":-9223372036854775808,\"zz\":[1,{\"q\":null}],"
         "\"event_type\":\"Cancel\",\"username\":\"\\\"\",\"date\":-1}]",
         "[{\"username\":\"\\\"\",\"date\":-1,\"event_type\":\"Cancel\",\"payload\":\"a/b\xc3\xa9\\n\"}]");
    echo("[{\"username\":\"\",\"date\":9223372036854775807,\"event_type\":\"Purchase\","
         "\"payload\":\"\\u0001\\u007f\"}]",
         "[{\"username\":\"\",\"date\":9223372036854775807,\"event_type\":\"Purchase\","
         "\"payload\":\"\\u0001\\u007f\"}]");
    /* a quoted int is accepted, as atdgen's readers accept it */
    echo("[{\"username\":\"u\",\"date\":\"42\",\"event_type\":\"Logout\",\"payload\":\"\"}]",
         "[{\"username\":\"u\",\"date\":42,\"event_type\":\"Logout\",\"payload\":\"\"}]");
}
END_TEST

START_TEST(test_write_value)
{
    event_event e;
    event_event_init(&e);
    e.username.ptr = "ann";
    e.username.len = 3;
    e.date = 7;
    e.event_type = EVENT_EVENT_TYPE_PURCHASE;
    e.payload.ptr = "p";
    e.payload.len = 1;
    atd_buf b;
    atd_buf_init(&b);
    atd_error err;
    ck_assert_int_eq(event_event_to_json(&e, &b, &err), 0);
    const char *want = "{\"username\":\"ann\",\"date\":7,\"event_type\":\"Purchase\",\"payload\":\"p\"}";
    ck_assert_uint_eq(b.len, strlen(want));
    ck_assert(memcmp(b.data, want, b.len) == 0);
    /* invalid UTF-8 is an error naming the path; nothing is left in the buffer */
    e.payload.ptr = "\xff";
    atd_buf_clear(&b);
    ck_assert_int_eq(event_event_to_json(&e, &b, &err), ATD_ERR_UTF8);
    ck_assert_str_eq(err.path, "$.payload");
    ck_assert_uint_eq(b.len, 0);
    /* an out-of-range enum value */
    e.payload.ptr = "p";
    e.event_type = (event_event_type)42;
    ck_assert_int_eq(event_event_to_json(&e, &b, &err), ATD_ERR_INVALID);
    ck_assert_str_eq(err.path, "$.event_type");
    atd_buf_free(&b);
}
END_TEST

START_TEST(test_errors)
{
    fails("[{\"username\":\"bob\",\"event_type\":\"Login\",\"payload\":\"x\"}]",
          ATD_ERR_MISSING_FIELD, "line 1, column 2, at $[0]: missing field 'date' in record 'event'");
    fails("[\n {\"username\":\"bob\",\"date\":1,\"event_type\":\"Login\",\"payload\":\"x\"},\n"
          " {\"username\":\"bob\",\n  \"date\":\"x\",\"event_type\":\"Login\",\"payload\":\"x\"}]",
          ATD_ERR_TYPE, "line 4, column 10, at $[1].date: expected an integer, found \"x\"");
    fails("[{\"username\":\"bob\",\"date\":1.5,\"event_type\":\"Login\",\"payload\":\"x\"}]",
          ATD_ERR_TYPE, "line 1, column 27, at $[0].date: expected an integer, found 1.5");
    fails("[{\"username\":\"bob\",\"date\":1,\"event_type\":\"Logn\",\"payload\":\"x\"}]",
          ATD_ERR_BAD_VARIANT,
          "line 1, column 42, at $[0].event_type: unsupported variant \"Logn\" in 'event_type'");
    fails("[{\"username\":\"bob\",\"date\":1,\"event_type\":[\"Login\"],\"payload\":\"x\"}]",
          ATD_ERR_TYPE,
          "line 1, column 42, at $[0].event_type: expected a variant of 'event_type', found '['");
    fails("[{\"username\":\"bob\",\"date\":99999999999999999999,\"event_type\":\"Login\","
          "\"payload\":\"x\"}]",
          ATD_ERR_RANGE, "line 1, column 27, at $[0].date: integer 99999999999999999999 out of range");
    fails("[] x", ATD_ERR_TRAILING, "line 1, column 4, at $: unexpected x after the JSON value");
    fails("", ATD_ERR_EOF, "line 1, column 1, at $: unexpected end of input");
    fails("{}", ATD_ERR_TYPE, "line 1, column 1, at $: expected an array, found '{'");
    fails("[{\"username\":1}]", ATD_ERR_TYPE,
          "line 1, column 14, at $[0].username: expected a string, found 1");
}
END_TEST

/* Enum names are matched in place where the input holds them plain with
 * room for the longest name; escaped names, names at the very end of the
 * input and unknown names take the general path. Both must agree. */
START_TEST(test_enum_names)
{
    static const struct {
        const char *json;
        int want; /* the constructor, or -1: an error */
    } cases[] = {
        {"\"Login\"   ", EVENT_EVENT_TYPE_LOGIN},
        {"\"Purchase\"   ", EVENT_EVENT_TYPE_PURCHASE},
        {"\"Logout\"    ", EVENT_EVENT_TYPE_LOGOUT},
        {"\"Cancel\"    ", EVENT_EVENT_TYPE_CANCEL},
        {" \"Cancel\"", EVENT_EVENT_TYPE_CANCEL},      /* less room than "Purchase" */
        {"\"Login\"", EVENT_EVENT_TYPE_LOGIN},
        {"\"\\u004cogin\"    ", EVENT_EVENT_TYPE_LOGIN}, /* an escape */
        {"\"Purch\\u0061se\"", EVENT_EVENT_TYPE_PURCHASE},
        {"\"Logins\"    ", -1}, /* a known name and more */
        {"\"Logi\"      ", -1}, /* a prefix of one */
        {"\"Cancel     ", -1},   /* no closing quote */
        {"\"login\"     ", -1},
        {"\"\"          ", -1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        event_event_type t;
        atd_error err;
        int rc = event_event_type_from_json(cases[i].json, strlen(cases[i].json), arena, &t, &err);
        if (cases[i].want >= 0) {
            ck_assert_msg(rc == 0, "%s: %s", cases[i].json, err.message);
            ck_assert_int_eq(t, cases[i].want);
        } else {
            ck_assert_msg(rc != 0, "%s", cases[i].json);
        }
    }
    event_event_type t;
    atd_error err;
    ck_assert_int_eq(event_event_type_from_json("\"Logins\"    ", 12, arena, &t, &err),
                     ATD_ERR_BAD_VARIANT);
    ck_assert_str_eq(err.message,
                     "line 1, column 1, at $: unsupported variant \"Logins\" in 'event_type'");
}
END_TEST

/* Unknown keys of 0 to 20 bytes between the known ones: in one order for
 * some records, then in the reverse order, then in a new order in every
 * record, so that the length each unknown key's cursor moves by (the
 * length of the key that followed the same key last time) is right, wrong
 * by more or by less, and for keys past 15 bytes not guessed at all. */
START_TEST(test_unknown_key_lengths)
{
    enum { KEYS = 21, RECORDS = 12 };
    static const char *const values[] = {"1", "\"s\"", "[1,22]", "{\"a\":{}}", "null", "-0.5e3"};
    static char json[16384], want[4096];
    size_t n = 0, w = 0;
    uint64_t rng = 3;
    json[n++] = want[w++] = '[';
    for (int rec = 0; rec < RECORDS; rec++) {
        int order[KEYS];
        for (int i = 0; i < KEYS; i++)
            order[i] = rec < 4 ? i : KEYS - 1 - i;
        if (rec >= 8) {
            for (int i = KEYS - 1; i > 0; i--) {
                rng = rng * 6364136223846793005u + 1442695040888963407u;
                int j = (int)((rng >> 33) % (uint64_t)(i + 1)), t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
        }
        n += (size_t)snprintf(json + n, sizeof json - n, "%s{", rec ? "," : "");
        for (int i = 0; i < KEYS; i++) {
            int len = order[i];
            json[n++] = '"';
            for (int k = 0; k < len; k++)
                json[n++] = (char)(k == len - 1 ? 'A' + len : 'x');
            n += (size_t)snprintf(json + n, sizeof json - n, "\":%s,", values[(rec + i) % 6]);
            if (i % 5 == 4) /* a known field among them */
                n += (size_t)snprintf(json + n, sizeof json - n, "%s,",
                                      (const char *const[]){"\"username\":\"u\"", "\"date\":7",
                                                            "\"event_type\":\"Logout\"",
                                                            "\"payload\":\"p\""}[i / 5]);
        }
        n += (size_t)snprintf(json + n, sizeof json - n, "\"\":0}");
        w += (size_t)snprintf(want + w, sizeof want - w,
                              "%s{\"username\":\"u\",\"date\":7,\"event_type\":\"Logout\","
                              "\"payload\":\"p\"}",
                              rec ? "," : "");
    }
    json[n++] = want[w++] = ']';
    json[n] = want[w] = '\0';
    ck_assert(n < sizeof json - 64 && w < sizeof want - 64);
    echo(json, want);
}
END_TEST

START_TEST(test_strict_and_borrow)
{
    const char *json = "{\"username\":\"bob\",\"date\":1,\"extra\":0,\"event_type\":\"Login\","
                       "\"payload\":\"x\"}";
    atd_reader r;
    event_event e;
    atd_error err;
    atd_reader_init(&r, json, strlen(json), arena, ATD_READ_STRICT_FIELDS);
    ck_assert(!event_event_read(&r, &e));
    ck_assert_int_eq(atd_reader_get_error(&r, &err), ATD_ERR_UNKNOWN_FIELD);
    ck_assert_str_eq(err.message,
                     "line 1, column 36, at $: unknown field \"extra\" in record 'event'");
    atd_reader_init(&r, json, strlen(json), arena, ATD_READ_BORROW_STRINGS);
    ck_assert(event_event_read(&r, &e) && atd_read_end(&r));
    ck_assert(e.username.ptr == json + 13); /* zero-copy */
    ck_assert_uint_eq(e.username.len, 3);
}
END_TEST

/* Every order of the four keys, in three forms: compact (the record's own
 * dispatch of keys it did not expect), with whitespace around the colon
 * and escaped names (the general lookup). The last object of the input
 * ends within a key's length of the end, where the dispatch leaves the key
 * to the general lookup too. */
START_TEST(test_key_orders)
{
    static const char *const keys[4][3] = {
        {"\"username\"", "\"username\" : ", "\"user\\u006eame\""},
        {"\"date\"", "\"date\" : ", "\"\\u0064ate\""},
        {"\"event_type\"", "\"event_type\"\t: ", "\"event\\u005ftype\""},
        {"\"payload\"", "\"payload\"\n: ", "\"payloa\\u0064\""},
    };
    static const char *const values[4] = {"\"ann\"", "7", "\"Cancel\"", "\"p\""};
    const char *want = "[{\"username\":\"ann\",\"date\":7,\"event_type\":\"Cancel\",\"payload\":"
                       "\"p\"},{\"username\":\"ann\",\"date\":7,\"event_type\":\"Cancel\","
                       "\"payload\":\"p\"}]";
    for (int form = 0; form < 3; form++) {
        for (int perm = 0; perm < 24; perm++) {
            int order[4] = {0, 1, 2, 3}, rest = perm;
            for (int i = 0; i < 4; i++) { /* the perm-th permutation */
                int j = i + rest % (4 - i), t = order[j];
                rest /= 4 - i;
                memmove(order + i + 1, order + i, (size_t)(j - i) * sizeof *order);
                order[i] = t;
            }
            char json[512];
            size_t n = 0;
            json[n++] = '[';
            for (int obj = 0; obj < 2; obj++) {
                n += (size_t)snprintf(json + n, sizeof json - n, "%s{", obj ? "," : "");
                for (int i = 0; i < 4; i++)
                    n += (size_t)snprintf(json + n, sizeof json - n, "%s%s%s%s", i ? "," : "",
                                          keys[order[i]][form], form == 1 ? "" : ":",
                                          values[order[i]]);
                json[n++] = '}';
            }
            json[n++] = ']';
            json[n] = '\0';
            echo(json, want);
        }
    }
    /* unknown keys that share a start, a length or all but one byte with a
     * field's key are skipped; a repeated key (out of order) wins last */
    echo("[{\"date\":1,\"dat\":0,\"datex\":0,\"date_\":[],\"username\":\"a\",\"usernamf\":0,"
         "\"event_type\":\"Login\",\"evemt_type\":1,\"payload\":\"x\",\"payloads\":{},"
         "\"date\":2,\"\":0}]",
         "[{\"username\":\"a\",\"date\":2,\"event_type\":\"Login\",\"payload\":\"x\"}]");
    /* runs of unknown members (skipped in one loop), compact and
     * pretty-printed, before a known key, before the end, after an
     * unknown key that shares the filter bit of the known one after it
     * ("Za" and "date"): the known values are all read */
    echo("[{\"a\":1,\"bb\":[2,{\"c\":3}],\"ccc\":\"x\",\"date\":5,\"username\":\"u\","
         "\"x\":null,\"y\":true,\"event_type\":\"Login\",\"payload\":\"p\",\"z\":{},\"w\":-1e3},"
         "{\n  \"a\": 1,\n  \"bb\": [\n    2\n  ],\n  \"date\": 6,\n  \"q\": \"\\n\",\n"
         "  \"username\": \"v\",\n  \"event_type\": \"Logout\",\n  \"payload\": \"o\",\n  "
         "\"r\": 0,\n  \"s\": 1\n},"
         "{\"username\":\"w\",\"b\":0,\"Za\":0,\"date\":7,\"event_type\":\"Login\",\"payload\":\"n\"}]",
         "[{\"username\":\"u\",\"date\":5,\"event_type\":\"Login\",\"payload\":\"p\"},"
         "{\"username\":\"v\",\"date\":6,\"event_type\":\"Logout\",\"payload\":\"o\"},"
         "{\"username\":\"w\",\"date\":7,\"event_type\":\"Login\",\"payload\":\"n\"}]");
    /* an error in any unknown member of a run names its key */
    fails("[{\"date\":1,\"a\":0,\"b\":[1,],\"username\":\"u\"}]", ATD_ERR_SYNTAX,
          "line 1, column 25, at $[0].b: expected a value, found ']'");
    /* a run that ends in a trailing ',' or lacks one between members */
    fails("[{\"date\":1,\"a\":0,\"b\":1,}]", ATD_ERR_SYNTAX,
          "line 1, column 24, at $[0]: expected an object key, found '}'");
    fails("[{\"date\":1,\"a\":0 \"b\":1}]", ATD_ERR_SYNTAX,
          "line 1, column 18, at $[0]: expected ',' or '}', found \"b\"");
    /* errors name the field whatever the order */
    fails("[{\"payload\":\"x\",\"date\":1,\"username\":2,\"event_type\":\"Login\"}]", ATD_ERR_TYPE,
          "line 1, column 37, at $[0].username: expected a string, found 2");
    fails("[{\"payload\":\"x\",\"event_type\":\"Login\",\"username\":\"b\"}]",
          ATD_ERR_MISSING_FIELD,
          "line 1, column 2, at $[0]: missing field 'date' in record 'event'");
    fails("[{\"payload\":\"x\",\"date\":1 \"username\":\"b\"}]", ATD_ERR_SYNTAX,
          "line 1, column 26, at $[0]: expected ',' or '}', found \"username\"");
    fails("[{\"payload\":\"x\",\"date\":1,}]", ATD_ERR_SYNTAX,
          "line 1, column 26, at $[0]: expected an object key, found '}'");
    /* strict fields: the unknown key after keys out of order */
    atd_reader r;
    event_event e;
    atd_error err;
    const char *json = "{\"payload\":\"x\",\"date\":1,\"dates\":0}";
    atd_reader_init(&r, json, strlen(json), arena, ATD_READ_STRICT_FIELDS);
    ck_assert(!event_event_read(&r, &e));
    ck_assert_int_eq(atd_reader_get_error(&r, &err), ATD_ERR_UNKNOWN_FIELD);
    ck_assert_str_eq(err.message,
                     "line 1, column 33, at $: unknown field \"dates\" in record 'event'; "
                     "did you mean \"date\"?");
}
END_TEST

Suite *event_suite(void);
Suite *event_suite(void)
{
    Suite *s = suite_create("event");
    TCase *tc = tcase_create("generated");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_write_bytes);
    tcase_add_test(tc, test_write_value);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_enum_names);
    tcase_add_test(tc, test_strict_and_borrow);
    tcase_add_test(tc, test_key_orders);
    tcase_add_test(tc, test_unknown_key_lengths);
    suite_add_tcase(s, tc);
    return s;
}

ATD_CHECK_MAIN(event_suite)
