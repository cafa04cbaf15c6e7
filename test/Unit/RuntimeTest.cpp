// Tests of the GPU runtime (include/terrazzo/Runtime.h), built against the
// public header and terrazzo-runtime only.
//
// Without a GPU (CI) the driver-loading failures are checked in child
// processes, since initialize() runs once per process (ChildProcess.h). The
// cases that need a GPU skip, saying why, when there is none.
#include "ChildProcess.h"
#include "terrazzo/Runtime.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

using namespace terrazzo::runtime;

namespace {

/// Runs this test binary as a child reporting on CUDA with
/// TERRAZZO_LIBCUDA=`libcuda` (ChildProcess.h).
terrazzo::test::ChildReport runChild(const std::string &libcuda) {
  return terrazzo::test::runChild(Platform::Cuda,
                                  {{"TERRAZZO_LIBCUDA", libcuda.c_str()}});
}

bool fileExists(const std::string &path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

//===----------------------------------------------------------------------===//
// Cases that need no GPU
//===----------------------------------------------------------------------===//

TEST(RuntimeStatus, SuccessAndError) {
  Status ok = Status::success();
  EXPECT_TRUE(ok.ok());
  EXPECT_TRUE(ok.message.empty());
  Status bad = Status::error("it broke");
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.message, "it broke");
  // An error never reads as a success, even with no message.
  EXPECT_FALSE(Status::error("").ok());

  Result<int> value = Result<int>::success(42);
  EXPECT_TRUE(value.ok());
  EXPECT_EQ(value.value, 42);
  Result<int> failed = Result<int>::error(Status::error("no value"));
  EXPECT_FALSE(failed.ok());
  EXPECT_EQ(failed.status.message, "no value");
}

TEST(RuntimeInit, MissingLibraryNamesDlopenAndPath) {
  const std::string path = "/nonexistent/terrazzo-runtime-test/libcuda.so.1";
  terrazzo::test::ChildReport child = runChild(path);
  ASSERT_TRUE(child.ran) << "child process output:\n" << child.output;
  EXPECT_NE(child.status, "OK");
  EXPECT_NE(child.status.find("dlopen"), std::string::npos) << child.status;
  EXPECT_NE(child.status.find(path), std::string::npos) << child.status;
  EXPECT_NE(child.status.find("TERRAZZO_LIBCUDA"), std::string::npos)
      << child.status;
  EXPECT_TRUE(child.sameOnSecondCall) << child.output;
  EXPECT_FALSE(child.available);
}

TEST(RuntimeInit, LibraryWithoutDriverSymbolsNamesThem) {
  // Any loadable library that is not a CUDA driver: glibc's libm.
  terrazzo::test::ChildReport child = runChild("libm.so.6");
  ASSERT_TRUE(child.ran) << "child process output:\n" << child.output;
  EXPECT_EQ(child.status.rfind("dlsym failed", 0), 0u) << child.status;
  EXPECT_NE(child.status.find("libm.so.6"), std::string::npos)
      << child.status;
  EXPECT_NE(child.status.find("cuInit"), std::string::npos) << child.status;
  EXPECT_NE(child.status.find("cuLaunchKernel"), std::string::npos)
      << child.status;
  EXPECT_FALSE(child.available);
}

TEST(RuntimeInit, StubDriverFailsInCuInit) {
  std::vector<std::string> candidates;
  if (const char *cudaHome = std::getenv("CUDA_HOME"); cudaHome && *cudaHome)
    candidates.push_back(std::string(cudaHome) + "/lib64/stubs/libcuda.so");
  candidates.push_back("/usr/local/cuda/lib64/stubs/libcuda.so");
  std::string stub;
  for (const std::string &candidate : candidates)
    if (fileExists(candidate)) {
      stub = candidate;
      break;
    }
  if (stub.empty())
    GTEST_SKIP() << "no CUDA toolkit stub libcuda.so (looked in "
                 << "$CUDA_HOME/lib64/stubs and /usr/local/cuda/lib64/stubs)";

  terrazzo::test::ChildReport child = runChild(stub);
  ASSERT_TRUE(child.ran) << "child process output:\n" << child.output;
  // The stub exports every symbol, so loading succeeds and cuInit fails with
  // the driver's error name (CUDA_ERROR_STUB_LIBRARY for the toolkit's stub).
  EXPECT_EQ(child.status.rfind("cuInit failed", 0), 0u) << child.status;
  EXPECT_NE(child.status.find(": CUDA_ERROR_"), std::string::npos)
      << child.status;
  EXPECT_NE(child.status.find(stub), std::string::npos) << child.status;
  EXPECT_TRUE(child.sameOnSecondCall) << child.output;
  EXPECT_FALSE(child.available);
}

TEST(RuntimeInit, InitializeIsIdempotent) {
  Status first = initialize();
  Status second = initialize();
  EXPECT_EQ(first.ok(), second.ok());
  EXPECT_EQ(first.message, second.message);
  if (!first.ok()) {
    EXPECT_FALSE(isAvailable());
  }

  // Concurrent first calls are safe and agree (a no-op after the calls
  // above, but it runs the same path under ThreadSanitizer builds).
  std::vector<std::thread> threads;
  std::vector<std::string> messages(4);
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&messages, i] { messages[i] = initialize().message; });
  for (std::thread &thread : threads)
    thread.join();
  for (const std::string &message : messages)
    EXPECT_EQ(message, first.message);
}

