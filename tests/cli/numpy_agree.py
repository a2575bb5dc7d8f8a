#!/usr/bin/python3
"""numpy_agree.py FKC_RUN [--cases N] [--seed S] — fkc-run against NumPy, byte for byte.

Seeded random cases over all 9 dtypes (bf16 as '<u2' with --dtype bf16), both ops and ranks 1-5.
Array contents are random bits viewed as the dtype, plus planted -0.0 and NaNs with payloads, so
any conversion through float would show. Each case runs fkc-run on the default Vulkan device
(lavapipe here; every fourth case with the validation layer on) and with --cpu; both output
files must equal, byte for byte, what np.save writes for the NumPy result:
  write_slice:          out = dst.copy(); out[o0:o0+s0, ...] = src
  write_slice_rotating: for i in range(L): out[..., (P + i) % C, ...] = src[..., i, ...]
                        along the rotating axis (last write wins).
The exit status is the verdict; the last line reads 'N passed, N failed'.
Run with /usr/bin/python3 (Debian's, which has numpy).
"""
import argparse
import io
import os
import subprocess
import sys
import tempfile

import numpy as np

# fkc dtype -> (numpy dtype of the file, --dtype argument or None)
DTYPES = {
    "f32": ("<f4", None), "i32": ("<i4", None), "u32": ("<u4", None),
    "f16": ("<f2", None), "bf16": ("<u2", "bf16"), "f64": ("<f8", None),
    "i64": ("<i8", None), "u8": ("|u1", None), "i8": ("|i1", None),
}
# Bit patterns planted into float arrays: -0.0, NaNs with payloads (quiet, signalling, negative),
# a denormal, infinity. Indexed by element size; bf16 shares f16's slot (both 2 bytes).
SPECIALS = {
    2: [0x8000, 0x7e01, 0x7d55, 0xfc01, 0x0001, 0x7c00, 0x7fc1, 0xff81, 0x0040],
    4: [0x80000000, 0x7fc00001, 0x7f800abc, 0xffc12345, 0x00000001, 0x7f800000],
    8: [0x8000000000000000, 0x7ff8000000000001, 0x7ff0000000000abc, 0xfff0123456789abc,
        0x0000000000000001],
}
UINT_OF_SIZE = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def random_array(rng, shape, descr, is_float):
    """Random bits viewed as descr, with special float bit patterns planted."""
    dt = np.dtype(descr)
    n = int(np.prod(shape, dtype=np.int64))
    raw = rng.integers(0, 256, size=n * dt.itemsize, dtype=np.uint8)
    bits = raw.view(UINT_OF_SIZE[dt.itemsize]).copy()
    if is_float and n:
        specials = SPECIALS[dt.itemsize]
        for k in range(min(n, len(specials))):
            bits[rng.integers(0, n)] = specials[k]
    return bits.view(dt).reshape(shape)


def write_slice_case(rng, rank):
    dst_shape = [int(rng.integers(1, 7)) for _ in range(rank)]
    kind = rng.integers(0, 6)
    if kind == 0:                                   # full overwrite
        src_shape = list(dst_shape)
    elif kind == 1:                                 # a zero-extent source
        src_shape = [int(rng.integers(0, d + 1)) for d in dst_shape]
        src_shape[int(rng.integers(0, rank))] = 0
    else:
        src_shape = [int(rng.integers(1, d + 1)) for d in dst_shape]
    offsets = [int(rng.integers(0, d - s + 1)) for d, s in zip(dst_shape, src_shape)]
    return dst_shape, src_shape, {"offsets": offsets}


def rotating_case(rng, rank):
    axis = int(rng.integers(0, rank))
    capacity = int(rng.integers(1, 9))
    dst_shape = [int(rng.integers(1, 6)) for _ in range(rank)]
    dst_shape[axis] = capacity
    src_shape = [int(rng.integers(1, d + 1)) for d in dst_shape]
    kind = rng.integers(0, 5)
    src_shape[axis] = [int(rng.integers(1, capacity + 1)), capacity,          # fits, == capacity
                       int(rng.integers(capacity + 1, 2 * capacity + 3)),   # longer than the ring
                       0, int(rng.integers(0, capacity + 1))][kind]
    position = [int(rng.integers(0, 3 * capacity + 1)),
                int(rng.integers(0, 2 ** 63)) + 2 ** 63,                   # far beyond capacity
                2 ** 64 - 1][int(rng.choice(3, p=[0.7, 0.2, 0.1]))]
    # --axis is needed when several axes have extent capacity; sometimes given anyway
    ambiguous = sum(1 for d in dst_shape if d == capacity) > 1
    explicit = ambiguous or rng.integers(0, 3) == 0
    return dst_shape, src_shape, {"capacity": capacity, "position": position,
                                  "axis": axis if explicit else None, "true_axis": axis}


