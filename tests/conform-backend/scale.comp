// scale.comp — the Scale family's kernel (tests/conform-backend/scale.md): y = x * factor, one
// invocation per 32-bit element. `fault` (scale.c's CONFORM_SCALE_FAULT) makes it deliberately
// wrong for tests/cli/conform_backend.py: 1 adds 3 ulp to every finite non-zero F32 result,
// 2 adds 1 to element 0 (scale.c passes it on every second call), 3 also writes the element
// one past the output's end.
#version 450
layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) readonly buffer In { uint x[]; };
layout(std430, set = 0, binding = 1) buffer Out { uint y[]; };

// Must match struct scale_push in scale.c.
layout(push_constant) uniform Push {
    uint in0;     // first word of x in its window
    uint out0;    // first word of y in its window
    uint n;       // elements
    uint is_int;  // 0: F32, 1: I32
    float factor;
    int ifactor;  // int(factor), for I32
    uint fault;
    uint pad;
};

void main()
{
    uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64u;
    if (i >= n)
        return;
    uint v = x[in0 + i];
    uint r;
    if (is_int == 0u) {
        float f = uintBitsToFloat(v) * factor;
        r = floatBitsToUint(f);
        if (fault == 1u && !isnan(f) && !isinf(f) && f != 0.0)
            r += 3u;
    } else {
        r = uint(int(v) * ifactor);
    }
    if (fault == 2u && i == 0u)
        r += 1u;
    y[out0 + i] = r;
    if (fault == 3u && i == n - 1u)
        y[out0 + n] = r;
}
