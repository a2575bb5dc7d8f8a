// advance.comp — adds a delta to a little-endian u64 on the device (fkc_stream_advance): the
// ring position of a replayed decode step moves on without a host upload. One invocation;
// the u64 is 8-byte aligned in the window (binding 0).
#version 450

layout(local_size_x = 1) in;

layout(std430, set = 0, binding = 0) buffer Pos { uint w[]; };

layout(push_constant) uniform Push {
    uint word;     // index of the u64's low word in the window
    uint delta_lo; // the delta, low and high 32 bits
    uint delta_hi;
    uint pad;
} p;

void main()
{
    uint lo = w[p.word], hi = w[p.word + 1u];
    uint carry;
    uint nlo = uaddCarry(lo, p.delta_lo, carry);
    w[p.word] = nlo;
    w[p.word + 1u] = hi + p.delta_hi + carry;
}
