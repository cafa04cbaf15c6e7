// A compilation target (DESIGN.md §5): what a backend needs to know about the
// GPU it compiles for. Parsed from strings like "cuda:90" or "hip:gfx942".
#ifndef TERRAZZO_TARGET_TARGET_H
#define TERRAZZO_TARGET_TARGET_H

#include <optional>
#include <string>
#include <string_view>

namespace terrazzo {

/// Warps per program instance when a launch names none (Triton's default).
inline constexpr unsigned kDefaultNumWarps = 4;
/// The most warps a program instance may have (a power of two; 1024 threads
/// of 32 lanes, the most a CUDA block has).
inline constexpr unsigned kMaxNumWarps = 32;

struct Target {
  enum class Kind { CUDA, HIP };

  Kind kind = Kind::CUDA;
  /// The canonical spelling, e.g. "cuda:90" or "hip:gfx942".
  std::string name;
  /// CUDA compute capability times ten (80, 90, ...); 0 for HIP.
  unsigned capability = 0;
  /// The processor LLVM compiles for: "sm_90a", "gfx942".
  std::string processor;
  /// LLVM target features, e.g. the PTX ISA version.
  std::string features;
  unsigned warpSize = 32;
  /// Shared memory one program instance may use (the opt-in maximum).
  unsigned maxSharedMemoryBytes = 0;

  bool isCUDA() const { return kind == Kind::CUDA; }
  bool isHIP() const { return kind == Kind::HIP; }
  std::string llvmTriple() const;

  /// Parses a target string; on failure returns nullopt and sets `error` to
  /// a message that lists the accepted targets.
  static std::optional<Target> parse(std::string_view text, std::string &error);
};

} // namespace terrazzo

#endif // TERRAZZO_TARGET_TARGET_H
