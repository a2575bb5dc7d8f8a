/* set_rows.c — `fkc-run set_rows`: the cache (--dst), the rows (--src) and their slots
 * (--index, <i4 or <i8) from .npy files; the op on the CPU reference (--cpu) or a Vulkan device
 * (fkc_set_rows, the indices in a device buffer and the past-the-end count in a device status
 * word); the cache written atomically to -o. Messages name the file and axis at fault. */
#include "cli.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "fkc/fkc_reference.h"
#include "fkc/fkc_runtime.h"

/* Reads path (cli_load_npy); '<u2' is BF16 when bf16 says so, and `forced` (not BF16) must
 * match. */
static int load(const char *path, const char *what, fkc_dtype forced, bool bf16, npy_array *a,
                fkc_dtype *dt, char err[CLI_ERR_MAX])
{
    return cli_load_npy(path, what, forced == FKC_DTYPE_BF16 ? FKC_DTYPE_COUNT : forced, bf16, a,
                        dt, err);
}

/* The shapes, named by file: the index [n], the source [n, the cache's axes but the slot's]. */
static int check(const cli_opts *o, const npy_array *dst, const npy_array *src,
                 const npy_array *idx, fkc_dtype idt, char err[CLI_ERR_MAX])
{
    int32_t k = o->slot_axis;
    if (idt != FKC_DTYPE_I32 && idt != FKC_DTYPE_I64) {
        cli_errf(err, "%s: the index is %s; it must be int32 (<i4) or int64 (<i8)", o->index,
                 fkc_dtype_name(idt));
        return -1;
    }
    if (idx->rank != 1) {
        cli_errf(err, "%s: the index has rank %u; it must be 1 (one slot per row of %s)", o->index,
                 idx->rank, o->src);
        return -1;
    }
    if (k >= 0 && ((uint32_t)k >= dst->rank || k == 0)) {
        cli_errf(err, "--slot-axis %d: %s has rank %u, so the slot's second axis is 1..%u", k,
                 o->dst, dst->rank, dst->rank - 1);
        return -1;
    }
    uint32_t want = dst->rank - (k > 0 ? 1 : 0);
    if (src->rank != want) {
        cli_errf(err,
                 "%s has rank %u but rows of %s (rank %u, the slot %s) need rank %u: "
                 "[rows, the cache's other axes]",
                 o->src, src->rank, o->dst, dst->rank, k > 0 ? "over two axes" : "axis 0", want);
        return -1;
    }
    if (idx->shape[0] != src->shape[0]) {
        cli_errf(err, "%s has %zu indices but %s has %zu rows", o->index, idx->shape[0], o->src,
                 src->shape[0]);
        return -1;
    }
    for (uint32_t a = 1, b = 1; a < dst->rank; a++) {
        if ((int32_t)a == k)
            continue;
        if (src->shape[b] != dst->shape[a]) {
            cli_errf(err, "%s axis %u has extent %zu but %s axis %u has %zu (rows must match)",
                     o->src, b, src->shape[b], o->dst, a, dst->shape[a]);
            return -1;
        }
        b++;
    }
    return 0;
}

static void host_tensor(fkc_host_tensor *t, const npy_array *a, fkc_dtype dt)
{
    memset(t, 0, sizeof *t);
    t->data = a->data;
    t->dtype = dt;
    t->rank = a->rank;
    memcpy(t->shape, a->shape, a->rank * sizeof a->shape[0]);
}

/* A device buffer with a's bytes (at least 16 bytes) and its tensor. */
static fkc_status upload(fkc_context *ctx, const npy_array *a, fkc_dtype dt, fkc_buffer **buf,
                         fkc_tensor *t)
{
    return cli_upload_npy(ctx, a, dt, a->nbytes > 16 ? a->nbytes : 16, buf, t);
}

