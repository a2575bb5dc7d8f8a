# runtime/install.mk — `make install` and `make uninstall` (fragment of ../Makefile;
# docs/consumers.md). Nothing is installed by `make` or `make test` outside build/.
#   make install [PREFIX=/usr/local] [BINDIR=bin] [LIBDIR=lib] [INCLUDEDIR=include]
#                [MANDIR=share/man] [DATADIR=share] [DESTDIR=STAGE] [RELOCATABLE=1]
# Each directory is absolute, or relative to PREFIX (LIBDIR=lib/x86_64-linux-gnu for Debian's
# multiarch layout). It writes: BINDIR/fkcgen and fkc-run; LIBDIR/libfkc.so.N, the libfkc.so
# link and libfkc.a; LIBDIR/pkgconfig/fkc.pc and fkc-static.pc; LIBDIR/cmake/fkc/ (the CMake
# package: fkcConfig.cmake, fkcConfigVersion.cmake, fkcGenerate.cmake, fkcGenerateRun.cmake);
# INCLUDEDIR/fkc/*.h (every public header); MANDIR/man1/*.1 and MANDIR/man3/*.3 (docs/man/);
# DATADIR/cargo/registry/CRATE-VERSION/ (the Rust crates fkc-sys, fkc and fkc-build, a Cargo
# directory source: docs/consumers.md, "## 11"); and DATADIR/fkc/install-manifest, the list `make uninstall` removes (INSTALL_MANIFEST= writes
# none; the Debian package does so). scripts/install.sh does the work; the files whose contents
# name the directories (.pc, CMake) are written into $(BUILD)/install/KEY/ first.
#   make installable   builds everything `make install` copies, and nothing else (debian/rules)

PREFIX     ?= /usr/local
BINDIR     ?= bin
LIBDIR     ?= lib
INCLUDEDIR ?= include
MANDIR     ?= share/man
DATADIR    ?= share
DESTDIR    ?=
RELOCATABLE ?=
INSTALL_MANIFEST ?= $(DATADIR)/fkc/install-manifest

FKC_RUNTIME_ABI := $(shell sed -n 's/^\#define FKC_RUNTIME_ABI \([0-9]*\)$$/\1/p' \
                     runtime/include/fkc/fkc_kernels.h)
