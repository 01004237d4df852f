"""A small, independent ATD front end (lexer, parser, checks) in Python.

Written from /work/shared/docs/atd-spec.md (Part I), to validate the example
schemas and data files without depending on the C compiler. It covers the
whole grammar of section 2 and the common static checks of sections 5 and 6;
it is a test tool, not a reference implementation.
"""

import re

PREDEF = {"unit": 0, "bool": 0, "int": 0, "float": 0, "string": 0,
          "abstract": 0, "list": 1, "option": 1, "nullable": 1, "shared": 1,
          "wrap": 1}
RESERVED = {"type", "of", "inherit"}
SOFT_KW = {"from", "import", "as"}
C_KEYWORDS = set("""auto break case char const continue default do double else
enum extern float for goto if inline int long register restrict return short
signed sizeof static struct switch typedef union unsigned void volatile while
_Alignas _Alignof _Atomic _Bool _Complex _Generic _Imaginary _Noreturn
_Static_assert _Thread_local bool true false""".split())


class AtdError(Exception):
    def __init__(self, msg, pos=None):
        self.pos = pos
        Exception.__init__(self, ("%d:%d: " % pos if pos else "") + msg)


# ----------------------------------------------------------------- lexer

IDENTCHAR = re.compile(r"[A-Za-z0-9_']*")


class Tok:
    __slots__ = ("kind", "val", "pos")

    def __init__(self, kind, val, pos):
        self.kind, self.val, self.pos = kind, val, pos

    def __repr__(self):
        return "%s(%r)@%s" % (self.kind, self.val, self.pos)


def lex(src):
    toks = []
    i, line, col0 = 0, 1, 0
    n = len(src)

    def pos(j):
        return (line, j - col0 + 1)

    def read_string(j, quote):
        # j points after the opening quote; returns (value, new index)
        nonlocal line, col0
        out = bytearray()
        while True:
            if j >= n:
                raise AtdError("unterminated string", pos(j))
            c = src[j]
            if c == quote:
                return out.decode("utf-8", "replace"), j + 1
            if c == "\\":
                d = src[j + 1] if j + 1 < n else ""
                if d in "\\\"'":
                    out += d.encode(); j += 2
                elif d in "nrtb":
                    out += {"n": b"\n", "r": b"\r", "t": b"\t", "b": b"\b"}[d]; j += 2
                elif d == "x" and re.match(r"[0-9A-Fa-f]{2}", src[j + 2:j + 4]):
                    out.append(int(src[j + 2:j + 4], 16)); j += 4
                elif re.match(r"[0-9]{3}", src[j + 1:j + 4]):
                    v = int(src[j + 1:j + 4])
                    if v > 255:
                        raise AtdError("invalid escape sequence", pos(j))
                    out.append(v); j += 4
                elif d == "\n" or (d == "\r" and src[j + 2:j + 3] == "\n"):
                    j += 2 if d == "\n" else 3
                    line += 1; col0 = j
                    while j < n and src[j] in " \t":
                        j += 1
                else:
                    raise AtdError("invalid escape sequence", pos(j))
            else:
                if c == "\n":
                    line += 1; col0 = j + 1
                out += c.encode("utf-8"); j += 1

    while i < n:
        c = src[i]
        if c in " \t":
            i += 1
        elif c == "\n":
            i += 1; line += 1; col0 = i
        elif c == "\r":
            if src[i + 1:i + 2] != "\n":
                raise AtdError("illegal character (lone CR)", pos(i))
            i += 2; line += 1; col0 = i
        elif src.startswith("(*", i):
            start = pos(i)
            depth = 1
            i += 2
            while depth:
                if i >= n:
                    raise AtdError("unterminated comment", start)
                if src.startswith("(*", i):
                    depth += 1; i += 2
                elif src.startswith("*)", i):
                    depth -= 1; i += 2
                elif src[i] == '"':
                    _, i = read_string(i + 1, '"')
                elif src[i] == "\n":
                    i += 1; line += 1; col0 = i
                else:
                    i += 1
        elif c in "()[]{}<>;,:*|=?~.":
            toks.append(Tok(c, c, pos(i))); i += 1
        elif c == "'":
            # TVAR quirk: ' + lowercase, or ' + _ + identchar
            d = src[i + 1:i + 2]
            if d and (("a" <= d <= "z") or (d == "_" and re.match(r"[A-Za-z0-9_']", src[i + 2:i + 3] or " "))):
                m = IDENTCHAR.match(src, i + 2)
                toks.append(Tok("TVAR", src[i + 1:m.end()], pos(i))); i = m.end()
            else:
                p = pos(i)
                v, i = read_string(i + 1, "'")
                toks.append(Tok("STRING", v, p))
        elif c == '"':
            p = pos(i)
            v, i = read_string(i + 1, '"')
            toks.append(Tok("STRING", v, p))
        elif "a" <= c <= "z" or c == "_":
            m = IDENTCHAR.match(src, i + 1)
            word = src[i:m.end()]
            if word == "_":
                raise AtdError("illegal character '_'", pos(i))
            kind = word if word in RESERVED else "LIDENT"
            toks.append(Tok(kind, word, pos(i))); i = m.end()
        elif "A" <= c <= "Z":
            m = IDENTCHAR.match(src, i + 1)
            toks.append(Tok("UIDENT", src[i:m.end()], pos(i))); i = m.end()
        else:
            raise AtdError("illegal character %r" % c, pos(i))
    toks.append(Tok("EOF", None, pos(i)))
    return toks


