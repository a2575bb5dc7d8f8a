// copy.comp — the slab copy: a 3-D box of rows (planes x rows x row) moved in 16-byte units,
// bits never through float, every access a whole 32-bit word or wider (no 8/16-bit storage).
// Variants (glslc -D): WIDE=0 — every offset and stride 16-byte aligned, one uvec4 per
// invocation, sizes in 16-byte units; WIDE=1 — any alignment, sizes in bytes: each invocation
// owns one aligned 16-byte destination unit, assembles it from the source with shifts of two
// aligned loads, and a unit a row shares with its neighbours (its edges) is owned by the first
// row touching it, which rebuilds it byte by byte, keeping bytes outside the box. So exactly one
// invocation writes each unit. Long rows go in two dispatches (PART=1: the units inside rows,
// a kernel free of the edge code, which costs the single kernel ~7% of its bandwidth on the
// H200; PART=2: the edge units, two slots per row). PART=3: rows of at most 16 bytes, one
// invocation per row, which writes the one or two units it touches in one store each (RING=0
// only). RING=1 adds the device-resident ring position (binding 2): the
// shader reads it and splits the write at the ring end itself (WIDE=0: in one dispatch, each
// ring row wrapped; WIDE=1: piece A or B of the split, one dispatch each).
#version 450
#ifndef WIDE
#error WIDE must be 0 or 1
#endif
#ifndef PART
#define PART 0 // WIDE=1: 0 every unit; 1 only units inside rows; 2 only edge units; 3 short rows
#endif

layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 0) readonly buffer Src { uvec4 s[]; };
#if WIDE
layout(std430, set = 0, binding = 1) buffer Dst { uvec4 d[]; };
#else
layout(std430, set = 0, binding = 1) writeonly buffer Dst { uvec4 d[]; };
#endif
#if RING
layout(std430, set = 0, binding = 2) readonly buffer Pos { uint pw[]; };
#endif

// Must match struct push in runtime/src/slab.c.
layout(push_constant) uniform Push {
    uint base;       // flat mode: first slot index of this dispatch; grid mode: first column
    uint count;      // flat mode: slots this dispatch covers
    uint row_units;  // row length (WIDE=0: 16-byte units; WIDE=1: bytes)
    uint rows;       // rows per plane
    uint src_off;    // first source unit/byte of the box
    uint dst_off;    // first destination unit/byte of the box
    uint s_row;      // source stride between rows
    uint s_plane;    // source stride between planes
    uint d_row;      // destination stride between rows
    uint d_plane;    // destination stride between planes
    uint slots;      // invocation slots per row (WIDE=1: grid mode, the units a row can touch;
                     // flat mode, ceil(row / 16), the last slot taking one more; else row_units)
    uint planes;     // planes in the box
    uint grid;       // 1: grid mode (x = columns, y = rows, z = planes); 0: flat mode
    uint row_base;   // grid mode: first row of this dispatch
    uint plane_base; // grid mode: first plane of this dispatch
    uint ring;       // RING: 1 ring along rows, 2 along planes; | 4: piece B (after the wrap)
    uint cap;        // RING: ring capacity (< 2^31)
    uint skip;       // RING: skipped source rows mod cap (a source longer than the ring)
    uint pos_off;    // RING: byte offset of the little-endian u64 position in binding 2
    uint pad;
} p;

uint rows_n, planes_n, src0, dst0; // the box of this piece (RING: after the split)

#if RING
uint word_at(uint b) // 32 bits at byte b of the position window
{
    uint w = b >> 2u, k = (b & 3u) * 8u;
    return k == 0u ? pw[w] : (pw[w] >> k) | (pw[w + 1u] << (32u - k));
}

// (hi * 2^32 + lo) mod cap in 32-bit arithmetic (cap <= 2^31, so 2r + 1 never overflows).
uint mod64(uint lo, uint hi, uint cap)
{
    uint r = hi % cap;
    for (int i = 31; i >= 0; i--) {
        r = (r << 1u) | ((lo >> uint(i)) & 1u);
        if (r >= cap)
            r -= cap;
    }
    return r;
}

