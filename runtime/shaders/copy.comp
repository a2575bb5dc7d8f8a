// copy.comp — the slab copy: a 3-D box of rows (planes x rows x row_units) moved as unsigned
// units of UNIT bytes (1, 2, 4 or 16). Compiled once per unit width; bits never go through float.
// Offsets and strides are in units, relative to the bound storage windows.
#version 450
#if UNIT == 1
#extension GL_EXT_shader_8bit_storage : require
#define ELEM uint8_t
#elif UNIT == 2
#extension GL_EXT_shader_16bit_storage : require
#define ELEM uint16_t
#elif UNIT == 4
#define ELEM uint
#elif UNIT == 16
#define ELEM uvec4
#else
#error UNIT must be 1, 2, 4 or 16
#endif

layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 0) readonly buffer Src { ELEM s[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Dst { ELEM d[]; };

// Must match struct push in runtime/src/slab.c.
layout(push_constant) uniform Push {
    uint base;       // flat mode: first unit index of this dispatch; grid mode: first column
    uint count;      // flat mode: units this dispatch covers
    uint row_units;  // units per row (contiguous in both)
    uint rows;       // rows per plane
    uint src_off;    // first source unit of the box
    uint dst_off;    // first destination unit of the box
    uint s_row;      // source stride between rows
    uint s_plane;    // source stride between planes
    uint d_row;      // destination stride between rows
    uint d_plane;    // destination stride between planes
    uint word0;      // (copy_rmw only)
    uint planes;     // planes in the box
    uint grid;       // 1: grid mode (x = columns, y = rows, z = planes); 0: flat mode
    uint row_base;   // grid mode: first row of this dispatch
    uint plane_base; // grid mode: first plane of this dispatch
    uint pad;
} p;

void main()
{
    uint col, row, plane;
    if (p.grid != 0u) { // long rows: no division at all
        col = p.base + gl_WorkGroupID.x * 256u + gl_LocalInvocationID.x;
        row = p.row_base + gl_WorkGroupID.y;
        plane = p.plane_base + gl_WorkGroupID.z;
        if (col >= p.row_units || row >= p.rows || plane >= p.planes)
            return;
    } else { // short rows: one flat index over the whole box
        uint g = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * 256u +
                 gl_LocalInvocationID.x;
        if (g >= p.count)
            return;
        uint i = p.base + g;
        col = i % p.row_units;
        uint r = i / p.row_units;
        row = r % p.rows;
        plane = r / p.rows;
    }
    d[p.dst_off + plane * p.d_plane + row * p.d_row + col] =
        s[p.src_off + plane * p.s_plane + row * p.s_row + col];
}
