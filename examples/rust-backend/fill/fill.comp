// fill.comp — the Fill family's kernel (examples/rust-backend/fill/fill.md): every element of a
// tensor set to one bit pattern. One invocation owns one 32-bit word of the output window and
// writes it whole: bytes inside the tensor get the pattern's byte for their position in the
// element, bytes outside it (before its start, after its end) are read back and kept. So a
// tensor at any byte offset and of any length is filled exactly, for element widths 1, 2, 4
// and 8, and no two invocations write one word. Bits never go through float.
#version 450
layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) buffer Out { uint d[]; };

// Must match struct Push in src/fill.rs.
layout(push_constant) uniform Push {
    uint start;  // first byte of the tensor (this chunk of it), relative to the window
    uint end;    // one past its last byte, relative to the window
    uint word0;  // first word of the window this dispatch writes (start / 4)
    uint words;  // words this dispatch writes
    uint width;  // element bytes: 1, 2, 4 or 8
    uint lo;     // pattern bytes 0..3 (little-endian)
    uint hi;     // pattern bytes 4..7
    uint pad;
};

void main()
{
    uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64u;
    if (i >= words)
        return;
    uint w = word0 + i;
    uint first = w * 4u;
    bool whole = first >= start && first + 4u <= end;
    uint old = whole ? 0u : d[w];
    uint v = 0u;
    for (uint j = 0u; j < 4u; j++) {
        uint k = first + j;
        uint byte;
        if (k >= start && k < end) {
            uint b = (k - start) & (width - 1u); // byte of the element (width: a power of 2)
            byte = (b < 4u ? lo >> (8u * b) : hi >> (8u * (b - 4u))) & 0xffu;
        } else {
            byte = (old >> (8u * j)) & 0xffu;
        }
        v |= byte << (8u * j);
    }
    d[w] = v;
}
