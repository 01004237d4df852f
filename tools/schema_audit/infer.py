#!/usr/bin/env python3
"""Infer the shape of JSON documents, path by path, to help write ATD schemas.

Usage: infer.py [--map PATH]... [--no-auto-maps] [--examples N] FILE.json...

Every value is filed under a *path*:
  .key      a field of an object used as a record
  []        the elements of an array (all elements merged)
  .*        the values of an object used as a map (data-dependent keys, merged)

For each path the report gives: how many values were seen, the JSON types seen
(int = integer literal, float = literal with a fraction or an exponent), whether
null occurs, in how many of the parent objects the key is missing, integer range
(and whether it exceeds int64 or OCaml's 63-bit ints), array lengths, a few
example strings and the number of distinct strings, and flags:

  HETEROGENEOUS  two or more different non-null JSON types (int+float count as
                 one "number" type; see MIXED-NUM)
  MIXED-NUM      integer literals and non-integer literals at the same path
                 (must be `float`; atdgen would write 3 back as 3.0)
  NULLABLE       null occurs
  OPTIONAL       the key is absent from some parent objects
  BAD-IDENT      the key is not a valid ATD field name (needs <json name>)
  INT64-OVERFLOW an integer outside int64 (cannot be `int`)
  INT62-OVERFLOW an integer outside OCaml's 63-bit range (not portable)
  MAP            object treated as a map: `(string * T) list <json repr="object">`

Objects are treated as maps when given with --map, or (unless --no-auto-maps)
when the heuristic below says their keys are data rather than field names:
all keys of all occurrences are decimal digits, or some key is not an
identifier-like word, or there are many distinct keys and most of them occur
in a minority of the objects.

Standard library only.
"""

import json
import re
import sys
from collections import defaultdict

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
INT62_MIN, INT62_MAX = -(1 << 62), (1 << 62) - 1

# A valid ATD field name: LIDENT (or from/import/as), and not type/of/inherit.
LIDENT_RE = re.compile(r"^(?:[a-z][A-Za-z0-9_']*|_[A-Za-z0-9_'][A-Za-z0-9_']*)$")
RESERVED = {"type", "of", "inherit"}
WORDISH_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def valid_atd_field_name(k):
    return bool(LIDENT_RE.match(k)) and k not in RESERVED


class FloatLit(float):
    """A number written with a fraction or an exponent; keeps its text."""

    def __new__(cls, text):
        obj = float.__new__(cls, text)
        obj.text = text
        return obj


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    # object_pairs_hook keeps duplicate keys and order.
    return json.loads(data.decode("utf-8"), parse_float=FloatLit,
                      object_pairs_hook=lambda pairs: ("OBJ", pairs))


def is_obj(v):
    return isinstance(v, tuple) and len(v) == 2 and v[0] == "OBJ"


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
    if is_obj(v):
        return "object"
    raise TypeError(type(v))


class Stat:
    def __init__(self):
        self.count = 0
        self.types = defaultdict(int)
        self.missing = 0          # parent objects lacking this key
        self.imin = None
        self.imax = None
        self.float_examples = []
        self.integral_floats = 0  # float literals with an integral value (e.g. 2.0)
        self.strings = defaultdict(int)
        self.arr_len = defaultdict(int)
        self.keys = defaultdict(int)   # for objects: key -> occurrences
        self.dup_keys = 0
        self.key_orders = defaultdict(int)  # tuple of keys -> occurrences
        self.empty_objects = 0
        self.positions = defaultdict(lambda: defaultdict(int))  # array index -> types

    def add(self, v):
        self.count += 1
        t = jtype(v)
        self.types[t] += 1
        if t == "int":
            self.imin = v if self.imin is None else min(self.imin, v)
            self.imax = v if self.imax is None else max(self.imax, v)
        elif t == "float":
            if len(self.float_examples) < 3:
                self.float_examples.append(v.text)
            if v == int(v) if v == v and abs(v) != float("inf") else False:
                self.integral_floats += 1
        elif t == "string":
            if len(self.strings) < 10000:
                self.strings[v] += 1
        elif t == "array":
            self.arr_len[len(v)] += 1
            if len(v) <= 8:
                for i, x in enumerate(v):
                    self.positions[i][jtype(x)] += 1
        elif t == "object":
            seen = set()
            self.key_orders[tuple(k for k, _ in v[1])] += 1
            if not v[1]:
                self.empty_objects += 1
            for k, _ in v[1]:
                if k in seen:
                    self.dup_keys += 1
                seen.add(k)
                self.keys[k] += 1