TEST(RuntimeInit, WithoutDriverEveryCallFailsCleanly) {
  Status init = initialize();
  if (init.ok())
    GTEST_SKIP() << "the CUDA driver initialized; this case is for machines "
                    "without one";
  EXPECT_FALSE(init.message.empty());
  EXPECT_FALSE(isAvailable());
  EXPECT_EQ(deviceCount().status.message, init.message);
  EXPECT_EQ(driverVersion().status.message, init.message);
  EXPECT_EQ(getDeviceProperties(0).status.message, init.message);
  EXPECT_EQ(currentDevice().status.message, init.message);
  EXPECT_EQ(setCurrentDevice(0).message, init.message);
  EXPECT_EQ(synchronize().message, init.message);
  EXPECT_EQ(pointerDevice(0x1000).status.message, init.message);
  EXPECT_EQ(deviceCanAccess(0x1000).status.message, init.message);
  {
    DeviceScope scope;
    EXPECT_EQ(scope.enter(0).message, init.message);
    EXPECT_EQ(scope.context(), nullptr);
    EXPECT_FALSE(scope.switched());
  }
  const char ptx[] = ".version 8.0\n.target sm_80\n.address_size 64\n";
  EXPECT_EQ(Module::load(ptx, sizeof(ptx)).status.message, init.message);
  EXPECT_EQ(DeviceBuffer::allocate(16).status.message, init.message);
  EXPECT_EQ(Stream::create().status.message, init.message);
  EXPECT_EQ(EventTimer::create().status.message, init.message);
}

TEST(RuntimeApi, EmptyHandlesFailCleanly) {
  Function function;
  EXPECT_FALSE(function.valid());
  Status launched = function.launch(1, 1, 1, 1, 1, 1, 0, nullptr, nullptr);
  EXPECT_FALSE(launched.ok());
  EXPECT_NE(launched.message.find("Function::launch"), std::string::npos)
      << launched.message;
  EXPECT_FALSE(function.numRegisters().ok());
  EXPECT_FALSE(function.setMaxDynamicSharedMemory(1024).ok());

  Module module;
  EXPECT_FALSE(module.valid());
  Result<Function> missing = module.getFunction("kernel");
  EXPECT_FALSE(missing.ok());
  EXPECT_NE(missing.status.message.find("'kernel'"), std::string::npos)
      << missing.status.message;

  DeviceBuffer buffer;
  EXPECT_EQ(buffer.size(), 0u);
  EXPECT_EQ(buffer.devicePointer(), 0u);
  char byte = 0;
  Status tooBig = buffer.copyFromHost(&byte, 1);
  EXPECT_FALSE(tooBig.ok());
  EXPECT_NE(tooBig.message.find("do not fit"), std::string::npos)
      << tooBig.message;
  EXPECT_TRUE(buffer.copyFromHost(&byte, 0).ok());

  EventTimer timer;
  EXPECT_FALSE(timer.start().ok());
  EXPECT_FALSE(timer.elapsedMilliseconds().ok());
}

//===----------------------------------------------------------------------===//
// Cases that need a GPU
//===----------------------------------------------------------------------===//

/// y[i] = x[i] * 2 + 1 for i < n (float), one element per thread.
const char kAffinePtx[] = R"(
.version 8.0
.target sm_80
.address_size 64

.visible .entry affine(
    .param .u64 affine_param_x,
    .param .u64 affine_param_y,
    .param .u32 affine_param_n)
{
    .reg .pred  %p<2>;
    .reg .b32   %r<6>;
    .reg .f32   %f<3>;
    .reg .b64   %rd<8>;

    ld.param.u64    %rd1, [affine_param_x];
    ld.param.u64    %rd2, [affine_param_y];
    ld.param.u32    %r1, [affine_param_n];
    mov.u32         %r2, %ctaid.x;
    mov.u32         %r3, %ntid.x;
    mov.u32         %r4, %tid.x;
    mad.lo.s32      %r5, %r2, %r3, %r4;
    setp.ge.u32     %p1, %r5, %r1;
    @%p1 bra        $L_done;
    cvta.to.global.u64  %rd3, %rd1;
    cvta.to.global.u64  %rd4, %rd2;
    mul.wide.u32    %rd5, %r5, 4;
    add.s64         %rd6, %rd3, %rd5;
    add.s64         %rd7, %rd4, %rd5;
    ld.global.f32   %f1, [%rd6];
    fma.rn.f32      %f2, %f1, 0f40000000, 0f3F800000;
    st.global.f32   [%rd7], %f2;
$L_done:
    ret;
}
)";

