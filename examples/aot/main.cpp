// Launches kernels compiled ahead of time (examples/aot/CMakeLists.txt) with
// Terrazzo's runtime alone: vector add (tile IR) and saxpy (Python), on
// random inputs with masked tails, checked against a float64 reference.
//
//   aot-example           run both kernels on the GPU; exit 0 when correct
//   aot-example --list    print the embedded kernels (no GPU needed)
//
// Exits 77 when there is no CUDA device, 1 on a wrong result or an error.
#include "terrazzo/AOT.h"
#include "terrazzo/Runtime.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

namespace rt = terrazzo::runtime;

namespace {

bool check(const rt::Status &status, const char *what) {
  if (!status.ok())
    std::fprintf(stderr, "error: %s: %s\n", what, status.message.c_str());
  return status.ok();
}

struct Buffers {
  rt::DeviceBuffer x, y, out;
};

bool upload(const std::vector<float> &x, const std::vector<float> &y,
            Buffers &buffers) {
  std::size_t bytes = x.size() * sizeof(float);
  for (rt::DeviceBuffer *buffer : {&buffers.x, &buffers.y, &buffers.out}) {
    rt::Result<rt::DeviceBuffer> allocated = rt::DeviceBuffer::allocate(bytes);
    if (!check(allocated.status, "allocate"))
      return false;
    *buffer = std::move(allocated.value);
  }
  return check(buffers.x.copyFromHost(x.data(), bytes), "copy x") &&
         check(buffers.y.copyFromHost(y.data(), bytes), "copy y") &&
         check(buffers.out.fill(0xff), "fill out");
}

/// Compares the device's result with `reference`; prints the first
/// mismatch.
bool compare(const char *name, const Buffers &buffers,
             const std::vector<double> &reference) {
  std::vector<float> out(reference.size());
  if (!check(buffers.out.copyToHost(out.data(), out.size() * sizeof(float)),
             "copy out"))
    return false;
  for (std::size_t i = 0; i < out.size(); ++i)
    if (!(std::fabs(out[i] - reference[i]) <= 1e-6 * (1 + std::fabs(reference[i])))) {
      std::fprintf(stderr, "%s: element %zu is %.9g, expected %.9g\n", name, i,
                   out[i], reference[i]);
      return false;
    }
  std::printf("%s: %zu elements correct\n", name, out.size());
  return true;
}

bool run(const char *name, int n, float a) {
  rt::Result<terrazzo::aot::LoadedKernel> kernel = terrazzo::aot::load(name);
  if (!check(kernel.status, name))
    return false;
  std::printf("%s: %s (%s) for this device, %d threads\n", name,
              kernel.value.kernel->target, kernel.value.kernel->binaryKind,
              kernel.value.kernel->threadsPerBlock);

  std::mt19937 random(n);
  std::uniform_real_distribution<float> uniform(-1, 1);
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = uniform(random);
    y[i] = uniform(random);
  }
  Buffers buffers;
  if (!upload(x, y, buffers))
    return false;

  std::uint64_t px = buffers.x.devicePointer(), py = buffers.y.devicePointer(),
                pout = buffers.out.devicePointer();
  std::vector<double> reference(n);
  rt::Status launched;
  bool saxpy = std::strcmp(name, "saxpy_kernel") == 0;
  unsigned block = saxpy ? 512 : 1024; // the kernels' BLOCK
  unsigned grid = unsigned((n + block - 1) / block);
  if (saxpy) {
    void *args[] = {&px, &py, &pout, &a, &n};
    launched = kernel.value.launch(grid, 1, 1, args);
    for (int i = 0; i < n; ++i)
      reference[i] = double(a) * x[i] + y[i];
  } else {
    void *args[] = {&px, &py, &pout, &n};
    launched = kernel.value.launch(grid, 1, 1, args);
    for (int i = 0; i < n; ++i)
      reference[i] = double(x[i]) + y[i];
  }
  if (!check(launched, "launch") || !check(rt::synchronize(), "synchronize"))
    return false;
  return compare(name, buffers, reference);
}

} // namespace

int main(int argc, char **argv) {
  if (argc > 1 && std::strcmp(argv[1], "--list") == 0) {
    for (const terrazzo::aot::Kernel *k = terrazzo::aot::first(); k; k = k->next)
      std::printf("%s %s %s %zu bytes, %d threads, %d bytes of shared memory\n",
                  k->name, k->target, k->binaryKind, k->size,
                  k->threadsPerBlock, k->sharedMemoryBytes);
    return 0;
  }
  if (!rt::isAvailable()) {
    std::fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  // Sizes that leave a partial last block (the vector add kernel's n is a
  // multiple of 16 by its tile IR's divisibility hint).
  bool ok = run("add_kernel", 1000016, 0) && run("saxpy_kernel", 1000003, 2.5f);
  return ok ? 0 : 1;
}
