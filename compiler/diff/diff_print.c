/* Printing atdc diff's findings (diff_print.h). The JSON form is written
 * compact, then laid out by the runtime's reformatter, so that its
 * indentation is the one of every other JSON atdc prints. */
#include "diff_print.h"

#include <stdio.h>
#include <string.h>

#include "atd/flags.h"
#include "atd/pretty.h"
#include "atd/writer.h"
#include "util/alloc.h"

static const char *diff_direction_text(const diff_finding *f)
{
    switch (f->direction) {
    case DIFF_BACKWARD:
        return f->certain ? "backward incompatibility" : "possible backward incompatibility";
    case DIFF_FORWARD:
        return f->certain ? "forward incompatibility" : "possible forward incompatibility";
    case DIFF_BOTH:
        break;
    }
    return f->certain ? "incompatibility in both directions"
                      : "possible incompatibility in both directions";
}

static void diff_put_loc(atd_buf *b, const ast_loc *l)
{
    char num[48];
    atd_buf_puts(b, l->file != NULL ? l->file : "<unknown>");
    snprintf(num, sizeof num, ":%d:%d: ", l->line, l->col);
    atd_buf_puts(b, num);
}

void diff_print_text(atd_buf *b, const diff_finding *const *findings, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const diff_finding *f = findings[i];
        if (i > 0)
            atd_buf_puts(b, "\n");
        diff_put_loc(b, f->has_new ? &f->new_loc : &f->old_loc);
        atd_buf_puts(b, diff_direction_text(f));
        atd_buf_puts(b, ": ");
        atd_buf_puts(b, f->text);
        atd_buf_puts(b, "\n");
        if (f->has_new && f->has_old) {
            diff_put_loc(b, &f->old_loc);
            atd_buf_puts(b, "note: the old version\n");
        }
        atd_buf_puts(b, "  affected types:");
        for (size_t k = 0; k < f->naffected; k++) {
            atd_buf_puts(b, k == 0 ? " " : ", ");
            atd_buf_puts(b, f->affected[k]);
        }
        atd_buf_puts(b, "\n");
    }
}

/* ---- JSON ---------------------------------------------------------------- */

static void diff_json_string(atd_buf *b, const char *s)
{
    atd_buf_write_string(b, s, strlen(s), ATD_WRITE_ALLOW_INVALID_UTF8);
}

static void diff_json_pos(atd_buf *b, const char *file, int line, int col)
{
    char num[64];
    atd_buf_puts(b, "{\"path\":");
    diff_json_string(b, file != NULL ? file : "");
    snprintf(num, sizeof num, ",\"line\":%d,\"column\":%d}", line, col > 0 ? col - 1 : 0);
    atd_buf_puts(b, num);
}

static void diff_json_loc(atd_buf *b, const char *key, const ast_loc *l)
{
    atd_buf_puts(b, ",\"");
    atd_buf_puts(b, key);
    atd_buf_puts(b, "\":{\"start\":");
    diff_json_pos(b, l->file, l->line, l->col);
    atd_buf_puts(b, ",\"end\":");
    diff_json_pos(b, l->file, l->end_line, l->end_col);
    atd_buf_puts(b, "}");
}

/* atddiff's names: a bare kind, or [kind, {"field_name" or "variant_name": name}]. */
static void diff_json_kind(atd_buf *b, const diff_finding *f)
{
    static const char *const names[] = {
        [DIFF_MISSING_FIELD] = "Missing_field",
        [DIFF_MISSING_VARIANT] = "Missing_variant",
        [DIFF_MISSING_VARIANT_ARGUMENT] = "Missing_variant_argument",
        [DIFF_DEFAULT_REQUIRED] = "Default_required",
        [DIFF_DEFAULT_CHANGED] = "Default_changed",
        [DIFF_INCOMPATIBLE_TYPE] = "Incompatible_type",
        [DIFF_DELETED_TYPE] = "Deleted_type",
        [DIFF_ADDED_TYPE] = "Added_type",
    };
    if (f->name == NULL) {
        diff_json_string(b, names[f->kind]);
        return;
    }
    bool variant = f->kind == DIFF_MISSING_VARIANT || f->kind == DIFF_MISSING_VARIANT_ARGUMENT;
    atd_buf_puts(b, "[");
    diff_json_string(b, names[f->kind]);
    atd_buf_puts(b, variant ? ",{\"variant_name\":" : ",{\"field_name\":");
    diff_json_string(b, f->name);
    atd_buf_puts(b, "}]");
}

void diff_print_json(atd_buf *b, const diff_finding *const *findings, size_t n)
{
    static const char *const dirs[] = {[DIFF_BACKWARD] = "Backward", [DIFF_FORWARD] = "Forward",
                                       [DIFF_BOTH] = "Both"};
    atd_buf compact;
    atd_buf_init_with(&compact, util_allocator());
    atd_buf_puts(&compact, "{\"findings\":[");
    for (size_t i = 0; i < n; i++) {
        const diff_finding *f = findings[i];
        atd_buf_puts(&compact, i > 0 ? ",{\"finding\":{\"direction\":" : "{\"finding\":{\"direction\":");
        diff_json_string(&compact, dirs[f->direction]);
        atd_buf_puts(&compact, f->certain ? ",\"certain\":true,\"kind\":" : ",\"certain\":false,\"kind\":");
        diff_json_kind(&compact, f);
        if (f->has_old)
            diff_json_loc(&compact, "location_old", &f->old_loc);
        if (f->has_new)
            diff_json_loc(&compact, "location_new", &f->new_loc);
        atd_buf_puts(&compact, ",\"description\":");
        diff_json_string(&compact, f->text);
        atd_buf_puts(&compact, "},\"affected_types\":[");
        for (size_t k = 0; k < f->naffected; k++) {
            if (k > 0)
                atd_buf_puts(&compact, ",");
            diff_json_string(&compact, f->affected[k]);
        }
        atd_buf_puts(&compact, "]}");
    }
    atd_buf_puts(&compact, "]}");
    atd_error err;
    if (compact.status != 0)
        b->status = compact.status;
    else if (atd_json_reformat(compact.data, compact.len, b, ATD_WRITE_PRETTY, &err) != 0)
        atd_buf_append(b, compact.data, compact.len); /* names that are not UTF-8 */
    atd_buf_puts(b, "\n");
    atd_buf_free(&compact);
}
