/* atdc's command line: parses the options into driver_options and compiles
 * each file with driver_compile_file. Nothing else lives here. The help text
 * and docs/atdc.1 describe the same options with the same words: change both
 * together. Exit status:
 * 0 success, 1 schema errors, 2 usage or I/O errors or out of memory (the worst over all
 * files). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atd/common.h"
#include "diff/diff_cli.h"
#include "driver.h"
#include "util/alloc.h"

static const char usage_text[] =
    "Usage: atdc [OPTIONS] FILE.atd...\n"
    "       atdc diff [OPTIONS] OLD.atd NEW.atd   (see atdc diff --help)\n"
    "Compile ATD schemas into C types with JSON readers and writers.\n"
    "\n"
    "Options:\n"
    "  -o DIR              write the generated files into DIR, created if needed (default: .)\n"
    "  --prefix PREFIX     prefix of the generated C names (default: the file's base name)\n"
    "  -I DIR              also search imported schemas in DIR (repeatable, in order)\n"
    "  -M                  print a make rule: outputs, then every schema read; generate nothing\n"
    "  --depfile FILE      also write that make rule to FILE while generating\n"
    "  --check             run every check of generation; write nothing\n"
    "  --print             print the schema as normalized ATD to stdout (no check)\n"
    "  --json-schema ROOT  print the JSON Schema (draft 2020-12) of type ROOT to stdout\n"
    "  --max-errors N      stop after N errors (default 20, 0 for no limit)\n"
    "  --ignore-adapters   accept JSON adapters that are OCaml code and ignore them\n"
    "  -Werror             make warnings errors\n"
    "  -Wno-KIND           silence the warnings of one KIND (see below); -WKIND restores them\n"
    "  --biniou            also generate biniou readers and writers (atdgen -b format)\n"
    "  --biniou-skip-abstract  like --biniou, leaving out the types that hold abstract\n"
    "  --lazy              also generate the lazy format's API (implies --biniou)\n"
    "  --types-only        generate the C types and their init functions only\n"
    "  --no-stream         leave out next_line, next_element and write_line\n"
    "  --no-pretty         leave out to_json_pretty\n"
    "  --no-stutter        name the type called like the schema by the bare prefix:\n"
    "                      type library in library.atd is library, not library_library\n"
    "  --help              show this help and exit\n"
    "  --version           show the version and exit\n"
    "\n"
    "FILE may be '-' to read standard input. DIR/my-schema.atd gives my_schema.h and\n"
    "my_schema.c, with the C prefix my_schema_: the file's base name without its\n"
    "extension, each character other than an ASCII letter or digit made '_'.\n"
    "`from a.b import t` in DIR/x.atd reads\n"
    "DIR/a/b.atd, else a/b.atd in each -I DIR; the generated header includes b.h.\n"
    "Warning KINDs: unknown-annotation, misplaced-annotation, ignored-annotation,\n"
    "obsolete-annotation, unused-import.\n"
    "Exit status: 0 success, 1 errors in a schema, 2 usage or I/O error, or out of memory.\n";

static int main_usage_error(const char *fmt, const char *arg)
{
    fputs("atdc: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nTry 'atdc --help' for more information.\n", stderr);
    return DRIVER_USAGE_ERROR;
}

/* Parses a non-negative decimal count; false on anything else. */
static bool main_parse_count(const char *s, int *out)
{
    if (*s == '\0')
        return false;
    long v = 0;
    for (; *s != '\0'; s++) {
        if (*s < '0' || *s > '9')
            return false;
        v = v * 10 + (*s - '0');
        if (v > 1000000)
            return false;
    }
    *out = (int)v;
    return true;
}

