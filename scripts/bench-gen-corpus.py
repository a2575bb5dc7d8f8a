#!/usr/bin/python3
"""bench-gen-corpus.py — makes the synthetic corpus of `make bench-gen`: N kernel sections in the
seed's shape (contracts/vulkan/write_slice.md, flattened YAML, prose, headings), spread over files of
at most PER_FILE sections (fkcgen caps a contract file at 1 MiB). Kernel names, op kinds and entry
points are unique so that the corpus validates; the two sections of the seed alternate.

usage: bench-gen-corpus.py SEED N OUTDIR [PER_FILE]   (prints the paths it wrote, one per line)
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


def section(template, old_kernel, old_op, idx):
    """One section of template with its kernel renamed k<idx> and its op kind Op<idx>."""
    kernel, op = "k%05d" % idx, "Op%05d" % idx
    s = template.replace(old_op, op)  # op_kind, variant, prose (longest name first)
    s = re.sub(r"\b%s\b" % old_kernel, kernel, s)
    return s


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    seed, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    per_file = int(sys.argv[4]) if len(sys.argv) == 5 else 100
    text = open(seed, encoding="utf-8").read()
    front, (ws, wsr) = split_seed(text)
    # write_slice_rotating first: its names contain write_slice's
    templates = [(ws, "write_slice", "WriteSlice"), (wsr, "write_slice_rotating", "WriteSliceRotating")]
    os.makedirs(out, exist_ok=True)
    idx = 0
    for f in range((n + per_file - 1) // per_file):
        path = os.path.join(out, "corpus_%04d.md" % f)
        parts = [front, "# synthetic corpus file %d\n" % f]
        for _ in range(min(per_file, n - idx)):
            tpl, kernel, op = templates[idx % 2]
            sec = section(tpl, kernel, op, idx)
            parts.append("---\n" + sec + ("" if sec.endswith("\n") else "\n"))
            idx += 1
        with open(path, "w", encoding="utf-8") as fh:
            fh.write("".join(parts))
        print(path)


if __name__ == "__main__":
    main()
