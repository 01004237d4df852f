/* <c validator> (schemas/validators.atd): the functions below are called
 * after reading each annotated value and, with ATD_WRITE_VALIDATE, before
 * writing it; a refusal is an error at the value with its path. */
#include <check.h>
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
    suite_add_tcase(s, tc);
    return s;
}

ATD_CHECK_MAIN(validators_suite)
