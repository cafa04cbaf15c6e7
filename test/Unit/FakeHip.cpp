// A fake HIP library for the runtime's tests (libamdhip64.so built by the
// tests, loaded through TERRAZZO_HIP_LIBRARY or the library search path). It
// exports the hip* functions the runtime resolves, behaves as a HIP with
// devices of host memory would, and records what it was asked: every call in
// order, the bytes of the last module loaded, and each launch's kernel, grid,
// block, shared memory, stream, device and argument values, read through the
// kernelParams pointers with the sizes the module declares.
//
// A module ("code object") is NUL-terminated text:
//   fake-hsaco
//   kernel NAME SIZE[,SIZE...]   one line per kernel: its arguments' sizes
// or a real AMDGPU code object (an ELF for EM_AMDGPU, as the compiler's
// hsaco): its kernels are the symbols NAME.kd (kernel descriptors), their
// static LDS the descriptor's group segment size, and their arguments' sizes
// those of TERRAZZO_FAKE_HIP_ARG_SIZES ("8,8,4"), since the fake does not
// read the code object's metadata.
//
// Set by environment variables, read at every call:
//   TERRAZZO_FAKE_HIP_DEVICES  number of devices (default 1)
//   TERRAZZO_FAKE_HIP_ARCH     gcnArchName (default gfx942:sramecc+:xnack-)
//   TERRAZZO_FAKE_HIP_FAIL     failures to inject: "hipCall=code,..."; the
//                              named calls return that code
// Variants: FAKE_HIP_ROCM5 exports hipGetDeviceProperties with ROCm 5's layout
// and no hipGetDevicePropertiesR0600; FAKE_HIP_WITHOUT_LAUNCH exports no
// hipModuleLaunchKernel (nor hipModuleLaunchCooperativeKernel).
//
// The tests read the records through the terrazzo_fake_hip_* functions (see
// FakeHip.h).
#include "FakeHip.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#define FAKE_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

// hipError_t values (those of hip_runtime_api.h).
constexpr int kSuccess = 0;
constexpr int kInvalidValue = 1;
constexpr int kOutOfMemory = 2;
constexpr int kInvalidConfiguration = 9;
constexpr int kInvalidDeviceFunction = 98;
constexpr int kNoDevice = 100;
constexpr int kInvalidDevice = 101;
constexpr int kInvalidImage = 200;
constexpr int kInvalidHandle = 400;
constexpr int kNotFound = 500;

struct ErrorEntry {
  int code;
  const char *name;
  const char *text;
};
constexpr ErrorEntry kErrors[] = {
    {0, "hipSuccess", "no error"},
    {1, "hipErrorInvalidValue", "invalid argument"},
    {2, "hipErrorOutOfMemory", "out of memory"},
    {3, "hipErrorNotInitialized", "initialization error"},
    {9, "hipErrorInvalidConfiguration", "invalid configuration argument"},
    {98, "hipErrorInvalidDeviceFunction", "invalid device function"},
    {100, "hipErrorNoDevice", "no ROCm-capable device is detected"},
    {101, "hipErrorInvalidDevice", "invalid device ordinal"},
    {200, "hipErrorInvalidImage", "device kernel image is invalid"},
    {209, "hipErrorNoBinaryForGpu",
     "no kernel image is available for execution on the device"},
    {400, "hipErrorInvalidHandle", "invalid resource handle"},
    {500, "hipErrorNotFound", "named symbol not found"},
    {700, "hipErrorIllegalAddress", "an illegal memory access was encountered"},
    {701, "hipErrorLaunchOutOfResources",
     "too many resources requested for launch"},
    {719, "hipErrorLaunchFailure", "unspecified launch failure"},
};
const ErrorEntry kUnknown = {999, "hipErrorUnknown", "unknown error"};

const ErrorEntry &errorEntry(int code) {
  for (const ErrorEntry &entry : kErrors)
    if (entry.code == code)
      return entry;
  return kUnknown;
}

struct Kernel {
  std::string name;
  std::vector<int> argumentSizes;
  int staticSharedBytes = 0;
  int maxDynamicSharedBytes = 64 * 1024;
  struct Module *module = nullptr;
};

struct Module {
  int device = 0;
  std::vector<std::unique_ptr<Kernel>> kernels;
};

