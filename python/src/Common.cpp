// Helpers shared by the extension's files (see Common.h).
#include "Common.h"

#include <cstdlib>
#include <cstring>

namespace terrazzo::python {

Interned interned;
bool dryLaunchDefault = false;

void raise(PyObject *type, const std::string &message) {
  PyErr_SetString(type, message.c_str());
  throw py::error_already_set();
}

std::string typeName(PyObject *object) {
  PyTypeObject *type = Py_TYPE(object);
  // Heap types (classes written in Python) have a bare tp_name; add the
  // module for them, as Python's own messages do.
  std::string name = type->tp_name;
  if ((type->tp_flags & Py_TPFLAGS_HEAPTYPE) &&
      name.find('.') == std::string::npos) {
    PyObject *module = PyObject_GetAttrString(reinterpret_cast<PyObject *>(type),
                                              "__module__");
    if (module && PyUnicode_Check(module)) {
      const char *text = PyUnicode_AsUTF8(module);
      if (text && std::strcmp(text, "builtins") != 0)
        name = std::string(text) + "." + name;
    }
    Py_XDECREF(module);
    PyErr_Clear();
  }
  return name;
}

std::string reprOf(PyObject *object) {
  PyObject *repr = PyObject_Repr(object);
  if (!repr) {
    PyErr_Clear();
    return "<" + typeName(object) + " object>";
  }
  const char *text = PyUnicode_AsUTF8(repr);
  std::string result = text ? text : "?";
  if (!text)
    PyErr_Clear();
  Py_DECREF(repr);
  if (result.size() > 200)
    result = result.substr(0, 197) + "...";
  return result;
}

void initInterned() {
  auto intern = [](const char *text) {
    PyObject *object = PyUnicode_InternFromString(text);
    if (!object)
      throwPythonError();
    return object;
  };
  interned.data_ptr = intern("data_ptr");
  interned.dtype = intern("dtype");
  interned.cuda_array_interface = intern("__cuda_array_interface__");
  interned.dlpack = intern("__dlpack__");
  interned.dlpack_device = intern("__dlpack_device__");
  interned.untyped_storage = intern("untyped_storage");
  interned.nbytes = intern("nbytes");
  interned.data = intern("data");
  interned.typestr = intern("typestr");
  interned.num_warps = intern("num_warps");
  interned.num_stages = intern("num_stages");
  interned.p = intern("p");
  interned.b = intern("b");
  interned.i = intern("i");
  interned.l = intern("l");
  interned.f = intern("f");
  const char *dry = std::getenv("TERRAZZO_DRY_LAUNCH");
  dryLaunchDefault = dry && *dry && std::strcmp(dry, "0") != 0;
}

} // namespace terrazzo::python
