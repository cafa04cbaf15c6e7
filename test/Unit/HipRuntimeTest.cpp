// Tests of the runtime's HIP platform against the fake HIP library the tests
// build (FakeHip.cpp): this process loads it through TERRAZZO_HIP_LIBRARY, and
// each case checks what the fake received (module bytes, kernel, grid, block,
// shared memory, stream, the argument values behind kernelParams) and the
// runtime's messages for the failures the fake injects. Loading failures
// (library missing, symbols missing, hipInit failing) run in child
// processes (ChildProcess.h), since initialize() runs once per process.
#include "ChildProcess.h"
#include "FakeHip.h"
#include "terrazzo/AOT.h"
#include "terrazzo/Runtime.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace terrazzo::runtime;
using terrazzo::test::ChildReport;
using terrazzo::test::runChild;

namespace {

// Paths of the fake's builds (test/Unit/CMakeLists.txt).
constexpr const char *kFakeHip = TERRAZZO_FAKE_HIP;
constexpr const char *kFakeHipDirectory = TERRAZZO_FAKE_HIP_DIRECTORY;
constexpr const char *kFakeHipRocm5 = TERRAZZO_FAKE_HIP_ROCM5;
constexpr const char *kFakeHipWithoutLaunch = TERRAZZO_FAKE_HIP_WITHOUT_LAUNCH;
// An hsaco assembled from FakeHipKernel.s.
constexpr const char *kFakeHipKernel = TERRAZZO_FAKE_HIP_KERNEL;

/// This process's HIP is the fake (children set their own).
[[maybe_unused]] const bool kUseFake = [] {
  if (!std::getenv(terrazzo::test::kChildVariable))
    setenv("TERRAZZO_HIP_LIBRARY", kFakeHip, 1);
  return true;
}();

/// The fake's records, read through the functions it exports for tests.
struct Fake {
  FakeHipReset reset = nullptr;
  FakeHipCalls calls = nullptr;
  FakeHipImage image = nullptr;
  FakeHipLaunches launches = nullptr;
  FakeHipLastLaunch lastLaunch = nullptr;
  FakeHipAllocations allocations = nullptr;

  static Fake &get() {
    static Fake fake = [] {
      Fake f;
      // The library the runtime loaded: same path, same handle.
      void *library = dlopen(kFakeHip, RTLD_NOW | RTLD_LOCAL);
      if (!library)
        return f;
      f.reset = reinterpret_cast<FakeHipReset>(
          dlsym(library, "terrazzo_fake_hip_reset"));
      f.calls = reinterpret_cast<FakeHipCalls>(
          dlsym(library, "terrazzo_fake_hip_calls"));
      f.image = reinterpret_cast<FakeHipImage>(
          dlsym(library, "terrazzo_fake_hip_image"));
      f.launches = reinterpret_cast<FakeHipLaunches>(
          dlsym(library, "terrazzo_fake_hip_launches"));
      f.lastLaunch = reinterpret_cast<FakeHipLastLaunch>(
          dlsym(library, "terrazzo_fake_hip_last_launch"));
      f.allocations = reinterpret_cast<FakeHipAllocations>(
          dlsym(library, "terrazzo_fake_hip_allocations"));
      return f;
    }();
    return fake;
  }

  bool loaded() const { return reset && calls && lastLaunch; }

  std::string lastImage() const {
    std::string bytes(image(nullptr, 0), '\0');
    image(bytes.data(), bytes.size());
    return bytes;
  }
};

/// A fake code object (FakeHip.cpp) with kernels and their argument sizes.
const char kAffineImage[] = "fake-hsaco\n"
                            "kernel affine 8,8,4\n"
                            "kernel scale 8,4,8,1\n";

/// Sets an environment variable of the fake for one case.
class ScopedEnvironment {
public:
  ScopedEnvironment(const char *name, const char *value) : name_(name) {
    const char *old = std::getenv(name);
    hadOld_ = old != nullptr;
    if (old)
      old_ = old;
    setenv(name, value, 1);
  }
  ~ScopedEnvironment() {
    if (hadOld_)
      setenv(name_, old_.c_str(), 1);
    else
      unsetenv(name_);
  }

private:
  const char *name_;
  std::string old_;
  bool hadOld_ = false;
};

class HipRuntimeTest : public ::testing::Test {
protected:
  void SetUp() override {
    Status status = initialize(Platform::Hip);
    ASSERT_TRUE(status.ok()) << "the fake HIP library (" << kFakeHip
                             << ") did not initialize: " << status.message;
    ASSERT_TRUE(Fake::get().loaded()) << "cannot read the fake's records";
    Fake::get().reset();
  }

  static std::string calls() { return Fake::get().calls(); }

  static Module loadAffine() {
    Result<Module> module =
        Module::load(kAffineImage, sizeof(kAffineImage), Platform::Hip);
    EXPECT_TRUE(module.ok()) << module.status.message;
    return std::move(module.value);
  }

  static Function function(const Module &module, const char *name) {
    Result<Function> function = module.getFunction(name);
    EXPECT_TRUE(function.ok()) << function.status.message;
    return function.value;
  }