# ----------------------------------------------------------------- AST
# Type expressions are tuples:
#   ("name", name, [args], annots, pos)      predefined or defined type, applied
#   ("tvar", name, pos)
#   ("tuple", [(cell_annots, texpr)], annots, pos)
#   ("record", [field], annots, pos)
#       field = ("field", kind, name, annots, texpr, pos), kind in "", "?", "~"
#             | ("inherit", texpr, pos)
#   ("sum", [variant], annots, pos)
#       variant = ("variant", name, annots, texpr_or_None, pos)
#               | ("inherit", texpr, pos)
# annots: list of (section, [(field, value_or_None, pos)], pos)


class Typedef:
    def __init__(self, name, params, annots, expr, pos):
        self.name, self.params, self.annots, self.expr, self.pos = \
            name, params, annots, expr, pos


class Parser:
    def __init__(self, toks):
        self.t = toks
        self.i = 0

    def peek(self, k=0):
        return self.t[self.i + k]

    def next(self):
        tok = self.t[self.i]
        self.i += 1
        return tok

    def expect(self, kind):
        tok = self.next()
        if tok.kind != kind:
            raise AtdError("syntax error: expecting %s, got %s" % (kind, tok.val), tok.pos)
        return tok

    def is_name(self, k=0):
        return self.peek(k).kind == "LIDENT"

    def name(self):
        tok = self.next()
        if tok.kind != "LIDENT":
            raise AtdError("syntax error: expecting a name, got %r" % (tok.val,), tok.pos)
        return tok.val

    def annots(self):
        out = []
        while self.peek().kind == "<":
            p = self.next().pos
            sec = self.name()
            fields = []
            while self.peek().kind != ">":
                fp = self.peek().pos
                f = self.name()
                while self.peek().kind == ".":
                    self.next()
                    f += "." + self.name()
                v = None
                if self.peek().kind == "=":
                    self.next()
                    v = self.expect("STRING").val
                fields.append((f, v, fp))
            self.next()
            out.append((sec, fields, p))
        return out

    def module(self):
        head = self.annots()
        imports = []
        while self.peek().val == "from" and self.peek().kind == "LIDENT":
            imports.append(self.import_())
        defs = []
        while self.peek().kind == "type":
            defs.append(self.typedef())
        if self.peek().kind != "EOF":
            raise AtdError("syntax error at %r" % (self.peek().val,), self.peek().pos)
        return head, imports, defs

    def import_(self):
        self.next()
        path = [self.name()]
        while self.peek().kind == ".":
            self.next()
            path.append(self.name())
        self.annots()
        alias = None
        if self.peek().val == "as" and self.peek().kind == "LIDENT" and self.peek(1).kind == "LIDENT" \
                and self.peek(1).val != "import":
            self.next()
            alias = self.name()
        if self.name() != "import":
            raise AtdError("syntax error: expecting import")
        types = []
        while True:
            params = self.type_params() if self.peek().kind in ("TVAR", "(") else []
            types.append((params, self.name()))
            self.annots()
            if self.peek().kind != ",":
                break
            self.next()
        return (path, alias, types)

    def type_params(self):
        if self.peek().kind == "TVAR":
            return [self.next().val]
        self.expect("(")
        ps = [self.expect("TVAR").val]
        while self.peek().kind == ",":
            self.next()
            ps.append(self.expect("TVAR").val)
        self.expect(")")
        return ps

    def typedef(self):
        p = self.expect("type").pos
        params = self.type_params() if self.peek().kind in ("TVAR", "(") else []
        name = self.name()
        ann = self.annots()
        self.expect("=")
        return Typedef(name, params, ann, self.type_expr(), p)

    def type_ref(self):
        n = self.name()
        while self.peek().kind == ".":
            self.next()
            n += "." + self.name()
        return n

    def type_expr(self):
        e = self.head()
        while self.is_name():
            p = self.peek().pos
            n = self.type_ref()
            e = ("name", n, [e], self.annots(), p)
        return e

    def head(self):
        tok = self.peek()
        if tok.kind == "TVAR":
            self.next()
            return ("tvar", tok.val, tok.pos)
        if tok.kind == "LIDENT":
            n = self.type_ref()
            return ("name", n, [], self.annots(), tok.pos)
        if tok.kind == "(":
            self.next()
            if self.peek().kind == ")":
                self.next()
                return ("tuple", [], self.annots(), tok.pos)
            first = self.cell()
            if self.peek().kind == "," and first[0] is None:
                args = [first[1]]
                while self.peek().kind == ",":
                    self.next()
                    args.append(self.type_expr())
                self.expect(")")
                p = self.peek().pos
                n = self.type_ref()
                return ("name", n, args, self.annots(), p)
            cells = [first]
            while self.peek().kind == "*":
                self.next()
                cells.append(self.cell())
            self.expect(")")
            cells = [(c[0] or [], c[1]) for c in cells]
            return ("tuple", cells, self.annots(), tok.pos)
        if tok.kind == "{":
            self.next()
            fields = []
            while self.peek().kind != "}":
                fields.append(self.field())
                if self.peek().kind == ";":
                    self.next()
                elif self.peek().kind != "}":
                    raise AtdError("syntax error in record: expecting ; or }", self.peek().pos)
            self.next()
            return ("record", fields, self.annots(), tok.pos)
        if tok.kind == "[":
            self.next()
            variants = []
            if self.peek().kind == "|":
                self.next()
                if self.peek().kind == "]":
                    raise AtdError("syntax error: | then ]", self.peek().pos)
            while self.peek().kind != "]":
                variants.append(self.variant())
                if self.peek().kind == "|":
                    self.next()
                    if self.peek().kind == "]":
                        raise AtdError("syntax error: trailing |", self.peek().pos)
                elif self.peek().kind != "]":
                    raise AtdError("syntax error in sum", self.peek().pos)
            self.next()
            return ("sum", variants, self.annots(), tok.pos)
        raise AtdError("syntax error: unexpected %r" % (tok.val,), tok.pos)

    def cell(self):
        # returns (annots or None if plain, texpr)
        if self.peek().kind in ("<", ":"):
            ann = self.annots()
            self.expect(":")
            return (ann, self.type_expr())
        return (None, self.type_expr())

    def field(self):
        tok = self.peek()
        if tok.kind == "inherit":
            self.next()
            return ("inherit", self.type_expr(), tok.pos)
        kind = ""
        if tok.kind in ("?", "~"):
            kind = self.next().kind
        p = self.peek().pos
        n = self.name()
        ann = self.annots()
        self.expect(":")
        return ("field", kind, n, ann, self.type_expr(), p)

    def variant(self):
        tok = self.peek()
        if tok.kind == "inherit":
            self.next()
            return ("inherit", self.type_expr(), tok.pos)
        n = self.expect("UIDENT").val
        ann = self.annots()
        arg = None
        if self.peek().kind == "of":
            self.next()
            arg = self.type_expr()
        return ("variant", n, ann, arg, tok.pos)