class RuntimeGpuTest : public ::testing::Test {
protected:
  void SetUp() override {
    if (!isAvailable())
      GTEST_SKIP() << "needs a CUDA GPU: "
                   << (initialize().ok() ? std::string("no CUDA device")
                                         : initialize().message);
  }

  /// Loads kAffinePtx (without its trailing NUL, so the runtime must copy
  /// it) and returns the module, failing the test on error.
  static Module loadAffine() {
    Result<Module> module =
        Module::load(kAffinePtx, std::strlen(kAffinePtx));
    EXPECT_TRUE(module.ok()) << module.status.message;
    return std::move(module.value);
  }

  static std::vector<float> randomFloats(size_t count) {
    std::mt19937 generator(std::random_device{}());
    std::uniform_real_distribution<float> distribution(-1000.0f, 1000.0f);
    std::vector<float> values(count);
    for (float &value : values)
      value = distribution(generator);
    return values;
  }

  /// Runs `affine` over n elements and checks every output element and
  /// that nothing past the end was written.
  static void runAffineAndCheck(const Function &affine, unsigned n,
                                unsigned blockSize, void *stream = nullptr) {
    std::vector<float> x = randomFloats(n);
    constexpr unsigned kGuard = 64;
    Result<DeviceBuffer> xBuffer = DeviceBuffer::allocate(n * sizeof(float));
    Result<DeviceBuffer> yBuffer =
        DeviceBuffer::allocate((n + kGuard) * sizeof(float));
    ASSERT_TRUE(xBuffer.ok()) << xBuffer.status.message;
    ASSERT_TRUE(yBuffer.ok()) << yBuffer.status.message;
    ASSERT_TRUE(xBuffer.value.copyFromHost(x.data(), n * sizeof(float)).ok());
    ASSERT_TRUE(yBuffer.value.fill(0xFF).ok());

    uint64_t xPointer = xBuffer.value.devicePointer();
    uint64_t yPointer = yBuffer.value.devicePointer();
    void *params[] = {&xPointer, &yPointer, &n};
    unsigned grid = (n + blockSize - 1) / blockSize;
    Status launched =
        affine.launch(grid, 1, 1, blockSize, 1, 1, 0, stream, params);
    ASSERT_TRUE(launched.ok()) << launched.message;
    Status synced = synchronize();
    ASSERT_TRUE(synced.ok()) << synced.message;

    std::vector<float> y(n + kGuard);
    ASSERT_TRUE(
        yBuffer.value.copyToHost(y.data(), y.size() * sizeof(float)).ok());
    size_t mismatches = 0;
    for (unsigned i = 0; i < n; ++i) {
      float expected = x[i] * 2.0f + 1.0f;
      if (y[i] != expected && ++mismatches <= 5)
        ADD_FAILURE() << "y[" << i << "] = " << y[i] << ", expected "
                      << expected << " (x = " << x[i] << ")";
    }
    EXPECT_EQ(mismatches, 0u);
    for (unsigned i = n; i < n + kGuard; ++i) {
      uint32_t bits;
      std::memcpy(&bits, &y[i], sizeof(bits));
      EXPECT_EQ(bits, 0xFFFFFFFFu) << "element " << i << " past the end";
    }
  }
};