struct Stream {
  int device = 0;
};

struct Event {
  std::chrono::steady_clock::time_point time;
  bool recorded = false;
};

struct Allocation {
  std::size_t size = 0;
  int device = 0;
};

struct State {
  std::mutex mutex;
  std::string calls;
  std::string image;
  int launches = 0;
  FakeHipLaunch last;
  std::string lastKernel;
  std::map<std::uintptr_t, Allocation> allocations;
};

State &state() {
  static State *s = new State();
  return *s;
}

thread_local int t_device = 0;

int deviceCount() {
  const char *text = std::getenv("TERRAZZO_FAKE_HIP_DEVICES");
  return text && *text ? std::atoi(text) : 1;
}

std::string archName() {
  const char *text = std::getenv("TERRAZZO_FAKE_HIP_ARCH");
  return text && *text ? text : "gfx942:sramecc+:xnack-";
}

/// LDS a kernel may opt in to: 160 KiB on gfx950, else 64 KiB.
int optinSharedBytes() {
  return archName().rfind("gfx950", 0) == 0 ? 160 * 1024 : 64 * 1024;
}

/// Appends "call(details)" to the call log and returns the code injected for
/// `call` by TERRAZZO_FAKE_HIP_FAIL, or 0.
int enter(const char *call, const std::string &details = {}) {
  State &s = state();
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.calls.empty())
      s.calls += ' ';
    s.calls += call;
    if (!details.empty())
      s.calls += "(" + details + ")";
  }
  const char *fail = std::getenv("TERRAZZO_FAKE_HIP_FAIL");
  if (!fail)
    return 0;
  std::string spec = fail;
  std::string prefix = std::string(call) + "=";
  std::size_t at = 0;
  while (at < spec.size()) {
    std::size_t end = spec.find(',', at);
    std::string item = spec.substr(at, end == std::string::npos ? end : end - at);
    if (item.rfind(prefix, 0) == 0)
      return std::atoi(item.c_str() + prefix.size());
    if (end == std::string::npos)
      break;
    at = end + 1;
  }
  return 0;
}

bool validDevice(int device) { return device >= 0 && device < deviceCount(); }

/// The allocation holding `address`, or null.
const Allocation *findAllocation(std::uintptr_t address,
                                 std::uintptr_t *base = nullptr) {
  State &s = state();
  auto it = s.allocations.upper_bound(address);
  if (it == s.allocations.begin())
    return nullptr;
  --it;
  if (address >= it->first + it->second.size)
    return nullptr;
  if (base)
    *base = it->first;
  return &it->second;
}

std::vector<int> parseSizes(const std::string &list) {
  std::vector<int> sizes;
  std::istringstream in(list);
  std::string size;
  while (std::getline(in, size, ','))
    sizes.push_back(std::atoi(size.c_str()));
  return sizes;
}

template <typename T> T readAt(const unsigned char *bytes, std::size_t at) {
  T value;
  std::memcpy(&value, bytes + at, sizeof(T));
  return value;
}

/// The size of an ELF64 image: up to the end of its furthest section or of
/// its section header table.
std::size_t elfSize(const unsigned char *elf) {
  auto shoff = readAt<std::uint64_t>(elf, 0x28);
  auto shentsize = readAt<std::uint16_t>(elf, 0x3A);
  auto shnum = readAt<std::uint16_t>(elf, 0x3C);
  std::size_t size = shoff + std::size_t(shentsize) * shnum;
  for (unsigned i = 0; i < shnum; ++i) {
    const unsigned char *section = elf + shoff + std::size_t(i) * shentsize;
    if (readAt<std::uint32_t>(section, 4) == 8) // SHT_NOBITS
      continue;
    size = std::max<std::size_t>(size, readAt<std::uint64_t>(section, 24) +
                                           readAt<std::uint64_t>(section, 32));
  }
  return size;
}

