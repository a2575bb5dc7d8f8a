/* context.c — what every object of a context calls on it: its references (the last release
 * tears the context down through ctx->teardown, which device.c, the layer that makes contexts,
 * sets), the debug-lifetime wait and the queue submission under the queue's lock. Below the
 * streams, buffers and kernels that hold the context, so that none of them calls up into
 * device.c. */
#include "context.h"

void fkc_context_retain(fkc_context *ctx)
{
    atomic_fetch_add(&ctx->refs, 1);
}

void fkc_context_release(fkc_context *ctx)
{
    if (atomic_fetch_sub(&ctx->refs, 1) == 1)
        ctx->teardown(ctx);
}

void fkc_debug_lifetime_wait(fkc_context *ctx)
{
    if (!(ctx->flags & FKC_CONTEXT_DEBUG_LIFETIME))
        return;
    /* vkDeviceWaitIdle needs the device's queues externally synchronised: fkc's lock, or the
     * host's queue_lock of the queue it lent (its other queues are the host's rule) */
    if (ctx->queue_lock)
        ctx->queue_lock(ctx->queue_lock_user, ctx->queue, true);
    else
        pthread_mutex_lock(&ctx->submit_lock);
    ctx->vk.vkDeviceWaitIdle(ctx->device); /* (a lost device: nothing is pending any more) */
    if (ctx->queue_lock)
        ctx->queue_lock(ctx->queue_lock_user, ctx->queue, false);
    else
        pthread_mutex_unlock(&ctx->submit_lock);
}

fkc_status fkc_queue_submit(fkc_context *ctx, const VkSubmitInfo *submit, VkFence fence)
{
    if (ctx->queue_lock)
        ctx->queue_lock(ctx->queue_lock_user, ctx->queue, true);
    else
        pthread_mutex_lock(&ctx->submit_lock);
    VkResult r = ctx->vk.vkQueueSubmit(ctx->queue, 1, submit, fence);
    if (ctx->queue_lock)
        ctx->queue_lock(ctx->queue_lock_user, ctx->queue, false);
    else
        pthread_mutex_unlock(&ctx->submit_lock);
    return r == VK_SUCCESS ? FKC_OK : fkc_vk_fail(r, "vkQueueSubmit");
}
