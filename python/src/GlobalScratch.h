// Global scratch for kernels that need it (the tensor maps TMA descriptors
// build on the device): a buffer of (program instances) x (bytes per
// instance), passed as the kernel's hidden last parameter. It comes from
// the allocator set with terrazzo.set_allocator (fn(size, alignment,
// stream) -> a tensor, as in Triton), or else from a device buffer the
// extension keeps per device and stream, grown as needed. Either way it is
// memory of the launch's device.
#ifndef TERRAZZO_PYTHON_GLOBALSCRATCH_H
#define TERRAZZO_PYTHON_GLOBALSCRATCH_H

#include "Common.h"
#include "terrazzo/Runtime.h"

#include <cstdint>

namespace terrazzo::python {

/// Alignment of the scratch (tensor maps must be 64-byte aligned; the
/// compiler assumes 128).
inline constexpr std::uint64_t kGlobalScratchAlignment = 128;

struct GlobalScratch {
  std::uint64_t pointer = 0;
  /// What keeps the memory alive while the launch is queued (the
  /// allocator's tensor); none for the extension's own buffer.
  py::object owner;
};

/// Scratch of `bytes` bytes on device `device` (negative: the current
/// device) of `platform` for a launch on `stream`, a stream of that device.
/// The
/// allocator is called with that device current in torch (when torch is
/// imported and another device is current); the extension's own buffer is
/// allocated in that device's context. Must be called with the GIL held;
/// errors raise Python exceptions.
GlobalScratch acquireGlobalScratch(std::uint64_t bytes, std::uintptr_t stream,
                                   int device, runtime::Platform platform);

/// _C.set_allocator(fn or None) and _C.get_allocator().
void registerGlobalScratch(py::module_ &m);

} // namespace terrazzo::python

#endif // TERRAZZO_PYTHON_GLOBALSCRATCH_H