TEST_F(RuntimeGpuTest, DeviceQueries) {
  Result<int> count = deviceCount();
  ASSERT_TRUE(count.ok()) << count.status.message;
  EXPECT_GE(count.value, 1);

  Result<int> version = driverVersion();
  ASSERT_TRUE(version.ok()) << version.status.message;
  EXPECT_GE(version.value, 11000);

  Result<int> current = currentDevice();
  ASSERT_TRUE(current.ok()) << current.status.message;
  EXPECT_GE(current.value, 0);
  EXPECT_LT(current.value, count.value);

  Result<DeviceProperties> props = getDeviceProperties(current.value);
  ASSERT_TRUE(props.ok()) << props.status.message;
  const DeviceProperties &p = props.value;
  EXPECT_EQ(p.ordinal, current.value);
  EXPECT_FALSE(p.name.empty());
  EXPECT_GE(p.computeCapabilityMajor, 5);
  EXPECT_GE(p.computeCapabilityMinor, 0);
  EXPECT_GT(p.multiprocessorCount, 0);
  EXPECT_EQ(p.warpSize, 32);
  EXPECT_GE(p.maxThreadsPerBlock, 512);
  EXPECT_GT(p.maxSharedMemoryPerBlock, 0);
  EXPECT_GE(p.maxSharedMemoryPerBlockOptin, p.maxSharedMemoryPerBlock);
  EXPECT_GT(p.totalMemoryBytes, 0u);
  EXPECT_GE(p.maxRegistersPerBlock, 32 * 1024);
  EXPECT_GE(p.maxThreadsPerMultiprocessor, p.maxThreadsPerBlock);
  EXPECT_GT(p.clockRateKHz, 100000);      // above 100 MHz
  EXPECT_GT(p.memoryClockRateKHz, 100000);
  EXPECT_GE(p.memoryBusWidthBits, 64);
  std::printf("device %d: %s, sm_%d%d, %d SMs, %d bytes opt-in shared memory "
              "per block, %zu bytes, driver %d\n",
              p.ordinal, p.name.c_str(), p.computeCapabilityMajor,
              p.computeCapabilityMinor, p.multiprocessorCount,
              p.maxSharedMemoryPerBlockOptin, p.totalMemoryBytes,
              version.value);

  Result<DeviceProperties> invalid = getDeviceProperties(count.value + 7);
  ASSERT_FALSE(invalid.ok());
  EXPECT_NE(invalid.status.message.find("cuDeviceGet failed"),
            std::string::npos)
      << invalid.status.message;
  EXPECT_NE(invalid.status.message.find("CUDA_ERROR_INVALID_DEVICE"),
            std::string::npos)
      << invalid.status.message;

  Status set = setCurrentDevice(current.value);
  EXPECT_TRUE(set.ok()) << set.message;
}

TEST_F(RuntimeGpuTest, BufferRoundTrip) {
  const size_t bytes = (1 << 20) + 3;
  std::vector<uint8_t> data(bytes);
  std::mt19937 generator(std::random_device{}());
  for (uint8_t &byte : data)
    byte = static_cast<uint8_t>(generator());

  Result<DeviceBuffer> buffer = DeviceBuffer::allocate(bytes);
  ASSERT_TRUE(buffer.ok()) << buffer.status.message;
  EXPECT_EQ(buffer.value.size(), bytes);
  EXPECT_NE(buffer.value.devicePointer(), 0u);
  Status up = buffer.value.copyFromHost(data.data(), bytes);
  ASSERT_TRUE(up.ok()) << up.message;
  std::vector<uint8_t> back(bytes, 0);
  Status down = buffer.value.copyToHost(back.data(), bytes);
  ASSERT_TRUE(down.ok()) << down.message;
  EXPECT_TRUE(back == data);

  // Moving keeps the allocation; the moved-from buffer is empty.
  DeviceBuffer moved = std::move(buffer.value);
  EXPECT_EQ(moved.size(), bytes);
  EXPECT_EQ(buffer.value.size(), 0u);
  EXPECT_FALSE(moved.copyToHost(back.data(), bytes + 1).ok());

  Result<DeviceBuffer> empty = DeviceBuffer::allocate(0);
  ASSERT_TRUE(empty.ok()) << empty.status.message;
  EXPECT_EQ(empty.value.devicePointer(), 0u);
}

TEST_F(RuntimeGpuTest, BufferFill) {
  const size_t bytes = 4099;
  Result<DeviceBuffer> buffer = DeviceBuffer::allocate(bytes);
  ASSERT_TRUE(buffer.ok()) << buffer.status.message;
  for (uint8_t value : {uint8_t(0x00), uint8_t(0xAB)}) {
    Status filled = buffer.value.fill(value);
    ASSERT_TRUE(filled.ok()) << filled.message;
    std::vector<uint8_t> back(bytes, uint8_t(~value));
    ASSERT_TRUE(buffer.value.copyToHost(back.data(), bytes).ok());
    EXPECT_TRUE(back == std::vector<uint8_t>(bytes, value))
        << "fill(" << int(value) << ")";
  }
}

