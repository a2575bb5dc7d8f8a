# tests/vulkan-host/vulkan_host.mk — examples/vulkan-host against an installed fkc (fragment of
# ../../Makefile): `make check-vulkan-host` (part of `make test`) runs tests/vulkan-host/check.sh,
# the commands and calls of docs/runtime.md's "Using fkc inside your own Vulkan device".

.PHONY: check-vulkan-host
check-vulkan-host: $(BUILD)/fkcgen $(BUILD)/fkc-run $(BUILD)/libfkc.a
	@BUILD='$(BUILD)' sh tests/vulkan-host/check.sh "$(CURDIR)"

TEST_TARGETS += check-vulkan-host

# The same with the validation layer enabled from the environment (RT_ENV_LAYERS,
# runtime/runtime.mk): the loader's own warning that it added the layer is no finding.
.PHONY: check-vulkan-host-env
check-vulkan-host-env: $(BUILD)/fkcgen $(BUILD)/fkc-run $(BUILD)/libfkc.a
	@env $(RT_ENV_LAYERS) BUILD='$(BUILD)' sh tests/vulkan-host/check.sh "$(CURDIR)"

TEST_TARGETS += check-vulkan-host-env
