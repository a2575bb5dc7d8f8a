// axpy.comp — the user-kernel tests' shader: d[i] = s[i] * mul + add over n 32-bit words
// (wrapping unsigned arithmetic, so every result is exact). Bindings 0 (s) and 1 (d) in set 0.
#version 450
layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) readonly buffer Src { uint s[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Dst { uint d[]; };

layout(push_constant) uniform Push {
    uint n;   // words
    uint mul;
    uint add;
    uint pad;
};

void main()
{
    uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64u;
    if (i < n)
        d[i] = s[i] * mul + add;
}
