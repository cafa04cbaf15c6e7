# terrazzo_add_kernels(<target> <kernel.mlir>...
#                      TARGETS <cuda:80> [<cuda:90>...]
#                      [NUM_WARPS <n>] [NUM_STAGES <n>])
#
# Compiles each tile IR file for each GPU target with terrazzo-compile at
# build time (a cubin, or PTX where the build machine has neither ptxas nor
# nvJitLink; an hsaco for hip targets, which no runtime loads yet) and embeds the binaries and their metadata in <target>, which is
# linked to Terrazzo::runtime. At run time the program finds them through
# include/terrazzo/AOT.h, with no compiler:
#
#   #include "terrazzo/AOT.h"
#   auto kernel = terrazzo::aot::load("add_kernel");  // picks the device's target
#   kernel.value.launch(grid, 1, 1, args);
#
# The function may be called several times for one target (for example with
# other NUM_WARPS). Each tile IR file holds one public kernel; kernels are
# known by their symbol names, which must be unique within a program for a
# given GPU target. Uses the imported target Terrazzo::terrazzo-compile, or
# TERRAZZO_COMPILE when set (a terrazzo-compile of another build).
set(_TERRAZZO_EMBED_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/TerrazzoEmbedKernels.cmake")

function(terrazzo_add_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "NUM_WARPS;NUM_STAGES" "TARGETS")
  set(kernels ${ARG_UNPARSED_ARGUMENTS})
  if(NOT TARGET ${target})
    message(FATAL_ERROR "terrazzo_add_kernels: '${target}' is not a target")
  endif()
  if(NOT kernels)
    message(FATAL_ERROR "terrazzo_add_kernels(${target}): no kernel files")
  endif()
  if(NOT ARG_TARGETS)
    message(FATAL_ERROR "terrazzo_add_kernels(${target}): no TARGETS "
                        "(for example TARGETS cuda:80 cuda:90)")
  endif()
  foreach(gpu IN LISTS ARG_TARGETS)
    if(NOT gpu MATCHES "^cuda:[0-9]+$")
      message(FATAL_ERROR "terrazzo_add_kernels(${target}): target '${gpu}' "
                          "is not of the form cuda:<major><minor>, e.g. cuda:90")
    endif()
  endforeach()
  set(options)
  if(DEFINED ARG_NUM_WARPS)
    list(APPEND options --num-warps=${ARG_NUM_WARPS})
  endif()
  if(DEFINED ARG_NUM_STAGES)
    list(APPEND options --num-stages=${ARG_NUM_STAGES})
  endif()
  if(TERRAZZO_COMPILE)
    set(compiler "${TERRAZZO_COMPILE}")
  elseif(TARGET Terrazzo::terrazzo-compile)
    set(compiler "$<TARGET_FILE:Terrazzo::terrazzo-compile>")
  else()
    message(FATAL_ERROR "terrazzo_add_kernels: no terrazzo-compile "
                        "(find_package(Terrazzo) first, or set TERRAZZO_COMPILE)")
  endif()

  # One folder per call, so that calls with other options do not collide.
  get_property(calls TARGET ${target} PROPERTY TERRAZZO_KERNEL_CALLS)
  if(NOT calls)
    set(calls 0)
  endif()
  math(EXPR calls "${calls} + 1")
  set_property(TARGET ${target} PROPERTY TERRAZZO_KERNEL_CALLS ${calls})
  set(folder "${CMAKE_CURRENT_BINARY_DIR}/terrazzo-kernels/${target}-${calls}")

  set(binaries)
  foreach(kernel IN LISTS kernels)
    get_filename_component(source "${kernel}" ABSOLUTE)
    get_filename_component(stem "${kernel}" NAME_WE)
    foreach(gpu IN LISTS ARG_TARGETS)
      string(REPLACE ":" "-" tag "${gpu}")
      set(binary "${folder}/${stem}.${tag}.bin")
      add_custom_command(
        OUTPUT "${binary}" "${binary}.json"
        COMMAND ${compiler} "${source}" --target=${gpu} ${options}
                -o "${binary}"
        DEPENDS "${source}" ${compiler}
        COMMENT "terrazzo-compile ${source} for ${gpu}"
        VERBATIM)
      list(APPEND binaries "${binary}")
    endforeach()
  endforeach()

  set(generated "${folder}/embedded-kernels.cpp")
  set(metadata)
  foreach(binary IN LISTS binaries)
    list(APPEND metadata "${binary}.json")
  endforeach()
  string(REPLACE ";" "|" binary_list "${binaries}")
  add_custom_command(
    OUTPUT "${generated}"
    COMMAND ${CMAKE_COMMAND} "-DOUTPUT=${generated}" "-DBINARIES=${binary_list}"
            -P "${_TERRAZZO_EMBED_SCRIPT}"
    DEPENDS ${binaries} ${metadata} "${_TERRAZZO_EMBED_SCRIPT}"
    COMMENT "Embedding Terrazzo kernels in ${target}"
    VERBATIM)
  target_sources(${target} PRIVATE "${generated}")
  target_link_libraries(${target} PRIVATE Terrazzo::runtime)
endfunction()