FKC_HEADERS   = $(sort $(wildcard runtime/include/fkc/*.h))
FKC_MANS      = $(sort $(wildcard docs/man/*.1 docs/man/*.3))
FKC_CMAKE     = cmake/fkcGenerate.cmake cmake/fkcGenerateRun.cmake
# The files written for one install, in a directory of its own per set of install variables,
# so that installs of different prefixes or DESTDIRs running at once (make test -j) never
# write each other's .pc, CMake or list files.
INST_KEY     := $(shell printf '%s\n' '$(PREFIX)|$(BINDIR)|$(LIBDIR)|$(INCLUDEDIR)|$(MANDIR)|$(DATADIR)|$(DESTDIR)|$(RELOCATABLE)|$(INSTALL_MANIFEST)' | cksum | cut -d' ' -f1)
INST_DIR      = $(BUILD)/install/$(INST_KEY)
# The Rust crates, installed as a Cargo directory source: DATADIR/cargo/registry/CRATE-VERSION/
# holds each crate's sources (paths relative to rust/CRATE), a Cargo.toml without path
# dependencies and a .cargo-checksum.json, both written by rust/cargo_source.sh.
RUST_CRATES   = fkc-sys fkc fkc-build
rust_files    = $(patsubst rust/$(1)/%,%,$(sort $(wildcard rust/$(1)/build.rs rust/$(1)/src/*.rs \
                  rust/$(1)/contracts/*.md)))
INSTALLABLE   = $(BUILD)/fkcgen $(FKC_RUN) $(LIBFKC) $(LIBFKC_SO)

INSTALL_ENV = PREFIX='$(PREFIX)' BINDIR='$(BINDIR)' LIBDIR='$(LIBDIR)' \
              INCLUDEDIR='$(INCLUDEDIR)' MANDIR='$(MANDIR)' DATADIR='$(DATADIR)' \
              DESTDIR='$(DESTDIR)' RELOCATABLE='$(RELOCATABLE)' MANIFEST='$(INSTALL_MANIFEST)' \
              FKC_VERSION='$(FKC_VERSION)' FKC_SOVERSION='$(FKC_SOVERSION)' \
              FKC_RUNTIME_ABI='$(FKC_RUNTIME_ABI)' \
              FKC_SIZEOF_VOID_P="$$(echo __SIZEOF_POINTER__ | $(CC) -E -P - | tail -n 1)"

# One line per file: MODE SOURCE DEST (scripts/install.sh); the generated files come first. To
# install more, add lines here, a file written for the install going to $(INST_DIR) first:
# make uninstall then removes them too.
define install_list
$(foreach f,fkc.pc fkc-static.pc,644 $(INST_DIR)/$(f) pcdir/$(f)
)$(foreach f,fkcConfig.cmake fkcConfigVersion.cmake,644 $(INST_DIR)/$(f) cmakedir/$(f)
)$(foreach f,$(FKC_CMAKE),644 $(f) cmakedir/$(notdir $(f))
)755 $(BUILD)/fkcgen bindir/fkcgen
755 $(FKC_RUN) bindir/fkc-run
644 $(LIBFKC_SO) libdir/$(notdir $(LIBFKC_SO))
link $(notdir $(LIBFKC_SO)) libdir/libfkc.so
644 $(LIBFKC) libdir/libfkc.a
$(foreach h,$(FKC_HEADERS),644 $(h) includedir/fkc/$(notdir $(h))
)$(foreach m,$(FKC_MANS),644 $(m) mandir/man$(subst .,,$(suffix $(m)))/$(notdir $(m))
)$(foreach c,$(RUST_CRATES),$(foreach f,Cargo.toml .cargo-checksum.json,644 $(INST_DIR)/cargo/$(c)-$(FKC_VERSION)/$(f) datadir/cargo/registry/$(c)-$(FKC_VERSION)/$(f)
)$(foreach f,$(call rust_files,$(c)),644 rust/$(c)/$(f) datadir/cargo/registry/$(c)-$(FKC_VERSION)/$(f)
))
endef

.PHONY: install uninstall installable
installable: $(INSTALLABLE)

install: $(INSTALLABLE) | $(INST_DIR)
	@$(INSTALL_ENV) sh scripts/install.sh configure runtime/fkc.pc.in $(INST_DIR)/fkc.pc
	@$(INSTALL_ENV) sh scripts/install.sh configure runtime/fkc-static.pc.in $(INST_DIR)/fkc-static.pc
	@$(INSTALL_ENV) sh scripts/install.sh configure cmake/fkcConfig.cmake.in $(INST_DIR)/fkcConfig.cmake
	@$(INSTALL_ENV) sh scripts/install.sh configure cmake/fkcConfigVersion.cmake.in \
	    $(INST_DIR)/fkcConfigVersion.cmake
	@$(foreach c,$(RUST_CRATES),sh rust/cargo_source.sh $(INST_DIR)/cargo $(c) $(FKC_VERSION) \
	    $(call rust_files,$(c)) &&) true
	$(file >$(INST_DIR)/list,$(install_list))
	@echo "install: fkc $(FKC_VERSION) into $(DESTDIR)$(PREFIX):"
	@$(INSTALL_ENV) sh scripts/install.sh install $(INST_DIR)/list
	@rm -rf $(INST_DIR)

$(INST_DIR):
	@mkdir -p $@

uninstall:
	@$(INSTALL_ENV) sh scripts/install.sh uninstall

# ---- make deb: the Debian packages (debian/; scripts/deb.sh builds a copy of the tree in
# $(BUILD)/deb with dpkg-buildpackage -b -us -uc, runs lintian and tries the packages) --------
.PHONY: deb
deb:
	@sh scripts/deps.sh deb
	@sh scripts/deb.sh "$(CURDIR)" $(BUILD)/deb
