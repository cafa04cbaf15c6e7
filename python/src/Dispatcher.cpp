// terrazzo._C.Dispatcher: the launch path of a @jit function (DESIGN.md §8).
//
// One call binds the arguments to the parameters, computes the
// specialization key, finds the compiled Kernel in a hash map (or asks the
// Python compile callback for it), packs the arguments and launches; all of
// it in C++, calling into Python only for data_ptr() and dtype of tensors
// and their untyped_storage()'s data_ptr() and nbytes() (and a grid
// callable, and the compile callback on a miss).
//
// The key, per parameter:
//   constexpr                 the value itself
//   pointer (tensor, None)    ("p", dtype name or None, address % 16 == 0,
//                             fits in 2^31 bytes: fitsPointerRange)
//                             (never aligned when not specialised, or not
//                             on alignment; never fitting when not
//                             specialised)
//   bool                      ("b",)
//   int                       ("i" if it fits int32 else "l", == 1, % 16 == 0,
//                             >= 0)
//                             or ("i"/"l",) when do_not_specialize, and
//                             % 16 == 0 false when do_not_specialize_on_
//                             alignment
//   float                     ("f",)
//   host tensor descriptor    ("tensordesc", base pointer entry, shape
//                             entries, stride entries, block shape, padding)
//                             with an int entry per shape and stride value;
//                             passed as 1 + 2 * rank parameters (base,
//                             shape, strides), one signature character each
// followed by (num_warps, num_stages). Internally the same information is a
// byte string plus the constexpr objects, hashed without building a tuple.
//
// Devices: with several GPUs, a launch runs on the device of its pointer
// arguments (LaunchDevice in Kernel.h), on that device's current stream,
// and the device is part of the internal key (not of the key tuple), so
// each device gets a kernel compiled for its own target, with that device
// current while the compile callback runs.
#include "ArgumentPacking.h"
#include "Kernel.h"
#include "terrazzo/Compiler.h"

#include <pybind11/stl.h>

#include <climits>
#include <cstring>
#include <stdexcept>
#include <unordered_map>
#include <vector>

namespace terrazzo::python {
namespace {

const long kDefaultNumWarps = terrazzo::defaultNumWarps();
const long kMaxNumWarps = terrazzo::maxNumWarps();
constexpr long kDefaultNumStages = 3;

/// The key's bytes; on the stack unless the kernel has very many parameters.
class KeyBytes {
public:
  KeyBytes() = default;
  KeyBytes(const KeyBytes &) = delete;
  KeyBytes &operator=(const KeyBytes &) = delete;

  void push(std::uint8_t byte) {
    if (size_ == capacity_)
      grow();
    data_[size_++] = byte;
  }
  void push32(std::uint32_t value) {
    for (int i = 0; i < 4; ++i)
      push(std::uint8_t(value >> (8 * i)));
  }
  const std::uint8_t *data() const { return data_; }
  std::size_t size() const { return size_; }

private:
  void grow() {
    std::unique_ptr<std::uint8_t[]> bigger(new std::uint8_t[capacity_ * 2]);
    std::memcpy(bigger.get(), data_, size_);
    heap_ = std::move(bigger);
    data_ = heap_.get();
    capacity_ *= 2;
  }

  std::uint8_t local_[128];
  std::unique_ptr<std::uint8_t[]> heap_;
  std::uint8_t *data_ = local_;
  std::size_t size_ = 0;
  std::size_t capacity_ = sizeof(local_);
};

std::uint64_t hashBytes(const std::uint8_t *data, std::size_t size) {
  std::uint64_t hash = 0xcbf29ce484222325ull; // FNV-1a
  for (std::size_t i = 0; i < size; ++i) {
    hash ^= data[i];
    hash *= 0x100000001b3ull;
  }
  return hash;
}

std::uint64_t mix(std::uint64_t hash, std::uint64_t value) {
  hash ^= value + 0x9e3779b97f4a7c15ull + (hash << 6) + (hash >> 2);
  return hash;
}

/// Strong references to the bound arguments, dropped at the end of a call.
class BoundArgs {
public:
  explicit BoundArgs(std::size_t n) : refs_(n), n_(n) {
    for (std::size_t i = 0; i < n; ++i)
      refs_[i] = nullptr;
  }
  ~BoundArgs() {
    for (std::size_t i = 0; i < n_; ++i)
      Py_XDECREF(refs_[i]);
  }
  PyObject *&operator[](std::size_t i) { return refs_[i]; }
  void set(std::size_t i, PyObject *object) {
    Py_INCREF(object);
    refs_[i] = object;
  }

private:
  Scratch<PyObject *, 16> refs_;
  std::size_t n_;
};

struct Options {
  long numWarps = kDefaultNumWarps;
  long numStages = kDefaultNumStages;
};

/// terrazzo.tools.tensor_descriptor.TensorDescriptor, once registered (a
/// strong reference); null before.
PyTypeObject *descriptorType = nullptr;

bool isHostDescriptor(PyObject *object) {
  return descriptorType && PyObject_TypeCheck(object, descriptorType);
}

/// The host tensor descriptors of one call, read once by computeKey: each
/// one's base, shape and strides as 1 + 2 * rank values, in parameter order.
struct DescriptorParts {
  static constexpr unsigned kMaxRank = 5;
  struct Descriptor {
    std::size_t param = 0;
    std::size_t first = 0; ///< index of the base in `values`
    unsigned rank = 0;
    long block[kMaxRank] = {};
    bool nanPadding = false;
  };
  std::vector<Descriptor> descriptors;
  std::vector<ArgValue> values;