  /// The last launch the fake saw; `kernel` gets its name.
  static FakeHipLaunch lastLaunch(std::string &kernel) {
    FakeHipLaunch launch;
    char name[128] = {};
    EXPECT_EQ(Fake::get().lastLaunch(&launch, name, sizeof(name)), 1)
        << "no launch reached the fake";
    kernel = name;
    return launch;
  }
};

//===----------------------------------------------------------------------===//
// Platforms
//===----------------------------------------------------------------------===//

TEST(HipPlatform, TargetsNameTheirPlatform) {
  EXPECT_STREQ(platformName(Platform::Cuda), "cuda");
  EXPECT_STREQ(platformName(Platform::Hip), "hip");
  for (const char *target : {"cuda:80", "cuda:90", "cuda:100"}) {
    Result<Platform> platform = platformOfTarget(target);
    ASSERT_TRUE(platform.ok()) << platform.status.message;
    EXPECT_EQ(platform.value, Platform::Cuda) << target;
  }
  for (const char *target : {"hip:gfx90a", "hip:gfx942", "hip:gfx950"}) {
    Result<Platform> platform = platformOfTarget(target);
    ASSERT_TRUE(platform.ok()) << platform.status.message;
    EXPECT_EQ(platform.value, Platform::Hip) << target;
  }
  for (const char *target : {"", "hip:", "cuda", "rocm:gfx942", "gfx942"}) {
    Result<Platform> platform = platformOfTarget(target);
    ASSERT_FALSE(platform.ok()) << target;
    EXPECT_EQ(platform.status.message,
              std::string("target '") + target +
                  "' names no GPU platform: expected cuda:<capability> (e.g. "
                  "cuda:90) or hip:<processor> (e.g. hip:gfx942)");
  }
}

//===----------------------------------------------------------------------===//
// Tensor maps
//===----------------------------------------------------------------------===//

TEST_F(HipRuntimeTest, TensorMapsAreNvidiaOnly) {
  // A description CUDA would take: HIP says it has none; the checks that
  // need no driver come first on any platform.
  TensorMapDescription map;
  map.rank = 2;
  map.address = 0x10000;
  map.dims[0] = map.dims[1] = 64;
  map.strides[1] = 128;
  map.box[0] = map.box[1] = 64;
  map.elementBytes = 2;
  alignas(kTensorMapAlignment) unsigned char out[kTensorMapBytes + 1];
  Status status = encodeTensorMap(map, out, Platform::Hip);
  EXPECT_NE(status.message.find("HIP has no tensor maps"), std::string::npos)
      << status.message;
  status = encodeTensorMap(map, out + 1, Platform::Hip);
  EXPECT_NE(status.message.find("aligned to 64 bytes"), std::string::npos)
      << status.message;
  map.rank = 6;
  status = encodeTensorMap(map, out, Platform::Hip);
  EXPECT_NE(status.message.find("1 to 5 dimensions, not 6"), std::string::npos)
      << status.message;
}

//===----------------------------------------------------------------------===//
// Devices
//===----------------------------------------------------------------------===//

TEST_F(HipRuntimeTest, DeviceQueries) {
  EXPECT_TRUE(isAvailable(Platform::Hip));
  Result<int> count = deviceCount(Platform::Hip);
  ASSERT_TRUE(count.ok()) << count.status.message;
  EXPECT_EQ(count.value, 1);
  Result<int> version = driverVersion(Platform::Hip);
  ASSERT_TRUE(version.ok()) << version.status.message;
  EXPECT_EQ(version.value, 60342134);
  Result<int> current = currentDevice(Platform::Hip);
  ASSERT_TRUE(current.ok()) << current.status.message;
  EXPECT_EQ(current.value, 0);

  Fake::get().reset();
  Result<DeviceProperties> props = getDeviceProperties(0, Platform::Hip);
  ASSERT_TRUE(props.ok()) << props.status.message;
  const DeviceProperties &p = props.value;
  EXPECT_EQ(p.platform, Platform::Hip);
  EXPECT_EQ(p.name, "Fake AMD Instinct (gfx942:sramecc+:xnack-)");
  EXPECT_EQ(p.architecture, "gfx942:sramecc+:xnack-");
  EXPECT_EQ(p.target, "hip:gfx942");
  EXPECT_EQ(p.warpSize, 64);
  EXPECT_EQ(p.computeCapabilityMajor, 9);
  EXPECT_EQ(p.computeCapabilityMinor, 4);
  EXPECT_EQ(p.multiprocessorCount, 304);
  EXPECT_EQ(p.maxThreadsPerBlock, 1024);
  EXPECT_EQ(p.maxSharedMemoryPerBlock, 64 * 1024);
  EXPECT_EQ(p.maxSharedMemoryPerBlockOptin, 64 * 1024);
  EXPECT_EQ(p.totalMemoryBytes, std::size_t(192) << 30);
  EXPECT_EQ(p.maxRegistersPerBlock, 65536);
  EXPECT_EQ(p.maxThreadsPerMultiprocessor, 2048);
  EXPECT_EQ(p.clockRateKHz, 2100000);
  EXPECT_EQ(p.memoryClockRateKHz, 1300000);
  EXPECT_EQ(p.memoryBusWidthBits, 8192);
  // ROCm 6's layout where the library has it (the ROCm 5 layout: in a child
  // below).
  EXPECT_NE(calls().find("hipGetDevicePropertiesR0600(0)"), std::string::npos)
      << calls();

  {
    ScopedEnvironment arch("TERRAZZO_FAKE_HIP_ARCH", "gfx950");
    Result<DeviceProperties> gfx950 = getDeviceProperties(0, Platform::Hip);
    ASSERT_TRUE(gfx950.ok()) << gfx950.status.message;
    EXPECT_EQ(gfx950.value.target, "hip:gfx950");
    EXPECT_EQ(gfx950.value.maxSharedMemoryPerBlockOptin, 160 * 1024);
  }
  {
    // A library whose properties hold no architecture name where expected.
    ScopedEnvironment arch("TERRAZZO_FAKE_HIP_ARCH", "sm_90");
    Result<DeviceProperties> bad = getDeviceProperties(0, Platform::Hip);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.status.message.find("gave no gfx architecture name (got "
                                      "'sm_90')"),
              std::string::npos)
        << bad.status.message;
  }

  Result<DeviceProperties> invalid = getDeviceProperties(3, Platform::Hip);
  ASSERT_FALSE(invalid.ok());
  EXPECT_EQ(invalid.status.message,
            "hipDeviceGetName failed for device 3: hipErrorInvalidDevice "
            "(invalid device ordinal)");
  Status set = setCurrentDevice(2, Platform::Hip);
  EXPECT_EQ(set.message, "hipSetDevice failed for device 2: "
                         "hipErrorInvalidDevice (invalid device ordinal)");
}