// The ring's first row: (position + skip) mod cap. Every invocation computes it itself (a
// barrier to share it costs more, on llvmpipe by far); positions below 2^32 take one division.
uint ring_start()
{
    uint lo = word_at(p.pos_off), hi = word_at(p.pos_off + 4u);
    uint start = (hi == 0u ? lo % p.cap : mod64(lo, hi, p.cap)) + p.skip;
    return start >= p.cap ? start - p.cap : start;
}

#if WIDE
// The ring split: piece A writes rows start..cap-1, piece B the rest at 0 (two dispatches,
// so that each piece's rows lie in address order for the edge-unit ownership).
void ring_piece(uint start)
{
    bool on_rows = (p.ring & 3u) == 1u;
    uint n = on_rows ? p.rows : p.planes;
    uint m = min(n, p.cap - start);
    uint cnt;
    if ((p.ring & 4u) == 0u) {
        cnt = m;
        dst0 += start * (on_rows ? p.d_row : p.d_plane);
    } else {
        cnt = n - m;
        src0 += m * (on_rows ? p.s_row : p.s_plane);
    }
    if (on_rows)
        rows_n = cnt;
    else
        planes_n = cnt;
}
#endif
#endif

#if WIDE
uint dstart(uint row, uint plane) { return dst0 + plane * p.d_plane + row * p.d_row; }
uint sstart(uint row, uint plane) { return src0 + plane * p.s_plane + row * p.s_row; }

// Bytes k..k+15 (k < 16) of the 32 bytes lo|hi: a funnel shift.
uvec4 shift16(uvec4 lo, uvec4 hi, uint k)
{
    uint kw = k >> 2u, kb = (k & 3u) * 8u;
    uvec4 a, c;
    if (kw == 0u) {
        a = lo;
        c = uvec4(lo.yzw, hi.x);
    } else if (kw == 1u) {
        a = uvec4(lo.yzw, hi.x);
        c = uvec4(lo.zw, hi.xy);
    } else if (kw == 2u) {
        a = uvec4(lo.zw, hi.xy);
        c = uvec4(lo.w, hi.xyz);
    } else {
        a = uvec4(lo.w, hi.xyz);
        c = hi;
    }
    return kb == 0u ? a : (a >> kb) | (c << (32u - kb));
}

// 16 source bytes from byte b: one aligned load, or two and a funnel shift.
uvec4 load16(uint b)
{
    uint q = b >> 4u, k = b & 15u;
    uvec4 lo = s[q];
    if (k == 0u)
        return lo;
    return shift16(lo, s[q + 1u], k);
}

uint sword(uint i) { return s[i >> 2u][i & 3u]; } // source word i

// The n (1..4) source bytes from byte y, in the low bytes (higher bytes are garbage); the
// second word is read only when those bytes reach into it.
uint src_bytes(uint y, uint n)
{
    uint k = (y & 3u) * 8u, v = sword(y >> 2u) >> k;
    if (k != 0u && (y & 3u) + n > 4u)
        v |= sword((y >> 2u) + 1u) << (32u - k);
    return v;
}

// An edge unit, owned by (row, plane), the first row touching it: word by word, the bytes of
// this and any later row of the box that fall in it come from the source, the others are kept.
uvec4 edge_unit(uint u, uint row, uint plane)
{
    uvec4 v = d[u];
    uint len = p.row_units;
    uint a = dstart(row, plane), sa = sstart(row, plane);
    bool more = true;
    for (uint w = 0u; w < 4u && more; w++) {
        uint xw = u * 16u + w * 4u, word = v[w], cur = xw;
        for (;;) {
            while (a + len <= cur) { // the next row in address order
                if (++row == rows_n) {
                    row = 0u;
                    more = ++plane < planes_n;
                }
                if (!more)
                    break;
                a = dstart(row, plane);
                sa = sstart(row, plane);
            }
            if (!more || a >= xw + 4u)
                break;
            uint lo = max(a, cur), hi = min(a + len, xw + 4u), n = hi - lo, sh = (lo - xw) * 8u;
            uint m = (n == 4u ? 0xffffffffu : (1u << (n * 8u)) - 1u) << sh;
            word = (word & ~m) | ((src_bytes(sa + (lo - a), n) << sh) & m);
            if (hi == xw + 4u)
                break;
            cur = hi; // the row ended inside this word: the next row may go on in it
        }
        v[w] = word;
    }
    return v;
}

