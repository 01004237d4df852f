/* The decorated IR ("C IR") that lower.c builds from a checked ATD module and
 * that the emitters read, and only read (the idea of atdgen's mapping.mli).
 * Every decision about C names, C types, JSON names, defaults and pointers is
 * made in lower.c and recorded here; emitters never look at the AST.
 *
 * An ir_type is one C type: either a scalar (int64_t, double, atd_string...,
 * no C definition of its own) or a composite that gets a C definition and its
 * own functions (record, enum, tagged sum, tuple, list, association list,
 * option, nullable). Composite types are deduplicated where the wire format is
 * structural (lists, options, tuples...) and nominal where ATD is (each record
 * or sum written in the schema is its own type). Parametrized ATD types are
 * already monomorphized: one ir_type per closed instantiation.
 *
 * An ir_def is one ATD type definition: its public C name, and the ir_type it
 * denotes. When the definition introduced that type (a record, a sum, or the
 * first `int list` named by `type ints = int list`) the type carries the
 * definition's name; otherwise the definition is emitted as a typedef. */
#ifndef ATDC_IR_H
#define ATDC_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "syntax/ast.h"

typedef struct ir_type ir_type;

typedef enum ir_kind {
    IR_UNIT,     /* uint8_t placeholder, JSON null */
    IR_BOOL,     /* bool */
    IR_INT,      /* int64_t or a narrower repr */
    IR_FLOAT,    /* double or float */
    IR_STRING,   /* atd_string */
    IR_ABSTRACT, /* atd_json */
    IR_WRAP,     /* T wrap <c t="U" wrap="f" unwrap="g">: user type U, wire type T */
    IR_RECORD,   /* struct */
    IR_ENUM,     /* sum of nullary constructors only: C enum */
    IR_SUM,      /* tagged union */
    IR_TUPLE,    /* struct { f0, f1, ... } */
    IR_LIST,     /* struct { T *items; size_t len; } */
    IR_ASSOC,    /* (string * T) list <json repr="object">: list of {key, value} */
    IR_OPTION,   /* struct { bool has; T value; } as "None" / ["Some", v] */
    IR_NULLABLE  /* struct { bool has; T value; } as null / v */
} ir_kind;

typedef enum ir_int_repr {
    IR_INT64,
    IR_INT8,
    IR_INT16,
    IR_INT32,
    IR_UINT8,
    IR_UINT16,
    IR_UINT32
} ir_int_repr;

/* How a value whose JSON form has a bounded size is written by the record,
 * list and tuple writers: one buffer reservation for the separator, the key
 * and the value, then unchecked writes (lower.c decides, emit_write.c
 * prints). Everything else (strings, containers, wraps, imported types,
 * <json repr="string">, <json repr="int">, <json precision>) is NONE and
 * goes through its checked writer. */
typedef enum ir_fixed {
    IR_FIXED_NONE,
    IR_FIXED_NULL,  /* unit: null */
    IR_FIXED_BOOL,  /* true or false */
    IR_FIXED_INT,   /* atd_write_int64 */
    IR_FIXED_FLOAT, /* atd_write_double, after atd_writer_finite */
    IR_FIXED_ENUM   /* the constructor's literal, after a range check of the tag */
} ir_fixed;

/* The checks of one annotated type expression: <c validator="fn"> and the
 * declarative <c min max> (int, float) and <c min_len max_len> (string,
 * length in bytes), run on a value once read and, with ATD_WRITE_VALIDATE,
 * before it is written. A slot's checks are a chain through the aliases it
 * names, the innermost alias's first: with `type port = int <c min="1">`,
 * `p : port <c validator="v">` checks min, then v. */
typedef struct ir_check {
    const char *validator;         /* or NULL */
    const char *min, *max;         /* C constants (int64 or double), or NULL */
    const char *min_len, *max_len; /* decimal byte counts, or NULL */
    const char *expected;          /* what min..max_len accept, for messages */
    const struct ir_check *next;
} ir_check;

/* A place that holds a value: a member of a struct, a list element... When
 * `ptr` is set the member is a pointer to the value (arena-allocated), which
 * is how recursive types get their indirection. */
typedef struct ir_slot {
    ir_type *type;
    bool ptr;
    const ir_check *check; /* the value's checks, or NULL */
    /* The lazy format only (emit_lazy.c; JSON and biniou ignore them): a
     * record field's or an association list value's type written with
     * <c lazy> (stored out of line) or, on a string, <c shared>. */
    bool lz_lazy;
    bool lz_shared;
    ast_loc lz_loc; /* where the annotation is */
} ir_slot;

