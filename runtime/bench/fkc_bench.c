/* fkc_bench.c — build/fkc-bench: the runtime's speed on one Vulkan device, each figure beside
 * references measured in the same run on the same device (bare.c: vkCmdCopyBuffer and a plain
 * 16-byte-per-invocation compute copy of the same bytes, a bare submit + wait). Ops are
 * recorded many to a stream and submitted once, so figures are per-op device costs. Prints
 * Markdown tables (and, with --csv, the bandwidth rows for bench-plot). A measurement, never
 * an assertion.
 *   fkc-bench [--short] [--sizes 64K,1M,...] [--iters N] [--warmup S] [--device N|NAME]
 *             [--paths auto,compute,transfer] [--csv FILE] [--no-kv] */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bare.h"
#include "fkc/fkc_profiling.h" /* the counters, plain copy and FKC_CONTEXT_NO_SHORT_RUNS */
#include "fkc/fkc_runtime.h"
#include "fkc/fkc_vulkan.h"

#define ROW_BYTES 16384u /* source row of the bandwidth slabs */
#define KV_HEADS 32u
#define KV_CAP 4096u
#define KV_DIM 128u
/* The decode step (issue 15; runtime/bench/torch_decode.py has the same shapes): 2 x 32 caches
 * [B, 32, DECODE_SEQ, 128] f16 (a buffer per 1 GiB of them), one token [B, 32, 1, 128] f16 each, from one. */
#define DECODE_CACHES 64u
#define DECODE_HEADS 32u
#define DECODE_SEQ 2048u
#define DECODE_DIM 128u

typedef struct opts {
    size_t sizes[16];
    int n_sizes, iters, kv_ops, shots, steps;
    size_t seq; /* the decode step's cache length (short mode: fewer) */
    double warmup;
    const char *device, *paths, *csv;
    bool kv;
} opts;

typedef struct bench {
    fkc_context *ctx;
    fkc_context *general; /* FKC_CONTEXT_NO_SHORT_RUNS: the 4-D slab's general-kernel row */
    bare *ref;
    const opts *o;
    const char *path;
    FILE *csv;
} bench;

static int die(const char *what, fkc_status st)
{
    fprintf(stderr, "fkc-bench: %s: %s\n", what, st == FKC_OK ? "failed" : fkc_last_error());
    return 1;
}

/* Parses "64M", "1G", "4096", "512K" into bytes; 0 when malformed. */
static size_t parse_size(const char *s)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s)
        return 0;
    if (*end == 'K' || *end == 'k')
        v <<= 10, end++;
    else if (*end == 'M' || *end == 'm')
        v <<= 20, end++;
    else if (*end == 'G' || *end == 'g')
        v <<= 30, end++;
    return *end ? 0 : (size_t)v;
}

/* One recorded op of a measurement. */
typedef struct op {
    fkc_tensor src, out;
    size_t off[FKC_MAX_RANK];
    bool rotating;
    fkc_buffer *pos;
    size_t cap;
    int32_t axis;
    bool step; /* write_slice: advance the ring-axis offset (axis 2) per op */
} op;

static fkc_status record(fkc_stream *s, op *o, int k)
{
    if (o->rotating)
        return fkc_write_slice_rotating(s, &o->src, &o->out, o->cap, o->pos, 0, o->axis);
    if (o->step)
        o->off[2] = (size_t)k % o->out.shape[2];
    return fkc_write_slice(s, &o->src, &o->out, o->off);
}

/* `n` ops into one stream, submitted once, repeated for `warmup` seconds (at least twice):
 * the best pass's device seconds per op (timestamps, else wall) and host seconds per op spent
 * recording. The best pass, not the last: on a shared machine (lavapipe on 2 busy cores) one
 * pass can be slowed many times by other processes; on the H200 they agree within noise. */
static fkc_status measure(bench *b, op *o, int n, double *dev, double *host)
{
    fkc_stream *s;
    fkc_status st = fkc_stream_create(b->ctx, &s);
    double until = bench_now() + b->o->warmup;
    *dev = *host = -1;
    for (int pass = 0; st == FKC_OK && (pass < 2 || bench_now() < until); pass++) {
        double t0 = bench_now();
        for (int k = 0; k < n && st == FKC_OK; k++)
            st = record(s, o, k);
        double h = (bench_now() - t0) / n;
        t0 = bench_now();
        if (st == FKC_OK)
            st = fkc_stream_submit(s);
        double d = fkc_stream_device_seconds(s);
        d = d >= 0 ? d / n : (bench_now() - t0) / n;
        if (pass > 0 && (*dev < 0 || d < *dev)) /* the first pass warms up only */
            *dev = d;
        if (pass > 0 && (*host < 0 || h < *host))
            *host = h;
    }
    fkc_stream_destroy(s);
    return st;
}

/* One bandwidth row; `key` names it in the CSV (no commas). */
static void table_row(bench *b, const char *name, const char *key, const char *width,
                      const char *layout, size_t bytes, double sec, double plain, double copy)
{
    double gbs = sec > 0 ? (double)bytes / sec / 1e9 : 0;
    printf("| %-30s | %-5s | %-9s | %-8s | %9.2f | %10.2f | %8.2f | %6.2f | %6.2f |\n", name, width,
           layout, b->path, (double)bytes / (1 << 20), sec * 1e6, gbs, sec > 0 ? plain / sec : 0,
           sec > 0 ? copy / sec : 0);
    if (b->csv)
        fprintf(b->csv, "%s,%s,%s,%s,%zu,%.9g,%.6g,%.9g,%.9g\n", key, width, layout, b->path, bytes,
                sec, gbs, plain, copy);
}

static const struct {
    fkc_dtype dt;
    const char *name;
} widths[] = {
    {FKC_DTYPE_U8, "b1"}, {FKC_DTYPE_F16, "b2"}, {FKC_DTYPE_F32, "b4"}, {FKC_DTYPE_F64, "b8"}};

/* The bandwidth rows of one size: the two references, write_slice at each width aligned and
 * not, whole rows, and a 4-D slab with 12-byte innermost runs (by default the short-run kernel;
 * then again through the general kernel, FKC_CONTEXT_NO_SHORT_RUNS, side by side). */