TEST_F(RuntimeGpuTest, BufferDeviceToDevice) {
  const size_t bytes = 65537;
  std::vector<uint8_t> data(bytes);
  std::mt19937 generator(std::random_device{}());
  for (uint8_t &byte : data)
    byte = static_cast<uint8_t>(generator());
  Result<DeviceBuffer> source = DeviceBuffer::allocate(bytes);
  Result<DeviceBuffer> destination = DeviceBuffer::allocate(bytes + 16);
  ASSERT_TRUE(source.ok()) << source.status.message;
  ASSERT_TRUE(destination.ok()) << destination.status.message;
  ASSERT_TRUE(source.value.copyFromHost(data.data(), bytes).ok());
  ASSERT_TRUE(destination.value.fill(0x5A).ok());
  Status copied = destination.value.copyFrom(source.value);
  ASSERT_TRUE(copied.ok()) << copied.message;

  std::vector<uint8_t> back(bytes + 16);
  ASSERT_TRUE(destination.value.copyToHost(back.data(), back.size()).ok());
  EXPECT_TRUE(std::equal(data.begin(), data.end(), back.begin()));
  for (size_t i = bytes; i < back.size(); ++i)
    EXPECT_EQ(back[i], 0x5A) << "byte " << i << " past the copy";

  // The source does not fit into a smaller destination.
  Result<DeviceBuffer> small = DeviceBuffer::allocate(bytes - 1);
  ASSERT_TRUE(small.ok());
  Status tooBig = small.value.copyFrom(source.value);
  EXPECT_FALSE(tooBig.ok());
  EXPECT_NE(tooBig.message.find("do not fit"), std::string::npos)
      << tooBig.message;
}

TEST_F(RuntimeGpuTest, PtxKernelLaunch) {
  Module module = loadAffine();
  ASSERT_TRUE(module.valid());
  Result<Function> affine = module.getFunction("affine");
  ASSERT_TRUE(affine.ok()) << affine.status.message;
  EXPECT_EQ(affine.value.name(), "affine");
  // Sizes that are not multiples of the block size, and one smaller than it.
  runAffineAndCheck(affine.value, 1000003, 256);
  runAffineAndCheck(affine.value, 77, 128);

  // A NUL-terminated image (passed as is) loads too.
  Result<Module> withNul = Module::load(kAffinePtx, sizeof(kAffinePtx));
  ASSERT_TRUE(withNul.ok()) << withNul.status.message;
  EXPECT_TRUE(withNul.value.getFunction("affine").ok());
}

TEST_F(RuntimeGpuTest, LaunchFromAnotherThread) {
  Module module = loadAffine();
  Result<Function> affine = module.getFunction("affine");
  ASSERT_TRUE(affine.ok()) << affine.status.message;
  // A new thread has no current context; the runtime makes its own current.
  std::thread worker(
      [&affine] { runAffineAndCheck(affine.value, 4097, 256); });
  worker.join();
}

TEST_F(RuntimeGpuTest, FunctionAttributesAndDynamicSharedMemory) {
  Module module = loadAffine();
  Result<Function> affine = module.getFunction("affine");
  ASSERT_TRUE(affine.ok()) << affine.status.message;

  Result<int> registers = affine.value.numRegisters();
  ASSERT_TRUE(registers.ok()) << registers.status.message;
  EXPECT_GT(registers.value, 0);
  Result<Function::Attributes> attrs = affine.value.attributes();
  ASSERT_TRUE(attrs.ok()) << attrs.status.message;
  EXPECT_EQ(attrs.value.numRegisters, registers.value);
  EXPECT_GE(attrs.value.maxThreadsPerBlock, 256);
  EXPECT_EQ(attrs.value.staticSharedBytes, 0);
  EXPECT_EQ(attrs.value.localBytes, 0);

  Result<int> device = currentDevice();
  ASSERT_TRUE(device.ok());
  Result<DeviceProperties> props = getDeviceProperties(device.value);
  ASSERT_TRUE(props.ok()) << props.status.message;
  int optin = props.value.maxSharedMemoryPerBlockOptin;
  if (optin <= props.value.maxSharedMemoryPerBlock)
    GTEST_SKIP() << "the device has no opt-in shared memory";

  // Above the default limit a launch fails until the kernel opts in.
  unsigned n = 256;
  Result<DeviceBuffer> x = DeviceBuffer::allocate(n * sizeof(float));
  Result<DeviceBuffer> y = DeviceBuffer::allocate(n * sizeof(float));
  ASSERT_TRUE(x.ok() && y.ok());
  uint64_t xPointer = x.value.devicePointer();
  uint64_t yPointer = y.value.devicePointer();
  void *params[] = {&xPointer, &yPointer, &n};
  Status refused = affine.value.launch(1, 1, 1, 256, 1, 1, optin, nullptr,
                                       params);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.message.find("cuLaunchKernel failed for kernel 'affine'"),
            std::string::npos)
      << refused.message;
  EXPECT_NE(refused.message.find(std::to_string(optin) + " bytes"),
            std::string::npos)
      << refused.message;

  Status set = affine.value.setMaxDynamicSharedMemory(optin);
  ASSERT_TRUE(set.ok()) << set.message;
  Result<Function::Attributes> after = affine.value.attributes();
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after.value.maxDynamicSharedBytes, optin);
  Status launched = affine.value.launch(1, 1, 1, 256, 1, 1, optin, nullptr,
                                        params);
  ASSERT_TRUE(launched.ok()) << launched.message;
  Status synced = synchronize();
  EXPECT_TRUE(synced.ok()) << synced.message;

  Status tooMuch = affine.value.setMaxDynamicSharedMemory(optin + 1024);
  EXPECT_FALSE(tooMuch.ok());
  EXPECT_NE(tooMuch.message.find("cuFuncSetAttribute"), std::string::npos)
      << tooMuch.message;
}