// Writes destination unit u of the row at [a, e) (row, plane): a plain 16-byte store inside
// the row; an edge unit only when this row is the first touching it.
void unit(uint u, uint a, uint e, uint row, uint plane)
{
    uint x0 = u * 16u;
    if (x0 >= e)
        return;
    if (x0 >= a && x0 + 16u <= e) {
#if PART != 2
        d[u] = load16(sstart(row, plane) + (x0 - a));
#endif
        return;
    }
#if PART == 1
    return; // the edges are another dispatch's
#endif
    if (x0 < a && (row > 0u || plane > 0u)) { // first unit: does the previous row own it?
        uint prev = row > 0u ? dstart(row - 1u, plane) : dstart(rows_n - 1u, plane - 1u);
        if (prev + p.row_units > x0)
            return;
    }
    d[u] = edge_unit(u, row, plane);
}

#if PART == 3
// Whether the row at [a, a + len) (row, plane) is the only row of the box touching the unit
// at byte x0 (rows lie in address order: only the neighbours can reach into it).
bool alone(uint x0, uint row, uint plane)
{
    if (row > 0u || plane > 0u) {
        uint before = row > 0u ? dstart(row - 1u, plane) : dstart(rows_n - 1u, plane - 1u);
        if (before + p.row_units > x0)
            return false;
    }
    if (row + 1u < rows_n)
        return dstart(row + 1u, plane) >= x0 + 16u;
    if (plane + 1u < planes_n)
        return dstart(0u, plane + 1u) >= x0 + 16u;
    return true;
}

// shift16 without branches (selects: lanes of one subgroup take different shifts here).
uvec4 shift16_sel(uvec4 lo, uvec4 hi, uint k)
{
    uint kw = k >> 2u, kb = (k & 3u) * 8u;
    uvec4 w1 = uvec4(lo.yzw, hi.x), w2 = uvec4(lo.zw, hi.xy), w3 = uvec4(lo.w, hi.xyz);
    uvec4 a = mix(mix(lo, w1, bvec4(kw == 1u)), mix(w2, w3, bvec4(kw == 3u)), bvec4(kw >= 2u));
    uvec4 c = mix(mix(w1, w2, bvec4(kw == 1u)), mix(w3, hi, bvec4(kw == 3u)), bvec4(kw >= 2u));
    return mix((a >> kb) | (c << ((32u - kb) & 31u)), a, bvec4(kb == 0u));
}

// The bytes [lo, hi) of a word, both clamped to 0..4, as a mask.
uint byte_mask(int lo, int hi)
{
    uint l = uint(clamp(lo, 0, 4)) * 8u, h = uint(clamp(hi, 0, 4)) * 8u;
    return (h == 32u ? ~0u : (1u << h) - 1u) & ~(l == 32u ? ~0u : (1u << l) - 1u);
}

// Unit u, touched by this row alone: the row's bytes in it from the source units lo|hi (the
// row starts at byte sa & 15 of lo), the other bytes kept (one read of the unit only then).
void short_unit(uint u, uint a, uint sa, uvec4 lo, uvec4 hi)
{
    int j0 = int(u * 16u) - int(a);  // the row's byte at the unit's first byte
    int k = int(sa & 15u) + j0;      // where that byte lies in lo|hi (-15..30)
    // The row's bytes sit at k + t in 0..31; k < 0 reaches lo only (then the pair is (any,
    // lo) from k + 16), k >= 16 hi only (the pair (hi, any) from k - 16): k & 15 either way.
    uvec4 v = shift16_sel(k < 16 ? lo : hi, k < 0 ? lo : hi, uint(k) & 15u);
    int t0 = -j0, t1 = int(p.row_units) - j0; // the unit's bytes [t0, t1) are the row's
    uvec4 m = uvec4(byte_mask(t0, t1), byte_mask(t0 - 4, t1 - 4), byte_mask(t0 - 8, t1 - 8),
                    byte_mask(t0 - 12, t1 - 12));
    if (all(equal(m, uvec4(~0u))))
        d[u] = v;
    else
        d[u] = (d[u] & ~m) | (v & m);
}

