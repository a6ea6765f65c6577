# Makes one dialect's reference page with `mlir-tblgen -gen-dialect-doc`, or
# checks that the checked-in page is current. Run with `cmake -P`:
#   -DTBLGEN=<mlir-tblgen> -DTD=<the dialect's ops .td> -DDIALECT=<tt|ttg|ttng>
#   -DINCLUDES=<dir|dir...> -DSOURCE_NAME=<TD as the page names it>
#   [-DOWN_ENUMS=<.td holding the dialect's own enums, or NONE>]
#   and one of -DOUTPUT=<page to write>, -DCHECK=<page to compare with>, or
#   -DOPT=<tgpu-opt> -DWORK_DIR=<dir>: parse every ```mlir example of the
#   page with tgpu-opt, so that no example shows syntax tgpu rejects.
#
# mlir-tblgen documents every enum its records hold, and the ttg and ttng .td
# files include tt's: with OWN_ENUMS the generated enum section is replaced by
# the enums of that one file (none for NONE), so each enum is documented once,
# on the page of the dialect that defines it. The `[TOC]` marker (a Hugo
# feature, shown as text elsewhere) is dropped.
cmake_minimum_required(VERSION 3.21)

foreach(var TBLGEN TD DIALECT INCLUDES SOURCE_NAME)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "GenerateDialectDoc.cmake needs -D${var}=...")
  endif()
endforeach()

set(include_args)
string(REPLACE "|" ";" INCLUDES "${INCLUDES}")
foreach(dir IN LISTS INCLUDES)
  list(APPEND include_args -I ${dir})
endforeach()

function(run_tblgen out_var)
  execute_process(COMMAND ${TBLGEN} ${ARGN} ${include_args}
                  OUTPUT_VARIABLE text ERROR_VARIABLE errors RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "mlir-tblgen ${ARGN} failed:\n${errors}")
  endif()
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

run_tblgen(doc -gen-dialect-doc -dialect=${DIALECT} ${TD})
string(REPLACE "[TOC]\n\n" "" doc "${doc}")

if(DEFINED OWN_ENUMS)
  string(FIND "${doc}" "\n## Enums\n" enums_at)
  if(NOT enums_at EQUAL -1)
    math(EXPR keep "${enums_at} + 1")
    string(SUBSTRING "${doc}" 0 ${keep} doc)
  endif()
  if(NOT OWN_ENUMS STREQUAL "NONE")
    run_tblgen(enums -gen-enum-doc ${OWN_ENUMS})
    # Drop the generator's own header line; the page has one.
    string(REGEX REPLACE "^<!--[^\n]*-->\n+" "" enums "${enums}")
    string(APPEND doc "## Enums\n\n${enums}")
  endif()
endif()

set(page "<!-- The '${DIALECT}' dialect reference, generated from ${SOURCE_NAME} and the files it includes: edit those, then run `ninja tgpu-update-dialect-docs` (in the build directory) to refresh this page. -->\n${doc}")

if(DEFINED OPT)
  # Walked with string(FIND): a CMake list would split examples at `;`.
  file(MAKE_DIRECTORY "${WORK_DIR}")
  set(rest "${page}")
  set(n 0)
  while(TRUE)
    string(FIND "${rest}" "```mlir\n" start)
    if(start EQUAL -1)
      break()
    endif()
    math(EXPR start "${start} + 8")
    string(SUBSTRING "${rest}" ${start} -1 rest)
    string(FIND "${rest}" "```" end)
    string(SUBSTRING "${rest}" 0 ${end} code)
    string(SUBSTRING "${rest}" ${end} -1 rest)
    set(file "${WORK_DIR}/${DIALECT}-example-${n}.mlir")
    file(WRITE "${file}" "${code}")
    execute_process(COMMAND ${OPT} ${file} OUTPUT_QUIET ERROR_VARIABLE errors
                    RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(SEND_ERROR "tgpu-opt rejects example ${n} of the ${DIALECT} "
                         "reference (${file}):\n${code}\n${errors}")
    endif()
    math(EXPR n "${n} + 1")
  endwhile()
  if(n EQUAL 0)
    message(FATAL_ERROR "the ${DIALECT} reference has no ```mlir examples")
  endif()
  message(STATUS "${n} ${DIALECT} examples checked with tgpu-opt")
elseif(DEFINED CHECK)
  if(EXISTS "${CHECK}")
    file(READ "${CHECK}" checked_in)
  else()
    set(checked_in "")
  endif()
  if(NOT checked_in STREQUAL page)
    message(FATAL_ERROR
      "${CHECK} is not what mlir-tblgen makes of ${SOURCE_NAME} now "
      "(an op, attribute or type definition changed without its page). "
      "Refresh it with `ninja tgpu-update-dialect-docs` in the build "
      "directory, check the diff, and commit it.")
  endif()
else()
  file(WRITE "${OUTPUT}" "${page}")
endif()
