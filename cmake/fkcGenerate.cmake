# fkcGenerate.cmake — fkc_generate(), included by fkcConfig.cmake (installed beside it):
#
#   fkc_generate(TARGET <target> CONTRACTS <file>... [PREFIX <name>] [LANG c|rust]
#                [OUT_DIR <dir>])
#
# Generates bindings from the contracts with fkc::fkcgen at build time and adds them to the
# target: with LANG c (the default) OUT_DIR/<name>_bindings.c is compiled into it and OUT_DIR,
# which holds <name>_bindings.h, is on its include path; with LANG rust the target depends on
# OUT_DIR/<name>_bindings.rs (for a Rust build the target drives). PREFIX: the prefix of every
# generated name and file (fkcgen gen --prefix; default fkc, the runtime's own namespace: pick
# your own). OUT_DIR: default ${CMAKE_CURRENT_BINARY_DIR}/fkc_generated/<target>; relative paths
# are below CMAKE_CURRENT_BINARY_DIR, contracts below CMAKE_CURRENT_SOURCE_DIR (also --root,
# so generated banners name the contracts relative to it). The target still links fkc::fkc or
# fkc::fkc_static, whichever it wants.
#
# The rule: fkcgen runs when a contract, or fkcgen itself, is newer than a stamp, which the
# command touches before fkcgen runs; fkcgen rewrites only the outputs whose bytes change, and
# the outputs are byproducts of the stamp, so an unchanged one keeps its time and nothing that
# includes it is rebuilt (Ninja: restat; Makefiles: the outputs have no rule of their own).
# fkcgen's depfile (the contracts it read, and fkcgen) becomes the stamp's DEPFILE. So: a second
# build does nothing, touching a contract reruns fkcgen and compiles nothing, and an edit
# recompiles exactly the objects that include a changed output — with either generator.
# The command is cmake -P fkcGenerateRun.cmake, which also removes the stamp when fkcgen fails.

set(_FKC_GENERATE_RUN "${CMAKE_CURRENT_LIST_DIR}/fkcGenerateRun.cmake")

function(fkc_generate)
  cmake_parse_arguments(PARSE_ARGV 0 _fkc "" "TARGET;PREFIX;LANG;OUT_DIR" "CONTRACTS")
  if(_fkc_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "fkc_generate: unknown arguments: ${_fkc_UNPARSED_ARGUMENTS} "
                        "(it takes TARGET, CONTRACTS, PREFIX, LANG and OUT_DIR)")
  endif()
  if(NOT _fkc_TARGET)
    message(FATAL_ERROR "fkc_generate: TARGET <target> is required")
  endif()
  if(NOT TARGET "${_fkc_TARGET}")
    message(FATAL_ERROR "fkc_generate: '${_fkc_TARGET}' is not a target: add_executable() or "
                        "add_library() it before fkc_generate")
  endif()
  if(NOT _fkc_CONTRACTS)
    message(FATAL_ERROR "fkc_generate(TARGET ${_fkc_TARGET}): CONTRACTS <file>... is required")
  endif()
  if(NOT TARGET fkc::fkcgen)
    message(FATAL_ERROR "fkc_generate: this fkc install has no fkcgen beside its library; "
                        "install it too (Debian: the fkc-tools package)")
  endif()
  if(NOT DEFINED _fkc_PREFIX)
    set(_fkc_PREFIX fkc)
  endif()
  if(NOT _fkc_PREFIX MATCHES "^[a-z][a-z0-9_]*$")
    message(FATAL_ERROR "fkc_generate: PREFIX '${_fkc_PREFIX}' is not lower-case letters, "
                        "digits and _ starting with a letter (fkcgen checks the rest)")
  endif()
  if(NOT DEFINED _fkc_LANG)
    set(_fkc_LANG c)
  endif()
  if(_fkc_LANG STREQUAL "c")
    set(_outs "${_fkc_PREFIX}_bindings.h" "${_fkc_PREFIX}_bindings.c")
  elseif(_fkc_LANG STREQUAL "rust")
    set(_outs "${_fkc_PREFIX}_bindings.rs")
  else()
    message(FATAL_ERROR "fkc_generate: LANG must be c or rust, not '${_fkc_LANG}'")
  endif()
  if(NOT DEFINED _fkc_OUT_DIR)
    set(_fkc_OUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/fkc_generated/${_fkc_TARGET}")
  endif()
  get_filename_component(_out "${_fkc_OUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")

  set(_contracts "")
  foreach(_c IN LISTS _fkc_CONTRACTS)
    get_filename_component(_c "${_c}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND _contracts "${_c}")
  endforeach()
  list(TRANSFORM _outs PREPEND "${_out}/")
  set(_base "${_out}/${_fkc_PREFIX}_bindings.${_fkc_LANG}")
  set(_stamp "${_base}.stamp")

  file(MAKE_DIRECTORY "${_out}")
  add_custom_command(
    OUTPUT "${_stamp}"
    BYPRODUCTS ${_outs}
    COMMAND "${CMAKE_COMMAND}" "-DFKCGEN=$<TARGET_FILE:fkc::fkcgen>" "-DSTAMP=${_stamp}"
            "-DDEPFILE=${_base}.d" "-DOUT_DIR=${_out}" "-DPREFIX=${_fkc_PREFIX}"
            "-DLANG=${_fkc_LANG}" "-DROOT=${CMAKE_CURRENT_SOURCE_DIR}"
            -P "${_FKC_GENERATE_RUN}" -- ${_contracts}
    DEPENDS ${_contracts} "$<TARGET_FILE:fkc::fkcgen>" "${_FKC_GENERATE_RUN}"
    DEPFILE "${_base}.d"
    COMMENT "fkcgen: ${_fkc_PREFIX} bindings (${_fkc_LANG}) of ${_fkc_TARGET}"
    VERBATIM)
  target_sources("${_fkc_TARGET}" PRIVATE "${_stamp}" ${_outs})
  if(_fkc_LANG STREQUAL "c")
    target_include_directories("${_fkc_TARGET}" PRIVATE "${_out}")
  endif()
endfunction()
