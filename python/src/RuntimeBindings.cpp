// terrazzo._C.runtime_available, runtime_error, current_target and
// synchronize: the device side of include/terrazzo/Runtime.h that the
// frontend needs besides Kernel.
#include "Common.h"

#include "terrazzo/Runtime.h"

#include <mutex>
#include <stdexcept>
#include <unordered_map>

namespace terrazzo::python {
namespace {

std::string runtimeError() {
  runtime::Status status = runtime::initialize();
  if (!status.ok())
    return status.message;
  runtime::Result<int> count = runtime::deviceCount();
  if (!count.ok())
    return count.status.message;
  if (count.value == 0)
    return "the CUDA driver reports no device";
  return "";
}

std::string currentTarget() {
  runtime::Result<int> device = runtime::currentDevice();
  if (!device.ok())
    throw std::runtime_error(device.status.message);
  // The properties of a device do not change: ask the driver once.
  static std::mutex mutex;
  static std::unordered_map<int, std::string> targets;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = targets.find(device.value);
  if (it != targets.end())
    return it->second;
  runtime::Result<runtime::DeviceProperties> properties =
      runtime::getDeviceProperties(device.value);
  if (!properties.ok())
    throw std::runtime_error(properties.status.message);
  std::string target =
      "cuda:" + std::to_string(properties.value.computeCapabilityMajor) +
      std::to_string(properties.value.computeCapabilityMinor);
  targets.emplace(device.value, target);
  return target;
}

} // namespace

void registerRuntimeBindings(py::module_ &m) {
  m.def(
      "runtime_available",
      []() {
        py::gil_scoped_release release;
        return runtime::isAvailable();
      },
      "True when the CUDA driver loads and reports at least one device.");
  m.def(
      "runtime_error",
      []() {
        py::gil_scoped_release release;
        return runtimeError();
      },
      "Why the runtime is unavailable (the driver's message), or '' when it "
      "is available.");
  m.def(
      "current_target",
      []() {
        py::gil_scoped_release release;
        return currentTarget();
      },
      "The target of the current device, e.g. 'cuda:90'; RuntimeError "
      "without one.");
  m.def(
      "synchronize",
      []() {
        runtime::Status status;
        {
          py::gil_scoped_release release;
          status = runtime::synchronize();
        }
        if (!status.ok())
          throw std::runtime_error(status.message);
      },
      "Waits for all work on the current context (cuCtxSynchronize).");
}

} // namespace terrazzo::python
