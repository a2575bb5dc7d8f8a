#!/bin/sh
# install.sh — `make install` and `make uninstall` (runtime/install.mk runs it; docs/consumers.md).
#   install.sh dirs                      print the resolved install directories (for make)
#   install.sh configure TEMPLATE OUT    write OUT from TEMPLATE, its @VARIABLES@ replaced
#   install.sh install LIST              copy what LIST names under $DESTDIR, write the manifest
#   install.sh uninstall                 remove what the manifest lists, then the manifest
# The directories come from the environment: PREFIX (absolute), BINDIR, LIBDIR, INCLUDEDIR,
# MANDIR and DATADIR (each absolute, or relative to PREFIX), DESTDIR (a staging root put in
# front of every path written, never into a file's contents), RELOCATABLE (non-empty: the .pc
# files find the prefix from their own place) and MANIFEST (the manifest's path, absolute or
# relative to PREFIX; empty: none is written, as for the Debian package).
# LIST has one line per file: MODE SOURCE DEST, MODE an octal mode or `link` (SOURCE is then the
# link's target), DEST a path whose first component names one of the directories: bindir,
# libdir, includedir, mandir, datadir, pcdir (LIBDIR/pkgconfig) or cmakedir (LIBDIR/cmake/fkc).
# The manifest records every file and link install wrote ("f PATH") and every directory it
# created ("d PATH"); uninstall removes those files, then those directories that are empty
# (a directory that existed before install is never removed), then the manifest. Installing
# again over an install first removes what the old manifest lists, and keeps its directories.
set -eu

case ${1:-} in uninstall) cmd=uninstall ;; *) cmd=install ;; esac
fail() { echo "$cmd: $*" >&2; exit 2; }

# ---- the directories --------------------------------------------------------------------
: "${PREFIX:?}" "${BINDIR:=bin}" "${LIBDIR:=lib}" "${INCLUDEDIR:=include}" \
  "${MANDIR:=share/man}" "${DATADIR:=share}" "${DESTDIR:=}" "${RELOCATABLE:=}"