/* atdgen's built-in JSON adapters on a sum (check_adapter.h). */
typedef enum ir_adapter {
    IR_ADAPTER_NONE,
    IR_ADAPTER_TYPE_FIELD, /* {"type":"Circle","radius":2}; also "Dot" and ["Circle",{...}] */
    IR_ADAPTER_ONE_FIELD   /* {"Circle":{...}}; also "Dot" and ["Circle",{...}] */
} ir_adapter;

/* atdgen's Type_and_value_fields on a record (check_adapter.h): the record's
 * field `value`, of a sum type, is read from the JSON field of that name as
 * the argument of the constructor that the type field names, or is that
 * nullary constructor when the field is missing; with known tags, any other
 * tag is the catch-all constructor `catch_all`, of argument (string * T):
 * the tag and the value. Written back the same way (emit_adapter.c). */
typedef struct ir_tv {
    const char *type_field;
    size_t type_field_len;
    size_t value;             /* index of the value field */
    const char **known;       /* the known tags, when has_known */
    size_t *known_lens;
    size_t nknown;
    bool has_known;
    int catch_all;            /* index of the catch-all case, or -1 */
} ir_tv;

typedef enum ir_default_kind {
    IR_DEFAULT_ZERO,   /* all-zero bytes: 0, false, "", [], None, tag 0... */
    IR_DEFAULT_EXPR,   /* a scalar C constant expression (c_expr) */
    IR_DEFAULT_STRING, /* a string literal (bytes, len) */
    IR_DEFAULT_OPAQUE  /* a composite's default (a braced <c default>, an OCaml
                        * value such as Some 3): a file-scope static const
                        * object initialized with c_expr, assigned by the
                        * reader, compared by the writer through the type's
                        * equal function (a <c t> wrap: never compared) */
} ir_default_kind;

typedef struct ir_default {
    ir_default_kind kind;
    const char *c_expr; /* EXPR and OPAQUE */
    const char *bytes;  /* STRING */
    size_t len;
} ir_default;

typedef enum ir_field_kind {
    IR_FIELD_REQUIRED, /*  x : T      -> T x;                 */
    IR_FIELD_OPTIONAL, /* ?x : U opt  -> bool has_x; U x;     */
    IR_FIELD_DEFAULT   /* ~x : T      -> T x; (default value) */
} ir_field_kind;

typedef struct ir_field {
    ir_field_kind kind;
    const char *atd_name;  /* for messages */
    const char *c_name;    /* member name (mangled) */
    const char *json_name; /* bytes on the wire (may contain anything) */
    size_t json_len;
    ir_slot slot;          /* OPTIONAL: the unwrapped U */
    ir_default dflt;       /* DEFAULT only */
    int required_index;    /* index among required fields, or -1 */
    const char *doc;       /* <doc text> of the field, or NULL */
    uint32_t bin_hashtag;  /* biniou: hash of the ATD name | 0x80000000 */
    ast_loc loc;           /* the whole field as written (atdc diff's reports) */
} ir_field;

typedef struct ir_case {
    const char *atd_name;   /* constructor as written in ATD */
    const char *member;     /* union member name (mangled) */
    const char *const_name; /* enum constant, e.g. EVENT_SHAPE_CIRCLE */
    const char *json_name;
    size_t json_len;
    ir_slot arg;            /* arg.type NULL for a nullary constructor */
    bool catch_all;         /* the string constructor of an open_enum */
    const char *doc;        /* <doc text> of the constructor, or NULL */
    ast_loc loc;            /* the constructor's name (clash reports) */
    uint32_t bin_hashtag;   /* biniou: hash of the ATD name, | 0x80000000 with an argument */
} ir_case;

typedef struct ir_cell {
    ir_slot slot;
    bool has_default;
    ir_default dflt;
} ir_cell;

