# The dialect reference pages docs/dialects/<dialect>.md, made from the ODS
# summaries and descriptions by mlir-tblgen (GenerateDialectDoc.cmake):
#   tgpu-dialect-docs         writes them into <build>/docs/dialects/;
#   tgpu-update-dialect-docs  copies those over the checked-in pages;
#   test dialect-doc-<name>   fails when a checked-in page is stale (it runs
#                             mlir-tblgen itself, so it needs no build);
#   test dialect-doc-examples-<name>  runs the page's examples through
#                             tgpu-opt.
if(NOT TARGET tgpu-dialect-docs)
  add_custom_target(tgpu-dialect-docs)
  add_custom_target(tgpu-update-dialect-docs)
endif()

# tgpu_add_dialect_doc(<dialect> <ops .td> [OWN_ENUMS <enums .td> | NONE])
# OWN_ENUMS: document only that file's enums (see GenerateDialectDoc.cmake).
function(tgpu_add_dialect_doc dialect td)
  cmake_parse_arguments(ARG "" "OWN_ENUMS" "" ${ARGN})
  set(script ${TGPU_SOURCE_DIR}/compiler/include/tgpu/Dialect/GenerateDialectDoc.cmake)
  set(td_path ${CMAKE_CURRENT_SOURCE_DIR}/${td})
  file(RELATIVE_PATH source_name ${TGPU_SOURCE_DIR} ${td_path})
  set(includes ${TGPU_SOURCE_DIR}/compiler/include ${MLIR_INCLUDE_DIRS})
  # Joined with `|`: a `;` list would split into several arguments.
  string(REPLACE ";" "|" includes "${includes}")
  set(args -DTBLGEN=$<TARGET_FILE:${MLIR_TABLEGEN_EXE}> -DTD=${td_path}
           -DDIALECT=${dialect} -DINCLUDES=${includes} -DSOURCE_NAME=${source_name})
  if(ARG_OWN_ENUMS STREQUAL "NONE")
    list(APPEND args -DOWN_ENUMS=NONE)
  elseif(ARG_OWN_ENUMS)
    list(APPEND args -DOWN_ENUMS=${CMAKE_CURRENT_SOURCE_DIR}/${ARG_OWN_ENUMS})
  endif()

  set(generated ${TGPU_BINARY_DIR}/docs/dialects/${dialect}.md)
  set(checked_in ${TGPU_SOURCE_DIR}/docs/dialects/${dialect}.md)
  file(GLOB dialect_tds CONFIGURE_DEPENDS
       ${TGPU_SOURCE_DIR}/compiler/include/tgpu/Dialect/*/IR/*.td)
  file(MAKE_DIRECTORY ${TGPU_BINARY_DIR}/docs/dialects)
  add_custom_command(OUTPUT ${generated}
    COMMAND ${CMAKE_COMMAND} ${args} -DOUTPUT=${generated} -P ${script}
    DEPENDS ${dialect_tds} ${script} ${MLIR_TABLEGEN_EXE}
    COMMENT "Generating the ${dialect} dialect reference"
    VERBATIM)
  add_custom_target(tgpu-dialect-doc-${dialect} DEPENDS ${generated})
  add_dependencies(tgpu-dialect-docs tgpu-dialect-doc-${dialect})
  add_custom_target(tgpu-update-dialect-doc-${dialect}
    COMMAND ${CMAKE_COMMAND} -E copy_if_different ${generated} ${checked_in}
    DEPENDS ${generated}
    VERBATIM)
  add_dependencies(tgpu-update-dialect-docs tgpu-update-dialect-doc-${dialect})
  add_test(NAME dialect-doc-${dialect}
           COMMAND ${CMAKE_COMMAND} ${args} -DCHECK=${checked_in} -P ${script})
  add_test(NAME dialect-doc-examples-${dialect}
           COMMAND ${CMAKE_COMMAND} ${args} -DOPT=$<TARGET_FILE:tgpu-opt>
                   -DWORK_DIR=${TGPU_BINARY_DIR}/docs/dialects/examples -P ${script})
endfunction()
