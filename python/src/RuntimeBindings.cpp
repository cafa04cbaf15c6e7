// terrazzo._C.runtime_available, runtime_error, current_target, platform,
// synchronize, device_count, current_device, set_current_device,
// device_properties and kernel_attributes: the device side of
// include/terrazzo/Runtime.h that the frontend needs besides Kernel (the
// device queries of terrazzo.runtime.driver go through these, so that one
// implementation talks to the driver), each for the platform launches run on
// (devicePlatform: CUDA's devices, else HIP's).
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

/// Runs `query` (a runtime call returning a Result) without the GIL: its
/// value, or RuntimeError with the runtime's message.
template <typename Query> auto withoutGil(Query query) {
  decltype(query()) result;
  {
    py::gil_scoped_release release;
    result = query();
  }
  if (!result.ok())
    throw std::runtime_error(result.status.message);
  return std::move(result.value);
}

py::dict deviceProperties(int ordinal) {
  runtime::DeviceProperties p =
      withoutGil([&] {
        return runtime::getDeviceProperties(ordinal, devicePlatform());
      });
  py::dict out;
  out["name"] = p.name;
  out["target"] = p.target;
  out["architecture"] = p.architecture;
  out["compute_capability"] =
      py::make_tuple(p.computeCapabilityMajor, p.computeCapabilityMinor);
  out["multiprocessor_count"] = p.multiprocessorCount;
  out["max_threads_per_block"] = p.maxThreadsPerBlock;
  out["warp_size"] = p.warpSize;
  out["max_shared_memory_per_block"] = p.maxSharedMemoryPerBlock;
  out["max_shared_memory_per_block_optin"] = p.maxSharedMemoryPerBlockOptin;
  out["max_registers_per_block"] = p.maxRegistersPerBlock;
  out["max_threads_per_multiprocessor"] = p.maxThreadsPerMultiprocessor;
  out["clock_rate_khz"] = p.clockRateKHz;
  out["memory_clock_rate_khz"] = p.memoryClockRateKHz;
  out["memory_bus_width_bits"] = p.memoryBusWidthBits;
  out["total_memory"] = p.totalMemoryBytes;
  return out;
}

/// The attributes of kernel `name` of a binary loaded (and unloaded again)
/// in the current context, by the driver of the devices launches run on.
runtime::Result<runtime::Function::Attributes>
loadAndAsk(const std::string &binary, const std::string &name) {
  runtime::Result<runtime::Function::Attributes> attributes;
  runtime::Result<runtime::Module> module =
      runtime::Module::load(binary.data(), binary.size(), devicePlatform());
  if (!module.ok()) {
    attributes.status = module.status;
    return attributes;
  }
  runtime::Result<runtime::Function> function = module.value.getFunction(name);
  if (!function.ok()) {
    attributes.status = function.status;
    return attributes;
  }
  return function.value.attributes();
}

py::dict kernelAttributes(const std::string &binary, const std::string &name) {
  runtime::Function::Attributes a =
      withoutGil([&] { return loadAndAsk(binary, name); });
  py::dict out;
  out["num_regs"] = a.numRegisters;
  out["max_threads"] = a.maxThreadsPerBlock;
  out["shared_bytes"] = a.staticSharedBytes;
  out["local_bytes"] = a.localBytes;
  out["max_dynamic_shared_bytes"] = a.maxDynamicSharedBytes;
  return out;
}

} // namespace

void registerRuntimeBindings(py::module_ &m) {
  m.def(
      "device_count",
      []() {
        return withoutGil([] { return runtime::deviceCount(devicePlatform()); });
      },
      "The number of devices the driver reports; RuntimeError without a "
      "driver.");
  m.def(
      "current_device",
      []() {
        return withoutGil(
            [] { return runtime::currentDevice(devicePlatform()); });
      },
      "The device of the calling thread's current context (the runtime's "
      "default one made current if the thread had none; HIP: the thread's "
      "current device).");
  m.def(
      "set_current_device",
      [](int ordinal) {
        runtime::Status status;
        {
          py::gil_scoped_release release;
          status = runtime::setCurrentDevice(ordinal, devicePlatform());
        }
        if (!status.ok())
          throw std::runtime_error(status.message);
      },
      py::arg("ordinal"),
      "Makes the primary context of device `ordinal` current on the calling "
      "thread.");
  m.def("device_properties", &deviceProperties, py::arg("ordinal"),
        "A device's properties (runtime::DeviceProperties): name, target "
        "('cuda:90', 'hip:gfx942'), architecture ('sm_90', HIP's "
        "gcnArchName), compute_capability (major, minor), multiprocessor_count, "
        "max_threads_per_block, warp_size, max_shared_memory_per_block, "
        "max_shared_memory_per_block_optin, max_registers_per_block, "
        "max_threads_per_multiprocessor, clock_rate_khz, "
        "memory_clock_rate_khz, memory_bus_width_bits, total_memory.");
  m.def(
      "kernel_attributes",
      [](py::bytes binary, const std::string &name) {
        return kernelAttributes(std::string(binary), name);
      },
      py::arg("binary"), py::arg("name"),
      "What the driver reports of kernel `name` of a binary loaded into the "
      "current context (runtime::Function::Attributes): num_regs, "
      "max_threads, shared_bytes (static), local_bytes (per thread: spills), "
      "max_dynamic_shared_bytes.");
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
