/* ops.c — fkc-run's commands. An op reads its two .npy files, checks them with messages that
 * name the file, axis or argument at fault, runs on the CPU reference or on a Vulkan device
 * through the library (build/libfkc.a), and writes the output atomically. */
#include "cli.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fkc/fkc_reference.h"
#include "fkc/fkc_runtime.h"

#define SHOW_ROWS 24 /* rows `show` prints before eliding */
#define SHOW_COLS 12 /* elements per row likewise */


/* "(2, 3, 4)" into buf. */
static const char *shape_text(uint32_t rank, const size_t *shape, char *buf, size_t cap)
{
    size_t n = (size_t)snprintf(buf, cap, "(");
    for (uint32_t i = 0; i < rank && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, i ? ", %zu" : "%zu", shape[i]);
    if (n < cap)
        snprintf(buf + n, cap - n, rank == 1 ? ",)" : ")");
    return buf;
}

/* ---- loading and checking ----------------------------------------------------------------- */

int cli_load_npy(const char *path, const char *what, fkc_dtype forced, bool u2_is_bf16,
                 npy_array *a, fkc_dtype *dt, char err[CLI_ERR_MAX])
{
    char msg[CLI_ERR_MAX];
    if (npy_read(path, a, err) < 0)
        return -1;
    const char *open = what ? " (" : "", *name = what ? what : "", *close = what ? ")" : "";
    if (u2_is_bf16 && strcmp(a->descr + 1, "u2") == 0)
        forced = FKC_DTYPE_BF16;
    if ((*dt = cli_dtype_of_descr(a->descr, forced, msg)) == FKC_DTYPE_COUNT) {
        cli_errf(err, "%s%s%s%s: %s", path, open, name, close, msg);
        goto fail;
    }
    if (a->rank < 1 || a->rank > FKC_MAX_RANK) {
        cli_errf(err, "%s%s%s%s: rank %u is not supported (fkc ops take ranks 1..%d)", path, open,
                 name, close, a->rank, FKC_MAX_RANK);
        goto fail;
    }
    return 0;
fail:
    npy_free(a);
    return -1;
}

/* The pair agrees in dtype and rank. */
static int check_pair(const cli_opts *o, const npy_array *dst, fkc_dtype ddt, const npy_array *src,
                      fkc_dtype sdt, char err[CLI_ERR_MAX])
{
    if (ddt != sdt) {
        cli_errf(err, "%s is %s but %s is %s: both arrays must have the same dtype", o->src,
                 fkc_dtype_name(sdt), o->dst, fkc_dtype_name(ddt));
        return -1;
    }
    if (dst->rank != src->rank) {
        cli_errf(err, "%s has rank %u but %s has rank %u: the ranks must agree", o->src, src->rank,
                 o->dst, dst->rank);
        return -1;
    }
    return 0;
}

static int check_write_slice(const cli_opts *o, const npy_array *dst, const npy_array *src,
                             char err[CLI_ERR_MAX])
{
    if (o->n_offsets != dst->rank) {
        cli_errf(err, "--offsets has %u values but %s has rank %u", o->n_offsets, o->dst,
                 dst->rank);
        return -1;
    }
    for (uint32_t i = 0; i < dst->rank; i++) {
        if (o->offsets[i] > dst->shape[i] || src->shape[i] > dst->shape[i] - o->offsets[i]) {
            cli_errf(err, "--offsets: on axis %u, offset %zu + %s extent %zu exceeds %s extent %zu",
                     i, o->offsets[i], o->src, src->shape[i], o->dst, dst->shape[i]);
            return -1;
        }
    }
    return 0;
}