def parse(src):
    return Parser(lex(src)).module()


# ----------------------------------------------------------------- helpers

def annot_get(annots, section, field):
    """Value of section.field: None if absent, True for a bare flag."""
    found = None
    for sec, fields, _ in annots:
        if sec != section:
            continue
        for f, v, p in fields:
            if f == field:
                if found is not None:
                    raise AtdError("duplicate annotation %s.%s" % (section, field), p)
                found = True if v is None else v
    return found


def annot_flag(annots, section, field):
    v = annot_get(annots, section, field)
    if v is None or v == "false":
        return False
    if v is True or v == "true":
        return True
    raise AtdError("invalid boolean value for %s.%s: %r" % (section, field, v))


def expr_annots(e):
    if e[0] == "tvar":
        return []
    return e[2] if e[0] != "name" else e[3]


def json_name(name, annots):
    v = annot_get(annots, "json", "name")
    return name if v is None or v is True else v


class Module:
    def __init__(self, src):
        self.head, self.imports, defs = parse(src)
        self.defs = {}
        for d in defs:
            if d.name in self.defs:
                raise AtdError("type '%s' is defined twice" % d.name, d.pos)
            if d.name in PREDEF:
                raise AtdError("predefined type '%s' cannot be redefined" % d.name, d.pos)
            self.defs[d.name] = d
        self.order = [d.name for d in defs]

    # substitute type variables
    def subst(self, e, env):
        k = e[0]
        if k == "tvar":
            if e[1] not in env:
                raise AtdError("unbound type variable '%s" % e[1], e[2])
            return env[e[1]]
        if k == "name":
            return ("name", e[1], [self.subst(a, env) for a in e[2]], e[3], e[4])
        if k == "tuple":
            return ("tuple", [(a, self.subst(t, env)) for a, t in e[1]], e[2], e[3])
        if k == "record":
            fs = []
            for f in e[1]:
                if f[0] == "inherit":
                    fs.append(("inherit", self.subst(f[1], env), f[2]))
                else:
                    fs.append(f[:4] + (self.subst(f[4], env), f[5]))
            return ("record", fs, e[2], e[3])
        if k == "sum":
            vs = []
            for v in e[1]:
                if v[0] == "inherit":
                    vs.append(("inherit", self.subst(v[1], env), v[2]))
                else:
                    vs.append(v[:3] + (None if v[3] is None else self.subst(v[3], env), v[4]))
            return ("sum", vs, e[2], e[3])
        raise ValueError(k)

    def expand_name(self, e):
        """One step: a user-defined applied name -> its substituted body."""
        d = self.defs.get(e[1])
        if d is None:
            raise AtdError("undefined type %s" % e[1], e[4])
        if len(d.params) != len(e[2]):
            raise AtdError("type '%s' expects %d argument(s), got %d"
                           % (e[1], len(d.params), len(e[2])), e[4])
        return self.subst(d.expr, dict(zip(d.params, e[2])))

    def resolve(self, e, through_wrap=True):
        """Follow aliases (and wrap) down to a structural node or predefined."""
        seen = 0
        while e[0] == "name":
            if e[1] in PREDEF:
                if e[1] == "wrap" and through_wrap:
                    e = e[2][0]
                    continue
                return e
            e = self.expand_name(e)
            seen += 1
            if seen > 1000:
                raise AtdError("cycle through aliases")
        return e

    def record_fields(self, e, stack=()):
        """Fields of a record after inheritance (5.6)."""
        out = []
        direct = set()
        for f in e[1]:
            if f[0] == "inherit":
                t = f[1]
                if t[0] == "tvar":
                    raise AtdError("cannot inherit from a type variable", f[2])
                if t[0] == "name" and "." in t[1]:
                    raise AtdError("cannot inherit from an imported type", f[2])
                key = repr(t[:3])
                if key in stack:
                    raise AtdError("cyclic inheritance", f[2])
                r = self.resolve(t, through_wrap=False)
                if r[0] != "record":
                    raise AtdError("cannot inherit from a non-record", f[2])
                sub = self.record_fields(r, stack + (key,))
            else:
                if f[2] in direct:
                    raise AtdError("field '%s' defined twice" % f[2], f[5])
                direct.add(f[2])
                sub = [f]
            for g in sub:
                out = [h for h in out if h[2] != g[2]]
                out.append(g)
        return out

    def sum_variants(self, e, stack=()):
        out = []
        direct = set()
        for v in e[1]:
            if v[0] == "inherit":
                t = v[1]
                if t[0] == "tvar":
                    raise AtdError("cannot inherit from a type variable", v[2])
                key = repr(t[:3])
                if key in stack:
                    raise AtdError("cyclic inheritance", v[2])
                r = self.resolve(t, through_wrap=False)
                if r[0] != "sum":
                    raise AtdError("cannot inherit from a non-sum", v[2])
                sub = self.sum_variants(r, stack + (key,))
            else:
                if v[1] in direct:
                    raise AtdError("constructor '%s' defined twice" % v[1], v[4])
                direct.add(v[1])
                sub = [v]
            for g in sub:
                out = [h for h in out if h[1] != g[1]]
                out.append(g)
        return out