TEST_F(RuntimeGpuTest, LaunchErrorNamesKernelAndConfiguration) {
  Module module = loadAffine();
  Result<Function> affine = module.getFunction("affine");
  ASSERT_TRUE(affine.ok()) << affine.status.message;
  uint64_t pointer = 0;
  unsigned n = 0;
  void *params[] = {&pointer, &pointer, &n};
  // 2048 threads per block is over every CUDA device's limit.
  Status launched =
      affine.value.launch(3, 1, 1, 2048, 1, 1, 0, nullptr, params);
  ASSERT_FALSE(launched.ok());
  const std::string &message = launched.message;
  EXPECT_NE(message.find("cuLaunchKernel failed"), std::string::npos)
      << message;
  EXPECT_NE(message.find("'affine'"), std::string::npos) << message;
  EXPECT_NE(message.find("grid 3x1x1"), std::string::npos) << message;
  EXPECT_NE(message.find("block 2048x1x1"), std::string::npos) << message;
  EXPECT_NE(message.find("CUDA_ERROR_INVALID_VALUE"), std::string::npos)
      << message;
  // A refused launch does not poison the context.
  Status synced = synchronize();
  EXPECT_TRUE(synced.ok()) << synced.message;
}

TEST_F(RuntimeGpuTest, GarbageImageNamesModuleLoad) {
  const unsigned char garbage[] = {0x13, 0x37, 0xde, 0xad, 0xbe, 0xef,
                                   'n',  'o',  't',  ' ',  'a',  ' ',
                                   'm',  'o',  'd',  'u',  'l',  'e'};
  Result<Module> module = Module::load(garbage, sizeof(garbage));
  ASSERT_FALSE(module.ok());
  EXPECT_FALSE(module.value.valid());
  EXPECT_NE(module.status.message.find("cuModuleLoadData"), std::string::npos)
      << module.status.message;
  EXPECT_NE(module.status.message.find(": CUDA_ERROR_"), std::string::npos)
      << module.status.message;

  // A broken ELF is passed as a binary image, and fails the same way.
  const unsigned char badElf[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0};
  Result<Module> elf = Module::load(badElf, sizeof(badElf));
  ASSERT_FALSE(elf.ok());
  EXPECT_NE(elf.status.message.find("cuModuleLoadData"), std::string::npos)
      << elf.status.message;

  Result<Module> empty = Module::load(nullptr, 0);
  EXPECT_FALSE(empty.ok());
}

TEST_F(RuntimeGpuTest, BadPtxCarriesJitLog) {
  const std::string ptx = ".version 8.0\n.target sm_80\n.address_size 64\n"
                          ".visible .entry broken()\n{\n"
                          "    frobnicate.u32 %r1, 7;\n    ret;\n}\n";
  Result<Module> module = Module::load(ptx.data(), ptx.size());
  ASSERT_FALSE(module.ok());
  const std::string &message = module.status.message;
  EXPECT_NE(message.find("cuModuleLoadData"), std::string::npos) << message;
  EXPECT_NE(message.find("CUDA_ERROR_INVALID_PTX"), std::string::npos)
      << message;
  // The JIT's log follows on the next lines.
  EXPECT_NE(message.find('\n'), std::string::npos) << message;
  std::printf("bad PTX message:\n%s\n", message.c_str());
}

TEST_F(RuntimeGpuTest, MissingKernelIsNamed) {
  Module module = loadAffine();
  Result<Function> missing = module.getFunction("no_such_kernel");
  ASSERT_FALSE(missing.ok());
  const std::string &message = missing.status.message;
  EXPECT_NE(message.find("cuModuleGetFunction"), std::string::npos)
      << message;
  EXPECT_NE(message.find("'no_such_kernel'"), std::string::npos) << message;
  EXPECT_NE(message.find("CUDA_ERROR_NOT_FOUND"), std::string::npos)
      << message;
}