static int bandwidth(bench *b, size_t bytes, bool refs)
{
    size_t rows = bytes / ROW_BYTES;
    size_t outer = bytes / (16 * 64 * 12); /* of the 4-D slab */
    uint64_t dst_bytes = (uint64_t)(rows + 2) * (ROW_BYTES + 64);
    if ((uint64_t)outer * 16 * 64 * 16 > dst_bytes)
        dst_bytes = (uint64_t)outer * 16 * 64 * 16;
    fkc_buffer *src = NULL, *dst = NULL;
    double plain = 0, copy = 0, dev = 0, host = 0;
    int rc = 0;
    if (bare_buffers(b->ref, bytes, bytes) ||
        bare_measure(b->ref, 1, bytes, 1, 0, 0, b->o->iters, b->o->warmup, &plain, &host) ||
        bare_measure(b->ref, 0, bytes, 1, 0, 0, b->o->iters, b->o->warmup, &copy, &host)) {
        fprintf(stderr, "fkc-bench: the bare reference failed at %zu bytes\n", bytes);
        return 1;
    }
    bare_buffers(b->ref, 16, 16); /* give the memory back before the runtime's buffers */
    if (refs) {
        table_row(b, "vkCmdCopyBuffer (reference)", "copy", "-", "contig", bytes, copy, plain,
                  copy);
        table_row(b, "plain compute copy (reference)", "plain", "-", "contig", bytes, plain, plain,
                  copy);
    }
    fkc_status st;
    if ((st = fkc_buffer_create(b->ctx, bytes, &src)) != FKC_OK ||
        (st = fkc_buffer_create(b->ctx, dst_bytes, &dst)) != FKC_OK)
        rc = die("buffers", st);
    for (int w = 0; w < 4 && !rc; w++) {
        size_t e = fkc_dtype_size(widths[w].dt), n = ROW_BYTES / e;
        for (int un = 0; un < 2 && !rc; un++) {
            /* aligned: rows 16 bytes longer, written at element 16/e; unaligned: rows one
             * element longer, written at element 1 (pitch and offset not 16-byte aligned) */
            size_t pad = un ? 1 : 16 / e, at = un ? 1 : 16 / e;
            op o = {.src = {src, 0, widths[w].dt, 2, {rows, n}},
                    .out = {dst, 0, widths[w].dt, 2, {rows, n + pad}},
                    .off = {0, at}};
            if ((st = measure(b, &o, b->o->iters, &dev, &host)) != FKC_OK)
                rc = die("write_slice", st);
            else
                table_row(b, "write_slice [r,n] in [r,n+p]", "write_slice", widths[w].name,
                          un ? "unaligned" : "aligned", bytes, dev, plain, copy);
        }
    }
    if (!rc) { /* whole rows: one contiguous run */
        op o = {.src = {src, 0, FKC_DTYPE_F32, 2, {rows, ROW_BYTES / 4}},
                .out = {dst, 0, FKC_DTYPE_F32, 2, {rows + 2, ROW_BYTES / 4}},
                .off = {1, 0}};
        if ((st = measure(b, &o, b->o->iters, &dev, &host)) != FKC_OK)
            rc = die("write_slice", st);
        else
            table_row(b, "write_slice whole rows", "whole_rows", "b4", "contig", bytes, dev, plain,
                      copy);
    }
    fkc_buffer *pos = NULL; /* rotating: the rows into a ring of rows + 2 at device position
                             * 3 (the last row wraps to 0), each width (issue 23 item 5) */
    static const unsigned char start[8] = {3};
    if (!rc && ((st = fkc_buffer_create(b->ctx, 16, &pos)) != FKC_OK ||
                (st = fkc_buffer_upload(pos, 0, start, sizeof start)) != FKC_OK))
        rc = die("position buffer", st);
    for (int w = 0; w < 4 && !rc; w++) {
        size_t e = fkc_dtype_size(widths[w].dt), n = ROW_BYTES / e;
        op o = {.src = {src, 0, widths[w].dt, 2, {rows, n}},
                .out = {dst, 0, widths[w].dt, 2, {rows + 2, n}},
                .rotating = true,
                .pos = pos,
                .cap = rows + 2,
                .axis = 0};
        if ((st = measure(b, &o, b->o->iters, &dev, &host)) != FKC_OK)
            rc = die("write_slice_rotating", st);
        else
            table_row(b, "rotating [r,n] into a ring", "rotating", widths[w].name, "aligned", bytes,
                      dev, plain, copy);
    }
    fkc_buffer_destroy(pos);
    if (!rc) { /* 4-D, innermost run 6 x f16 = 12 bytes inside rows of 8 */
        op o = {.src = {src, 0, FKC_DTYPE_F16, 4, {outer, 16, 64, 6}},
                .out = {dst, 0, FKC_DTYPE_F16, 4, {outer, 16, 64, 8}},
                .off = {0, 0, 0, 1}};
        if (outer && (st = measure(b, &o, b->o->iters, &dev, &host)) != FKC_OK)
            rc = die("write_slice 4-D", st);
        else if (outer)
            table_row(b, "write_slice 4-D, 12-byte runs", "4d_short_runs", "b2", "unaligned",
                      outer * 16 * 64 * 12, dev, plain, copy);
    }
    fkc_buffer_destroy(src);
    fkc_buffer_destroy(dst);
    if (!rc && outer && b->general) { /* the same slab through the general unit-owning kernel
                                       * (FKC_CONTEXT_NO_SHORT_RUNS), in that context's buffers */
        fkc_context *own = b->ctx;
        src = dst = NULL;
        if ((st = fkc_buffer_create(b->general, outer * 16 * 64 * 12, &src)) != FKC_OK ||
            (st = fkc_buffer_create(b->general, outer * 16 * 64 * 16, &dst)) != FKC_OK) {
            rc = die("buffers", st);
        } else {
            op o = {.src = {src, 0, FKC_DTYPE_F16, 4, {outer, 16, 64, 6}},
                    .out = {dst, 0, FKC_DTYPE_F16, 4, {outer, 16, 64, 8}},
                    .off = {0, 0, 0, 1}};
            b->ctx = b->general;
            st = measure(b, &o, b->o->iters, &dev, &host);
            b->ctx = own;
            if (st != FKC_OK)
                rc = die("write_slice 4-D, general kernel", st);
            else
                table_row(b, "4-D 12-byte runs, general", "4d_short_runs_general", "b2",
                          "unaligned", outer * 16 * 64 * 12, dev, plain, copy);
        }
        fkc_buffer_destroy(src);
        fkc_buffer_destroy(dst);
    }
    return rc;
}

static fkc_context *context(const opts *o, const char *path, uint32_t flags, fkc_status *st)
{
    fkc_context_options co;
    fkc_context *ctx = NULL;
    fkc_context_options_init(&co);
    co.flags = flags;
    if (o->device) {
        char *end;
        long idx = strtol(o->device, &end, 10);
        if (*end == '\0' && end != o->device)
            co.device_index = (int32_t)idx;
        else
            co.device_name = o->device;
    }
    co.copy_path = strcmp(path, "transfer") == 0  ? FKC_COPY_TRANSFER
                   : strcmp(path, "compute") == 0 ? FKC_COPY_COMPUTE
                                                  : FKC_COPY_AUTO;
    *st = fkc_context_create(&co, &ctx);
    return ctx;
}

/* KV decode: one token [B, 32, 1, 128] f16 into [B, 32, 4096, 128], `kv_ops` ops to a stream:
 * write_slice, the rotating write with the position on the device and read back, beside a
 * plain dispatch of the same rows. */
