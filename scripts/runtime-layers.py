#!/usr/bin/env python3
"""runtime-layers.py — the runtime's structure, checked (issue 23 item 2).

  runtime-layers.py SRCDIR OBJECT...

Prints the file-level call graph of SRCDIR (runtime/src): for each OBJECT (the built
SRCDIR/*.c, one object each), the files whose symbols it uses, read with `nm` (a name it leaves undefined
that another object defines: a call, or a use of a table). Then the layers: layer 0 uses no
other file, layer n uses files of layers below n only. Fails (exit 1) when

  - the graph has a circle (two or more files that reach each other): each circle is printed;
  - a function of SRCDIR/*.c is longer than MAX_LINES (60) lines, counted
    from its opening brace to its closing brace, both excluded: the tree's style
    (.clang-format: Linux braces) puts both alone in column 0, so the count needs no parser.

Objects that are not SRCDIR's sources one for one are an error too: the check must see every
file. Run by `make check-runtime-layers` (part of `make test`); docs/runtime.md shows its
output as the runtime's layering.
"""
import os
import re
import subprocess
import sys

MAX_LINES = 60


def nm(path, *flags):
    out = subprocess.run(["nm", *flags, path], check=True, capture_output=True, text=True).stdout
    return out.splitlines()


def symbols(obj):
    """(defined global names, undefined names) of one object."""
    defined, undefined = set(), set()
    for line in nm(obj, "--defined-only", "-g"):
        parts = line.split()
        if len(parts) == 3:
            defined.add(parts[2])
    for line in nm(obj, "-u"):
        parts = line.split()
        if parts:
            undefined.add(parts[-1])
    return defined, undefined


def graph(objs):
    names = sorted(os.path.basename(o)[:-2] for o in objs)
    path = {os.path.basename(o)[:-2]: o for o in objs}
    syms = {n: symbols(path[n]) for n in names}
    owner = {}
    for n in names:
        for s in syms[n][0]:
            owner[s] = n
    edges = {n: {} for n in names}
    for n in names:
        for s in sorted(syms[n][1]):
            o = owner.get(s)
            if o is not None and o != n:
                edges[n].setdefault(o, []).append(s)
    return names, edges


def circles(names, edges):
    """Strongly connected components of more than one file (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in names:
        if v not in index:
            visit(v)
    return out


def layers(names, edges):
    level = {}

    def depth(v, seen=()):
        if v in level:
            return level[v]
        if v in seen:
            return 0  # a circle: reported apart
        d = 0
        for w in edges[v]:
            d = max(d, depth(w, seen + (v,)) + 1)
        level[v] = d
        return d

    for v in names:
        depth(v)
    return level


def long_functions(srcdir):
    """(file, line, name, body lines) of every function whose body exceeds MAX_LINES."""
    out = []
    for f in sorted(os.listdir(srcdir)):
        if not f.endswith(".c"):
            continue
        lines = open(os.path.join(srcdir, f), encoding="utf-8").read().split("\n")
        i = 0
        while i < len(lines):
            if lines[i] != "{":
                i += 1
                continue
            start = i
            j = i - 1  # the signature: back to its first line, the one in column 0
            while j > 0 and lines[j][:1] in (" ", "\t"):
                j -= 1
            sig = " ".join(lines[j:start])
            m = re.search(r"([A-Za-z_][A-Za-z_0-9]*)\s*\(", sig)
            name = m.group(1) if m else "?"
            end = start + 1
            while end < len(lines) and lines[end] != "}":
                end += 1
            body = end - start - 1
            if body > MAX_LINES:
                out.append((f, j + 1, name, body))
            i = end + 1
    return out


def main():
    if len(sys.argv) < 3 or not all(o.endswith(".o") for o in sys.argv[2:]):
        sys.exit("usage: " + __doc__.strip().split("\n\n")[1].strip())
    srcdir = sys.argv[1]
    names, edges = graph(sys.argv[2:])
    bad = 0
    srcs = sorted(f[:-2] for f in os.listdir(srcdir) if f.endswith(".c"))
    if srcs != names:
        print(f"runtime-layers: the objects ({' '.join(names)}) are not the sources "
              f"({' '.join(srcs)})")
        bad = 1
    level = layers(names, edges)
    print(f"File-level call graph of {srcdir} (A -> B: A uses a function or table of B):")
    for n in sorted(names, key=lambda v: (-level[v], v)):
        uses = ", ".join(f"{w} ({len(edges[n][w])})" for w in sorted(edges[n])) or "-"
        print(f"  {n + '.c':<16} -> {uses}")
    print("Layers (each uses only files of the layers below it):")
    for d in range(max(level.values()), -1, -1):
        files = [n + ".c" for n in names if level[n] == d]
        print(f"  {d}: {' '.join(files)}")
    for comp in circles(names, edges):
        bad = 1
        print("runtime-layers: a call circle among " + ", ".join(c + ".c" for c in comp) + ":")
        for a in comp:
            for b in sorted(edges[a]):
                if b in comp:
                    print(f"  {a}.c -> {b}.c: {' '.join(edges[a][b])}")
    for f, line, name, body in long_functions(srcdir):
        bad = 1
        print(f"runtime-layers: {srcdir}/{f}:{line}: {name} has {body} lines (at most {MAX_LINES})")
    if not bad:
        print(f"runtime-layers: {len(names)} files, no circle, no function over {MAX_LINES} lines")
    return bad


if __name__ == "__main__":
    sys.exit(main())
