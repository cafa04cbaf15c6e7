#include "GpuTestSupport.h"

#include <chrono>

namespace terrazzo::gputest {

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