/// Reads the kernels of an AMDGPU ELF (the symbols NAME.kd); false when it
/// is not one.
bool parseElf(const unsigned char *elf, Module &module) {
  constexpr std::uint16_t kEmAmdgpu = 224;
  if (elf[4] != 2 || elf[5] != 1 || readAt<std::uint16_t>(elf, 0x12) != kEmAmdgpu)
    return false;
  auto shoff = readAt<std::uint64_t>(elf, 0x28);
  auto shentsize = readAt<std::uint16_t>(elf, 0x3A);
  auto shnum = readAt<std::uint16_t>(elf, 0x3C);
  auto section = [&](unsigned i) {
    return elf + shoff + std::size_t(i) * shentsize;
  };
  const char *sizes = std::getenv("TERRAZZO_FAKE_HIP_ARG_SIZES");
  for (unsigned i = 0; i < shnum; ++i) {
    auto type = readAt<std::uint32_t>(section(i), 4);
    if (type != 2 && type != 11) // SHT_SYMTAB, SHT_DYNSYM
      continue;
    const unsigned char *symbols = elf + readAt<std::uint64_t>(section(i), 24);
    std::size_t count = readAt<std::uint64_t>(section(i), 32) / 24;
    const char *names = reinterpret_cast<const char *>(
        elf + readAt<std::uint64_t>(section(readAt<std::uint32_t>(section(i), 40)),
                                    24));
    for (std::size_t k = 0; k < count; ++k) {
      const unsigned char *symbol = symbols + 24 * k;
      std::string name = names + readAt<std::uint32_t>(symbol, 0);
      if (name.size() < 4 || name.compare(name.size() - 3, 3, ".kd") != 0)
        continue;
      auto kernel = std::make_unique<Kernel>();
      kernel->name = name.substr(0, name.size() - 3);
      kernel->module = &module;
      kernel->argumentSizes = parseSizes(sizes ? sizes : "");
      // The descriptor's first word: its group segment (static LDS) size.
      auto index = readAt<std::uint16_t>(symbol, 6);
      const unsigned char *holder = section(index);
      std::size_t at = readAt<std::uint64_t>(holder, 24) +
                       (readAt<std::uint64_t>(symbol, 8) -
                        readAt<std::uint64_t>(holder, 16));
      kernel->staticSharedBytes = int(readAt<std::uint32_t>(elf, at));
      module.kernels.push_back(std::move(kernel));
    }
  }
  return !module.kernels.empty();
}

/// Parses a module's text; false when it is no fake code object.
bool parseModule(const char *text, Module &module) {
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line) || line != "fake-hsaco")
    return false;
  while (std::getline(in, line)) {
    if (line.empty())
      continue;
    std::istringstream words(line);
    std::string keyword, name, sizes;
    if (!(words >> keyword >> name) || keyword != "kernel")
      return false;
    auto kernel = std::make_unique<Kernel>();
    kernel->name = name;
    kernel->module = &module;
    if (words >> sizes)
      kernel->argumentSizes = parseSizes(sizes);
    module.kernels.push_back(std::move(kernel));
  }
  return true;
}

/// Writes the device-properties field gcnArchName at `offset`.
int fillProperties(void *properties, int device, std::size_t offset) {
  if (!properties)
    return kInvalidValue;
  if (!validDevice(device))
    return kInvalidDevice;
  std::string arch = archName();
  std::strncpy(static_cast<char *>(properties), "Fake AMD Instinct", 256);
  std::strncpy(static_cast<char *>(properties) + offset, arch.c_str(), 255);
  return kSuccess;
}

} // namespace

//===----------------------------------------------------------------------===//
// The HIP API
//===----------------------------------------------------------------------===//

FAKE_EXPORT int hipInit(unsigned flags) {
  if (int code = enter("hipInit"))
    return code;
  return flags == 0 ? kSuccess : kInvalidValue;
}

FAKE_EXPORT int hipDriverGetVersion(int *version) {
  if (int code = enter("hipDriverGetVersion"))
    return code;
  *version = 60342134;
  return kSuccess;
}

FAKE_EXPORT const char *hipGetErrorName(int code) {
  return errorEntry(code).name;
}

FAKE_EXPORT const char *hipGetErrorString(int code) {
  return errorEntry(code).text;
}

FAKE_EXPORT int hipGetDeviceCount(int *count) {
  if (int code = enter("hipGetDeviceCount"))
    return code;
  *count = deviceCount();
  return *count > 0 ? kSuccess : kNoDevice;
}

