#!/usr/bin/env python3
"""torch_decode.py — what a PyTorch user would run instead of fkc's decode step (issue 15).

The shapes of fkc-bench's decode-step section: 2 x 32 KV caches [B, 32, 2048, 128] of float16 in
one tensor, and per step one token [B, 32, 1, 128] written into each cache at the step's position.
Three ways a PyTorch user writes those 64 slices:
  eager        64 x cache[c, :, :, p:p+1].copy_(tok[c])       (one kernel launch per cache)
  cuda-graph   the same 64 copies captured once in a CUDA graph, replayed per step
  index_copy   one index_copy_ over all caches (one launch per step)
Each is timed with CUDA events over --steps steps (after --warmup steps), device microseconds
per step; and, for the per-token figure, each step followed by a synchronize (wall time per
token, host clock). Every variant's result is checked against the eager one (bit-identical:
these are copies). Prints a Markdown table; --csv FILE also writes it as CSV.

Run on a machine with PyTorch and a CUDA GPU (the H200 of docs/benchmarks.md):
  python3 runtime/bench/torch_decode.py [--batch 1,8] [--steps 50] [--warmup 10] [--csv F]
"""
import argparse
import sys
import time

CACHES = 64      # 2 (K and V) x 32 layers
HEADS = 32
SEQ = 2048
HEAD_DIM = 128


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--batch", default="1,8", help="batch sizes B, comma-separated (1,8)")
    p.add_argument("--steps", type=int, default=50, help="timed steps per variant (50)")
    p.add_argument("--warmup", type=int, default=10, help="untimed steps first (10)")
    p.add_argument("--csv", help="also write the rows as CSV to this file")
    args = p.parse_args(argv)
    try:
        args.batch = [int(b) for b in args.batch.split(",")]
    except ValueError:
        p.error("--batch: integers separated by commas, got %r" % args.batch)
    if any(b < 1 for b in args.batch) or args.steps < 1 or args.warmup < 0:
        p.error("--batch and --steps must be >= 1, --warmup >= 0")
    return args


def variants(torch, cache, toks, pos):
    """The three ways of writing step `pos`'s tokens; each a function of no arguments reading
    the position from pos (a 1-element int64 CUDA tensor, as a device-resident position)."""
    def eager():
        p = int(pos_host[0])
        for c in range(CACHES):
            cache[c, :, :, p:p + 1].copy_(toks[c])

    # index_copy_ along the sequence axis of all caches at once: cache viewed as
    # [CACHES * B * HEADS, SEQ, HEAD_DIM], the tokens as [CACHES * B * HEADS, 1, HEAD_DIM].
    flat = cache.view(-1, SEQ, HEAD_DIM)
    flat_tok = toks.view(-1, 1, HEAD_DIM)

    def index_copy():
        flat.index_copy_(1, pos, flat_tok)

    pos_host = [0]
    return eager, index_copy, pos_host


def time_steps(torch, step, n, advance):
    """Device microseconds per step over n steps, from CUDA events."""
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for i in range(n):
        advance(i)
        step()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) * 1000.0 / n


def wall_per_token(torch, step, n, advance):
    """Host microseconds per token when each step is followed by a synchronize."""
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for i in range(n):
        advance(i)
        step()
        torch.cuda.synchronize()
    return (time.perf_counter() - t0) * 1e6 / n


def run_batch(torch, b, steps, warmup):
    dev = torch.device("cuda")
    gen = torch.Generator(device=dev).manual_seed(b)
    shape = (CACHES, b, HEADS, SEQ, HEAD_DIM)
    cache = torch.randn(shape, device=dev, generator=gen, dtype=torch.float32).half()
    toks = torch.randn((CACHES, b, HEADS, 1, HEAD_DIM), device=dev, generator=gen,
                       dtype=torch.float32).half()
    pos = torch.zeros(1, dtype=torch.int64, device=dev)
    eager, index_copy, pos_host = variants(torch, cache, toks, pos)

    def advance_host(i):  # eager: the step's position is a Python int
        pos_host[0] = (i * 7) % SEQ

    def advance(i):  # index_copy_: the position also lives on the device (one fill_ a step)
        advance_host(i)
        pos.fill_(pos_host[0])

    # The CUDA graph of the 64 copies at a fixed position (a graph bakes its slices in).
    def graph_body():
        for c in range(CACHES):
            cache[c, :, :, 5:6].copy_(toks[c])
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        graph_body()
    torch.cuda.current_stream().wait_stream(s)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        graph_body()

    # Correctness: each variant's result equals the eager one (copies are bit-exact).
    ref = cache.clone()
    pos_host[0] = 5
    pos.fill_(5)
    eager()
    want = cache.clone()
    for name, fn in (("index_copy", index_copy), ("cuda-graph", graph.replay)):
        cache.copy_(ref)
        fn()
        torch.cuda.synchronize()
        if not torch.equal(cache, want):
            sys.exit("torch_decode: %s differs from eager at B = %d" % (name, b))

    rows = []
    for name, fn, adv in (("eager (64 x copy_)", eager, advance_host),
                          ("cuda-graph (64 copies, replayed)", graph.replay, lambda i: None),
                          ("index_copy_ (one launch)", index_copy, advance)):
        time_steps(torch, fn, max(warmup, 1), adv)
        dev_us = min(time_steps(torch, fn, steps, adv) for _ in range(3))
        tok_us = min(wall_per_token(torch, fn, steps, adv) for _ in range(3))
        rows.append((b, name, dev_us, tok_us))
    return rows


def main(argv):
    args = parse_args(argv)
    try:
        import torch
    except ImportError:
        sys.exit("torch_decode: PyTorch is not installed (run it where it is: the H200)")
    if not torch.cuda.is_available():
        sys.exit("torch_decode: no CUDA device")
    rows = []
    for b in args.batch:
        rows += run_batch(torch, b, args.steps, args.warmup)
    print("PyTorch %s on %s: decode step, %d caches [B, %d, %d, %d] f16, one token each"
          % (torch.__version__, torch.cuda.get_device_name(), CACHES, HEADS, SEQ, HEAD_DIM))
    print()
    print("| B | PyTorch | device µs / step | µs / token (step + synchronize) |")
    print("|---:|---|---:|---:|")
    for b, name, dev_us, tok_us in rows:
        print("| %d | %s | %.1f | %.1f |" % (b, name, dev_us, tok_us))
    if args.csv:
        with open(args.csv, "w") as f:
            f.write("batch,variant,device_us_per_step,us_per_token\n")
            for b, name, dev_us, tok_us in rows:
                f.write("%d,%s,%.3f,%.3f\n" % (b, name, dev_us, tok_us))


if __name__ == "__main__":
    main(sys.argv[1:])