def expected(op, dst, src, p):
    out = dst.copy()
    if op == "write_slice":
        out[tuple(slice(o, o + s) for o, s in zip(p["offsets"], src.shape))] = src
        return out
    a, cap, pos = p["true_axis"], p["capacity"], p["position"]
    if 0 in src.shape:
        return out
    for i in range(src.shape[a]):
        dst_idx = [slice(0, s) for s in src.shape]
        src_idx = [slice(None)] * src.ndim
        dst_idx[a] = (pos + i) % cap
        src_idx[a] = i
        out[tuple(dst_idx)] = src[tuple(src_idx)]
    return out


def npy_bytes(arr):
    buf = io.BytesIO()
    np.save(buf, arr)
    return buf.getvalue()


def run_case(fkc_run, tmp, idx, rng):
    name = list(DTYPES)[idx % len(DTYPES)]          # every dtype equally often
    descr, dtype_arg = DTYPES[name]
    op = "write_slice" if rng.integers(0, 2) == 0 else "write_slice_rotating"
    rank = int(rng.integers(1, 6))
    dst_shape, src_shape, p = (write_slice_case if op == "write_slice" else rotating_case)(rng, rank)
    is_float = name in ("f32", "f16", "bf16", "f64")
    dst = random_array(rng, dst_shape, descr, is_float)
    src = random_array(rng, src_shape, descr, is_float)
    dpath, spath = os.path.join(tmp, "dst.npy"), os.path.join(tmp, "src.npy")
    np.save(dpath, dst)
    np.save(spath, src)
    want = npy_bytes(expected(op, dst, src, p))

    args = [fkc_run, op, "--dst", dpath, "--src", spath]
    if op == "write_slice":
        args += ["--offsets", ",".join(map(str, p["offsets"]))]
    else:
        args += ["--capacity", str(p["capacity"]), "--position", str(p["position"])]
        if p["axis"] is not None:
            args += ["--axis", str(p["axis"])]
    if dtype_arg:
        args += ["--dtype", dtype_arg]
    label = "case %d: %s %s dst%s src%s %s" % (
        idx, op, name, tuple(dst_shape), tuple(src_shape),
        {k: v for k, v in p.items() if k != "true_axis"})
    failures = []
    paths = [("vulkan", ["--validate"] if idx % 4 == 0 else []), ("cpu", ["--cpu"])]
    for path, extra in paths:
        opath = os.path.join(tmp, "out-%s.npy" % path)
        proc = subprocess.run(args + extra + ["-o", opath], capture_output=True, text=True)
        if proc.returncode != 0:
            failures.append("%s: exit %d: %s" % (path, proc.returncode, proc.stderr.strip()))
            continue
        with open(opath, "rb") as f:
            got = f.read()
        os.unlink(opath)
        if got != want:
            failures.append("%s: output differs from NumPy (%s)" % (path, describe(got, want)))
    return label, failures


def describe(got, want):
    """Where two .npy files first differ."""
    if len(got) != len(want):
        return "%d bytes, NumPy %d" % (len(got), len(want))
    first = next(i for i in range(len(got)) if got[i] != want[i])
    return "first difference at byte %d" % first


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("fkc_run")
    ap.add_argument("--cases", type=int, default=108)
    ap.add_argument("--seed", type=int, default=20261129)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="fkc-numpy-") as tmp:
        for idx in range(a.cases):
            label, failures = run_case(os.path.abspath(a.fkc_run), tmp, idx, rng)
            if failures:
                failed += 1
                print("FAIL " + label)
                for f in failures:
                    print("     " + f)
            else:
                passed += 1
    print("numpy_agree: seed %d, %d cases x (Vulkan default device, --cpu), all 9 dtypes, "
          "both ops, ranks 1-5" % (a.seed, a.cases))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