FAKE_EXPORT int hipGetDevice(int *device) {
  if (int code = enter("hipGetDevice"))
    return code;
  *device = t_device;
  return kSuccess;
}

FAKE_EXPORT int hipSetDevice(int device) {
  if (int code = enter("hipSetDevice", std::to_string(device)))
    return code;
  if (!validDevice(device))
    return kInvalidDevice;
  t_device = device;
  return kSuccess;
}

FAKE_EXPORT int hipDeviceGetName(char *name, int length, int device) {
  if (int code = enter("hipDeviceGetName", std::to_string(device)))
    return code;
  if (!validDevice(device))
    return kInvalidDevice;
  std::string text = "Fake AMD Instinct (" + archName() + ")";
  std::strncpy(name, text.c_str(), std::size_t(length));
  return kSuccess;
}

FAKE_EXPORT int hipDeviceGetAttribute(int *value, int attribute, int device) {
  if (int code = enter("hipDeviceGetAttribute",
                       std::to_string(attribute) + "," +
                           std::to_string(device)))
    return code;
  if (!validDevice(device))
    return kInvalidDevice;
  switch (attribute) {
  case 23: // hipDeviceAttributeComputeCapabilityMajor
    *value = 9;
    return kSuccess;
  case 61: // hipDeviceAttributeComputeCapabilityMinor
    *value = 4;
    return kSuccess;
  case 56: // hipDeviceAttributeMaxThreadsPerBlock
    *value = 1024;
    return kSuccess;
  case 63: // hipDeviceAttributeMultiprocessorCount
    *value = 304;
    return kSuccess;
  case 74: // hipDeviceAttributeMaxSharedMemoryPerBlock
    *value = 64 * 1024;
    return kSuccess;
  case 75: // hipDeviceAttributeSharedMemPerBlockOptin
    *value = optinSharedBytes();
    return kSuccess;
  case 87: // hipDeviceAttributeWarpSize
    *value = 64;
    return kSuccess;
  // An MI300X's answers.
  case 5: // hipDeviceAttributeClockRate (kHz)
    *value = 2100000;
    return kSuccess;
  case 57: // hipDeviceAttributeMaxThreadsPerMultiProcessor
    *value = 2048;
    return kSuccess;
  case 59: // hipDeviceAttributeMemoryBusWidth (bits)
    *value = 8192;
    return kSuccess;
  case 60: // hipDeviceAttributeMemoryClockRate (kHz)
    *value = 1300000;
    return kSuccess;
  case 71: // hipDeviceAttributeMaxRegistersPerBlock
    *value = 65536;
    return kSuccess;
  }
  return kInvalidValue;
}

FAKE_EXPORT int hipDeviceTotalMem(std::size_t *bytes, int device) {
  if (int code = enter("hipDeviceTotalMem", std::to_string(device)))
    return code;
  if (!validDevice(device))
    return kInvalidDevice;
  *bytes = std::size_t(192) << 30;
  return kSuccess;
}

// ROCm 5's layout (hipDeviceProp_t of 5.x, kept by ROCm 6 under this name):
// gcnArchName at byte 396.
FAKE_EXPORT int hipGetDeviceProperties(void *properties, int device) {
  if (int code = enter("hipGetDeviceProperties", std::to_string(device)))
    return code;
  return fillProperties(properties, device, 396);
}

#ifndef FAKE_HIP_ROCM5
// ROCm 6's layout: gcnArchName at byte 1160.
FAKE_EXPORT int hipGetDevicePropertiesR0600(void *properties, int device) {
  if (int code = enter("hipGetDevicePropertiesR0600", std::to_string(device)))
    return code;
  return fillProperties(properties, device, 1160);
}
#endif

FAKE_EXPORT int hipDeviceSynchronize() { return enter("hipDeviceSynchronize"); }

FAKE_EXPORT int hipPointerGetAttribute(void *data, int attribute,
                                       void *pointer) {
  if (int code = enter("hipPointerGetAttribute", std::to_string(attribute)))
    return code;
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  std::uintptr_t base = 0;
  const Allocation *allocation =
      findAllocation(reinterpret_cast<std::uintptr_t>(pointer), &base);
  if (!allocation)
    return kInvalidValue;
  if (attribute == 9) { // HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL
    *static_cast<int *>(data) = allocation->device;
    return kSuccess;
  }
  if (attribute == 3) { // HIP_POINTER_ATTRIBUTE_DEVICE_POINTER
    *static_cast<void **>(data) = pointer;
    return kSuccess;
  }
  return kInvalidValue;
}