  /// Kernel parameters beyond one per parameter.
  std::size_t extraParams() const {
    std::size_t extra = 0;
    for (const Descriptor &d : descriptors)
      extra += 2 * d.rank;
    return extra;
  }
};

/// An int key entry's flags: == 1, % 16 == 0, >= 0.
std::uint8_t intFlags(const ArgValue &value) {
  return std::uint8_t((!value.isUnsigned && value.i == 1) |
                      ((value.u % 16 == 0) << 1) |
                      (isNonNegative(value) << 2));
}

/// A specialised int's key tuple entry: (width, == 1, % 16 == 0, >= 0);
/// the divisibility is false unless `onAlignment`.
py::tuple intEntry(const ArgValue &value, bool onAlignment = true) {
  return py::make_tuple(
      py::reinterpret_borrow<py::object>(fitsInt32(value) ? interned.i
                                                          : interned.l),
      py::bool_(!value.isUnsigned && value.i == 1),
      py::bool_(onAlignment && value.u % 16 == 0),
      py::bool_(isNonNegative(value)));
}

/// How a parameter is specialised (the do_not_specialize list's values):
/// fully, not at all (do_not_specialize: an int's width only, no
/// pointer alignment), or on everything but alignment
/// (do_not_specialize_on_alignment: no divisibility by 16 of ints, no
/// pointer alignment).
enum Specialization : char { kSpecialize = 0, kNoSpecialize = 1, kNoAlignment = 2 };

/// A compiled specialization.
struct Entry {
  std::uint64_t hash = 0;
  std::string bytes;
  std::vector<py::object> constexprs;
  py::object kernelObject;
  Kernel *kernel = nullptr;
};

/// A str's text for messages.
std::string textOf(PyObject *text) {
  const char *utf8 = PyUnicode_Check(text) ? PyUnicode_AsUTF8(text) : nullptr;
  if (!utf8) {
    PyErr_Clear();
    return reprOf(text);
  }
  return utf8;
}

long optionValue(PyObject *value, const char *name, long minimum,
                 long fallback) {
  if (value == Py_None)
    return fallback;
  if (!PyLong_Check(value))
    raise(PyExc_TypeError, std::string(name) + " must be an int, got " +
                               typeName(value));
  int overflow = 0;
  long result = PyLong_AsLongAndOverflow(value, &overflow);
  if (result == -1 && PyErr_Occurred())
    throwPythonError();
  if (overflow || result < minimum || result > INT32_MAX)
    raise(PyExc_ValueError, std::string(name) + " = " + reprOf(value) +
                                " is out of range");
  return result;
}

class Dispatcher {
public:
  Dispatcher(std::vector<std::string> names, std::vector<bool> constexprs,
             std::vector<int> doNotSpecialize, py::sequence defaults,
             py::object compile, std::string name, py::object currentStream);

  py::object run(py::handle grid, py::handle args, py::handle kwargs,
                 py::handle stream);
  py::tuple keyFor(py::handle args, py::handle kwargs);
  py::dict bindToDict(py::handle args, py::handle kwargs);
  std::size_t cacheSize() const { return size_; }
  void clear() {
    ++epoch_;
    last_ = nullptr;
    size_ = 0;
    // Move the entries out first: destroying them may run Python code.
    auto old = std::move(cache_);
    cache_.clear();
  }
  py::list paramNames() const {
    py::list names;
    for (const py::object &name : names_)
      names.append(name);
    return names;
  }
  const std::string &name() const { return name_; }

private:
  std::size_t size() const { return names_.size(); }
  void bind(PyObject *args, PyObject *kwargs, BoundArgs &bound,
            Options &options) const;
  int findParam(PyObject *keyword) const;
  std::uint64_t computeKey(BoundArgs &bound, ArgValue *values,
                           PyObject **constexprObjects, KeyBytes &bytes,
                           const Options &options, int *device,
                           DescriptorParts &parts) const;
  void keyDescriptor(PyObject *object, const ParamRef &who, KeyBytes &bytes,
                     DescriptorParts &parts, LaunchDevice *device) const;
  std::uintptr_t streamFor(int device, py::handle given) const;
  py::tuple keyTuple(BoundArgs &bound, const ArgValue *values,
                     const Options &options,
                     const DescriptorParts &parts) const;
  bool matches(const Entry &entry, std::uint64_t hash, const KeyBytes &bytes,
               PyObject *const *constexprObjects) const;
  Entry *lookup(std::uint64_t hash, const KeyBytes &bytes,
                PyObject *const *constexprObjects);
  Entry *compileAndInsert(BoundArgs &bound, const ArgValue *values,
                          const Options &options, std::uint64_t hash,
                          const KeyBytes &bytes,
                          PyObject *const *constexprObjects,
                          const DescriptorParts &parts);
  [[noreturn]] void typeError(const std::string &message) const {
    raise(PyExc_TypeError, name_ + "() " + message);
  }

