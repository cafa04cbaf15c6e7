# ccache and a fast linker when present. Included before find_package(MLIR).
find_program(TERRAZZO_CCACHE ccache)
if(TERRAZZO_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_C_COMPILER_LAUNCHER ${TERRAZZO_CCACHE})
  set(CMAKE_CXX_COMPILER_LAUNCHER ${TERRAZZO_CCACHE})
endif()

# lld 22 (the system ld.lld on Debian 12 is lld 14): also what links AMD
# code objects (backends/amd).
find_program(TERRAZZO_LLD22 ld.lld HINTS /usr/lib/llvm-22/bin NO_DEFAULT_PATH)

# mold first, then lld 22 (pointing the driver at llvm-22's bin folder),
# else the default linker.
if(NOT TERRAZZO_LINKER_FLAGS)
  find_program(TERRAZZO_MOLD mold)
  if(TERRAZZO_MOLD)
    set(TERRAZZO_LINKER_FLAGS "-fuse-ld=mold")
  elseif(TERRAZZO_LLD22)
    get_filename_component(_lld_dir ${TERRAZZO_LLD22} DIRECTORY)
    set(TERRAZZO_LINKER_FLAGS "-fuse-ld=lld -B${_lld_dir}")
  else()
    set(TERRAZZO_LINKER_FLAGS "")
  endif()
endif()
message(STATUS "Linker flags: ${TERRAZZO_LINKER_FLAGS}")
string(APPEND CMAKE_EXE_LINKER_FLAGS " ${TERRAZZO_LINKER_FLAGS}")
string(APPEND CMAKE_SHARED_LINKER_FLAGS " ${TERRAZZO_LINKER_FLAGS}")
string(APPEND CMAKE_MODULE_LINKER_FLAGS " ${TERRAZZO_LINKER_FLAGS}")