struct ir_type {
    ir_kind kind;
    int id;                /* creation order, for determinism */
    const char *name;      /* C type name: "event_event", "int64_t", "atd_string" */
    const char *fn;        /* prefix of its functions (composite only): "event_event" */
    const char *short_name;/* name without the module prefix, for derived names */
    const char *atd_name;  /* for messages: record 'event' */
    const char *key;       /* structural identity (dedup), NULL for nominal types */
    const char *owner;     /* the ATD definition that named it, or NULL */
    ast_loc loc;           /* where it was introduced (clash reports) */
    /* IR_INT */
    ir_int_repr int_repr;
    bool int_as_string;    /* <json repr="string"> */
    unsigned bin_int;      /* biniou tag written: <biniou repr>, svint by default */
    /* IR_FLOAT */
    bool float32;          /* <c repr="float"> */
    int precision;         /* <json precision>, 0 when absent */
    bool float_as_int;     /* <json repr="int"> */
    bool bin_float32;      /* <biniou repr="float32"> */
    /* IR_LIST */
    bool bin_table;        /* <biniou repr="table">: a list of records as a table */
    /* IR_ASSOC: <c index>, the lazy format's sorted, searchable map */
    bool lz_index;
    /* IR_RECORD */
    ir_field *fields;
    size_t nfields;
    size_t nrequired;
    bool keep_nulls;
    /* IR_ENUM, IR_SUM */
    ir_case *cases;
    size_t ncases;
    bool open_enum;
    bool json_object;      /* IR_SUM <json repr="object">: {"Name":v} */
    ir_adapter adapter;    /* IR_SUM: atdgen's built-in JSON adapter, if any */
    const char *c_adapter; /* IR_RECORD, IR_SUM, IR_ENUM: <json adapter.c="NAME">, or NULL */
    const char *validator; /* IR_RECORD, IR_SUM, IR_ENUM: <c validator="fn">, or NULL */
    const ir_tv *tv;       /* IR_RECORD: Type_and_value_fields, or NULL */
    const char *type_field; /* IR_ADAPTER_TYPE_FIELD: the key naming the constructor */
    size_t type_field_len;
    /* IR_RECORD, the argument of a Type_field sum: it also has a writer
     * that starts after a given `{"type":"Name"` and leaves out its own
     * field of that name (emit_adapter.c). Several such sums agree on the
     * name, or the record has no field of any of their names. */
    const char *tagged_by;
    size_t tagged_by_len;
    /* IR_WRAP: elem is the wire type; name is the user type (<c t>) */
    const char *wrap_fn;   /* U wrap_fn(T) */
    const char *unwrap_fn; /* T unwrap_fn(U) */
    /* IR_TUPLE */
    ir_cell *cells;
    size_t ncells;
    size_t nmin_cells;     /* cells that must be present in the input */
    /* IR_LIST, IR_ASSOC (the value), IR_OPTION, IR_NULLABLE */
    ir_slot elem;          /* and IR_WRAP (the wire type) */
    /* A type of another schema (`mod.t`): name and fn are that schema's,
     * nothing is emitted for it here, and it is not in ir_module.types. Its
     * kind is IR_ENUM for a sum of nullary constructors, else IR_RECORD
     * (only the names matter: its read, write and init functions exist). */
    bool imported;
    /* How it is written after one reservation, and the largest size of its
     * JSON form as a C constant expression ("ATD_INT64_CHARS",
     * "ATD_LEN(\"false\")"); NULL for an enum, whose writer takes the
     * length of its longest literal. */
    ir_fixed fixed;
    const char *fixed_max;
    /* Named by the schema, by a definition of its own (not a typedef of
     * it) or by a <c name> on the type expression: its functions are the
     * schema's API. Every other composite (an anonymous `int list`, an
     * instance of a parametrized type, an inline record) has static
     * functions in the generated source only. */
    bool exported;
    /* It holds abstract somewhere inside (lower_bin.c, --biniou-skip-abstract
     * only): no biniou functions. */
    bool bin_skip;
    /* filled by sort.c */
    int scc;               /* strongly connected component of by-value edges */
    int mark;              /* scratch for graph walks */
};

/* An annotation whose meaning depends on the C types that lowering
 * computed: lowering records each one where it meets it, in that order, and
 * translates it as well as it can without reporting anything; the checker
 * (check/check_lowered.c) judges them on the finished module. */
typedef enum ir_use_kind {
    IR_USE_C_DEFAULT,     /* f, a <c default>, for a value of type t */
    IR_USE_OCAML_DEFAULT, /* f, an <ocaml default>, for a value of type t */
    IR_USE_CHECKS,        /* the <c validator>, <c min> ... of `annots`, type t */
    IR_USE_RECORD_ADAPTER, /* the adapter annotations `annots` of record t */
    IR_USE_SUM_ADAPTER     /* the adapter annotations `annots` of sum t */
} ir_use_kind;

typedef struct ir_use {
    ir_use_kind kind;
    const ast_annots *annots;
    const ast_annot_field *f; /* the default's annotation field */
    const ir_type *t;
    ast_loc loc;     /* the field or cell the default is for */
    bool ocaml_wrap; /* OCAML_DEFAULT: t is the wire type of an <ocaml t> wrap */
    bool own;        /* CHECKS: the node's own <c validator> counts (not a record or sum) */
} ir_use;

