/* rt_harness.h — shared helpers of the runtime tests: a seeded generator, contexts with the
 * validation layer on (any message fails the test), and host images of device buffers so every
 * op is compared byte for byte, guard bytes included, against the plain-C reference. */
#ifndef RT_HARNESS_H
#define RT_HARNESS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fkc/fkc_reference.h"
#include "fkc/fkc_profiling.h" /* the benchmarks' counters and plain copy */
#include "fkc/fkc_runtime.h"
#include "fkc_test.h" /* the test build's hooks (runtime/src/fkc_test.h) */

/* xorshift64*: deterministic across machines. */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static inline void rng_seed(uint64_t s)
{
    rng_state = s ? s : 0x9E3779B97F4A7C15ull;
}

static inline uint64_t rng_next(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ull;
}

/* Uniform in [0, n); 0 when n == 0. */
static inline size_t rng_below(size_t n)
{
    return n ? (size_t)(rng_next() % n) : 0;
}

/* Fills bytes with random values, sprinkling the bit patterns a float path would break:
 * NaNs with payloads, -0.0, denormals, infinities (for the element width). */
static inline void fill_tricky(unsigned char *p, size_t n, size_t elem)
{
    static const uint64_t pat8[] = {0x8000000000000000ull, 0x7ff0000000000001ull,
                                    0xfff8000000000123ull, 0x0000000000000001ull};
    static const uint32_t pat4[] = {0x80000000u, 0x7fc00001u, 0xffbfffffu, 0x00000001u,
                                    0x7f800000u};
    static const uint16_t pat2[] = {0x8000u, 0x7e01u, 0xfc01u, 0x0001u, 0x7f81u};
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)rng_next();
    for (size_t i = 0; i + elem <= n; i += elem) {
        if (rng_below(4) != 0)
            continue;
        if (elem == 8)
            memcpy(p + i, &pat8[rng_below(4)], 8);
        else if (elem == 4)
            memcpy(p + i, &pat4[rng_below(5)], 4);
        else if (elem == 2)
            memcpy(p + i, &pat2[rng_below(5)], 2);
    }
}

typedef struct rt_env {
    fkc_context *ctx;
    const char *label; /* which configuration, for failure messages */
} rt_env;

/* Creates a context with the validation layer on: flags, copy path and the test hooks as
 * given (hooks NULL: none; gipa NULL: the loader's vkGetInstanceProcAddr). */
static inline fkc_context *rt_context_hooks(uint32_t flags, fkc_copy_path path,
                                            const fkc_test_hooks *hooks,
                                            PFN_vkGetInstanceProcAddr gipa)
{
    fkc_context_options o;
    fkc_context *ctx = NULL;
    fkc_context_options_init(&o);
    o.flags = flags | FKC_CONTEXT_VALIDATION;
    o.copy_path = path;
    fkc_status st = fkc_test_context_create(&o, hooks, gipa, &ctx);
    if (st != FKC_OK)
        fail_msg("fkc_context_create: %s", fkc_last_error());
    return ctx;
}

/* The same with a smaller device: storage range and grid limit (0: the device's). */
static inline fkc_context *rt_context(uint32_t flags, fkc_copy_path path, uint64_t range,
                                      uint32_t groups)
{
    fkc_test_hooks h = {.storage_buffer_range = range, .work_group_count = groups};
    return rt_context_hooks(flags, path, &h, NULL);
}

/* Fails the test when the validation layer said anything. */
static inline void rt_no_validation(const fkc_context *ctx)
{
    if (fkc_context_validation_count(ctx) != 0)
        fail_msg("%llu validation message(s); last: %s",
                 (unsigned long long)fkc_context_validation_count(ctx),
                 fkc_context_validation_last(ctx));
}

/* For a context shared by a test group: fails the current test when the validation layer spoke
 * since the last call, so each message is blamed on the test it came in. Call it from each
 * test's own teardown: a failure inside a group teardown leaves cmocka's exit status 0. */
static inline void rt_no_new_validation(const fkc_context *ctx)
{
    static uint64_t seen; /* messages already blamed on an earlier test */
    uint64_t n = fkc_context_validation_count(ctx);
    if (n != seen) {
        uint64_t fresh = n - seen;
        seen = n;
        fail_msg("%llu validation message(s); last: %s", (unsigned long long)fresh,
                 fkc_context_validation_last(ctx));
    }
}