TEST_F(HipRuntimeTest, DefaultPlatformIsHipWithoutCuda) {
  if (isAvailable(Platform::Cuda))
    GTEST_SKIP() << "a CUDA device is here: CUDA stays the default platform";
  EXPECT_EQ(defaultPlatform(), Platform::Hip);
}

//===----------------------------------------------------------------------===//
// Modules and launches
//===----------------------------------------------------------------------===//

TEST_F(HipRuntimeTest, LaunchPassesGridBlockStreamAndArguments) {
  Module module = loadAffine();
  ASSERT_TRUE(module.valid());
  EXPECT_EQ(module.platform(), Platform::Hip);
  // The fake received the image's bytes.
  EXPECT_EQ(Fake::get().lastImage(), std::string(kAffineImage));
  Function affine = function(module, "affine");
  ASSERT_TRUE(affine.valid());
  EXPECT_EQ(affine.platform(), Platform::Hip);
  EXPECT_EQ(affine.name(), "affine");

  Result<Stream> stream = Stream::create(false, Platform::Hip);
  ASSERT_TRUE(stream.ok()) << stream.status.message;

  std::mt19937_64 generator(std::random_device{}());
  for (int round = 0; round < 3; ++round) {
    std::uint64_t x = generator(), y = generator();
    std::uint32_t n = std::uint32_t(generator());
    unsigned grid[3] = {1 + unsigned(generator() % 5000),
                        1 + unsigned(generator() % 7), 1};
    // 4 warps of 64 lanes: the block of a num_warps=4 kernel on CDNA.
    unsigned block = 4 * 64;
    void *params[] = {&x, &y, &n};
    Status launched = affine.launch(grid[0], grid[1], grid[2], block, 1, 1,
                                    1024, stream.value.handle(), params);
    ASSERT_TRUE(launched.ok()) << launched.message;

    std::string kernel;
    FakeHipLaunch seen = lastLaunch(kernel);
    EXPECT_EQ(kernel, "affine");
    EXPECT_EQ(seen.grid[0], grid[0]);
    EXPECT_EQ(seen.grid[1], grid[1]);
    EXPECT_EQ(seen.grid[2], grid[2]);
    EXPECT_EQ(seen.block[0], block);
    EXPECT_EQ(seen.block[1], 1u);
    EXPECT_EQ(seen.block[2], 1u);
    EXPECT_EQ(seen.sharedBytes, 1024u);
    EXPECT_EQ(seen.stream,
              reinterpret_cast<std::uintptr_t>(stream.value.handle()));
    EXPECT_EQ(seen.device, 0);
    ASSERT_EQ(seen.argumentCount, 3);
    EXPECT_EQ(seen.arguments[0], x);
    EXPECT_EQ(seen.arguments[1], y);
    EXPECT_EQ(seen.arguments[2], n);
  }
  EXPECT_EQ(Fake::get().launches(), 3);
  EXPECT_TRUE(stream.value.synchronize().ok());

  // Arguments of mixed sizes, on the default stream.
  Function scale = function(module, "scale");
  std::uint64_t pointer = generator();
  float factor = 2.5f;
  std::int64_t offset = -1234567890123;
  bool flag = true;
  void *params[] = {&pointer, &factor, &offset, &flag};
  Status launched = scale.launch(3, 1, 1, 64, 1, 1, 0, nullptr, params);
  ASSERT_TRUE(launched.ok()) << launched.message;
  std::string kernel;
  FakeHipLaunch seen = lastLaunch(kernel);
  EXPECT_EQ(kernel, "scale");
  EXPECT_EQ(seen.stream, 0u);
  ASSERT_EQ(seen.argumentCount, 4);
  EXPECT_EQ(seen.arguments[0], pointer);
  float factorSeen;
  std::uint32_t factorBits = std::uint32_t(seen.arguments[1]);
  std::memcpy(&factorSeen, &factorBits, sizeof(factorSeen));
  EXPECT_EQ(factorSeen, factor);
  EXPECT_EQ(std::int64_t(seen.arguments[2]), offset);
  EXPECT_EQ(seen.arguments[3], 1u);

  // The calls, in order: load on device 0, look up, launch.
  std::string log = calls();
  size_t load = log.find("hipModuleLoadData(0)");
  size_t lookUp = log.find("hipModuleGetFunction(affine)");
  size_t launch = log.find("hipModuleLaunchKernel(affine)");
  EXPECT_NE(load, std::string::npos) << log;
  EXPECT_LT(load, lookUp) << log;
  EXPECT_LT(lookUp, launch) << log;
  // No kernel here asked for more LDS than every kernel gets.
  EXPECT_EQ(log.find("hipFuncSetAttribute"), std::string::npos) << log;
}

TEST_F(HipRuntimeTest, ElfCodeObject) {
  // A real hsaco (ELF for AMDGPU) goes to hipModuleLoadData whole.
  std::FILE *file = std::fopen(kFakeHipKernel, "rb");
  ASSERT_NE(file, nullptr) << kFakeHipKernel;
  std::string hsaco;
  char chunk[4096];
  for (size_t n; (n = std::fread(chunk, 1, sizeof(chunk), file)) > 0;)
    hsaco.append(chunk, n);
  std::fclose(file);
  ASSERT_EQ(hsaco.compare(0, 4, "\x7f" "ELF"), 0);

  ScopedEnvironment sizes("TERRAZZO_FAKE_HIP_ARG_SIZES", "8,8,4");
  Result<Module> module =
      Module::load(hsaco.data(), hsaco.size(), Platform::Hip);
  ASSERT_TRUE(module.ok()) << module.status.message;
  EXPECT_EQ(Fake::get().lastImage(), hsaco);
  Function affine = function(module.value, "affine");
  Result<Function::Attributes> attrs = affine.attributes();
  ASSERT_TRUE(attrs.ok()) << attrs.status.message;
  // .amdhsa_group_segment_fixed_size, as the code object says.
  EXPECT_EQ(attrs.value.staticSharedBytes, 4096);

  std::uint64_t x = 0x7000, y = 0x8000;
  std::uint32_t n = 1000;
  void *params[] = {&x, &y, &n};
  ASSERT_TRUE(affine.launch(4, 1, 1, 256, 1, 1, 0, nullptr, params).ok());
  std::string kernel;
  FakeHipLaunch seen = lastLaunch(kernel);
  EXPECT_EQ(kernel, "affine");
  ASSERT_EQ(seen.argumentCount, 3);
  EXPECT_EQ(seen.arguments[0], x);
  EXPECT_EQ(seen.arguments[1], y);
  EXPECT_EQ(seen.arguments[2], n);
}

