# cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DCACHE_DIR=... -P run_package_test.cmake
# Installs the build into a fresh prefix, configures and builds the user project in SOURCE_DIR
# against it with find_package(gql), runs it, and builds and runs a program with the installed gqlc.
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGV}\n${out}")
  endif()
  message(STATUS "${out}")
endfunction()
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -G Ninja -DCMAKE_PREFIX_PATH=${prefix}
    -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${CMAKE_COMMAND} -E env GQL_CACHE_DIR=${CACHE_DIR} ${WORK_DIR}/build/package_app ${prefix})
# $GQL_ROOT comes before the package: one that holds no installation is an error, not passed over.
execute_process(COMMAND ${CMAKE_COMMAND} -E env GQL_CACHE_DIR=${CACHE_DIR} GQL_ROOT=${WORK_DIR}/nowhere
                ${WORK_DIR}/build/package_app ${prefix} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc EQUAL 0 OR NOT out MATCHES "no gql installation under '${WORK_DIR}/nowhere'")
  message(FATAL_ERROR "package_app did not take $GQL_ROOT before the package (${rc}):\n${out}")
endif()
# The installed gqlc builds programs against the installed runtime (found beside it, not in this build).
run(${prefix}/bin/gqlc ${SOURCE_DIR}/two_hop.gql -o ${WORK_DIR}/two_hop)
run(${WORK_DIR}/two_hop paths2 --G grid:3x3)
