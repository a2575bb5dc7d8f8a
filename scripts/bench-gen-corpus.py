#!/usr/bin/python3
"""bench-gen-corpus.py — makes the synthetic corpus of `make bench-gen` (and of the linear-growth
test, tests/gen/test_growth.sh): N kernel sections in the seed's shape
(contracts/vulkan/write_slice.md, flattened YAML, prose, headings), spread over files of at most
PER_FILE sections (fkcgen caps a contract file at 1 MiB). The two sections of the seed alternate.

By default kernel names, op kinds and entry points are unique (one op kind per section) and
every file is the seed's provider. Two options change the shape, for the linear-growth test:
  --providers   every file its own provider: its own name, kernel_source and link registry
                (fkc::ENTRY_POINTS_<file>), so there are as many link registries as files;
  --ops K       the sections share K op kinds (section i binds Op<i mod K>; needs --providers
                and K >= PER_FILE: a key (op kind, dtype, backend) is bound once per
                kernel_source, so once per file).

usage: bench-gen-corpus.py SEED N OUTDIR [PER_FILE] [--providers] [--ops K]
       (prints the paths it wrote, one per line)
"""
import os
import re
import sys


def split_seed(text):
    """The seed's front matter (with the provider prose) and its two sections (heading + fence)."""
    front_end = text.index("\n---\n", 4) + 5
    body = text[front_end:]
    parts = re.split(r"^---\n(?=## )", body, flags=re.M)
    sections = [p for p in parts if p.startswith("## ")]
    if len(sections) != 2:
        sys.exit("bench-gen-corpus: the seed does not have the two sections expected")
    return text[:front_end], sections


def section(template, old_kernel, old_op, idx, op_idx):
    """One section of template with its kernel renamed k<idx> and its op kind Op<op_idx>."""
    kernel, op = "k%05d" % idx, "Op%05d" % op_idx
    s = template.replace(old_op, op)  # op_kind, variant, prose (longest name first)
    s = re.sub(r"\b%s\b" % old_kernel, kernel, s)
    return s


def own_provider(text, f):
    """The front matter or a section with the provider of file f: its name, kernel_source and
    link registry made the file's own."""
    text = text.replace("name: fuel-vulkan-kernels", "name: fuel-vulkan-kernels-%04d" % f)
    text = text.replace('"vulkan-slang"', '"vulkan-slang-%04d"' % f)
    return text.replace("fkc::ENTRY_POINTS", "fkc::ENTRY_POINTS_%04d" % f)


def main():
    args = sys.argv[1:]
    providers = "--providers" in args
    args = [a for a in args if a != "--providers"]
    ops = None
    if "--ops" in args:
        k = args.index("--ops")
        ops = int(args[k + 1])
        del args[k:k + 2]
        if not providers:
            sys.exit("bench-gen-corpus: --ops needs --providers")
    if len(args) not in (3, 4):
        sys.exit(__doc__)
    seed, n, out = args[0], int(args[1]), args[2]
    per_file = int(args[3]) if len(args) == 4 else 100
    if ops is not None and ops < per_file:
        sys.exit("bench-gen-corpus: --ops K needs K >= PER_FILE (one op kind twice in a file "
                 "would bind one key twice)")
    text = open(seed, encoding="utf-8").read()
    front, (ws, wsr) = split_seed(text)
    # write_slice_rotating first: its names contain write_slice's
    templates = [(ws, "write_slice", "WriteSlice"), (wsr, "write_slice_rotating", "WriteSliceRotating")]
    os.makedirs(out, exist_ok=True)
    idx = 0
    for f in range((n + per_file - 1) // per_file):
        path = os.path.join(out, "corpus_%04d.md" % f)
        parts = [own_provider(front, f) if providers else front, "# synthetic corpus file %d\n" % f]
        for _ in range(min(per_file, n - idx)):
            op_idx = idx % ops if ops else idx
            tpl, kernel, op = templates[op_idx % 2]  # one op kind, one signature
            sec = section(tpl, kernel, op, idx, op_idx)
            if providers:
                sec = own_provider(sec, f)
            parts.append("---\n" + sec + ("" if sec.endswith("\n") else "\n"))
            idx += 1
        with open(path, "w", encoding="utf-8") as fh:
            fh.write("".join(parts))
        print(path)


if __name__ == "__main__":
    main()