class Walker:
    def __init__(self, maps):
        self.maps = set(maps)
        self.stats = defaultdict(Stat)
        self.order = []

    def stat(self, path):
        if path not in self.stats:
            self.order.append(path)
        return self.stats[path]

    def walk(self, v, path):
        self.stat(path).add(v)
        if isinstance(v, list):
            for x in v:
                self.walk(x, path + "[]")
        elif is_obj(v):
            pairs = v[1]
            if path in self.maps:
                for _, x in pairs:
                    self.walk(x, path + ".*")
            else:
                for k, x in pairs:
                    self.walk(x, path + "." + k)

    def finish_missing(self):
        # For each record path, count parents that lack each known key.
        for path in list(self.order):
            if path in self.maps:
                continue
            s = self.stats[path]
            nobj = s.types.get("object", 0)
            for k, n in s.keys.items():
                child = self.stats.get(path + "." + k)
                if child is not None:
                    child.missing = nobj - n


def map_candidates(w):
    found = set()
    for path in w.order:
        if path in w.maps:
            continue
        s = w.stats[path]
        nobj = s.types.get("object", 0)
        if nobj == 0 or not s.keys:
            continue
        keys = list(s.keys)
        if all(k.isdigit() for k in keys):
            found.add(path)
        elif any(not WORDISH_RE.match(k) for k in keys) and len(keys) > 1:
            found.add(path)
        elif len(keys) > 30:
            minority = sum(1 for k in keys if s.keys[k] * 2 < nobj)
            if minority * 2 > len(keys):
                found.add(path)
    return found


def analyze(doc, user_maps, auto):
    maps = set(user_maps)
    while True:
        w = Walker(maps)
        w.walk(doc, "")
        if not auto:
            break
        new = map_candidates(w) - maps
        if not new:
            break
        maps |= new
    w.finish_missing()
    return w


def fmt_types(s):
    return ",".join("%s:%d" % (t, n) for t, n in sorted(s.types.items()))


def flags(path, s, w):
    fl = []
    nonnull = {t for t in s.types if t != "null"}
    kinds = {("number" if t in ("int", "float") else t) for t in nonnull}
    if len(kinds) > 1:
        fl.append("HETEROGENEOUS")
    if "int" in nonnull and "float" in nonnull:
        fl.append("MIXED-NUM")
    if "null" in s.types:
        fl.append("NULLABLE")
    if s.missing:
        fl.append("OPTIONAL")
    last = path.rsplit(".", 1)[-1] if "." in path else ""
    if path and path.endswith("." + last) and last not in ("*",) and \
            not path.endswith("[]") and not valid_atd_field_name(last):
        fl.append("BAD-IDENT")
    if s.imin is not None and (s.imin < INT64_MIN or s.imax > INT64_MAX):
        fl.append("INT64-OVERFLOW")
    if s.imin is not None and (s.imin < INT62_MIN or s.imax > INT62_MAX):
        fl.append("INT62-OVERFLOW")
    if path in w.maps:
        fl.append("MAP")
    if s.dup_keys:
        fl.append("DUP-KEYS")
    if s.empty_objects and not s.keys and path not in w.maps:
        fl.append("EMPTY-OBJECT(map?)")
    if s.arr_len and not any(s.positions.values()) and set(s.arr_len) == {0}:
        fl.append("EMPTY-ARRAY(element type unknown)")
    nn = [t for t in s.types if t != "null"]
    if s.types.get("null") and not nn:
        fl.append("ALWAYS-NULL")
    return fl


