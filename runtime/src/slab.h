/* slab.h — slab.c: one planned box copy on the device. */
#ifndef FKC_SLAB_H
#define FKC_SLAB_H

#include "stream.h"

/* ---- slab.c ---- */
/* Records one planned box copy from src into out (shapes from the tensors). */
fkc_status fkc_record_box(fkc_stream *s, const fkc_tensor *src, const fkc_tensor *out,
                          const fkc_box *box, size_t elem_size);
/* Records a rotating write of `box` (the whole write, ring origin 0 on `axis`) with the
 * position read on the device from `pos` at `pos_off` (a little-endian u64): source row i
 * (after `skip` skipped rows) lands at ring row (position + skip + i) mod cap, the kernel
 * splitting at the ring end. FKC_ERR_UNSUPPORTED, with nothing recorded, when the context has
 * FKC_CONTEXT_RING_READBACK, the capacity is 2^31 or more, or one 16-byte column of the whole
 * ring does not fit a storage window: the caller then reads the position back. */
fkc_status fkc_record_ring(fkc_stream *s, const fkc_tensor *src, const fkc_tensor *out,
                           const fkc_box *box, size_t elem_size, uint32_t axis, uint64_t cap,
                           uint64_t skip, const fkc_buffer *pos, uint64_t pos_off);

#endif /* FKC_SLAB_H */
