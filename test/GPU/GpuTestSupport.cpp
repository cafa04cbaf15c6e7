#include "GpuTestSupport.h"

#include <chrono>
#include <map>

namespace terrazzo::gputest {

namespace {
std::string root = ".";
int passed = 0, failed = 0;

std::map<std::string, std::function<void()>> &suites() {
  static std::map<std::string, std::function<void()>> registered;
  return registered;
}
} // namespace

const std::string &sourceRoot() { return root; }

std::mt19937_64 &rng() {
  static std::mt19937_64 generator(std::random_device{}());
  return generator;
}

void report(const std::string &name, bool ok, const std::string &detail) {
  std::printf("%s  %-44s %s\n", ok ? "PASS" : "FAIL", name.c_str(),
              detail.c_str());
  (ok ? passed : failed)++;
}

std::vector<float> randomFloats(size_t n, float low, float high) {
  std::uniform_real_distribution<float> dist(low, high);
  std::vector<float> values(n);
  for (float &value : values)
    value = dist(rng());
  return values;
}

LoadedKernel loadKernel(const std::string &path, int numWarps) {
  LoadedKernel kernel =
      compileAndLoad(readFile(root + "/" + path), path, numWarps);
  std::printf("compiled %-40s %6.1f ms (%s via %s, %d warps)\n", path.c_str(),
              kernel.compileMilliseconds, kernel.metadata.binaryKind.c_str(),
              kernel.metadata.assembler.c_str(), numWarps);
  return kernel;
}

SuiteRegistration::SuiteRegistration(const char *name,
                                     std::function<void()> run) {
  suites()[name] = std::move(run);
}

void runSuites(const std::string &sourceRoot, const std::string &filter) {
  root = sourceRoot;
  for (auto &[name, run] : suites())
    if (name.find(filter) != std::string::npos) {
      std::printf("== suite %s\n", name.c_str());
      run();
    }
}

int passedCount() { return passed; }
int failedCount() { return failed; }

LoadedKernel compileAndLoad(const std::string &source, const std::string &name,
                            int numWarps) {
  CompileOptions options;
  options.target = deviceTarget();
  options.numWarps = numWarps;
  options.stage = Stage::Cubin;
  auto begin = std::chrono::steady_clock::now();
  CompileResult result = compileTileIR(source, name, options);
  auto end = std::chrono::steady_clock::now();
  if (!result.success) {
    std::fprintf(stderr, "error: compiling %s failed:\n%s", name.c_str(),
                 result.formatDiagnostics().c_str());
    std::exit(2);
  }
  LoadedKernel kernel;
  kernel.compileMilliseconds =
      std::chrono::duration<double, std::milli>(end - begin).count();
  kernel.metadata = result.metadata;
  kernel.module = take(runtime::Module::load(result.output.data(),
                                             result.output.size()),
                       "load " + name);
  kernel.function = take(kernel.module.getFunction(result.metadata.name),
                         "function " + result.metadata.name);
  // Above 48 KiB of dynamic shared memory a kernel must opt in.
  if (result.metadata.sharedMemoryBytes > 48 * 1024)
    check(kernel.function.setMaxDynamicSharedMemory(
              result.metadata.sharedMemoryBytes),
          "shared memory of " + result.metadata.name);
  return kernel;
}

} // namespace terrazzo::gputest
