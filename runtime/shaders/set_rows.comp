// set_rows.comp — row-indexed writes (fkc_set_rows, runtime/src/set_rows.c): for each source row
// i with index[i] >= 0, cache slot index[i] gets convert(source row i). Each work group belongs
// to one source row (a chunk of its units), so the index, the skip and the duplicate check are
// the same for all its invocations; each invocation owns one unit of the cache row: a 32-bit
// word (WORD, built with -DVEC=0) or a 16-byte unit (-DVEC=1, rows and offsets 16-aligned).
// No two invocations write one unit: a slot named by several rows gets the last of them alone
// (a row with a later duplicate writes nothing), so a slot never holds a mix of two rows. Which
// row is the last is found either by a scan (DUPS 1: each row's group reads every later index,
// O(n^2), for a few rows) or by a first pass (DUPS 2, -DMARK=1: one invocation per row,
// atomicMax of row + 1 into a scratch word per slot), read by the write pass: the winner's
// groups each add 1 << SBITS to the word, and the last of them sets it back to 0, so the
// scratch is all zero again after every op (a recorded command buffer replays with it right).
// An index at or past the cache's slot count writes nothing and adds 1 to the status word.
// Conversions are integer code (no float instruction), round to nearest even, bit-exact
// everywhere: runtime/src/set_rows.c's reference is the same arithmetic.
// Bindings (one op, -DFUSED=0): 0 the source window, 1 the index window, 2 the cache window,
// 3 the status window. -DFUSED=1: many ops of one stream in one dispatch, from a table.
// Must match struct sr_push and the table built in runtime/src/set_rows.c.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "../src/fused_table.h"

layout(local_size_x = 256) in;

// The op's parameters, in this order (struct sr_push): push constants of a single op; in the
// fused variant (-DFUSED=1) words SR_E_PARAMS.. of the op's table entry (23 words).
#define N 0u         // source rows (indices)
#define ROW_BASE 1u  // first row of this dispatch
#define CHUNKS 2u    // work groups per row
#define ROW_UNITS 3u // units of one cache row
#define D_OFF 4u     // the cache's first unit in its window
#define SPLIT 5u     // slot = outer * split + inner (1: the slot is axis 0 alone)
#define D_OUTER 6u   // units between outer slots
#define D_INNER 7u   // units between inner slots
#define RUN_UNITS 8u // units of one run (a contiguous piece of a row in the cache)
#define D_RUN 9u     // units between runs
#define S_OFF 10u    // the source's first byte in its window
#define S_ROW 11u    // bytes of one source row
#define I_OFF 12u    // the index tensor's first word in its window
#define I64 13u      // 1: I64 indices, 0: I32
#define SLOTS 14u    // slots of the cache (< 2^31)
#define ST_WORD 15u  // the status word in its window, or 0xffffffff: none
#define CONV 16u     // 0 copy, 1 F32->F16, 2 F32->BF16, 3 F16->F32, 4 BF16->F32
#define S_UNIT 17u   // source bytes per unit
#define DUPS 18u     // 1: look for later rows naming the same slot; 2: the scratch (MARK)
#define GROUPS 19u   // work groups of this dispatch (fused: of this op)
#define UPI 20u      // units each invocation writes, 256 apart (a work group: 256 * UPI units)
#define SCR 21u      // DUPS 2: the op's first scratch word (one per slot) in the scratch window
#define SBITS 22u    // DUPS 2: bits of row + 1 in a scratch word (above them: chunks counted)

#if FUSED
// Binding 0: the table (runtime/src/fused_table.h), SR_WORDS (32) words an op: its first group, its slots (source, index: read
// windows 0..3; cache, status: written windows 0..7, 4 bits each), 16-byte units or words,
// then the 23 parameters. Bindings 1..4: read windows; 5..12: written windows; 13 the scratch.
layout(std430, set = 0, binding = 0) readonly buffer Table { uint t[]; };
#define RDECL(b, n)                                                                            \
    layout(std430, set = 0, binding = b) readonly buffer R1##n { uint r1##n[]; };             \
    layout(std430, set = 0, binding = b) readonly buffer R2##n { uvec2 r2##n[]; };            \
    layout(std430, set = 0, binding = b) readonly buffer R4##n { uvec4 r4##n[]; };
#define WDECL(b, n)                                                                            \
    layout(std430, set = 0, binding = b) buffer W1##n { uint w1##n[]; };                      \
    layout(std430, set = 0, binding = b) writeonly buffer W4##n { uvec4 w4##n[]; };