TEST_F(HipRuntimeTest, FunctionAttributes) {
  Module module = loadAffine();
  Function affine = function(module, "affine");
  Result<int> registers = affine.numRegisters();
  ASSERT_TRUE(registers.ok()) << registers.status.message;
  EXPECT_EQ(registers.value, 32);
  Result<Function::Attributes> attrs = affine.attributes();
  ASSERT_TRUE(attrs.ok()) << attrs.status.message;
  EXPECT_EQ(attrs.value.numRegisters, 32);
  EXPECT_EQ(attrs.value.maxThreadsPerBlock, 1024);
  EXPECT_EQ(attrs.value.maxDynamicSharedBytes, 64 * 1024);

  ScopedEnvironment fail("TERRAZZO_FAKE_HIP_FAIL", "hipFuncGetAttribute=400");
  Result<int> failed = affine.numRegisters();
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status.message,
            "hipFuncGetAttribute failed (HIP_FUNC_ATTRIBUTE_NUM_REGS) for "
            "kernel 'affine': hipErrorInvalidHandle (invalid resource "
            "handle)");
}

TEST_F(HipRuntimeTest, DynamicLdsAboveTheDefaultIsReserved) {
  ScopedEnvironment arch("TERRAZZO_FAKE_HIP_ARCH", "gfx950:sramecc+:xnack-");
  Module module = loadAffine();
  Function affine = function(module, "affine");
  std::uint64_t x = 1, y = 2;
  std::uint32_t n = 3;
  void *params[] = {&x, &y, &n};

  // Up to 64 KiB every kernel may use: nothing to set.
  for (int bytes : {0, 32 * 1024, 64 * 1024}) {
    Status reserved = affine.reserveDynamicSharedMemory(bytes);
    ASSERT_TRUE(reserved.ok()) << reserved.message;
    Status launched =
        affine.launch(1, 1, 1, 256, 1, 1, unsigned(bytes), nullptr, params);
    EXPECT_TRUE(launched.ok()) << launched.message;
  }
  EXPECT_EQ(calls().find("hipFuncSetAttribute"), std::string::npos)
      << calls();

  // 96 KiB (gfx950 has 160): refused until the kernel asks for it.
  const int bytes = 96 * 1024;
  Status refused = affine.launch(2, 1, 1, 256, 1, 1, bytes, nullptr, params);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.message,
            "hipModuleLaunchKernel failed for kernel 'affine' (grid 2x1x1, "
            "block 256x1x1, 98304 bytes of dynamic shared memory, stream "
            "default): hipErrorInvalidValue (invalid argument)");
  Status reserved = affine.reserveDynamicSharedMemory(bytes);
  ASSERT_TRUE(reserved.ok()) << reserved.message;
  // hipFuncAttributeMaxDynamicSharedMemorySize is 8.
  EXPECT_NE(calls().find("hipFuncSetAttribute(8,98304)"), std::string::npos)
      << calls();
  Result<Function::Attributes> attrs = affine.attributes();
  ASSERT_TRUE(attrs.ok()) << attrs.status.message;
  EXPECT_EQ(attrs.value.maxDynamicSharedBytes, bytes);
  Status launched = affine.launch(2, 1, 1, 256, 1, 1, bytes, nullptr, params);
  ASSERT_TRUE(launched.ok()) << launched.message;
  std::string kernel;
  EXPECT_EQ(lastLaunch(kernel).sharedBytes, unsigned(bytes));

  // More than the device has.
  Status tooMuch = affine.setMaxDynamicSharedMemory(200 * 1024);
  EXPECT_EQ(tooMuch.message,
            "hipFuncSetAttribute failed "
            "(hipFuncAttributeMaxDynamicSharedMemorySize = 204800) for kernel "
            "'affine': hipErrorInvalidValue (invalid argument)");
}

TEST_F(HipRuntimeTest, LoadAndLookUpFailuresNameTheCall) {
  const char notAnImage[] = "this is no code object";
  Result<Module> bad =
      Module::load(notAnImage, sizeof(notAnImage), Platform::Hip);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status.message,
            "hipModuleLoadData failed for a 23-byte image on device 0: "
            "hipErrorInvalidImage (device kernel image is invalid)");

  {
    ScopedEnvironment fail("TERRAZZO_FAKE_HIP_FAIL", "hipModuleLoadData=209");
    Result<Module> wrongArch =
        Module::load(kAffineImage, sizeof(kAffineImage), Platform::Hip);
    ASSERT_FALSE(wrongArch.ok());
    EXPECT_EQ(wrongArch.status.message,
              "hipModuleLoadData failed for a " +
                  std::to_string(sizeof(kAffineImage)) +
                  "-byte image on device 0: hipErrorNoBinaryForGpu (no kernel "
                  "image is available for execution on the device)");
  }

  Result<Module> empty = Module::load(kAffineImage, 0, Platform::Hip);
  EXPECT_EQ(empty.status.message, "Module::load: the image is empty");

  Module module = loadAffine();
  Result<Function> missing = module.getFunction("no_such_kernel");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status.message,
            "hipModuleGetFunction failed for kernel 'no_such_kernel': "
            "hipErrorNotFound (named symbol not found)");
}

