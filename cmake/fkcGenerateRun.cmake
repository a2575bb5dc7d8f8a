# fkcGenerateRun.cmake — the build-time command of fkc_generate (fkcGenerate.cmake):
#   cmake -DFKCGEN=... -DSTAMP=... -DDEPFILE=... -DOUT_DIR=... -DPREFIX=... -DLANG=c|rust
#         -DROOT=... -P fkcGenerateRun.cmake -- CONTRACT...
# Touches the stamp, then runs fkcgen gen (which rewrites only the outputs whose bytes change),
# then writes DEPFILE: fkcgen's depfile with the stamp as its target, the one output the build
# rule declares (Ninja requires it). When fkcgen fails the stamp is removed, so the next build
# runs it again; fkcgen has printed why.

set(_contracts "")
set(_seen_dashes FALSE)
math(EXPR _last "${CMAKE_ARGC} - 1")
foreach(_i RANGE 1 ${_last})
  if(_seen_dashes)
    list(APPEND _contracts "${CMAKE_ARGV${_i}}")
  elseif(CMAKE_ARGV${_i} STREQUAL "--")
    set(_seen_dashes TRUE)
  endif()
endforeach()
foreach(_v FKCGEN STAMP DEPFILE OUT_DIR PREFIX LANG ROOT)
  if(NOT DEFINED ${_v})
    message(FATAL_ERROR "fkcGenerateRun.cmake: -D${_v}=... is missing")
  endif()
endforeach()
if(NOT _contracts)
  message(FATAL_ERROR "fkcGenerateRun.cmake: no contract after --")
endif()

file(TOUCH "${STAMP}") # before fkcgen: every file it writes is newer than the stamp
execute_process(
  COMMAND "${FKCGEN}" gen --prefix "${PREFIX}" --lang "${LANG}" --out-dir "${OUT_DIR}"
          --depfile "${DEPFILE}.fkcgen" --root "${ROOT}" ${_contracts}
  RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  file(REMOVE "${STAMP}")
  message(FATAL_ERROR "fkcgen gen --prefix ${PREFIX} failed (${_rc}): see its messages above")
endif()

# fkcgen's depfile starts "OUTPUT... : PREREQUISITE..."; no path in it holds ':' (fkcgen refuses
# one with --depfile), so the first ':' ends the targets.
file(READ "${DEPFILE}.fkcgen" _dep)
string(FIND "${_dep}" ":" _colon)
if(_colon LESS 0)
  message(FATAL_ERROR "fkcGenerateRun.cmake: ${DEPFILE}.fkcgen has no rule")
endif()
string(SUBSTRING "${_dep}" ${_colon} -1 _rest)
string(REPLACE "$" "$$" _target "${STAMP}")
string(REPLACE " " "\\ " _target "${_target}")
string(REPLACE "#" "\\#" _target "${_target}")
file(WRITE "${DEPFILE}.tmp" "${_target}${_rest}")
file(RENAME "${DEPFILE}.tmp" "${DEPFILE}")
file(REMOVE "${DEPFILE}.fkcgen")