/* The fixtures of a cmocka group whose tests share one context on the default device, with
 * validation on: RT_SHARED_CONTEXT(ctx) defines `ctx`, the group's `setup` and `teardown`, and
 * `no_validation`, run after each test: a validation message received during a test fails that
 * test (a failure inside a group teardown is printed but leaves cmocka's exit status 0, so the
 * check cannot live there). */
#define RT_SHARED_CONTEXT(ctx)                                                                     \
    static fkc_context *ctx;                                                                       \
    static int setup(void **state)                                                                 \
    {                                                                                              \
        (void)state;                                                                               \
        ctx = rt_context(0, FKC_COPY_AUTO, 0, 0);                                                  \
        return ctx ? 0 : -1;                                                                       \
    }                                                                                              \
    static int teardown(void **state)                                                              \
    {                                                                                              \
        (void)state;                                                                               \
        fkc_context_destroy(ctx);                                                                  \
        return 0;                                                                                  \
    }                                                                                              \
    static int no_validation(void **state)                                                         \
    {                                                                                              \
        (void)state;                                                                               \
        rt_no_new_validation(ctx);                                                                 \
        return 0;                                                                                  \
    }

/* The runtime's test accessors (the limits it works to, the commands a stream recorded), from
 * the test build's fkc_test.h. */
static inline uint64_t rt_storage_range(const fkc_context *ctx)
{
    return fkc_test_storage_range(ctx);
}

static inline uint32_t rt_group_limit(const fkc_context *ctx)
{
    return fkc_test_work_group_count(ctx);
}

static inline uint32_t rt_command_count(const fkc_stream *s)
{
    return fkc_test_command_count(s);
}

#define RT_OK(call)                                                                                \
    do {                                                                                           \
        fkc_status st_ = (call);                                                                   \
        if (st_ != FKC_OK)                                                                         \
            fail_msg("%s -> %s: %s", #call, fkc_status_name(st_), fkc_last_error());               \
    } while (0)

/* A device buffer with its host image (what the buffer must hold after the ops). */
typedef struct rt_buf {
    fkc_buffer *dev;
    unsigned char *host;
    size_t size;
} rt_buf;

static inline void rt_buf_make(fkc_context *ctx, rt_buf *b, size_t size)
{
    b->size = size ? size : 1;
    b->host = malloc(b->size);
    assert_non_null(b->host);
    fill_tricky(b->host, b->size, 4);
    RT_OK(fkc_buffer_create(ctx, b->size, &b->dev));
    RT_OK(fkc_buffer_upload(b->dev, 0, b->host, b->size));
}

static inline void rt_buf_free(rt_buf *b)
{
    fkc_buffer_destroy(b->dev);
    free(b->host);
    memset(b, 0, sizeof *b);
}

/* Downloads the buffer and compares every byte (guards included) with the host image. */
static inline void rt_buf_check(const rt_buf *b, const char *what)
{
    unsigned char *got = malloc(b->size);
    assert_non_null(got);
    RT_OK(fkc_buffer_download(b->dev, 0, got, b->size));
    for (size_t i = 0; i < b->size; i++)
        if (got[i] != b->host[i]) {
            unsigned g = got[i], w = b->host[i];
            free(got);
            fail_msg("%s: byte %zu of %zu differs: device 0x%02x, reference 0x%02x", what, i,
                     b->size, g, w);
        }
    free(got);
}

static inline fkc_tensor rt_tensor(fkc_buffer *b, uint64_t offset, fkc_dtype dt, uint32_t rank,
                                   const size_t *shape)
{
    fkc_tensor t;
    memset(&t, 0, sizeof t);
    t.buffer = b;
    t.offset = offset;
    t.dtype = dt;
    t.rank = rank;
    for (uint32_t i = 0; i < rank; i++)
        t.shape[i] = shape[i];
    return t;
}

static inline size_t rt_elems(uint32_t rank, const size_t *shape)
{
    size_t n = 1;
    for (uint32_t i = 0; i < rank; i++)
        n *= shape[i];
    return n;
}

#endif /* RT_HARNESS_H */