# ----------------------------------------------------------------- checks

JSON_FIELDS_EXPR = {"repr", "keep_nulls", "open_enum", "precision"}
C_INT_REPRS = {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32"}
OCAML_INT = re.compile(r"^(?:-?[0-9][0-9_]*|\(\s*-[0-9][0-9_]*\s*\))$")
OCAML_FLOAT = re.compile(r"^\(?\s*-?[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?\s*\)?$")


def c_mangle(name):
    if name in C_KEYWORDS:
        return name + "_"
    if name.startswith("_") or name.startswith("atd_"):
        return "x_" + name
    return name


class Checker:
    def __init__(self, mod):
        self.m = mod
        self.errors = []
        self.warnings = []

    def err(self, msg, pos=None):
        self.errors.append(("%d:%d: " % pos if pos else "") + msg)

    def warn(self, msg, pos=None):
        self.warnings.append(("%d:%d: " % pos if pos else "") + msg)

    def run(self):
        m = self.m
        for sec, fields, p in m.head:
            self.check_section(sec, fields, p, "head")
        aliases = set()
        for _, alias_, _ in m.imports:
            pass
        for name in m.order:
            d = m.defs[name]
            try:
                if len(set(d.params)) != len(d.params):
                    self.err("duplicate type parameter in '%s'" % name, d.pos)
                for sec, fields, p in d.annots:
                    self.check_section(sec, fields, p, "typedef")
                self.walk(d.expr, set(d.params), name)
            except AtdError as e:
                self.err(str(e))
        self.check_cycles()
        return self

    def check_section(self, sec, fields, p, where, node=None):
        allowed = None
        if sec == "json":
            allowed = {"typedef": set(), "head": set(),
                       "field": {"name", "tag_field"}, "variant": {"name"},
                       "cell": set(), "expr": JSON_FIELDS_EXPR}[where]
        elif sec == "c":
            allowed = {"typedef": {"name", "t", "module"}, "head": {"prefix", "include"},
                       "field": {"name", "default"}, "variant": {"name"},
                       "cell": {"default"}, "expr": {"name", "repr", "t", "wrap", "unwrap"}}[where]
        elif sec == "biniou":
            allowed = {"expr": {"repr"}}.get(where, set())
        else:
            return  # doc, ocaml, python, ...: ignored here
        seen = set()
        for f, v, fp in fields:
            if f not in allowed:
                self.err("invalid or misplaced annotation <%s %s> (%s)" % (sec, f, where), fp)
            if f in seen:
                self.err("duplicate annotation %s.%s" % (sec, f), fp)
            seen.add(f)
            if f == "tag_field":
                self.warn("<json tag_field> is ignored", fp)

    def walk(self, e, params, ctx, under_record=False):
        m = self.m
        k = e[0]
        if k == "tvar":
            if e[1] not in params:
                self.err("unbound type variable '%s" % e[1], e[2])
            return
        for sec, fields, p in expr_annots(e):
            self.check_section(sec, fields, p, "expr")
        if k == "name":
            n, args, ann = e[1], e[2], e[3]
            for a in args:
                self.walk(a, params, ctx)
            if n in PREDEF:
                if PREDEF[n] != len(args):
                    self.err("wrong number of arguments for '%s'" % n, e[4])
                if n == "shared":
                    self.err("sharing is not supported", e[4])
            elif "." in n:
                pass  # imported: arity checked loosely
            elif n not in m.defs:
                self.err("undefined type %s" % n, e[4])
                return
            elif len(m.defs[n].params) != len(args):
                self.err("type '%s' expects %d argument(s)" % (n, len(m.defs[n].params)), e[4])
            repr_ = annot_get(ann, "json", "repr")
            if repr_ is not None:
                ok = {"list": ("array", "object"), "int": ("string",),
                      "float": ("int",)}.get(n, ())
                if repr_ not in ok:
                    self.err("invalid <json repr=%r> on %s" % (repr_, n), e[4])
                if n == "list" and repr_ == "object":
                    el = m.resolve(args[0])
                    if el[0] != "tuple" or len(el[1]) != 2 or \
                            m.resolve(el[1][0][1])[:2] != ("name", "string"):
                        self.err("repr=object: keys must be strings", e[4])
            prec = annot_get(ann, "json", "precision")
            if prec is not None:
                if n != "float" or not (isinstance(prec, str) and prec.isdigit()):
                    self.err("invalid <json precision>", e[4])
            for f in ("keep_nulls", "open_enum"):
                if annot_get(ann, "json", f) is not None:
                    self.err("<json %s> misplaced on %s" % (f, n), e[4])
            crepr = annot_get(ann, "c", "repr")
            if crepr is not None:
                if not ((n == "int" and crepr in C_INT_REPRS) or (n == "float" and crepr == "float")):
                    self.err("invalid <c repr=%r> on %s" % (crepr, n), e[4])
            ct = [annot_get(ann, "c", f) for f in ("t", "wrap", "unwrap")]
            if any(x is not None for x in ct):
                if n != "wrap" or not all(x is not None for x in ct):
                    self.err("<c t wrap unwrap> go together, after wrap", e[4])
            if annot_get(ann, "json", "adapter.ocaml") is not None:
                self.err("json adapters are not supported", e[4])
            return
        if k == "tuple":
            if not e[1]:
                self.err("zero-element tuple", e[3])
            for ann, t in e[1]:
                for sec, fields, p in ann:
                    self.check_section(sec, fields, p, "cell")
                self.walk(t, params, ctx)
            # only a trailing run of defaulted cells
            return
        if k == "record":
            self.check_record(e, params, ctx)
            return
        if k == "sum":
            self.check_sum(e, params, ctx)
            return

    def default_of(self, ann):
        c = annot_get(ann, "c", "default")
        o = annot_get(ann, "ocaml", "default")
        return c, o

    def check_ocaml_default(self, lit, t, pos):
        r = self.m.resolve(t, through_wrap=False)
        # a wrap without <c ...> is transparent (5.8): a literal still applies
        while r[0] == "name" and r[1] == "wrap" and \
                not any(sec == "c" for sec, _, _ in r[3]):
            r = self.m.resolve(r[2][0], through_wrap=False)
        kind = r[1] if r[0] == "name" else r[0]
        s = lit.strip()
        ok = False
        if kind == "int":
            ok = bool(OCAML_INT.match(s))
        elif kind == "float":
            ok = bool(OCAML_FLOAT.match(s))
        elif kind == "bool":
            ok = s in ("true", "false")
        elif kind == "string":
            ok = len(s) >= 2 and s[0] == '"' and s[-1] == '"'
        elif kind == "list":
            ok = s in ("[]", "[||]")
        elif kind in ("option", "nullable"):
            ok = s == "None"
        elif kind == "unit":
            ok = s == "()"
        elif kind == "sum":
            names = [v[1] for v in self.m.sum_variants(r) if v[3] is None]
            ok = s.lstrip("`") in names
        if not ok:
            self.err("<ocaml default=%r> cannot be translated for this type; "
                     "needs <c default>" % lit, pos)

    def check_record(self, e, params, ctx):
        m = self.m
        if not e[1]:
            self.err("empty record", e[3])
        keep = annot_get(e[2], "json", "keep_nulls")
        if annot_get(e[2], "json", "open_enum") is not None or \
                annot_get(e[2], "json", "repr") is not None or \
                annot_get(e[2], "json", "precision") is not None:
            self.err("misplaced json annotation on a record", e[3])
        for f in e[1]:
            if f[0] == "inherit":
                self.walk(f[1], params, ctx)
                continue
            _, kind, name, ann, t, pos = f
            for sec, fields, p in ann:
                self.check_section(sec, fields, p, "field")
            self.walk(t, params, ctx)
            c, o = self.default_of(ann)
            has_default = c is not None or o is not None
            if kind in ("", "?") and has_default:
                self.err("superfluous default on field '%s'" % name, pos)
            if kind == "?":
                r = m.resolve(t, through_wrap=False) if t[0] != "tvar" else t
                if not (r[0] == "name" and r[1] in ("option", "nullable")):
                    self.err("?%s: not an option type" % name, pos)
            if kind == "~":
                if c is None and o is not None:
                    self.check_ocaml_default(o, t, pos)
                elif c is None:
                    r = m.resolve(t, through_wrap=False) if t[0] != "tvar" else t
                    if not (r[0] == "name" and r[1] in
                            ("unit", "bool", "int", "float", "string", "list", "option", "nullable")):
                        self.err("~%s: missing default field value" % name, pos)
        try:
            fields = m.record_fields(e)
        except AtdError as x:
            self.err(str(x))
            return
        seen, cnames = {}, {}
        for f in fields:
            jn = json_name(f[2], f[3])
            if jn in seen:
                self.err("two fields with the JSON name %r" % jn, f[5])
            seen[jn] = f
            cn = annot_get(f[3], "c", "name") or c_mangle(f[2])
            if cn in cnames:
                self.err("fields '%s' and '%s' both map to the C name '%s'"
                         % (cnames[cn], f[2], cn), f[5])
            cnames[cn] = f[2]

    def check_sum(self, e, params, ctx):
        m = self.m
        if not e[1]:
            self.err("empty sum", e[3])
        for v in e[1]:
            if v[0] == "inherit":
                self.walk(v[1], params, ctx)
                continue
            for sec, fields, p in v[2]:
                self.check_section(sec, fields, p, "variant")
            if v[3] is not None:
                self.walk(v[3], params, ctx)
        if annot_get(e[2], "json", "keep_nulls") is not None:
            self.err("keep_nulls on a sum", e[3])
        try:
            vs = m.sum_variants(e)
        except AtdError as x:
            self.err(str(x))
            return
        seen = set()
        for v in vs:
            jn = json_name(v[1], v[2])
            if jn in seen:
                self.err("two constructors with the JSON name %r" % jn, v[4])
            seen.add(jn)
        if annot_flag(e[2], "json", "open_enum"):
            with_arg = [v for v in vs if v[3] is not None]
            if len(with_arg) != 1:
                self.err("open_enum needs exactly one catch-all constructor", e[3])
            elif with_arg[0][3][:3] != ("name", "string", []):
                self.err("open_enum catch-all must take string", e[3])
        r = annot_get(e[2], "json", "repr")
        if r is not None and r not in ("object", "array"):
            self.err("invalid json repr on a sum", e[3])

    def check_cycles(self):
        m = self.m
        graph = {}

        def direct(e, acc):
            if e[0] == "name":
                if e[1] in m.defs:
                    acc.add(e[1])
                for a in e[2]:
                    direct(a, acc)
            elif e[0] == "tuple":
                for _, t in e[1]:
                    direct(t, acc)
            # record / sum: the cycle is broken here
            return acc

        for n in m.order:
            graph[n] = direct(m.defs[n].expr, set())
        state = {}

        def dfs(n, stack):
            state[n] = 1
            for x in graph[n]:
                if state.get(x) == 1:
                    self.err("cycle not through a record or sum: %s"
                             % " -> ".join(stack + [n, x]))
                elif x not in state:
                    dfs(x, stack + [n])
            state[n] = 2

        for n in m.order:
            if n not in state:
                dfs(n, [])


def check(src):
    """Parse and check; returns (module or None, errors, warnings)."""
    try:
        mod = Module(src)
    except AtdError as e:
        return None, [str(e)], []
    c = Checker(mod).run()
    return mod, c.errors, c.warnings
