/* sanitize_keep_libs.c — preloaded by `make sanitize` (tests/sanitize.mk): a dlclose that keeps
 * the library loaded. The Vulkan loader unloads the driver (lavapipe) and the validation layer
 * at vkDestroyInstance; LeakSanitizer reports at exit, when their frames would be
 * "<unknown module>", so no suppression could name the library a leak comes from. Kept loaded,
 * each frame is named and tests/lsan.supp can list exactly those libraries' own leaks. */
int dlclose(void *handle);

int dlclose(void *handle)
{
    (void)handle;
    return 0;
}