  std::vector<py::object> names_; // interned str
  std::vector<char> constexpr_;
  std::vector<char> doNotSpecialize_; ///< Specialization values
  /// Whether pointer parameter `p` counts as aligned to 16 bytes in the key.
  bool alignedPointer(std::size_t p, const ArgValue &value) const {
    return doNotSpecialize_[p] == kSpecialize && value.address % 16 == 0;
  }
  /// Whether pointer parameter `p`'s memory counts as fitting in 2^31
  /// bytes in the key (asked only when it is specialised).
  bool fitsRange(std::size_t p, PyObject *object,
                 const ArgValue &value) const {
    return doNotSpecialize_[p] != kNoSpecialize &&
           fitsPointerRange(object, value);
  }
  std::vector<py::object> defaults_;
  py::object compile_;
  std::string name_;
  py::object currentStream_; ///< device or None -> stream, or None
  std::size_t numConstexpr_ = 0;
  std::size_t numRuntime_ = 0;

  std::unordered_map<std::uint64_t, std::vector<std::unique_ptr<Entry>>>
      cache_;
  std::size_t size_ = 0;
  Entry *last_ = nullptr;
  std::uint64_t epoch_ = 0; ///< bumped by clear()
  /// Per parameter, the last address requireAccessible let through: a
  /// launch with the same tensors as the last one asks nothing again (host
  /// and device allocations never share an address under unified
  /// addressing).
  std::vector<std::uint64_t> accessible_;
};

Dispatcher::Dispatcher(std::vector<std::string> names,
                       std::vector<bool> constexprs,
                       std::vector<int> doNotSpecialize,
                       py::sequence defaults, py::object compile,
                       std::string name, py::object currentStream)
    : compile_(std::move(compile)), name_(std::move(name)),
      currentStream_(std::move(currentStream)) {
  std::size_t n = names.size();
  if (constexprs.size() != n || doNotSpecialize.size() != n ||
      std::size_t(py::len(defaults)) != n)
    raise(PyExc_ValueError,
          "param_names, constexpr, do_not_specialize and defaults must have "
          "the same length (" +
              std::to_string(n) + ", " + std::to_string(constexprs.size()) +
              ", " + std::to_string(doNotSpecialize.size()) + ", " +
              std::to_string(py::len(defaults)) + ")");
  if (!PyCallable_Check(compile_.ptr()))
    raise(PyExc_TypeError, "compile must be callable");
  if (!currentStream_.is_none() && !PyCallable_Check(currentStream_.ptr()))
    raise(PyExc_TypeError, "current_stream must be callable or None");
  for (std::size_t i = 0; i < n; ++i) {
    if (names[i] == "num_warps" || names[i] == "num_stages")
      raise(PyExc_ValueError, "parameter name '" + names[i] +
                                  "' is reserved for the launch option");
    for (std::size_t j = 0; j < i; ++j)
      if (names[i] == names[j])
        raise(PyExc_ValueError,
              "duplicate parameter name '" + names[i] + "'");
    PyObject *text = PyUnicode_FromStringAndSize(names[i].data(),
                                                 names[i].size());
    if (!text)
      throwPythonError();
    // Interned, so that keywords from call sites usually match by identity.
    PyUnicode_InternInPlace(&text);
    names_.push_back(py::reinterpret_steal<py::object>(text));
    constexpr_.push_back(constexprs[i]);
    if (doNotSpecialize[i] < kSpecialize || doNotSpecialize[i] > kNoAlignment)
      raise(PyExc_ValueError,
            "do_not_specialize values are 0 (specialise), 1 (do not) or 2 "
            "(not on alignment), got " +
                std::to_string(doNotSpecialize[i]));
    doNotSpecialize_.push_back(char(doNotSpecialize[i]));
    defaults_.push_back(defaults[i]);
    (constexprs[i] ? numConstexpr_ : numRuntime_)++;
  }
}

int Dispatcher::findParam(PyObject *keyword) const {
  for (std::size_t i = 0; i < names_.size(); ++i)
    if (names_[i].ptr() == keyword)
      return int(i);
  if (!PyUnicode_Check(keyword))
    typeError("keywords must be strings, got " + typeName(keyword));
  for (std::size_t i = 0; i < names_.size(); ++i)
    if (PyUnicode_Compare(names_[i].ptr(), keyword) == 0)
      return int(i);
  return -1;
}

void Dispatcher::bind(PyObject *args, PyObject *kwargs, BoundArgs &bound,
                      Options &options) const {
  std::size_t n = size();
  if (!PyTuple_Check(args) && !PyList_Check(args))
    raise(PyExc_TypeError, "args must be a tuple, got " + typeName(args));
  Py_ssize_t positional = PySequence_Fast_GET_SIZE(args);
  if (std::size_t(positional) > n)
    typeError("takes " + std::to_string(n) + " positional argument" +
              (n == 1 ? "" : "s") + " but " + std::to_string(positional) +
              (positional == 1 ? " was" : " were") + " given");
  PyObject **items = PySequence_Fast_ITEMS(args);
  for (Py_ssize_t i = 0; i < positional; ++i)
    bound.set(i, items[i]);

  if (kwargs && kwargs != Py_None) {
    if (!PyDict_Check(kwargs))
      raise(PyExc_TypeError,
            "kwargs must be a dict, got " + typeName(kwargs));
    Py_ssize_t position = 0;
    PyObject *keyword, *value;
    while (PyDict_Next(kwargs, &position, &keyword, &value)) {
      int index = findParam(keyword);
      if (index < 0) {
        if (keyword == interned.num_warps ||
            PyUnicode_Compare(keyword, interned.num_warps) == 0) {
          options.numWarps =
              optionValue(value, "num_warps", LONG_MIN, kDefaultNumWarps);
          // AssertionError, as Triton's launch option check raises (for 0
          // and negative numbers too); the message is kernel.py's
          // check_num_warps's.
          if (options.numWarps < 1 ||
              options.numWarps & (options.numWarps - 1) ||
              options.numWarps > kMaxNumWarps)
            raise(PyExc_AssertionError,
                  "num_warps must be a power of 2 from 1 to " +
                      std::to_string(kMaxNumWarps) + ", got " +
                      std::to_string(options.numWarps));
          continue;
        }
        if (keyword == interned.num_stages ||
            PyUnicode_Compare(keyword, interned.num_stages) == 0) {
          options.numStages =
              optionValue(value, "num_stages", 0, kDefaultNumStages);
          continue;
        }
        typeError("got an unexpected keyword argument '" +
                  textOf(keyword) + "'");
      }
      if (bound[index])
        typeError("got multiple values for argument '" +
                  textOf(keyword) + "'");
      bound.set(index, value);
    }
  }

  std::string missing;
  std::size_t numMissing = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (bound[i])
      continue;
    PyObject *fallback = defaults_[i].ptr();
    if (fallback != interned.noDefault) {
      bound.set(i, fallback);
      continue;
    }
    missing += std::string(numMissing ? ", '" : "'") +
               textOf(names_[i].ptr()) + "'";
    ++numMissing;
  }
  if (numMissing)
    typeError("missing " + std::to_string(numMissing) + " required argument" +
              (numMissing == 1 ? "" : "s") + ": " + missing);
}

std::uint64_t Dispatcher::computeKey(BoundArgs &bound, ArgValue *values,
                                     PyObject **constexprObjects,
                                     KeyBytes &bytes, const Options &options,
                                     int *device,
                                     DescriptorParts &parts) const {
  std::size_t n = size();
  std::size_t c = 0;
  // The launch device, looked for only with several GPUs.
  LaunchDevice launchDevice(name_);
  bool findDevice = device && multipleDevices();
  for (std::size_t p = 0; p < n; ++p) {
    if (constexpr_[p]) {
      bytes.push('C');
      constexprObjects[c++] = bound[p];
      continue;
    }
    ArgValue &value = values[p];
    if (isHostDescriptor(bound[p])) {
      value.kind = ArgKind::Pointer; // unused: the parts are in `parts`
      keyDescriptor(bound[p], ParamRef{p, names_[p].ptr()}, bytes, parts,
                    findDevice ? &launchDevice : nullptr);
      continue;
    }
    extractArgument(bound[p], value, /*wantDtype=*/true,
                    ParamRef{p, names_[p].ptr()});
    switch (value.kind) {
    case ArgKind::Pointer:
      if (findDevice)
        launchDevice.add(bound[p], value, ParamRef{p, names_[p].ptr()});
      bytes.push('p');
      bytes.push(std::uint8_t(value.dtype));
      bytes.push(std::uint8_t(value.dtype >> 8));
      bytes.push(alignedPointer(p, value));
      value.fitsRange = fitsRange(p, bound[p], value);
      bytes.push(value.fitsRange);
      break;
    case ArgKind::Bool:
      bytes.push('b');
      break;
    case ArgKind::Int:
      bytes.push(fitsInt32(value) ? 'i' : 'l');
      if (doNotSpecialize_[p] == kSpecialize)
        bytes.push(intFlags(value));
      else if (doNotSpecialize_[p] == kNoAlignment)
        bytes.push(std::uint8_t(intFlags(value) & ~2u)); // not % 16
      break;
    case ArgKind::Float:
      bytes.push('f');
      break;
    }
  }
  bytes.push32(std::uint32_t(options.numWarps));
  bytes.push32(std::uint32_t(options.numStages));
  if (device) {
    *device = launchDevice.device();
    if (findDevice) {
      // Arguments that name no device: the current one, which the key
      // must name too (its target may differ from another device's).
      if (*device == kCurrentDevice) {
        runtime::Result<int> current =
            runtime::currentDevice(devicePlatform());
        if (!current.ok())
          throw std::runtime_error(current.status.message);
        *device = current.value;
      }
      bytes.push('D');
      bytes.push32(std::uint32_t(*device));
    }
  }

  std::uint64_t hash = hashBytes(bytes.data(), bytes.size());
  c = 0;
  for (std::size_t p = 0; p < n; ++p) {
    if (!constexpr_[p])
      continue;
    PyObject *object = constexprObjects[c++];
    Py_hash_t objectHash = PyObject_Hash(object);
    if (objectHash == -1 && PyErr_Occurred()) {
      PyErr_Clear();
      raise(PyExc_TypeError,
            describe(ParamRef{p, names_[p].ptr()}) +
                " is a constexpr and must be hashable, got " +
                typeName(object));
    }
    hash = mix(hash, std::uint64_t(objectHash));
    hash = mix(hash, reinterpret_cast<std::uintptr_t>(Py_TYPE(object)));
  }
  return hash;
}

void Dispatcher::keyDescriptor(PyObject *object, const ParamRef &who,
                               KeyBytes &bytes, DescriptorParts &parts,
                               LaunchDevice *device) const {
  auto attribute = [&](const char *name) {
    PyObject *value = PyObject_GetAttrString(object, name);
    if (!value)
      throwPythonError();
    return py::reinterpret_steal<py::object>(value);
  };
  auto sequence = [&](const py::object &value, const char *what) {
    PyObject *items = PySequence_Fast(value.ptr(), "");
    if (!items) {
      PyErr_Clear();
      raise(PyExc_TypeError, describe(who) + ": the tensor descriptor's " +
                                 what + " must be a sequence of ints, got " +
                                 typeName(value.ptr()));
    }
    return py::reinterpret_steal<py::object>(items);
  };
  py::object base = attribute("base");
  py::object shape = sequence(attribute("shape"), "shape");
  py::object strides = sequence(attribute("strides"), "strides");
  py::object block = sequence(attribute("block_shape"), "block_shape");
  py::object padding = attribute("padding");

  DescriptorParts::Descriptor descriptor;
  descriptor.param = who.index;
  descriptor.first = parts.values.size();
  Py_ssize_t rank = PySequence_Fast_GET_SIZE(block.ptr());
  if (rank < 1 || rank > Py_ssize_t(DescriptorParts::kMaxRank) ||
      PySequence_Fast_GET_SIZE(shape.ptr()) != rank ||
      PySequence_Fast_GET_SIZE(strides.ptr()) != rank)
    raise(PyExc_ValueError,
          describe(who) + ": the tensor descriptor's shape (" +
              std::to_string(PySequence_Fast_GET_SIZE(shape.ptr())) +
              " values), strides (" +
              std::to_string(PySequence_Fast_GET_SIZE(strides.ptr())) +
              ") and block_shape (" + std::to_string(rank) +
              ") must have one value per dimension, 1 to 5");
  descriptor.rank = unsigned(rank);
  for (Py_ssize_t d = 0; d < rank; ++d) {
    PyObject *item = PySequence_Fast_ITEMS(block.ptr())[d];
    long size = PyLong_Check(item) && !PyBool_Check(item) ? PyLong_AsLong(item)
                                                          : -1;
    if (size == -1 && PyErr_Occurred())
      PyErr_Clear();
    if (size <= 0 || (size & (size - 1)))
      raise(PyExc_ValueError, describe(who) +
                                  ": the tensor descriptor's block_shape "
                                  "must hold powers of two, got " +
                                  reprOf(block.ptr()));
    descriptor.block[d] = size;
  }
  if (!PyUnicode_Check(padding.ptr()))
    raise(PyExc_TypeError, describe(who) +
                               ": the tensor descriptor's padding must be "
                               "'zero' or 'nan', got " +
                               reprOf(padding.ptr()));
  std::string paddingText = py::cast<std::string>(padding);
  if (paddingText != "zero" && paddingText != "nan")
    raise(PyExc_ValueError, describe(who) +
                                ": the tensor descriptor's padding must be "
                                "'zero' or 'nan', got '" +
                                paddingText + "'");
  descriptor.nanPadding = paddingText == "nan";

  ArgValue value;
  extractArgument(base.ptr(), value, /*wantDtype=*/true, who);
  if (value.kind != ArgKind::Pointer || value.isNone)
    raise(PyExc_TypeError, describe(who) +
                               ": the tensor descriptor's base must be a "
                               "tensor, got " +
                               typeName(base.ptr()));
  if (device)
    device->add(base.ptr(), value, who);
  value.fitsRange = fitsPointerRange(base.ptr(), value);
  parts.values.push_back(value);
  bytes.push('T');
  bytes.push(std::uint8_t(rank));
  for (Py_ssize_t d = 0; d < rank; ++d)
    bytes.push32(std::uint32_t(descriptor.block[d]));
  bytes.push(descriptor.nanPadding);
  bytes.push(std::uint8_t(value.dtype));
  bytes.push(std::uint8_t(value.dtype >> 8));
  bytes.push(value.address % 16 == 0);
  bytes.push(value.fitsRange);
  for (const py::object *list : {&shape, &strides})
    for (Py_ssize_t d = 0; d < rank; ++d) {
      extractArgument(PySequence_Fast_ITEMS(list->ptr())[d], value,
                      /*wantDtype=*/false, who);
      if (value.kind != ArgKind::Int)
        raise(PyExc_TypeError,
              describe(who) + ": the tensor descriptor's " +
                  (list == &shape ? "shape" : "strides") +
                  " must be ints, got " + reprOf(list->ptr()));
      bytes.push(fitsInt32(value) ? 'i' : 'l');
      bytes.push(intFlags(value));
      parts.values.push_back(value);
    }
  parts.descriptors.push_back(descriptor);
}

py::tuple Dispatcher::keyTuple(BoundArgs &bound, const ArgValue *values,
                               const Options &options,
                               const DescriptorParts &parts) const {
  std::size_t n = size();
  py::tuple key(n + 1);
  auto name = [](PyObject *text) {
    return py::reinterpret_borrow<py::object>(text);
  };
  std::size_t nextDescriptor = 0;
  for (std::size_t p = 0; p < n; ++p) {
    if (constexpr_[p]) {
      key[p] = py::reinterpret_borrow<py::object>(bound[p]);
      continue;
    }
    if (nextDescriptor < parts.descriptors.size() &&
        parts.descriptors[nextDescriptor].param == p) {
      const DescriptorParts::Descriptor &d =
          parts.descriptors[nextDescriptor++];
      const ArgValue *v = &parts.values[d.first];
      py::tuple shape(d.rank), strides(d.rank), block(d.rank);
      for (unsigned i = 0; i < d.rank; ++i) {
        shape[i] = intEntry(v[1 + i]);
        strides[i] = intEntry(v[1 + d.rank + i]);
        block[i] = py::int_(d.block[i]);
      }
      key[p] = py::make_tuple(
          "tensordesc",
          py::make_tuple(name(interned.p), dtypeName(v[0].dtype),
                         py::bool_(v[0].address % 16 == 0),
                         py::bool_(v[0].fitsRange)),
          shape, strides, block, d.nanPadding ? "nan" : "zero");
      continue;
    }
    const ArgValue &value = values[p];
    switch (value.kind) {
    case ArgKind::Pointer:
      key[p] = py::make_tuple(name(interned.p), dtypeName(value.dtype),
                              py::bool_(alignedPointer(p, value)),
                              py::bool_(value.fitsRange));
      break;
    case ArgKind::Bool:
      key[p] = py::make_tuple(name(interned.b));
      break;
    case ArgKind::Int: {
      py::object width = name(fitsInt32(value) ? interned.i : interned.l);
      if (doNotSpecialize_[p] == kNoSpecialize)
        key[p] = py::make_tuple(width);
      else
        key[p] = intEntry(value, doNotSpecialize_[p] == kSpecialize);
      break;
    }
    case ArgKind::Float:
      key[p] = py::make_tuple(name(interned.f));
      break;
    }
  }
  key[n] = py::make_tuple(options.numWarps, options.numStages);
  return key;
}

bool Dispatcher::matches(const Entry &entry, std::uint64_t hash,
                         const KeyBytes &bytes,
                         PyObject *const *constexprObjects) const {
  if (entry.hash != hash || entry.bytes.size() != bytes.size() ||
      std::memcmp(entry.bytes.data(), bytes.data(), bytes.size()) != 0)
    return false;
  for (std::size_t c = 0; c < entry.constexprs.size(); ++c) {
    PyObject *stored = entry.constexprs[c].ptr();
    PyObject *given = constexprObjects[c];
    if (stored == given)
      continue;
    // 1, 1.0 and True are equal in Python but give different kernels.
    if (Py_TYPE(stored) != Py_TYPE(given))
      return false;
    int equal = PyObject_RichCompareBool(stored, given, Py_EQ);
    if (equal < 0)
      throwPythonError();
    if (!equal)
      return false;
  }
  return true;
}

Entry *Dispatcher::lookup(std::uint64_t hash, const KeyBytes &bytes,
                          PyObject *const *constexprObjects) {
  // Comparing constexprs may run Python code (__eq__) that could clear the
  // cache; start over if it did.
  for (;;) {
    std::uint64_t epoch = epoch_;
    if (last_ && matches(*last_, hash, bytes, constexprObjects)) {
      if (epoch_ != epoch)
        continue;
      return last_;
    }
    if (epoch_ != epoch)
      continue;
    auto it = cache_.find(hash);
    if (it == cache_.end())
      return nullptr;
    bool restart = false;
    for (std::size_t i = 0; i < it->second.size(); ++i) {
      Entry *entry = it->second[i].get();
      bool found = matches(*entry, hash, bytes, constexprObjects);
      if (epoch_ != epoch) {
        restart = true;
        break;
      }
      if (found) {
        last_ = entry;
        return entry;
      }
    }
    if (!restart)
      return nullptr;
  }
}

Entry *Dispatcher::compileAndInsert(BoundArgs &bound, const ArgValue *values,
                                    const Options &options,
                                    std::uint64_t hash, const KeyBytes &bytes,
                                    PyObject *const *constexprObjects,
                                    const DescriptorParts &parts) {
  std::size_t n = size();
  py::tuple key = keyTuple(bound, values, options, parts);
  py::tuple boundTuple(n);
  for (std::size_t p = 0; p < n; ++p)
    boundTuple[p] = py::reinterpret_borrow<py::object>(bound[p]);

  // Errors of the callback propagate unchanged.
  py::object result = compile_(key, boundTuple);
  if (!py::isinstance<Kernel>(result))
    raise(PyExc_TypeError, "the compile callback of " + name_ +
                               "() must return a terrazzo._C.Kernel, got " +
                               typeName(result.ptr()));
  Kernel *kernel = result.cast<Kernel *>();
  std::size_t expected = numRuntime_ + parts.extraParams();
  if (kernel->signature().size() != expected)
    raise(PyExc_ValueError,
          "the compile callback of " + name_ + "() returned kernel '" +
              kernel->name() + "' with signature '" + kernel->signature() +
              "' (" + std::to_string(kernel->signature().size()) +
              " characters), but the function has " +
              std::to_string(numRuntime_) + " non-constexpr parameters" +
              (parts.extraParams()
                   ? " (and its tensor descriptors " +
                         std::to_string(parts.extraParams()) +
                         " more: base, shape and strides each)"
                   : std::string()) +
              ": one character each ('-' for one not passed)");

  // Another call may have compiled the same key while the callback ran
  // (threads, recursion): keep the first.
  if (Entry *existing = lookup(hash, bytes, constexprObjects))
    return existing;
  auto entry = std::make_unique<Entry>();
  entry->hash = hash;
  entry->bytes.assign(reinterpret_cast<const char *>(bytes.data()),
                      bytes.size());
  for (std::size_t c = 0; c < numConstexpr_; ++c)
    entry->constexprs.push_back(
        py::reinterpret_borrow<py::object>(constexprObjects[c]));
  entry->kernelObject = std::move(result);
  entry->kernel = kernel;
  Entry *raw = entry.get();
  cache_[hash].push_back(std::move(entry));
  ++size_;
  last_ = raw;
  return raw;
}

py::object Dispatcher::run(py::handle grid, py::handle args,
                           py::handle kwargs, py::handle stream) {
  std::size_t n = size();
  BoundArgs bound(n);
  Options options;
  bind(args.ptr(), kwargs.ptr(), bound, options);

  Scratch<ArgValue, 16> values(n);
  Scratch<PyObject *, 16> constexprObjects(numConstexpr_ ? numConstexpr_ : 1);
  KeyBytes bytes;
  int device = kCurrentDevice;
  DescriptorParts parts;
  std::uint64_t hash = computeKey(bound, values.data(), constexprObjects.data(),
                                  bytes, options, &device, parts);

  Entry *entry = lookup(hash, bytes, constexprObjects.data());
  if (!entry) {
    // The compile callback compiles for the current device's target: the
    // launch device's while it runs. (Should the device not become current,
    // the launch below says why.)
    runtime::DeviceScope scope;
    if (device != kCurrentDevice)
      (void)scope.enter(device, devicePlatform());
    entry = compileAndInsert(bound, values.data(), options, hash, bytes,
                             constexprObjects.data(), parts);
  }
  // A reference of our own: Python code below (a grid callable) may clear
  // the cache.
  py::object kernelObject = entry->kernelObject;
  Kernel *kernel = entry->kernel;
  if (!kernel->dryRun) {
    // Pointer arguments in host memory the GPU cannot read are refused.
    if (accessible_.size() != n)
      accessible_.assign(n, 0);
    LaunchDevice checker(name_);
    for (std::size_t p = 0; p < n; ++p) {
      const ArgValue &value = values[p];
      if (constexpr_[p] || value.kind != ArgKind::Pointer || value.isNone ||
          value.address == accessible_[p])
        continue;
      checker.requireAccessible(bound[p], value, ParamRef{p, names_[p].ptr()});
      accessible_[p] = value.address;
    }
  }

  unsigned gridSize[3];
  if (PyCallable_Check(grid.ptr())) {
    py::dict meta;
    for (std::size_t p = 0; p < n; ++p)
      if (PyDict_SetItem(meta.ptr(), names_[p].ptr(), bound[p]) < 0)
        throwPythonError();
    py::object result = py::reinterpret_borrow<py::object>(grid)(meta);
    parseGrid(result.ptr(), gridSize);
  } else {
    parseGrid(grid.ptr(), gridSize);
  }

  const std::string &signature = kernel->signature();
  std::size_t numParams = kernel->numKernelParams();
  Scratch<Slot, 16> slots(numParams);
  Scratch<void *, 16> params(numParams);
  std::size_t s = 0, k = 0, nextDescriptor = 0;
  for (std::size_t p = 0; p < n; ++p) {
    if (constexpr_[p])
      continue;
    if (nextDescriptor < parts.descriptors.size() &&
        parts.descriptors[nextDescriptor].param == p) {
      // Base, shape and strides: one kernel parameter each.
      const DescriptorParts::Descriptor &d =
          parts.descriptors[nextDescriptor++];
      for (std::size_t j = 0; j < 1 + 2 * d.rank; ++j) {
        char c = signature[s++];
        if (c == '-')
          continue;
        packArgument(c, parts.values[d.first + j], slots[k],
                     ParamRef{p, names_[p].ptr()});
        params[k] = &slots[k];
        ++k;
      }
      continue;
    }
    char c = signature[s++];
    if (c == '-')
      continue;
    packArgument(c, values[p], slots[k], ParamRef{p, names_[p].ptr()});
    params[k] = &slots[k];
    ++k;
  }
  kernel->launch(device, gridSize, streamFor(device, stream), slots.data(),
                 params.data());
  return kernelObject;
}

std::uintptr_t Dispatcher::streamFor(int device, py::handle given) const {
  PyObject *stream = given.ptr();
  py::object owner;
  if (stream == Py_None) {
    if (currentStream_.is_none())
      return 0;
    // The current stream of the launch device (None: of the current one).
    PyObject *argument =
        device == kCurrentDevice ? Py_None : PyLong_FromLong(device);
    if (!argument)
      throwPythonError();
    stream = PyObject_CallOneArg(currentStream_.ptr(), argument);
    if (device != kCurrentDevice)
      Py_DECREF(argument);
    if (!stream)
      throwPythonError();
    owner = py::reinterpret_steal<py::object>(stream);
  }
  if (!PyLong_Check(stream))
    raise(PyExc_TypeError, "the stream must be an int (a CUstream), got " +
                               typeName(stream));
  unsigned long long value = PyLong_AsUnsignedLongLong(stream);
  if (value == static_cast<unsigned long long>(-1) && PyErr_Occurred())
    throwPythonError();
  return std::uintptr_t(value);
}

py::tuple Dispatcher::keyFor(py::handle args, py::handle kwargs) {
  std::size_t n = size();
  BoundArgs bound(n);
  Options options;
  bind(args.ptr(), kwargs.ptr(), bound, options);
  Scratch<ArgValue, 16> values(n);
  Scratch<PyObject *, 16> constexprObjects(numConstexpr_ ? numConstexpr_ : 1);
  KeyBytes bytes;
  DescriptorParts parts;
  computeKey(bound, values.data(), constexprObjects.data(), bytes, options,
             /*device=*/nullptr, parts);
  return keyTuple(bound, values.data(), options, parts);
}

py::dict Dispatcher::bindToDict(py::handle args, py::handle kwargs) {
  std::size_t n = size();
  BoundArgs bound(n);
  Options options;
  bind(args.ptr(), kwargs.ptr(), bound, options);
  py::dict result;
  for (std::size_t p = 0; p < n; ++p)
    if (PyDict_SetItem(result.ptr(), names_[p].ptr(), bound[p]) < 0)
      throwPythonError();
  return result;
}

/// The type of terrazzo._C.NO_DEFAULT.
struct NoDefault {};

} // namespace

