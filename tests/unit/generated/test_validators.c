/* <c validator> (schemas/validators.atd): the functions below are called
 * after reading each annotated value and, with ATD_WRITE_VALIDATE, before
 * writing it; a refusal is an error at the value with its path. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "test_main.h"

#include "validators.h"

static int calls;

bool valid_name(const atd_string *v, const char **why)
{
    calls++;
    *why = "a name is not empty";
    return v->len > 0;
}

bool valid_age(const int64_t *v, const char **why)
{
    calls++;
    *why = "an age is between 0 and 150";
    return *v >= 0 && *v <= 150;
}

bool valid_email(const atd_string *v, const char **why)
{
    calls++;
    *why = "an email has an @";
    return memchr(v->ptr, '@', v->len) != NULL;
}

bool valid_person(const validators_person *v, const char **why)
{
    calls++;
    /* runs on the whole record, after its fields */
    *why = "minors have no email here";
    return !(v->age < 18 && v->has_email);
}

bool valid_radius(const double *v, const char **why)
{
    calls++;
    (void)why; /* left NULL: the message says "rejected" */
    return *v > 0;
}

bool valid_shape(const validators_shape *v, const char **why)
{
    calls++;
    (void)v;
    (void)why;
    return true;
}

bool valid_port(const int64_t *v, const char **why)
{
    calls++;
    *why = "port 80 is reserved";
    return *v != 80;
}

bool valid_even(const int64_t *v, const char **why)
{
    calls++;
    *why = "odd";
    return *v % 2 == 0;
}

static void fails(const char *in, const char *message)
{
    atd_arena *arena = atd_arena_new(0, NULL);
    validators_doc doc;
    atd_error err;
    ck_assert_int_eq(validators_doc_from_json(in, strlen(in), arena, &doc, &err), ATD_ERR_INVALID);
    ck_assert_msg(strcmp(err.message, message) == 0, "%s", err.message);
    atd_arena_free(arena);
}

START_TEST(test_read)
{
    const char *in = "{\"people\":[{\"name\":\"Ann\",\"age\":30,\"email\":\"a@b\"},"
                     "{\"name\":\"Bo\",\"age\":9}],\"shapes\":[\"Dot\",[\"Circle\",1.5]]}";
    atd_arena *arena = atd_arena_new(0, NULL);
    validators_doc doc;
    atd_error err;
    calls = 0;
    ck_assert_int_eq(validators_doc_from_json(in, strlen(in), arena, &doc, &err), 0);
    /* Ann: name, age, email, person; Bo: name, age, person; Dot: shape;
     * Circle: radius, shape */
    ck_assert_int_eq(calls, 4 + 3 + 1 + 2);
    atd_arena_free(arena);
    fails("{\"people\":[{\"name\":\"\",\"age\":1}],\"shapes\":[]}",
          "line 1, column 20, at $.people[0].name: invalid value (validator valid_name): a name "
          "is not empty");
    fails("{\"people\":[{\"name\":\"x\",\"age\": 200}],\"shapes\":[]}",
          "line 1, column 31, at $.people[0].age: invalid value (validator valid_age): an age is "
          "between 0 and 150");
    fails("{\"people\":[{\"name\":\"x\",\"age\":1,\"email\":\"none\"}],\"shapes\":[]}",
          "line 1, column 40, at $.people[0].email: invalid value (validator valid_email): an "
          "email has an @");
    fails("{\"people\":[{\"name\":\"x\",\"age\":1,\"email\":\"a@b\"}],\"shapes\":[]}",
          "line 1, column 12, at $.people[0]: invalid value (validator valid_person): minors have "
          "no email here");
    fails("{\"people\":[],\"shapes\":[[\"Circle\",-1]]}",
          "line 1, column 34, at $.shapes[0][1]: invalid value (validator valid_radius): rejected");
}
END_TEST

/* A config inside a doc: the prefix and suffix around it. */
static void config_fails(const char *config, const char *message)
{
    char in[512];
    snprintf(in, sizeof in, "{\"people\":[],\"shapes\":[],\"config\":%s}", config);
    fails(in, message);
}

#define CFG(hosts, rest) "{\"hosts\":[" hosts "]," rest "}"
#define REST "\"ports\":[],\"evens\":[],\"range\":[0,0],\"level\":null"

