# gql_add_kernels(<target> FILES a.gql ... [TARGET openmp|cuda] [INCLUDE_DIRS dir ...] [OUTPUT_DIR dir])
#
# Generates each spec's kernels at build time with gqlc (as protobuf_generate does for .proto
# files) and compiles them into <target>: for a.gql, OUTPUT_DIR/a.gql.cpp (openmp) or a.gql.cu
# (cuda) holds the kernels and OUTPUT_DIR/a.gql.hpp declares them (namespace gqlgen), so that
# `#include "a.gql.hpp"` works in the target's sources. A spec is regenerated when it changes.
function(gql_add_kernels target)
  cmake_parse_arguments(ARG "" "TARGET;OUTPUT_DIR" "FILES;INCLUDE_DIRS" ${ARGN})
  if(NOT ARG_FILES)
    message(FATAL_ERROR "gql_add_kernels(${target}): no FILES given")
  endif()
  if(NOT ARG_TARGET)
    set(ARG_TARGET openmp)
  endif()
  if(NOT ARG_TARGET MATCHES "^(openmp|cuda)$")
    message(FATAL_ERROR "gql_add_kernels(${target}): TARGET must be openmp or cuda, not '${ARG_TARGET}'")
  endif()
  if(NOT ARG_OUTPUT_DIR)
    set(ARG_OUTPUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/gql_kernels/${target})
  endif()
  set(ext cpp)
  if(ARG_TARGET STREQUAL "cuda")
    set(ext cu)
  endif()
  set(includes "")
  foreach(dir ${ARG_INCLUDE_DIRS})
    get_filename_component(dir ${dir} ABSOLUTE)
    list(APPEND includes -I ${dir})
  endforeach()
  file(MAKE_DIRECTORY ${ARG_OUTPUT_DIR})
  foreach(spec ${ARG_FILES})
    get_filename_component(spec ${spec} ABSOLUTE)
    get_filename_component(name ${spec} NAME_WE)
    set(source ${ARG_OUTPUT_DIR}/${name}.gql.${ext})
    set(header ${ARG_OUTPUT_DIR}/${name}.gql.hpp)
    add_custom_command(OUTPUT ${source} ${header}
      COMMAND gql::gqlc ${spec} --target ${ARG_TARGET} ${includes} --emit kernels
              --kernels-out ${ARG_OUTPUT_DIR}/${name}.gql
      DEPENDS ${spec} gql::gqlc
      COMMENT "gqlc: ${name}.gql -> ${ARG_TARGET} kernels"
      VERBATIM)
    target_sources(${target} PRIVATE ${source} ${header})
  endforeach()
  target_include_directories(${target} PRIVATE ${ARG_OUTPUT_DIR})
  target_link_libraries(${target} PRIVATE gql::runtime)
endfunction()
