#!/usr/bin/env python3
"""Regenerates fuzz/corpus/cql_parser, the seed corpus of cql_parser_fuzzer.

Seeds: every CQL statement written as a C++ string literal in
tests/cql/*_test.cc, every statement of examples/*.cql and of the playbook
example scripts (tests/tools/testdata/examples), and each script whole
(for the statement splitter). Files are named by content hash, so rerunning
is idempotent. Usage: python3 scripts/make-cql-corpus.py
"""
import glob
import hashlib
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "fuzz", "corpus", "cql_parser")
KEYWORDS = ("SELECT", "INSERT", "UPDATE", "DELETE", "BEGIN", "CREATE", "ALTER", "DROP",
            "TRUNCATE", "USE", "DESCRIBE", "DESC")
# A C++ string literal (no raw strings); escapes are undone below.
LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def unescape(text):
    return text.encode("utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8", "replace")


def statements_in_tests():
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "cql", "*_test.cc"))):
        with open(path, encoding="utf-8") as f:
            source = f.read()
        # Adjacent literals ("a " "b") are one string in C++.
        source = re.sub(r'"\s*\n\s*"', "", source)
        for match in LITERAL.finditer(source):
            text = unescape(match.group(1))
            if text.lstrip().upper().startswith(KEYWORDS):
                yield text


def scripts():
    paths = sorted(glob.glob(os.path.join(ROOT, "examples", "*.cql")))
    paths += sorted(glob.glob(os.path.join(ROOT, "tests", "tools", "testdata", "examples", "*.cql")))
    for path in paths:
        with open(path, encoding="utf-8") as f:
            yield f.read()


def statements_in_script(script):
    # Good enough for seeds: the examples put no ';' inside strings.
    lines = [l for l in script.splitlines() if not l.strip().startswith(("--", "//"))]
    for piece in "\n".join(lines).split(";"):
        if piece.strip():
            yield piece.strip() + ";"


def main():
    os.makedirs(OUT, exist_ok=True)
    seeds = set(statements_in_tests())
    for script in scripts():
        seeds.add(script)
        seeds.update(statements_in_script(script))
    for seed in seeds:
        data = seed.encode("utf-8")
        name = hashlib.sha1(data).hexdigest()[:16]
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
    print(f"{len(seeds)} seeds in {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
