// terrazzo._C.runtime_available, runtime_error, current_target, platform and
// synchronize: the device side of include/terrazzo/Runtime.h that the
// frontend needs besides Kernel.
#include "Common.h"
#include "Kernel.h"

#include "terrazzo/Runtime.h"

#include <mutex>
#include <stdexcept>
#include <unordered_map>

namespace terrazzo::python {
namespace {

std::string runtimeError() {
  runtime::Platform platform = devicePlatform();
  runtime::Status status = runtime::initialize(platform);
  if (!status.ok())
    return status.message;
  runtime::Result<int> count = runtime::deviceCount(platform);
  if (!count.ok())
    return count.status.message;
  if (count.value == 0)
    return platform == runtime::Platform::Hip
               ? "the HIP driver reports no device"
               : "the CUDA driver reports no device";
  return "";
}

std::string currentTarget() {
  runtime::Platform platform = devicePlatform();
  runtime::Result<int> device = runtime::currentDevice(platform);
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
      runtime::getDeviceProperties(device.value, platform);
  if (!properties.ok())
    throw std::runtime_error(properties.status.message);
  targets.emplace(device.value, properties.value.target);
  return properties.value.target;
}

} // namespace

void registerRuntimeBindings(py::module_ &m) {
  m.def(
      "runtime_available",
      []() {
        py::gil_scoped_release release;
        return runtime::isAvailable(devicePlatform());
      },
      "True when the GPU driver (CUDA's, else HIP's) loads and reports at "
      "least one device.");
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
      "The target of the current device, e.g. 'cuda:90' or 'hip:gfx942'; "
      "RuntimeError without one.");
  m.def(
      "platform",
      []() {
        py::gil_scoped_release release;
        return std::string(runtime::platformName(devicePlatform()));
      },
      "'cuda' or 'hip': the platform whose devices launches run on (CUDA "
      "when its driver reports a device, else HIP when its driver does, else "
      "CUDA).");
  m.def(
      "synchronize",
      []() {
        runtime::Status status;
        {
          py::gil_scoped_release release;
          status = runtime::synchronize(devicePlatform());
        }
        if (!status.ok())
          throw std::runtime_error(status.message);
      },
      "Waits for all work on the current context (cuCtxSynchronize; "
      "hipDeviceSynchronize on HIP).");
}

} // namespace terrazzo::python