RDECL(1, a) RDECL(2, b) RDECL(3, c) RDECL(4, d)
WDECL(5, a) WDECL(6, b) WDECL(7, c) WDECL(8, d) WDECL(9, e) WDECL(10, f) WDECL(11, g)
WDECL(12, h)
layout(std430, set = 0, binding = 13) coherent buffer Scr { uint scr[]; }; // DUPS 2's scratch

layout(push_constant) uniform Push {
    uint n;      // ops in the table
    uint groups; // work groups of every op when they all have as many (0: they differ)
} pc;

uint e0;         // the op's table entry
uint ks, ki, kd, kt; // its windows
bool vec;
uint P(uint k) { return t[e0 + SR_E_PARAMS + k]; }
#define RSW(f, k, i) (k == 0u ? f##a[i] : k == 1u ? f##b[i] : k == 2u ? f##c[i] : f##d[i])
uint s1(uint i) { return RSW(r1, ks, i); }
uvec2 s2(uint i) { return RSW(r2, ks, i); }
uvec4 s4(uint i) { return RSW(r4, ks, i); }
uint ix(uint i) { return RSW(r1, ki, i); }
void d1(uint i, uint v)
{
    switch (kd) {
    case 0u: w1a[i] = v; break;
    case 1u: w1b[i] = v; break;
    case 2u: w1c[i] = v; break;
    case 3u: w1d[i] = v; break;
    case 4u: w1e[i] = v; break;
    case 5u: w1f[i] = v; break;
    case 6u: w1g[i] = v; break;
    default: w1h[i] = v; break;
    }
}
void d4(uint i, uvec4 v)
{
    switch (kd) {
    case 0u: w4a[i] = v; break;
    case 1u: w4b[i] = v; break;
    case 2u: w4c[i] = v; break;
    case 3u: w4d[i] = v; break;
    case 4u: w4e[i] = v; break;
    case 5u: w4f[i] = v; break;
    case 6u: w4g[i] = v; break;
    default: w4h[i] = v; break;
    }
}
void count(uint i)
{
    switch (kt) {
    case 0u: atomicAdd(w1a[i], 1u); break;
    case 1u: atomicAdd(w1b[i], 1u); break;
    case 2u: atomicAdd(w1c[i], 1u); break;
    case 3u: atomicAdd(w1d[i], 1u); break;
    case 4u: atomicAdd(w1e[i], 1u); break;
    case 5u: atomicAdd(w1f[i], 1u); break;
    case 6u: atomicAdd(w1g[i], 1u); break;
    default: atomicAdd(w1h[i], 1u); break;
    }
}
#else
layout(std430, set = 0, binding = 0) readonly buffer S1 { uint s1_[]; };
layout(std430, set = 0, binding = 0) readonly buffer S2 { uvec2 s2_[]; };
layout(std430, set = 0, binding = 0) readonly buffer S4 { uvec4 s4_[]; };
layout(std430, set = 0, binding = 1) readonly buffer Ix { uint ix_[]; };
layout(std430, set = 0, binding = 2) writeonly buffer D1 { uint d1_[]; };
layout(std430, set = 0, binding = 2) writeonly buffer D4 { uvec4 d4_[]; };
layout(std430, set = 0, binding = 3) buffer Status { uint status[]; };
layout(std430, set = 0, binding = 4) coherent buffer Scr { uint scr[]; }; // DUPS 2's scratch

layout(push_constant) uniform Push { uint w[23]; } pc;

const bool vec = VEC != 0;
uint P(uint k) { return pc.w[k]; }
uint s1(uint i) { return s1_[i]; }
uvec2 s2(uint i) { return s2_[i]; }
uvec4 s4(uint i) { return s4_[i]; }
uint ix(uint i) { return ix_[i]; }
void d1(uint i, uint v) { d1_[i] = v; }
void d4(uint i, uvec4 v) { d4_[i] = v; }
void count(uint i) { atomicAdd(status[i], 1u); }
#endif

shared uint later;

uint word_at(uint b) // 32 bits at byte b of the source window
{
    uint w = b >> 2u, sh = (b & 3u) * 8u;
    return sh == 0u ? s1(w) : (s1(w) >> sh) | (s1(w + 1u) << (32u - sh));
}

uint half_at(uint b) // 16 bits at byte b (2-aligned) of the source window
{
    return (s1(b >> 2u) >> ((b & 2u) * 8u)) & 0xffffu;
}