static int run_gpu(const cli_opts *o, npy_array *dst, fkc_dtype ddt, const npy_array *src,
                   fkc_dtype sdt, const npy_array *idx, fkc_dtype idt, uint64_t *bad,
                   char err[CLI_ERR_MAX])
{
    fkc_context *ctx = NULL;
    int rc = cli_open_device(o, &ctx, err);
    if (rc != CLI_EXIT_OK)
        return rc;
    fkc_buffer *db = NULL, *sb = NULL, *ib = NULL, *tb = NULL;
    fkc_tensor D, S, I;
    unsigned char word[4] = {0};
    fkc_status st = upload(ctx, dst, ddt, &db, &D);
    if (st == FKC_OK)
        st = upload(ctx, src, sdt, &sb, &S);
    if (st == FKC_OK)
        st = upload(ctx, idx, idt, &ib, &I);
    if (st == FKC_OK && (st = fkc_buffer_create(ctx, 4, &tb)) == FKC_OK)
        st = fkc_buffer_upload(tb, 0, word, 4);
    if (st == FKC_OK)
        st = fkc_set_rows_sync(ctx, &S, &I, &D, o->slot_axis, tb, 0);
    if (st == FKC_OK && dst->nbytes)
        st = fkc_buffer_download(db, 0, dst->data, dst->nbytes);
    if (st == FKC_OK)
        st = fkc_buffer_download(tb, 0, word, 4);
    *bad = (uint64_t)word[0] | (uint64_t)word[1] << 8 | (uint64_t)word[2] << 16 |
           (uint64_t)word[3] << 24;
    if (st != FKC_OK) {
        cli_errf(err, "set_rows on %s failed: %s: %s%s", fkc_context_device(ctx)->name,
                 fkc_status_name(st), fkc_last_error(),
                 st == FKC_ERR_UNSUPPORTED ? " (--cpu runs the CPU reference)" : "");
        rc = CLI_EXIT_FAIL;
    } else if (o->validate && fkc_context_validation_count(ctx) > 0) {
        cli_errf(err, "the validation layer reported %llu message(s); the last: %s",
                 (unsigned long long)fkc_context_validation_count(ctx),
                 fkc_context_validation_last(ctx));
        rc = CLI_EXIT_FAIL;
    }
    fkc_buffer_destroy(tb);
    fkc_buffer_destroy(ib);
    fkc_buffer_destroy(sb);
    fkc_buffer_destroy(db);
    fkc_context_destroy(ctx);
    return rc;
}

int cli_run_set_rows(const cli_opts *o, char err[CLI_ERR_MAX])
{
    npy_array dst, src, idx;
    fkc_dtype ddt, sdt, idt;
    char msg[CLI_ERR_MAX];
    int rc = CLI_EXIT_FAIL;
    uint64_t bad = 0;
    if (npy_check_output(o->out, msg) < 0) {
        cli_errf(err, "-o %s", msg);
        return CLI_EXIT_FAIL;
    }
    /* '<u2' sources are BF16 with --src-dtype bf16, or --dtype bf16 without --src-dtype */
    bool sbf = o->src_dtype != FKC_DTYPE_COUNT ? o->src_dtype == FKC_DTYPE_BF16
                                               : o->dtype == FKC_DTYPE_BF16;
    if (load(o->dst, "the cache", o->dtype, o->dtype == FKC_DTYPE_BF16, &dst, &ddt, err) < 0)
        return CLI_EXIT_FAIL;
    if (load(o->src, "the rows", o->src_dtype, sbf, &src, &sdt, err) < 0) {
        npy_free(&dst);
        return CLI_EXIT_FAIL;
    }
    if (load(o->index, "the index", FKC_DTYPE_COUNT, false, &idx, &idt, err) < 0) {
        npy_free(&src);
        npy_free(&dst);
        return CLI_EXIT_FAIL;
    }
    if (check(o, &dst, &src, &idx, idt, err) < 0)
        goto done;
    if (o->cpu) {
        fkc_host_tensor HS, HI, HD;
        host_tensor(&HS, &src, sdt);
        host_tensor(&HI, &idx, idt);
        host_tensor(&HD, &dst, ddt);
        fkc_status st = fkc_ref_set_rows(&HS, &HI, &HD, o->slot_axis, &bad);
        if (st != FKC_OK) {
            cli_errf(err, "the CPU reference refused the op: %s: %s", fkc_status_name(st),
                     fkc_last_error());
            goto done;
        }
    } else if ((rc = run_gpu(o, &dst, ddt, &src, sdt, &idx, idt, &bad, err)) != CLI_EXIT_OK) {
        goto done;
    }
    rc = CLI_EXIT_FAIL;
    snprintf(dst.descr, sizeof dst.descr, "%s", cli_descr_of_dtype(ddt));
    if (npy_write(o->out, &dst, err) < 0)
        goto done;
    if (bad)
        fprintf(stderr,
                "fkc-run: set_rows: %" PRIu64 " index(es) at or past the cache's slots "
                "wrote nothing\n",
                bad);
    rc = CLI_EXIT_OK;
done:
    npy_free(&idx);
    npy_free(&src);
    npy_free(&dst);
    return rc;
}
