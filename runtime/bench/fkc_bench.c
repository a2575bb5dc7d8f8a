/* fkc_bench.c — build/fkc-bench: throughput of write_slice / write_slice_rotating on one Vulkan
 * device, beside a plain vkCmdCopyBuffer of the same bytes and a host memcpy, printed as a
 * Markdown table. Ops are recorded many to a stream and submitted once, so the figure is the
 * per-op device cost, not a submit+wait per op. A measurement, never an assertion.
 *   fkc-bench [--sizes 1M,16M,64M] [--iters N] [--device N|NAME] [--paths compute,transfer] */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fkc/fkc_runtime.h"

#define ROW_ELEMS 4096u /* f32 elements per source row (16 KiB) */
#define PAD_ELEMS 64u   /* destination rows are this much wider */

static char small_note[256]; /* the small-op figures, printed after the table */

#define WARMUP_SECONDS 1.0 /* of the same ops before each figure is measured */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

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

typedef struct bench {
    fkc_context *ctx;
    fkc_buffer *src, *dst, *pos; /* src: size bytes; dst: the wider slab or ring */
    int iters;
} bench;

typedef enum op_kind { OP_SLICE, OP_SLICE_FULL, OP_ROTATING, OP_COPY, OP_TINY } op_kind;

/* Records `iters` ops of one kind into a stream, then times the one submit + wait. */
static fkc_status run(bench *b, op_kind k, size_t bytes, double *sec, double *wall)
{
    fkc_stream *s;
    fkc_status st = fkc_stream_create(b->ctx, &s);
    if (st != FKC_OK)
        return st;
    size_t rows = bytes / (ROW_ELEMS * 4);
    size_t sshape[2] = {rows, ROW_ELEMS}, dshape[2] = {rows, ROW_ELEMS + PAD_ELEMS};
    size_t off[2] = {0, PAD_ELEMS / 2};
    if (k == OP_SLICE_FULL) { /* whole rows: coalesces into one contiguous run */
        dshape[0] = rows + 8;
        dshape[1] = ROW_ELEMS;
        off[0] = 4;
        off[1] = 0;
    }
    if (k == OP_ROTATING) { /* a ring of rows + 8, written from position rows/2 + 8: wraps */
        dshape[0] = rows + 8;
        dshape[1] = ROW_ELEMS;
    }
    fkc_tensor src = {b->src, 0, FKC_DTYPE_F32, 2, {sshape[0], sshape[1]}};
    fkc_tensor out = {b->dst, 0, FKC_DTYPE_F32, 2, {dshape[0], dshape[1]}};
    fkc_tensor tiny_src = {b->src, 0, FKC_DTYPE_F32, 1, {64}};
    fkc_tensor tiny_out = {b->dst, 0, FKC_DTYPE_F32, 1, {128}};
    size_t tiny_off[1] = {32};
    /* Warm-up passes run the same ops until WARMUP_SECONDS have passed (at least one pass):
     * GPUs start at idle clocks, and on the H200 the first second or so of a process's work
     * read 2-3x slow. Only the last pass is measured. */
    double until = now() + WARMUP_SECONDS;
    for (bool last = false; !last && st == FKC_OK;) {
        last = now() >= until;
        int n = b->iters;
        for (int i = 0; i < n && st == FKC_OK; i++) {
            if (k == OP_SLICE || k == OP_SLICE_FULL)
                st = fkc_write_slice(s, &src, &out, off);
            else if (k == OP_ROTATING)
                st = fkc_write_slice_rotating(s, &src, &out, rows + 8, b->pos, 0, 0);
            else if (k == OP_COPY)
                st = fkc_stream_copy(s, b->dst, 0, b->src, 0, bytes);
            else
                st = fkc_write_slice(s, &tiny_src, &tiny_out, tiny_off);
        }
        double t0 = now();
        if (st == FKC_OK)
            st = fkc_stream_submit(s);
        double dev = fkc_stream_device_seconds(s);
        *wall = (now() - t0) / n;
        *sec = dev >= 0 ? dev / n : *wall; /* device timestamps when the queue has them */
    }
    fkc_stream_destroy(s);
    return st;
}

