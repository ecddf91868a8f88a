#===- RelayMLIR.cmake - helpers for relay-mlir libraries -----------------===//
#
# relay_mlir_library(<name> <sources...>
#                    [DEPENDS <targets...>] [LINK_LIBS <libs...>])
#
# Builds one static, position-independent library per folder, prefixed
# RelayMLIR*, linked against Debian's shared libMLIR.so/libLLVM.so, and
# exported in the RelayMLIRTargets set that `cmake --install` ships. Headers
# and .td files beside the sources (and generated .inc files) are installed
# under include/relay-mlir/<folder>.
#
# relay_mlir_precompiled_headers(<target>): compiles <target> with the
# precompiled header of cmake/RelayMLIRPrecompiled.h, built once by
# relay_mlir_precompiled_headers_target(), where
# RELAY_MLIR_PRECOMPILED_HEADERS is on (libraries call it themselves).
#
#===----------------------------------------------------------------------===//

set_property(GLOBAL PROPERTY RELAY_MLIR_EXPORTED_LIBS "")

function(relay_mlir_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;LINK_LIBS" ${ARGN})
  add_library(${name} STATIC ${ARG_UNPARSED_ARGUMENTS})
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}>
    $<INSTALL_INTERFACE:${RELAY_MLIR_INSTALL_INCLUDE_DIR}>)
  target_link_libraries(${name} PUBLIC ${ARG_LINK_LIBS} MLIR LLVM)
  relay_mlir_precompiled_headers(${name})

  file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR})
  file(GLOB headers ${CMAKE_CURRENT_SOURCE_DIR}/*.h ${CMAKE_CURRENT_SOURCE_DIR}/*.td)
  install(FILES ${headers} DESTINATION ${RELAY_MLIR_INSTALL_INCLUDE_DIR}/${rel})
  install(DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/
    DESTINATION ${RELAY_MLIR_INSTALL_INCLUDE_DIR}/${rel}
    FILES_MATCHING PATTERN "*.inc"
    PATTERN "CMakeFiles" EXCLUDE)
  install(TARGETS ${name} EXPORT RelayMLIRTargets
    ARCHIVE DESTINATION lib LIBRARY DESTINATION lib)
  set_property(GLOBAL APPEND PROPERTY RELAY_MLIR_EXPORTED_LIBS ${name})
endfunction()

# One precompiled header for every target that uses it (REUSE_FROM): they
# share the compile flags it was built with (position-independent, C++17,
# LLVM's definitions); a target may add definitions, not change them.
function(relay_mlir_precompiled_headers_target)
  if(NOT RELAY_MLIR_PRECOMPILED_HEADERS)
    return()
  endif()
  add_library(RelayMLIRPrecompiledHeaders OBJECT
    ${PROJECT_SOURCE_DIR}/cmake/RelayMLIRPrecompiled.cpp)
  set_target_properties(RelayMLIRPrecompiledHeaders PROPERTIES
    POSITION_INDEPENDENT_CODE ON)
  target_precompile_headers(RelayMLIRPrecompiledHeaders PRIVATE
    ${PROJECT_SOURCE_DIR}/cmake/RelayMLIRPrecompiled.h)
  # The header includes the relay dialect's generated declarations.
  target_include_directories(RelayMLIRPrecompiledHeaders PRIVATE
    ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
  add_dependencies(RelayMLIRPrecompiledHeaders
    RelayMLIRDialectIncGen RelayMLIRTypesIncGen RelayMLIRAttrsIncGen
    RelayMLIROpsIncGen RelayMLIROperatorsIncGen)
  # Without the headers' modification times in it, so that ccache can cache
  # the compiles that use it.
  target_compile_options(RelayMLIRPrecompiledHeaders PRIVATE
    "SHELL:-Xclang -fno-pch-timestamp")
endfunction()

function(relay_mlir_precompiled_headers target)
  if(RELAY_MLIR_PRECOMPILED_HEADERS)
    target_precompile_headers(${target} REUSE_FROM RelayMLIRPrecompiledHeaders)
  endif()
endfunction()