FAKE_EXPORT int hipModuleLoadData(void **module, const void *image) {
  if (int code = enter("hipModuleLoadData", std::to_string(t_device)))
    return code;
  if (!module || !image)
    return kInvalidValue;
  const char *text = static_cast<const char *>(image);
  const auto *bytes = static_cast<const unsigned char *>(image);
  bool elf = std::memcmp(bytes, "\x7f" "ELF", 4) == 0;
  {
    State &s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    s.image.assign(text, elf ? elfSize(bytes) : strnlen(text, 1 << 20));
  }
  auto loaded = std::make_unique<Module>();
  loaded->device = t_device;
  if (elf ? !parseElf(bytes, *loaded) : !parseModule(text, *loaded))
    return kInvalidImage;
  *module = loaded.release();
  return kSuccess;
}

FAKE_EXPORT int hipModuleUnload(void *module) {
  if (int code = enter("hipModuleUnload", std::to_string(t_device)))
    return code;
  if (!module)
    return kInvalidHandle;
  delete static_cast<Module *>(module);
  return kSuccess;
}

FAKE_EXPORT int hipModuleGetFunction(void **function, void *module,
                                     const char *name) {
  if (int code = enter("hipModuleGetFunction", name ? name : "null"))
    return code;
  if (!module || !name)
    return kInvalidValue;
  for (auto &kernel : static_cast<Module *>(module)->kernels)
    if (kernel->name == name) {
      *function = kernel.get();
      return kSuccess;
    }
  return kNotFound;
}

FAKE_EXPORT int hipFuncGetAttribute(int *value, int attribute,
                                    void *function) {
  if (int code = enter("hipFuncGetAttribute", std::to_string(attribute)))
    return code;
  auto *kernel = static_cast<Kernel *>(function);
  if (!kernel)
    return kInvalidDeviceFunction;
  switch (attribute) {
  case 0: // HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK
    *value = 1024;
    return kSuccess;
  case 1: // HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES
    *value = kernel->staticSharedBytes;
    return kSuccess;
  case 3: // HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES
    *value = 0;
    return kSuccess;
  case 4: // HIP_FUNC_ATTRIBUTE_NUM_REGS
    *value = 32;
    return kSuccess;
  case 8: // HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
    *value = kernel->maxDynamicSharedBytes;
    return kSuccess;
  }
  return kInvalidValue;
}

FAKE_EXPORT int hipFuncSetAttribute(const void *function, int attribute,
                                    int value) {
  if (int code = enter("hipFuncSetAttribute",
                       std::to_string(attribute) + "," + std::to_string(value)))
    return code;
  auto *kernel = static_cast<Kernel *>(const_cast<void *>(function));
  if (!kernel)
    return kInvalidDeviceFunction;
  // hipFuncAttributeMaxDynamicSharedMemorySize, up to the device's opt-in.
  if (attribute != 8 || value < 0 || value > optinSharedBytes())
    return kInvalidValue;
  kernel->maxDynamicSharedBytes = value;
  return kSuccess;
}