/* The rotating axis (explicit or the single one of extent capacity), and the fit elsewhere. */
static int check_rotating(const cli_opts *o, const npy_array *dst, const npy_array *src,
                          char err[CLI_ERR_MAX])
{
    char sh[256];
    uint32_t axis = 0, found = 0;
    if (o->axis >= 0) {
        axis = (uint32_t)o->axis;
        if (axis >= dst->rank) {
            cli_errf(err, "--axis %u is out of range: %s has rank %u", axis, o->dst, dst->rank);
            return -1;
        }
        if (dst->shape[axis] != o->capacity) {
            cli_errf(err, "--axis %u: %s has extent %zu there, not the --capacity %zu", axis,
                     o->dst, dst->shape[axis], o->capacity);
            return -1;
        }
    } else {
        for (uint32_t i = dst->rank; i-- > 0;)
            if (dst->shape[i] == o->capacity)
                found++, axis = i;
        if (found == 0) {
            cli_errf(err, "--capacity %zu: no axis of %s %s has that extent", o->capacity, o->dst,
                     shape_text(dst->rank, dst->shape, sh, sizeof sh));
            return -1;
        }
        if (found > 1) {
            cli_errf(err, "--capacity %zu: %u axes of %s %s have that extent; pass --axis",
                     o->capacity, found, o->dst, shape_text(dst->rank, dst->shape, sh, sizeof sh));
            return -1;
        }
    }
    for (uint32_t i = 0; i < dst->rank; i++) {
        if (i != axis && src->shape[i] > dst->shape[i]) {
            cli_errf(err,
                     "on axis %u, %s extent %zu exceeds %s extent %zu (off the rotating axis "
                     "%u the source starts at 0)",
                     i, o->src, src->shape[i], o->dst, dst->shape[i], axis);
            return -1;
        }
    }
    return 0;
}

/* ---- running ------------------------------------------------------------------------------ */

static int run_cpu(const cli_opts *o, npy_array *dst, const npy_array *src, char err[CLI_ERR_MAX])
{
    fkc_status st;
    if (o->cmd == CLI_CMD_WRITE_SLICE)
        st = fkc_ref_write_slice(dst->data, dst->shape, dst->rank, src->data, src->shape,
                                 o->offsets, dst->elem_size);
    else
        st = fkc_ref_write_slice_rotating(dst->data, dst->shape, dst->rank, src->data, src->shape,
                                          o->capacity, o->position, o->axis, dst->elem_size);
    if (st != FKC_OK) {
        cli_errf(err, "the CPU reference refused the op: %s", fkc_status_name(st));
        return CLI_EXIT_FAIL;
    }
    return CLI_EXIT_OK;
}

int cli_open_device(const cli_opts *o, fkc_context **ctx, char err[CLI_ERR_MAX])
{
    fkc_context_options co;
    fkc_context_options_init(&co);
    if (o->device) {
        size_t n = strspn(o->device, "0123456789");
        if (!o->device[n] && n < 10)
            co.device_index = (int32_t)strtol(o->device, NULL, 10);
        else
            co.device_name = o->device;
    }
    if (o->validate)
        co.flags |= FKC_CONTEXT_VALIDATION;
    fkc_status st = fkc_context_create(&co, ctx);
    if (st == FKC_OK)
        return CLI_EXIT_OK;
    if (st == FKC_ERR_NO_DEVICE) {
        const char *why = fkc_last_error();
        cli_errf(err, "%s%s (--cpu runs the CPU reference)",
                 strstr(why, "no Vulkan device") ? "" : "no Vulkan device: ", why);
        return CLI_EXIT_NO_DEVICE;
    }
    if (st == FKC_ERR_DEVICE_NOT_FOUND)
        cli_errf(err, "%s%s%s%s", o->device ? "--device " : "", o->device ? o->device : "",
                 o->device ? ": " : "", fkc_last_error());
    else
        cli_errf(err, "cannot open the Vulkan device: %s: %s", fkc_status_name(st),
                 fkc_last_error());
    return CLI_EXIT_FAIL;
}