case $PREFIX in /*) ;; *) fail "PREFIX must be an absolute path, not '$PREFIX'" ;; esac
for v in "$PREFIX" "$BINDIR" "$LIBDIR" "$INCLUDEDIR" "$MANDIR" "$DATADIR" "$DESTDIR" \
         "${MANIFEST:-}"; do
	case $v in
	*[[:space:]]* | *[\'\"\\\$\`\|\&\;\#]*) fail "'$v': a directory of the install may not hold blanks, quotes or any of \\ \$ \` | & ; #" ;;
	esac
done

# A path without "//", "/./", a trailing "/" or ".." (refused: the .pc and CMake files compute
# paths relative to each other by their components).
clean() {
	p=$(printf '%s\n' "$1" | sed -e 's|//*|/|g' -e 's|/\./|/|g' -e 's|/\.$||' -e 's|^\./||' -e 's|\(.\)/$|\1|')
	case /$p/ in */../*) fail "'$1': no '..' in the directories of an install" ;; esac
	printf '%s\n' "$p"
}
PREFIX=$(clean "$PREFIX")
# A directory variable resolved: absolute as given, else below PREFIX.
resolve() {
	case $1 in
	/*) clean "$1" ;;
	*) if [ "$PREFIX" = / ]; then clean "/$1"; else clean "$PREFIX/$1"; fi ;;
	esac
}
bindir=$(resolve "$BINDIR")
libdir=$(resolve "$LIBDIR")
includedir=$(resolve "$INCLUDEDIR")
mandir=$(resolve "$MANDIR")
datadir=$(resolve "$DATADIR")
manifest=${MANIFEST:+$(resolve "$MANIFEST")}
pcdir=$libdir/pkgconfig
cmakedir=$libdir/cmake/fkc

# DIR below PREFIX: its path relative to PREFIX ("." for PREFIX itself); else nothing.
below() {
	if [ "$1" = "$PREFIX" ]; then echo .
	elif [ "$PREFIX" = / ]; then echo "${1#/}"
	else case $1 in "$PREFIX"/*) echo "${1#"$PREFIX"/}" ;; esac
	fi
}
# The way up from DIR (below PREFIX) to PREFIX: "../.." for lib/pkgconfig.
up() {
	r=$(below "$1")
	[ "$r" = . ] && { echo .; return; }
	printf '%s\n' "$r" | awk -F/ '{ s = ".."; for (i = 2; i <= NF; i++) s = s "/.."; print s }'
}
# DIR as the .pc writes it: ${prefix}/REL below PREFIX, else absolute.
pc_path() {
	r=$(below "$1")
	if [ -z "$r" ]; then echo "$1"
	elif [ "$r" = . ]; then echo '${prefix}'
	else echo "\${prefix}/$r"; fi
}
# DIR as the CMake files write it: ${_fkc_prefix}/REL below PREFIX, else absolute.
cmake_path() {
	r=$(below "$1")
	if [ -z "$r" ]; then echo "$1"
	elif [ "$r" = . ]; then echo '${_fkc_prefix}'
	else echo "\${_fkc_prefix}/$r"; fi
}

case ${1:-} in
dirs)
	printf 'bindir=%s\nlibdir=%s\nincludedir=%s\nmandir=%s\ndatadir=%s\npcdir=%s\ncmakedir=%s\nmanifest=%s\n' \
	    "$bindir" "$libdir" "$includedir" "$mandir" "$datadir" "$pcdir" "$cmakedir" "$manifest"
	;;

configure)
	[ $# -eq 3 ] || fail "usage: install.sh configure TEMPLATE OUT"
	: "${FKC_VERSION:?}" "${FKC_SOVERSION:?}" "${FKC_RUNTIME_ABI:?}" "${FKC_SIZEOF_VOID_P:?}"
	# .pc files: absolute paths (pkg-config can then recognise and drop the system's own
	# directories), or with RELOCATABLE paths from the .pc's own place (${pcfiledir}).
	if [ -n "$RELOCATABLE" ]; then
		for d in "$bindir" "$libdir" "$includedir"; do
			[ -n "$(below "$d")" ] || fail "RELOCATABLE=$RELOCATABLE: '$d' is not below PREFIX '$PREFIX', so a moved install could not find it"
		done
		pc_prefix="\${pcfiledir}/$(up "$pcdir")"
	else
		pc_prefix=$PREFIX
	fi
	sed -e "s|@PC_PREFIX@|$pc_prefix|g" \
	    -e "s|@PC_BINDIR@|$(pc_path "$bindir")|g" \
	    -e "s|@PC_LIBDIR@|$(pc_path "$libdir")|g" \
	    -e "s|@PC_INCLUDEDIR@|$(pc_path "$includedir")|g" \
	    -e "s|@CMAKE_TO_PREFIX@|$(up "$cmakedir")|g" \
	    -e "s|@CMAKE_BINDIR@|$(cmake_path "$bindir")|g" \
	    -e "s|@CMAKE_LIBDIR@|$(cmake_path "$libdir")|g" \
	    -e "s|@CMAKE_INCLUDEDIR@|$(cmake_path "$includedir")|g" \
	    -e "s|@PREFIX@|$PREFIX|g" \
	    -e "s|@VERSION@|$FKC_VERSION|g" \
	    -e "s|@SOVERSION@|$FKC_SOVERSION|g" \
	    -e "s|@RUNTIME_ABI@|$FKC_RUNTIME_ABI|g" \
	    -e "s|@SIZEOF_VOID_P@|$FKC_SIZEOF_VOID_P|g" \
	    "$2" > "$3.tmp"
	if grep -n '@[A-Z_]*@' "$3.tmp" >&2; then rm -f "$3.tmp"; fail "$2: the names above have no value"; fi
	mv "$3.tmp" "$3"
	;;

install)
	[ $# -eq 2 ] || fail "usage: install.sh install LIST"
	list=$2
	created=$(mktemp)
	trap 'rm -f "$created" "$created.files"' EXIT
	: > "$created.files"
	# What an earlier install wrote goes first; the directories it created stay its own.
	if [ -n "$manifest" ] && [ -f "$DESTDIR$manifest" ]; then
		sed -n 's/^f //p' "$DESTDIR$manifest" | while read -r p; do rm -f "$DESTDIR$p"; done
		grep '^d ' "$DESTDIR$manifest" > "$created" || true
	fi
	# (a staging root is made as needed, and is not the install's: uninstall leaves it)
	[ -z "$DESTDIR" ] || mkdir -p "$DESTDIR" || fail "cannot create DESTDIR $DESTDIR"
	# mkdir -p, recording each directory made.
	mkdirs() {
		[ -d "$DESTDIR$1" ] && return 0
		parent=${1%/*}
		[ -n "$parent" ] && mkdirs "$parent"
		mkdir "$DESTDIR$1" || fail "cannot create $DESTDIR$1"
		grep -qxF "d $1" "$created" || echo "d $1" >> "$created"
	}
	while read -r mode src dest; do
		[ -n "$mode" ] || continue
		case $dest in
		bindir/*) dest=$bindir/${dest#*/} ;;
		libdir/*) dest=$libdir/${dest#*/} ;;
		includedir/*) dest=$includedir/${dest#*/} ;;
		mandir/*) dest=$mandir/${dest#*/} ;;
		datadir/*) dest=$datadir/${dest#*/} ;;
		pcdir/*) dest=$pcdir/${dest#*/} ;;
		cmakedir/*) dest=$cmakedir/${dest#*/} ;;
		*) fail "$list: '$dest' names no install directory" ;;
		esac
		mkdirs "${dest%/*}"
		if [ "$mode" = link ]; then
			ln -sfn "$src" "$DESTDIR$dest"
		else
			install -m "$mode" "$src" "$DESTDIR$dest"
		fi
		echo "f $dest" >> "$created.files"
		echo "  $DESTDIR$dest"
	done < "$list"
	if [ -n "$manifest" ]; then
		mkdirs "${manifest%/*}"
		{
			echo "# fkc install manifest: what make install wrote (f) and the directories it created (d);"
			echo "# make uninstall with the same PREFIX and DESTDIR removes them."
			cat "$created.files" "$created"
		} > "$DESTDIR$manifest"
		echo "  $DESTDIR$manifest (the manifest make uninstall reads)"
	fi
	;;

uninstall)
	[ -n "$manifest" ] || fail "MANIFEST is empty, so there is no list of what to remove"
	[ -f "$DESTDIR$manifest" ] || fail "no manifest $DESTDIR$manifest: nothing was installed there by make install (check PREFIX, DESTDIR, DATADIR)"
	sed -n 's/^f //p' "$DESTDIR$manifest" | while read -r p; do
		rm -f "$DESTDIR$p" && echo "  removed $DESTDIR$p"
	done
	dirs=$(sed -n 's/^d //p' "$DESTDIR$manifest" | sort -r)
	rm -f "$DESTDIR$manifest"
	# Deepest first (sort -r puts a directory after everything below it); a directory that
	# still holds something (not fkc's) stays.
	for d in $dirs; do
		rmdir "$DESTDIR$d" 2>/dev/null && echo "  removed $DESTDIR$d/" ||
		    echo "  kept $DESTDIR$d/ (not empty)"
	done
	;;

*)
	fail "usage: install.sh dirs | configure TEMPLATE OUT | install LIST | uninstall"
	;;
esac
