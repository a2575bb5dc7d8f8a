#!/usr/bin/env python3
"""mutate_kernels.py — a mutation sample over the kernels (runtime/src/slab.c, ops.c and
runtime/shaders/copy.comp; since issue 15 also stream.c's range barriers and fused writes and
runtime/shaders/fused.comp): each mutant is one deliberate one-line fault; the script applies
them one at a time to a scratch copy of the tree, rebuilds libfkc, runs the runtime tests
(`make check-runtime`) and records which mutants survive (every test still passes).

Not part of CI (a full run rebuilds and reruns the runtime tests once per mutant: about
15-25 minutes on 2 cores). Usage:

    python3 scripts/mutate_kernels.py               # every mutant, on this checkout
    python3 scripts/mutate_kernels.py --rev main    # on a commit's files (main's tests)
    python3 scripts/mutate_kernels.py --tree DIR    # on another checkout
    python3 scripts/mutate_kernels.py --only S07,C03 --keep
    python3 scripts/mutate_kernels.py --list

The scratch copy (--work, default a fresh /tmp directory) holds the files git tracks plus the
untracked files it does not ignore, so uncommitted tests are included (with --rev, the files of
that commit instead); the source tree is never modified. Prints one line per mutant and a summary; --out FILE also writes it there.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

SLAB = "runtime/src/slab.c"
OPS = "runtime/src/ops.c"
COMP = "runtime/shaders/copy.comp"
STREAM = "runtime/src/stream.c"   # issue 15: the range barriers and the fused writes
FUSED = "runtime/shaders/fused.comp"
FUSEDC = "runtime/src/fused.c"    # the fused writes' batching, out of stream.c since issue 23

# (id, file, text to find, replacement, what the fault is). The text must occur exactly once;
# a list gives alternatives (the first one the tree has is used, with the replacement at the
# same index when that is a list too), so the list runs on trees before and after a fix; a
# mutant none of whose texts the tree has is "n/a" there (code the tree does not have yet).
MUTANTS = [
    # ---- slab.c: coalescing, alignment, kernel choice, windows, splits, walks ----
    ("S01", SLAB, "bool ring_last = j->n > 0 && j->ring == (int32_t)j->n - 1;",
     "bool ring_last = false;", "an outer axis may merge into the ring's dim"),
    ("S02", SLAB, "bool merge = j->n == 0 ? (j->row == ss && j->row == ds)",
     "bool merge = j->n == 0 ? (j->row == ss || j->row == ds)",
     "rows merge when contiguous in one tensor only"),
    ("S03", SLAB, "j->count[j->n - 1] *= n;", "j->count[j->n - 1] += n;",
     "merged outer dims add instead of multiply"),
    ("S04", SLAB, ["uint64_t rows = (p->ring & 3) == 1 ? p->cap : p->rows;",
                   "uint64_t rows = p->ring == 1 ? p->cap : p->rows,"],
     ["uint64_t rows = p->rows;", "uint64_t rows = p->rows,"],
     "ring-on-rows destination window spans the rows, not the ring"),
    ("S05", SLAB, "if (p->rows > 1 || p->ring == 1)\n        bits |= p->s_row | p->d_row;",
     "if (p->rows > 1)\n        bits |= p->s_row | p->d_row;",
     "alignment ignores a one-row ring's row stride"),
    ("S06", SLAB, "if (p->planes > 1 || p->ring == 2)\n        bits |= p->s_plane | p->d_plane;",
     "if (p->planes > 1)\n        bits |= p->s_plane | p->d_plane;",
     "alignment ignores a one-plane ring's plane stride"),
    # (since issue 15 the barriers follow the ranges each command touches: the alternatives)
    ("S07", SLAB, ["if (rmw || s->rmw_pending)", "{to->buffer, db, db + dsz, true, false},"],
     ["if (s->rmw_pending)", "{to->buffer, p->dst, p->dst + span_dst(p), true, false},"],
     "no barrier before a unit-owning dispatch (its edge units not tracked)"),
    ("S08", SLAB, ["if (rmw || s->rmw_pending)", "    fkc_stream_touch(s, nb, acc);"],
     ["if (rmw)", "    fkc_stream_touch(s, 0, acc);"],
     "no barrier after a unit-owning dispatch (a dispatch tracks nothing)"),
    ("S09", SLAB, "regions[n].dstOffset = p->dst + pl * p->d_plane + r * p->d_row;",
     "regions[n].dstOffset = p->dst + pl * p->d_row + r * p->d_plane;",
     "copy regions: plane and row strides swapped"),
    ("S10", SLAB, "uint64_t gx = groups < lim ? groups : lim, gy = (groups + gx - 1) / gx;",
     "uint64_t gx = groups < lim ? groups : lim, gy = groups / gx;",
     "flat walk: rows of groups rounded down"),
    ("S11", SLAB, "pc->base = (uint32_t)done;", "pc->base = 0;",
     "flat walk: every dispatch starts at slot 0"),
    ("S12", SLAB, "pc->plane_base = (uint32_t)z;", "pc->plane_base = (uint32_t)y;",
     "grid walk: plane base from the row loop (swapped axis)"),
    ("S13", SLAB, "uint64_t cols = (pc->slots + FKC_LOCAL_SIZE - 1) / FKC_LOCAL_SIZE;",
     "uint64_t cols = pc->slots / FKC_LOCAL_SIZE;", "grid walk: the last partial column dropped"),
    ("S14", SLAB, "uint64_t ssz = (p->src - sb + span_src(p) + 15) & ~(uint64_t)15;",
     "uint64_t ssz = (p->src - sb + span_src(p)) & ~(uint64_t)15;",
     "source window rounded down, not up"),
    ("S15", SLAB, ".d_plane = p->planes > 1 || p->ring == 2 ? (uint32_t)(p->d_plane / unit) : 0,",
     ".d_plane = p->planes > 1 ? (uint32_t)(p->d_plane / unit) : 0,",
     "one-plane ring on planes: plane stride 0"),
    ("S16", SLAB, "pc.slots = wide ? (uint32_t)((p->row + 30) / 16) : pc.row_units;",
     "pc.slots = wide ? (uint32_t)((p->row + 29) / 16) : pc.row_units;",
     "grid mode: one unit too few for a row starting at byte 15"),
    ("S17", SLAB, "if (wide && pc.slots < FKC_GRID_MIN_UNITS)",
     "if (wide && pc.slots <= FKC_GRID_MIN_UNITS)", "wide grid threshold off by one"),
    ("S18", SLAB, "bi[2] = (VkDescriptorBufferInfo){p->pos->buffer, pb, (p->pos_off - pb + 8 + 7) & ~7ull};",
     "bi[2] = (VkDescriptorBufferInfo){p->pos->buffer, pb, (p->pos_off - pb + 4 + 7) & ~7ull};",
     "position window 4 bytes short"),
    ("S19", SLAB, ["pc.pos_off = (uint32_t)(p->pos_off - pb);", "out->pos_off = (uint32_t)(p->pos_off - pb);"],
     ["pc.pos_off = (uint32_t)p->pos_off;", "out->pos_off = (uint32_t)p->pos_off;"],
     "position offset not relative to its window"),
    ("S20", SLAB, "p->planes * p->rows * p->row >= FKC_SPLIT_MIN_BYTES) {",
     "p->planes * p->rows * p->row > FKC_SPLIT_MIN_BYTES) {",
     "edge/bulk split threshold off by one"),
    ("S21", SLAB, "ep.slots = 2;", "ep.slots = 1;", "edge dispatch: one slot per row"),
    ("S22", SLAB, "if (pc.slots >= FKC_GRID_MIN_UNITS)\n            grid_walk(s, &pc);",
     "if (pc.slots > FKC_GRID_MIN_UNITS)\n            grid_walk(s, &pc);",
     "grid vs flat threshold off by one"),
    ("S23", SLAB, "uint64_t lim = (s->ctx->storage_range - s->ctx->offset_align - 16) & ~(uint64_t)15;\n    if (fits(p, lim))",
     "uint64_t lim = (s->ctx->storage_range - s->ctx->offset_align) & ~(uint64_t)15;\n    if (fits(p, lim))",
     "window limit ignores the 16-byte rounding slack"),
    ("S24", SLAB, "return span_src(p) <= lim && span_dst(p) <= lim;",
     "return span_src(p) < lim && span_dst(p) < lim;", "a window exactly at the limit splits"),
    ("S25", SLAB, "return span_src(p) <= lim && span_dst(p) <= lim;",
     "return span_src(p) <= lim + 16 && span_dst(p) <= lim + 16;",
     "a window 16 bytes over the limit does not split"),
    ("S26", SLAB, ["bool split_planes = p->planes > 1 && (p->ring & 3) != 2;",
                   "bool split_planes = p->planes > 1 && p->ring != 2;"],
     "bool split_planes = p->planes > 1;", "a ring on planes is split"),
    ("S27", SLAB, "per = ks < kd ? ks : kd;", "per = ks > kd ? ks : kd;",
     "split step: the larger of the two fits"),
    ("S28", SLAB, "uint64_t chunk = (lim - (over - 16)) & ~(uint64_t)15;",
     "uint64_t chunk = (lim - over) & ~(uint64_t)15;", "long-row chunk 16 bytes short"),
    ("S29", SLAB, ["(ctx->prefer_transfer && p->row >= FKC_TRANSFER_MIN_ROW))",
                   "(ctx->prefer_transfer && p->row >= FKC_TRANSFER_MIN_ROW && !fused))"],
     ["(ctx->prefer_transfer && p->row > FKC_TRANSFER_MIN_ROW))",
      "(ctx->prefer_transfer && p->row > FKC_TRANSFER_MIN_ROW && !fused))"],
     "AUTO transfer threshold off by one"),
    ("S30", SLAB, ["return fit(s, from, to, p, aligned ? KERNEL_U128 : short_rows ? KERNEL_WIDE_SHORT : KERNEL_WIDE);",
                   "return fit(s, from, to, p, aligned ? KERNEL_U128 : KERNEL_WIDE);",
                   "               aligned      ? KERNEL_U128\n               : short_rows ? KERNEL_WIDE_SHORT\n"],
     ["return fit(s, from, to, p, short_rows ? KERNEL_WIDE_SHORT : KERNEL_WIDE);",
      "return fit(s, from, to, p, KERNEL_WIDE);",
      "               false        ? KERNEL_U128\n               : short_rows ? KERNEL_WIDE_SHORT\n"],
     "the aligned kernel never chosen"),
    ("S31", SLAB, "if (p->ring && aligned) /* one dispatch; the kernel reads the position and wraps */",
     "if (p->ring && !aligned) /* one dispatch; the kernel reads the position and wraps */",
     "ring kernels chosen the wrong way round"),
    ("S32", SLAB, "b.ring |= 4;", "b.ring |= 0;", "ring piece B never recorded as B"),
    ("S33", SLAB, "uint32_t second = j->ring >= 2 ? (uint32_t)j->ring : 1;",
     "uint32_t second = j->ring >= 3 ? (uint32_t)j->ring : 1;",
     "a ring on the third merged axis is not the piece's plane dim"),
    ("S34", SLAB, "p.ring = j->ring < 0 ? 0 : j->ring == 0 ? 1 : 2;",
     "p.ring = j->ring < 0 ? 0 : j->ring == 1 ? 1 : 2;", "ring on rows taken for planes"),
    ("S35", SLAB, "p.src += idx[d] * j->sstride[d];", "p.src += idx[d] * j->dstride[d];",
     "host walk: source advanced by the destination stride"),
    ("S36", SLAB, "return cap <= (1u << 31) && (cap - 1) * ds + 32 <= lim &&",
     "return cap <= (1u << 31) && (cap - 1) * ds + 32 < lim &&",
     "device ring refused at its exact window limit"),
    ("S37", SLAB, "return cap <= (1u << 31) && (cap - 1) * ds + 32 <= lim &&",
     "return cap <= (1u << 31) && (cap - 1) * ds <= lim &&",
     "device ring accepted 32 bytes over its window limit"),
    ("S38", SLAB, ["piece p = {.cap = cap, .skip = skip % cap, .pos = pos, .pos_off = pos_off};",
                   "piece p = {.cap = cap, .skip = skip % cap, .pos = pos,"],
     ["piece p = {.cap = cap, .skip = skip, .pos = pos, .pos_off = pos_off};",
      "piece p = {.cap = cap, .skip = skip, .pos = pos,"],
     "skipped rows not reduced mod capacity"),
    ("S39", SLAB, "if (++idx[d] < j->count[d])", "if (++idx[d] < j->count[d] - 1)",
     "host walk: the last index of each walked dim dropped"),
    ("S40", SLAB, "if (cnt > per * FKC_LOCAL_SIZE)", "if (cnt >= per * FKC_LOCAL_SIZE)",
     "flat walk cap (equivalent: cnt is set to the same value)"),
    ("S41", SLAB, ["if (bi[2].offset + bi[2].range > p->pos->vk_size)",
                   "if (bi[2].offset + bi[2].range > end)"],
     ["if (bi[2].offset + bi[2].range >= p->pos->vk_size)",
      "if (bi[2].offset + bi[2].range >= end)"],
     "position window clamp (equivalent: the clamp sets the same range)"),
    ("S42", SLAB, "uint64_t planes = (p->ring & 3) == 2 ? p->cap : p->planes;",
     "uint64_t planes = p->ring == 2 ? p->cap : p->planes;",
     "piece B's window spans its planes, not the ring (the bug fixed in 784b716)"),
    ("S43", SLAB, "bool split_rows = p->rows > 1 && (p->ring & 3) != 1;",
     "bool split_rows = p->rows > 1 && p->ring != 1;",
     "piece B of a ring on rows split along the ring (the bug fixed in 784b716)"),
    # ---- ops.c: checks and the op glue ----
    ("O01", OPS, ["if (src->buffer == out->buffer && slo < dhi && dlo < shi && shi > slo && dhi > dlo)",
                   "src->buffer->buffer == out->buffer->buffer && slo < dhi && dlo < shi && shi > slo &&\n        dhi > dlo)"],
     ["if (src->buffer == out->buffer && slo <= dhi && dlo < shi && shi > slo && dhi > dlo)",
      "src->buffer->buffer == out->buffer->buffer && slo <= dhi && dlo < shi && shi > slo &&\n        dhi > dlo)"],
     "source right after out refused as overlapping"),
    ("O02", OPS, ["if (src->buffer == out->buffer && slo < dhi && dlo < shi && shi > slo && dhi > dlo)",
                   "src->buffer->buffer == out->buffer->buffer && slo < dhi && dlo < shi && shi > slo &&\n        dhi > dlo)"],
     ["if (src->buffer == out->buffer && slo < dhi && dlo <= shi && shi > slo && dhi > dlo)",
      "src->buffer->buffer == out->buffer->buffer && slo < dhi && dlo <= shi && shi > slo &&\n        dhi > dlo)"],
     "out right after the source refused as overlapping"),
    ("O03", OPS, ["if (src->buffer == out->buffer && slo < dhi && dlo < shi && shi > slo && dhi > dlo)",
                   "src->buffer->buffer == out->buffer->buffer && slo < dhi && dlo < shi && shi > slo &&\n        dhi > dlo)"],
     ["if (src->buffer == out->buffer && slo < dhi && dlo < slo && shi > slo && dhi > dlo)",
      "src->buffer->buffer == out->buffer->buffer && slo < dhi && dlo < slo && shi > slo &&\n        dhi > dlo)"],
     "overlap: a source starting before out passes"),
    ("O04", OPS, ["if (src->buffer == out->buffer && slo < dhi && dlo < shi && shi > slo && dhi > dlo)",
                   "src->buffer->buffer == out->buffer->buffer && slo < dhi && dlo < shi && shi > slo &&\n        dhi > dlo)"],
     ["if (src->buffer == out->buffer && slo < dhi && dlo < shi && shi >= slo && dhi > dlo)",
      "src->buffer->buffer == out->buffer->buffer && slo < dhi && dlo < shi && shi >= slo &&\n        dhi > dlo)"],
     "an empty source inside out refused"),
    ("O05", OPS, "if (t->offset > t->buffer->size || bytes > t->buffer->size - t->offset)",
     "if (t->offset > t->buffer->size || bytes >= t->buffer->size - t->offset)",
     "a tensor ending at its buffer's end refused"),
    ("O06", OPS, "if (t->offset > t->buffer->size || bytes > t->buffer->size - t->offset)",
     "if (t->offset >= t->buffer->size || bytes > t->buffer->size - t->offset)",
     "an empty tensor at its buffer's end refused"),
    ("O07", OPS, "if (at > size || size - at < 8)", "if (at > size || size - at <= 8)",
     "a position in a buffer's last 8 bytes refused"),
    ("O08", OPS, "for (int i = 7; i >= 0; i--)", "for (int i = 7; i > 0; i--)",
     "readback position: the low byte dropped"),
    ("O09", OPS, "if (src->rank != out->rank || dst_len != out->rank)",
     "if (src->rank != out->rank || dst_len < out->rank)",
     "a longer dst_shape accepted"),
    ("O10", OPS, "if (!p->offsets || p->offsets_len != out->rank)",
     "if (!p->offsets || p->offsets_len > out->rank)", "too few offsets accepted"),
    ("O11", OPS, "if (!s || !src || !out || !dst_shape)", "if (!src || !out || !dst_shape)",
     "a NULL stream reaches the recorder"),
    ("O12", OPS, "    fkc_stream_barrier(s);\n    uint32_t before = s->commands;\n    for",
     "    uint32_t before = s->commands;\n    for", "no barrier before a write_slice"),
    ("O13", OPS, "    fkc_stream_barrier(s);\n    uint32_t before = s->commands;\n    st = fkc_record_ring",
     "    uint32_t before = s->commands;\n    st = fkc_record_ring",
     "no barrier before a device-position rotating write"),
    ("O14", OPS, "if (src->dtype != out->dtype || *width == 0 || *width > 8)",
     "if (src->dtype != out->dtype || *width == 0 || *width > 4)", "8-byte dtypes have no kernel"),
    ("O15", OPS, "NULL, fkc_write_slice_b1, fkc_write_slice_b2, NULL, fkc_write_slice_b4,",
     "NULL, fkc_write_slice_b1, fkc_write_slice_b4, NULL, fkc_write_slice_b2,",
     "width table: 2- and 4-byte wrappers swapped"),
    ("O16", OPS, "if (n == 2)\n        whole.extent[axis] += boxes[1].extent[axis];",
     "if (n == 3)\n        whole.extent[axis] += boxes[1].extent[axis];",
     "device ring: the second box of the plan not joined"),
    ("O17", OPS, "if (p->capacity == 0)", "if (p->capacity <= 1)", "capacity 1 refused"),
    ("O18", OPS, ["at < out->offset + bytes && out->offset < at + 8)",
                  "bytes && pa < oa + bytes && oa < pa + 8) {"],
     ["at < out->offset + bytes && out->offset < at + 7)",
      "bytes && pa < oa + bytes && oa < pa + 7) {"],
     "a position ending in out's first byte passes (the check added in a9d58fc)"),
    ("O19", OPS, ["at < out->offset + bytes && out->offset < at + 8)",
                  "bytes && pa < oa + bytes && oa < pa + 8) {"],
     ["at < out->offset + bytes - 1 && out->offset < at + 8)",
      "bytes && pa < oa + bytes - 1 && oa < pa + 8) {"],
     "a position starting at out's last byte passes (the check added in a9d58fc)"),
    # ---- copy.comp: the kernels ----
    ("C01", COMP, "for (int i = 31; i >= 0; i--) {", "for (int i = 31; i > 0; i--) {",
     "mod64: the lowest bit skipped"),
    ("C02", COMP, "        if (r >= cap)\n            r -= cap;", "        if (r > cap)\n            r -= cap;",
     "mod64: a remainder equal to cap kept"),
    ("C03", COMP, "uint r = hi % cap;", "uint r = hi;", "mod64: high word not reduced"),
    ("C04", COMP, "uint start = (hi == 0u ? lo % p.cap : mod64(lo, hi, p.cap)) + p.skip;",
     "uint start = (hi == 0u ? lo % p.cap : mod64(hi, lo, p.cap)) + p.skip;",
     "mod64: words swapped"),
    ("C05", COMP, "return start >= p.cap ? start - p.cap : start;",
     "return start > p.cap ? start - p.cap : start;", "ring start equal to cap not wrapped"),
    ("C06", COMP, "return k == 0u ? pw[w] : (pw[w] >> k) | (pw[w + 1u] << (32u - k));",
     "return k == 0u ? pw[w] : (pw[w] >> k) | (pw[w + 1u] << (24u - k));",
     "unaligned position word assembled wrong"),
    ("C07", COMP, "uint m = min(n, p.cap - start);", "uint m = min(n, p.cap - start - 1u);",
     "ring piece A one row short"),
    ("C08", COMP, "drow = row + start >= p.cap ? row + start - p.cap : row + start;",
     "drow = row + start > p.cap ? row + start - p.cap : row + start;",
     "aligned ring on rows: wrap off by one"),
    ("C09", COMP, "dplane = plane + start >= p.cap ? plane + start - p.cap : plane + start;",
     "dplane = plane + start > p.cap ? plane + start - p.cap : plane + start;",
     "aligned ring on planes: wrap off by one"),
    ("C10", COMP, "    if ((p.ring & 3u) == 1u)\n        drow", "    if (p.ring != 0u)\n        drow",
     "aligned ring: planes taken for rows"),
    ("C11", COMP, "        if (g >= p.count)\n            return;", "        if (g > p.count)\n            return;",
     "flat mode: one invocation past the dispatch's slots"),
    ("C12", COMP, "row = p.row_base + gl_WorkGroupID.y;", "row = gl_WorkGroupID.y;",
     "grid mode: row base ignored"),
    ("C13", COMP, "if (col >= p.slots || row >= rows_n || plane >= planes_n)",
     "if (row >= rows_n || plane >= planes_n)", "grid mode: columns past the row's slots run"),
    ("C14", COMP, "if (x0 < a && (row > 0u || plane > 0u)) {", "if (x0 < a && row > 0u) {",
     "a plane's first row always owns its first unit"),
    ("C15", COMP, "uint prev = row > 0u ? dstart(row - 1u, plane) : dstart(rows_n - 1u, plane - 1u);",
     "uint prev = row > 0u ? dstart(row - 1u, plane) : dstart(0u, plane - 1u);",
     "previous row of a plane's first row: the wrong row"),
    ("C16", COMP, "if (prev + p.row_units > x0)", "if (prev + p.row_units >= x0)",
     "a row ending at a unit boundary owns the next unit"),
    ("C17", COMP, "while (a + len <= cur) { // the next row in address order",
     "while (a + len < cur) { // the next row in address order",
     "edge unit: a row ending at a word boundary not left"),
    ("C18", COMP, "uint m = (n == 4u ? 0xffffffffu : (1u << (n * 8u)) - 1u) << sh;",
     "uint m = (n >= 3u ? 0xffffffffu : (1u << (n * 8u)) - 1u) << sh;",
     "edge unit: a 3-byte piece writes a whole word"),
    ("C19", COMP, "if (k != 0u && (y & 3u) + n > 4u)", "if (k != 0u && (y & 3u) + n > 5u)",
     "src_bytes: second word read one byte too late"),
    ("C20", COMP, "    if (col == 0u || u != a >> 4u)\n        unit(u, a, e, row, plane);",
     "    if (col == 0u)\n        unit(u, a, e, row, plane);",
     "edge dispatch: the last unit of each row dropped"),
    ("C21", COMP, "        if (col + 1u == p.slots)\n            unit(u + 1u, a, e, row, plane);",
     "        if (col + 2u == p.slots)\n            unit(u + 1u, a, e, row, plane);",
     "flat mode: the extra unit taken by the wrong slot"),
    ("C22", COMP, "src0 += m * (on_rows ? p.s_row : p.s_plane);",
     "src0 += m * (on_rows ? p.s_row : p.s_row);", "wide ring piece B on planes: row stride"),
    ("C23", COMP, "plane = p.plane_base + gl_WorkGroupID.z;", "plane = gl_WorkGroupID.z;",
     "grid mode: plane base ignored"),
    ("C24", COMP, "if (x0 >= a && x0 + 16u <= e) {", "if (x0 >= a && x0 + 16u < e) {",
     "a row's last whole unit taken as an edge (equivalent: the edge path writes it right)"),
    # ---- copy.comp PART=3 and its choice (issue 15 item 5): the short-run kernel ----
    ("C30", COMP, "byte_mask(t0 - 12, t1 - 12));", "byte_mask(t0 - 12, t1 - 11));",
     "short runs: the last word's mask a byte too long"),
    ("C31", COMP, "return dstart(row + 1u, plane) >= x0 + 16u;",
     "return dstart(row + 1u, plane) >= x0 + 15u;",
     "short runs: a next row starting in the unit's last byte not seen"),
    ("C32", COMP, "uvec4 hi = (sa + len - 1u) >> 4u != q ? s[q + 1u] : lo;",
     "uvec4 hi = (sa + len - 2u) >> 4u != q ? s[q + 1u] : lo;",
     "short runs: a run ending in the next source unit's first byte not loaded"),
    ("C33", COMP, "uvec4 v = shift16_sel(k < 16 ? lo : hi, k < 0 ? lo : hi, uint(k) & 15u);",
     "uvec4 v = shift16_sel(k < 16 ? lo : hi, hi, uint(k) & 15u);",
     "short runs: a unit starting before the run shifted from the wrong source unit"),
    ("C37", COMP, "uvec4 c = mix(mix(w1, w2, bvec4(kw == 1u)), mix(w3, hi, bvec4(kw == 3u)), bvec4(kw >= 2u));",
     "uvec4 c = mix(mix(w1, w2, bvec4(kw == 1u)), mix(w3, hi, bvec4(kw == 2u)), bvec4(kw >= 2u));",
     "short runs: shift16_sel's upper words wrong for 12-15 byte shifts"),
    ("C34", COMP, "short_row(r % p.rows, r / p.rows);", "short_row(r % p.rows, 0u);",
     "short runs: planes past the first written over the first"),
    ("C35", COMP, "    if (u1 != u0) {", "    if (u1 > u0 + 1u) {",
     "short runs: a run's second unit dropped"),
    ("C36", COMP, "if (before + p.row_units > x0)", "if (before + p.row_units > x0 + 1u)",
     "short runs: a previous row ending in the unit's first byte not seen (survives: a race "
     "that lavapipe's lane order never loses a byte in)"),
    ("S44", SLAB, "bool short_rows = p->row <= FKC_SHORT_MAX_ROW",
     "bool short_rows = p->row < FKC_SHORT_MAX_ROW", "16-byte misaligned rows: the general kernel"),
    # ---- stream.c and fused.comp (issue 15): range barriers, fused writes, replay ----
    ("R01", STREAM, "return (t->write || write) && t->buffer == buf", "return t->buffer == buf",
     "two reads of one range taken as a hazard"),
    ("R02", STREAM, "return (t->write || write) && t->buffer == buf && lo < t->hi && t->lo < hi;",
     "return (t->write || write) && t->buffer == buf && lo <= t->hi && t->lo < hi;",
     "adjacent ranges taken as overlapping"),
    ("R03", STREAM, "bool wait = s->n_track + n > FKC_TRACK_MAX;", "bool wait = false;",
     "no barrier when the tracked ranges overflow (the table overruns)"),
    ("R04", FUSEDC, "        wait = fkc_stream_hazard(s, ex[i].buffer, ex[i].lo, ex[i].hi, ex[i].write, true) ||",
     "        wait = false && fkc_stream_hazard(s, ex[i].buffer, ex[i].lo, ex[i].hi, ex[i].write, true) ||",
     "a fused write never waits for one of its batch"),
    ("R05", FUSEDC, "if (t->buffer == buf && h - l <= lim && !fkc_stream_hazard(s, buf, l, h, write, false)) {",
     "if (t->buffer == buf && h - l <= lim) {",
     "a fused window widened over bytes a recorded command touches"),
    ("R06", FUSEDC, "e[FUSED_DST] = (uint32_t)((w->dst - b->slot[FKC_FUSE_READ + w->slot[1]].lo) / 16);",
     "e[FUSED_DST] = (uint32_t)((w->dst - b->slot[FKC_FUSE_READ].lo) / 16);",
     "a fused write's destination offset from the wrong window"),
    ("R07", STREAM, "(uint32_t)delta, (uint32_t)(delta >> 32), 0};",
     "(uint32_t)delta + 1, (uint32_t)(delta >> 32), 0};", "the device advance off by one"),
    ("F01", FUSED, "drow = row + start >= cap ? row + start - cap : row + start;",
     "drow = row + start;", "fused ring rows never wrap"),
    ("F02", FUSED, ["uint start = (phi == 0u ? plo % cap : mod64(plo, phi, cap)) + t[e + 13u];",
                    "uint start = (phi == 0u ? plo % cap : mod64(plo, phi, cap)) + t[e + FUSED_SKIP];"],
     ["uint start = plo % cap + t[e + 13u];", "uint start = plo % cap + t[e + FUSED_SKIP];"], "fused ring ignores the position's high word"),
    ("F03", FUSED, "    if (r >= rows) {", "    if (r > rows) {",
     "fused writes: the plane shortcut one row too far"),
    ("F04", FUSED, "dplane = plane + start >= cap ? plane + start - cap : plane + start;",
     "dplane = plane + start;", "fused ring planes never wrap"),
    ("F05", FUSED, ["mod64(plo, phi, cap)) + t[e + 13u];", "mod64(plo, phi, cap)) + t[e + FUSED_SKIP];"],
     "mod64(plo, phi, cap));",
     "fused ring ignores the skipped rows of a chunk longer than the ring"),
]


def sh(cmd, cwd, log, timeout=None):
    """Runs cmd (a list) in cwd, appending its output to log; returns the exit status."""
    with open(log, "a") as f:
        f.write("$ " + " ".join(cmd) + "\n")
        f.flush()
        try:
            return subprocess.run(cmd, cwd=cwd, stdout=f, stderr=subprocess.STDOUT,
                                  timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            f.write("(timed out)\n")
            return 124


def copy_tree(src, dst):
    """Copies the files git tracks, plus untracked ones it does not ignore, from src to dst."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                           cwd=src, check=True, capture_output=True).stdout.split(b"\0")
    for f in files:
        if not f:
            continue
        rel = f.decode()
        s = os.path.join(src, rel)
        if not os.path.isfile(s):
            continue  # deleted in the working tree
        d = os.path.join(dst, rel)
        os.makedirs(os.path.dirname(d), exist_ok=True)
        shutil.copy2(s, d)