#ifndef FAKE_HIP_WITHOUT_LAUNCH
namespace {
/// A launch through `call` (hipModuleLaunchKernel or its cooperative
/// form), checked and recorded alike.
int launchAs(const char *call, void *function, unsigned gridX, unsigned gridY,
             unsigned gridZ, unsigned blockX, unsigned blockY, unsigned blockZ,
             unsigned sharedBytes, void *stream, void **kernelParams,
             void **extra) {
  auto *kernel = static_cast<Kernel *>(function);
  if (int code = enter(call, kernel ? kernel->name : std::string("null")))
    return code;
  if (!kernel)
    return kInvalidDeviceFunction;
  // A kernel runs on the device its module was loaded on.
  if (kernel->module->device != t_device)
    return kInvalidDeviceFunction;
  if (stream && static_cast<Stream *>(stream)->device != t_device)
    return kInvalidHandle;
  if (!gridX || !gridY || !gridZ || !blockX || !blockY || !blockZ ||
      std::uint64_t(blockX) * blockY * blockZ > 1024 || extra)
    return kInvalidConfiguration;
  if (int(sharedBytes) > kernel->maxDynamicSharedBytes)
    return kInvalidValue;
  std::size_t argc = kernel->argumentSizes.size();
  if (argc > kFakeHipMaxArguments || (argc && !kernelParams))
    return kInvalidValue;

  FakeHipLaunch launch;
  launch.grid[0] = gridX;
  launch.grid[1] = gridY;
  launch.grid[2] = gridZ;
  launch.block[0] = blockX;
  launch.block[1] = blockY;
  launch.block[2] = blockZ;
  launch.sharedBytes = sharedBytes;
  launch.stream = reinterpret_cast<std::uintptr_t>(stream);
  launch.device = t_device;
  launch.argumentCount = int(argc);
  for (std::size_t k = 0; k < argc; ++k) {
    int size = kernel->argumentSizes[k];
    launch.argumentSizes[k] = size;
    std::uint64_t value = 0;
    std::memcpy(&value, kernelParams[k],
                std::size_t(size) < sizeof(value) ? std::size_t(size)
                                                  : sizeof(value));
    launch.arguments[k] = value;
  }
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.last = launch;
  s.lastKernel = kernel->name;
  ++s.launches;
  return kSuccess;
}
} // namespace

FAKE_EXPORT int hipModuleLaunchKernel(void *function, unsigned gridX,
                                      unsigned gridY, unsigned gridZ,
                                      unsigned blockX, unsigned blockY,
                                      unsigned blockZ, unsigned sharedBytes,
                                      void *stream, void **kernelParams,
                                      void **extra) {
  return launchAs("hipModuleLaunchKernel", function, gridX, gridY, gridZ,
                  blockX, blockY, blockZ, sharedBytes, stream, kernelParams,
                  extra);
}

FAKE_EXPORT int hipModuleLaunchCooperativeKernel(
    void *function, unsigned gridX, unsigned gridY, unsigned gridZ,
    unsigned blockX, unsigned blockY, unsigned blockZ, unsigned sharedBytes,
    void *stream, void **kernelParams) {
  return launchAs("hipModuleLaunchCooperativeKernel", function, gridX, gridY,
                  gridZ, blockX, blockY, blockZ, sharedBytes, stream,
                  kernelParams, nullptr);
}
#endif

FAKE_EXPORT int hipMalloc(void **pointer, std::size_t bytes) {
  if (int code = enter("hipMalloc", std::to_string(bytes)))
    return code;
  if (!pointer)
    return kInvalidValue;
  void *memory = std::calloc(1, bytes ? bytes : 1);
  if (!memory)
    return kOutOfMemory;
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.allocations[reinterpret_cast<std::uintptr_t>(memory)] = {bytes, t_device};
  *pointer = memory;
  return kSuccess;
}

FAKE_EXPORT int hipFree(void *pointer) {
  if (int code = enter("hipFree"))
    return code;
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto it = s.allocations.find(reinterpret_cast<std::uintptr_t>(pointer));
  if (it == s.allocations.end())
    return kInvalidValue;
  s.allocations.erase(it);
  std::free(pointer);
  return kSuccess;
}

namespace {

/// Whether [address, address + bytes) lies in one allocation.
bool isDeviceRange(const void *address, std::size_t bytes) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  std::uintptr_t base = 0;
  auto start = reinterpret_cast<std::uintptr_t>(address);
  const Allocation *allocation = findAllocation(start, &base);
  return allocation && start + bytes <= base + allocation->size;
}

} // namespace

FAKE_EXPORT int hipMemcpyHtoD(void *destination, void *source,
                              std::size_t bytes) {
  if (int code = enter("hipMemcpyHtoD", std::to_string(bytes)))
    return code;
  if (!isDeviceRange(destination, bytes))
    return kInvalidValue;
  std::memcpy(destination, source, bytes);
  return kSuccess;
}

FAKE_EXPORT int hipMemcpyDtoH(void *destination, void *source,
                              std::size_t bytes) {
  if (int code = enter("hipMemcpyDtoH", std::to_string(bytes)))
    return code;
  if (!isDeviceRange(source, bytes))
    return kInvalidValue;
  std::memcpy(destination, source, bytes);
  return kSuccess;
}

