// Classifying, reading and packing launch arguments (see ArgumentPacking.h).
#include "ArgumentPacking.h"

#include <climits>
#include <unordered_map>
#include <vector>

namespace terrazzo::python {
namespace {

//===----------------------------------------------------------------------===//
// Per-type facts
//===----------------------------------------------------------------------===//

enum class TypeKind : std::uint8_t {
  DataPtr,        ///< has data_ptr() (torch.Tensor and friends)
  ArrayInterface, ///< has __cuda_array_interface__ (CuPy, Numba, ...)
  DLPack,         ///< has __dlpack__ and __dlpack_device__ (JAX, NumPy, ...)
  NumpyBool,      ///< numpy.bool_
  IntLike,        ///< an int subclass or anything with __index__
  FloatLike,      ///< a float subclass or anything with __float__
  Unsupported,    ///< checked per instance (attributes set on the object)
};

struct TypeInfo {
  TypeKind kind = TypeKind::Unsupported;
  /// For DataPtr: the function or method descriptor found on the type,
  /// called with the object as its only argument (saves the bound-method
  /// lookup); null to call obj.data_ptr() by name. A strong reference.
  PyObject *dataPtr = nullptr;
  /// For DataPtr: whether the type has untyped_storage (its memory's
  /// extent, fitsPointerRange), and the descriptors of untyped_storage and
  /// nbytes as for data_ptr (strong references, or null to call by name).
  bool hasStorage = false;
  PyObject *untypedStorage = nullptr;
  PyObject *nbytes = nullptr;
};

/// A method of `type` as a function or method descriptor that can be called
/// with the object as its only argument (a new reference), or null.
PyObject *methodDescriptor(PyObject *type, PyObject *name) {
  PyObject *method = PyObject_GetAttr(type, name);
  if (method &&
      (PyFunction_Check(method) || Py_IS_TYPE(method, &PyMethodDescr_Type)))
    return method;
  Py_XDECREF(method);
  PyErr_Clear();
  return nullptr;
}

bool hasAttr(PyObject *object, PyObject *name) {
  int has = PyObject_HasAttr(object, name);
  return has == 1;
}

TypeInfo classify(PyTypeObject *type) {
  PyObject *typeObject = reinterpret_cast<PyObject *>(type);
  TypeInfo info;
  if (hasAttr(typeObject, interned.data_ptr)) {
    info.kind = TypeKind::DataPtr;
    info.dataPtr = methodDescriptor(typeObject, interned.data_ptr);
    info.hasStorage = hasAttr(typeObject, interned.untyped_storage);
    info.untypedStorage =
        methodDescriptor(typeObject, interned.untyped_storage);
    info.nbytes = methodDescriptor(typeObject, interned.nbytes);
    return info;
  }
  if (hasAttr(typeObject, interned.cuda_array_interface)) {
    info.kind = TypeKind::ArrayInterface;
    return info;
  }
  // Before the int check: NumPy arrays have __index__ too.
  if (hasAttr(typeObject, interned.dlpack) &&
      hasAttr(typeObject, interned.dlpack_device)) {
    info.kind = TypeKind::DLPack;
    return info;
  }
  std::string name = type->tp_name;
  if (name == "numpy.bool_" || name == "numpy.bool") {
    info.kind = TypeKind::NumpyBool;
    return info;
  }
  PyNumberMethods *number = type->tp_as_number;
  if (PyType_IsSubtype(type, &PyLong_Type) || (number && number->nb_index)) {
    info.kind = TypeKind::IntLike;
    return info;
  }
  if (PyType_IsSubtype(type, &PyFloat_Type) || (number && number->nb_float)) {
    info.kind = TypeKind::FloatLike;
    return info;
  }
  return info;
}

/// The facts about `type`, computed once per type. The cache holds a
/// reference to each type, so an address is never reused for another type.
/// It is leaked on purpose: it must outlive interpreter finalization.
const TypeInfo &typeInfo(PyTypeObject *type) {
  static auto *cache = new std::unordered_map<PyTypeObject *, TypeInfo>();
  static PyTypeObject *lastType = nullptr;
  static const TypeInfo *lastInfo = nullptr;
  if (type == lastType)
    return *lastInfo;
  auto it = cache->find(type);
  if (it == cache->end()) {
    TypeInfo info = classify(type);
    Py_INCREF(type);
    it = cache->emplace(type, info).first;
  }
  // Elements of an unordered_map never move, so the pointer stays valid.
  lastType = type;
  lastInfo = &it->second;
  return it->second;
}

//===----------------------------------------------------------------------===//
// Dtype names
//===----------------------------------------------------------------------===//

/// Small indices for dtype names, so that a key stores two bytes instead of
/// a string. Dtype objects are cached by identity (torch dtypes and numpy's
/// builtin dtypes are singletons), names by value.
struct DtypeTable {
  std::unordered_map<PyObject *, std::uint16_t> byObject; // strong refs
  std::unordered_map<std::string, std::uint16_t> byName;
  std::vector<PyObject *> names{Py_None}; // index -> str; [0] = None
  PyObject *lastObject = nullptr;
  std::uint16_t lastIndex = 0;
};

DtypeTable &dtypeTable() {
  static auto *table = new DtypeTable(); // leaked, see typeInfo()
  return *table;
}

std::uint16_t indexForName(const std::string &name) {
  DtypeTable &table = dtypeTable();
  auto it = table.byName.find(name);
  if (it != table.byName.end())
    return it->second;
  if (table.names.size() >= 65535)
    raise(PyExc_RuntimeError, "too many distinct dtypes");
  PyObject *text = PyUnicode_FromStringAndSize(name.data(), name.size());
  if (!text)
    throwPythonError();
  auto index = static_cast<std::uint16_t>(table.names.size());
  table.names.push_back(text);
  table.byName.emplace(name, index);
  return index;
}

/// "float32" for torch.float32, numpy.dtype('float32'), numpy.float32 and
/// the string "float32".
std::string nameOfDtype(PyObject *dtype) {
  std::string name;
  if (PyType_Check(dtype)) {
    name = reinterpret_cast<PyTypeObject *>(dtype)->tp_name;
    std::size_t dot = name.rfind('.');
    if (dot != std::string::npos)
      name = name.substr(dot + 1);
  } else {
    PyObject *text = PyUnicode_Check(dtype) ? (Py_INCREF(dtype), dtype)
                                            : PyObject_Str(dtype);
    if (!text)
      throwPythonError();
    Py_ssize_t size = 0;
    const char *utf8 = PyUnicode_AsUTF8AndSize(text, &size);
    if (!utf8) {
      Py_DECREF(text);
      throwPythonError();
    }
    name.assign(utf8, size);
    Py_DECREF(text);
  }
  if (name.compare(0, 6, "torch.") == 0)
    name = name.substr(6);
  return name;
}

std::uint16_t dtypeIndex(PyObject *dtype) {
  DtypeTable &table = dtypeTable();
  if (dtype == table.lastObject)
    return table.lastIndex;
  auto it = table.byObject.find(dtype);
  if (it != table.byObject.end()) {
    table.lastObject = dtype;
    table.lastIndex = it->second;
    return it->second;
  }
  std::uint16_t index = indexForName(nameOfDtype(dtype));
  // Remember the object (and keep it alive so that its address is not
  // reused); a program that makes dtype objects on the fly stops being
  // remembered after a while and just pays for str() each time.
  if (table.byObject.size() < 4096) {
    Py_INCREF(dtype);
    table.byObject.emplace(dtype, index);
    table.lastObject = dtype;
    table.lastIndex = index;
  }
  return index;
}

/// "<f4" -> "float32", the names numpy and torch use.
std::uint16_t dtypeIndexFromTypestr(PyObject *typestr) {
  if (!PyUnicode_Check(typestr))
    return 0;
  const char *utf8 = PyUnicode_AsUTF8(typestr);
  if (!utf8)
    throwPythonError();
  std::string text = utf8;
  std::string body = text;
  if (!body.empty() && (body[0] == '<' || body[0] == '>' || body[0] == '|' ||
                        body[0] == '='))
    body = body.substr(1);
  static const std::pair<const char *, const char *> kNames[] = {
      {"f2", "float16"}, {"f4", "float32"}, {"f8", "float64"},
      {"i1", "int8"},    {"i2", "int16"},   {"i4", "int32"},
      {"i8", "int64"},   {"u1", "uint8"},   {"u2", "uint16"},
      {"u4", "uint32"},  {"u8", "uint64"},  {"b1", "bool"}};
  for (auto [code, name] : kNames)
    if (body == code)
      return indexForName(name);
  return indexForName(text);
}

//===----------------------------------------------------------------------===//
// Reading values
//===----------------------------------------------------------------------===//

std::uint64_t addressFrom(PyObject *value, const ParamRef &who,
                          const char *source) {
  if (!PyLong_Check(value))
    raise(PyExc_TypeError, describe(who) + ": " + source + " gave " +
                               typeName(value) + ", not an int address");
  unsigned long long address = PyLong_AsUnsignedLongLong(value);
  if (address == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
    PyErr_Clear();
    raise(PyExc_OverflowError, describe(who) + ": " + source + " gave " +
                                   reprOf(value) +
                                   ", which is not a 64-bit address");
  }
  return address;
}

void readDataPtr(PyObject *object, const TypeInfo *info, ArgValue &out,
                 bool wantDtype, const ParamRef &who) {
  PyObject *result = info && info->dataPtr
                         ? PyObject_CallOneArg(info->dataPtr, object)
                         : PyObject_CallMethodNoArgs(object, interned.data_ptr);
  if (!result)
    throwPythonError();
  py::object owner = py::reinterpret_steal<py::object>(result);
  out.kind = ArgKind::Pointer;
  out.address = addressFrom(result, who, "data_ptr()");
  if (!wantDtype)
    return;
  PyObject *dtype = PyObject_GetAttr(object, interned.dtype);
  if (!dtype) {
    PyErr_Clear();
    raise(PyExc_TypeError, describe(who) + " (" + typeName(object) +
                               ") has data_ptr() but no dtype");
  }
  out.dtype = dtypeIndex(dtype);
  Py_DECREF(dtype);
}

void readArrayInterface(PyObject *object, ArgValue &out, bool wantDtype,
                        const ParamRef &who) {
  PyObject *interface = PyObject_GetAttr(object, interned.cuda_array_interface);
  if (!interface)
    throwPythonError();
  py::object owner = py::reinterpret_steal<py::object>(interface);
  PyObject *data =
      PyDict_Check(interface) ? PyDict_GetItemWithError(interface, interned.data)
                              : nullptr;
  if (!data || !PyTuple_Check(data) || PyTuple_GET_SIZE(data) < 1) {
    if (PyErr_Occurred())
      throwPythonError();
    raise(PyExc_TypeError,
          describe(who) + ": __cuda_array_interface__ of " + typeName(object) +
              " has no 'data' tuple");
  }
  out.kind = ArgKind::Pointer;
  out.address =
      addressFrom(PyTuple_GET_ITEM(data, 0), who, "__cuda_array_interface__");
  if (!wantDtype)
    return;
  PyObject *typestr = PyDict_GetItemWithError(interface, interned.typestr);
  if (!typestr && PyErr_Occurred())
    throwPythonError();
  out.dtype = typestr ? dtypeIndexFromTypestr(typestr) : 0;
}

// The DLPack structures we read, declared here as the protocol defines them
// (the unversioned "dltensor" capsule every producer supports).
struct DLDevice {
  std::int32_t deviceType;
  std::int32_t deviceId;
};
struct DLDataType {
  std::uint8_t code;
  std::uint8_t bits;
  std::uint16_t lanes;
};
struct DLTensor {
  void *data;
  DLDevice device;
  std::int32_t ndim;
  DLDataType dtype;
  std::int64_t *shape;
  std::int64_t *strides;
  std::uint64_t byteOffset;
};
struct DLManagedTensor {
  DLTensor tensor;
  void *managerContext;
  void (*deleter)(DLManagedTensor *);
};
constexpr std::int32_t kDLCUDA = 2, kDLCUDAManaged = 13;

std::string dlpackDtypeName(DLDataType dtype) {
  const char *prefix = nullptr;
  switch (dtype.code) {
  case 0:
    prefix = "int";
    break;
  case 1:
    prefix = "uint";
    break;
  case 2:
    prefix = "float";
    break;
  case 4:
    prefix = "bfloat";
    break;
  case 6:
    return "bool";
  default:
    return "dlpack" + std::to_string(dtype.code) + "_" + std::to_string(dtype.bits);
  }
  return prefix + std::to_string(dtype.bits);
}

/// A pointer from the DLPack protocol: the device must be a CUDA GPU (host
/// arrays, NumPy's included, are refused with a message that says so).
void readDLPack(PyObject *object, ArgValue &out, bool wantDtype,
                const ParamRef &who) {
  PyObject *device = PyObject_CallMethodNoArgs(object, interned.dlpack_device);
  if (!device)
    throwPythonError();
  py::object deviceOwner = py::reinterpret_steal<py::object>(device);
  long deviceType = -1;
  if (PyTuple_Check(device) && PyTuple_GET_SIZE(device) >= 1)
    deviceType = PyLong_AsLong(PyTuple_GET_ITEM(device, 0));
  if (deviceType == -1 && PyErr_Occurred())
    throwPythonError();
  if (deviceType != kDLCUDA && deviceType != kDLCUDAManaged)
    raise(PyExc_TypeError,
          describe(who) + " is a " + typeName(object) +
              " in host memory (DLPack device type " +
              std::to_string(deviceType) +
              "); a GPU kernel needs GPU memory: pass a CUDA tensor, or run "
              "the kernel in the interpreter (TERRAZZO_INTERPRET=1)");
  PyObject *capsule = PyObject_CallMethodNoArgs(object, interned.dlpack);
  if (!capsule)
    throwPythonError();
  // Not consumed: releasing the capsule calls the producer's deleter.
  py::object capsuleOwner = py::reinterpret_steal<py::object>(capsule);
  auto *managed = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  if (!managed)
    throwPythonError();
  out.kind = ArgKind::Pointer;
  out.address = reinterpret_cast<std::uint64_t>(managed->tensor.data) +
                managed->tensor.byteOffset;
  if (wantDtype)
    out.dtype = indexForName(dlpackDtypeName(managed->tensor.dtype));
}

void readInt(PyObject *value, ArgValue &out, const ParamRef &who) {
  out.kind = ArgKind::Int;
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
  if (v == -1 && PyErr_Occurred())
    throwPythonError();
  if (!overflow) {
    out.i = v;
    return;
  }
  if (overflow > 0) {
    unsigned long long u = PyLong_AsUnsignedLongLong(value);
    if (!(u == static_cast<unsigned long long>(-1) && PyErr_Occurred())) {
      out.isUnsigned = true;
      out.u = u;
      return;
    }
    PyErr_Clear();
  }
  raise(PyExc_OverflowError, describe(who) + " = " + reprOf(value) +
                                 " does not fit in 64 bits");
}

[[noreturn]] void unsupported(PyObject *object, const ParamRef &who) {
  raise(PyExc_TypeError,
        describe(who) + " has type " + typeName(object) +
            ", which is not a pointer (a tensor, an object with data_ptr(), "
            "__cuda_array_interface__ or DLPack, or None), a bool, an int or a "
            "float; mark the parameter tl.constexpr to pass other values");
}

const char *kindName(const ArgValue &value) {
  switch (value.kind) {
  case ArgKind::Pointer:
    return value.isNone ? "None" : "a pointer";
  case ArgKind::Bool:
    return "a bool";
  case ArgKind::Int:
    return "an int";
  case ArgKind::Float:
    return "a float";
  }
  return "?";
}

std::string intText(const ArgValue &value) {
  return value.isUnsigned ? std::to_string(value.u) : std::to_string(value.i);
}

[[noreturn]] void wrongKind(const ArgValue &value, const ParamRef &who,
                            const char *wanted) {
  std::string type = value.type ? value.type->tp_name : "?";
  raise(PyExc_TypeError, describe(who) + " must be " + wanted + ", got " +
                             kindName(value) + " (" + type + ")");
}

[[noreturn]] void outOfRange(const ArgValue &value, const ParamRef &who,
                             const char *wanted) {
  raise(PyExc_OverflowError, describe(who) + " = " + intText(value) +
                                 " is out of range for " + wanted);
}

} // namespace

std::string describe(const ParamRef &who) {
  std::string text = "argument " + std::to_string(who.index);
  if (who.name && PyUnicode_Check(who.name)) {
    const char *name = PyUnicode_AsUTF8(who.name);
    if (name)
      text += std::string(" ('") + name + "')";
    else
      PyErr_Clear();
  }
  return text;
}

void extractArgument(PyObject *object, ArgValue &out, bool wantDtype,
                     const ParamRef &who) {
  PyTypeObject *type = Py_TYPE(object);
  out.type = type;
  out.isNone = false;
  out.isUnsigned = false;
  out.fitsRange = false;
  out.dtype = 0;
  out.u = 0;
  // The builtin scalars first: no lookup at all.
  if (type == &PyLong_Type)
    return readInt(object, out, who);
  if (object == Py_None) {
    out.kind = ArgKind::Pointer;
    out.isNone = true;
    return;
  }
  if (type == &PyBool_Type) {
    out.kind = ArgKind::Bool;
    out.b = object == Py_True;
    return;
  }
  if (type == &PyFloat_Type) {
    out.kind = ArgKind::Float;
    out.f = PyFloat_AS_DOUBLE(object);
    return;
  }
  const TypeInfo &info = typeInfo(type);
  switch (info.kind) {
  case TypeKind::DataPtr:
    return readDataPtr(object, &info, out, wantDtype, who);
  case TypeKind::ArrayInterface:
    return readArrayInterface(object, out, wantDtype, who);
  case TypeKind::DLPack:
    return readDLPack(object, out, wantDtype, who);
  case TypeKind::NumpyBool: {
    int truth = PyObject_IsTrue(object);
    if (truth < 0)
      throwPythonError();
    out.kind = ArgKind::Bool;
    out.b = truth;
    return;
  }
  case TypeKind::IntLike: {
    PyObject *index = PyNumber_Index(object);
    if (!index)
      throwPythonError();
    py::object owner = py::reinterpret_steal<py::object>(index);
    return readInt(index, out, who);
  }
  case TypeKind::FloatLike: {
    double value = PyFloat_AsDouble(object);
    if (value == -1.0 && PyErr_Occurred())
      throwPythonError();
    out.kind = ArgKind::Float;
    out.f = value;
    return;
  }
  case TypeKind::Unsupported:
    // Attributes set on the instance itself.
    if (hasAttr(object, interned.data_ptr))
      return readDataPtr(object, nullptr, out, wantDtype, who);
    if (hasAttr(object, interned.cuda_array_interface))
      return readArrayInterface(object, out, wantDtype, who);
    unsupported(object, who);
  }
  unsupported(object, who);
}

namespace {

/// `object.name()` through the type's descriptor when there is one; a new
/// reference, or null with a Python error set.
PyObject *callMethod(PyObject *object, PyObject *descriptor, PyObject *name) {
  return descriptor ? PyObject_CallOneArg(descriptor, object)
                    : PyObject_CallMethodNoArgs(object, name);
}

/// An int result as an unsigned 64-bit value; false when it is none.
bool unsignedValue(PyObject *result, std::uint64_t &out) {
  if (!result || !PyLong_Check(result))
    return false;
  unsigned long long value = PyLong_AsUnsignedLongLong(result);
  if (value == static_cast<unsigned long long>(-1) && PyErr_Occurred())
    return false;
  out = value;
  return true;
}

bool storageFits(PyObject *object, const TypeInfo &info,
                 std::uint64_t address) {
  PyObject *storage =
      callMethod(object, info.untypedStorage, interned.untyped_storage);
  if (!storage || storage == Py_None) {
    Py_XDECREF(storage);
    return false;
  }
  py::object owner = py::reinterpret_steal<py::object>(storage);
  const TypeInfo &storageInfo = typeInfo(Py_TYPE(storage));
  PyObject *start = callMethod(storage, storageInfo.dataPtr, interned.data_ptr);
  py::object startOwner = py::reinterpret_steal<py::object>(start);
  std::uint64_t first = 0, size = 0;
  if (!unsignedValue(start, first))
    return false;
  PyObject *bytes = callMethod(storage, storageInfo.nbytes, interned.nbytes);
  py::object bytesOwner = py::reinterpret_steal<py::object>(bytes);
  if (!unsignedValue(bytes, size))
    return false;
  return first <= address && address - first <= kPointerRangeBytes &&
         size >= address - first &&
         size - (address - first) <= kPointerRangeBytes;
}

} // namespace

bool fitsPointerRange(PyObject *object, const ArgValue &value) {
  if (value.kind != ArgKind::Pointer)
    return false;
  if (value.isNone)
    return true; // nothing is addressed
  const TypeInfo &info = typeInfo(Py_TYPE(object));
  if (info.kind != TypeKind::DataPtr || !info.hasStorage)
    return false;
  // An object whose storage cannot be asked for is of unknown size.
  bool fits = storageFits(object, info, value.address);
  if (PyErr_Occurred())
    PyErr_Clear();
  return fits;
}

py::object dtypeName(std::uint16_t index) {
  DtypeTable &table = dtypeTable();
  if (index >= table.names.size())
    return py::none();
  return py::reinterpret_borrow<py::object>(table.names[index]);
}

bool isSignatureChar(char c) {
  switch (c) {
  case 'p':
  case 'i':
  case 'l':
  case 'f':
  case 'd':
  case 'b':
  case '-':
    return true;
  default:
    return false;
  }
}

void checkSignature(const std::string &signature) {
  for (std::size_t i = 0; i < signature.size(); ++i)
    if (!isSignatureChar(signature[i]))
      raise(PyExc_ValueError,
            "signature character " + std::to_string(i) + " is '" +
                std::string(1, signature[i]) +
                "'; expected one of p (pointer), i (int32), l (int64), f "
                "(float32), d (float64), b (int1) or - (not passed)");
}

void packArgument(char sig, const ArgValue &value, Slot &slot,
                  const ParamRef &who) {
  slot.u64 = 0;
  switch (sig) {
  case 'p':
    if (value.kind == ArgKind::Pointer) {
      slot.u64 = value.address;
      return;
    }
    if (value.kind == ArgKind::Int) {
      if (!value.isUnsigned && value.i < 0)
        outOfRange(value, who, "a pointer");
      slot.u64 = value.u;
      return;
    }
    wrongKind(value, who,
              "a pointer (a tensor, an object with data_ptr() or "
              "__cuda_array_interface__, an int address or None)");
  case 'i':
    if (value.kind == ArgKind::Bool) {
      slot.i32 = value.b;
      return;
    }
    if (value.kind != ArgKind::Int)
      wrongKind(value, who, "an int (int32)");
    if (!fitsInt32(value))
      outOfRange(value, who, "int32");
    slot.i32 = static_cast<std::int32_t>(value.i);
    return;
  case 'l':
    if (value.kind == ArgKind::Bool) {
      slot.i64 = value.b;
      return;
    }
    if (value.kind != ArgKind::Int)
      wrongKind(value, who, "an int (int64)");
    // Values up to 2**64-1 pass as their bit pattern (a uint64 parameter).
    slot.u64 = value.u;
    return;
  case 'f':
  case 'd': {
    double number;
    if (value.kind == ArgKind::Float)
      number = value.f;
    else if (value.kind == ArgKind::Int)
      number = value.isUnsigned ? double(value.u) : double(value.i);
    else if (value.kind == ArgKind::Bool)
      number = value.b;
    else
      wrongKind(value, who, sig == 'f' ? "a float (float32)"
                                       : "a float (float64)");
    if (sig == 'f')
      slot.f32 = static_cast<float>(number);
    else
      slot.f64 = number;
    return;
  }
  case 'b':
    if (value.kind == ArgKind::Bool) {
      slot.u8 = value.b;
      return;
    }
    if (value.kind != ArgKind::Int)
      wrongKind(value, who, "a bool (int1)");
    if (value.isUnsigned || (value.i != 0 && value.i != 1))
      outOfRange(value, who, "int1 (0 or 1)");
    slot.u8 = static_cast<std::uint8_t>(value.i);
    return;
  default:
    raise(PyExc_ValueError, describe(who) + ": bad signature character '" +
                                std::string(1, sig) + "'");
  }
}

void parseGrid(PyObject *grid, unsigned out[3]) {
  out[0] = out[1] = out[2] = 1;
  PyObject *single[1] = {grid};
  PyObject **items;
  Py_ssize_t count;
  if (PyTuple_Check(grid)) {
    items = &PyTuple_GET_ITEM(grid, 0);
    count = PyTuple_GET_SIZE(grid);
  } else if (PyList_Check(grid)) {
    items = PySequence_Fast_ITEMS(grid);
    count = PyList_GET_SIZE(grid);
  } else if (PyLong_Check(grid)) {
    items = single;
    count = 1;
  } else {
    raise(PyExc_TypeError, "grid must be a tuple of 1 to 3 ints (or a "
                           "callable returning one), got " +
                               typeName(grid));
  }
  if (count < 1 || count > 3)
    raise(PyExc_ValueError, "grid must have 1 to 3 dimensions, got " +
                                std::to_string(count) + ": " + reprOf(grid));
  for (Py_ssize_t d = 0; d < count; ++d) {
    PyObject *item = items[d];
    long long value;
    if (PyLong_Check(item)) {
      value = PyLong_AsLongLong(item);
    } else {
      PyObject *index = PyNumber_Index(item);
      if (!index) {
        PyErr_Clear();
        raise(PyExc_TypeError, "grid dimension " + std::to_string(d) +
                                   " must be an int, got " + typeName(item));
      }
      value = PyLong_AsLongLong(index);
      Py_DECREF(index);
    }
    if (value == -1 && PyErr_Occurred()) {
      PyErr_Clear();
      value = LLONG_MAX;
    }
    if (value < 0 || value > UINT32_MAX)
      raise(PyExc_ValueError, "grid dimension " + std::to_string(d) + " = " +
                                  reprOf(item) + " is out of range");
    out[d] = static_cast<unsigned>(value);
  }
}

} // namespace terrazzo::python
