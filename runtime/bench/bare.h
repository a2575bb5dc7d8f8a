/* bare.h — fkc-bench's references, written straight to Vulkan on a device of their own (the
 * same physical device as the runtime's context): vkCmdCopyBuffer and a plain 16-byte-per-
 * invocation compute copy of the same bytes, and a bare submit + wait. Not part of the library. */
#ifndef FKC_BENCH_BARE_H
#define FKC_BENCH_BARE_H

#include <stdint.h>

#include <vulkan/vulkan.h>

typedef struct bare bare;

/* Opens the physical device named `name` (exactly); NULL when none or on any failure. */
bare *bare_open(const char *name);
void bare_close(bare *b);

/* Device-local source and destination buffers of these sizes (replacing earlier ones). */
int bare_buffers(bare *b, uint64_t src_bytes, uint64_t dst_bytes);

/* `iters` copies, each of `rows` rows of `row` bytes (row and strides multiples of 16) at the
 * given byte strides, recorded into one command buffer with a barrier between copies, the
 * pass repeated for `warmup` seconds (at least twice): the best pass after the first, in device
 * seconds per copy (timestamps; wall time without them) and host seconds per copy to record.
 * shader: the plain compute copy, else vkCmdCopyBuffer. */
int bare_measure(bare *b, int shader, uint64_t row, uint64_t rows, uint64_t s_row, uint64_t d_row,
                 int iters, double warmup, double *dev, double *host);

/* Wall seconds per submit + fence wait of a pre-recorded command buffer holding one plain
 * copy of `rows` x `row` bytes at the given strides: the better of two rounds of `calls`
 * calls after one round to warm up. */
int bare_submit_wait(bare *b, uint64_t row, uint64_t rows, uint64_t s_row, uint64_t d_row,
                     int calls, double *wall);

double bench_now(void);


/* The reference's own Vulkan objects (its instance is created for Vulkan 1.2, its device with
 * VK_KHR_push_descriptor), for fkc-bench to lend to fkc as a host would. */
void bare_vulkan(bare *b, VkInstance *instance, VkPhysicalDevice *physical, VkDevice *device,
                 VkQueue *queue, uint32_t *family);

/* "driverName driverInfo" of the device (Vulkan 1.2 driver properties), or "?". */
void bare_driver(bare *b, char *out, unsigned size);
#endif