fkc_status cli_upload_npy(fkc_context *ctx, const npy_array *a, fkc_dtype dt, uint64_t size,
                          fkc_buffer **buf, fkc_tensor *t)
{
    fkc_status st = fkc_buffer_create(ctx, size, buf);
    if (st == FKC_OK && a->nbytes)
        st = fkc_buffer_upload(*buf, 0, a->data, a->nbytes);
    memset(t, 0, sizeof *t);
    t->buffer = *buf;
    t->dtype = dt;
    t->rank = a->rank;
    memcpy(t->shape, a->shape, a->rank * sizeof a->shape[0]);
    return st;
}

/* The write-slice ops' buffers: a's bytes rounded up to a multiple of 4, at least 4. */
static uint64_t word_size(const npy_array *a)
{
    return a->nbytes ? ((uint64_t)a->nbytes + 3) & ~(uint64_t)3 : 4;
}

/* The op on the device: upload, run (the ring position through a device buffer), download. */
static fkc_status gpu_op(fkc_context *ctx, const cli_opts *o, npy_array *dst, fkc_dtype dt,
                         const npy_array *src)
{
    fkc_buffer *db = NULL, *sb = NULL, *pb = NULL;
    fkc_tensor out, in;
    fkc_status st = cli_upload_npy(ctx, dst, dt, word_size(dst), &db, &out);
    if (st == FKC_OK)
        st = cli_upload_npy(ctx, src, dt, word_size(src), &sb, &in);
    if (st == FKC_OK && o->cmd == CLI_CMD_WRITE_SLICE) {
        st = fkc_write_slice_sync(ctx, &in, &out, o->offsets);
    } else if (st == FKC_OK) {
        unsigned char pos[8];
        for (int i = 0; i < 8; i++)
            pos[i] = (unsigned char)(o->position >> (8 * i));
        if ((st = fkc_buffer_create(ctx, sizeof pos, &pb)) == FKC_OK &&
            (st = fkc_buffer_upload(pb, 0, pos, sizeof pos)) == FKC_OK)
            st = fkc_write_slice_rotating_sync(ctx, &in, &out, o->capacity, pb, 0, o->axis);
    }
    if (st == FKC_OK && dst->nbytes)
        st = fkc_buffer_download(db, 0, dst->data, dst->nbytes);
    fkc_buffer_destroy(pb);
    fkc_buffer_destroy(sb);
    fkc_buffer_destroy(db);
    return st;
}

static int run_gpu(const cli_opts *o, npy_array *dst, fkc_dtype dt, const npy_array *src,
                   char err[CLI_ERR_MAX])
{
    fkc_context *ctx = NULL;
    int rc = cli_open_device(o, &ctx, err);
    if (rc != CLI_EXIT_OK)
        return rc;
    fkc_status st = gpu_op(ctx, o, dst, dt, src);
    if (st != FKC_OK) {
        cli_errf(err, "%s on %s failed: %s: %s",
                 o->cmd == CLI_CMD_WRITE_SLICE ? "write_slice" : "write_slice_rotating",
                 fkc_context_device(ctx)->name, fkc_status_name(st), fkc_last_error());
        rc = CLI_EXIT_FAIL;
    } else if (o->validate && fkc_context_validation_count(ctx) > 0) {
        cli_errf(err, "the validation layer reported %llu message(s); the last: %s",
                 (unsigned long long)fkc_context_validation_count(ctx),
                 fkc_context_validation_last(ctx));
        rc = CLI_EXIT_FAIL;
    }
    fkc_context_destroy(ctx);
    return rc;
}

/* -o names something npy_write may replace: checked before any work, so a FIFO, device or
 * directory given as the output fails at once. */
static int check_out(const cli_opts *o, char err[CLI_ERR_MAX])
{
    char msg[CLI_ERR_MAX];
    if (npy_check_output(o->out, msg) == 0)
        return 0;
    cli_errf(err, "-o %s", msg);
    return -1;
}