static double host_memcpy(size_t bytes, int iters)
{
    unsigned char *a = malloc(bytes), *c = malloc(bytes);
    double best = 0;
    if (!a || !c) {
        free(a);
        free(c);
        return 0;
    }
    memset(a, 1, bytes);
    memset(c, 2, bytes);
    double t0 = now();
    for (int i = 0; i < iters; i++) {
        memcpy(c, a, bytes);
        a[(size_t)i % bytes] = c[(size_t)i * 7 % bytes]; /* keeps the copies from being folded away */
    }
    best = (now() - t0) / iters;
    free(a);
    free(c);
    return best;
}

static void row(const char *op, const char *path, size_t bytes, double sec, double wall,
                double copy_sec)
{
    double gbs = sec > 0 ? (double)bytes / sec / 1e9 : 0;
    printf("| %-36s | %-8s | %8.2f | %10.2f | %9.2f | %10.2f | %6.2f |\n", op, path,
           (double)bytes / (1 << 20), sec * 1e6, gbs, wall * 1e6, sec > 0 ? copy_sec / sec : 0);
}

static int bench_size(bench *b, const char *path, size_t bytes, int first)
{
    static const struct {
        op_kind k;
        const char *name;
    } ops[] = {
        {OP_SLICE, "write_slice f32 [r,4096] in [r,4160]"},
        {OP_SLICE_FULL, "write_slice f32 whole rows"},
        {OP_ROTATING, "write_slice_rotating f32, split"},
    };
    double t_copy = 0, w_copy = 0, t = 0, w = 0;
    fkc_status st;
    if ((st = run(b, OP_COPY, bytes, &t_copy, &w_copy)) != FKC_OK)
        return die("vkCmdCopyBuffer", st);
    if (first) {
        double h = host_memcpy(bytes, b->iters);
        row("vkCmdCopyBuffer (baseline)", "-", bytes, t_copy, w_copy, t_copy);
        row("host memcpy", "-", bytes, h, h, t_copy);
    }
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        if ((st = run(b, ops[i].k, bytes, &t, &w)) != FKC_OK)
            return die(ops[i].name, st);
        row(ops[i].name, path, bytes, t, w, t_copy);
    }
    return 0;
}

