#!/usr/bin/env python3
"""Self-test of atd.py and validate.py: the checker must reject the invalid
programs of atd-spec.md section 6, accept the valid corner cases, and the
validator must catch the typical schema/data mismatches."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import atd  # noqa: E402
import validate  # noqa: E402

INVALID = [
    "type _ = int",
    "type t = int (* unterminated",
    'type t = int <json name="\\u0041">',
    'type t = int <json name="\\300">',
    "type t = [ A | ]",
    "type t = { a : int b : int }",
    "type T = int",
    "type t = missing",
    "type t = int int",
    "type t = list",
    "type t = (int, int) list",
    "type 'a p = 'a list\ntype t = p",
    "type t = int\ntype t = int",
    "type string = int",
    "type t = { a : int; a : bool }",
    "type t = [ A | A ]",
    "type t = 'a list",
    "type ('a, 'a) t = 'a list",
    "type t = t",
    "type t = t list",
    "type a = b\ntype b = a",
    "type t = ()",
    "type t = [ ]",
    "type t = { }",
    "type t = { inherit int }",
    "type t = [ inherit int ]",
    "type a = { inherit b }\ntype b = { inherit a }",
    "type t = { ?x : int }",
    "type p = { x : int }\ntype t = { ~x : p }",
    'type t = { x <ocaml default="1"> : int }',
    'type t = { ?x <ocaml default="None"> : int option }',
    "type t = int shared",
    'type t = { a <json repr="x"> : int }',
    'type t = int <json repr="map">',
    'type t = float <json precision="abc">',
    'type t = (int * int) list <json repr="object">',
    'type t = [ A | B ] <json open_enum>',
    'type t = [ A | B of int ] <json open_enum>',
    'type s = string\ntype t = [ A | B of s ] <json open_enum>',
    'type t = [ A of string | B of string ] <json open_enum>',
    'type t = { a <json name="b"> : int; b : int }',
    'type t = { type : int }',
    'type t = [ A ] <json name=up>',
    "type t = [ A ] <json name='up'>",
    'type t = { default : int; default_ : int }',
    'type t = int <c repr="int128">',
    'type t = string <c repr="int32">',
    'type t = { ~m <ocaml default="Nope"> : [ A | B ] }',
]

VALID = [
    "type from = int",
    "type t = { from : int; import : string; as : bool }",
    "type t = { x' : int; types : int; offset : int }",
    "type t = [ A <json name='Up'> ]",
    "type t = (int)",
    "type t = (: int * bool)",
    "(* a (* b *) c *) type t = int",
    '(* see "*)" here *) type t = int',
    "(* it's *) (**) type t = int",
    "type 'a p = { x : 'a }\ntype t = { inherit int p; y : int }",
    "type b = { a : int; b : string }\ntype e = { z : bool; inherit b; a : float; c : int }",
    "type t = [ | A | B ]",
    "type t = { a : int; }",
    "type t = { ~w <ocaml default=\"3\"> : int wrap }",
    'type t = [ A | Other of string ] <json open_enum>',
    "type tree = [ Leaf | Node of (tree * tree) ]",
    "type a = { b : b option }\ntype b = [ A of a ]",
    'type t = (string * int) list <json repr="object">',
    'type k = string wrap\ntype t = (k * int) list <json repr="object">',
    '<doc text="x"> type t = int <python whatever="1"> <ocaml repr="int64">',
]


def run():
    fails = 0
    for src in INVALID:
        _, errs, _ = atd.check(src)
        if not errs:
            print("NOT REJECTED: %r" % src)
            fails += 1
    for src in VALID:
        _, errs, _ = atd.check(src)
        if errs:
            print("REJECTED VALID: %r: %s" % (src, errs))
            fails += 1
    # inheritance order (5.6)
    mod = atd.Module("type base = { a : int; b : string }\n"
                     "type ext = { z : bool; inherit base; a : float; c : int }")
    names = [f[2] for f in mod.record_fields(mod.defs["ext"].expr)]
    if names != ["z", "b", "a", "c"]:
        print("bad inheritance order: %s" % names)
        fails += 1
    # data checks
    cases = [
        ("type r = { x : int }", '{"x": 9223372036854775808}', 1, 0),
        ("type r = { x : int }", '{"x": 2.0}', 1, 0),
        ("type r = { x : int }", '{"x": "2"}', 1, 0),
        ("type r = { x : int }", '{"x": 1, "y": 2}', 0, 1),
        ("type r = { x : int }", '{}', 1, 0),
        ("type r = { x : int nullable }", '{"x": null}', 0, 0),
        ("type r = { ?x : int option }", '{"x": null}', 1, 0),
        ("type r = { ?x : int nullable option } <json keep_nulls>", '{"x": null}', 0, 0),
        ("type r = { ?x : int option }", '{}', 0, 0),
        ("type r = { ~x : int }", '{"x": 0}', 1, 0),
        ("type r = { ~x <ocaml default=\"3\"> : int }", '{"x": 3}', 1, 0),
        ("type r = (int * float)", '[1, 2]', 0, 0),
        ("type r = (int * float)", '[1]', 1, 0),
        ("type r = [ A | B of int ]", '["B", 1]', 0, 0),
        ("type r = [ A | B of int ]", '["A"]', 1, 0),
        ("type r = [ A | B of int ] list", '["A", "C"]', 1, 0),
        ("type r = [ A | Other of string ] <json open_enum> list", '["A", "C"]', 0, 0),
        ("type r = int option list", '["None", ["Some", 1]]', 0, 0),
        ("type r = int option", 'null', 1, 0),
        ("type r = (string * int) list <json repr=\"object\">", '{"a": 1, "b": 2}', 0, 0),
        ("type r = (string * int) list <json repr=\"object\">", '{"a": 1.5}', 1, 0),
        ("type r = abstract list", '[1, "a", null, {"x": []}]', 0, 0),
        ("type r = unit", 'null', 0, 0),
        ("type r = bool", '"true"', 1, 0),
    ]
    import json
    for schema, data, nerr, nunk in cases:
        mod = atd.Module(schema)
        v = validate.Validator(mod)
        v.check(json.loads(data, parse_float=validate.FloatLit,
                           object_pairs_hook=validate.Obj),
                ("name", "r", [], [], None), "")
        if v.nerrors != nerr or sum(v.unknown.values()) != nunk:
            print("data case %r / %s: errors=%d (want %d) unknown=%d (want %d) %s"
                  % (schema, data, v.nerrors, nerr, sum(v.unknown.values()), nunk, v.errors))
            fails += 1
    print("selftest: %s" % ("OK" if not fails else "%d failure(s)" % fails))
    return fails


if __name__ == "__main__":
    sys.exit(1 if run() else 0)