TEST_F(HipRuntimeTest, LaunchFailureNamesCallKernelAndConfiguration) {
  Module module = loadAffine();
  Function affine = function(module, "affine");
  Result<Stream> stream = Stream::create(true, Platform::Hip);
  ASSERT_TRUE(stream.ok()) << stream.status.message;
  EXPECT_NE(calls().find("hipStreamCreateWithFlags(1)"), std::string::npos)
      << calls();
  std::uint64_t x = 0, y = 0;
  std::uint32_t n = 0;
  void *params[] = {&x, &y, &n};

  ScopedEnvironment fail("TERRAZZO_FAKE_HIP_FAIL",
                         "hipModuleLaunchKernel=719");
  Status failed = affine.launch(3, 2, 1, 64, 1, 1, 0, nullptr, params);
  EXPECT_EQ(failed.message,
            "hipModuleLaunchKernel failed for kernel 'affine' (grid 3x2x1, "
            "block 64x1x1, 0 bytes of dynamic shared memory, stream "
            "default): hipErrorLaunchFailure (unspecified launch failure)");
  Status onStream =
      affine.launch(1, 1, 1, 64, 1, 1, 0, stream.value.handle(), params);
  EXPECT_NE(onStream.message.find(", stream 0x"), std::string::npos)
      << onStream.message;
  EXPECT_EQ(Fake::get().launches(), 0);

  // A code the fake's HIP does not know still reads as an error.
  ScopedEnvironment unknown("TERRAZZO_FAKE_HIP_FAIL",
                            "hipModuleLaunchKernel=12345");
  Status odd = affine.launch(1, 1, 1, 64, 1, 1, 0, nullptr, params);
  EXPECT_NE(odd.message.find(": hipErrorUnknown (unknown error)"),
            std::string::npos)
      << odd.message;
}

TEST_F(HipRuntimeTest, LaunchAttributes) {
  // A cooperative launch is hipModuleLaunchCooperativeKernel; programmatic
  // dependent launch, which AMD GPUs do not have, an ordinary launch.
  Module module = loadAffine();
  Function affine = function(module, "affine");
  std::uint64_t x = 0, y = 0;
  std::uint32_t n = 0;
  void *params[] = {&x, &y, &n};
  LaunchAttributes cooperative;
  cooperative.cooperative = true;
  Status launched =
      affine.launch(2, 1, 1, 64, 1, 1, 0, nullptr, params, cooperative);
  ASSERT_TRUE(launched.ok()) << launched.message;
  EXPECT_NE(calls().find("hipModuleLaunchCooperativeKernel(affine)"),
            std::string::npos)
      << calls();
  std::string kernel;
  FakeHipLaunch seen = lastLaunch(kernel);
  EXPECT_EQ(kernel, "affine");
  EXPECT_EQ(seen.grid[0], 2u);
  ASSERT_EQ(seen.argumentCount, 3);

  Fake::get().reset();
  LaunchAttributes dependent;
  dependent.programmaticDependentLaunch = true;
  launched = affine.launch(1, 1, 1, 64, 1, 1, 0, nullptr, params, dependent);
  ASSERT_TRUE(launched.ok()) << launched.message;
  EXPECT_NE(calls().find("hipModuleLaunchKernel(affine)"), std::string::npos)
      << calls();
  EXPECT_EQ(calls().find("Cooperative"), std::string::npos) << calls();

  // A failure names the call and the attribute.
  ScopedEnvironment fail("TERRAZZO_FAKE_HIP_FAIL",
                         "hipModuleLaunchCooperativeKernel=719");
  Status failed =
      affine.launch(3, 1, 1, 64, 1, 1, 0, nullptr, params, cooperative);
  EXPECT_EQ(failed.message,
            "hipModuleLaunchCooperativeKernel failed for kernel 'affine' "
            "(grid 3x1x1, block 64x1x1, 0 bytes of dynamic shared memory, "
            "stream default, cooperative): hipErrorLaunchFailure "
            "(unspecified launch failure)");

  // AMD GPUs have no thread-block clusters: a launch asking for them is
  // refused without a call to the driver (hipErrorNotSupported, whose
  // name the fake runtime does not know), with the clusters named.
  Fake::get().reset();
  LaunchAttributes clustered;
  clustered.clusterX = 2;
  failed = affine.launch(4, 1, 1, 64, 1, 1, 0, nullptr, params, clustered);
  EXPECT_EQ(calls().find("hipModuleLaunchKernel(affine)"), std::string::npos)
      << calls();
  EXPECT_NE(failed.message.find("hipModuleLaunchKernel failed for kernel "
                                "'affine' (grid 4x1x1, block 64x1x1, 0 bytes "
                                "of dynamic shared memory, stream default, "
                                "clusters 2x1x1): "),
            std::string::npos)
      << failed.message;
}