static int kv_decode(bench *b, size_t batch, fkc_context *readback)
{
    size_t rows = batch * KV_HEADS, row = KV_DIM * 2;
    uint64_t dst_bytes = (uint64_t)rows * KV_CAP * row;
    double pdev = 0, phost = 0, dev = 0, host = 0;
    if (bare_buffers(b->ref, rows * row, dst_bytes) ||
        bare_measure(b->ref, 1, row, rows, row, KV_CAP * row, b->o->kv_ops, b->o->warmup, &pdev,
                     &phost)) {
        fprintf(stderr, "fkc-bench: the bare KV reference failed\n");
        return 1;
    }
    bare_buffers(b->ref, 16, 16);
    printf("| plain dispatch (reference) | %zu | %8.2f | %8.2f | %5.2f |\n", batch, pdev * 1e6,
           phost * 1e6, 1.0);
    fkc_buffer *src = NULL, *dst = NULL, *pos = NULL;
    fkc_status st;
    unsigned char p8[8] = {0xff, 0x0f}; /* position 4095: the ring end */
    int rc = 0;
    if ((st = fkc_buffer_create(b->ctx, rows * row, &src)) != FKC_OK ||
        (st = fkc_buffer_create(b->ctx, dst_bytes, &dst)) != FKC_OK ||
        (st = fkc_buffer_create(b->ctx, 8, &pos)) != FKC_OK ||
        (st = fkc_buffer_upload(pos, 0, p8, 8)) != FKC_OK)
        rc = die("KV buffers", st);
    op o = {.src = {src, 0, FKC_DTYPE_F16, 4, {batch, KV_HEADS, 1, KV_DIM}},
            .out = {dst, 0, FKC_DTYPE_F16, 4, {batch, KV_HEADS, KV_CAP, KV_DIM}},
            .step = true,
            .pos = pos,
            .cap = KV_CAP,
            .axis = 2};
    static const char *names[3] = {"write_slice", "rotating, device position",
                                   "rotating, readback"};
    for (int k = 0; k < 3 && !rc; k++) {
        o.rotating = k > 0;
        fkc_context *keep = b->ctx;
        fkc_buffer *bufs[3] = {src, dst, pos}, *rb[3] = {NULL, NULL, NULL};
        if (k == 2) { /* the readback path lives on a context of its own */
            for (int i = 0; i < 3 && st == FKC_OK; i++)
                st = fkc_buffer_create(readback,
                                       i == 1   ? dst_bytes
                                       : i == 0 ? rows * row
                                                : 8,
                                       &rb[i]);
            if (st == FKC_OK)
                st = fkc_buffer_upload(rb[2], 0, p8, 8);
            if (st != FKC_OK) {
                rc = die("KV buffers", st);
                break;
            }
            o.src.buffer = rb[0], o.out.buffer = rb[1], o.pos = rb[2];
            b->ctx = readback;
        }
        st = measure(b, &o, b->o->kv_ops, &dev, &host);
        b->ctx = keep;
        for (int i = 0; i < 3; i++)
            fkc_buffer_destroy(rb[i]);
        o.src.buffer = bufs[0], o.out.buffer = bufs[1], o.pos = bufs[2];
        if (st != FKC_OK)
            rc = die(names[k], st);
        else
            printf("| %s | %zu | %8.2f | %8.2f | %5.2f |\n", names[k], batch, dev * 1e6, host * 1e6,
                   pdev > 0 ? dev / pdev : 0);
    }
    fkc_buffer_destroy(src);
    fkc_buffer_destroy(dst);
    fkc_buffer_destroy(pos);
    return rc;
}

/* One-shot calls (one token, B = 1) against a bare submit + wait of the same plain dispatch. */
static int one_shot(bench *b)
{
    size_t rows = KV_HEADS, row = KV_DIM * 2;
    uint64_t dst_bytes = (uint64_t)rows * KV_CAP * row;
    double bare_wall = 0, t[2] = {0, 0};
    if (bare_buffers(b->ref, rows * row, dst_bytes) ||
        bare_submit_wait(b->ref, row, rows, row, KV_CAP * row, b->o->shots, &bare_wall))
        return fprintf(stderr, "fkc-bench: bare submit failed\n"), 1;
    bare_buffers(b->ref, 16, 16);
    fkc_buffer *src = NULL, *dst = NULL, *pos = NULL;
    fkc_status st;
    unsigned char p8[8] = {7};
    int rc = 0;
    if ((st = fkc_buffer_create(b->ctx, rows * row, &src)) != FKC_OK ||
        (st = fkc_buffer_create(b->ctx, dst_bytes, &dst)) != FKC_OK ||
        (st = fkc_buffer_create(b->ctx, 8, &pos)) != FKC_OK ||
        (st = fkc_buffer_upload(pos, 0, p8, 8)) != FKC_OK)
        rc = die("one-shot buffers", st);
    fkc_tensor s = {src, 0, FKC_DTYPE_F16, 4, {1, KV_HEADS, 1, KV_DIM}};
    fkc_tensor d = {dst, 0, FKC_DTYPE_F16, 4, {1, KV_HEADS, KV_CAP, KV_DIM}};
    size_t off[4] = {0, 0, 9, 0};
    for (int k = 0; k < 2 && !rc; k++) {
        for (int round = 0; round < 3 && st == FKC_OK; round++) { /* best of 2 after 1 */
            double t0 = bench_now();
            for (int i = 0; i < b->o->shots && st == FKC_OK; i++)
                st = k ? fkc_write_slice_rotating_sync(b->ctx, &s, &d, KV_CAP, pos, 0, 2)
                       : fkc_write_slice_sync(b->ctx, &s, &d, off);
            double w = (bench_now() - t0) / b->o->shots;
            if (round == 1 || (round == 2 && w < t[k]))
                t[k] = w;
        }
        if (st != FKC_OK)
            rc = die("one-shot", st);
    }
    if (!rc) {
        printf("| bare submit + wait (reference) | %8.2f | %5.2f |\n", bare_wall * 1e6, 1.0);
        printf("| fkc_write_slice_sync | %8.2f | %5.2f |\n", t[0] * 1e6, t[0] / bare_wall);
        printf("| fkc_write_slice_rotating_sync | %8.2f | %5.2f |\n", t[1] * 1e6, t[1] / bare_wall);
    }
    fkc_buffer_destroy(src);
    fkc_buffer_destroy(dst);
    fkc_buffer_destroy(pos);
    return rc;
}

/* The host's side of the recording comparison: a command buffer of its own pool on the device
 * it lent to fkc. */
typedef struct host_cmd {
    VkDevice dev;
    VkQueue queue;
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
} host_cmd;

static int host_submit_wait(host_cmd *h, double *submit_s)
{
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                       .commandBufferCount = 1,
                       .pCommandBuffers = &h->cmd};
    double t0 = bench_now();
    if (vkQueueSubmit(h->queue, 1, &si, h->fence) != VK_SUCCESS)
        return -1;
    if (submit_s)
        *submit_s = bench_now() - t0;
    if (vkWaitForFences(h->dev, 1, &h->fence, VK_TRUE, UINT64_MAX) != VK_SUCCESS ||
        vkResetFences(h->dev, 1, &h->fence) != VK_SUCCESS)
        return -1;
    return 0;
}

