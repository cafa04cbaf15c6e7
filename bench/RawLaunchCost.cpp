// The floor under any launcher on this machine: host time of cuLaunchKernel
// for a tiny kernel, called from C++ through the runtime with nothing else
// around it (256 launches per run, fewer than the launch queue holds, so no
// launch waits for the GPU; median of 21 runs).
//
//   raw-launch-cost <source root>
#include "../test/GPU/GpuTestSupport.h"

#include <algorithm>
#include <chrono>
#include <vector>

using namespace terrazzo;
using namespace terrazzo::gputest;

int main(int argc, char **argv) {
  std::string root = argc > 1 ? argv[1] : ".";
  runtime::Status status = runtime::initialize();
  if (!status.ok() || !runtime::isAvailable()) {
    std::printf("SKIP: no CUDA GPU here (%s)\n", status.message.c_str());
    return 77;
  }
  LoadedKernel kernel =
      compileAndLoad(readFile(root + "/tutorials/vector-add.mlir"), "vector-add");
  constexpr int n = 1024;
  Buffer<float> x(n), y(n), out(n);
  x.upload();
  y.upload();
  uint64_t px = x.pointer(), py = y.pointer(), po = out.pointer();
  int32_t count = n;
  void *params[] = {&px, &py, &po, &count};
  auto launchOnce = [&] {
    check(kernel.function.launch(1, 1, 1, kernel.metadata.threadsPerBlock, 1, 1,
                                 0, nullptr, params),
          "launch");
  };
  launchOnce();
  check(runtime::synchronize(), "warm-up");
  std::vector<double> runs;
  for (int r = 0; r < 21; ++r) {
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < 256; ++i)
      launchOnce();
    auto end = std::chrono::steady_clock::now();
    runs.push_back(std::chrono::duration<double, std::micro>(end - start).count() /
                   256);
    check(runtime::synchronize(), "sync");
  }
  std::sort(runs.begin(), runs.end());
  std::printf("cuLaunchKernel through the runtime, issue only: %.2f us per "
              "launch (median of 21 runs of 256)\n",
              runs[runs.size() / 2]);
  return 0;
}
