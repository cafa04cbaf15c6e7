// terrazzo._C.Kernel (see Kernel.h) and its binding.
#include "Kernel.h"
#include "GlobalScratch.h"

#include <stdexcept>

namespace terrazzo::python {

Kernel::Kernel(std::string binary, std::string name, int threadsPerBlock,
               int sharedMemoryBytes, std::string signature, bool dryRun,
               int globalScratchBytes)
    : dryRun(dryRun), binary_(std::move(binary)), name_(std::move(name)),
      threadsPerBlock_(threadsPerBlock), sharedMemoryBytes_(sharedMemoryBytes),
      globalScratchBytes_(globalScratchBytes), signature_(std::move(signature)) {
  for (char c : signature_)
    numKernelParams_ += c != '-';
}

runtime::Status Kernel::ensureLoaded() {
  if (loaded_.load(std::memory_order_acquire))
    return runtime::Status::success();
  std::lock_guard<std::mutex> lock(loadMutex_);
  if (loaded_.load(std::memory_order_relaxed))
    return runtime::Status::success();
  runtime::Result<runtime::Module> module =
      runtime::Module::load(binary_.data(), binary_.size());
  if (!module.ok())
    return module.status;
  runtime::Result<runtime::Function> function =
      module.value.getFunction(name_);
  if (!function.ok())
    return function.status;
  // Above 48 KiB, dynamic shared memory needs the kernel's opt-in.
  if (sharedMemoryBytes_ > 48 * 1024)
    if (runtime::Status status =
            function.value.setMaxDynamicSharedMemory(sharedMemoryBytes_);
        !status.ok())
      return status;
  module_ = std::move(module.value);
  function_ = function.value;
  loaded_.store(true, std::memory_order_release);
  return runtime::Status::success();
}

void Kernel::launch(const unsigned grid[3], std::uintptr_t stream,
                    const Slot *slots, void **params) {
  if (dryRun) {
    ++launchCount;
    haveLast_ = true;
    for (int d = 0; d < 3; ++d)
      lastGrid_[d] = grid[d];
    lastStream_ = stream;
    lastSlots_.assign(slots, slots + numKernelParams_);
    return;
  }
  if (!grid[0] || !grid[1] || !grid[2])
    return;
  // The hidden trailing parameter: this launch's global scratch, held (an
  // allocator's tensor) until the launch is queued.
  GlobalScratch scratch;
  Scratch<void *, 33> withScratch(globalScratchBytes_ ? numKernelParams_ + 1
                                                      : 0);
  if (globalScratchBytes_) {
    std::uint64_t programs =
        std::uint64_t(grid[0]) * grid[1] * grid[2];
    scratch = acquireGlobalScratch(programs * std::uint64_t(globalScratchBytes_),
                                   stream);
    for (std::size_t k = 0; k < numKernelParams_; ++k)
      withScratch[k] = params[k];
    withScratch[numKernelParams_] = &scratch.pointer;
    params = withScratch.data();
  }
  runtime::Status status;
  {
    py::gil_scoped_release release;
    status = ensureLoaded();
    if (status.ok())
      status = function_.launch(grid[0], grid[1], grid[2], threadsPerBlock_, 1,
                                1, unsigned(sharedMemoryBytes_),
                                reinterpret_cast<void *>(stream), params);
  }
  if (!status.ok())
    throw std::runtime_error(status.message);
  ++launchCount;
}

py::object Kernel::lastLaunch() const {
  if (!haveLast_)
    return py::none();
  py::tuple args(numKernelParams_);
  std::size_t k = 0;
  for (char c : signature_) {
    if (c == '-')
      continue;
    const Slot &slot = lastSlots_[k];
    py::object value;
    switch (c) {
    case 'p':
      value = py::int_(slot.u64);
      break;
    case 'i':
      value = py::int_(slot.i32);
      break;
    case 'l':
      value = py::int_(slot.i64);
      break;
    case 'f':
      value = py::float_(slot.f32);
      break;
    case 'd':
      value = py::float_(slot.f64);
      break;
    case 'b':
      value = py::bool_(slot.u8 != 0);
      break;
    }
    args[k++] = value;
  }
  py::dict result;
  result["grid"] = py::make_tuple(lastGrid_[0], lastGrid_[1], lastGrid_[2]);
  result["stream"] = py::int_(lastStream_);
  result["args"] = args;
  return std::move(result);
}

namespace {

std::string bytesOf(py::handle object, const char *what) {
  if (PyBytes_Check(object.ptr()))
    return std::string(py::reinterpret_borrow<py::bytes>(object));
  if (PyUnicode_Check(object.ptr()))
    return py::cast<std::string>(object);
  if (PyByteArray_Check(object.ptr()))
    return std::string(PyByteArray_AS_STRING(object.ptr()),
                       PyByteArray_GET_SIZE(object.ptr()));
  raise(PyExc_TypeError, std::string(what) + " must be bytes or str, got " +
                             typeName(object.ptr()));
}

/// Kernel.launch: converts each argument by its signature character.
void launchFromPython(Kernel &kernel, py::handle gridObject,
                      std::uintptr_t stream, py::handle argsObject) {
  unsigned grid[3];
  parseGrid(gridObject.ptr(), grid);
  PyObject *args = argsObject.ptr();
  if (!PyTuple_Check(args) && !PyList_Check(args))
    raise(PyExc_TypeError,
          "args must be a tuple, got " + typeName(args));
  const std::string &signature = kernel.signature();
  Py_ssize_t count = PySequence_Fast_GET_SIZE(args);
  if (count != Py_ssize_t(signature.size()))
    raise(PyExc_TypeError, "kernel '" + kernel.name() + "' takes " +
                               std::to_string(signature.size()) +
                               " arguments (signature '" + signature +
                               "'), got " + std::to_string(count));
  PyObject **items = PySequence_Fast_ITEMS(args);
  std::size_t n = kernel.numKernelParams();
  Scratch<Slot, 32> slots(n);
  Scratch<void *, 32> params(n);
  std::size_t k = 0;
  ArgValue value;
  for (std::size_t i = 0; i < signature.size(); ++i) {
    if (signature[i] == '-')
      continue;
    ParamRef who{i};
    extractArgument(items[i], value, /*wantDtype=*/false, who);
    packArgument(signature[i], value, slots[k], who);
    params[k] = &slots[k];
    ++k;
  }
  kernel.launch(grid, stream, slots.data(), params.data());
}

} // namespace

void registerKernel(py::module_ &m) {
  py::class_<Kernel>(m, "Kernel", R"doc(
A compiled kernel. The binary (cubin or PTX) is loaded on the first launch,
so a Kernel can be created without a GPU. `signature` has one character per
argument: p pointer, i int32, l int64, f float32, d float64, b int1 (passed
as a byte), '-' accepted but not passed (specialized away).)doc")
      .def(py::init([](py::handle binary, std::string name,
                       int threadsPerBlock, int sharedMemoryBytes,
                       std::string signature, py::object dryRun,
                       int globalScratchBytes) {
             checkSignature(signature);
             if (threadsPerBlock < 1 || threadsPerBlock > 1024)
               raise(PyExc_ValueError,
                     "threads_per_block must be 1 to 1024, got " +
                         std::to_string(threadsPerBlock));
             if (sharedMemoryBytes < 0)
               raise(PyExc_ValueError,
                     "shared_memory_bytes must not be negative");
             if (globalScratchBytes < 0)
               raise(PyExc_ValueError,
                     "global_scratch_bytes must not be negative");
             bool dry = dryRun.is_none() ? dryLaunchDefault
                                         : py::cast<bool>(dryRun);
             return new Kernel(bytesOf(binary, "binary"), std::move(name),
                               threadsPerBlock, sharedMemoryBytes,
                               std::move(signature), dry, globalScratchBytes);
           }),
           py::arg("binary"), py::arg("name"), py::arg("threads_per_block"),
           py::arg("shared_memory_bytes"), py::arg("signature"),
           py::kw_only(), py::arg("dry_run") = py::none(),
           py::arg("global_scratch_bytes") = 0)
      .def("launch", &launchFromPython, py::arg("grid"), py::arg("stream"),
           py::arg("args"),
           "Launches on `stream` (a CUstream as an int; 0 for the default "
           "stream) with one argument per signature character.")
      .def_property_readonly("name", &Kernel::name)
      .def_property_readonly("signature", &Kernel::signature)
      .def_property_readonly("threads_per_block", &Kernel::threadsPerBlock)
      .def_property_readonly("shared_memory_bytes",
                             &Kernel::sharedMemoryBytes)
      .def_property_readonly("global_scratch_bytes",
                             &Kernel::globalScratchBytes)
      .def_property_readonly(
          "binary", [](const Kernel &k) { return py::bytes(k.binary()); })
      .def_property_readonly("loaded", &Kernel::loaded)
      .def_readwrite("dry_run", &Kernel::dryRun)
      .def_readonly("launch_count", &Kernel::launchCount)
      .def("last_launch", &Kernel::lastLaunch,
           "The last dry-run launch: {'grid', 'stream', 'args'} with the "
           "packed argument values, or None.")
      .def("__repr__", [](const Kernel &k) {
        return "<terrazzo._C.Kernel '" + k.name() + "' signature='" +
               k.signature() + "' threads_per_block=" +
               std::to_string(k.threadsPerBlock()) + ">";
      });
}

} // namespace terrazzo::python
