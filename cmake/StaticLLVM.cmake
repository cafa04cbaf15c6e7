# Portable flavour: link LLVM and MLIR statically into the core library.
#
# Debian's LLVMConfig.cmake links everything against the shared libLLVM, and
# every imported MLIR target names `LLVM` (the dylib) in its link interface.
# Redirect those to an interface target that lists the static LLVM archives,
# and drop dependencies whose packages are not installed or that we must not
# carry to another machine (z3, curl, libedit).
set(LLVM_LINK_LLVM_DYLIB OFF)

if(NOT TARGET zstd::libzstd_shared)
  find_library(TERRAZZO_ZSTD_LIBRARY NAMES zstd REQUIRED)
  add_library(zstd::libzstd_shared SHARED IMPORTED)
  set_target_properties(zstd::libzstd_shared PROPERTIES
    IMPORTED_LOCATION ${TERRAZZO_ZSTD_LIBRARY})
endif()

set(_terrazzo_excluded_llvm_libs
  LLVM LTO Remarks Polly LLVMDebuginfod LLVMLineEditor LLVMExtensions LLVMLTO
  LLVMDTLTO)

function(_terrazzo_clean_link_interface target)
  get_target_property(_deps ${target} INTERFACE_LINK_LIBRARIES)
  if(NOT _deps)
    return()
  endif()
  set(_kept)
  foreach(_dep IN LISTS _deps)
    if(_dep STREQUAL "LLVM")
      list(APPEND _kept TerrazzoStaticLLVM)
    elseif(_dep MATCHES "libz3|CURL::|LibEdit::")
      # Only reached through components we never call (Z3 solver, debuginfod,
      # line editor); dropping them keeps the core free of those libraries.
    elseif(_dep MATCHES "::" AND NOT TARGET ${_dep})
    elseif(_dep IN_LIST _terrazzo_excluded_llvm_libs)
    else()
      list(APPEND _kept ${_dep})
    endif()
  endforeach()
  set_target_properties(${target} PROPERTIES INTERFACE_LINK_LIBRARIES "${_kept}")
endfunction()

add_library(TerrazzoStaticLLVM INTERFACE)
set(_terrazzo_static_llvm)
foreach(_lib IN LISTS LLVM_AVAILABLE_LIBS)
  if(_lib MATCHES "^LLVM" AND NOT _lib IN_LIST _terrazzo_excluded_llvm_libs
     AND NOT _lib MATCHES "BOLT|Exegesis" AND TARGET ${_lib})
    get_target_property(_type ${_lib} TYPE)
    if(_type STREQUAL "STATIC_LIBRARY")
      _terrazzo_clean_link_interface(${_lib})
      list(APPEND _terrazzo_static_llvm ${_lib})
    endif()
  endif()
endforeach()
target_link_libraries(TerrazzoStaticLLVM INTERFACE ${_terrazzo_static_llvm})

get_property(_imported DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} PROPERTY IMPORTED_TARGETS)
foreach(_target IN LISTS _imported)
  if(_target MATCHES "^(MLIR|mlir_)")
    _terrazzo_clean_link_interface(${_target})
  endif()
endforeach()
message(STATUS "Portable core: MLIR linked against static LLVM archives")
