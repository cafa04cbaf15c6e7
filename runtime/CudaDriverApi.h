// The few CUDA driver API declarations the runtime uses (DESIGN.md §6).
//
// The runtime loads libcuda with dlopen and must build without a CUDA
// toolkit, so it does not include cuda.h: the types, enum values and
// function signatures below are declared here, copied by value from the
// driver's documented ABI (checked against CUDA 13's cuda.h). Everything is
// in terrazzo::runtime::cuda so nothing clashes with a real cuda.h that a
// client might include beside the runtime's public header.
#ifndef TERRAZZO_RUNTIME_CUDADRIVERAPI_H
#define TERRAZZO_RUNTIME_CUDADRIVERAPI_H

#include <cstddef>
#include <cstdint>

namespace terrazzo::runtime::cuda {

// --- Scalar and handle types -------------------------------------------------

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long; // CUdeviceptr_v2 on 64-bit hosts.

struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUevent_st;
using CUcontext = CUctx_st *;
using CUmodule = CUmod_st *;
using CUfunction = CUfunc_st *;
using CUstream = CUstream_st *;
using CUevent = CUevent_st *;

using CUdevice_attribute = int;
using CUfunction_attribute = int;
using CUpointer_attribute = int;
using CUjit_option = int;

// --- Enum values (CUresult) --------------------------------------------------

constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
constexpr CUresult CUDA_ERROR_NOT_INITIALIZED = 3;
constexpr CUresult CUDA_ERROR_STUB_LIBRARY = 34;
constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
/// What a launch with attributes reports when the driver has no
/// cuLaunchKernelEx (older than CUDA 11.8).
constexpr CUresult CUDA_ERROR_NOT_SUPPORTED = 801;

// --- CUdevice_attribute ------------------------------------------------------

constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK = 12;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37;
constexpr CUdevice_attribute
    CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR = 39;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr CUdevice_attribute
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;

// --- CUfunction_attribute ----------------------------------------------------

constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0;
constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1;
constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3;
constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_NUM_REGS = 4;
constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES =
    8;

// --- CUpointer_attribute -----------------------------------------------------

constexpr CUpointer_attribute CU_POINTER_ATTRIBUTE_DEVICE_POINTER = 3;
constexpr CUpointer_attribute CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9;

// --- CUjit_option (for cuModuleLoadDataEx) -----------------------------------

constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;

// --- Flags -------------------------------------------------------------------

constexpr unsigned CU_STREAM_DEFAULT = 0x0;
constexpr unsigned CU_STREAM_NON_BLOCKING = 0x1;
constexpr unsigned CU_EVENT_DEFAULT = 0x0;

// --- Function-pointer types --------------------------------------------------
// The driver exports plain C functions with the default calling convention.

using PFN_cuInit = CUresult (*)(unsigned flags);
using PFN_cuDriverGetVersion = CUresult (*)(int *version);
using PFN_cuGetErrorName = CUresult (*)(CUresult error, const char **name);
using PFN_cuGetErrorString = CUresult (*)(CUresult error, const char **text);

using PFN_cuDeviceGet = CUresult (*)(CUdevice *device, int ordinal);
using PFN_cuDeviceGetCount = CUresult (*)(int *count);
using PFN_cuDeviceGetName = CUresult (*)(char *name, int length,
                                         CUdevice device);
using PFN_cuDeviceGetAttribute = CUresult (*)(int *value,
                                              CUdevice_attribute attribute,
                                              CUdevice device);
using PFN_cuDeviceTotalMem = CUresult (*)(size_t *bytes, CUdevice device);
using PFN_cuDevicePrimaryCtxRetain = CUresult (*)(CUcontext *context,
                                                  CUdevice device);

using PFN_cuCtxGetCurrent = CUresult (*)(CUcontext *context);
using PFN_cuCtxSetCurrent = CUresult (*)(CUcontext context);
using PFN_cuCtxGetDevice = CUresult (*)(CUdevice *device);
using PFN_cuCtxSynchronize = CUresult (*)();

using PFN_cuPointerGetAttribute = CUresult (*)(void *data,
                                               CUpointer_attribute attribute,
                                               CUdeviceptr pointer);

using PFN_cuModuleLoadDataEx = CUresult (*)(CUmodule *module,
                                            const void *image,
                                            unsigned numOptions,
                                            CUjit_option *options,
                                            void **optionValues);
using PFN_cuModuleUnload = CUresult (*)(CUmodule module);
using PFN_cuModuleGetFunction = CUresult (*)(CUfunction *function,
                                             CUmodule module,
                                             const char *name);

using PFN_cuFuncGetAttribute = CUresult (*)(int *value,
                                            CUfunction_attribute attribute,
                                            CUfunction function);
using PFN_cuFuncSetAttribute = CUresult (*)(CUfunction function,
                                            CUfunction_attribute attribute,
                                            int value);
using PFN_cuLaunchKernel = CUresult (*)(
    CUfunction function, unsigned gridX, unsigned gridY, unsigned gridZ,
    unsigned blockX, unsigned blockY, unsigned blockZ, unsigned sharedBytes,
    CUstream stream, void **kernelParams, void **extra);

// cuLaunchKernelEx (CUDA 11.8+) with launch attributes. CUlaunchAttribute
// is an id padded to 8 bytes and a 64-byte union of values, of which the
// attributes used here read the first int (the cluster dimension: three).
using CUlaunchAttributeID = int;
constexpr CUlaunchAttributeID CU_LAUNCH_ATTRIBUTE_COOPERATIVE = 2;
constexpr CUlaunchAttributeID CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4;
constexpr CUlaunchAttributeID
    CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION = 6;
struct CUlaunchAttribute {
  CUlaunchAttributeID id;
  char pad[8 - sizeof(CUlaunchAttributeID)];
  union {
    char bytes[64];
    int cooperative;
    int programmaticStreamSerializationAllowed;
    struct {
      unsigned x, y, z;
    } clusterDim;
  } value;
};
struct CUlaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute *attrs;
  unsigned numAttrs;
};
static_assert(sizeof(CUlaunchAttribute) == 72, "CUlaunchAttribute's ABI");
using PFN_cuLaunchKernelEx = CUresult (*)(const CUlaunchConfig *config,
                                          CUfunction function,
                                          void **kernelParams, void **extra);