/* Host seconds per op to record `n` ops into fkc's own stream (host = false) or into the host's
 * command buffer through a borrowed stream (host = true): the best pass after the first, each
 * pass submitted and waited for outside the timing. */
static fkc_status record_time(bench *b, fkc_context *ctx, host_cmd *h, bool host, op *o, int n,
                              double *sec)
{
    fkc_stream *s = NULL;
    fkc_status st = host ? fkc_stream_wrap_vulkan(ctx, h->cmd, &s) : fkc_stream_create(ctx, &s);
    double until = bench_now() + b->o->warmup;
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    *sec = -1;
    for (int pass = 0; st == FKC_OK && (pass < 3 || bench_now() < until); pass++) {
        if (host) { /* the host begins its command buffer; fkc starts afresh on it */
            if (vkResetCommandPool(h->dev, h->pool, 0) != VK_SUCCESS ||
                vkBeginCommandBuffer(h->cmd, &bi) != VK_SUCCESS) {
                st = fkc_set_error(FKC_ERR_VULKAN, "the host's command buffer");
                break;
            }
            st = fkc_stream_begin_vulkan(s, h->cmd);
        } else {
            st = fkc_stream_begin(s);
        }
        double t0 = bench_now();
        for (int k = 0; k < n && st == FKC_OK; k++)
            st = record(s, o, k);
        double t = (bench_now() - t0) / n;
        if (st == FKC_OK && host)
            st = vkEndCommandBuffer(h->cmd) == VK_SUCCESS && host_submit_wait(h, NULL) == 0
                     ? FKC_OK
                     : fkc_set_error(FKC_ERR_VULKAN, "the host's submit");
        else if (st == FKC_OK)
            st = fkc_stream_submit(s);
        if (pass > 0 && (*sec < 0 || t < *sec))
            *sec = t;
    }
    fkc_stream_destroy(s);
    return st;
}

/* Host seconds of fkc_stream_submit_async on a stream holding one op, and of the host's own
 * vkQueueSubmit of a command buffer holding the same op: the best of `shots` calls after as
 * many to warm up (each waited for outside the timing). */
static fkc_status submit_time(bench *b, fkc_context *ctx, host_cmd *h, op *o, double *fkc_s,
                              double *vk_s)
{
    fkc_stream *s, *hs;
    fkc_status st = fkc_stream_create(ctx, &s);
    if (st == FKC_OK && (st = fkc_stream_wrap_vulkan(ctx, h->cmd, &hs)) != FKC_OK)
        fkc_stream_destroy(s);
    if (st != FKC_OK)
        return st;
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    *fkc_s = *vk_s = -1;
    for (int i = 0; i < 2 * b->o->shots && st == FKC_OK; i++) {
        double t0, t, v = -1;
        if ((st = record(s, o, 0)) != FKC_OK)
            break;
        t0 = bench_now();
        st = fkc_stream_submit_async(s);
        t = bench_now() - t0;
        if (st == FKC_OK)
            st = fkc_stream_wait(s, UINT64_MAX);
        if (st == FKC_OK) {
            bool ok = vkResetCommandPool(h->dev, h->pool, 0) == VK_SUCCESS &&
                      vkBeginCommandBuffer(h->cmd, &bi) == VK_SUCCESS &&
                      fkc_stream_begin_vulkan(hs, h->cmd) == FKC_OK && record(hs, o, 0) == FKC_OK &&
                      vkEndCommandBuffer(h->cmd) == VK_SUCCESS && host_submit_wait(h, &v) == 0;
            if (!ok)
                st = fkc_set_error(FKC_ERR_VULKAN, "the host's submit");
        }
        if (i >= b->o->shots && (*fkc_s < 0 || t < *fkc_s))
            *fkc_s = t;
        if (i >= b->o->shots && v >= 0 && (*vk_s < 0 || v < *vk_s))
            *vk_s = v;
    }
    fkc_stream_destroy(s);
    fkc_stream_destroy(hs);
    return st;
}

/* fkc as a guest on the reference's device: host µs to record one KV-token op into the host's
 * command buffer and into fkc's own stream (side by side on the same borrowed context), and
 * the host µs of an asynchronous submit. */
static int host_recording(bench *b)
{
    VkInstance inst;
    VkPhysicalDevice pd;
    host_cmd h = {0};
    uint32_t family;
    bare_vulkan(b->ref, &inst, &pd, &h.dev, &h.queue, &family);
    const char *ext = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    fkc_vulkan_device d;
    fkc_vulkan_device_init(&d);
    d.get_instance_proc_addr = vkGetInstanceProcAddr;
    d.instance = inst;
    d.instance_api_version = VK_API_VERSION_1_2;
    d.physical_device = pd;
    d.device = h.dev;
    d.queue_family = family;
    d.enabled_extensions = &ext;
    d.enabled_extension_count = 1;
    fkc_context *ctx = NULL;
    fkc_status st = fkc_context_create_vulkan(&d, NULL, &ctx);
    if (st != FKC_OK)
        return die("borrowed context", st);
    VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                  .queueFamilyIndex = family};
    VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                      .commandBufferCount = 1};
    VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    int rc = 0;
    if (vkCreateCommandPool(h.dev, &pi, NULL, &h.pool) != VK_SUCCESS ||
        (ai.commandPool = h.pool, vkAllocateCommandBuffers(h.dev, &ai, &h.cmd)) != VK_SUCCESS ||
        vkCreateFence(h.dev, &fi, NULL, &h.fence) != VK_SUCCESS)
        rc = (fprintf(stderr, "fkc-bench: the host's command pool\n"), 1);
    size_t rows = KV_HEADS, row = KV_DIM * 2;
    fkc_buffer *src = NULL, *dst = NULL, *pos = NULL;
    unsigned char p8[8] = {0xff, 0x0f};
    if (!rc && ((st = fkc_buffer_create(ctx, rows * row, &src)) != FKC_OK ||
                (st = fkc_buffer_create(ctx, (uint64_t)rows * KV_CAP * row, &dst)) != FKC_OK ||
                (st = fkc_buffer_create(ctx, 8, &pos)) != FKC_OK ||
                (st = fkc_buffer_upload(pos, 0, p8, 8)) != FKC_OK))
        rc = die("host-recording buffers", st);
    op o = {.src = {src, 0, FKC_DTYPE_F16, 4, {1, KV_HEADS, 1, KV_DIM}},
            .out = {dst, 0, FKC_DTYPE_F16, 4, {1, KV_HEADS, KV_CAP, KV_DIM}},
            .step = true,
            .pos = pos,
            .cap = KV_CAP,
            .axis = 2};
    static const char *names[2] = {"write_slice", "rotating, device position"};
    for (int k = 0; k < 2 && !rc; k++) {
        double own = 0, hosted = 0;
        o.rotating = k > 0;
        if ((st = record_time(b, ctx, &h, false, &o, b->o->kv_ops, &own)) != FKC_OK ||
            (st = record_time(b, ctx, &h, true, &o, b->o->kv_ops, &hosted)) != FKC_OK) {
            rc = die(names[k], st);
            break;
        }
        printf("| record %s, fkc's own stream | %8.3f | %5.2f |\n", names[k], own * 1e6, 1.0);
        printf("| record %s, the host's command buffer | %8.3f | %5.2f |\n", names[k], hosted * 1e6,
               own > 0 ? hosted / own : 0);
    }
    double async_s = 0, vk_s = 0;
    o.rotating = false;
    if (!rc && (st = submit_time(b, ctx, &h, &o, &async_s, &vk_s)) != FKC_OK)
        rc = die("asynchronous submit", st);
    if (!rc) {
        printf("| fkc_stream_submit_async, one op | %8.3f | - |\n", async_s * 1e6);
        printf("| vkQueueSubmit of the host's command buffer, one op (reference) | %8.3f | - |\n",
               vk_s * 1e6);
    }
    fkc_buffer_destroy(src);
    fkc_buffer_destroy(dst);
    fkc_buffer_destroy(pos);
    fkc_context_destroy(ctx);
    if (h.fence)
        vkDestroyFence(h.dev, h.fence, NULL);
    if (h.pool)
        vkDestroyCommandPool(h.dev, h.pool, NULL);
    return rc;
}

