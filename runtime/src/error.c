/* error.c — the thread's last error message (fkc_last_error) and the helpers every runtime
 * file uses to fail with a specific status and a readable message. */
#include "common.h"

#include <stdarg.h>
#include <stdio.h>

static _Thread_local char last_error[1024];

const char *fkc_last_error(void)
{
    return last_error;
}

fkc_status fkc_fail(fkc_status status, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(last_error, sizeof last_error, "%s: ", fkc_status_name(status));
    if (n < 0 || (size_t)n >= sizeof last_error)
        return status;
    va_start(ap, fmt);
    vsnprintf(last_error + n, sizeof last_error - (size_t)n, fmt, ap);
    va_end(ap);
    return status;
}

fkc_status fkc_set_error(fkc_status status, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(last_error, sizeof last_error, "%s: ", fkc_status_name(status));
    if (n < 0 || (size_t)n >= sizeof last_error || !fmt)
        return status;
    va_start(ap, fmt);
    vsnprintf(last_error + n, sizeof last_error - (size_t)n, fmt, ap);
    va_end(ap);
    return status;
}

const char *fkc_vk_result_name(VkResult r)
{
    switch (r) {
#define CASE(x)                                                                                    \
    case x: return #x;
        CASE(VK_SUCCESS)
        CASE(VK_NOT_READY)
        CASE(VK_TIMEOUT)
        CASE(VK_INCOMPLETE)
        CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
        CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
        CASE(VK_ERROR_INITIALIZATION_FAILED)
        CASE(VK_ERROR_DEVICE_LOST)
        CASE(VK_ERROR_MEMORY_MAP_FAILED)
        CASE(VK_ERROR_LAYER_NOT_PRESENT)
        CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
        CASE(VK_ERROR_FEATURE_NOT_PRESENT)
        CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
        CASE(VK_ERROR_TOO_MANY_OBJECTS)
        CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
        CASE(VK_ERROR_FRAGMENTED_POOL)
        CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
#undef CASE
    default: return "VkResult (other)";
    }
}

fkc_status fkc_vk_fail(VkResult r, const char *what)
{
    fkc_status st = (r == VK_ERROR_OUT_OF_HOST_MEMORY || r == VK_ERROR_OUT_OF_DEVICE_MEMORY)
                        ? FKC_ERR_OUT_OF_MEMORY
                        : FKC_ERR_VULKAN;
    return fkc_fail(st, "%s failed: %s (%d)", what, fkc_vk_result_name(r), (int)r);
}
