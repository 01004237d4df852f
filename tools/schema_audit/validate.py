#!/usr/bin/env python3
"""Check JSON data files against ATD schemas, following atdgen's standard JSON
conventions (/work/shared/docs/atd-spec.md, Part II).

Usage:
  validate.py                       check every schemas/<name>.atd against
                                    <data-dir>/<name>.json (type `root`)
  validate.py SCHEMA.atd TYPE FILE.json...
  validate.py --check SCHEMA.atd... only parse and check the schemas
Options: --data-dir DIR (default /work/shared/data/bench), --max N (errors
shown per file, default 20).

Errors (the file would not be read by a generated reader, or would not be
read back to the same value):
  - wrong JSON type; missing required field; unknown constructor;
  - an `int` given a literal with a fraction/exponent, or outside int64;
  - a quoted int/float/bool (atdgen accepts it but writes a number, so the
    value changes kind on a round trip);
  - `null` for a `?`/`~` field without <json keep_nulls> (read as absent,
    then omitted on write);
  - a `~` field holding its default (omitted on write);
Warnings:
  - unknown keys (atdgen skips them: the data is not fully typed);
  - tuple elements beyond the tuple's length (skipped);
  - ints outside OCaml's 63-bit range (not portable to OCaml peers).
Notes (counted, not failures):
  - integer literals read by a `float` (written back with ".0").
Exit status 0 when every file has no error and no unknown key.
"""

import json
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import atd  # noqa: E402
from atd import annot_get, annot_flag, json_name  # noqa: E402

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
INT62_MIN, INT62_MAX = -(1 << 62), (1 << 62) - 1
HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMAS = os.path.normpath(os.path.join(HERE, "..", "..", "schemas"))


class FloatLit(float):
    def __new__(cls, text):
        o = float.__new__(cls, text)
        o.text = text
        return o


class Obj:
    """A JSON object with its key order and duplicates."""
    __slots__ = ("pairs",)

    def __init__(self, pairs):
        self.pairs = pairs


def load_json(path):
    with open(path, "rb") as f:
        return json.loads(f.read().decode("utf-8"), parse_float=FloatLit,
                          object_pairs_hook=Obj,
                          parse_constant=lambda c: FloatLit(c))


def jtype(v):
    if v is None:
        return "null"
    if v is True or v is False:
        return "bool"
    if isinstance(v, FloatLit):
        return "float"
    if isinstance(v, int):
        return "int"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


