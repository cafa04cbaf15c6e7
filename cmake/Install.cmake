# `cmake --install` (DESIGN.md §7): the public headers, libterrazzo-core, the
# runtime, terrazzo-compile, terrazzo-opt, terrazzo-lsp-server and a CMake
# package (lib/cmake/Terrazzo: TerrazzoConfig.cmake, the imported targets
# Terrazzo::core, Terrazzo::runtime, Terrazzo::terrazzo-compile,
# Terrazzo::terrazzo-opt, Terrazzo::terrazzo-lsp-server, and
# terrazzo_add_kernels() for ahead-of-time kernels). A C++ project then
# writes
#
#   find_package(Terrazzo REQUIRED)
#   add_executable(app main.cpp)
#   terrazzo_add_kernels(app kernel.mlir TARGETS cuda:80 cuda:90)
#
# The component "python" (not part of a plain install) puts the extension
# terrazzo._C and the two libraries it loads into one folder; the Python
# package's build (setup.py) installs it into the wheel.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(TERRAZZO_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/Terrazzo)

# The libraries' public headers are found in the source tree while building
# and under the prefix once installed.
foreach(library terrazzo-core terrazzo-runtime)
  set_property(TARGET ${library} PROPERTY INTERFACE_INCLUDE_DIRECTORIES
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endforeach()
set_target_properties(terrazzo-core PROPERTIES EXPORT_NAME core)
set_target_properties(terrazzo-runtime PROPERTIES EXPORT_NAME runtime)

# Installed binaries find the project's libraries beside them (lib/ or
# ../lib) and, in the development flavour, the shared LLVM where it was
# linked from.
set_target_properties(terrazzo-core terrazzo-runtime PROPERTIES
  INSTALL_RPATH "$ORIGIN"
  INSTALL_RPATH_USE_LINK_PATH ON)
set_target_properties(terrazzo-compile terrazzo-opt terrazzo-lsp-server PROPERTIES
  INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}"
  INSTALL_RPATH_USE_LINK_PATH ON)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/terrazzo
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  COMPONENT terrazzo)
install(TARGETS terrazzo-core terrazzo-runtime terrazzo-compile terrazzo-opt
                terrazzo-lsp-server
  EXPORT TerrazzoTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT terrazzo
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT terrazzo)
install(EXPORT TerrazzoTargets
  NAMESPACE Terrazzo::
  DESTINATION ${TERRAZZO_INSTALL_CMAKEDIR}
  COMPONENT terrazzo)

configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/TerrazzoConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/TerrazzoConfig.cmake
  INSTALL_DESTINATION ${TERRAZZO_INSTALL_CMAKEDIR})
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/TerrazzoConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/cmake/TerrazzoConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/TerrazzoConfigVersion.cmake
  ${CMAKE_CURRENT_LIST_DIR}/TerrazzoAddKernels.cmake
  ${CMAKE_CURRENT_LIST_DIR}/TerrazzoEmbedKernels.cmake
  DESTINATION ${TERRAZZO_INSTALL_CMAKEDIR}
  COMPONENT terrazzo)

# The Python package's compiled part, for setup.py:
#   cmake --install <build> --component python --prefix <package folder>
# puts _C, libterrazzo-core and libterrazzo-runtime side by side; _C finds the
# other two through its rpath $ORIGIN.
if(TARGET _C)
  set_target_properties(_C PROPERTIES INSTALL_RPATH "$ORIGIN")
  install(TARGETS _C terrazzo-core terrazzo-runtime
    LIBRARY DESTINATION . COMPONENT python EXCLUDE_FROM_ALL)
endif()