TEST_F(RuntimeGpuTest, EventTimerMeasuresAStream) {
  Module module = loadAffine();
  Result<Function> affine = module.getFunction("affine");
  ASSERT_TRUE(affine.ok()) << affine.status.message;
  Result<Stream> stream = Stream::create(/*nonBlocking=*/true);
  ASSERT_TRUE(stream.ok()) << stream.status.message;
  Result<EventTimer> timer = EventTimer::create();
  ASSERT_TRUE(timer.ok()) << timer.status.message;

  unsigned n = 1 << 22;
  Result<DeviceBuffer> x = DeviceBuffer::allocate(n * sizeof(float));
  Result<DeviceBuffer> y = DeviceBuffer::allocate(n * sizeof(float));
  ASSERT_TRUE(x.ok() && y.ok());
  ASSERT_TRUE(x.value.fill(0).ok());
  uint64_t xPointer = x.value.devicePointer();
  uint64_t yPointer = y.value.devicePointer();
  void *params[] = {&xPointer, &yPointer, &n};

  ASSERT_TRUE(timer.value.start(stream.value.handle()).ok());
  for (int i = 0; i < 10; ++i) {
    Status launched = affine.value.launch(n / 256, 1, 1, 256, 1, 1, 0,
                                          stream.value.handle(), params);
    ASSERT_TRUE(launched.ok()) << launched.message;
  }
  ASSERT_TRUE(timer.value.stop(stream.value.handle()).ok());
  Result<float> milliseconds = timer.value.elapsedMilliseconds();
  ASSERT_TRUE(milliseconds.ok()) << milliseconds.status.message;
  EXPECT_GT(milliseconds.value, 0.0f);
  EXPECT_TRUE(std::isfinite(milliseconds.value));
  Status synced = stream.value.synchronize();
  EXPECT_TRUE(synced.ok()) << synced.message;

  std::vector<float> out(16);
  ASSERT_TRUE(y.value.copyToHost(out.data(), out.size() * sizeof(float)).ok());
  for (float value : out)
    EXPECT_EQ(value, 1.0f);
  std::printf("10 launches over %u floats: %.3f ms\n", n, milliseconds.value);
}

TEST_F(RuntimeGpuTest, PointerDeviceOfBuffersAndHostMemory) {
  Result<int> current = currentDevice();
  ASSERT_TRUE(current.ok()) << current.status.message;
  Result<DeviceBuffer> buffer = DeviceBuffer::allocate(4096);
  ASSERT_TRUE(buffer.ok()) << buffer.status.message;
  Result<int> device = pointerDevice(buffer.value.devicePointer());
  ASSERT_TRUE(device.ok()) << device.status.message;
  EXPECT_EQ(device.value, current.value);
  // An address inside the allocation belongs to it too.
  device = pointerDevice(buffer.value.devicePointer() + 100);
  ASSERT_TRUE(device.ok()) << device.status.message;
  EXPECT_EQ(device.value, current.value);

  // Ordinary host memory is unknown to the driver: an error that names the
  // call and the address.
  std::vector<char> host(64);
  Result<int> onHost =
      pointerDevice(reinterpret_cast<std::uintptr_t>(host.data()));
  ASSERT_FALSE(onHost.ok());
  EXPECT_NE(onHost.status.message.find("cuPointerGetAttribute"),
            std::string::npos)
      << onHost.status.message;
  EXPECT_NE(onHost.status.message.find("0x"), std::string::npos)
      << onHost.status.message;
}

TEST_F(RuntimeGpuTest, DeviceCanAccessBuffersButNotPageableHostMemory) {
  Result<DeviceBuffer> buffer = DeviceBuffer::allocate(4096);
  ASSERT_TRUE(buffer.ok()) << buffer.status.message;
  Result<bool> device = deviceCanAccess(buffer.value.devicePointer() + 100);
  ASSERT_TRUE(device.ok()) << device.status.message;
  EXPECT_TRUE(device.value);
  std::vector<char> host(64);
  Result<bool> pageable =
      deviceCanAccess(reinterpret_cast<std::uintptr_t>(host.data()));
  ASSERT_TRUE(pageable.ok()) << pageable.status.message;
  EXPECT_FALSE(pageable.value);
}