TEST_F(HipRuntimeTest, ModulesBelongToTheirDevice) {
  ScopedEnvironment devices("TERRAZZO_FAKE_HIP_DEVICES", "2");
  ASSERT_EQ(deviceCount(Platform::Hip).value, 2);
  Result<int> before = currentDevice(Platform::Hip);
  ASSERT_TRUE(before.ok());
  ASSERT_EQ(before.value, 0);

  std::uint64_t x = 7, y = 8;
  std::uint32_t n = 9;
  void *params[] = {&x, &y, &n};
  Module onOne;
  {
    DeviceScope scope;
    Status entered = scope.enter(1, Platform::Hip);
    ASSERT_TRUE(entered.ok()) << entered.message;
    EXPECT_TRUE(scope.switched());
    EXPECT_EQ(currentDevice(Platform::Hip).value, 1);
    onOne = loadAffine();
    EXPECT_EQ(onOne.context(), scope.context());
    Function affine = function(onOne, "affine");
    Status launched = affine.launch(4, 1, 1, 128, 1, 1, 0, nullptr, params);
    ASSERT_TRUE(launched.ok()) << launched.message;
    std::string kernel;
    EXPECT_EQ(lastLaunch(kernel).device, 1);
  }
  // The scope gave the thread its device back.
  EXPECT_EQ(currentDevice(Platform::Hip).value, 0);

  // Entering the current device switches nothing; a module loaded there has
  // device 0's context, not device 1's.
  {
    DeviceScope scope;
    ASSERT_TRUE(scope.enter(0, Platform::Hip).ok());
    EXPECT_FALSE(scope.switched());
    Module onZero = loadAffine();
    EXPECT_EQ(onZero.context(), scope.context());
    EXPECT_NE(onZero.context(), onOne.context());
    // Device 1's kernel does not run on device 0.
    Function affine = function(onOne, "affine");
    Status wrongDevice =
        affine.launch(1, 1, 1, 64, 1, 1, 0, nullptr, params);
    EXPECT_NE(wrongDevice.message.find("hipErrorInvalidDeviceFunction"),
              std::string::npos)
        << wrongDevice.message;
  }

  // Unloaded on its own device, and the thread's device restored.
  Fake::get().reset();
  onOne = Module();
  EXPECT_EQ(calls(), "hipGetDevice hipSetDevice(1) hipModuleUnload(1) "
                     "hipSetDevice(0)");
  EXPECT_EQ(currentDevice(Platform::Hip).value, 0);

  Status out = DeviceScope().enter(2, Platform::Hip);
  EXPECT_EQ(out.message, "hipSetDevice failed for device 2: "
                         "hipErrorInvalidDevice (invalid device ordinal)");
}

//===----------------------------------------------------------------------===//
// Memory, streams, events
//===----------------------------------------------------------------------===//

TEST_F(HipRuntimeTest, BuffersCopyFillAndKnowTheirDevice) {
  const int liveBefore = Fake::get().allocations();
  const size_t bytes = 4099;
  std::vector<std::uint8_t> data(bytes);
  std::mt19937 generator(std::random_device{}());
  for (std::uint8_t &byte : data)
    byte = std::uint8_t(generator());
  {
    Result<DeviceBuffer> buffer = DeviceBuffer::allocate(bytes, Platform::Hip);
    ASSERT_TRUE(buffer.ok()) << buffer.status.message;
    EXPECT_EQ(buffer.value.platform(), Platform::Hip);
    EXPECT_EQ(Fake::get().allocations(), liveBefore + 1);
    ASSERT_TRUE(buffer.value.copyFromHost(data.data(), bytes).ok());
    std::vector<std::uint8_t> back(bytes);
    ASSERT_TRUE(buffer.value.copyToHost(back.data(), bytes).ok());
    EXPECT_TRUE(back == data);

    Result<DeviceBuffer> copy = DeviceBuffer::allocate(bytes + 5, Platform::Hip);
    ASSERT_TRUE(copy.ok());
    ASSERT_TRUE(copy.value.fill(0xA5).ok());
    ASSERT_TRUE(copy.value.copyFrom(buffer.value).ok());
    std::vector<std::uint8_t> copied(bytes + 5);
    ASSERT_TRUE(copy.value.copyToHost(copied.data(), copied.size()).ok());
    EXPECT_TRUE(std::equal(data.begin(), data.end(), copied.begin()));
    for (size_t i = bytes; i < copied.size(); ++i)
      EXPECT_EQ(copied[i], 0xA5) << "byte " << i << " past the copy";

    std::uint64_t address = buffer.value.devicePointer() + 100;
    Result<int> device = pointerDevice(address, Platform::Hip);
    ASSERT_TRUE(device.ok()) << device.status.message;
    EXPECT_EQ(device.value, 0);
    EXPECT_TRUE(deviceCanAccess(address, Platform::Hip).value);

    std::uint64_t host = reinterpret_cast<std::uintptr_t>(data.data());
    EXPECT_FALSE(deviceCanAccess(host, Platform::Hip).value);
    Result<int> unknown = pointerDevice(0x1000, Platform::Hip);
    EXPECT_EQ(unknown.status.message,
              "hipPointerGetAttribute failed "
              "(HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL) for address 0x1000: "
              "hipErrorInvalidValue (invalid argument)");
  }
  // Both buffers freed.
  EXPECT_EQ(Fake::get().allocations(), liveBefore);

  ScopedEnvironment fail("TERRAZZO_FAKE_HIP_FAIL", "hipMalloc=2,hipMemsetD8=1");
  Result<DeviceBuffer> none = DeviceBuffer::allocate(64, Platform::Hip);
  EXPECT_EQ(none.status.message,
            "hipMalloc failed for 64 bytes: hipErrorOutOfMemory (out of "
            "memory)");
  setenv("TERRAZZO_FAKE_HIP_FAIL", "hipMemsetD8=1", 1);
  Result<DeviceBuffer> some = DeviceBuffer::allocate(64, Platform::Hip);
  ASSERT_TRUE(some.ok()) << some.status.message;
  EXPECT_EQ(some.value.fill(0).message,
            "hipMemsetD8 failed for 64 bytes: hipErrorInvalidValue (invalid "
            "argument)");
}

TEST_F(HipRuntimeTest, StreamsEventsAndSynchronize) {
  Result<Stream> stream = Stream::create(false, Platform::Hip);
  ASSERT_TRUE(stream.ok()) << stream.status.message;
  EXPECT_EQ(stream.value.platform(), Platform::Hip);
  Result<EventTimer> timer = EventTimer::create(Platform::Hip);
  ASSERT_TRUE(timer.ok()) << timer.status.message;
  ASSERT_TRUE(timer.value.start(stream.value.handle()).ok());
  ASSERT_TRUE(timer.value.stop(stream.value.handle()).ok());
  Result<float> ms = timer.value.elapsedMilliseconds();
  ASSERT_TRUE(ms.ok()) << ms.status.message;
  EXPECT_GE(ms.value, 0.0f);
  EXPECT_TRUE(synchronize(Platform::Hip).ok());

  ScopedEnvironment fail("TERRAZZO_FAKE_HIP_FAIL",
                         "hipDeviceSynchronize=700,hipStreamSynchronize=719");
  EXPECT_EQ(synchronize(Platform::Hip).message,
            "hipDeviceSynchronize failed: hipErrorIllegalAddress (an illegal "
            "memory access was encountered)");
  EXPECT_EQ(stream.value.synchronize().message,
            "hipStreamSynchronize failed: hipErrorLaunchFailure (unspecified "
            "launch failure)");
}