FAKE_EXPORT int hipMemcpyDtoD(void *destination, void *source,
                              std::size_t bytes) {
  if (int code = enter("hipMemcpyDtoD", std::to_string(bytes)))
    return code;
  if (!isDeviceRange(destination, bytes) || !isDeviceRange(source, bytes))
    return kInvalidValue;
  std::memmove(destination, source, bytes);
  return kSuccess;
}

FAKE_EXPORT int hipMemsetD8(void *destination, unsigned char value,
                            std::size_t bytes) {
  if (int code = enter("hipMemsetD8", std::to_string(bytes)))
    return code;
  if (!isDeviceRange(destination, bytes))
    return kInvalidValue;
  std::memset(destination, value, bytes);
  return kSuccess;
}

FAKE_EXPORT int hipStreamCreateWithFlags(void **stream, unsigned flags) {
  if (int code = enter("hipStreamCreateWithFlags", std::to_string(flags)))
    return code;
  if (!stream || flags > 1)
    return kInvalidValue;
  *stream = new Stream{t_device};
  return kSuccess;
}

FAKE_EXPORT int hipStreamDestroy(void *stream) {
  if (int code = enter("hipStreamDestroy"))
    return code;
  if (!stream)
    return kInvalidHandle;
  delete static_cast<Stream *>(stream);
  return kSuccess;
}

FAKE_EXPORT int hipStreamSynchronize(void *stream) {
  (void)stream;
  return enter("hipStreamSynchronize");
}

FAKE_EXPORT int hipEventCreate(void **event) {
  if (int code = enter("hipEventCreate"))
    return code;
  *event = new Event();
  return kSuccess;
}

FAKE_EXPORT int hipEventDestroy(void *event) {
  if (int code = enter("hipEventDestroy"))
    return code;
  delete static_cast<Event *>(event);
  return kSuccess;
}

FAKE_EXPORT int hipEventRecord(void *event, void *stream) {
  (void)stream;
  if (int code = enter("hipEventRecord"))
    return code;
  auto *e = static_cast<Event *>(event);
  e->time = std::chrono::steady_clock::now();
  e->recorded = true;
  return kSuccess;
}

FAKE_EXPORT int hipEventSynchronize(void *event) {
  (void)event;
  return enter("hipEventSynchronize");
}

FAKE_EXPORT int hipEventElapsedTime(float *milliseconds, void *start,
                                    void *stop) {
  if (int code = enter("hipEventElapsedTime"))
    return code;
  auto *a = static_cast<Event *>(start);
  auto *b = static_cast<Event *>(stop);
  if (!a->recorded || !b->recorded)
    return kInvalidHandle;
  *milliseconds =
      std::chrono::duration<float, std::milli>(b->time - a->time).count();
  return kSuccess;
}

//===----------------------------------------------------------------------===//
// What the tests read
//===----------------------------------------------------------------------===//

FAKE_EXPORT void terrazzo_fake_hip_reset() {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.calls.clear();
  s.image.clear();
  s.launches = 0;
  s.last = FakeHipLaunch();
  s.lastKernel.clear();
}

FAKE_EXPORT const char *terrazzo_fake_hip_calls() {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  static thread_local std::string copy;
  copy = s.calls;
  return copy.c_str();
}

FAKE_EXPORT std::size_t terrazzo_fake_hip_image(char *buffer,
                                                std::size_t capacity) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (buffer && capacity)
    std::memcpy(buffer, s.image.data(),
                s.image.size() < capacity ? s.image.size() : capacity);
  return s.image.size();
}

FAKE_EXPORT int terrazzo_fake_hip_launches() {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.launches;
}

FAKE_EXPORT int terrazzo_fake_hip_last_launch(FakeHipLaunch *launch,
                                              char *kernel,
                                              std::size_t capacity) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.launches)
    return 0;
  *launch = s.last;
  if (kernel && capacity) {
    std::strncpy(kernel, s.lastKernel.c_str(), capacity - 1);
    kernel[capacity - 1] = '\0';
  }
  return 1;
}

FAKE_EXPORT int terrazzo_fake_hip_allocations() {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  return int(s.allocations.size());
}
