#!/usr/bin/env python3
"""torch_set_rows.py — what a PyTorch user would run instead of fkc's set_rows (issue 24).

The shapes of fkc-bench's set_rows section: 64 KV caches (K and V of 32 layers) [1, 32, SEQ, 128]
float16 in HND, stacked into one tensor [64, 32, SEQ, 128]; per decode step one token
[32, 128] into each cache at the slot an int64 tensor on the device names. Ways a PyTorch user
writes them:
  index_copy   one cache.index_copy_(2, slot, tok) over the stacked caches (one launch)
  index_put    cache[:, :, slot] = tok (advanced indexing: index_put_, one launch)
  cuda-graph   64 per-cache index_copy_ captured once in a CUDA graph (the slot tensor is read
               when the graph runs), replayed per step
  eager        the same 64 per-cache index_copy_ launched one by one
each from float16 tokens and from float32 ones (.half() in the step: the conversion); then a
prefill of PREFILL tokens (slots 0, 1, ...) into each of 64 caches [1, 32, PREFILL, 128]
(index_copy_ over the stacked caches), GB/s written. Device microseconds from CUDA events over --steps steps after
--warmup; wall microseconds per token with a synchronize after each step. Every variant's
result is checked against eager's (bit-identical). Prints Markdown; --csv FILE also writes CSV.

  python3 runtime/bench/torch_set_rows.py [--steps 50] [--warmup 10] [--csv F]
"""
import argparse
import sys
import time

CACHES = 64
HEADS = 32
SEQ = 2048
HEAD_DIM = 128
PREFILL = 4096


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=50, help="timed steps per variant (50)")
    p.add_argument("--warmup", type=int, default=10, help="untimed steps first (10)")
    p.add_argument("--csv", help="also write the rows as CSV to this file")
    a = p.parse_args(argv)
    if a.steps < 1 or a.warmup < 0:
        p.error("--steps must be >= 1, --warmup >= 0")
    return a


def device_us(torch, step, n, advance):
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for i in range(n):
        advance(i)
        step()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) * 1000.0 / n


def wall_us(torch, step, n, advance):
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for i in range(n):
        advance(i)
        step()
        torch.cuda.synchronize()
    return (time.perf_counter() - t0) * 1e6 / n


def decode_rows(torch, steps, warmup):
    dev = torch.device("cuda")
    gen = torch.Generator(device=dev).manual_seed(24)
    cache = torch.randn((CACHES, HEADS, SEQ, HEAD_DIM), device=dev, generator=gen).half()
    tok32 = torch.randn((CACHES, HEADS, 1, HEAD_DIM), device=dev, generator=gen)
    tok16 = tok32.half()
    slot = torch.zeros(1, dtype=torch.int64, device=dev)
    rows = []
    for conv in (False, True):
        def src():
            return tok32.half() if conv else tok16

        def index_copy():
            cache.index_copy_(2, slot, src())

        def index_put():
            cache[:, :, slot] = src()

        def eager():
            t = src()
            for c in range(CACHES):
                cache[c].index_copy_(1, slot, t[c])

        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            eager()
        torch.cuda.current_stream().wait_stream(s)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            eager()

        # the same result every way (copies and the same cast: bit-identical)
        slot.fill_(5)
        eager()
        ref = cache.clone()
        for f in (index_copy, index_put, graph.replay):
            cache.zero_()
            f()
            torch.cuda.synchronize()
            if not torch.equal(cache[:, :, 5], ref[:, :, 5]):
                sys.exit("torch_set_rows: a variant's result differs from eager's")

        def advance(i):
            slot.fill_((i * 7) % SEQ)  # the slot lives on the device (one fill_ a step)

        name = "f32 -> f16" if conv else "f16"
        for label, f in (("index_copy_ (stacked)", index_copy), ("index_put_ (stacked)", index_put),
                         ("CUDA graph of 64 index_copy_", graph.replay),
                         ("eager, 64 index_copy_", eager)):
            for i in range(warmup):
                advance(i)
                f()
            d = device_us(torch, f, steps, advance)
            w = wall_us(torch, f, steps, advance)
            rows.append(("decode, " + name, label, d, w))
    return rows


def prefill_rows(torch, steps, warmup):
    dev = torch.device("cuda")
    gen = torch.Generator(device=dev).manual_seed(25)
    cache = torch.zeros((CACHES, HEADS, PREFILL, HEAD_DIM), device=dev, dtype=torch.float16)
    src32 = torch.randn((CACHES, PREFILL, HEADS, HEAD_DIM), device=dev, generator=gen)
    src16 = src32.half()
    slots = torch.arange(PREFILL, device=dev, dtype=torch.int64)  # a prefill's: 0, 1, ...
    rows = []
    written = cache.numel() * 2
    for conv in (False, True):
        def step():
            s = src32.half() if conv else src16
            cache.index_copy_(2, slots, s.permute(0, 2, 1, 3))
        for _ in range(max(1, warmup // 5)):
            step()
        n = max(1, steps // 5)
        d = device_us(torch, step, n, lambda i: None)
        rows.append(("prefill %d tokens, %s" % (PREFILL, "f32 -> f16" if conv else "f16"),
                     "index_copy_ (stacked)", d, written / (d * 1e-6) / 1e9))
    return rows


def main(argv):
    a = parse_args(argv)
    try:
        import torch
    except ImportError:
        sys.exit("torch_set_rows: needs PyTorch with a CUDA device")
    if not torch.cuda.is_available():
        sys.exit("torch_set_rows: no CUDA device")
    print("PyTorch %s, %s" % (torch.__version__, torch.cuda.get_device_name()))
    print("\n| case | PyTorch | device µs / step | wall µs / token |\n|---|---|---:|---:|")
    dec = decode_rows(torch, a.steps, a.warmup)
    for c, l, d, w in dec:
        print("| %s | %s | %.2f | %.2f |" % (c, l, d, w))
    print("\n| case | PyTorch | device µs | GB/s written |\n|---|---|---:|---:|")
    pre = prefill_rows(torch, a.steps, a.warmup)
    for c, l, d, g in pre:
        print("| %s | %s | %.2f | %.2f |" % (c, l, d, g))
    if a.csv:
        with open(a.csv, "w") as f:
            f.write("case,variant,device_us,wall_us_or_gbs\n")
            for c, l, d, w in dec + pre:
                f.write("%s,%s,%.3f,%.3f\n" % (c, l, d, w))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