def report(name, w, examples, out):
    out.write("=" * 78 + "\n%s\n" % name)
    out.write("maps: %s\n" % (", ".join(sorted(w.maps)) or "(none)"))
    out.write("=" * 78 + "\n")
    for path in w.order:
        s = w.stats[path]
        line = "%-60s n=%d  %s" % (path or "(root)", s.count, fmt_types(s))
        if s.missing:
            line += "  missing-in=%d" % s.missing
        out.write(line + "\n")
        fl = flags(path, s, w)
        if fl:
            out.write("    flags: %s\n" % " ".join(fl))
        if s.imin is not None:
            out.write("    int range: %d .. %d\n" % (s.imin, s.imax))
        if s.float_examples:
            out.write("    float examples: %s%s\n" % (
                " ".join(s.float_examples),
                "  (integral-valued float literals: %d)" % s.integral_floats
                if s.integral_floats else ""))
        if s.strings:
            ex = sorted(s.strings, key=lambda k: -s.strings[k])[:examples]
            out.write("    strings: %d distinct; e.g. %s\n" % (
                len(s.strings), ", ".join(json.dumps(e, ensure_ascii=False)[:40] for e in ex)))
        if s.arr_len:
            lens = sorted(s.arr_len)
            out.write("    array lengths: %d .. %d (%d distinct)\n" % (
                lens[0], lens[-1], len(lens)))
            if lens[-1] <= 8 and len(lens) == 1:
                pos = ["%d:%s" % (i, "/".join(sorted(s.positions[i])))
                       for i in sorted(s.positions)]
                out.write("    fixed length; types by position: %s\n" % " ".join(pos))
        if s.keys and path not in w.maps:
            out.write("    keys (first-seen order): %s\n" % " ".join(key_union(s)))
            if len(s.key_orders) > 1:
                out.write("    key orders: %d distinct sequences\n" % len(s.key_orders))
        if s.keys and path in w.maps:
            ks = list(s.keys)
            out.write("    map keys: %d distinct; e.g. %s\n" % (
                len(ks), ", ".join(json.dumps(k, ensure_ascii=False) for k in ks[:examples])))


def key_union(s):
    """All keys in an order compatible with every occurrence, if one exists."""
    order = []
    for seq in sorted(s.key_orders, key=lambda q: -len(q)):
        pos = 0
        for k in seq:
            if k in order:
                pos = order.index(k) + 1
            else:
                order.insert(pos, k)
                pos += 1
    return order


def shape_groups(w, out):
    """Record paths with identical key sets: candidates for one shared type."""
    groups = defaultdict(list)
    for path in w.order:
        s = w.stats[path]
        if path in w.maps or not s.keys:
            continue
        groups[frozenset(s.keys)].append(path)
    shared = [g for g in groups.values() if len(g) > 1]
    if shared:
        out.write("-- same key set (candidates for a shared record type):\n")
        for g in shared:
            out.write("   " + "\n   ".join(g) + "\n\n")


def main(argv):
    user_maps = []
    auto = True
    examples = 5
    files = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--map":
            i += 1
            user_maps.append(argv[i])
        elif a == "--no-auto-maps":
            auto = False
        elif a == "--examples":
            i += 1
            examples = int(argv[i])
        elif a.startswith("-"):
            sys.stderr.write(__doc__)
            return 2
        else:
            files.append(a)
        i += 1
    if not files:
        sys.stderr.write(__doc__)
        return 2
    for f in files:
        w = analyze(load(f), user_maps, auto)
        report(f, w, examples, sys.stdout)
        shape_groups(w, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
