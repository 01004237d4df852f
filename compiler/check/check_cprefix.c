/* The module-wide C names (check_cprefix.h). names.c makes every name from
 * the schema safe on its own; what it cannot fix is what comes before them:
 * a prefix that is not the start of an identifier, or that walks into the
 * runtime's namespace, and a file name that makes an invalid header guard.
 * Each would be accepted by --check and break the C compiler, so each is an
 * error here, saying which option or name to change. */
#include "check_cprefix.h"

#include <string.h>

#include "check_annot.h"
#include "check_cx.h"
#include "check_passes.h"
#include "util/names.h"

static bool is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Whether names made from prefix s can be the runtime's: s is "atd" or
 * starts with "atd_" in any case, since enum constants are the upper-case
 * form of the prefix (Atd_ gives ATD_JSON_NULL). */
static bool is_runtime_prefix(const char *s)
{
    static const char atd[] = "atd_";
    for (size_t i = 0; i < 4; i++) {
        char c = s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] - 'A' + 'a') : s[i];
        if (i == 3 && c == '\0')
            return true; /* "atd" gets its '_' from lowering */
        if (c != atd[i])
            return false;
    }
    return true;
}

/* What is wrong with `s` as the start of C identifiers, or NULL. */
static const char *prefix_problem(const char *s)
{
    for (const char *p = s; *p != '\0'; p++)
        if (!is_alpha(*p) && !is_digit(*p) && *p != '_')
            return "only letters, digits and '_' can start a C identifier";
    if (is_digit(s[0]))
        return "a C identifier cannot start with a digit";
    if (s[0] == '_')
        return "identifiers starting with '_' are reserved to the C implementation";
    if (is_runtime_prefix(s))
        return "atd_ and ATD_ are the runtime's names (the generated code would redefine them)";
    return NULL;
}

bool check_c_prefix(diag_ctx *d, const char *prefix, check_prefix_origin origin, ast_loc loc)
{
    if (prefix[0] == '\0')
        return true; /* no prefix: the names alone, each made safe by names.c */
    const char *why = prefix_problem(prefix);
    if (why == NULL)
        return true;
    switch (origin) {
    case CHECK_PREFIX_OPTION:
        diag_error(d, DIAG_NO_LOC, "invalid --prefix '%s': %s", prefix, why);
        break;
    case CHECK_PREFIX_ANNOT:
        diag_error(d, loc, "invalid value \"%s\" for '<c prefix>': %s", prefix, why);
        break;
    case CHECK_PREFIX_FILE_NAME:
        diag_error(d, loc,
                   "the file name gives the C prefix '%s_': %s; rename the file or give "
                   "<c prefix=\"...\"> or --prefix",
                   prefix, why);
        break;
    }
    return false;
}

bool check_c_file_name(diag_ctx *d, const char *base, const char *file, ast_loc loc)
{
    const char *why = NULL;
    if (is_digit(base[0]))
        why = "its header guard would start with a digit";
    else if (base[0] == '_' || base[0] == '\0')
        why = "its header guard would start with '_', which is reserved to the C implementation";
    else if (strcmp(base, "atd") == 0)
        why = "its header atd.h would hide the runtime's atd.h";
    if (why == NULL)
        return true;
    diag_error(d, loc, "the file name '%s' cannot name C code: %s; rename the file", file, why);
    return false;
}

/* The file name and the prefix (--prefix, else <c prefix>, else the file's
 * base name) must make valid C names; a bad file name is reported once, not
 * again as the prefix it gives. */
void check_cprefix_module(check_cx *cx)
{
    const ast_module *m = cx->m;
    const char *path = m->file != NULL ? m->file : "schema.atd";
    const char *slash = strrchr(path, '/');
    const char *base = names_base_name(cx->arena, path);
    if (base == NULL) {
        check_oom(cx);
        return;
    }
    ast_loc start = {m->file, 1, 1, 1, 1, 0, 0};
    const ast_annot_field *annot = check_annot_find(&m->annots, "c", "prefix");
    bool ok = check_c_file_name(cx->d, base, slash != NULL ? slash + 1 : path, start);
    if (cx->opts->prefix != NULL)
        check_c_prefix(cx->d, cx->opts->prefix, CHECK_PREFIX_OPTION, DIAG_NO_LOC);
    else if (annot != NULL && annot->value != NULL)
        check_c_prefix(cx->d, annot->value, CHECK_PREFIX_ANNOT, annot->value_loc);
    else if (ok)
        check_c_prefix(cx->d, base, CHECK_PREFIX_FILE_NAME, start);
}