int cli_run_op(const cli_opts *o, char err[CLI_ERR_MAX])
{
    npy_array dst, src;
    fkc_dtype ddt, sdt;
    int rc = CLI_EXIT_FAIL;
    if (check_out(o, err) < 0)
        return CLI_EXIT_FAIL;
    if (cli_load_npy(o->dst, NULL, o->dtype, false, &dst, &ddt, err) < 0)
        return CLI_EXIT_FAIL;
    if (cli_load_npy(o->src, NULL, o->dtype, false, &src, &sdt, err) < 0) {
        npy_free(&dst);
        return CLI_EXIT_FAIL;
    }
    if (check_pair(o, &dst, ddt, &src, sdt, err) < 0)
        goto done;
    if ((o->cmd == CLI_CMD_WRITE_SLICE ? check_write_slice(o, &dst, &src, err)
                                       : check_rotating(o, &dst, &src, err)) < 0)
        goto done;
    rc = o->cpu ? run_cpu(o, &dst, &src, err) : run_gpu(o, &dst, ddt, &src, err);
    if (rc != CLI_EXIT_OK)
        goto done;
    snprintf(dst.descr, sizeof dst.descr, "%s", cli_descr_of_dtype(ddt));
    if (npy_write(o->out, &dst, err) < 0)
        rc = CLI_EXIT_FAIL;
done:
    npy_free(&src);
    npy_free(&dst);
    return rc;
}

/* ---- devices ------------------------------------------------------------------------------ */

static void print_device(const fkc_device_info *d)
{
    printf("%u: %s [%s] vendor 0x%04x device 0x%04x, Vulkan %u.%u.%u\n", d->index, d->name,
           fkc_device_type_name(d->type), d->vendor_id, d->device_id, d->api_version >> 22,
           (d->api_version >> 12) & 0x3ff, d->api_version & 0xfff);
    printf("   storage buffer range %llu B, work groups %u x %u x %u, local size %u x %u x %u "
           "(%u invocations)\n",
           (unsigned long long)d->max_storage_buffer_range, d->max_compute_work_group_count[0],
           d->max_compute_work_group_count[1], d->max_compute_work_group_count[2],
           d->max_compute_work_group_size[0], d->max_compute_work_group_size[1],
           d->max_compute_work_group_size[2], d->max_compute_work_group_invocations);
    printf("   push constants %u B, storage offset alignment %llu B, 8-bit storage %s, "
           "16-bit storage %s, compute queue %s, device-local heap %.1f MiB\n",
           d->max_push_constants_size, (unsigned long long)d->min_storage_buffer_offset_alignment,
           d->storage_8bit ? "yes" : "no", d->storage_16bit ? "yes" : "no",
           d->has_compute_queue ? "yes" : "no", (double)d->device_local_bytes / 1048576.0);
}

int cli_run_devices(const cli_opts *o, char err[CLI_ERR_MAX])
{
    uint32_t count = 0;
    (void)o;
    fkc_status st = fkc_enumerate_devices(NULL, 0, &count);
    if (st == FKC_ERR_NO_DEVICE || (st == FKC_OK && count == 0)) {
        const char *why = fkc_last_error();
        cli_errf(err, "%s%s", strstr(why, "no Vulkan device") ? "" : "no Vulkan device: ", why);
        return CLI_EXIT_NO_DEVICE;
    }
    fkc_device_info *infos = st == FKC_OK ? calloc(count, sizeof *infos) : NULL;
    if (st == FKC_OK && !infos)
        st = FKC_ERR_OUT_OF_MEMORY;
    if (st == FKC_OK)
        st = fkc_enumerate_devices(infos, count, &count);
    if (st != FKC_OK) {
        cli_errf(err, "cannot list the Vulkan devices: %s: %s", fkc_status_name(st),
                 fkc_last_error());
        free(infos);
        return CLI_EXIT_FAIL;
    }
    for (uint32_t i = 0; i < count; i++)
        print_device(&infos[i]);
    free(infos);
    fkc_context *ctx = NULL;
    if (fkc_context_create(NULL, &ctx) == FKC_OK)
        printf("default: %u (%s)\n", fkc_context_device(ctx)->index, fkc_context_device(ctx)->name);
    else
        printf("default: none: %s\n", fkc_last_error());
    fkc_context_destroy(ctx);
    return CLI_EXIT_OK;
}

