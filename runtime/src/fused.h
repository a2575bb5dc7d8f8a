/* fused.h — fused.c: the fused-write batcher (small aligned writes queued into one dispatch of
 * fused.comp, the table laid out as fused_table.h says). */
#ifndef FKC_FUSED_H
#define FKC_FUSED_H

#include "fused_table.h"
#include "stream.h"

/* One write of a pending fused dispatch (fused.comp): a 16-byte-aligned box, offsets in the
 * VkBuffers (made relative to the slot windows when the dispatch is recorded). */
typedef struct fkc_fused {
    uint64_t src, dst, pos; /* byte offsets in the VkBuffers */
    uint32_t slot[3];       /* slot of src (read), dst (written) and the position (read) */
    uint32_t row_units, rows, planes, s_row, d_row, s_plane, d_plane; /* 16-byte units */
    uint32_t ring, cap, skip;
    const struct fkc_buffer *bsrc, *bdst, *bpos; /* the buffers (a lone write is dispatched) */
    /* records it as its own dispatch (slab.c's, given by who queues it): a batch of one */
    void (*alone)(struct fkc_stream *s, const struct fkc_fused *w);
} fkc_fused;

/* The writes waiting to be recorded as one dispatch, with the table space and (without push
 * descriptors) the descriptor set reserved when the first one came, so recording it cannot
 * fail. */
typedef struct fkc_batch {
    fkc_fused w[FKC_FUSE_MAX];
    uint32_t n;
    uint64_t groups;                               /* work groups of its writes */
    fkc_slot slot[FKC_FUSE_READ + FKC_FUSE_WRITE]; /* read ones first, then written ones */
    uint32_t n_read, n_write;
    struct fkc_table *table; /* where its table goes: `table` at byte `at` */
    uint64_t at;             /* (its counter word FKC_FUSE_COUNTER bytes further) */
    VkDescriptorSet set;
    /* fkc_stream_advance folded into the dispatch (fused_advance.comp): the u64 at byte
     * adv_at of adv_buf moves on by adv_delta after the writes, bound as [adv_lo, adv_at + 8) */
    bool adv;
    VkBuffer adv_buf;
    uint64_t adv_lo, adv_at, adv_delta;
} fkc_batch;

/* ---- fused.c: the fused-write batcher ---- */
/* Queues one aligned box write into the stream's pending fused dispatch (its ranges already
 * touched); false when the stream does not fuse or the box cannot be fused (then the caller
 * dispatches it), or on failure with *st set. */
bool fkc_stream_fuse(fkc_stream *s, const fkc_fused *w, const fkc_buffer *src,
                     const fkc_buffer *dst, const fkc_buffer *pos, fkc_status *st);

#endif /* FKC_FUSED_H */