// One row of at most 16 bytes (it touches one or two units): the source read as one or two
// aligned units up front; each unit it alone touches written in one store, a unit shared
// with a neighbouring row through unit() (the first row touching it owns it, as in PART=0).
void short_row(uint row, uint plane)
{
    uint a = dstart(row, plane), len = p.row_units, e = a + len, sa = sstart(row, plane);
    uint q = sa >> 4u;
    uvec4 lo = s[q];
    uvec4 hi = (sa + len - 1u) >> 4u != q ? s[q + 1u] : lo;
    uint u0 = a >> 4u, u1 = (e - 1u) >> 4u;
    if (alone(u0 * 16u, row, plane))
        short_unit(u0, a, sa, lo, hi);
    else
        unit(u0, a, e, row, plane);
    if (u1 != u0) {
        if (alone(u1 * 16u, row, plane))
            short_unit(u1, a, sa, lo, hi);
        else
            unit(u1, a, e, row, plane);
    }
}
#endif
#endif

void main()
{
    rows_n = p.rows;
    planes_n = p.planes;
    src0 = p.src_off;
    dst0 = p.dst_off;
#if RING
    uint start = ring_start();
#if WIDE
    ring_piece(start);
#endif
#endif
#if PART == 3 // short rows: one invocation per row, one flat index
    uint r = p.base + (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * 256u +
             gl_LocalInvocationID.x;
    if (r - p.base >= p.count)
        return;
    if (p.planes == 1u) {
        if (r < rows_n)
            short_row(r, 0u);
    } else if (r / p.rows < planes_n) {
        short_row(r % p.rows, r / p.rows);
    }
    return;
#endif
    uint col, row, plane;
    if (p.grid != 0u) { // long rows: no division at all
        col = p.base + gl_WorkGroupID.x * 256u + gl_LocalInvocationID.x;
        row = p.row_base + gl_WorkGroupID.y;
        plane = p.plane_base + gl_WorkGroupID.z;
    } else { // short rows: one flat index over the whole box
        uint g = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * 256u +
                 gl_LocalInvocationID.x;
        if (g >= p.count)
            return;
        uint i = p.base + g;
        col = i % p.slots;
        uint r = i / p.slots;
        row = r % p.rows;
        plane = r / p.rows;
    }
    if (col >= p.slots || row >= rows_n || plane >= planes_n)
        return;
#if WIDE
    uint a = dstart(row, plane), e = a + p.row_units, u = (a >> 4u) + col;
#if PART == 2 // two slots per row: its first unit and its last
    if (col == 1u)
        u = (e - 1u) >> 4u;
    if (col == 0u || u != a >> 4u)
        unit(u, a, e, row, plane);
    return;
#endif
    if (p.grid != 0u) { // slots cover every unit a row of this length can touch
        unit(u, a, e, row, plane);
    } else { // slots are the row's length in units, rounded up; the last takes one more
        unit(u, a, e, row, plane);
        if (col + 1u == p.slots)
            unit(u + 1u, a, e, row, plane);
    }
#else
    uint drow = row, dplane = plane;
#if RING // one dispatch: ring row i lands at (start + i) mod cap
    if ((p.ring & 3u) == 1u)
        drow = row + start >= p.cap ? row + start - p.cap : row + start;
    else
        dplane = plane + start >= p.cap ? plane + start - p.cap : plane + start;
#endif
    d[dst0 + dplane * p.d_plane + drow * p.d_row + col] =
        s[src0 + plane * p.s_plane + row * p.s_row + col];
#endif
}