/* ---- iota and show ------------------------------------------------------------------------ */

int cli_run_iota(const cli_opts *o, char err[CLI_ERR_MAX])
{
    npy_array a;
    char msg[CLI_ERR_MAX];
    if (check_out(o, err) < 0)
        return CLI_EXIT_FAIL;
    if (npy_alloc(&a, cli_descr_of_dtype(o->dtype), o->n_shape, o->shape, msg) < 0) {
        cli_errf(err, "--shape: %s", msg);
        return CLI_EXIT_USAGE;
    }
    unsigned char *p = a.data;
    for (size_t i = 0; i < a.count; i++)
        cli_iota_element(o->dtype, o->start, i, p + i * a.elem_size);
    int rc = npy_write(o->out, &a, err) < 0 ? CLI_EXIT_FAIL : CLI_EXIT_OK;
    npy_free(&a);
    return rc;
}

/* One row (the last axis) of a show listing: rank 1 and 2 as "  [...]" lines; rank >= 3
 * nested like NumPy's, its brackets opened and closed around the row, a blank line between
 * planes (two between blocks of planes, ...). */
static void show_row(const npy_array *a, fkc_dtype dt, size_t row, size_t len)
{
    const unsigned char *p = (const unsigned char *)a->data + row * len * a->elem_size;
    char v[64];
    uint32_t open = 1, close = 1; /* brackets the row opens and closes: its own, and those of
                                   * the outer axes whose first (last) row it is */
    if (a->rank >= 3) {
        size_t at = row;
        bool first = true, last = true;
        for (uint32_t k = a->rank - 1; k-- > 0;) {
            size_t i = at % a->shape[k];
            at /= a->shape[k];
            first = first && i == 0;
            last = last && i + 1 == a->shape[k];
            open += first;
            close += last;
        }
        /* a row after the end of an outer block: a blank line per axis closed beyond a plane */
        for (uint32_t b = open; row > 0 && b > 1; b--)
            putchar('\n');
        printf("  %*s", (int)(a->rank - open), "");
    } else {
        fputs("  ", stdout);
    }
    for (uint32_t b = 0; b < open; b++)
        putchar('[');
    for (size_t j = 0; j < len; j++) {
        if (j == SHOW_COLS && len > SHOW_COLS + 1) {
            printf(" ... (%zu more)", len - j);
            break;
        }
        cli_format_element(dt, p + j * a->elem_size, v, sizeof v);
        printf(j ? " %s" : "%s", v);
    }
    for (uint32_t b = 0; b < close; b++)
        putchar(']');
    putchar('\n');
}

int cli_run_show(const cli_opts *o, char err[CLI_ERR_MAX])
{
    npy_array a;
    char msg[CLI_ERR_MAX], sh[256];
    if (npy_read(o->file, &a, err) < 0)
        return CLI_EXIT_FAIL;
    fkc_dtype dt = cli_dtype_of_descr(a.descr, o->dtype, msg);
    if (dt == FKC_DTYPE_COUNT) {
        cli_errf(err, "%s: %s", o->file, msg);
        npy_free(&a);
        return CLI_EXIT_FAIL;
    }
    printf("%s: %s %s\n", o->file, fkc_dtype_name(dt), shape_text(a.rank, a.shape, sh, sizeof sh));
    size_t len = a.rank ? a.shape[a.rank - 1] : 1;
    size_t rows = len ? a.count / len : 0;
    for (size_t r = 0; r < rows; r++) {
        if (r == SHOW_ROWS && rows > SHOW_ROWS + 1) {
            printf("  ... (%zu more rows)\n", rows - r);
            break;
        }
        show_row(&a, dt, r, len);
    }
    npy_free(&a);
    return CLI_EXIT_OK;
}