/* ---- the decode step ---------------------------------------------------------------- */

/* The caches go in buffers of at most DECODE_BUFFER_MAX bytes, as many whole caches a buffer:
 * Vulkan guarantees a 1 GiB allocation, no more (the H200's driver refuses 8 GiB in one). */
#ifndef DECODE_BUFFER_MAX
#define DECODE_BUFFER_MAX (1ull << 30)
#endif

typedef struct decode {
    fkc_buffer *cache[DECODE_CACHES], *tok, *pos;
    uint32_t n_cache;
    fkc_tensor src[DECODE_CACHES], out[DECODE_CACHES];
    size_t seq;
} decode;

/* One step: 64 write_slice at position p, or 64 rotating writes at the device position and
 * (advance) the position moved on by one on the device. */
static fkc_status decode_step(fkc_stream *s, decode *d, bool rotating, bool advance, size_t p)
{
    size_t off[4] = {0, 0, p % d->seq, 0};
    fkc_status st = FKC_OK;
    for (uint32_t c = 0; c < DECODE_CACHES && st == FKC_OK; c++)
        st = rotating ? fkc_write_slice_rotating(s, &d->src[c], &d->out[c], d->seq, d->pos, 0, 2)
                      : fkc_write_slice(s, &d->src[c], &d->out[c], off);
    if (st == FKC_OK && advance)
        st = fkc_stream_advance(s, d->pos, 0, 1);
    return st;
}

/* A measured way of running the step: device and host µs per step, commands and barriers per
 * step, wall µs per token (submit + wait per step). */
typedef struct step_fig {
    double dev, host, wall;
    uint32_t commands, barriers;
} step_fig;

static void keep_min(double *best, double v)
{
    if (v >= 0 && (*best < 0 || v < *best))
        *best = v;
}

/* The step recorded afresh each time (replay = false) or recorded once and replayed: `steps`
 * steps, each submitted and waited for; the best step after the first few. */
static fkc_status decode_measure(bench *b, decode *d, bool rotating, bool advance, bool replay,
                                 step_fig *f)
{
    fkc_stream *s;
    fkc_status st = fkc_stream_create(b->ctx, &s);
    f->dev = f->host = f->wall = -1;
    int n = b->o->steps;
    for (int i = 0; st == FKC_OK && i < n + 3; i++) {
        double t0 = bench_now(), h = -1;
        if (!replay || i == 0) {
            if ((st = fkc_stream_begin(s)) != FKC_OK)
                break;
            t0 = bench_now();
            st = decode_step(s, d, rotating, advance, (size_t)i);
            h = bench_now() - t0;
            f->commands = fkc_stream_command_count(s);
            f->barriers = fkc_stream_barrier_count(s);
            if (st == FKC_OK)
                st = fkc_stream_submit(s);
        } else {
            st = fkc_stream_replay(s);
        }
        double w = bench_now() - t0;
        if (i < 3) /* warm-up */
            continue;
        keep_min(&f->dev, fkc_stream_device_seconds(s));
        keep_min(&f->host, h);
        keep_min(&f->wall, w);
    }
    fkc_stream_destroy(s);
    return st;
}

/* The decode-step rows of one batch size. */
static int decode_batch(bench *b, size_t batch)
{
    size_t row = DECODE_DIM * 2, rows = DECODE_CACHES * batch * DECODE_HEADS, seq = b->o->seq;
    uint64_t cache_bytes = (uint64_t)batch * DECODE_HEADS * seq * row;
    double pdev = 0, phost = 0, bare_wall = 0;
    /* the references: one plain dispatch of the same rows (token rows land seq rows apart),
     * one command buffer per step; and a bare submit + wait of it */
    if (bare_buffers(b->ref, rows * row, cache_bytes * DECODE_CACHES) ||
        bare_measure(b->ref, 1, row, rows, row, seq * row, 1, b->o->warmup, &pdev, &phost) ||
        bare_submit_wait(b->ref, row, rows, row, seq * row, b->o->shots, &bare_wall)) {
        fprintf(stderr, "fkc-bench: the bare decode reference failed\n");
        return 1;
    }
    bare_buffers(b->ref, 16, 16);
    decode d = {.seq = seq};
    fkc_status st = FKC_OK;
    unsigned char p8[8] = {0};
    uint64_t per = cache_bytes >= DECODE_BUFFER_MAX ? 1 : DECODE_BUFFER_MAX / cache_bytes;
    d.n_cache = (uint32_t)((DECODE_CACHES + per - 1) / per);
    for (uint32_t i = 0; i < d.n_cache && st == FKC_OK; i++) {
        uint64_t n = i + 1 < d.n_cache ? per : DECODE_CACHES - per * i;
        st = fkc_buffer_create(b->ctx, cache_bytes * n, &d.cache[i]);
    }
    if (st != FKC_OK || (st = fkc_buffer_create(b->ctx, rows * row, &d.tok)) != FKC_OK ||
        (st = fkc_buffer_create(b->ctx, 16, &d.pos)) != FKC_OK ||
        (st = fkc_buffer_upload(d.pos, 0, p8, 8)) != FKC_OK) {
        for (uint32_t i = 0; i < d.n_cache; i++)
            fkc_buffer_destroy(d.cache[i]);
        fkc_buffer_destroy(d.tok);
        fkc_buffer_destroy(d.pos);
        return die("decode buffers", st);
    }
    for (uint32_t c = 0; c < DECODE_CACHES; c++) {
        d.src[c] = (fkc_tensor){d.tok,
                                c * batch * DECODE_HEADS * row,
                                FKC_DTYPE_F16,
                                4,
                                {batch, DECODE_HEADS, 1, DECODE_DIM}};
        d.out[c] = (fkc_tensor){d.cache[c / per],
                                (c % per) * cache_bytes,
                                FKC_DTYPE_F16,
                                4,
                                {batch, DECODE_HEADS, seq, DECODE_DIM}};
    }
    /* (the rotating step without its advance: what the advance adds to the step) */
    static const char *names[4] = {"64 x write_slice", "64 x rotating, no advance",
                                   "64 x rotating + advance", "64 x rotating + advance, replayed"};
    step_fig f[4];
    int rc = 0;
    for (int k = 0; k < 4 && !rc; k++)
        if ((st = decode_measure(b, &d, k > 0, k >= 2, k == 3, &f[k])) != FKC_OK)
            rc = die(names[k], st);
    if (!rc) {
        printf("| plain dispatch, same rows (reference) | %zu | %8.2f | %8.2f | 1 | 0 | %5.2f | "
               "%8.2f | %5.2f |\n",
               batch, pdev * 1e6, phost * 1e6, 1.0, bare_wall * 1e6, 1.0);
        for (int k = 0; k < 4; k++) {
            char host[32] = "-";
            if (f[k].host >= 0)
                snprintf(host, sizeof host, "%8.2f", f[k].host * 1e6);
            printf("| %s | %zu | %8.2f | %s | %u | %u | %5.2f | %8.2f | %5.2f |\n", names[k], batch,
                   f[k].dev * 1e6, host, f[k].commands, f[k].barriers,
                   pdev > 0 && f[k].dev >= 0 ? f[k].dev / pdev : 0, f[k].wall * 1e6,
                   bare_wall > 0 ? f[k].wall / bare_wall : 0);
        }
    }
    for (uint32_t i = 0; i < d.n_cache; i++)
        fkc_buffer_destroy(d.cache[i]);
    fkc_buffer_destroy(d.tok);
    fkc_buffer_destroy(d.pos);
    return rc;
}


