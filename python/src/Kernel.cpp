// terrazzo._C.Kernel (see Kernel.h) and its binding.
#include "Kernel.h"
#include "GlobalScratch.h"

#include <stdexcept>
#include <unordered_map>

namespace terrazzo::python {

//===----------------------------------------------------------------------===//
// Launch devices
//===----------------------------------------------------------------------===//

namespace {
/// _C._set_multiple_devices: -1 asks the driver, 0 or 1 is the answer.
int multipleDevicesOverride = -1;
} // namespace

runtime::Platform devicePlatform() {
  // Asked once; the answer stays (runtime::defaultPlatform caches it).
  return runtime::defaultPlatform();
}

bool multipleDevices() {
  if (multipleDevicesOverride >= 0)
    return multipleDevicesOverride;
  // Asked once, with the GIL held (so no other thread waits on the guard).
  static const bool multiple = [] {
    if (dryLaunchDefault)
      return false;
    runtime::Result<int> count = runtime::deviceCount(devicePlatform());
    return count.ok() && count.value > 1;
  }();
  return multiple;
}

namespace {

/// Where the device of a pointer argument of some type comes from.
enum class DeviceSource : std::uint8_t {
  GetDevice, ///< obj.get_device() -> int, -1 on the host (torch.Tensor)
  DLPack,    ///< obj.__dlpack_device__() -> (device type, device id)
  Driver,    ///< the driver's pointer attributes for the address
};

PyObject *getDeviceName() {
  static PyObject *name = PyUnicode_InternFromString("get_device");
  return name;
}

struct DeviceInfo {
  DeviceSource source = DeviceSource::Driver;
  /// For GetDevice: the function or method descriptor found on the type,
  /// called with the object as its only argument (saves the bound-method
  /// lookup); null to call obj.get_device() by name. A strong reference.
  PyObject *getDevice = nullptr;
};

/// The facts for objects of `type`, decided once per type (the cache keeps
/// a reference to each type, so an address is never reused for another).
/// Leaked on purpose, like ArgumentPacking's type cache.
const DeviceInfo &deviceInfo(PyTypeObject *type) {
  static auto *cache = new std::unordered_map<PyTypeObject *, DeviceInfo>();
  static PyTypeObject *lastType = nullptr;
  static const DeviceInfo *lastInfo = nullptr;
  if (type == lastType)
    return *lastInfo;
  auto it = cache->find(type);
  if (it == cache->end()) {
    PyObject *typeObject = reinterpret_cast<PyObject *>(type);
    DeviceInfo info;
    if (PyObject *method = PyObject_GetAttr(typeObject, getDeviceName())) {
      info.source = DeviceSource::GetDevice;
      if (PyFunction_Check(method) || Py_IS_TYPE(method, &PyMethodDescr_Type))
        info.getDevice = method; // keeps the reference
      else
        Py_DECREF(method);
    } else {
      PyErr_Clear();
      if (PyObject_HasAttr(typeObject, interned.dlpack_device) == 1 &&
          PyObject_HasAttr(typeObject, interned.data_ptr) != 1 &&
          PyObject_HasAttr(typeObject, interned.cuda_array_interface) != 1)
        info.source = DeviceSource::DLPack;
    }
    Py_INCREF(type);
    it = cache->emplace(type, info).first;
  }
  // Elements of an unordered_map never move, so the pointer stays valid.
  lastType = type;
  lastInfo = &it->second;
  return it->second;
}

/// What argumentDevice answers for an object that says it is in host memory.
constexpr int kHostMemory = -2;

/// The device `object` (a pointer argument read as `value`) lives on,
/// kHostMemory for a tensor on the host, or kCurrentDevice when it names
/// none.
int argumentDevice(PyObject *object, const ArgValue &value) {
  if (value.kind != ArgKind::Pointer || value.isNone || object == Py_None ||
      PyLong_Check(object))
    return kCurrentDevice;
  const DeviceInfo &info = deviceInfo(Py_TYPE(object));
  switch (info.source) {
  case DeviceSource::GetDevice: {
    PyObject *result =
        info.getDevice ? PyObject_CallOneArg(info.getDevice, object)
                       : PyObject_CallMethodNoArgs(object, getDeviceName());
    if (!result)
      throwPythonError();
    long device = PyLong_AsLong(result);
    Py_DECREF(result);
    if (device == -1 && PyErr_Occurred())
      throwPythonError();
    return device >= 0 ? int(device) : kHostMemory;
  }
  case DeviceSource::DLPack: {
    PyObject *result =
        PyObject_CallMethodNoArgs(object, interned.dlpack_device);
    if (!result)
      throwPythonError();
    py::object owner = py::reinterpret_steal<py::object>(result);
    if (!PyTuple_Check(result) || PyTuple_GET_SIZE(result) < 2)
      return kCurrentDevice;
    long type = PyLong_AsLong(PyTuple_GET_ITEM(result, 0));
    long id = PyLong_AsLong(PyTuple_GET_ITEM(result, 1));
    if (PyErr_Occurred())
      throwPythonError();
    constexpr long kDLCUDA = 2, kDLROCM = 10, kDLCUDAManaged = 13;
    return (type == kDLCUDA || type == kDLROCM || type == kDLCUDAManaged) &&
                   id >= 0
               ? int(id)
               : kCurrentDevice;
  }
  case DeviceSource::Driver: {
    runtime::Result<int> device =
        runtime::pointerDevice(value.address, devicePlatform());
    return device.ok() && device.value >= 0 ? device.value : kCurrentDevice;
  }
  }
  return kCurrentDevice;
}

/// Raises ValueError for an argument in host memory the driver does not know.
void requireKnownToDriver(const std::string &kernelName, std::uint64_t address,
                          const ParamRef &who) {
  if (dryLaunchDefault)
    return;
  runtime::Result<bool> accessible =
      runtime::deviceCanAccess(address, devicePlatform());
  if (!accessible.ok() || accessible.value)
    return; // without a context the launch says why
  raise(PyExc_ValueError,
        kernelName + "(): " + describe(who) +
            " is in host memory that the GPU cannot access (a CPU tensor?); "
            "move it to the GPU (.cuda()) or pin it, or run the kernel in "
            "the interpreter (TERRAZZO_INTERPRET=1)");
}

} // namespace

void LaunchDevice::requireAccessible(PyObject *object, const ArgValue &value,
                                     const ParamRef &who) const {
  if (value.kind != ArgKind::Pointer || value.isNone || object == Py_None ||
      PyLong_Check(object) ||
      deviceInfo(Py_TYPE(object)).source != DeviceSource::GetDevice)
    return;
  if (argumentDevice(object, value) == kHostMemory)
    requireKnownToDriver(kernelName_, value.address, who);
}

void LaunchDevice::add(PyObject *object, const ArgValue &value,
                       const ParamRef &who) {
  int device = argumentDevice(object, value);
  if (device == kHostMemory)
    requireKnownToDriver(kernelName_, value.address, who);
  if (device == kCurrentDevice || device == kHostMemory)
    return;
  if (device_ == kCurrentDevice) {
    device_ = device;
    first_ = who;
    return;
  }
  if (device != device_)
    raise(PyExc_ValueError,
          kernelName_ + "(): " + describe(who) + " is on cuda:" +
              std::to_string(device) + " but " + describe(first_) +
              " is on cuda:" + std::to_string(device_) +
              "; the tensors of one launch must be on one device");
}

//===----------------------------------------------------------------------===//
// Kernel
//===----------------------------------------------------------------------===//

namespace {

/// The signature's characters of the parameters the kernel really has
/// ('-', specialized away, left out).
std::string passedKinds(const std::string &signature) {
  std::string kinds;
  for (char c : signature)
    if (c != '-')
      kinds += c;
  return kinds;
}

} // namespace

Kernel::Kernel(std::string binary, std::string name, int threadsPerBlock,
               int sharedMemoryBytes, std::string signature, bool dryRun,
               int globalScratchBytes, runtime::Platform platform,
               std::vector<HostTensorMap> hostTensorMaps,
               runtime::LaunchAttributes launchAttributes)
    : dryRun(dryRun), binary_(std::move(binary)), name_(std::move(name)),
      threadsPerBlock_(threadsPerBlock), sharedMemoryBytes_(sharedMemoryBytes),
      globalScratchBytes_(globalScratchBytes), platform_(platform),
      signature_(std::move(signature)), paramKinds_(passedKinds(signature_)),
      hostTensorMaps_(std::move(hostTensorMaps)),
      launchAttributes_(launchAttributes) {}

namespace {

/// Per context (device), 256 zero bytes on the device: the first half is
/// what maps of empty tensors that are only loaded from point at, the
/// second what those stored through point at. Allocated on first use and
/// kept for the process.
runtime::Result<std::uint64_t> emptyTensorPage(void *context,
                                               runtime::Platform platform) {
  static std::mutex mutex;
  static std::vector<std::pair<void *, runtime::DeviceBuffer *>> pages;
  std::lock_guard<std::mutex> lock(mutex);
  for (auto &[owner, buffer] : pages)
    if (owner == context)
      return runtime::Result<std::uint64_t>::success(buffer->devicePointer());
  runtime::Result<runtime::DeviceBuffer> buffer =
      runtime::DeviceBuffer::allocate(2 * runtime::kTensorMapBytes, platform);
  if (!buffer.ok())
    return runtime::Result<std::uint64_t>::error(buffer.status);
  if (runtime::Status status = buffer.value.fill(0); !status.ok())
    return runtime::Result<std::uint64_t>::error(status);
  auto *kept = new runtime::DeviceBuffer(std::move(buffer.value));
  pages.emplace_back(context, kept);
  return runtime::Result<std::uint64_t>::success(kept->devicePointer());
}

} // namespace

runtime::TensorMapDescription Kernel::describeMap(const HostTensorMap &recipe,
                                                  const Slot *slots,
                                                  bool &empty) const {
  auto value = [&](const TensorMapOperand &operand) -> std::int64_t {
    if (operand.argument < 0)
      return operand.value;
    // The compiler reads extents and strides from integer parameters.
    return paramKinds_[operand.argument] == 'l'
               ? slots[operand.argument].i64
               : std::int64_t(slots[operand.argument].i32);
  };
  const unsigned rank = unsigned(recipe.box.size());
  runtime::TensorMapDescription map;
  map.rank = rank;
  map.address = slots[recipe.base].u64;
  map.elementBytes = recipe.elementBytes;
  map.swizzleBytes = recipe.swizzleBytes;
  empty = false;
  // The driver numbers dimensions from the innermost.
  for (unsigned d = 0; d < rank; ++d) {
    unsigned from = rank - 1 - d;
    std::int64_t extent = value(recipe.shape[from]);
    empty |= extent == 0;
    map.dims[d] = std::uint64_t(extent);
    map.strides[d] =
        std::uint64_t(value(recipe.strides[from])) * recipe.elementBytes;
    map.box[d] = std::uint32_t(recipe.box[from]);
  }
  if (empty) {
    // One element in bounds, the rest read as zeros (written nowhere).
    for (unsigned d = 0; d < rank; ++d) {
      map.dims[d] = 1;
      map.strides[d] = d ? 16 : recipe.elementBytes;
    }
    map.address = 0;
  }
  return map;
}

Kernel::~Kernel() {
  int n = numLoaded_.load(std::memory_order_acquire);
  for (int i = 0; i < n; ++i)
    delete loaded_[i].load(std::memory_order_relaxed);
}

runtime::Status Kernel::ensureLoaded(void *context, const Loaded *&loaded) {
  int n = numLoaded_.load(std::memory_order_acquire);
  for (int i = 0; i < n; ++i) {
    const Loaded *entry = loaded_[i].load(std::memory_order_relaxed);
    if (entry->context == context) {
      loaded = entry;
      return runtime::Status::success();
    }
  }
  std::lock_guard<std::mutex> lock(loadMutex_);
  n = numLoaded_.load(std::memory_order_relaxed);
  for (int i = 0; i < n; ++i) {
    const Loaded *entry = loaded_[i].load(std::memory_order_relaxed);
    if (entry->context == context) {
      loaded = entry;
      return runtime::Status::success();
    }
  }
  if (n == kMaxContexts)
    return runtime::Status::error(
        "kernel '" + name_ + "' is loaded in " + std::to_string(n) +
        " contexts already, the most one kernel can be loaded in");
  runtime::Result<runtime::Module> module =
      runtime::Module::load(binary_.data(), binary_.size(), platform_);
  if (!module.ok())
    return module.status;
  runtime::Result<runtime::Function> function =
      module.value.getFunction(name_);
  if (!function.ok())
    return function.status;
  // Above the platform's default, dynamic shared memory needs an opt-in.
  if (runtime::Status status =
          function.value.reserveDynamicSharedMemory(sharedMemoryBytes_);
      !status.ok())
    return status;
  auto *entry = new Loaded();
  entry->context = context;
  entry->module = std::move(module.value);
  entry->function = function.value;
  loaded_[n].store(entry, std::memory_order_relaxed);
  numLoaded_.store(n + 1, std::memory_order_release);
  loaded = entry;
  return runtime::Status::success();
}

void Kernel::launch(int device, const unsigned grid[3], std::uintptr_t stream,
                    const Slot *slots, void **params) {
  const unsigned cluster[3] = {launchAttributes_.clusterX,
                               launchAttributes_.clusterY,
                               launchAttributes_.clusterZ};
  for (int d = 0; d < 3; ++d)
    if (grid[d] % cluster[d])
      raise(PyExc_ValueError,
            "kernel '" + name_ + "': grid dimension " + std::to_string(d) +
                " (" + std::to_string(grid[d]) +
                ") is not a multiple of its cluster dimension (" +
                std::to_string(cluster[d]) + ")");
  if (dryRun) {
    ++launchCount;
    haveLast_ = true;
    for (int d = 0; d < 3; ++d)
      lastGrid_[d] = grid[d];
    lastStream_ = stream;
    lastSlots_.assign(slots, slots + numKernelParams());
    lastMaps_.clear();
    lastEmpty_.clear();
    for (const HostTensorMap &recipe : hostTensorMaps_) {
      bool empty = false;
      lastMaps_.push_back(describeMap(recipe, slots, empty));
      lastEmpty_.push_back(empty);
    }
    return;
  }
  if (!grid[0] || !grid[1] || !grid[2])
    return;
  // The hidden trailing parameter: this launch's global scratch on the
  // launch's device, held (an allocator's tensor) until the launch is
  // queued. Acquired before the device scope below: a Python allocator may
  // switch devices itself.
  GlobalScratch scratch;
  // The hidden parameters: the tensor maps (encoded below, in the launch
  // device's scope), then the scratch.
  struct alignas(runtime::kTensorMapAlignment) MapBytes {
    unsigned char bytes[runtime::kTensorMapBytes];
  };
  const std::size_t numMaps = hostTensorMaps_.size();
  Scratch<MapBytes, 4> maps(numMaps ? numMaps : 1);
  Scratch<void *, 33> withHidden(numMaps || globalScratchBytes_
                                     ? numKernelParams() + numMaps +
                                           (globalScratchBytes_ ? 1 : 0)
                                     : 0);
  if (numMaps || globalScratchBytes_) {
    for (std::size_t k = 0; k < numKernelParams(); ++k)
      withHidden[k] = params[k];
    for (std::size_t m = 0; m < numMaps; ++m)
      withHidden[numKernelParams() + m] = maps[m].bytes;
    params = withHidden.data();
  }
  if (globalScratchBytes_) {
    std::uint64_t programs =
        std::uint64_t(grid[0]) * grid[1] * grid[2];
    scratch = acquireGlobalScratch(programs * std::uint64_t(globalScratchBytes_),
                                   stream, device, platform_);
    withHidden[numKernelParams() + numMaps] = &scratch.pointer;
  }
  runtime::Status status;
  {
    // The launch device's context for the driver calls; the thread's own
    // is restored when the scope ends.
    runtime::DeviceScope scope;
    py::gil_scoped_release release;
    status = scope.enter(device, platform_);
    for (std::size_t m = 0; m < numMaps && status.ok(); ++m) {
      bool empty = false;
      runtime::TensorMapDescription map =
          describeMap(hostTensorMaps_[m], slots, empty);
      if (empty) {
        runtime::Result<std::uint64_t> page =
            emptyTensorPage(scope.context(), platform_);
        status = page.status;
        map.address =
            page.value +
            (hostTensorMaps_[m].stored ? runtime::kTensorMapBytes : 0);
      }
      if (status.ok())
        status = runtime::encodeTensorMap(map, maps[m].bytes, platform_);
      if (!status.ok())
        status = runtime::Status::error(
            "kernel '" + name_ + "': the tensor map of argument " +
            std::to_string(hostTensorMaps_[m].base) + ": " + status.message);
    }
    const Loaded *loaded = nullptr;
    if (status.ok())
      status = ensureLoaded(scope.context(), loaded);
    if (status.ok())
      status = loaded->function.launch(
          grid[0], grid[1], grid[2], threadsPerBlock_, 1, 1,
          unsigned(sharedMemoryBytes_), reinterpret_cast<void *>(stream),
          params, launchAttributes_);
  }
  if (!status.ok())
    throw std::runtime_error(status.message);
  ++launchCount;
}

py::object Kernel::lastLaunch() const {
  if (!haveLast_)
    return py::none();
  py::tuple args(paramKinds_.size());
  std::size_t k = 0;
  for (char c : paramKinds_) {
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
  // The tensor maps as encoded: outermost dimension first, strides in
  // elements; an empty tensor's as one element at address 0. (Only for a
  // kernel that has them.)
  if (hostTensorMaps_.empty())
    return std::move(result);
  py::list maps;
  for (std::size_t m = 0; m < lastMaps_.size(); ++m) {
    const runtime::TensorMapDescription &map = lastMaps_[m];
    py::list shape, strides, box;
    for (unsigned d = map.rank; d-- > 0;) {
      shape.append(py::int_(map.dims[d]));
      strides.append(py::int_(d ? map.strides[d] / map.elementBytes : 1));
      box.append(py::int_(map.box[d]));
    }
    py::dict entry;
    entry["address"] = py::int_(map.address);
    entry["shape"] = py::tuple(shape);
    entry["strides"] = py::tuple(strides);
    entry["box"] = py::tuple(box);
    entry["element_bytes"] = py::int_(map.elementBytes);
    entry["swizzle_bytes"] = py::int_(map.swizzleBytes);
    entry["empty"] = py::bool_(lastEmpty_[m]);
    maps.append(entry);
  }
  result["tensormaps"] = maps;
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

/// The host_tensormaps argument of Kernel (the compiler's metadata of that
/// name): each map's base a pointer parameter, its extents and strides
/// integer parameters or positive constants, parameters numbered without
/// the signature's '-', the maps passed in order after them.
std::vector<HostTensorMap> parseHostTensorMaps(py::object maps,
                                               const std::string &signature) {
  std::vector<HostTensorMap> recipes;
  if (maps.is_none())
    return recipes;
  const std::string kinds = passedKinds(signature);
  auto bad = [&](std::size_t m, const std::string &what) {
    raise(PyExc_ValueError, "host_tensormaps[" + std::to_string(m) + "]: " +
                                what + " (signature '" + signature + "')");
  };
  std::size_t m = 0;
  for (py::handle item : maps) {
    py::dict map = py::reinterpret_borrow<py::dict>(item);
    HostTensorMap recipe;
    recipe.parameter = py::cast<int>(map["parameter"]);
    if (std::size_t(recipe.parameter) != kinds.size() + m)
      bad(m, "parameter must be " + std::to_string(kinds.size() + m) +
                 ", the parameters' count plus the map's position");
    recipe.base = py::cast<int>(map["base"]);
    if (recipe.base < 0 || std::size_t(recipe.base) >= kinds.size() ||
        kinds[recipe.base] != 'p')
      bad(m, "base must name a pointer parameter, got " +
                 std::to_string(recipe.base));
    recipe.elementBytes = py::cast<int>(map["element_bytes"]);
    py::list shape = map["shape"], strides = map["strides"], box = map["box"];
    const std::size_t rank = box.size();
    if (rank < 1 || rank > 5 || shape.size() != rank || strides.size() != rank)
      bad(m, "needs 1 to 5 dimensions, an extent and a stride for each");
    auto operand = [&](py::handle entry) {
      py::dict d = py::reinterpret_borrow<py::dict>(entry);
      TensorMapOperand result;
      if (d.contains("argument")) {
        result.argument = py::cast<int>(d["argument"]);
        if (result.argument < 0 ||
            std::size_t(result.argument) >= kinds.size() ||
            (kinds[result.argument] != 'i' && kinds[result.argument] != 'l'))
          bad(m, "an extent or stride must name an integer parameter, got " +
                     std::to_string(result.argument));
      } else {
        result.value = py::cast<std::int64_t>(d["value"]);
        if (result.value < 1)
          bad(m, "a constant extent or stride must be positive");
      }
      return result;
    };
    for (std::size_t d = 0; d < rank; ++d) {
      recipe.shape.push_back(operand(shape[d]));
      recipe.strides.push_back(operand(strides[d]));
      recipe.box.push_back(py::cast<int>(box[d]));
    }
    recipe.swizzleBytes = py::cast<int>(map["swizzle_bytes"]);
    recipe.stored = map.contains("stored") && py::cast<bool>(map["stored"]);
    recipes.push_back(std::move(recipe));
    ++m;
  }
  return recipes;
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
  bool findDevice = !kernel.dryRun && multipleDevices();
  LaunchDevice device(kernel.name());
  for (std::size_t i = 0; i < signature.size(); ++i) {
    if (signature[i] == '-')
      continue;
    ParamRef who{i};
    extractArgument(items[i], value, /*wantDtype=*/false, who);
    if (findDevice)
      device.add(items[i], value, who);
    else if (!kernel.dryRun)
      device.requireAccessible(items[i], value, who);
    packArgument(signature[i], value, slots[k], who);
    params[k] = &slots[k];
    ++k;
  }
  kernel.launch(device.device(), grid, stream, slots.data(), params.data());
}

} // namespace

void registerKernel(py::module_ &m) {
  m.def(
      "_set_multiple_devices",
      [](py::object value) {
        multipleDevicesOverride =
            value.is_none() ? -1 : int(py::cast<bool>(value));
      },
      py::arg("value"),
      "For tests: launches look for their arguments' devices as with "
      "several GPUs (True) or not (False), whatever the driver says; None "
      "asks the driver again.");
  py::class_<Kernel>(m, "Kernel", R"doc(
A compiled kernel. The binary (cubin or PTX; hsaco for a hip target) is
loaded on the first launch, so a Kernel can be created without a GPU.
`signature` has one character per argument: p pointer, i int32, l int64, f
float32, d float64, b int1 (passed as a byte), '-' accepted but not passed
(specialized away). `target` ("cuda:90", "hip:gfx942"; None: a cuda one) is
what the binary was compiled for: it picks the driver that loads and
launches it (CUDA or HIP). `cooperative` and `programmatic_dependent_launch`
(Triton's launch_cooperative_grid and launch_pdl) are how each launch asks
the driver to run the grid: all programs resident at once, or allowed to
start before the stream's previous kernel ends (CUDA on sm_90 and later; an
ordinary launch on HIP). `cluster_dims` (x, y, z) runs the grid, counted in
programs and a multiple of it, as thread-block clusters of that shape (CUDA
on sm_90 and later; (1, 1, 1): none).)doc")
      .def(py::init([](py::handle binary, std::string name, int threadsPerBlock,
                       int sharedMemoryBytes, std::string signature,
                       py::object dryRun, int globalScratchBytes,
                       py::object target, py::object hostTensorMaps,
                       bool cooperative, bool programmaticDependentLaunch,
                       py::object clusterDims) {
             checkSignature(signature);
             runtime::Platform platform = runtime::Platform::Cuda;
             if (!target.is_none()) {
               runtime::Result<runtime::Platform> named =
                   runtime::platformOfTarget(py::cast<std::string>(target));
               if (!named.ok())
                 raise(PyExc_ValueError, named.status.message);
               platform = named.value;
             }
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
             std::vector<HostTensorMap> maps =
                 parseHostTensorMaps(hostTensorMaps, signature);
             runtime::LaunchAttributes attributes;
             attributes.cooperative = cooperative;
             attributes.programmaticDependentLaunch =
                 programmaticDependentLaunch;
             if (!clusterDims.is_none()) {
               std::vector<long long> dims;
               for (py::handle d : py::iter(clusterDims))
                 dims.push_back(py::cast<long long>(d));
               if (dims.size() != 3)
                 raise(PyExc_ValueError,
                       "cluster_dims must have 3 entries, got " +
                           std::to_string(dims.size()));
               long long size = 1;
               for (long long d : dims) {
                 if (d < 1 || d > 16)
                   raise(PyExc_ValueError,
                         "cluster_dims entries must be 1 to 16, got " +
                             std::to_string(d));
                 size *= d;
               }
               if (size > 16)
                 raise(PyExc_ValueError,
                       "a cluster holds at most 16 programs, cluster_dims "
                       "asks for " +
                           std::to_string(size));
               if (size > 1 && platform != runtime::Platform::Cuda)
                 raise(PyExc_ValueError,
                       "cluster_dims: AMD GPUs have no thread-block "
                       "clusters");
               attributes.clusterX = unsigned(dims[0]);
               attributes.clusterY = unsigned(dims[1]);
               attributes.clusterZ = unsigned(dims[2]);
             }
             return new Kernel(bytesOf(binary, "binary"), std::move(name),
                               threadsPerBlock, sharedMemoryBytes,
                               std::move(signature), dry, globalScratchBytes,
                               platform, std::move(maps), attributes);
           }),
           py::arg("binary"), py::arg("name"), py::arg("threads_per_block"),
           py::arg("shared_memory_bytes"), py::arg("signature"), py::kw_only(),
           py::arg("dry_run") = py::none(), py::arg("global_scratch_bytes") = 0,
           py::arg("target") = py::none(),
           py::arg("host_tensormaps") = py::none(),
           py::arg("cooperative") = false,
           py::arg("programmatic_dependent_launch") = false,
           py::arg("cluster_dims") = py::none())
      .def("launch", &launchFromPython, py::arg("grid"), py::arg("stream"),
           py::arg("args"),
           "Launches on `stream` (a CUstream or hipStream_t as an int; 0 for "
           "the default "
           "stream) with one argument per signature character, on the "
           "device of the pointer arguments (the current device when none "
           "names one); `stream` must belong to that device.")
      .def_property_readonly("name", &Kernel::name)
      .def_property_readonly("signature", &Kernel::signature)
      .def_property_readonly("threads_per_block", &Kernel::threadsPerBlock)
      .def_property_readonly(
          "platform",
          [](const Kernel &k) { return runtime::platformName(k.platform()); },
          "'cuda' or 'hip': whose driver loads and launches the binary.")
      .def_property_readonly("shared_memory_bytes", &Kernel::sharedMemoryBytes)
      .def_property_readonly(
          "cooperative",
          [](const Kernel &k) { return k.launchAttributes().cooperative; })
      .def_property_readonly(
          "programmatic_dependent_launch",
          [](const Kernel &k) {
            return k.launchAttributes().programmaticDependentLaunch;
          })
      .def_property_readonly(
          "cluster_dims",
          [](const Kernel &k) {
            const runtime::LaunchAttributes &a = k.launchAttributes();
            return py::make_tuple(a.clusterX, a.clusterY, a.clusterZ);
          })
      .def_property_readonly("global_scratch_bytes",
                             &Kernel::globalScratchBytes)
      .def_property_readonly(
          "num_host_tensormaps",
          [](const Kernel &k) { return k.hostTensorMaps().size(); },
          "Tensor maps the launcher builds and passes after the parameters.")
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
