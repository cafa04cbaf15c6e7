// Tests of include/terrazzo/AOT.h: which embedded binary runs on a device of
// a given compute capability, and load()'s errors. The registry is filled
// here by hand, the way terrazzo_add_kernels' generated sources fill it;
// each test uses kernel names of its own.
#include "terrazzo/AOT.h"

#include <gtest/gtest.h>

#include <string>

using terrazzo::aot::Kernel;

namespace {

const unsigned char kBytes[] = {0};

Kernel entry(const char *name, const char *target, const char *kind) {
  return Kernel{name, target, kind, kBytes, sizeof(kBytes), 4, 128, 0, 0,
                "{}", nullptr};
}

Kernel cubins[] = {entry("cubins", "cuda:80", "cubin"),
                   entry("cubins", "cuda:86", "cubin"),
                   entry("cubins", "cuda:90", "cubin")};
Kernel mixed[] = {entry("mixed", "cuda:80", "ptx"),
                  entry("mixed", "cuda:80", "cubin"),
                  entry("mixed", "cuda:90", "ptx"),
                  entry("mixed", "cuda:90", "cubin")};
const terrazzo::aot::Registration registerCubins(cubins, 3);
const terrazzo::aot::Registration registerMixed(mixed, 4);

/// The candidates for a device, best first: "target kind, ...".
std::string chosen(const char *name, int major, int minor) {
  std::string text;
  for (const Kernel *kernel : terrazzo::aot::candidates(name, major, minor))
    text += std::string(text.empty() ? "" : ", ") + kernel->target + " " +
            kernel->binaryKind;
  return text.empty() ? "none" : text;
}

TEST(AOT, TargetCapability) {
  EXPECT_EQ(terrazzo::aot::targetCapability("cuda:80"), 80);
  EXPECT_EQ(terrazzo::aot::targetCapability("cuda:100"), 100);
  EXPECT_EQ(terrazzo::aot::targetCapability("cuda:"), -1);
  EXPECT_EQ(terrazzo::aot::targetCapability("cuda:90a"), -1);
  EXPECT_EQ(terrazzo::aot::targetCapability("hip:gfx942"), -1);
}

TEST(AOT, CubinsOfTheSameMajorAtOrBelowTheDevice) {
  EXPECT_EQ(chosen("cubins", 8, 0), "cuda:80 cubin");
  // The device's own capability first, then the newest below it.
  EXPECT_EQ(chosen("cubins", 8, 6), "cuda:86 cubin, cuda:80 cubin");
  EXPECT_EQ(chosen("cubins", 8, 9), "cuda:86 cubin, cuda:80 cubin");
  EXPECT_EQ(chosen("cubins", 9, 0), "cuda:90 cubin");
  // A cubin never runs on another major architecture, nor on an older GPU.
  EXPECT_EQ(chosen("cubins", 10, 0), "none");
  EXPECT_EQ(chosen("cubins", 7, 5), "none");
  EXPECT_EQ(terrazzo::aot::find("cubins", 10, 0), nullptr);
  ASSERT_NE(terrazzo::aot::find("cubins", 8, 9), nullptr);
  EXPECT_STREQ(terrazzo::aot::find("cubins", 8, 9)->target, "cuda:86");
}

TEST(AOT, CubinsBeforePTX) {
  EXPECT_EQ(chosen("mixed", 9, 0), "cuda:90 cubin, cuda:90 ptx, cuda:80 ptx");
  EXPECT_EQ(chosen("mixed", 8, 6), "cuda:80 cubin, cuda:80 ptx");
  // PTX is tried on every later GPU (the driver compiles it, or rejects
  // arch-specific sm_90a code, and load() goes on to the next).
  EXPECT_EQ(chosen("mixed", 10, 0), "cuda:90 ptx, cuda:80 ptx");
  EXPECT_EQ(chosen("mixed", 7, 0), "none");
}

TEST(AOT, EveryRegisteredKernelIsListed) {
  int count = 0;
  for (const Kernel *kernel = terrazzo::aot::first(); kernel; kernel = kernel->next)
    count += std::string(kernel->name) == "cubins" || std::string(kernel->name) == "mixed";
  EXPECT_EQ(count, 7);
  EXPECT_EQ(terrazzo::aot::find("unknown", 9, 0), nullptr);
}

TEST(AOT, LoadFailsWithAMessage) {
  // Without a GPU the driver's error; with one, that nothing of this name
  // is embedded.
  auto loaded = terrazzo::aot::load("no_such_kernel");
  EXPECT_FALSE(loaded.ok());
  EXPECT_FALSE(loaded.status.message.empty());
  if (terrazzo::runtime::isAvailable()) {
    EXPECT_NE(loaded.status.message.find("no embedded kernel 'no_such_kernel'"),
              std::string::npos)
        << loaded.status.message;
  }
}

} // namespace
