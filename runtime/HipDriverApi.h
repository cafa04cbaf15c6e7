// The few HIP API declarations the runtime uses (DESIGN.md §6).
//
// The runtime loads libamdhip64 with dlopen and must build without ROCm, so it
// does not include hip_runtime_api.h: the types, enum values and function
// signatures below are declared here from HIP's documented ABI (the values
// checked against the headers of ROCm 5.2 and 6.x, where they agree). Everything
// is in terrazzo::runtime::hip so nothing clashes with a real HIP header that a
// client might include beside the runtime's public header.
#ifndef TERRAZZO_RUNTIME_HIPDRIVERAPI_H
#define TERRAZZO_RUNTIME_HIPDRIVERAPI_H

#include <cstddef>

namespace terrazzo::runtime::hip {

// --- Scalar and handle types -------------------------------------------------

using hipError_t = int;
using hipDeviceptr_t = void *;

struct ihipModule_t;
struct ihipModuleSymbol_t;
struct ihipStream_t;
struct ihipEvent_t;
using hipModule_t = ihipModule_t *;
using hipFunction_t = ihipModuleSymbol_t *;
using hipStream_t = ihipStream_t *;
using hipEvent_t = ihipEvent_t *;

using hipDeviceAttribute_t = int;
using hipFunction_attribute = int;
using hipFuncAttribute = int;
using hipPointer_attribute = int;

// --- hipError_t --------------------------------------------------------------

constexpr hipError_t hipSuccess = 0;
constexpr hipError_t hipErrorInvalidValue = 1;
constexpr hipError_t hipErrorNotInitialized = 3;
constexpr hipError_t hipErrorInvalidDeviceFunction = 98;
constexpr hipError_t hipErrorNoDevice = 100;
constexpr hipError_t hipErrorInvalidDevice = 101;
constexpr hipError_t hipErrorInvalidImage = 200;
constexpr hipError_t hipErrorNotFound = 500;
constexpr hipError_t hipErrorLaunchFailure = 719;
/// What a cooperative launch reports when the runtime has no
/// hipModuleLaunchCooperativeKernel.
constexpr hipError_t hipErrorNotSupported = 801;

// --- hipDeviceAttribute_t (the numbering of ROCm 5.0 and later) -------------

constexpr hipDeviceAttribute_t hipDeviceAttributeClockRate = 5;
constexpr hipDeviceAttribute_t hipDeviceAttributeComputeCapabilityMajor = 23;
constexpr hipDeviceAttribute_t hipDeviceAttributeMaxThreadsPerBlock = 56;
constexpr hipDeviceAttribute_t hipDeviceAttributeMaxThreadsPerMultiProcessor =
    57;
constexpr hipDeviceAttribute_t hipDeviceAttributeMemoryBusWidth = 59;
constexpr hipDeviceAttribute_t hipDeviceAttributeMemoryClockRate = 60;
constexpr hipDeviceAttribute_t hipDeviceAttributeComputeCapabilityMinor = 61;
constexpr hipDeviceAttribute_t hipDeviceAttributeMultiprocessorCount = 63;
constexpr hipDeviceAttribute_t hipDeviceAttributeMaxRegistersPerBlock = 71;
constexpr hipDeviceAttribute_t hipDeviceAttributeMaxSharedMemoryPerBlock = 74;
constexpr hipDeviceAttribute_t hipDeviceAttributeSharedMemPerBlockOptin = 75;
constexpr hipDeviceAttribute_t hipDeviceAttributeWarpSize = 87;

// --- hipFunction_attribute (for hipFuncGetAttribute) -------------------------

constexpr hipFunction_attribute HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0;
constexpr hipFunction_attribute HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1;
constexpr hipFunction_attribute HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3;
constexpr hipFunction_attribute HIP_FUNC_ATTRIBUTE_NUM_REGS = 4;
constexpr hipFunction_attribute HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES =
    8;

// --- hipFuncAttribute (for hipFuncSetAttribute) ------------------------------

constexpr hipFuncAttribute hipFuncAttributeMaxDynamicSharedMemorySize = 8;

// --- hipPointer_attribute ----------------------------------------------------

constexpr hipPointer_attribute HIP_POINTER_ATTRIBUTE_DEVICE_POINTER = 3;
constexpr hipPointer_attribute HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9;

// --- Flags -------------------------------------------------------------------

constexpr unsigned hipStreamDefault = 0x0;
constexpr unsigned hipStreamNonBlocking = 0x1;

// --- hipDeviceProp_t ---------------------------------------------------------
// The runtime reads one field of the device properties, the architecture
// name ("gfx942:sramecc+:xnack-"), which has no device attribute. The
// structure changed layout in ROCm 6: hipGetDevicePropertiesR0600 fills the
// new one, and hipGetDeviceProperties, exported by ROCm 5 and kept by ROCm 6
// for programs built against 5, the old one. Rather than declaring either
// structure, the runtime passes a buffer larger than both and reads the name
// at its offset in the layout of the function it called.

constexpr std::size_t kDevicePropertiesBufferBytes = 4096;
constexpr std::size_t kGcnArchNameOffsetR0600 = 1160; // sizeof: 1472
constexpr std::size_t kGcnArchNameOffsetR0000 = 396;  // sizeof: 792
constexpr std::size_t kGcnArchNameBytes = 256;

// --- Function-pointer types --------------------------------------------------

using PFN_hipInit = hipError_t (*)(unsigned flags);
using PFN_hipDriverGetVersion = hipError_t (*)(int *version);
using PFN_hipGetErrorName = const char *(*)(hipError_t error);
using PFN_hipGetErrorString = const char *(*)(hipError_t error);

using PFN_hipGetDeviceCount = hipError_t (*)(int *count);
using PFN_hipGetDevice = hipError_t (*)(int *device);
using PFN_hipSetDevice = hipError_t (*)(int device);
using PFN_hipDeviceGetName = hipError_t (*)(char *name, int length,
                                            int device);
using PFN_hipDeviceGetAttribute = hipError_t (*)(int *value,
                                                 hipDeviceAttribute_t attribute,
                                                 int device);
using PFN_hipDeviceTotalMem = hipError_t (*)(size_t *bytes, int device);
using PFN_hipGetDeviceProperties = hipError_t (*)(void *properties,
                                                  int device);
using PFN_hipDeviceSynchronize = hipError_t (*)();
using PFN_hipPointerGetAttribute = hipError_t (*)(void *data,
                                                  hipPointer_attribute attribute,
                                                  hipDeviceptr_t pointer);

using PFN_hipModuleLoadData = hipError_t (*)(hipModule_t *module,
                                             const void *image);
using PFN_hipModuleUnload = hipError_t (*)(hipModule_t module);
using PFN_hipModuleGetFunction = hipError_t (*)(hipFunction_t *function,
                                                hipModule_t module,
                                                const char *name);
using PFN_hipFuncGetAttribute = hipError_t (*)(int *value,
                                               hipFunction_attribute attribute,
                                               hipFunction_t function);
using PFN_hipFuncSetAttribute = hipError_t (*)(const void *function,
                                               hipFuncAttribute attribute,
                                               int value);
using PFN_hipModuleLaunchKernel = hipError_t (*)(
    hipFunction_t function, unsigned gridX, unsigned gridY, unsigned gridZ,
    unsigned blockX, unsigned blockY, unsigned blockZ, unsigned sharedBytes,
    hipStream_t stream, void **kernelParams, void **extra);
using PFN_hipModuleLaunchCooperativeKernel = hipError_t (*)(
    hipFunction_t function, unsigned gridX, unsigned gridY, unsigned gridZ,
    unsigned blockX, unsigned blockY, unsigned blockZ, unsigned sharedBytes,
    hipStream_t stream, void **kernelParams);

using PFN_hipMalloc = hipError_t (*)(void **pointer, size_t bytes);
using PFN_hipFree = hipError_t (*)(void *pointer);
using PFN_hipMemcpyHtoD = hipError_t (*)(hipDeviceptr_t destination,
                                         void *source, size_t bytes);
using PFN_hipMemcpyDtoH = hipError_t (*)(void *destination,
                                         hipDeviceptr_t source, size_t bytes);
using PFN_hipMemcpyDtoD = hipError_t (*)(hipDeviceptr_t destination,
                                         hipDeviceptr_t source, size_t bytes);
using PFN_hipMemsetD8 = hipError_t (*)(hipDeviceptr_t destination,
                                       unsigned char value, size_t count);

using PFN_hipStreamCreateWithFlags = hipError_t (*)(hipStream_t *stream,
                                                    unsigned flags);
using PFN_hipStreamDestroy = hipError_t (*)(hipStream_t stream);
using PFN_hipStreamSynchronize = hipError_t (*)(hipStream_t stream);

using PFN_hipEventCreate = hipError_t (*)(hipEvent_t *event);
using PFN_hipEventRecord = hipError_t (*)(hipEvent_t event, hipStream_t stream);
using PFN_hipEventSynchronize = hipError_t (*)(hipEvent_t event);
using PFN_hipEventElapsedTime = hipError_t (*)(float *milliseconds,
                                               hipEvent_t start, hipEvent_t end);
using PFN_hipEventDestroy = hipError_t (*)(hipEvent_t event);

} // namespace terrazzo::runtime::hip

#endif // TERRAZZO_RUNTIME_HIPDRIVERAPI_H
