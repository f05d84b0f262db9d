# Install rules and the CMake package: find_package(gql) gives the layers gql::core (header-only),
# gql::runtime, gql::compiler, gql::gql (the JIT, gql/jit.hpp), and gql::gqlc and gql_add_kernels().
include(CMakePackageConfigHelpers)

set_target_properties(gql_runtime PROPERTIES EXPORT_NAME runtime)
set_target_properties(gql_compiler PROPERTIES EXPORT_NAME compiler)

# The package finds what the exported targets link: BLAS only when the runtime was built with it.
get_target_property(GQL_RUNTIME_LINKS gql_runtime LINK_LIBRARIES)
set(GQL_PACKAGE_NEEDS_BLAS OFF)
if("BLAS::BLAS" IN_LIST GQL_RUNTIME_LINKS)
  set(GQL_PACKAGE_NEEDS_BLAS ON)
endif()

set(GQL_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/gql)
set(GQL_INSTALL_STDLIB ${CMAKE_INSTALL_DATADIR}/gql/stdlib)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/stdlib/ DESTINATION ${GQL_INSTALL_STDLIB})
install(EXPORT gqlTargets NAMESPACE gql:: DESTINATION ${GQL_INSTALL_CMAKEDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/gqlConfig.cmake.in
  ${PROJECT_BINARY_DIR}/gqlConfig.cmake
  INSTALL_DESTINATION ${GQL_INSTALL_CMAKEDIR}
  PATH_VARS GQL_INSTALL_STDLIB)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/gqlConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/gqlConfig.cmake ${PROJECT_BINARY_DIR}/gqlConfigVersion.cmake
        ${PROJECT_SOURCE_DIR}/cmake/GqlAddKernels.cmake
        DESTINATION ${GQL_INSTALL_CMAKEDIR})
