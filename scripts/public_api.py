#!/usr/bin/env python3
"""public_api.py CLANG INCLUDE_DIR -- the functions and variables fkc's public headers declare.

Compiles one translation unit that includes every INCLUDE_DIR/fkc/*.h with CLANG, reads its
syntax tree (clang -Xclang -ast-dump=json) and prints, sorted, one per line, the name of every
function and variable declared at file scope in one of those headers with external linkage
(not static, not inline): what libfkc must export. make check-exports compares the list with
the shared library's dynamic symbols, and make check-man with the names fkc.3 documents, so a
declaration added to any public header, by any hand, is checked without a list to maintain.
"""
import glob
import json
import os
import subprocess
import sys
import tempfile


def declarations(clang, include_dir):
    headers = sorted(glob.glob(os.path.join(include_dir, "fkc", "*.h")))
    if not headers:
        sys.exit("public_api.py: no header in %s/fkc" % include_dir)
    with tempfile.NamedTemporaryFile("w", suffix=".c", delete=False) as tu:
        for h in headers:
            tu.write('#include "fkc/%s"\n' % os.path.basename(h))
    try:
        out = subprocess.run([clang, "-std=c11", "-fsyntax-only", "-I", include_dir,
                              "-Xclang", "-ast-dump=json", tu.name],
                             check=True, stdout=subprocess.PIPE).stdout
    finally:
        os.unlink(tu.name)
    ast = json.loads(out)
    ours = {os.path.realpath(h) for h in headers}
    found = set()
    # clang writes a location's "file" only where it differs from the one written before, in
    # document order: walk the tree in that order, remembering the last file seen.
    state = {"file": None}

    def walk(node):
        if isinstance(node, dict):
            if "file" in node:
                state["file"] = node["file"]
            for key, value in node.items():
                if key != "includedFrom":  # the includer's name, not this location's file
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for decl in ast.get("inner", []):
        walk(decl.get("loc", {}))
        where = state["file"]
        for key, value in decl.items():
            if key != "loc":
                walk(value)
        if decl.get("kind") not in ("FunctionDecl", "VarDecl") or where is None:
            continue
        if os.path.realpath(where) not in ours or decl.get("isImplicit"):
            continue
        if decl.get("storageClass") == "static" or decl.get("inline"):
            continue
        found.add(decl["name"])
    return sorted(found)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: public_api.py CLANG INCLUDE_DIR")
    names = declarations(sys.argv[1], sys.argv[2])
    if not names:
        sys.exit("public_api.py: the headers declare nothing")
    print("\n".join(names))


if __name__ == "__main__":
    main()