// F32 bits -> F16 bits, round to nearest even; NaN stays NaN (quiet, top payload bits kept),
// overflow is +-Inf, results below the smallest subnormal round to +-0.
uint f2h(uint x)
{
    uint sign = (x >> 16u) & 0x8000u, a = x & 0x7fffffffu;
    if (a > 0x7f800000u)
        return sign | 0x7e00u | ((a >> 13u) & 0x3ffu);
    if (a >= 0x477ff000u)
        return sign | 0x7c00u;
    if (a < 0x38800000u) {
        uint e = a >> 23u;
        if (e < 102u)
            return sign;
        uint m = (a & 0x7fffffu) | 0x800000u, sh = 126u - e;
        uint r = m >> sh, rem = m & ((1u << sh) - 1u), hf = 1u << (sh - 1u);
        if (rem > hf || (rem == hf && (r & 1u) != 0u))
            r++;
        return sign | r;
    }
    uint b = a - 0x38000000u, h = b >> 13u, rem = b & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u) != 0u))
        h++;
    return sign | h;
}

// F32 bits -> BF16 bits, round to nearest even; NaN stays NaN (quiet bit set, payload kept).
uint f2b(uint x)
{
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (x >> 16u) | 0x40u;
    return (x + 0x7fffu + ((x >> 16u) & 1u)) >> 16u;
}

// F16 bits -> F32 bits, exact (subnormals normalised, NaN payloads kept).
uint h2f(uint h)
{
    uint sign = (h & 0x8000u) << 16u, e = (h >> 10u) & 0x1fu, m = h & 0x3ffu;
    if (e == 31u)
        return sign | 0x7f800000u | (m << 13u);
    if (e != 0u)
        return sign | ((e + 112u) << 23u) | (m << 13u);
    if (m == 0u)
        return sign;
    uint p = uint(findMSB(m)); // 0..9: the value is m * 2^-24
    return sign | ((p + 103u) << 23u) | ((m << (23u - p)) & 0x7fffffu);
}

uint narrow(uint x) { return P(CONV) == 1u ? f2h(x) : f2b(x); }
uint widen(uint h) { return P(CONV) == 3u ? h2f(h) : h << 16u; }

// Unit u of source row `row` into slot lo: preloaded (the first unit of a 16-byte op) in pa, pb.
void unit(uint u, uint row, uint lo, bool pre, uvec4 pa, uvec4 pb)
{
    uint conv = P(CONV), sb = P(S_OFF) + row * P(S_ROW) + u * P(S_UNIT);
    uint r = u / P(RUN_UNITS), e = u - r * P(RUN_UNITS);
    uint outer = lo / P(SPLIT), inner = lo - outer * P(SPLIT);
    uint d = P(D_OFF) + outer * P(D_OUTER) + inner * P(D_INNER) + r * P(D_RUN) + e;
    if (vec) {
        if (conv == 0u) {
            d4(d, pre ? pa : s4(sb >> 4u));
        } else if (conv <= 2u) {
            uvec4 a = pre ? pa : s4(sb >> 4u), b = pre ? pb : s4((sb >> 4u) + 1u);
            d4(d, uvec4(narrow(a.x) | (narrow(a.y) << 16u), narrow(a.z) | (narrow(a.w) << 16u),
                        narrow(b.x) | (narrow(b.y) << 16u), narrow(b.z) | (narrow(b.w) << 16u)));
        } else {
            uvec2 a = s2(sb >> 3u);
            d4(d, uvec4(widen(a.x & 0xffffu), widen(a.x >> 16u), widen(a.y & 0xffffu),
                        widen(a.y >> 16u)));
        }
    } else if (conv == 0u) {
        d1(d, word_at(sb));
    } else if (conv <= 2u) {
        d1(d, narrow(word_at(sb)) | (narrow(word_at(sb + 4u)) << 16u));
    } else {
        d1(d, widen(half_at(sb)));
    }
}

// The index of `row` as (lo, hi) words (I32: hi is its sign extension).
uvec2 index_of(uint row)
{
    uint lo = ix(P(I_OFF) + (P(I64) != 0u ? 2u * row : row));
    return uvec2(lo, P(I64) != 0u ? ix(P(I_OFF) + 2u * row + 1u) : ((lo >> 31u) != 0u ? ~0u : 0u));
}