START_TEST(test_read_checks)
{
    const char *ok = "{\"people\":[],\"shapes\":[],\"config\":" CFG(
        "{\"host\":\"a\",\"port\":1,\"weight\":0,\"backup\":65535}",
        "\"ports\":[8080],\"evens\":[2,-4],\"range\":[0,9],\"level\":10") "}";
    atd_arena *arena = atd_arena_new(0, NULL);
    validators_doc doc;
    atd_error err;
    calls = 0;
    ck_assert_int_eq(validators_doc_from_json(ok, strlen(ok), arena, &doc, &err), 0);
    ck_assert_int_eq(calls, 2 + 1 + 2); /* port, backup; ports[0]; evens */
    atd_arena_free(arena);
    /* record field through an alias: bounds, then the validator */
    config_fails(CFG("{\"host\":\"a\",\"port\":70000}", REST),
                 "line 1, column 64, at $.config.hosts[0].port: invalid value 70000: expected an "
                 "int >= 1 and <= 65535");
    config_fails(CFG("{\"host\":\"a\",\"port\":0}", REST),
                 "line 1, column 64, at $.config.hosts[0].port: invalid value 0: expected an int "
                 ">= 1 and <= 65535");
    config_fails(CFG("{\"host\":\"a\",\"port\":80}", REST),
                 "line 1, column 64, at $.config.hosts[0].port: invalid value (validator "
                 "valid_port): port 80 is reserved");
    /* string length in bytes (a 2-byte character counts 2) */
    config_fails(CFG("{\"host\":\"\",\"port\":1}", REST),
                 "line 1, column 53, at $.config.hosts[0].host: invalid string of 0 bytes: "
                 "expected a string of 1 to 16 bytes");
    config_fails(
        CFG("{\"host\":\"\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\",\"port\":1}",
            REST),
        "line 1, column 53, at $.config.hosts[0].host: invalid string of 18 bytes: "
        "expected a string of 1 to 16 bytes");
    /* a float with bounds, a default field; the option of a ? field */
    config_fails(
        CFG("{\"host\":\"a\",\"port\":1,\"weight\":100.6}", REST),
        "line 1, column 75, at $.config.hosts[0].weight: invalid value 100.59999999999999: "
        "expected a float >= 0 and <= 100.5");
    config_fails(CFG("{\"host\":\"a\",\"port\":1,\"backup\":80}", REST),
                 "line 1, column 75, at $.config.hosts[0].backup: invalid value (validator "
                 "valid_port): port 80 is reserved");
    /* list elements */
    config_fails(CFG("", "\"ports\":[1,2,65536],\"evens\":[],\"range\":[0,0],\"level\":null"),
                 "line 1, column 60, at $.config.ports[2]: invalid value 65536: expected an int "
                 ">= 1 and <= 65535");
    config_fails(CFG("", "\"ports\":[],\"evens\":[2,3],\"range\":[0,0],\"level\":null"),
                 "line 1, column 69, at $.config.evens[1]: invalid value (validator valid_even): "
                 "odd");
    /* tuple cells */
    config_fails(CFG("", "\"ports\":[],\"evens\":[],\"range\":[-1,0],\"level\":null"),
                 "line 1, column 78, at $.config.range[0]: invalid value -1: expected an int >= 0");
    config_fails(CFG("", "\"ports\":[],\"evens\":[],\"range\":[0,10],\"level\":null"),
                 "line 1, column 80, at $.config.range[1]: invalid value 10: expected an int <= 9");
    /* a nullable's value, of a narrow C type */
    config_fails(CFG("", "\"ports\":[],\"evens\":[],\"range\":[0,0],\"level\":11"),
                 "line 1, column 91, at $.config.level: invalid value 11: expected an int <= 10");
}
END_TEST

/* The alias's own reader and writer run its checks too. */
START_TEST(test_alias_checks)
{
    atd_arena *arena = atd_arena_new(0, NULL);
    validators_port p;
    atd_error err;
    ck_assert_int_eq(validators_port_from_json("443", 3, arena, &p, &err), 0);
    ck_assert_int_eq(p, 443);
    ck_assert_int_eq(validators_port_from_json(" 80", 3, arena, &p, &err), ATD_ERR_INVALID);
    ck_assert_str_eq(err.message, "line 1, column 2, at $: invalid value (validator valid_port): "
                                  "port 80 is reserved");
    ck_assert_int_eq(validators_port_from_json("0", 1, arena, &p, &err), ATD_ERR_INVALID);
    atd_arena_free(arena);
    atd_buf b;
    atd_buf_init(&b);
    atd_writer w;
    p = 0;
    atd_writer_init(&w, &b, 0);
    ck_assert(validators_port_write(&w, &p)); /* not validated by default */
    atd_buf_clear(&b);
    atd_writer_init(&w, &b, ATD_WRITE_VALIDATE);
    ck_assert(!validators_port_write(&w, &p));
    ck_assert_int_eq(atd_writer_get_error(&w, &err), ATD_ERR_INVALID);
    ck_assert_msg(strstr(err.message, "invalid value 0: expected an int >= 1 and <= 65535") != NULL,
                  "%s", err.message);
    atd_buf_free(&b);
}
END_TEST

/* Writes c with ATD_WRITE_VALIDATE: NULL when it is written, else the error
 * path and message. */
static const char *write_config(const validators_config *c, char *out, size_t cap)
{
    atd_buf b;
    atd_buf_init(&b);
    atd_writer w;
    atd_error err;
    atd_writer_init(&w, &b, ATD_WRITE_VALIDATE);
    bool ok = validators_config_write(&w, c);
    atd_buf_free(&b);
    if (ok)
        return NULL;
    atd_writer_get_error(&w, &err);
    snprintf(out, cap, "%s: %s", err.path, err.message);
    return out;
}

