// copy_rmw.comp — the slab copy for devices without 8/16-bit storage: each invocation owns one
// whole 32-bit destination word and rebuilds it byte by byte (bytes inside the box come from the
// source, the others are written back unchanged), so sub-word writes never race inside a word.
// Offsets and strides are in bytes, relative to the bound (4-byte aligned) storage windows.
#version 450

layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 0) readonly buffer Src { uint s[]; };
layout(std430, set = 0, binding = 1) buffer Dst { uint d[]; };

// Must match struct push in runtime/src/slab.c (same layout as copy.comp, byte units).
layout(push_constant) uniform Push {
    uint base;      // first word index of this dispatch, counted from word0
    uint count;     // words this dispatch covers
    uint row_units; // bytes per row
    uint rows;      // rows per plane
    uint src_off;   // first source byte of the box
    uint dst_off;   // first destination byte of the box
    uint s_row;     // source stride between rows (bytes)
    uint s_plane;   // source stride between planes (bytes)
    uint d_row;     // destination stride between rows (bytes, >= row_units)
    uint d_plane;   // destination stride between planes (bytes, >= rows * d_row)
    uint word0;     // first destination word touched (dst_off / 4)
    uint planes;    // planes in the box
    uint grid;      // (copy.comp only)
    uint row_base;  // (copy.comp only)
    uint plane_base;// (copy.comp only)
    uint pad;
} p;

void main()
{
    uint g = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * 256u +
             gl_LocalInvocationID.x;
    if (g >= p.count)
        return;
    uint w = p.word0 + p.base + g;
    uint word = d[w];
    for (uint k = 0u; k < 4u; k++) {
        uint b = w * 4u + k;
        if (b < p.dst_off)
            continue;
        uint rel = b - p.dst_off;
        uint plane = rel / p.d_plane;
        uint rem = rel - plane * p.d_plane;
        uint row = rem / p.d_row;
        uint col = rem - row * p.d_row;
        if (plane >= p.planes || row >= p.rows || col >= p.row_units)
            continue;
        uint sb = p.src_off + plane * p.s_plane + row * p.s_row + col;
        uint v = (s[sb >> 2u] >> ((sb & 3u) * 8u)) & 0xffu;
        word = (word & ~(0xffu << (k * 8u))) | (v << (k * 8u));
    }
    d[w] = word;
}