using PFN_cuMemAlloc = CUresult (*)(CUdeviceptr *pointer, size_t bytes);
using PFN_cuMemFree = CUresult (*)(CUdeviceptr pointer);
using PFN_cuMemcpyHtoD = CUresult (*)(CUdeviceptr destination,
                                      const void *source, size_t bytes);
using PFN_cuMemcpyDtoH = CUresult (*)(void *destination, CUdeviceptr source,
                                      size_t bytes);
using PFN_cuMemcpyDtoD = CUresult (*)(CUdeviceptr destination,
                                      CUdeviceptr source, size_t bytes);
using PFN_cuMemsetD8 = CUresult (*)(CUdeviceptr destination,
                                    unsigned char value, size_t count);

// cuTensorMapEncodeTiled (CUDA 12.0+): the enums are passed as their
// values (CUtensorMapDataType: 0 uint8, 1 uint16, 2 uint32, 4 uint64;
// CUtensorMapSwizzle: 0 none, 1 32B, 2 64B, 3 128B; interleave, L2
// promotion and the out-of-bounds fill 0: none, none, zeros).
using PFN_cuTensorMapEncodeTiled = CUresult (*)(
    void *tensorMap, int dataType, unsigned rank, void *globalAddress,
    const std::uint64_t *globalDim, const std::uint64_t *globalStrides,
    const unsigned *boxDim, const unsigned *elementStrides, int interleave,
    int swizzle, int l2Promotion, int oobFill);

using PFN_cuStreamCreate = CUresult (*)(CUstream *stream, unsigned flags);
using PFN_cuStreamDestroy = CUresult (*)(CUstream stream);
using PFN_cuStreamSynchronize = CUresult (*)(CUstream stream);

using PFN_cuEventCreate = CUresult (*)(CUevent *event, unsigned flags);
using PFN_cuEventRecord = CUresult (*)(CUevent event, CUstream stream);
using PFN_cuEventSynchronize = CUresult (*)(CUevent event);
using PFN_cuEventElapsedTime = CUresult (*)(float *milliseconds,
                                            CUevent start, CUevent end);
using PFN_cuEventDestroy = CUresult (*)(CUevent event);
} // namespace terrazzo::runtime::cuda

#endif // TERRAZZO_RUNTIME_CUDADRIVERAPI_H