def equal_json(a, b):
    if isinstance(a, Obj) and isinstance(b, Obj):
        return [(k, ) for k, _ in a.pairs] == [(k, ) for k, _ in b.pairs] and \
            all(equal_json(x, y) for (_, x), (_, y) in zip(a.pairs, b.pairs))
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(equal_json(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


class Validator:
    def __init__(self, mod, max_errors=20):
        self.m = mod
        self.errors = []
        self.nerrors = 0
        self.max = max_errors
        self.unknown = defaultdict(int)    # "path.key" -> count
        self.warnings = defaultdict(int)
        self.notes = defaultdict(int)

    def error(self, path, msg):
        self.nerrors += 1
        if len(self.errors) < self.max:
            self.errors.append("%s: %s" % (path or "(root)", msg))

    # -- resolution with caching of record/sum expansions
    def fields_of(self, r):
        fs = self.m.record_fields(r)
        return fs, {json_name(f[2], f[3]): f for f in fs}

    def variants_of(self, r):
        vs = self.m.sum_variants(r)
        return vs, {json_name(v[1], v[2]): v for v in vs}

    def resolve(self, t):
        return self.m.resolve(t)   # aliases and wrap

    def check(self, v, t, path):
        r = self.resolve(t)
        k = r[0]
        jt = jtype(v)
        if k == "name":
            n = r[1]
            ann = r[3]
            if n == "unit":
                if jt != "null":
                    self.error(path, "expected null (unit), got %s" % jt)
            elif n == "bool":
                if jt == "string" and v in ("true", "false"):
                    self.error(path, "quoted bool (accepted, but written back unquoted)")
                elif jt != "bool":
                    self.error(path, "expected bool, got %s" % jt)
            elif n == "int":
                if jt == "string":
                    if annot_get(ann, "json", "repr") != "string":
                        self.error(path, "quoted int %r (accepted by atdgen, written "
                                   "back as a number)" % v)
                elif jt == "float":
                    self.error(path, "int expected, got non-integer literal %s" % v.text)
                elif jt != "int":
                    self.error(path, "expected int, got %s" % jt)
                else:
                    if not INT64_MIN <= v <= INT64_MAX:
                        self.error(path, "int %d outside int64" % v)
                    elif not INT62_MIN <= v <= INT62_MAX:
                        self.warnings["int outside OCaml's 63-bit range at " + path] += 1
                    if annot_get(ann, "json", "repr") == "string":
                        self.notes["int read from a number, written as a string"] += 1
            elif n == "float":
                if jt == "int" and annot_get(ann, "json", "repr") != "int":
                    self.notes["integer literal read as float (written back with .0): "
                               + self.generic(path)] += 1
                elif jt == "string":
                    self.error(path, "quoted float (accepted, written back as a number)")
                elif jt not in ("float", "int"):
                    self.error(path, "expected number, got %s" % jt)
            elif n == "string":
                if jt != "string":
                    self.error(path, "expected string, got %s" % jt)
            elif n == "abstract":
                pass
            elif n == "list":
                el = r[2][0]
                if annot_get(ann, "json", "repr") == "object":
                    if jt != "object":
                        self.error(path, "expected object (repr=object), got %s" % jt)
                        return
                    tup = self.resolve(el)
                    vt = tup[1][1][1]
                    for key, x in v.pairs:
                        self.check(x, vt, path + "." + "*")
                else:
                    if jt != "array":
                        self.error(path, "expected array, got %s" % jt)
                        return
                    for x in v:
                        self.check(x, el, path + "[]")
            elif n == "option":
                if v == "None":
                    return
                if jt == "array" and len(v) == 2 and v[0] == "Some":
                    self.check(v[1], r[2][0], path + "<Some>")
                else:
                    self.error(path, "expected \"None\" or [\"Some\", v], got %s" % jt)
            elif n == "nullable":
                if v is not None:
                    self.check(v, r[2][0], path)
            else:
                self.error(path, "unsupported type %s" % n)
        elif k == "tuple":
            if jt != "array":
                self.error(path, "expected array (tuple), got %s" % jt)
                return
            cells = r[1]
            need = 0
            for i, (ann, _) in enumerate(cells):
                if annot_get(ann, "c", "default") is None and annot_get(ann, "ocaml", "default") is None:
                    need = i + 1
            if len(v) < need:
                self.error(path, "tuple needs at least %d elements, got %d" % (need, len(v)))
            if len(v) > len(cells):
                self.warnings["extra tuple elements skipped at " + self.generic(path)] += 1
            for i, (ann, ct) in enumerate(cells):
                if i < len(v):
                    self.check(v[i], ct, "%s[%d]" % (path, i))
        elif k == "record":
            if jt != "object":
                self.error(path, "expected object (record), got %s" % jt)
                return
            fields, table = self.fields_of(r)
            keep = annot_flag(r[2], "json", "keep_nulls")
            present = {}
            for key, x in v.pairs:
                f = table.get(key)
                if f is None:
                    self.unknown[self.generic(path) + "." + key] += 1
                    continue
                present[key] = True
                kind, ft = f[1], f[4]
                if kind in ("?", "~") and x is None and not keep:
                    self.error(path + "." + key, "null for a %s field is read as "
                               "absent and omitted on write" % kind)
                    continue
                if kind == "?":
                    ft = self.m.resolve(ft, through_wrap=False)[2][0]
                self.check(x, ft, path + "." + key)
                if kind == "~" and self.is_default(x, f):
                    self.error(path + "." + key, "~ field holds its default: omitted on write")
            for f in fields:
                jn = json_name(f[2], f[3])
                if f[1] == "" and jn not in present:
                    self.error(path, "missing required field %r" % jn)
        elif k == "sum":
            variants, table = self.variants_of(r)
            if jt == "string":
                vv = table.get(v)
                if vv is not None and vv[3] is None:
                    return
                if annot_flag(r[2], "json", "open_enum"):
                    return
                self.error(path, "unknown or non-nullary constructor %r" % v)
            elif jt == "array" and len(v) == 2 and isinstance(v[0], str):
                vv = table.get(v[0])
                if vv is None or vv[3] is None:
                    self.error(path, "unknown constructor with argument %r" % v[0])
                else:
                    self.check(v[1], vv[3], "%s<%s>" % (path, v[0]))
            else:
                self.error(path, "expected a constructor (string or [name, v]), got %s" % jt)
        else:
            self.error(path, "cannot check %s" % k)

    def is_default(self, x, f):
        """Does JSON value x equal the default of ~ field f? (common cases)"""
        ann, t = f[3], f[4]
        o = annot_get(ann, "ocaml", "default")
        r = self.m.resolve(t, through_wrap=False)
        n = r[1] if r[0] == "name" else r[0]
        if o is None:
            implicit = {"bool": False, "int": 0, "float": 0.0, "string": "",
                        "list": [], "option": "None"}
            return n in implicit and x == implicit[n] and \
                (n != "bool" or isinstance(x, bool)) and \
                (n not in ("int", "float") or not isinstance(x, bool))
        s = o.strip().strip("()").replace(" ", "")
        try:
            if n == "int":
                return not isinstance(x, bool) and x == int(s)
            if n == "float":
                return not isinstance(x, bool) and x == float(s)
        except ValueError:
            return False
        if n == "bool":
            return x is (s == "true")
        if n == "string":
            return x == json.loads(o)
        if n == "list":
            return x == []
        if n == "option":
            return x == "None"
        if n == "sum":
            return x == s.lstrip("`")
        return False

    @staticmethod
    def generic(path):
        """Path with array indices merged."""
        import re
        return re.sub(r"\[\d+\]", "[]", path)


def validate_file(mod, tname, path, max_errors):
    v = Validator(mod, max_errors)
    data = load_json(path)
    v.check(data, ("name", tname, [], [], None), "")
    return v


def check_schema(path):
    with open(path) as f:
        src = f.read()
    mod, errs, warns = atd.check(src)
    return mod, errs, warns


def report(schema, tname, files, max_errors):
    mod, errs, warns = check_schema(schema)
    ok = True
    print("== %s  (%d types)" % (schema, len(mod.defs) if mod else 0))
    for e in errs:
        print("  schema error: " + e)
    for w in warns:
        print("  schema warning: " + w)
    if errs:
        return False
    for fpath in files:
        v = validate_file(mod, tname, fpath, max_errors)
        status = "OK" if not v.nerrors and not v.unknown else "FAIL"
        ok = ok and status == "OK"
        print("  %s as %s: %s  errors=%d unknown-keys=%d" % (
            fpath, tname, status, v.nerrors, sum(v.unknown.values())))
        for e in v.errors:
            print("    error: " + e)
        for k, n in sorted(v.unknown.items()):
            print("    unknown key (skipped by atdgen): %s  x%d" % (k, n))
        for k, n in sorted(v.warnings.items()):
            print("    warning: %s  x%d" % (k, n))
        for k, n in sorted(v.notes.items()):
            print("    note: %s  x%d" % (k, n))
    return ok


def main(argv):
    data_dir = "/work/shared/data/bench"
    max_errors = 20
    args = []
    check_only = False
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--data-dir":
            data_dir = argv[i + 1]; i += 1
        elif a == "--max":
            max_errors = int(argv[i + 1]); i += 1
        elif a == "--check":
            check_only = True
        elif a in ("-h", "--help"):
            print(__doc__); return 0
        else:
            args.append(a)
        i += 1
    if check_only:
        bad = False
        for s in args:
            mod, errs, warns = check_schema(s)
            print("%s: %s (%d types)" % (s, "errors" if errs else "OK",
                                        len(mod.defs) if mod else 0))
            for e in errs:
                print("  error: " + e)
            for w in warns:
                print("  warning: " + w)
            bad = bad or bool(errs)
        return 1 if bad else 0
    ok = True
    if args:
        if len(args) < 3:
            print(__doc__); return 2
        ok = report(args[0], args[1], args[2:], max_errors)
    else:
        for name in sorted(os.listdir(data_dir)):
            if not name.endswith(".json"):
                continue
            base = name[:-5]
            schema = os.path.join(SCHEMAS, base + ".atd")
            if not os.path.exists(schema):
                print("== %s: no schema %s" % (name, schema))
                ok = False
                continue
            ok = report(schema, "root", [os.path.join(data_dir, name)], max_errors) and ok
    print("RESULT: %s" % ("all OK" if ok else "FAILURES"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
