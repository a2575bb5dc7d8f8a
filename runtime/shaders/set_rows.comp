// set_rows.comp — row-indexed writes (fkc_set_rows, runtime/src/set_rows.c): for each source row
// i with index[i] >= 0, cache slot index[i] gets convert(source row i). Each work group belongs
// to one source row (a chunk of its units), so the index, the skip and the duplicate check are
// the same for all its invocations; each invocation owns one unit of the cache row: a 32-bit
// word (WORD, built with -DVEC=0) or a 16-byte unit (-DVEC=1, rows and offsets 16-aligned).
// No two invocations write one unit: a slot named by several rows gets the last of them alone
// (a row with a later duplicate writes nothing), so a slot never holds a mix of two rows.
// An index at or past the cache's slot count writes nothing and adds 1 to the status word.
// Conversions are integer code (no float instruction), round to nearest even, bit-exact
// everywhere: runtime/src/set_rows.c's reference is the same arithmetic.
// Bindings: 0 the source window, 1 the index window, 2 the cache window, 3 the status window.
// Must match struct sr_push in runtime/src/set_rows.c.
#version 450

layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 0) readonly buffer S1 { uint s1[]; };
#if VEC
layout(std430, set = 0, binding = 0) readonly buffer S2 { uvec2 s2[]; };
layout(std430, set = 0, binding = 0) readonly buffer S4 { uvec4 s4[]; };
layout(std430, set = 0, binding = 2) writeonly buffer D4 { uvec4 d4[]; };
#else
layout(std430, set = 0, binding = 2) writeonly buffer D1 { uint d1[]; };
#endif
layout(std430, set = 0, binding = 1) readonly buffer Ix { uint ix[]; };
layout(std430, set = 0, binding = 3) buffer Status { uint status[]; };

layout(push_constant) uniform Push {
    uint n;         // source rows (indices)
    uint row_base;  // first row of this dispatch
    uint chunks;    // work groups per row
    uint row_units; // units of one cache row
    uint d_off;     // the cache's first unit in its window
    uint split;     // slot = outer * split + inner (1: the slot is axis 0 alone)
    uint d_outer;   // units between outer slots
    uint d_inner;   // units between inner slots
    uint run_units; // units of one run (a contiguous piece of a row in the cache)
    uint d_run;     // units between runs
    uint s_off;     // the source's first byte in its window
    uint s_row;     // bytes of one source row
    uint i_off;     // the index tensor's first word in its window
    uint i64;       // 1: I64 indices, 0: I32
    uint slots;     // slots of the cache (< 2^31)
    uint st_word;   // the status word in its window, or 0xffffffff: none
    uint conv;      // 0 copy, 1 F32->F16, 2 F32->BF16, 3 F16->F32, 4 BF16->F32
    uint s_unit;    // source bytes per unit
    uint dups;      // 1: look for later rows naming the same slot
    uint groups;    // work groups of this dispatch
} pc;

shared uint later;

uint word_at(uint b) // 32 bits at byte b of the source window
{
    uint w = b >> 2u, sh = (b & 3u) * 8u;
    return sh == 0u ? s1[w] : (s1[w] >> sh) | (s1[w + 1u] << (32u - sh));
}

uint half_at(uint b) // 16 bits at byte b (2-aligned) of the source window
{
    return (s1[b >> 2u] >> ((b & 2u) * 8u)) & 0xffffu;
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

uint narrow(uint x) { return pc.conv == 1u ? f2h(x) : f2b(x); }
uint widen(uint h) { return pc.conv == 3u ? h2f(h) : h << 16u; }

void main()
{
    uint g = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    uint row = pc.row_base + g / pc.chunks, chunk = g % pc.chunks;
    uint lx = gl_LocalInvocationID.x;
    if (g >= pc.groups)
        return;
    uint lo = ix[pc.i_off + (pc.i64 != 0u ? 2u * row : row)];
    uint hi = pc.i64 != 0u ? ix[pc.i_off + 2u * row + 1u] : ((lo >> 31u) != 0u ? ~0u : 0u);
    if ((hi >> 31u) != 0u)
        return; // negative: skipped
    if (hi != 0u || lo >= pc.slots) {
        if (chunk == 0u && lx == 0u && pc.st_word != 0xffffffffu)
            atomicAdd(status[pc.st_word], 1u);
        return; // past the cache: counted, nothing written
    }
    if (pc.dups != 0u) { // the last row naming a slot writes it: skip when a later one does
        if (lx == 0u)
            later = 0u;
        barrier();
        for (uint base = row + 1u; base < pc.n; base += 256u) {
            uint j = base + lx;
            if (j < pc.n) {
                uint jl = ix[pc.i_off + (pc.i64 != 0u ? 2u * j : j)];
                uint jh = pc.i64 != 0u ? ix[pc.i_off + 2u * j + 1u] : 0u;
                if (jl == lo && jh == 0u)
                    later = 1u;
            }
            barrier();
            uint seen = later;
            barrier(); // every invocation has read it before any writes again
            if (seen != 0u)
                return;
        }
    }
    uint u = chunk * 256u + lx;
    if (u >= pc.row_units)
        return;
    uint r = u / pc.run_units, e = u - r * pc.run_units;
    uint outer = lo / pc.split, inner = lo - outer * pc.split;
    uint d = pc.d_off + outer * pc.d_outer + inner * pc.d_inner + r * pc.d_run + e;
    uint sb = pc.s_off + row * pc.s_row + u * pc.s_unit;
#if VEC
    if (pc.conv == 0u) {
        d4[d] = s4[sb >> 4u];
    } else if (pc.conv <= 2u) {
        uvec4 a = s4[sb >> 4u], b = s4[(sb >> 4u) + 1u];
        d4[d] = uvec4(narrow(a.x) | (narrow(a.y) << 16u), narrow(a.z) | (narrow(a.w) << 16u),
                      narrow(b.x) | (narrow(b.y) << 16u), narrow(b.z) | (narrow(b.w) << 16u));
    } else {
        uvec2 a = s2[sb >> 3u];
        d4[d] = uvec4(widen(a.x & 0xffffu), widen(a.x >> 16u), widen(a.y & 0xffffu),
                      widen(a.y >> 16u));
    }
#else
    if (pc.conv == 0u)
        d1[d] = word_at(sb);
    else if (pc.conv <= 2u)
        d1[d] = narrow(word_at(sb)) | (narrow(word_at(sb + 4u)) << 16u);
    else
        d1[d] = widen(half_at(sb));
#endif
}