#if MARK
// The first pass of DUPS 2: each row in range writes row + 1 into its slot's scratch word, the
// largest (the last row naming the slot) staying. Fused: pc.groups groups per op.
void main()
{
    uint g = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
#if FUSED
    uint op = g / pc.groups;
    if (op >= pc.n)
        return;
    e0 = op * SR_WORDS;
    uint sl = t[e0 + SR_E_SLOTS];
    ki = (sl >> 4u) & 15u;
    g -= op * pc.groups;
#endif
    uint row = g * 256u + gl_LocalInvocationID.x;
    if (P(DUPS) != 2u || row >= P(N))
        return;
    uvec2 v = index_of(row);
    if (v.y == 0u && v.x < P(SLOTS))
        atomicMax(scr[P(SCR) + v.x], row + 1u);
}
#else
void main()
{
    uint g = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
#if FUSED
    uint lo_ = 0u, hi_ = pc.n; // the last op whose first group is <= g
    if (pc.groups != 0u) { // ops of one size (a decode step's): no search
        lo_ = min(g / pc.groups, pc.n - 1u);
    } else {
        while (hi_ - lo_ > 1u) {
            uint mid = (lo_ + hi_) >> 1u;
            if (t[mid * SR_WORDS + SR_E_GROUP] <= g)
                lo_ = mid;
            else
                hi_ = mid;
        }
    }
    e0 = lo_ * SR_WORDS;
    if (g < t[e0 + SR_E_GROUP])
        return;
    g -= t[e0 + SR_E_GROUP];
    uint sl = t[e0 + SR_E_SLOTS];
    ks = sl & 15u, ki = (sl >> 4u) & 15u, kd = (sl >> 8u) & 15u, kt = (sl >> 12u) & 15u;
    vec = t[e0 + SR_E_VEC] != 0u;
#endif
    uint row = P(ROW_BASE) + g / P(CHUNKS), chunk = g % P(CHUNKS);
    uint lx = gl_LocalInvocationID.x;
    if (g >= P(GROUPS))
        return;
    // the source of the first unit is read before the index is known (the two loads overlap):
    // its address does not depend on the slot
    uint u0 = chunk * 256u * P(UPI) + lx, conv = P(CONV);
    uvec4 pa = uvec4(0u), pb = uvec4(0u);
    if (u0 < P(ROW_UNITS) && vec && conv <= 2u) {
        uint sb = P(S_OFF) + row * P(S_ROW) + u0 * P(S_UNIT);
        pa = s4(sb >> 4u);
        if (conv != 0u)
            pb = s4((sb >> 4u) + 1u);
    }
    uvec2 v = index_of(row);
    uint lo = v.x, hi = v.y;
    if ((hi >> 31u) != 0u)
        return; // negative: skipped
    if (hi != 0u || lo >= P(SLOTS)) {
        if (chunk == 0u && lx == 0u && P(ST_WORD) != 0xffffffffu)
            count(P(ST_WORD));
        return; // past the cache: counted, nothing written
    }
    if (P(DUPS) == 2u) { // the first pass's winner writes; its last group resets the word
        if (lx == 0u) {
            uint a = P(SCR) + lo, b = P(SBITS), w = atomicOr(scr[a], 0u);
            later = (w & ((1u << b) - 1u)) == row + 1u ? 0u : 1u;
            // (the word cannot be reset before this group's add: that takes all of them)
            if (later == 0u && (atomicAdd(scr[a], 1u << b) >> b) + 1u == P(CHUNKS))
                atomicExchange(scr[a], 0u);
        }
        barrier();
        if (later != 0u)
            return;
    } else if (P(DUPS) != 0u) { // the last row naming a slot writes it: skip when a later one does
        if (lx == 0u)
            later = 0u;
        barrier();
        bool dup = false; // each invocation looks at every 256th later index, then all agree
        for (uint j = row + 1u + lx; j < P(N); j += 256u) { // (no early exit: loads overlap)
            uint jl = ix(P(I_OFF) + (P(I64) != 0u ? 2u * j : j));
            uint jh = P(I64) != 0u ? ix(P(I_OFF) + 2u * j + 1u) : 0u;
            dup = dup || (jl == lo && jh == 0u);
        }
        if (dup)
            later = 1u;
        barrier();
        if (later != 0u)
            return;
    }
    for (uint k = 0u; k < P(UPI); k++)
        if (u0 + 256u * k < P(ROW_UNITS))
            unit(u0 + 256u * k, row, lo, k == 0u, pa, pb);
}
#endif
