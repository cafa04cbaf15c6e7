// terrazzo._C: the C++ side of the Python package (DESIGN.md §7, §8).
//
//   compile / version / Diagnostic / CompileResult   CompileBindings.cpp
//   runtime_available / runtime_error / current_target RuntimeBindings.cpp
//   Kernel                                            Kernel.cpp
//   Dispatcher / NO_DEFAULT                           Dispatcher.cpp
//   set_allocator / get_allocator                     GlobalScratch.cpp
//
// It is a thin layer over the public headers in include/terrazzo/, which
// include no LLVM or MLIR, so it builds in seconds against any Python and a
// prebuilt core library.
#include "Common.h"
#include "GlobalScratch.h"

PYBIND11_MODULE(_C, m) {
  using namespace terrazzo::python;
  m.doc() = "Terrazzo's compiler, runtime and launch path";
  initInterned();
  registerCompileBindings(m);
  registerRuntimeBindings(m);
  registerKernel(m);
  registerDispatcher(m);
  registerGlobalScratch(m);
}
