# runtime/runtime.mk — builds build/libfkc.a (fragment of ../Makefile). The CLI and demo live
# in runtime/cli.mk.
include runtime/cli.mk
