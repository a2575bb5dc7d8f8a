// plain_copy.comp — fkc-bench's reference compute copy: one uvec4 (16 bytes) per invocation,
// rows of `units` uvec4 at the given strides, no alignment or edge handling at all (the bench
// only gives it 16-byte aligned work). Not part of the library.
#version 450
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer Src { uvec4 s[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Dst { uvec4 d[]; };
layout(push_constant) uniform Push {
    uint total; // invocations doing work
    uint units; // uvec4 per row
    uint s_row; // source stride between rows, in uvec4
    uint d_row; // destination stride between rows, in uvec4
} p;

void main()
{
    uint i = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * 256u +
             gl_LocalInvocationID.x;
    if (i >= p.total)
        return;
    if (p.units == p.total) { // one contiguous run: d[i] = s[i]
        d[i] = s[i];
        return;
    }
    uint r = i / p.units, c = i - r * p.units;
    d[r * p.d_row + c] = s[r * p.s_row + c];
}