/* ---- set_rows (issue 24): the decode step and a prefill, slots on the device ---------------- */

#define PREFILL_TOKENS 4096u

typedef struct sr_bench {
    fkc_buffer *cache[DECODE_CACHES], *src16[DECODE_CACHES], *src32[DECODE_CACHES], *idx, *status;
    uint32_t n_cache, n_src16, n_src32;
    fkc_tensor out[DECODE_CACHES], s16[DECODE_CACHES], s32[DECODE_CACHES], index;
    int32_t axis; /* the slot axis: 2 (HND) or -1 (NHD) */
} sr_bench;

static void sr_free(sr_bench *r)
{
    for (uint32_t i = 0; i < DECODE_CACHES; i++) {
        fkc_buffer_destroy(r->cache[i]);
        fkc_buffer_destroy(r->src16[i]);
        fkc_buffer_destroy(r->src32[i]);
    }
    fkc_buffer_destroy(r->idx);
    fkc_buffer_destroy(r->status);
    memset(r, 0, sizeof *r);
}

/* Tensors of `n` bytes each in buffers of at most DECODE_BUFFER_MAX bytes. */
static fkc_status sr_place(fkc_context *ctx, fkc_buffer **bufs, uint64_t n, fkc_tensor *t,
                           fkc_dtype dt, uint32_t rank, const size_t *shape)
{
    uint64_t per = n >= DECODE_BUFFER_MAX ? 1 : DECODE_BUFFER_MAX / n;
    fkc_status st = FKC_OK;
    for (uint32_t c = 0; c < DECODE_CACHES && st == FKC_OK; c++) {
        if (c % per == 0) {
            uint64_t k = DECODE_CACHES - c < per ? DECODE_CACHES - c : per;
            st = fkc_buffer_create(ctx, n * k, &bufs[c / per]);
        }
        t[c] = (fkc_tensor){bufs[c / per], (c % per) * n, dt, rank, {0}};
        memcpy(t[c].shape, shape, rank * sizeof *shape);
    }
    return st;
}

/* 64 caches [1, 32, seq, 128] f16 (HND: the slot on axis 2; nhd: [seq, 32, 128], the slot on
 * axis 0), n rows [n, 32, 128] each, in f16 and f32; one I64 index of n slots (0, 1, ...: a
 * prefill's) and one status word shared by all. */
static fkc_status sr_make(bench *b, sr_bench *r, size_t seq, size_t n, bool nhd)
{
    size_t cs[4] = {1, DECODE_HEADS, seq, DECODE_DIM}, ss[3] = {n, DECODE_HEADS, DECODE_DIM};
    size_t cn[3] = {seq, DECODE_HEADS, DECODE_DIM};
    uint64_t row = DECODE_HEADS * DECODE_DIM;
    fkc_status st = sr_place(b->ctx, r->cache, seq * row * 2, r->out, FKC_DTYPE_F16, nhd ? 3 : 4,
                             nhd ? cn : cs);
    r->axis = nhd ? -1 : 2;
    if (st == FKC_OK)
        st = sr_place(b->ctx, r->src16, n * row * 2, r->s16, FKC_DTYPE_F16, 3, ss);
    if (st == FKC_OK)
        st = sr_place(b->ctx, r->src32, n * row * 4, r->s32, FKC_DTYPE_F32, 3, ss);
    if (st == FKC_OK && (st = fkc_buffer_create(b->ctx, n * 8, &r->idx)) == FKC_OK) {
        int64_t *v = malloc(n * 8);
        if (!v)
            return FKC_ERR_OUT_OF_MEMORY;
        for (size_t i = 0; i < n; i++)
            v[i] = (int64_t)(i % seq);
        st = fkc_buffer_upload(r->idx, 0, v, n * 8);
        free(v);
        r->index = (fkc_tensor){r->idx, 0, FKC_DTYPE_I64, 1, {n}};
    }
    unsigned char zero[16] = {0};
    if (st == FKC_OK && (st = fkc_buffer_create(b->ctx, 16, &r->status)) == FKC_OK)
        st = fkc_buffer_upload(r->status, 0, zero, 16);
    return st;
}

/* One step (or prefill): 64 set_rows from the f16 or f32 rows, and (advance) the index moved
 * on by one on the device. */
static fkc_status sr_step(fkc_stream *s, sr_bench *r, bool f32, bool advance)
{
    fkc_status st = FKC_OK;
    for (uint32_t c = 0; c < DECODE_CACHES && st == FKC_OK; c++)
        st = fkc_set_rows(s, f32 ? &r->s32[c] : &r->s16[c], &r->index, &r->out[c], r->axis,
                          r->status, 0);
    if (st == FKC_OK && advance)
        st = fkc_stream_advance(s, r->idx, 0, 1);
    return st;
}