START_TEST(test_write_checks)
{
    validators_host hosts[2];
    validators_host_init(&hosts[0]);
    validators_host_init(&hosts[1]);
    hosts[0].host = (atd_string){"a", 1};
    hosts[0].port = 1;
    hosts[1] = hosts[0];
    int64_t ports[2] = {1, 2}, evens[2] = {2, 4};
    validators_config c;
    validators_config_init(&c);
    c.hosts.items = hosts;
    c.hosts.len = 2;
    c.ports.items = ports;
    c.ports.len = 2;
    c.evens.items = evens;
    c.evens.len = 2;
    char buf[2 * ATD_ERROR_MESSAGE_MAX + 64];
    const char *e = write_config(&c, buf, sizeof buf);
    ck_assert_msg(e == NULL, "%s", e);
    hosts[1].port = 80;
    e = write_config(&c, buf, sizeof buf);
    ck_assert_msg(e != NULL && strstr(e, "$.hosts[1].port: ") == e &&
                      strstr(e, "(validator valid_port): port 80 is reserved") != NULL,
                  "%s", e);
    hosts[1].port = 1;
    hosts[1].host.len = 0;
    e = write_config(&c, buf, sizeof buf);
    ck_assert_msg(e != NULL && strstr(e, "$.hosts[1].host: ") == e &&
                      strstr(e, "invalid string of 0 bytes") != NULL,
                  "%s", e);
    hosts[1].host.len = 1;
    hosts[0].weight = -1;
    e = write_config(&c, buf, sizeof buf);
    ck_assert_msg(e != NULL && strstr(e, "$.hosts[0].weight: ") == e, "%s", e);
    hosts[0].weight = 1;
    ports[1] = 65536;
    e = write_config(&c, buf, sizeof buf);
    ck_assert_msg(e != NULL && strstr(e, "$.ports[1]: ") == e, "%s", e);
    ports[1] = 2;
    evens[0] = 1;
    e = write_config(&c, buf, sizeof buf);
    ck_assert_msg(e != NULL && strstr(e, "$.evens[0]: ") == e && strstr(e, "odd") != NULL, "%s", e);
    evens[0] = 2;
    c.range.f1 = 10;
    e = write_config(&c, buf, sizeof buf);
    ck_assert_msg(e != NULL && strstr(e, "$.range[1]: ") == e, "%s", e);
    c.range.f1 = 0;
    c.level.has = true;
    c.level.value = 11;
    e = write_config(&c, buf, sizeof buf);
    ck_assert_msg(e != NULL && strstr(e, "$.level: ") == e, "%s", e);
    c.level.value = 10;
    e = write_config(&c, buf, sizeof buf);
    ck_assert_msg(e == NULL, "%s", e);
}
END_TEST

START_TEST(test_write)
{
    validators_person p;
    validators_person_init(&p);
    p.name = (atd_string){"", 0};
    p.age = 3;
    atd_buf b;
    atd_buf_init(&b);
    atd_writer w;
    atd_error err;
    /* not validated by default */
    atd_writer_init(&w, &b, 0);
    ck_assert(validators_person_write(&w, &p));
    ck_assert_uint_eq(b.len, strlen("{\"name\":\"\",\"age\":3}"));
    atd_buf_clear(&b);
    atd_writer_init(&w, &b, ATD_WRITE_VALIDATE);
    ck_assert(!validators_person_write(&w, &p));
    ck_assert_int_eq(atd_writer_get_error(&w, &err), ATD_ERR_INVALID);
    ck_assert_str_eq(err.path, "$.name");
    p.name = (atd_string){"Al", 2};
    p.has_email = true;
    p.email = (atd_string){"x@y", 3};
    atd_buf_clear(&b);
    atd_writer_init(&w, &b, ATD_WRITE_VALIDATE);
    ck_assert(!validators_person_write(&w, &p));
    ck_assert_int_eq(atd_writer_get_error(&w, &err), ATD_ERR_INVALID);
    ck_assert_msg(strstr(err.message, "minors have no email here") != NULL, "%s", err.message);
    p.age = 40;
    atd_buf_clear(&b);
    atd_writer_init(&w, &b, ATD_WRITE_VALIDATE);
    ck_assert(validators_person_write(&w, &p));
    atd_buf_free(&b);
}
END_TEST

static Suite *validators_suite(void)
{
    Suite *s = suite_create("validators");
    TCase *tc = tcase_create("c_validator");
    tcase_add_test(tc, test_read);
    tcase_add_test(tc, test_write);
    tcase_add_test(tc, test_read_checks);
    tcase_add_test(tc, test_alias_checks);
    tcase_add_test(tc, test_write_checks);
    suite_add_tcase(s, tc);
    return s;
}

ATD_CHECK_MAIN(validators_suite)
