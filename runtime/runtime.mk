# runtime/runtime.mk — builds build/libfkc.a and build/fkc-run (fragment of ../Makefile).
.PHONY: demo
demo:
	@echo "demo: (runtime not built yet)"