//===----------------------------------------------------------------------===//
// Embedded kernels (AOT.h) for a hip target
//===----------------------------------------------------------------------===//

const char kAotImage[] = "fake-hsaco\n"
                         "kernel aot_affine 8,8,4\n";

terrazzo::aot::Kernel hipKernels[] = {
    {"aot_affine", "hip:gfx90a", "hsaco",
     reinterpret_cast<const unsigned char *>(kAotImage), sizeof(kAotImage), 4,
     256, 0, 0, "{}", nullptr},
    {"aot_affine", "hip:gfx942", "hsaco",
     reinterpret_cast<const unsigned char *>(kAotImage), sizeof(kAotImage), 4,
     256, 16 * 1024, 0, "{}", nullptr},
    {"aot_affine", "hip:gfx950", "hsaco",
     reinterpret_cast<const unsigned char *>(kAotImage), sizeof(kAotImage), 8,
     512, 80 * 1024, 0, "{}", nullptr},
    {"aot_affine", "cuda:90", "cubin",
     reinterpret_cast<const unsigned char *>("\x7f"
                                             "ELF"),
     4, 4, 128, 0, 0, "{}", nullptr},
};
const terrazzo::aot::Registration registerHipKernels(hipKernels, 4);

TEST_F(HipRuntimeTest, EmbeddedKernelForTheDeviceArchitecture) {
  if (isAvailable(Platform::Cuda))
    GTEST_SKIP() << "a CUDA device is here: load() takes its binaries";
  std::uint64_t x = 11, y = 12;
  std::uint32_t n = 13;
  void *args[] = {&x, &y, &n};
  {
    // gfx942's hsaco (not gfx90a's, nor the cubin), with its block and LDS.
    auto loaded = terrazzo::aot::load("aot_affine");
    ASSERT_TRUE(loaded.ok()) << loaded.status.message;
    EXPECT_STREQ(loaded.value.kernel->target, "hip:gfx942");
    EXPECT_EQ(loaded.value.function.platform(), Platform::Hip);
    EXPECT_EQ(calls().find("hipFuncSetAttribute"), std::string::npos)
        << calls();
    Status launched = loaded.value.launch(9, 2, 1, args);
    ASSERT_TRUE(launched.ok()) << launched.message;
    std::string kernel;
    FakeHipLaunch seen = lastLaunch(kernel);
    EXPECT_EQ(kernel, "aot_affine");
    EXPECT_EQ(seen.grid[0], 9u);
    EXPECT_EQ(seen.grid[1], 2u);
    EXPECT_EQ(seen.block[0], 256u);
    EXPECT_EQ(seen.sharedBytes, 16u * 1024);
    EXPECT_EQ(seen.arguments[0], 11u);
    EXPECT_EQ(seen.arguments[2], 13u);
  }
  {
    // gfx950's, whose 80 KiB of LDS are above the default: reserved at load.
    ScopedEnvironment arch("TERRAZZO_FAKE_HIP_ARCH", "gfx950");
    auto loaded = terrazzo::aot::load("aot_affine");
    ASSERT_TRUE(loaded.ok()) << loaded.status.message;
    EXPECT_STREQ(loaded.value.kernel->target, "hip:gfx950");
    EXPECT_NE(calls().find("hipFuncSetAttribute(8,81920)"), std::string::npos)
        << calls();
    Status launched = loaded.value.launch(3, 1, 1, args);
    ASSERT_TRUE(launched.ok()) << launched.message;
    std::string kernel;
    FakeHipLaunch seen = lastLaunch(kernel);
    EXPECT_EQ(seen.block[0], 512u);
    EXPECT_EQ(seen.sharedBytes, 80u * 1024);
  }
  // No binary for gfx1100: the message lists what is embedded.
  ScopedEnvironment arch("TERRAZZO_FAKE_HIP_ARCH", "gfx1100");
  auto none = terrazzo::aot::load("aot_affine");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status.message,
            "no embedded kernel 'aot_affine' runs on device 0 (gfx1100); "
            "embedded: cuda:90 (cubin) hip:gfx950 (hsaco) hip:gfx942 (hsaco) "
            "hip:gfx90a (hsaco)");
}

//===----------------------------------------------------------------------===//
// Loading the library (child processes)
//===----------------------------------------------------------------------===//

TEST(HipLoading, MissingLibraryNamesDlopenAndPath) {
  const std::string path = "/nonexistent/terrazzo-hip-test/libamdhip64.so";
  ChildReport child =
      runChild(Platform::Hip, {{"TERRAZZO_HIP_LIBRARY", path.c_str()}});
  ASSERT_TRUE(child.ran) << "child process output:\n" << child.output;
  EXPECT_EQ(child.status.rfind("dlopen(\"" + path + "\") failed: ", 0), 0u)
      << child.status;
  EXPECT_NE(child.status.find("(path from TERRAZZO_HIP_LIBRARY)"),
            std::string::npos)
      << child.status;
  EXPECT_TRUE(child.sameOnSecondCall) << child.output;
  EXPECT_FALSE(child.available);
  EXPECT_EQ(child.target, child.status);
}

