// Global scratch for kernel launches (see GlobalScratch.h).
#include "GlobalScratch.h"

#include "terrazzo/Runtime.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>
#include <utility>

namespace terrazzo::python {
namespace {

/// The user's allocator, or None. Never destroyed: it may outlive the
/// interpreter's teardown order.
py::object &allocator() {
  static py::object *fn = new py::object(py::none());
  return *fn;
}

/// torch's current CUDA device when torch is imported with CUDA, else -1.
int torchCurrentDevice(py::object &torch) {
  PyObject *module = PyImport_GetModule(py::str("torch").ptr());
  if (!module) {
    if (PyErr_Occurred())
      throwPythonError();
    return -1;
  }
  torch = py::reinterpret_steal<py::object>(module);
  try {
    return py::cast<int>(torch.attr("cuda").attr("current_device")());
  } catch (py::error_already_set &) { // a torch without CUDA
    return -1;
  }
}

/// Calls the allocator; with device `device` current in torch when it is
/// not, since an allocator such as `torch.empty(size, device="cuda")`
/// allocates on torch's current device.
py::object callAllocator(std::uint64_t bytes, std::uintptr_t stream,
                         int device) {
  auto call = [&] {
    return allocator()(py::int_(bytes), py::int_(kGlobalScratchAlignment),
                       py::int_(stream));
  };
  py::object torch;
  int current = device < 0 ? -1 : torchCurrentDevice(torch);
  if (current < 0 || current == device)
    return call();
  py::object guard = torch.attr("cuda").attr("device")(device);
  guard.attr("__enter__")();
  py::object result;
  try {
    result = call();
  } catch (...) {
    guard.attr("__exit__")(py::none(), py::none(), py::none());
    throw;
  }
  guard.attr("__exit__")(py::none(), py::none(), py::none());
  return result;
}

std::uint64_t fromAllocator(std::uint64_t bytes, std::uintptr_t stream,
                            int device, py::object &owner) {
  owner = callAllocator(bytes, stream, device);
  std::uint64_t pointer;
  if (py::hasattr(owner, "data_ptr"))
    pointer = py::cast<std::uint64_t>(owner.attr("data_ptr")());
  else
    pointer = py::cast<std::uint64_t>(owner);
  if (pointer % kGlobalScratchAlignment)
    raise(PyExc_ValueError,
          "the allocator set with set_allocator returned memory aligned to "
          "less than the " +
              std::to_string(kGlobalScratchAlignment) +
              " bytes that were asked for");
  return pointer;
}

/// The extension's own scratch: one buffer per (device, stream), kept
/// between launches. Growing it waits for the device, since kernels queued
/// before may still read the old buffer.
std::uint64_t fromCache(std::uint64_t bytes, std::uintptr_t stream,
                        int device, runtime::Platform platform) {
  static std::mutex mutex;
  static auto *buffers =
      new std::map<std::pair<int, std::uintptr_t>, runtime::DeviceBuffer>();
  // Allocation, and the synchronisation before growing, in the launch
  // device's context.
  runtime::DeviceScope scope;
  if (runtime::Status status = scope.enter(device, platform); !status.ok())
    throw std::runtime_error(status.message);
  runtime::Result<int> current = runtime::currentDevice(platform);
  if (!current.ok())
    throw std::runtime_error(current.status.message);
  std::lock_guard<std::mutex> lock(mutex);
  runtime::DeviceBuffer &buffer = (*buffers)[{current.value, stream}];
  if (buffer.size() < bytes) {
    if (buffer.size())
      if (runtime::Status status = runtime::synchronize(platform);
          !status.ok())
        throw std::runtime_error(status.message);
    // Room to grow a little without another synchronisation.
    runtime::Result<runtime::DeviceBuffer> grown =
        runtime::DeviceBuffer::allocate(std::max<std::uint64_t>(bytes, 4096),
                                        platform);
    if (!grown.ok())
      throw std::runtime_error("cannot allocate " + std::to_string(bytes) +
                               " bytes of global scratch for tensor "
                               "descriptors: " +
                               grown.status.message);
    buffer = std::move(grown.value);
  }
  return buffer.devicePointer();
}

} // namespace

GlobalScratch acquireGlobalScratch(std::uint64_t bytes, std::uintptr_t stream,
                                   int device, runtime::Platform platform) {
  GlobalScratch scratch;
  if (!allocator().is_none())
    scratch.pointer = fromAllocator(bytes, stream, device, scratch.owner);
  else
    scratch.pointer = fromCache(bytes, stream, device, platform);
  return scratch;
}

void registerGlobalScratch(py::module_ &m) {
  m.def(
      "set_allocator",
      [](py::object fn) {
        if (!fn.is_none() && !PyCallable_Check(fn.ptr()))
          raise(PyExc_TypeError, "the allocator must be callable (size, "
                                 "alignment, stream) -> tensor, or None");
        allocator() = std::move(fn);
      },
      py::arg("allocator"),
      "Sets the allocator of the global scratch kernels with TMA "
      "descriptors need: fn(size, alignment, stream) returning a tensor (or "
      "anything with data_ptr(), or an address); None restores the "
      "extension's own cached buffer.");
  m.def("get_allocator", [] { return allocator(); });
}

} // namespace terrazzo::python
