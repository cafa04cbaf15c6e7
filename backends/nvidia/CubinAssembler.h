// PTX to cubin: in process with nvJitLink when the CUDA installation has it,
// else with the ptxas program; when neither exists the PTX itself is the
// binary, and the driver compiles it when the module is loaded.
#ifndef TERRAZZO_BACKENDS_NVIDIA_CUBINASSEMBLER_H
#define TERRAZZO_BACKENDS_NVIDIA_CUBINASSEMBLER_H

#include "backends/Target.h"

#include <string>

namespace terrazzo::nvidia {

struct AssembledBinary {
  enum class Kind { Cubin, PTX };
  Kind kind = Kind::PTX;
  std::string bytes;
  /// "nvJitLink", "ptxas" or "driver" (PTX left for the driver).
  std::string assembler;
};

/// Assembles `ptx` for `target`. Returns false with `error` set when an
/// assembler was found and rejected the PTX (its log is in the message).
bool assembleCubin(const std::string &ptx, const Target &target,
                   AssembledBinary &result, std::string &error);

/// Which assembler assembleCubin would use ("nvJitLink", "ptxas" or
/// "driver").
std::string findAssembler();

} // namespace terrazzo::nvidia

#endif // TERRAZZO_BACKENDS_NVIDIA_CUBINASSEMBLER_H