def failed_tests(log_text):
    """The test binaries check-runtime reported as failed."""
    out = []
    for line in log_text.splitlines():
        if line.endswith(": failed") and "/tests/runtime/" in line:
            out.append(line.split("/")[-1][:-len(": failed")])
    return out


def run_tests(work, log, jobs):
    """Builds libfkc and runs check-runtime; returns (status, failed binaries)."""
    if sh(["make", "-j%d" % jobs, "build/libfkc.a"], work, log) != 0:
        return "build-error", []
    start = os.path.getsize(log)
    rc = sh(["make", "-j%d" % jobs, "--no-print-directory", "check-runtime",
             "RT_TEST_TIMEOUT=120"], work, log, timeout=1800)
    with open(log) as f:
        f.seek(start)
        text = f.read()
    if rc == 0:
        return "survived", []
    return "killed", failed_tests(text)


def main():
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", default=here, help="checkout to mutate (default: this one)")
    ap.add_argument("--rev", help="take the files of this commit of --tree (git archive)")
    ap.add_argument("--work", help="scratch directory (default: a new one under /tmp)")
    ap.add_argument("--only", help="comma-separated mutant ids")
    ap.add_argument("--list", action="store_true", help="list the mutants and exit")
    ap.add_argument("--keep", action="store_true", help="keep the scratch directory")
    ap.add_argument("--out", help="also write the results to this file")
    ap.add_argument("-j", type=int, default=2, help="make jobs (default 2)")
    a = ap.parse_args()

    chosen = MUTANTS
    if a.only:
        ids = set(a.only.split(","))
        chosen = [m for m in MUTANTS if m[0] in ids]
    if a.list:
        for mid, path, _, _, what in chosen:
            print("%s  %-28s %s" % (mid, path, what))
        return 0

    work = a.work or tempfile.mkdtemp(prefix="fkc-mutate-")
    os.makedirs(work, exist_ok=True)
    if a.rev:
        archive = subprocess.run(["git", "archive", a.rev], cwd=a.tree, check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", work], input=archive, check=True)
    else:
        copy_tree(os.path.abspath(a.tree), work)
    log = os.path.join(work, "mutate.log")
    # Each mutant's text (or one of its alternatives) must be in the tree exactly once.
    resolved = []
    for mid, path, find, repl, what in chosen:
        with open(os.path.join(work, path)) as f:
            text = f.read()
        finds = find if isinstance(find, list) else [find]
        for i, alt in enumerate(finds):
            n = text.count(alt)
            if n > 1:
                sys.exit("mutant %s: its text occurs %d times in %s" % (mid, n, path))
            if n == 1:
                r = repl[i] if isinstance(repl, list) else repl
                resolved.append((mid, path, alt, r, what))
                break
        else:
            resolved.append((mid, path, None, None, what))
    chosen = resolved

    t0 = time.time()
    status, failed = run_tests(work, log, a.j)
    if status != "survived":
        sys.exit("the unmutated tree does not pass check-runtime (%s); see %s" % (status, log))
    lines = ["baseline: check-runtime passes (%.0f s)" % (time.time() - t0)]
    print(lines[0], flush=True)
    survivors = []
    for mid, path, find, repl, what in chosen:
        if find is None:
            line = "%s %-9s %5s   %-24s %s" % (mid, "n/a", "", path, what)
            print(line, flush=True)
            lines.append(line)
            continue
        full = os.path.join(work, path)
        with open(full) as f:
            orig = f.read()
        with open(full, "w") as f:
            f.write(orig.replace(find, repl, 1))
        t = time.time()
        status, failed = run_tests(work, log, a.j)
        with open(full, "w") as f:
            f.write(orig)
        line = "%s %-9s %5.0fs  %-24s %s%s" % (mid, status, time.time() - t, path, what,
                                                "  [" + " ".join(failed) + "]" if failed else "")
        print(line, flush=True)
        lines.append(line)
        if status == "survived":
            survivors.append(mid)
    killed = sum(1 for ln in lines[1:] if " killed " in ln)
    absent = sum(1 for ln in lines[1:] if " n/a " in ln)
    summary = ("%d mutants: %d killed, %d survived (%s), %d did not build, %d not in this tree; "
               "%.0f s" % (len(chosen) - absent, killed, len(survivors),
                           " ".join(survivors) or "none",
                           len(chosen) - absent - killed - len(survivors), absent,
                           time.time() - t0))
    print(summary)
    lines.append(summary)
    if a.out:
        with open(a.out, "w") as f:
            f.write("\n".join(lines) + "\n")
    if not a.keep and not a.work:
        shutil.rmtree(work)
    else:
        print("scratch tree kept in", work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
