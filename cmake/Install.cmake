#===- Install.cmake - the find_package(RelayMLIR) package ----------------===//
#
# `cmake --install build --prefix P` gives P/lib/cmake/RelayMLIR with a
# relocatable RelayMLIRConfig.cmake: find_dependency(MLIR), then the
# RelayMLIR:: library targets with their include paths.
#
#===----------------------------------------------------------------------===//

include(CMakePackageConfigHelpers)

install(EXPORT RelayMLIRTargets
  NAMESPACE RelayMLIR::
  DESTINATION ${RELAY_MLIR_INSTALL_CMAKE_DIR})

get_property(RELAY_MLIR_EXPORTED_LIBS GLOBAL PROPERTY RELAY_MLIR_EXPORTED_LIBS)
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/RelayMLIRConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/RelayMLIRConfig.cmake
  INSTALL_DESTINATION ${RELAY_MLIR_INSTALL_CMAKE_DIR})
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/RelayMLIRConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/cmake/RelayMLIRConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/RelayMLIRConfigVersion.cmake
  DESTINATION ${RELAY_MLIR_INSTALL_CMAKE_DIR})
