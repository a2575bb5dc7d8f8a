#!/usr/bin/python3
"""numpy_set_rows.py FKC_RUN [--cases N] [--seed S] — `fkc-run set_rows` against NumPy, byte for byte.

Seeded random cases over every [rows, cache] dtype pair fkc binds (the nine dtypes to themselves;
f32 -> f16, f32 -> bf16, f16 -> f32, bf16 -> f32), I32 and I64 indices, and three cache layouts:
the slot on axis 0 ([slots, heads, dim]), paged NHD ([blocks, block_size, heads, dim],
--slot-axis 1) and HND ([blocks, heads, block_size, dim], --slot-axis 2). Indices mix -1 (and
other negatives), slots past the end, the last slot and duplicates. The oracle is NumPy:
    keep = (idx >= 0) & (idx < slots), the last of each duplicated slot only
    cache[idx[keep]] = src[keep].astype(cache.dtype)
on the cache viewed as [slots, row...] (HND: the block_size axis moved next to the blocks).
f16 conversions are NumPy's astype; bf16 (which NumPy lacks) is round-to-nearest-even written
out in NumPy integer arithmetic. Float rows carry random bits plus -0.0, quiet NaNs with
payloads, subnormals and infinities (signalling NaNs are left out of the f32 -> f16 rows: NumPy
keeps them signalling, fkc quiets them; test_set_rows pins fkc's rule). Each case runs on the
default Vulkan device (every fourth with --validate) and with --cpu; both outputs must equal
what np.save writes, and the past-the-end count fkc-run prints must be NumPy's.
The exit status is the verdict; the last line reads 'N passed, N failed'.
"""
import argparse
import io
import os
import subprocess
import sys
import tempfile

import numpy as np

DESCR = {"f32": "<f4", "i32": "<i4", "u32": "<u4", "f16": "<f2", "bf16": "<u2", "f64": "<f8",
         "i64": "<i8", "u8": "|u1", "i8": "|i1"}
SIZE = {"f32": 4, "i32": 4, "u32": 4, "f16": 2, "bf16": 2, "f64": 8, "i64": 8, "u8": 1, "i8": 1}
PAIRS = [(d, d) for d in DESCR] + [("f32", "f16"), ("f32", "bf16"), ("f16", "f32"),
                                    ("bf16", "f32")]
SPECIALS = {
    2: [0x8000, 0x7e01, 0xfe55, 0x0001, 0x03ff, 0x7c00, 0xfc00, 0x7bff],
    4: [0x80000000, 0x7fc00001, 0xffc12345, 0x00000001, 0x007fffff, 0x7f800000, 0x477ff000,
        0x33000000, 0x3f801000],
    8: [0x8000000000000000, 0x7ff8000000000001, 0x0000000000000001],
}
UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def random_rows(rng, shape, name, quiet_only):
    size = SIZE[name]
    n = int(np.prod(shape, dtype=np.int64))
    bits = rng.integers(0, 256, size=n * size, dtype=np.uint8).view(UINT[size]).copy()
    if name in ("f32", "f16", "bf16", "f64") and n:
        for s in SPECIALS[size]:
            bits[rng.integers(0, n)] = s
        if quiet_only and size == 4:  # signalling NaNs -> quiet ones (NumPy keeps them signalling)
            nan = (bits & 0x7fffffff) > 0x7f800000
            bits[nan] |= 0x00400000
    return bits.view(np.dtype(DESCR[name])).reshape(shape)