/* One context per copy path; returns non-zero on failure. */
static int bench_path(const char *path, const char *device, const size_t *sizes, int n_sizes,
                      int iters, int first)
{
    fkc_context_options o;
    bench b = {0};
    fkc_context_options_init(&o);
    if (device) {
        char *end;
        long idx = strtol(device, &end, 10);
        if (*end == '\0' && end != device)
            o.device_index = (int32_t)idx;
        else
            o.device_name = device;
    }
    o.copy_path = strcmp(path, "transfer") == 0 ? FKC_COPY_TRANSFER
                  : strcmp(path, "compute") == 0 ? FKC_COPY_COMPUTE : FKC_COPY_AUTO;
    fkc_status st = fkc_context_create(&o, &b.ctx);
    if (st != FKC_OK)
        return die("context", st);
    if (first)
        printf("Device: %s (%s); iterations per figure: %d; one submit per figure.\n\n"
               "µs/op and GB/s from device timestamps (when the queue has them; else wall "
               "time); wall µs/op includes the one submit + wait shared by all ops.\n\n"
               "| op | path | MiB | µs/op | GB/s | wall µs/op | × copy speed |\n"
               "|----|------|----:|------:|-----:|-----------:|-------------:|\n",
               fkc_context_device(b.ctx)->name,
               fkc_device_type_name(fkc_context_device(b.ctx)->type), iters);
    b.iters = iters;
    int rc = 0;
    for (int i = 0; i < n_sizes && !rc; i++) {
        size_t bytes = sizes[i] / (ROW_ELEMS * 4) * (ROW_ELEMS * 4);
        size_t rows = bytes / (ROW_ELEMS * 4);
        uint64_t pos = rows / 2 + 8; /* ring of rows + 8: the write wraps */
        unsigned char p8[8];
        for (int k = 0; k < 8; k++)
            p8[k] = (unsigned char)(pos >> (8 * k));
        uint64_t dst_bytes = (uint64_t)(rows + 8) * (ROW_ELEMS + PAD_ELEMS) * 4;
        if (bytes == 0)
            continue;
        if ((st = fkc_buffer_create(b.ctx, bytes, &b.src)) != FKC_OK ||
            (st = fkc_buffer_create(b.ctx, dst_bytes, &b.dst)) != FKC_OK ||
            (st = fkc_buffer_create(b.ctx, 8, &b.pos)) != FKC_OK ||
            (st = fkc_buffer_upload(b.pos, 0, p8, 8)) != FKC_OK)
            rc = die("buffers", st);
        if (!rc)
            rc = bench_size(&b, path, bytes, first);
        fkc_buffer_destroy(b.src);
        fkc_buffer_destroy(b.dst);
        fkc_buffer_destroy(b.pos);
        b.src = b.dst = b.pos = NULL;
    }
    if (!rc && first) { /* per-op cost of small recorded ops, and one submit+wait */
        double t_many = 0, w_many = 0, t_one = 0, w_one = 0;
        if (fkc_buffer_create(b.ctx, 1 << 16, &b.src) == FKC_OK &&
            fkc_buffer_create(b.ctx, 1 << 16, &b.dst) == FKC_OK &&
            run(&b, OP_TINY, 256, &t_many, &w_many) == FKC_OK) {
            int keep = b.iters;
            b.iters = 1;
            if (run(&b, OP_TINY, 256, &t_one, &w_one) == FKC_OK)
                snprintf(small_note, sizeof small_note,
                         "Small write_slice (256 B): %.2f µs/op of device time (%.1f µs/op of "
                         "wall time) recorded %d to a stream; one op with its own submit+wait: "
                         "%.1f µs wall.\n", t_many * 1e6, w_many * 1e6, keep, w_one * 1e6);
            b.iters = keep;
        }
        fkc_buffer_destroy(b.src);
        fkc_buffer_destroy(b.dst);
    }
    fkc_context_destroy(b.ctx);
    return rc;
}

int main(int argc, char **argv)
{
    size_t sizes[16] = {1 << 20, 16 << 20, 64 << 20};
    int n_sizes = 3, iters = 10;
    const char *device = NULL, *paths = "compute,transfer";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--sizes") == 0 && v) {
            char buf[256], *sv = NULL;
            snprintf(buf, sizeof buf, "%s", v);
            n_sizes = 0;
            for (char *t = strtok_r(buf, ",", &sv); t && n_sizes < 16; t = strtok_r(NULL, ",", &sv)) {
                if (!(sizes[n_sizes++] = parse_size(t))) {
                    fprintf(stderr, "fkc-bench: bad size '%s' (e.g. 64M)\n", t);
                    return 2;
                }
            }
            i++;
        } else if (strcmp(a, "--iters") == 0 && v) {
            iters = atoi(v);
            if (iters < 1 || iters > 100000) {
                fprintf(stderr, "fkc-bench: --iters must be 1..100000\n");
                return 2;
            }
            i++;
        } else if (strcmp(a, "--device") == 0 && v) {
            device = v;
            i++;
        } else if (strcmp(a, "--paths") == 0 && v) {
            paths = v;
            i++;
        } else {
            fprintf(stderr, "usage: fkc-bench [--sizes 1M,16M,64M] [--iters N] "
                            "[--device N|NAME] [--paths compute,transfer,auto]\n");
            return 2;
        }
    }
    char buf[128], *sv = NULL;
    snprintf(buf, sizeof buf, "%s", paths);
    int first = 1;
    for (char *p = strtok_r(buf, ",", &sv); p; p = strtok_r(NULL, ",", &sv)) {
        if (strcmp(p, "compute") && strcmp(p, "transfer") && strcmp(p, "auto")) {
            fprintf(stderr, "fkc-bench: unknown path '%s'\n", p);
            return 2;
        }
        char *save = strdup(p);
        int rc = save ? bench_path(save, device, sizes, n_sizes, iters, first) : 1;
        free(save);
        if (rc)
            return 1;
        first = 0;
    }
    if (small_note[0])
        printf("\n%s", small_note);
    return 0;
}