TEST_F(RuntimeGpuTest, DeviceScopeOnTheCurrentDeviceSwitchesNothing) {
  Result<int> current = currentDevice();
  ASSERT_TRUE(current.ok()) << current.status.message;
  for (int ordinal : {current.value, -1}) {
    DeviceScope scope;
    Status entered = scope.enter(ordinal);
    ASSERT_TRUE(entered.ok()) << entered.message;
    EXPECT_FALSE(scope.switched()) << "ordinal " << ordinal;
    EXPECT_NE(scope.context(), nullptr);
    // A module loaded in the scope belongs to the scope's context, and the
    // launch there is correct.
    Module module = loadAffine();
    EXPECT_EQ(module.context(), scope.context());
    Result<Function> affine = module.getFunction("affine");
    ASSERT_TRUE(affine.ok()) << affine.status.message;
    runAffineAndCheck(affine.value, 3001, 128);
  }
  Result<int> after = currentDevice();
  ASSERT_TRUE(after.ok()) << after.status.message;
  EXPECT_EQ(after.value, current.value);

  DeviceScope invalid;
  Result<int> count = deviceCount();
  ASSERT_TRUE(count.ok());
  Status failed = invalid.enter(count.value + 3);
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.message.find("CUDA_ERROR_INVALID_DEVICE"),
            std::string::npos)
      << failed.message;
  EXPECT_FALSE(invalid.switched());
}

/// Cases for processes that see two GPUs or more.
class RuntimeMultiGpuTest : public RuntimeGpuTest {
protected:
  void SetUp() override {
    RuntimeGpuTest::SetUp();
    if (IsSkipped())
      return;
    Result<int> count = deviceCount();
    if (!count.ok() || count.value < 2)
      GTEST_SKIP() << "needs two CUDA devices";
  }
};

TEST_F(RuntimeMultiGpuTest, DeviceScopeLaunchesOnAnotherDeviceAndRestores) {
  ASSERT_TRUE(setCurrentDevice(0).ok());
  {
    DeviceScope scope;
    Status entered = scope.enter(1);
    ASSERT_TRUE(entered.ok()) << entered.message;
    EXPECT_TRUE(scope.switched());
    Result<int> inside = currentDevice();
    ASSERT_TRUE(inside.ok()) << inside.status.message;
    EXPECT_EQ(inside.value, 1);

    // Memory, module and launch on device 1; the result checked element by
    // element.
    Module module = loadAffine();
    EXPECT_EQ(module.context(), scope.context());
    Result<Function> affine = module.getFunction("affine");
    ASSERT_TRUE(affine.ok()) << affine.status.message;
    runAffineAndCheck(affine.value, 5003, 256);
    Result<DeviceBuffer> buffer = DeviceBuffer::allocate(256);
    ASSERT_TRUE(buffer.ok()) << buffer.status.message;
    Result<int> owner = pointerDevice(buffer.value.devicePointer());
    ASSERT_TRUE(owner.ok()) << owner.status.message;
    EXPECT_EQ(owner.value, 1);

    // A nested scope on the device already current switches nothing.
    DeviceScope nested;
    ASSERT_TRUE(nested.enter(1).ok());
    EXPECT_FALSE(nested.switched());
    EXPECT_EQ(nested.context(), scope.context());
  }
  Result<int> after = currentDevice();
  ASSERT_TRUE(after.ok()) << after.status.message;
  EXPECT_EQ(after.value, 0);
}

TEST_F(RuntimeMultiGpuTest, ModuleUnloadsInItsOwnContext) {
  ASSERT_TRUE(setCurrentDevice(0).ok());
  Module onDevice1;
  void *context1 = nullptr;
  {
    DeviceScope scope;
    ASSERT_TRUE(scope.enter(1).ok());
    context1 = scope.context();
    onDevice1 = loadAffine();
  }
  EXPECT_EQ(onDevice1.context(), context1);
  // Destroyed while device 0 is current: unloaded in device 1's context,
  // and device 0 stays current.
  onDevice1 = Module();
  Result<int> after = currentDevice();
  ASSERT_TRUE(after.ok()) << after.status.message;
  EXPECT_EQ(after.value, 0);
  // Device 0 still works.
  Module module = loadAffine();
  Result<Function> affine = module.getFunction("affine");
  ASSERT_TRUE(affine.ok()) << affine.status.message;
  runAffineAndCheck(affine.value, 777, 128);
}

TEST_F(RuntimeMultiGpuTest, DeviceScopeOnAThreadWithoutContext) {
  ASSERT_TRUE(setCurrentDevice(0).ok());
  std::thread worker([] {
    {
      DeviceScope scope;
      ASSERT_TRUE(scope.enter(1).ok());
      Result<int> inside = currentDevice();
      ASSERT_TRUE(inside.ok()) << inside.status.message;
      EXPECT_EQ(inside.value, 1);
      Module module = loadAffine();
      Result<Function> affine = module.getFunction("affine");
      ASSERT_TRUE(affine.ok()) << affine.status.message;
      runAffineAndCheck(affine.value, 1025, 256);
    }
    // The thread's previous context (the runtime's default one) again.
    Result<int> after = currentDevice();
    ASSERT_TRUE(after.ok()) << after.status.message;
    EXPECT_EQ(after.value, 0);
  });
  worker.join();
}

} // namespace
