// Runs the test binary again as a child process that reports what the
// runtime's initialize() says for one platform, then exits before gtest
// starts. initialize() runs once per process, so every case about loading a
// driver library (missing, without symbols, failing to initialize) needs a
// process of its own. Used by RuntimeTest.cpp (CUDA) and HipRuntimeTest.cpp.
#ifndef TERRAZZO_TEST_UNIT_CHILDPROCESS_H
#define TERRAZZO_TEST_UNIT_CHILDPROCESS_H

#include "terrazzo/Runtime.h"

#include <string>
#include <utility>
#include <vector>

namespace terrazzo::test {

/// Set in a child's environment to the platform it reports on ("cuda",
/// "hip"); a process started with it reports and exits.
constexpr const char *kChildVariable = "TERRAZZO_RUNTIME_TEST_CHILD";

struct ChildReport {
  bool ran = false;
  std::string output; // everything the child wrote, for failure messages
  std::string status; // initialize()'s message, or "OK"
  bool sameOnSecondCall = false;
  bool available = true;
  /// getDeviceProperties(0).target, or its error message.
  std::string target;
  /// platformName(defaultPlatform()).
  std::string defaultPlatform;
};

/// Runs this test binary as a child reporting on `platform`, with the
/// environment of this process changed by `environment`: each NAME=VALUE
/// replaces NAME, and a VALUE of nullptr removes it.
ChildReport
runChild(runtime::Platform platform,
         const std::vector<std::pair<std::string, const char *>> &environment);

} // namespace terrazzo::test

#endif // TERRAZZO_TEST_UNIT_CHILDPROCESS_H
