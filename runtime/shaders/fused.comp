// fused.comp — many small 16-byte-aligned box writes in one dispatch (issue 15): binding 0
// holds a table of writes, FKC_FUSE_WORDS (16) words each, laid out as runtime/src/fused_table.h
// says; bindings 1..6 are windows the writes read (sources, ring positions), 7..14 windows they
// write. Each work group belongs to one
// write (the table's first word is its first group), so the window a group uses is the same
// for all its invocations. Where the dispatch has at most FKC_FUSE_MAP_GROUPS (4096) groups,
// a byte per group after the entries names its write (push constant `groups` > 0): one load
// instead of a binary search of dependent ones (on the H200 the search cost 1.3 us of a 7 us
// 64-write step).
// A write is the copy_u128 box (planes x rows x row_units 16-byte units), optionally a ring
// with the device-resident position (ring_u128: row or plane i lands at (start + i) mod cap).
// The table is written by runtime/src/fused.c from struct fkc_fused.
// Built twice: `fused`, and `fused_advance` (-DADVANCE=1), which also adds a delta to a u64 ring
// position after every group is done with it (fkc_stream_advance folded into the dispatch that
// writes at that position; see count_done() below for why no group can read the advanced value).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "../src/fused_table.h"
#ifndef ADVANCE
#define ADVANCE 0
#endif

layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 0) readonly buffer Table { uint t[]; };
layout(std430, set = 0, binding = 1) readonly buffer R1 { uvec4 r1[]; };
layout(std430, set = 0, binding = 2) readonly buffer R2 { uvec4 r2[]; };
layout(std430, set = 0, binding = 3) readonly buffer R3 { uvec4 r3[]; };
layout(std430, set = 0, binding = 4) readonly buffer R4 { uvec4 r4[]; };
layout(std430, set = 0, binding = 5) readonly buffer R5 { uvec4 r5[]; };
layout(std430, set = 0, binding = 6) readonly buffer R6 { uvec4 r6[]; };
layout(std430, set = 0, binding = 7) writeonly buffer W1 { uvec4 w1[]; };
layout(std430, set = 0, binding = 8) writeonly buffer W2 { uvec4 w2[]; };
layout(std430, set = 0, binding = 9) writeonly buffer W3 { uvec4 w3[]; };
layout(std430, set = 0, binding = 10) writeonly buffer W4 { uvec4 w4[]; };
layout(std430, set = 0, binding = 11) writeonly buffer W5 { uvec4 w5[]; };
layout(std430, set = 0, binding = 12) writeonly buffer W6 { uvec4 w6[]; };
layout(std430, set = 0, binding = 13) writeonly buffer W7 { uvec4 w7[]; };
layout(std430, set = 0, binding = 14) writeonly buffer W8 { uvec4 w8[]; };

#if ADVANCE
// 15: the dispatch's own counter word (in the stream's table buffer, 0 when the dispatch
// starts, left 0 when it ends); 16: the window holding the position to advance.
layout(std430, set = 0, binding = 15) coherent buffer Ctl { uint done; } ctl;
layout(std430, set = 0, binding = 16) coherent buffer Adv { uint a[]; };
#endif

layout(push_constant) uniform Push {
    uint n;      // writes in the table
    uint groups; // > 0: the work groups, a byte each after the entries naming its write
#if ADVANCE
    uint word;     // the position's low word in window 16
    uint delta_lo; // the delta, low and high 32 bits
    uint delta_hi;
#endif
} pc;

uvec4 ld(uint k, uint i) // read window k
{
    switch (k) {
    case 0u: return r1[i];
    case 1u: return r2[i];
    case 2u: return r3[i];
    case 3u: return r4[i];
    case 4u: return r5[i];
    default: return r6[i];
    }
}

void st(uint k, uint i, uvec4 v) // written window k
{
    switch (k) {
    case 0u: w1[i] = v; break;
    case 1u: w2[i] = v; break;
    case 2u: w3[i] = v; break;
    case 3u: w4[i] = v; break;
    case 4u: w5[i] = v; break;
    case 5u: w6[i] = v; break;
    case 6u: w7[i] = v; break;
    default: w8[i] = v; break;
    }
}

uint pword(uint k, uint w) { return ld(k, w >> 2u)[w & 3u]; }

uint word_at(uint k, uint b) // 32 bits at byte b of slot k
{
    uint w = b >> 2u, sh = (b & 3u) * 8u;
    return sh == 0u ? pword(k, w) : (pword(k, w) >> sh) | (pword(k, w + 1u) << (32u - sh));
}