static fkc_status sr_measure(bench *b, sr_bench *r, bool f32, bool replay, step_fig *f)
{
    fkc_stream *s;
    fkc_status st = fkc_stream_create(b->ctx, &s);
    f->dev = f->host = f->wall = -1;
    for (int i = 0; st == FKC_OK && i < b->o->steps + 3; i++) {
        double t0 = bench_now(), h = -1;
        if (!replay || i == 0) {
            if ((st = fkc_stream_begin(s)) != FKC_OK)
                break;
            t0 = bench_now();
            st = sr_step(s, r, f32, replay);
            h = bench_now() - t0;
            f->commands = fkc_stream_command_count(s);
            f->barriers = fkc_stream_barrier_count(s);
            if (st == FKC_OK)
                st = fkc_stream_submit(s);
        } else {
            st = fkc_stream_replay(s);
        }
        double w = bench_now() - t0;
        if (i < 3)
            continue;
        keep_min(&f->dev, fkc_stream_device_seconds(s));
        keep_min(&f->host, h);
        keep_min(&f->wall, w);
    }
    fkc_stream_destroy(s);
    return st;
}

static int set_rows_bench(bench *b)
{
    size_t seq = b->o->seq, n = b->o->seq < DECODE_SEQ ? b->o->seq : PREFILL_TOKENS;
    size_t row = DECODE_DIM * 2, rows = DECODE_CACHES * DECODE_HEADS;
    double pdev = 0, phost = 0, bare_wall = 0;
    if (bare_buffers(b->ref, rows * row, (uint64_t)seq * row * rows) ||
        bare_measure(b->ref, 1, row, rows, row, seq * row, 1, b->o->warmup, &pdev, &phost) ||
        bare_submit_wait(b->ref, row, rows, row, seq * row, b->o->shots, &bare_wall)) {
        fprintf(stderr, "fkc-bench: the bare set_rows reference failed\n");
        return 1;
    }
    bare_buffers(b->ref, 16, 16);
    sr_bench r = {0};
    fkc_status st = sr_make(b, &r, seq, 1, false);
    if (st != FKC_OK) {
        sr_free(&r);
        return die("set_rows buffers", st);
    }
    static const char *names[3] = {"set_rows x 64, f16", "set_rows x 64, f32 -> f16",
                                   "set_rows x 64 + advance, replayed"};
    step_fig f[3];
    int rc = 0;
    for (int k = 0; k < 3 && !rc; k++)
        if ((st = sr_measure(b, &r, k == 1, k == 2, &f[k])) != FKC_OK)
            rc = die(names[k], st);
    sr_free(&r);
    if (rc)
        return rc;
    printf("| plain dispatch, same rows (reference) | %8.2f | 1 | 0 | %5.2f | %8.2f | %5.2f |\n",
           pdev * 1e6, 1.0, bare_wall * 1e6, 1.0);
    for (int k = 0; k < 3; k++)
        printf("| %s | %8.2f | %u | %u | %5.2f | %8.2f | %5.2f |\n", names[k], f[k].dev * 1e6,
               f[k].commands, f[k].barriers, pdev > 0 && f[k].dev >= 0 ? f[k].dev / pdev : 0,
               f[k].wall * 1e6, bare_wall > 0 ? f[k].wall / bare_wall : 0);
    /* the prefill: n tokens into each cache, against the plain copy's bandwidth */
    uint64_t bytes = (uint64_t)DECODE_CACHES * n * DECODE_HEADS * row, ref_bytes = bytes;
    if (ref_bytes > DECODE_BUFFER_MAX)
        ref_bytes = DECODE_BUFFER_MAX;
    double plain = 0, host = 0;
    if (bare_buffers(b->ref, ref_bytes, ref_bytes) ||
        bare_measure(b->ref, 1, ref_bytes, 1, 0, 0, 1, b->o->warmup, &plain, &host)) {
        fprintf(stderr, "fkc-bench: the bare prefill reference failed\n");
        return 1;
    }
    bare_buffers(b->ref, 16, 16);
    double pg = plain > 0 ? (double)ref_bytes / plain / 1e9 : 0;
    printf("\n| prefill, %zu tokens (slots 0, 1, ...) into each of 64 caches | device µs | GB/s "
           "written | × plain GB/s | commands |\n|---|---:|---:|---:|---:|\n"
           "| plain compute copy, %llu MiB (reference) | %10.2f | %8.2f | 1.00 | 1 |\n",
           n, (unsigned long long)(ref_bytes >> 20), plain * 1e6, pg);
    for (int lay = 0; lay < 2 && !rc; lay++) {
        if ((st = sr_make(b, &r, n, n, lay == 1)) != FKC_OK) {
            sr_free(&r);
            return die("set_rows prefill buffers", st);
        }
        for (int k = 0; k < 2 && !rc; k++) {
            step_fig g;
            if ((st = sr_measure(b, &r, k == 1, false, &g)) != FKC_OK) {
                rc = die("set_rows prefill", st);
                break;
            }
            double gb = g.dev > 0 ? (double)bytes / g.dev / 1e9 : 0;
            char lay_s[64];
            if (lay)
                snprintf(lay_s, sizeof lay_s, "NHD [%zu, 32, 128]", n);
            else
                snprintf(lay_s, sizeof lay_s, "HND [1, 32, %zu, 128]", n);
            printf("| set_rows x 64, %s, %s | %10.2f | %8.2f | %5.2f | %u |\n", lay_s,
                   k ? "f32 -> f16" : "f16", g.dev * 1e6, gb, pg > 0 ? gb / pg : 0, g.commands);
        }
        sr_free(&r);
    }
    return rc;
}