void registerDispatcher(py::module_ &m) {
  py::class_<NoDefault>(m, "_NoDefaultType")
      .def("__repr__", [](const NoDefault &) { return "NO_DEFAULT"; });
  py::object noDefault = py::cast(NoDefault());
  interned.noDefault = noDefault.inc_ref().ptr(); // lives forever
  m.attr("NO_DEFAULT") = noDefault;

  m.def(
      "register_tensor_descriptor_type",
      [](py::handle type) {
        if (!PyType_Check(type.ptr()))
          raise(PyExc_TypeError, "expected a class, got " +
                                     typeName(type.ptr()));
        Py_INCREF(type.ptr()); // kept for the life of the process
        Py_XDECREF(reinterpret_cast<PyObject *>(descriptorType));
        descriptorType = reinterpret_cast<PyTypeObject *>(type.ptr());
      },
      py::arg("type"),
      "Makes launches pass instances of `type` (terrazzo.tools."
      "tensor_descriptor.TensorDescriptor) as host tensor descriptors: "
      "base pointer, shape and strides.");

  m.attr("POINTER_RANGE_BYTES") = py::int_(kPointerRangeBytes);

  py::class_<Dispatcher>(m, "Dispatcher", R"doc(
The launch path of a jit function: binds arguments, computes the
specialization key, finds or compiles the Kernel and launches it, in C++.
`compile(key, bound_args)` is called on a cache miss and must return a Kernel
whose signature has one character per non-constexpr parameter.)doc")
      .def(py::init<std::vector<std::string>, std::vector<bool>,
                    std::vector<int>, py::sequence, py::object, std::string,
                    py::object>(),
           py::arg("param_names"), py::arg("constexpr"),
           py::arg("do_not_specialize"), py::arg("defaults"),
           py::arg("compile"), py::arg("name") = "kernel", py::kw_only(),
           py::arg("current_stream") = py::none())
      .def("run", &Dispatcher::run, py::arg("grid"), py::arg("args"),
           py::arg("kwargs"), py::arg("stream") = py::none(),
           "Binds, looks up or compiles, and launches on the device of the "
           "pointer arguments; returns the Kernel. `stream` (a CUstream as "
           "an int) defaults to current_stream(device) (the launch "
           "device, or None for the current one), or 0 without "
           "current_stream.")
      .def("key_for", &Dispatcher::keyFor, py::arg("args"),
           py::arg("kwargs") = py::none(),
           "The specialization key of a call, without compiling or "
           "launching.")
      .def("bind", &Dispatcher::bindToDict, py::arg("args"),
           py::arg("kwargs") = py::none(),
           "The arguments of a call bound to the parameters by name "
           "(defaults filled in; launch options left out).")
      .def("cache_size", &Dispatcher::cacheSize)
      .def("clear", &Dispatcher::clear, "Forgets every compiled kernel.")
      .def_property_readonly("param_names", &Dispatcher::paramNames)
      .def_property_readonly("name", &Dispatcher::name);
}

} // namespace terrazzo::python