// (hi * 2^32 + lo) mod cap in 32-bit arithmetic (cap <= 2^31), as copy.comp.
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

#if ADVANCE
// The advance (fkc_stream_advance folded into the dispatch). Every group counts itself in
// ctl.done once each of its invocations has read the position it needs, before it loads or
// stores any data: memoryBarrierBuffer in each invocation, then the work-group barrier, then
// one atomicAdd by invocation 0 (the idiom of CUDA's threadFenceReduction). The atomicAdds form
// one modification order of ctl.done, so the group whose add returns the number of groups - 1
// is the last to count, and every read of the position by any group came before it. Only that
// group's invocation 0 writes the position (position + delta, after its own memoryBarrierBuffer)
// and then puts the counter back to 0, so a replay of the recording starts from 0 again. No
// group reads the position after it was advanced: a group reads it only before counting
// itself, and the write comes after the last group counted. The fence waits for no data store
// (none is issued yet), so the count costs the groups little and the advance overlaps the
// other groups' copying. The next command sees the new position through the stream's barrier,
// as after advance.comp.
bool count_done()
{
    memoryBarrierBuffer();
    barrier();
    return gl_LocalInvocationIndex == 0u &&
           atomicAdd(ctl.done, 1u) == gl_NumWorkGroups.x * gl_NumWorkGroups.y - 1u;
}

void advance()
{
    memoryBarrierBuffer();
    uint lo = a[pc.word], hi = a[pc.word + 1u];
    uint carry;
    uint nlo = uaddCarry(lo, pc.delta_lo, carry);
    a[pc.word] = nlo;
    a[pc.word + 1u] = hi + pc.delta_hi + carry;
    ctl.done = 0u;
}
#endif

void main()
{
    uint g = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    uint lo = 0u, hi = pc.n; // the last write whose first group is <= g
    bool live = true;        // (with ADVANCE every invocation reaches the count: no return)
    if (pc.groups != 0u) {   // one load, not a search of dependent ones
        live = g < pc.groups;
        if (live)
            lo = (t[pc.n * FKC_FUSE_WORDS + (g >> 2u)] >> ((g & 3u) * 8u)) & 255u;
    } else {
        while (hi - lo > 1u) {
            uint mid = (lo + hi) >> 1u;
            if (t[mid * FKC_FUSE_WORDS + FUSED_GROUP] <= g)
                lo = mid;
            else
                hi = mid;
        }
    }
    uint e = lo * FKC_FUSE_WORDS;
    uint i = (g - t[e + FUSED_GROUP]) * 256u + gl_LocalInvocationID.x;
    uint row_units = t[e + FUSED_ROW_UNITS], rows = t[e + FUSED_ROWS];
    live = live && g >= t[e + FUSED_GROUP] && i < t[e + FUSED_UNITS];
#if !ADVANCE
    if (!live)
        return;
#endif
    uint slots = t[e + FUSED_SLOTS], ks = slots & 15u, kd = (slots >> 4u) & 15u, kp = slots >> 8u;
    uint sh = t[e + FUSED_SHIFT]; // log2(row_units) + 1 when a power of two: no division
    uint r = sh != 0u ? i >> (sh - 1u) : i / row_units;
    uint col = i - r * row_units;
    uint row = r, plane = 0u; // one plane (a token's rows): no division either
    if (r >= rows) {
        plane = r / rows;
        row = r - plane * rows;
    }
    uint drow = row, dplane = plane;
    uint ring = t[e + FUSED_RING];
    if (live && ring != 0u) {
        uint cap = t[e + FUSED_CAP], po = t[e + FUSED_POS];
        uint plo = word_at(kp, po), phi = word_at(kp, po + 4u);
        uint start = (phi == 0u ? plo % cap : mod64(plo, phi, cap)) + t[e + FUSED_SKIP];
        start = start >= cap ? start - cap : start;
        if (ring == 1u)
            drow = row + start >= cap ? row + start - cap : row + start;
        else
            dplane = plane + start >= cap ? plane + start - cap : plane + start;
    }
#if ADVANCE
    bool last = count_done();
#endif
    if (live) {
        uvec4 v = ld(ks, t[e + FUSED_SRC] + plane * t[e + FUSED_S_PLANE] + row * t[e + FUSED_S_ROW] +
                          col);
        st(kd, t[e + FUSED_DST] + dplane * t[e + FUSED_D_PLANE] + drow * t[e + FUSED_D_ROW] + col,
           v);
    }
#if ADVANCE
    if (last)
        advance();
#endif
}