static int run_path(const opts *o, const char *path, bool first, FILE *csv)
{
    fkc_status st;
    bench b = {.o = o, .path = path, .csv = csv};
    if (!(b.ctx = context(o, path, 0, &st)))
        return die("context", st);
    if (!(b.general = context(o, path, FKC_CONTEXT_NO_SHORT_RUNS, &st))) {
        fkc_context_destroy(b.ctx);
        return die("context", st);
    }
    const fkc_device_info *info = fkc_context_device(b.ctx);
    if (!(b.ref = bare_open(info->name))) {
        fkc_context_destroy(b.general);
        fkc_context_destroy(b.ctx);
        fprintf(stderr, "fkc-bench: the bare reference could not open '%s'\n", info->name);
        return 1;
    }
    int rc = 0;
    if (first) {
        char drv[512];
        bare_driver(b.ref, drv, sizeof drv);
        printf("Device: %s (%s), driver %s; %d ops per stream, %.2f s warm-up per figure.\n\n",
               info->name, fkc_device_type_name(info->type), drv, o->iters, o->warmup);
        printf("### Bandwidth\nµs/op from device timestamps; GB/s counts the bytes written "
               "(read + written is twice that); × plain and × copy: the reference's time over "
               "the op's (1.00 = as fast).\n\n"
               "| op | width | layout | path | MiB | µs/op | GB/s | × plain | × copy |\n"
               "|---|---|---|---|---:|---:|---:|---:|---:|\n");
    }
    for (int i = 0; i < o->n_sizes && !rc; i++)
        rc = bandwidth(&b, o->sizes[i] / ROW_BYTES * ROW_BYTES, first);
    if (!rc && first && o->kv) {
        fkc_context *rb = context(o, path, FKC_CONTEXT_RING_READBACK, &st);
        if (!rb)
            rc = die("context", st);
        printf("\n### KV decode\nOne token [B, 32, 1, 128] f16 into [B, 32, 4096, 128], %d ops "
               "to a stream; device µs/op from timestamps, host µs/op to record; × plain: "
               "device time over the plain dispatch's.\n\n"
               "| op | B | device µs/op | host µs/op | × plain |\n|---|---:|---:|---:|---:|\n",
               o->kv_ops);
        for (size_t batch = 1; batch <= 8 && !rc; batch += 7)
            rc = kv_decode(&b, batch, rb);
        fkc_context_destroy(rb);
        if (!rc) {
            printf("\n### One-shot calls\nOne token (B = 1), wall µs per call over %d calls "
                   "after as many to warm up.\n\n| call | wall µs | × bare |\n|---|---:|---:|\n",
                   o->shots);
            rc = one_shot(&b);
        }
        if (!rc) {
            printf("\n### Host command buffers\nfkc on a device the host lent it (the "
                   "reference's): one token [1, 32, 1, 128] f16 into [1, 32, 4096, 128], host "
                   "µs per op to record %d ops, into fkc's own stream and into the host's "
                   "command buffer (a borrowed stream), best pass; × own: over the own "
                   "stream's. Then host µs of one submit that does not wait, best of %d.\n\n"
                   "| measure | host µs | × own |\n|---|---:|---:|\n",
                   o->kv_ops, o->shots);
            rc = host_recording(&b);
        }
        if (!rc) {
            printf(
                "\n### Decode step\n2 x 32 caches [B, 32, %zu, 128] f16 (a buffer per 1 GiB of them), one "
                "token [B, 32, 1, 128] f16 into each (sources in one buffer; "
                "runtime/bench/torch_decode.py runs the same shapes in PyTorch). Each step "
                "its own submission, best of %d: device µs from timestamps (the step's "
                "command buffer, entry barrier included), host µs to record it, the "
                "commands and barriers it records, × plain: over one plain dispatch of the "
                "same rows; wall µs per token: submit + wait of the step (recorded afresh, "
                "or replayed with fkc_stream_replay: the position advanced on the device), "
                "× bare: over a bare submit + wait of the plain dispatch.\n\n"
                "| step | B | device µs | host µs | commands | barriers | × plain | "
                "wall µs / token | × bare |\n"
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
                o->seq, o->steps);
            for (size_t batch = 1; batch <= 8 && !rc; batch += 7)
                rc = decode_batch(&b, batch);
        }
        if (!rc) {
            printf("\n### set_rows\nThe decode step with row-indexed writes (issue 24): 64 "
                   "caches [1, 32, %zu, 128] f16 in HND (the slot on axis 2), one token [1, 32, "
                   "128] each from f16 or f32 rows, one I64 slot index and one status word on "
                   "the device for all; each step its own submission, best of %d (device µs, "
                   "commands, barriers, × plain: over one plain dispatch of the same rows; wall "
                   "µs / token: submit + wait, or fkc_stream_replay with the index advanced on "
                   "the device; × bare: over a bare submit + wait). Then a prefill.\n\n"
                   "| step | device µs | commands | barriers | × plain | wall µs / token | "
                   "× bare |\n|---|---:|---:|---:|---:|---:|---:|\n",
                   o->seq, o->steps);
            rc = set_rows_bench(&b);
        }
    }
    bare_close(b.ref);
    fkc_context_destroy(b.general);
    fkc_context_destroy(b.ctx);
    return rc;
}

static int usage(void)
{
    fprintf(stderr, "usage: fkc-bench [--short] [--sizes 64K,1M,...] [--iters N] [--warmup S] "
                    "[--device N|NAME] [--paths auto,compute,transfer] [--csv FILE] "
                    "[--no-kv]\n");
    return 2;
}

int main(int argc, char **argv)
{
    opts o = {.sizes = {64 << 10, 1 << 20, 16 << 20, 64 << 20, 256 << 20, 1 << 30},
              .n_sizes = 6,
              .iters = 20,
              .kv_ops = 200,
              .shots = 200,
              .steps = 50,
              .seq = DECODE_SEQ,
              .warmup = 1.0,
              .paths = "auto",
              .kv = true};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--short") == 0) { /* CI: small sizes, little warm-up */
            o.sizes[0] = 64 << 10, o.sizes[1] = 1 << 20, o.n_sizes = 2;
            o.iters = 3, o.warmup = 0.02, o.kv_ops = 20, o.shots = 10;
            o.steps = 5, o.seq = 16; /* the decode step: short caches */
        } else if (strcmp(a, "--no-kv") == 0) {
            o.kv = false;
        } else if (strcmp(a, "--sizes") == 0 && v) {
            char buf[256], *sv = NULL;
            snprintf(buf, sizeof buf, "%s", v);
            o.n_sizes = 0;
            for (char *t = strtok_r(buf, ",", &sv); t && o.n_sizes < 16;
                 t = strtok_r(NULL, ",", &sv))
                if ((o.sizes[o.n_sizes++] = parse_size(t)) < ROW_BYTES) {
                    fprintf(stderr, "fkc-bench: bad size '%s' (16K or more, e.g. 64M)\n", t);
                    return 2;
                }
            i++;
        } else if (strcmp(a, "--iters") == 0 && v) {
            o.iters = atoi(v);
            if (o.iters < 1 || o.iters > 100000)
                return fprintf(stderr, "fkc-bench: --iters must be 1..100000\n"), 2;
            i++;
        } else if (strcmp(a, "--warmup") == 0 && v) {
            o.warmup = atof(v);
            if (!(o.warmup >= 0 && o.warmup <= 60))
                return fprintf(stderr, "fkc-bench: --warmup must be 0..60 seconds\n"), 2;
            i++;
        } else if (strcmp(a, "--device") == 0 && v) {
            o.device = v;
            i++;
        } else if (strcmp(a, "--paths") == 0 && v) {
            o.paths = v;
            i++;
        } else if (strcmp(a, "--csv") == 0 && v) {
            o.csv = v;
            i++;
        } else {
            return usage();
        }
    }
    FILE *csv = NULL;
    if (o.csv && !(csv = fopen(o.csv, "w")))
        return fprintf(stderr, "fkc-bench: cannot write %s\n", o.csv), 1;
    if (csv)
        fprintf(csv, "op,width,layout,path,bytes,sec,gbs,plain_sec,copy_sec\n");
    char buf[128], *sv = NULL;
    snprintf(buf, sizeof buf, "%s", o.paths);
    int rc = 0;
    bool first = true;
    for (char *p = strtok_r(buf, ",", &sv); p && !rc; p = strtok_r(NULL, ",", &sv), first = false) {
        if (strcmp(p, "compute") && strcmp(p, "transfer") && strcmp(p, "auto")) {
            fprintf(stderr, "fkc-bench: unknown path '%s'\n", p);
            rc = 2;
        } else {
            rc = run_path(&o, p, first, csv);
        }
    }
    if (csv && fclose(csv) != 0 && !rc)
        rc = 1;
    return rc;
}