/* A limit of lowering that a schema reached (lowering stops there). */
typedef enum ir_limit {
    IR_LIMIT_NONE,
    IR_LIMIT_NESTING,   /* lower_type nested NEST_MAX deep, aliases counted */
    IR_LIMIT_INSTANCES  /* more than INSTANCES_MAX instantiations */
} ir_limit;

/* One ATD type definition. */
typedef struct ir_def {
    const char *atd_name;
    const char *c_name; /* public type name and function prefix: event_event */
    ir_type *type;      /* what it denotes */
    bool is_typedef;    /* type->name != c_name: emitted as typedef + wrappers */
    const ir_check *check; /* of its right-hand side (an alias of a scalar...), or NULL */
    const char *doc;    /* <doc text>, or NULL */
    ast_loc loc;        /* the definition's name (clash reports) */
    bool bin_skip;      /* its type holds abstract: no biniou functions (lower_bin.c) */
    const char *bin_skip_way; /* then the way to it ("t.f[]"); NULL: it is abstract */
} ir_def;

typedef struct ir_module {
    const char *source_name; /* "event.atd" (base name only: no paths in output) */
    const char *base;        /* "event" */
    const char *prefix;      /* "event_" */
    const char *guard;       /* "EVENT_ATD_H" */
    ir_type **types;         /* every composite type, in definition order (sort.c) */
    size_t ntypes;
    ir_type **scalars;       /* scalar types (for completeness, not emitted) */
    size_t nscalars;
    ir_def *defs;            /* ATD definitions that are emitted (not generic ones) */
    size_t ndefs;
    const char **c_includes; /* <c include="<h.h>"> values, in order */
    size_t nc_includes;
    const char **includes;   /* base names of the imported schemas: #include "b.h" */
    size_t nincludes;
    /* Why there can be no biniou code: the first `abstract` (no binary
     * form) and the first imported type, and where they are. */
    bool bin_abstract;
    ast_loc bin_abstract_loc;
    bool bin_imported;
    ast_loc bin_imported_loc;
    ir_use *uses; /* the annotations the checker judges on the IR, in lowering order */
    size_t nuses;
    ir_limit limit; /* a limit lowering reached, where, and its value */
    ast_loc limit_loc;
    int limit_max;
    bool biniou;             /* emit biniou code too (lower_options.biniou) */
    bool lazy;               /* emit the lazy format's API too (lower_options.lazy, emit_lazy.c) */
    bool types_only;         /* atdc --types-only: C types and init functions, nothing else */
    bool no_stream;          /* atdc --no-stream: no next_line, next_element, write_line */
    bool no_pretty;          /* atdc --no-pretty: no to_json_pretty */
} ir_module;

/* Helpers shared by the emitters. */
static inline bool ir_is_composite(const ir_type *t)
{
    return t->kind >= IR_RECORD;
}

/* The slots of composite t, i < ir_nslots(t): a record's fields, a sum's
 * constructor arguments, a tuple's cells, the element of a list, option or
 * nullable, an association list's value, a wrap's wire type. */
static inline size_t ir_nslots(const ir_type *t)
{
    switch (t->kind) {
    case IR_RECORD:
        return t->nfields;
    case IR_SUM:
        return t->ncases;
    case IR_TUPLE:
        return t->ncells;
    case IR_LIST:
    case IR_ASSOC:
    case IR_OPTION:
    case IR_NULLABLE:
    case IR_WRAP:
        return 1;
    default:
        return 0;
    }
}

/* Slot i of t, or NULL for a constructor without argument. */
static inline const ir_slot *ir_slot_at(const ir_type *t, size_t i)
{
    switch (t->kind) {
    case IR_RECORD:
        return &t->fields[i].slot;
    case IR_SUM:
        return t->cases[i].arg.type != NULL ? &t->cases[i].arg : NULL;
    case IR_TUPLE:
        return &t->cells[i].slot;
    default:
        return &t->elem;
    }
}

/* The values a <c repr> of int holds, and its name in <c repr>. */
static inline void ir_int_range(ir_int_repr r, int64_t *lo, int64_t *hi)
{
    static const int64_t los[] = {INT64_MIN, INT8_MIN, INT16_MIN, INT32_MIN, 0, 0, 0};
    static const int64_t his[] = {INT64_MAX, INT8_MAX, INT16_MAX, INT32_MAX,
                                  UINT8_MAX, UINT16_MAX, UINT32_MAX};
    *lo = los[r];
    *hi = his[r];
}

static inline const char *ir_int_repr_name(ir_int_repr r)
{
    static const char *const names[] = {"int64", "int8", "int16", "int32",
                                        "uint8", "uint16", "uint32"};
    return names[r];
}

#endif
