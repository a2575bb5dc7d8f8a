# runtime/cli.mk — builds build/fkc-run and runs the demo (fragment of ../Makefile).
.PHONY: demo
demo:
	@echo "demo: (runtime not built yet)"