TEST(HipLoading, DefaultNamesAreSearched) {
  // Without the variable: the first of the default names that loads, else
  // every name tried and what to do about it.
  ChildReport none = runChild(Platform::Hip, {{"TERRAZZO_HIP_LIBRARY", nullptr},
                                              {"LD_LIBRARY_PATH", "/nonexistent"}});
  ASSERT_TRUE(none.ran) << "child process output:\n" << none.output;
  if (none.status.rfind("dlopen(", 0) == 0) {
    EXPECT_EQ(none.status.rfind("dlopen(\"libamdhip64.so\", "
                                "\"libamdhip64.so.6\", \"libamdhip64.so.5\") "
                                "failed: ",
                                0),
              0u)
        << none.status;
    EXPECT_NE(none.status.find("(is ROCm installed? TERRAZZO_HIP_LIBRARY may "
                               "name the library's path)"),
              std::string::npos)
        << none.status;
  } else {
    // ROCm's library is installed (scripts/setup.sh puts ROCm 5's there):
    // found by one of the names; without an AMD GPU its hipInit fails.
    EXPECT_TRUE(none.status == "OK" ||
                none.status.rfind("hipInit failed with driver library "
                                  "'libamdhip64.so",
                                  0) == 0)
        << none.status;
  }
  // The fake, as libamdhip64.so on the library search path, comes before
  // any libamdhip64.so.6 or .so.5 of the system.
  ChildReport found =
      runChild(Platform::Hip, {{"TERRAZZO_HIP_LIBRARY", nullptr},
                               {"LD_LIBRARY_PATH", kFakeHipDirectory}});
  ASSERT_TRUE(found.ran) << "child process output:\n" << found.output;
  EXPECT_EQ(found.status, "OK");
  EXPECT_TRUE(found.available);
  EXPECT_EQ(found.target, "hip:gfx942");
}

TEST(HipLoading, RealHipLibraryHasEverySymbol) {
  // ROCm's own libamdhip64 (Debian's libamdhip64-5, which scripts/setup.sh
  // installs), found by the default names: every entry point resolves, and
  // without an AMD GPU hipInit says so.
  ChildReport child =
      runChild(Platform::Hip, {{"TERRAZZO_HIP_LIBRARY", nullptr},
                               {"TERRAZZO_FAKE_HIP_FAIL", nullptr}});
  ASSERT_TRUE(child.ran) << "child process output:\n" << child.output;
  if (child.status.rfind("dlopen(", 0) == 0)
    GTEST_SKIP() << "no HIP library here: " << child.status;
  EXPECT_EQ(child.status.find("dlsym failed"), std::string::npos)
      << child.status;
  if (child.status != "OK") {
    EXPECT_EQ(child.status.rfind("hipInit failed with driver library "
                                 "'libamdhip64.so",
                                 0),
              0u)
        << child.status;
    EXPECT_FALSE(child.available);
  }
}

TEST(HipLoading, LibraryWithoutHipSymbolsNamesThem) {
  ChildReport child =
      runChild(Platform::Hip, {{"TERRAZZO_HIP_LIBRARY", "libm.so.6"}});
  ASSERT_TRUE(child.ran) << "child process output:\n" << child.output;
  EXPECT_EQ(child.status.rfind("dlsym failed: the HIP driver library "
                               "'libm.so.6' has no symbol hipInit, ",
                               0),
            0u)
      << child.status;
  EXPECT_NE(child.status.find("hipModuleLoadData"), std::string::npos)
      << child.status;
  EXPECT_NE(child.status.find("hipModuleLaunchKernel"), std::string::npos)
      << child.status;
  EXPECT_FALSE(child.available);
}

TEST(HipLoading, OneMissingSymbolIsNamed) {
  ChildReport child = runChild(
      Platform::Hip, {{"TERRAZZO_HIP_LIBRARY", kFakeHipWithoutLaunch}});
  ASSERT_TRUE(child.ran) << "child process output:\n" << child.output;
  EXPECT_EQ(child.status, std::string("dlsym failed: the HIP driver library '") +
                              kFakeHipWithoutLaunch +
                              "' has no symbol hipModuleLaunchKernel");
}

TEST(HipLoading, HipInitFailureNamesCallLibraryAndError) {
  ChildReport child =
      runChild(Platform::Hip, {{"TERRAZZO_HIP_LIBRARY", kFakeHip},
                               {"TERRAZZO_FAKE_HIP_FAIL", "hipInit=100"}});
  ASSERT_TRUE(child.ran) << "child process output:\n" << child.output;
  EXPECT_EQ(child.status, std::string("hipInit failed with driver library '") +
                              kFakeHip +
                              "': hipErrorNoDevice (no ROCm-capable device is "
                              "detected)");
  EXPECT_TRUE(child.sameOnSecondCall);
  EXPECT_FALSE(child.available);
}

TEST(HipLoading, NoDeviceIsNotAvailable) {
  ChildReport child =
      runChild(Platform::Hip, {{"TERRAZZO_HIP_LIBRARY", kFakeHip},
                               {"TERRAZZO_FAKE_HIP_DEVICES", "0"},
                               {"TERRAZZO_LIBCUDA", "/nonexistent/libcuda.so"}});
  ASSERT_TRUE(child.ran) << "child process output:\n" << child.output;
  EXPECT_EQ(child.status, "OK");
  EXPECT_FALSE(child.available);
  // Neither platform has a device: CUDA stays the default.
  EXPECT_EQ(child.defaultPlatform, "cuda");
}

TEST(HipLoading, DefaultPlatformFollowsTheDevices) {
  ChildReport child =
      runChild(Platform::Hip, {{"TERRAZZO_HIP_LIBRARY", kFakeHip},
                               {"TERRAZZO_LIBCUDA", "/nonexistent/libcuda.so"}});
  ASSERT_TRUE(child.ran) << "child process output:\n" << child.output;
  EXPECT_EQ(child.defaultPlatform, "hip");
}

TEST(HipLoading, Rocm5PropertiesLayout) {
  // A HIP of ROCm 5: no hipGetDevicePropertiesR0600, the older layout.
  ChildReport child =
      runChild(Platform::Hip, {{"TERRAZZO_HIP_LIBRARY", kFakeHipRocm5},
                               {"TERRAZZO_FAKE_HIP_ARCH", "gfx90a:xnack-"}});
  ASSERT_TRUE(child.ran) << "child process output:\n" << child.output;
  EXPECT_EQ(child.status, "OK");
  EXPECT_EQ(child.target, "hip:gfx90a");
}

} // namespace
