// Bandwidth of Terrazzo's vector add against a device-to-device copy,
// measured in one run on the same buffers:
//
//   vector-add-bandwidth <source root> [log2 n = 26]
//
// The kernel is tutorials/vector-add.mlir with its block size varied. Each
// figure is the median of 100 timed launches (CUDA events) after 10 warm-up
// launches, on fresh random data; the result is checked. Bytes moved: the
// copy reads and writes n floats, the add reads 2n and writes n.
#include "../test/GPU/GpuTestSupport.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

using namespace terrazzo;
using namespace terrazzo::gputest;

namespace {

constexpr int kWarmup = 10;
constexpr int kRuns = 100;

template <typename Launch> double medianMilliseconds(Launch launchOnce) {
  for (int i = 0; i < kWarmup; ++i)
    launchOnce();
  check(runtime::synchronize(), "warm-up");
  auto timer = take(runtime::EventTimer::create(), "event timer");
  std::vector<double> times;
  for (int i = 0; i < kRuns; ++i) {
    check(timer.start(), "timer start");
    launchOnce();
    check(timer.stop(), "timer stop");
    times.push_back(take(timer.elapsedMilliseconds(), "elapsed time"));
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

std::string replaceAll(std::string text, const std::string &from,
                       const std::string &to) {
  for (size_t pos = text.find(from); pos != std::string::npos;
       pos = text.find(from, pos + to.size()))
    text.replace(pos, from.size(), to);
  return text;
}

} // namespace

int main(int argc, char **argv) {
  std::string root = argc > 1 ? argv[1] : ".";
  int log2n = argc > 2 ? std::atoi(argv[2]) : 26;
  size_t n = size_t(1) << log2n;
  runtime::Status status = runtime::initialize();
  if (!status.ok() || !runtime::isAvailable()) {
    std::printf("SKIP: no CUDA GPU here (%s)\n", status.message.c_str());
    return 77;
  }
  auto properties = take(runtime::getDeviceProperties(0), "device properties");
  std::printf("device: %s, n = 2^%d float32\n", properties.name.c_str(), log2n);

  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> dist(-1, 1);
  Buffer<float> x(n), y(n), out(n);
  for (size_t i = 0; i < n; ++i) {
    x.host[i] = dist(rng);
    y.host[i] = dist(rng);
  }
  x.upload();
  y.upload();

  double bytesCopy = 2.0 * n * sizeof(float);
  double copyMs = medianMilliseconds(
      [&] { check(out.device.copyFrom(x.device), "device-to-device copy"); });
  double copyGBs = bytesCopy / copyMs / 1e6;
  std::printf("%-34s %9.3f ms %8.0f GB/s\n", "device-to-device copy (cuMemcpy)",
              copyMs, copyGBs);

  std::string tutorial = readFile(root + "/tutorials/vector-add.mlir");
  double best = 0;
  struct Config {
    int block;
    int warps;
  };
  for (Config config : {Config{1024, 4}, Config{2048, 4}, Config{4096, 4},
                        Config{4096, 8}, Config{8192, 8}}) {
    std::string source =
        replaceAll(tutorial, "1024", std::to_string(config.block));
    LoadedKernel kernel = compileAndLoad(source, "vector-add.mlir", config.warps);
    unsigned grid = unsigned((n + config.block - 1) / config.block);
    auto launchOnce = [&] {
      launch(kernel, grid, 1, x.pointer(), y.pointer(), out.pointer(),
             int32_t(n));
    };
    out.poison();
    launchOnce();
    check(runtime::synchronize(), "vector add");
    out.download();
    size_t wrong = 0;
    for (size_t i = 0; i < n; ++i)
      wrong += out.host[i] != x.host[i] + y.host[i];
    double ms = medianMilliseconds(launchOnce);
    double gbs = 3.0 * n * sizeof(float) / ms / 1e6;
    best = std::max(best, gbs);
    char label[64];
    std::snprintf(label, sizeof(label), "terrazzo add BLOCK=%d warps=%d",
                  config.block, config.warps);
    std::printf("%-34s %9.3f ms %8.0f GB/s  %5.1f%% of copy  %s  (compiled "
                "in %.1f ms)\n",
                label, ms, gbs, 100 * gbs / copyGBs,
                wrong ? "WRONG RESULT" : "checked", kernel.compileMilliseconds);
    if (wrong)
      return 1;
  }
  std::printf("best terrazzo vector add: %.0f GB/s = %.1f%% of the copy's %.0f "
              "GB/s\n",
              best, 100 * best / copyGBs, copyGBs);
  return 0;
}
