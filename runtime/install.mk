# runtime/install.mk — `make install PREFIX=... DESTDIR=...` (fragment of ../Makefile): fkcgen,
# fkc-run, libfkc.a, the runtime's public headers (include/fkc/), lib/pkgconfig/fkc.pc and the
# man pages of docs/man/ when there are any. A C project then finds fkc through pkg-config
# (docs/consumers.md); nothing is installed by `make` or `make test` outside build/.

PREFIX  ?= /usr/local
DESTDIR ?=
INSTALL ?= install
FKC_VERSION := $(shell sed -n 's/^\#define FKCGEN_VERSION "\(.*\)"/\1/p' fkcgen/fkcgen.h)
FKC_ABI     := $(shell sed -n 's/^\#define FKC_RUNTIME_ABI \([0-9]*\)$$/\1/p' \
                 runtime/include/fkc/fkc_kernels.h)
FKC_HEADERS := $(sort $(wildcard runtime/include/fkc/*.h))
FKC_MANS    := $(sort $(wildcard docs/man/*.1))
INST        = $(DESTDIR)$(PREFIX)

.PHONY: install
install: $(BUILD)/fkcgen $(BUILD)/fkc-run $(BUILD)/libfkc.a
	@case '$(PREFIX)' in /*) ;; *) echo "install: PREFIX must be an absolute path, not '$(PREFIX)'"; exit 2;; esac
	$(INSTALL) -d '$(INST)/bin' '$(INST)/lib/pkgconfig' '$(INST)/include/fkc'
	$(INSTALL) -m 755 $(BUILD)/fkcgen $(BUILD)/fkc-run '$(INST)/bin/'
	$(INSTALL) -m 644 $(BUILD)/libfkc.a '$(INST)/lib/'
	$(INSTALL) -m 644 $(FKC_HEADERS) '$(INST)/include/fkc/'
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(FKC_VERSION)|' -e 's|@ABI@|$(FKC_ABI)|' \
	    runtime/fkc.pc.in > '$(INST)/lib/pkgconfig/fkc.pc'
	$(if $(FKC_MANS),$(INSTALL) -d '$(INST)/share/man/man1' && \
	    $(INSTALL) -m 644 $(FKC_MANS) '$(INST)/share/man/man1/')
