// The ROCm device libraries (DESIGN.md §5): the bitcode of ocml (math) and
// ockl (work-group sizes, printf) that AMD kernels call, linked into the
// kernel's module with their `__oclc_*` control constants defined in the
// module itself, so that no per-ISA control library is needed.
#ifndef TERRAZZO_BACKENDS_AMD_DEVICELIBRARIES_H
#define TERRAZZO_BACKENDS_AMD_DEVICELIBRARIES_H

#include "target/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace terrazzo::amd {

/// The code object version of the kernels (v5), as LLVM's module flag
/// "amdhsa_code_object_version" and ockl's `__oclc_ABI_version` spell it.
inline constexpr unsigned kCodeObjectVersion = 500;

/// The ocml function that computes what libdevice's `symbol` (`__nv_sinf`,
/// ...) does, with the same signature; empty when ocml has none.
std::string ocmlForLibdevice(llvm::StringRef symbol);

/// Whether the kernel's module defines libdevice's `symbol` itself (LLVM
/// intrinsics, integer and IEEE arithmetic with NVIDIA's meaning: bit
/// functions, bit casts, conversions and arithmetic with a rounding
/// direction, ...; Bessel functions of integer order by recurrences over
/// ocml's orders 0 and 1; rcp64h), which linkDeviceLibraries does.
bool definesLibdeviceFunction(llvm::StringRef symbol);

/// The folder holding ocml.bc and ockl.bc: $TERRAZZO_ROCM_DEVICE_LIBS, then
/// $ROCM_PATH/amdgcn/bitcode, /opt/rocm/amdgcn/bitcode and Debian's
/// rocm-device-libs (/usr/lib/<multiarch>/amdgcn/bitcode); empty when none
/// has them.
std::string findDeviceLibraries();

/// The value of `__oclc_ISA_version` for a gfx processor: major * 1000 +
/// minor * 100 + stepping ("gfx942" -> 9402, "gfx90a" -> 9010).
unsigned isaVersion(llvm::StringRef processor);

/// Defines the libdevice functions `module` calls that
/// definesLibdeviceFunction names, links the ocml and ockl functions it
/// calls, defines the control
/// constants for `target` (no finite-only or unsafe math, no denormal
/// flushing, correctly rounded float sqrt, code object v5) and makes
/// everything but the kernels internal. `fpFusion` is the code generator's
/// (the defined functions guard their separately rounded operations
/// against its contraction). Errors are reported on `op`.
mlir::LogicalResult linkDeviceLibraries(mlir::ModuleOp op, llvm::Module &module,
                                        const Target &target, bool fpFusion);

} // namespace terrazzo::amd

#endif // TERRAZZO_BACKENDS_AMD_DEVICELIBRARIES_H
