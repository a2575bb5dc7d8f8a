/* testing.c — the test-only hooks of fkc_test.h, compiled into the test build of the library
 * only (-DFKC_TEST_HOOKS: build/libfkc-test.a); the shipped library holds none of it. */
#include "context.h"
#include "memory.h"
#include "stream.h"

#ifdef FKC_TEST_HOOKS
#include "fkc_test.h"

fkc_status fkc_test_context_create(const fkc_context_options *options, const fkc_test_hooks *hooks,
                                   PFN_vkGetInstanceProcAddr gipa, fkc_context **out)
{
    fkc_hooks h = {0};
    if (hooks)
        h = (fkc_hooks){hooks->storage_buffer_range, hooks->work_group_count,
                        hooks->block_bytes,          hooks->no_push_descriptors,
                        hooks->no_host_tables,       hooks->set_rows_scan_rows};
    return fkc_context_open(options, NULL, gipa, NULL, &h, out);
}

uint64_t fkc_test_storage_range(const fkc_context *ctx)
{
    return ctx ? ctx->storage_range : 0;
}

uint32_t fkc_test_work_group_count(const fkc_context *ctx)
{
    return ctx ? ctx->group_limit : 0;
}

uint32_t fkc_test_command_count(const fkc_stream *s)
{
    return fkc_stream_command_count(s);
}

uint32_t fkc_test_barrier_count(const fkc_stream *s)
{
    return fkc_stream_barrier_count(s);
}

void fkc_test_set_fusion(fkc_stream *s, bool on)
{
    if (s)
        s->no_fusion = !on;
}

uint32_t fkc_test_block_count(fkc_context *ctx)
{
    return ctx ? fkc_memory_block_count(ctx) : 0;
}

uint64_t fkc_test_block_bytes(const fkc_context *ctx)
{
    return ctx ? ctx->memory.block_bytes : 0;
}
#else
typedef int fkc_no_test_hooks; /* an empty translation unit is not ISO C */
#endif
