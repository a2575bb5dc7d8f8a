# tests/vulkan-host/vulkan_host.mk — examples/vulkan-host against an installed fkc (fragment of
# ../../Makefile): `make check-vulkan-host` (part of `make test`) runs tests/vulkan-host/check.sh,
# the commands and calls of docs/runtime.md's "Using fkc inside your own Vulkan device".

.PHONY: check-vulkan-host
check-vulkan-host: $(BUILD)/fkcgen $(BUILD)/fkc-run $(BUILD)/libfkc.a
	@BUILD='$(BUILD)' sh tests/vulkan-host/check.sh "$(CURDIR)"

TEST_TARGETS += check-vulkan-host
