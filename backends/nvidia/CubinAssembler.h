// PTX to cubin: in process with nvJitLink when the CUDA installation has it,
// else with the ptxas program; when neither exists the PTX itself is the
// binary, and the driver compiles it when the module is loaded.
#ifndef TERRAZZO_BACKENDS_NVIDIA_CUBINASSEMBLER_H
#define TERRAZZO_BACKENDS_NVIDIA_CUBINASSEMBLER_H

#include "target/Target.h"

#include <string>

namespace terrazzo::nvidia {

struct AssembledBinary {
  enum class Kind { Cubin, PTX };
  Kind kind = Kind::PTX;
  std::string bytes;
  /// "nvJitLink", "ptxas" or "driver" (PTX left for the driver).
  std::string assembler;
};

/// Assembles `ptx` for `target` with `assembler`: "nvJitLink", "ptxas",
/// "driver" (keep the PTX), or "auto"/"" for the first available of ptxas,
/// nvJitLink and the driver (ptxas first: a short-lived process pays ~30 ms
/// to load nvJitLink, more than ptxas costs to start; a long-lived one that
/// compiles many kernels may prefer "nvJitLink"). TERRAZZO_ASSEMBLER
/// overrides "auto". Returns false with `error` set when the assembler is
/// missing or rejected the PTX (its log is in the message).
bool assembleCubin(const std::string &ptx, const Target &target,
                   const std::string &assembler, AssembledBinary &result,
                   std::string &error);

/// The assembler "auto" resolves to here: "ptxas", "nvJitLink" or "driver".
std::string findAssembler();

} // namespace terrazzo::nvidia

#endif // TERRAZZO_BACKENDS_NVIDIA_CUBINASSEMBLER_H
