// Helpers shared by the files of the Python extension terrazzo._C: raising
// Python exceptions from C++, interned attribute names, the registration
// functions Module.cpp calls, and a small stack buffer for the launch path.
#ifndef TERRAZZO_PYTHON_COMMON_H
#define TERRAZZO_PYTHON_COMMON_H

#include <pybind11/pybind11.h>

#include <cstddef>
#include <memory>
#include <string>

namespace terrazzo::python {

namespace py = pybind11;

/// Each registers one part of the module (one file each).
void registerCompileBindings(py::module_ &m);
void registerRuntimeBindings(py::module_ &m);
void registerKernel(py::module_ &m);
void registerDispatcher(py::module_ &m);

/// Sets a Python exception of type `type` (e.g. PyExc_TypeError) and throws
/// it to pybind11, which hands it to Python unchanged.
[[noreturn]] void raise(PyObject *type, const std::string &message);

/// Throws the Python exception that is already set.
[[noreturn]] inline void throwPythonError() { throw py::error_already_set(); }

/// The qualified name of an object's type, for messages ("torch.Tensor").
std::string typeName(PyObject *object);

/// repr(object) for messages; never throws.
std::string reprOf(PyObject *object);

/// Attribute names and the sentinel, interned once when the module loads
/// (deliberately never freed: they outlive interpreter finalization).
struct Interned {
  PyObject *data_ptr;
  PyObject *dtype;
  PyObject *cuda_array_interface;
  PyObject *dlpack;        ///< "__dlpack__"
  PyObject *dlpack_device; ///< "__dlpack_device__"
  PyObject *untyped_storage;
  PyObject *nbytes;
  PyObject *data;
  PyObject *typestr;
  PyObject *num_warps;
  PyObject *num_stages;
  PyObject *p, *b, *i, *l, *f; ///< "p", "b", ... for key tuples
  PyObject *noDefault;          ///< terrazzo._C.NO_DEFAULT
};
extern Interned interned;
void initInterned();

/// Whether TERRAZZO_DRY_LAUNCH=1 was set when the module was imported: the
/// default of Kernel.dry_run.
extern bool dryLaunchDefault;

/// A buffer of `n` trivially copyable values: on the stack up to N, on the
/// heap above. The launch path uses it so that a call allocates nothing.
template <typename T, std::size_t N> class Scratch {
public:
  explicit Scratch(std::size_t n) {
    if (n > N) {
      heap_.reset(new T[n]);
      data_ = heap_.get();
    }
  }
  Scratch(const Scratch &) = delete;
  Scratch &operator=(const Scratch &) = delete;
  T &operator[](std::size_t i) { return data_[i]; }
  const T &operator[](std::size_t i) const { return data_[i]; }
  T *data() { return data_; }

private:
  T local_[N];
  std::unique_ptr<T[]> heap_;
  T *data_ = local_;
};

} // namespace terrazzo::python

#endif // TERRAZZO_PYTHON_COMMON_H
