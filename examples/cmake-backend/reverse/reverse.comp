// reverse.comp — the Reverse family's kernel (reverse.md): out = in's elements in the opposite
// row-major order, moved as bytes. One invocation owns one 32-bit word of the output window and
// writes it whole: a byte inside the tensor gets byte b of the mirrored input element, a byte
// outside it (before its start, after its end) is read back and kept. So tensors at any byte
// offset and of any length are reversed exactly for element widths 1, 2, 4 and 8, and no two
// invocations write one word. Bits never go through float.
#version 450
layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) buffer Out { uint d[]; };
layout(std430, set = 0, binding = 1) readonly buffer In { uint s[]; };

// Must match struct reverse_push in reverse.c.
layout(push_constant) uniform Push {
    uint start;    // first byte of the output chunk, relative to the output window
    uint end;      // one past its last byte, relative to the output window
    uint word0;    // first word of the output window this dispatch writes (start / 4)
    uint words;    // words this dispatch writes
    uint width;    // element bytes: 1, 2, 4 or 8
    uint src_end;  // one past the last input byte the chunk reads, relative to the input window
    uint pad0;
    uint pad1;
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
            uint t = k - start;                             // byte t of the output chunk
            uint e = t / width;                             // its element, counted from the start
            uint q = src_end - (e + 1u) * width + t % width; // the same byte of the mirror
            byte = (s[q >> 2] >> (8u * (q & 3u))) & 0xffu;
        } else {
            byte = (old >> (8u * j)) & 0xffu;
        }
        v |= byte << (8u * j);
    }
    d[w] = v;
}