def convert(rows, s, d):
    if s == d:
        return rows.copy()
    if d == "f16":
        with np.errstate(over="ignore", invalid="ignore"):  # to +-Inf is the rule
            return rows.astype(np.float16)
    if s == "f16":
        return rows.astype(np.float32)
    if s == "bf16":
        return (rows.astype(np.uint32) << 16).view(np.float32)
    u = rows.view(np.uint32).astype(np.uint64)           # f32 -> bf16, round to nearest even
    r = ((u + 0x7fff + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    nan = (u & 0x7fffffff) > 0x7f800000
    r[nan] = ((u[nan] >> 16) | 0x40).astype(np.uint16)
    return r


def expected(cache, rows, idx, axis, s, d):
    """The NumPy oracle on the cache viewed as [slots, row...]; the count past the end."""
    view = cache.copy()
    if axis == 2:
        view = np.moveaxis(view, 2, 1)
    lead = 2 if axis > 0 else 1
    slots = int(np.prod(view.shape[:lead]))
    flat = np.ascontiguousarray(view).reshape((slots,) + view.shape[lead:])
    keep = (idx >= 0) & (idx < slots)
    # the last row naming a slot wins: drop every earlier occurrence of a slot
    last = np.zeros(len(idx), bool)
    seen = set()
    for i in range(len(idx) - 1, -1, -1):
        if keep[i] and int(idx[i]) not in seen:
            seen.add(int(idx[i]))
            last[i] = True
    flat[idx[last]] = convert(rows[last], s, d)
    out = flat.reshape(view.shape)
    if axis == 2:
        out = np.moveaxis(out, 1, 2)
    return np.ascontiguousarray(out), int((idx >= slots).sum())


def npy_bytes(a):
    buf = io.BytesIO()
    np.save(buf, a)
    return buf.getvalue()


def run_case(fkc_run, tmp, k, rng):
    s, d = PAIRS[k % len(PAIRS)]
    axis = [-1, 1, 2][int(rng.integers(0, 3))]
    dim = 4 * int(rng.integers(1, 5))                    # whole 32-bit words for every dtype
    heads = int(rng.integers(1, 4))
    if axis == -1:
        cache_shape = (int(rng.integers(1, 12)), heads, dim)
        slots = cache_shape[0]
    else:
        blocks, bs = int(rng.integers(1, 5)), int(rng.integers(1, 5))
        cache_shape = (blocks, bs, heads, dim) if axis == 1 else (blocks, heads, bs, dim)
        slots = blocks * bs
    n = int(rng.integers(0, 2 * slots + 3))
    kinds = rng.integers(0, 6, size=n)
    idx = np.where(kinds == 0, -1 - rng.integers(0, 5, size=n),
          np.where(kinds == 1, slots + rng.integers(0, 3, size=n),
          np.where(kinds == 2, slots - 1, rng.integers(0, max(slots, 1), size=n))))
    idx = idx.astype(np.int64 if rng.integers(0, 2) else np.int32)
    cache = random_rows(rng, cache_shape, d, False)
    rows_shape = (n, heads, dim)
    rows = random_rows(rng, rows_shape, s, d == "f16")
    want, bad = expected(cache, rows, idx, axis, s, d)
    paths = [os.path.join(tmp, f) for f in ("cache.npy", "rows.npy", "idx.npy")]
    for p, a in zip(paths, (cache, rows, idx)):
        np.save(p, a)
    args = [fkc_run, "set_rows", "--dst", paths[0], "--src", paths[1], "--index", paths[2]]
    if axis > 0:
        args += ["--slot-axis", str(axis)]
    if d == "bf16":
        args += ["--dtype", "bf16"]
    if s == "bf16":
        args += ["--src-dtype", "bf16"]
    label = "case %d: [%s, %s, %s] cache %s slot-axis %d, %d rows" % (
        k, s, idx.dtype, d, cache_shape, axis, n)
    failures = []
    for path, extra in (("vulkan", ["--validate"] if k % 4 == 0 else []), ("cpu", ["--cpu"])):
        out = os.path.join(tmp, "out-%s.npy" % path)
        proc = subprocess.run(args + extra + ["-o", out], capture_output=True, text=True)
        if proc.returncode != 0:
            failures.append("%s: exit %d: %s" % (path, proc.returncode, proc.stderr.strip()))
            continue
        with open(out, "rb") as f:
            got = f.read()
        os.unlink(out)
        if got != npy_bytes(want):
            failures.append("%s: output differs from NumPy" % path)
        said = "%d index(es) at or past" % bad
        if (bad > 0) != (said in proc.stderr) or (bad == 0 and proc.stderr):
            failures.append("%s: stderr %r, NumPy counts %d past the end" % (path, proc.stderr,
                                                                            bad))
    return label, failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("fkc_run")
    ap.add_argument("--cases", type=int, default=78)
    ap.add_argument("--seed", type=int, default=20261201)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="fkc-set-rows-") as tmp:
        for k in range(a.cases):
            label, failures = run_case(os.path.abspath(a.fkc_run), tmp, k, rng)
            if failures:
                failed += 1
                print("FAIL " + label)
                for f in failures:
                    print("     " + f)
            else:
                passed += 1
    print("numpy_set_rows: seed %d, %d cases x (Vulkan default device, --cpu), %d dtype pairs, "
          "I32/I64, three layouts" % (a.seed, a.cases, len(PAIRS)))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