/* Matches `--name VALUE` and `--name=VALUE`; advances *i past the value. */
static bool main_option_value(int argc, char **argv, int *i, const char *name, const char **value,
                              bool *missing)
{
    const char *arg = argv[*i];
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0)
        return false;
    if (arg[n] == '=') {
        *value = arg + n + 1;
        return true;
    }
    if (arg[n] != '\0')
        return false;
    if (*i + 1 >= argc) {
        *missing = true;
        return true;
    }
    *value = argv[++*i];
    return true;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "diff") == 0)
        return diff_main(argc - 1, argv + 1);
    driver_options o;
    driver_options_init(&o);
    const char **files = util_calloc((size_t)argc + 1, sizeof *files);
    const char **include_dirs = util_calloc((size_t)argc + 1, sizeof *include_dirs);
    if (files == NULL || include_dirs == NULL) {
        util_free(files);
        util_free(include_dirs);
        fputs("atdc: error: out of memory\n", stderr);
        return DRIVER_USAGE_ERROR;
    }
    o.include_dirs = include_dirs;
    size_t nfiles = 0;
    bool only_files = false;
    int rc = DRIVER_OK;

    for (int i = 1; i < argc && rc == DRIVER_OK; i++) {
        const char *arg = argv[i];
        const char *value = NULL;
        bool missing = false;
        if (only_files || arg[0] != '-' || strcmp(arg, "-") == 0) {
            files[nfiles++] = arg;
        } else if (strcmp(arg, "--") == 0) {
            only_files = true;
        } else if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            fputs(usage_text, stdout);
            util_free(files);
            util_free(include_dirs);
            return DRIVER_OK;
        } else if (strcmp(arg, "--version") == 0) {
            printf("atdc %s\n", ATD_VERSION_STRING);
            util_free(files);
            util_free(include_dirs);
            return DRIVER_OK;
        } else if (strcmp(arg, "--check") == 0) {
            o.mode = DRIVER_CHECK;
        } else if (strcmp(arg, "--print") == 0) {
            o.mode = DRIVER_PRINT;
        } else if (strcmp(arg, "--dump-ast") == 0) { /* hidden: for tests */
            o.mode = DRIVER_DUMP_AST;
        } else if (strcmp(arg, "--ignore-adapters") == 0) {
            o.ignore_adapters = true;
        } else if (strcmp(arg, "--biniou") == 0) {
            o.biniou = true;
        } else if (strcmp(arg, "--biniou-skip-abstract") == 0) {
            o.biniou_skip_abstract = true;
        } else if (strcmp(arg, "--lazy") == 0) {
            o.lazy = true;
        } else if (strcmp(arg, "--types-only") == 0) {
            o.types_only = true;
        } else if (strcmp(arg, "--no-stream") == 0) {
            o.no_stream = true;
        } else if (strcmp(arg, "--no-pretty") == 0) {
            o.no_pretty = true;
        } else if (strcmp(arg, "--no-stutter") == 0) {
            o.no_stutter = true;
        } else if (strcmp(arg, "-Werror") == 0) {
            o.werror = true;
        } else if (strncmp(arg, "-W", 2) == 0) {
            bool off = strncmp(arg + 2, "no-", 3) == 0;
            diag_warn_kind kind;
            if (!diag_warn_lookup(arg + (off ? 5 : 2), &kind))
                rc = main_usage_error("unknown warning option '%s'", arg);
            else if (off)
                o.warn_disabled |= 1u << kind;
            else
                o.warn_disabled &= ~(1u << kind);
        } else if (strcmp(arg, "-M") == 0) {
            o.mode = DRIVER_DEPS;
        } else if (strncmp(arg, "-I", 2) == 0) {
            if (arg[2] != '\0')
                include_dirs[o.ninclude_dirs++] = arg + 2;
            else if (i + 1 < argc)
                include_dirs[o.ninclude_dirs++] = argv[++i];
            else
                rc = main_usage_error("option '%s' needs a directory", arg);
        } else if (main_option_value(argc, argv, &i, "--json-schema", &value, &missing)) {
            if (missing)
                rc = main_usage_error("option '%s' needs a type name", "--json-schema");
            else {
                o.mode = DRIVER_JSON_SCHEMA;
                o.json_schema_root = value;
            }
        } else if (main_option_value(argc, argv, &i, "--depfile", &value, &missing)) {
            if (missing)
                rc = main_usage_error("option '%s' needs a file name", "--depfile");
            else
                o.depfile = value;
        } else if (strncmp(arg, "-o", 2) == 0) {
            if (arg[2] != '\0')
                o.out_dir = arg + 2;
            else if (i + 1 < argc)
                o.out_dir = argv[++i];
            else
                rc = main_usage_error("option '%s' needs a directory", arg);
        } else if (main_option_value(argc, argv, &i, "--prefix", &value, &missing)) {
            if (missing)
                rc = main_usage_error("option '%s' needs a value", "--prefix");
            else
                o.prefix = value;
        } else if (main_option_value(argc, argv, &i, "--max-errors", &value, &missing)) {
            if (missing)
                rc = main_usage_error("option '%s' needs a value", "--max-errors");
            else if (!main_parse_count(value, &o.max_errors))
                rc = main_usage_error("invalid --max-errors value '%s' (expected a count)", value);
        } else {
            rc = main_usage_error("unknown option '%s'", arg);
        }
    }
    /* Types alone have no readers and writers to build biniou or lazy code on. */
    if (rc == DRIVER_OK && o.types_only && (o.biniou || o.biniou_skip_abstract || o.lazy))
        rc = main_usage_error("%s", "--types-only cannot be combined with --biniou or --lazy");
    if (rc == DRIVER_OK && nfiles == 0)
        rc = main_usage_error("%s", "no input file");
    if (rc == DRIVER_OK) {
        for (size_t i = 0; i < nfiles; i++) {
            /* Like cc -MD -MF with several inputs: one file, one rule each. */
            o.depfile_append = i > 0;
            int r = driver_compile_file(&o, files[i]);
            if (r > rc)
                rc = r;
        }
    }
    util_free(files);
    util_free(include_dirs);
    return rc;
}
