"""Checks a JSON Schema of atdc against atdc's own reader, on documents.

Usage: check.py SCHEMA.json READER SEEDS.json... [--mutants N] [--seed S]

The documents are the seeds and N mutants of each (a value replaced by one
of another kind, an object key removed, added or nulled, an array shortened,
lengthened or emptied, a string or number changed), made with a fixed seed.
READER (reader.c built for the schema's type) says which ones atdc's reader
accepts. Every accepted document must validate against the schema, and
every document rejected for a type reason (wrong kind of value, missing
field, unknown constructor, wrong tuple length, number out of range or
outside a declarative <c min max> bound) must not. Rejections for other
reasons (a <c validator>, a byte length) are counted apart, and so are numbers out of range in a string ("300" for
an int8: the readers take quoted numbers, whose range a JSON Schema
pattern does not bound). SHOW_OTHER=1 in the environment lists the
rejections counted apart. Prints the counts; exits 1 on any disagreement.
"""
import copy
import json
import os
import random
import subprocess
import sys
import tempfile

import jsonschema

TYPE_REASONS = {"TYPE", "MISSING_FIELD", "BAD_VARIANT", "TUPLE", "RANGE", "NUMBER"}
POOL = [None, True, False, 0, -1, 1.5, 300, 70000, 2**40, 2**63, "s", "", "None", "Some",
        "x" * 40, [], {}, ["Some", 1], ["X", 1], [1, 2], {"a": 1}]


def nodes(doc, path=()):
    """Every (path, value) of the document, the root included."""
    yield path, doc
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from nodes(v, path + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from nodes(v, path + (i,))


def get(doc, path):
    for p in path:
        doc = doc[p]
    return doc


def put(doc, path, value):
    if not path:
        return value
    get(doc, path[:-1])[path[-1]] = value
    return doc


def mutate(rng, doc, strings):
    """A mutant, and whether it quotes a number (whose range JSON Schema
    cannot bound)."""
    doc, quoted = mutate1(rng, doc, strings)
    return doc, quoted


def mutate1(rng, doc, strings):
    doc = copy.deepcopy(doc)
    path, value = rng.choice(list(nodes(doc)))
    r = rng.random()
    if isinstance(value, dict) and value and r < 0.5:
        k = rng.choice(list(value))
        choice = rng.randrange(3)
        if choice == 0:
            del value[k]
        elif choice == 1:
            value[k] = None
        else:
            value["zz_unknown"] = rng.choice(POOL)
        return doc, False
    if isinstance(value, list) and value and r < 0.5:
        choice = rng.randrange(3)
        if choice == 0:
            value.pop()
        elif choice == 1:
            value.append(copy.deepcopy(value[0]))
        else:
            value.clear()
        return doc, False
    if isinstance(value, str) and r < 0.5 and strings:
        return put(doc, path, rng.choice(strings)), False
    if isinstance(value, (int, float)) and not isinstance(value, bool) and r < 0.5:
        new = rng.choice([-value, value + 0.5, value * 1000, str(value), str(value * 1000)])
        return put(doc, path, new), isinstance(new, str)
    return put(doc, path, copy.deepcopy(rng.choice(POOL))), False


def main():
    args = sys.argv[1:]
    nmut, seed = 200, 1
    if "--mutants" in args:
        i = args.index("--mutants")
        nmut = int(args[i + 1])
        del args[i:i + 2]
    if "--seed" in args:
        i = args.index("--seed")
        seed = int(args[i + 1])
        del args[i:i + 2]
    schema_path, reader, seeds = args[0], args[1], args[2:]
    with open(schema_path) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    rng = random.Random(seed)
    docs = []
    for s in seeds:
        with open(s) as f:
            doc = json.load(f)
        strings = sorted({v for _, v in nodes(doc) if isinstance(v, str)})
        docs.append((doc, False))
        docs.extend(mutate(rng, doc, strings) for _ in range(nmut))
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, (doc, _) in enumerate(docs):
            p = os.path.join(tmp, "doc%d.json" % i)
            with open(p, "w") as f:
                json.dump(doc, f)
            paths.append(p)
        out = subprocess.run([reader] + paths, capture_output=True, text=True, check=True).stdout
    verdicts = out.splitlines()
    assert len(verdicts) == len(docs), "the reader printed %d lines for %d documents" % (
        len(verdicts), len(docs))
    accepted = rejected = other = 0
    failures = []
    # The seeds are documents the reader accepts: else the mutants test little.
    for k, s in enumerate(seeds):
        verdict = verdicts[k * (nmut + 1)]
        if verdict != "ok":
            failures.append("seed %s rejected by atdc: %s" % (s, verdict))
    for (doc, quoted), verdict in zip(docs, verdicts):
        valid = validator.is_valid(doc)
        if verdict == "ok":
            accepted += 1
            if not valid:
                err = next(validator.iter_errors(doc))
                failures.append("accepted by atdc, invalid for the schema: %s\n    at %s: %s" % (
                    json.dumps(doc)[:300], list(err.absolute_path), err.message[:200]))
        else:
            code = verdict.split()[1]
            # A declarative <c min max> bound is in the schema too; a
            # <c validator> or a byte length is not.
            bound = code == "INVALID" and ("expected an int" in verdict or "expected a float" in verdict)
            if (code in TYPE_REASONS or bound) and not (code in ("RANGE", "INVALID") and quoted):
                rejected += 1
                if valid:
                    failures.append("rejected by atdc (%s), valid for the schema: %s" % (
                        verdict, json.dumps(doc)[:300]))
            else:
                other += 1
                if os.environ.get("SHOW_OTHER"):
                    print("other: %s valid=%s" % (verdict[:150], valid))
    print("%s: %d documents: %d accepted and valid, %d rejected for a type reason and invalid, "
          "%d rejected for another reason (validator, byte length, quoted number out of range); %d disagreements" % (
              os.path.basename(os.path.dirname(os.path.abspath(schema_path))), len(docs), accepted - sum(f.startswith("accepted") for f in failures),
              rejected - sum(f.startswith("rejected") for f in failures), other, len(failures)))
    for f in failures[:20]:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
