// A compilation target (DESIGN.md §5): what a backend needs to know about the
// GPU it compiles for. Parsed from strings like "cuda:90" or "hip:gfx942".
#ifndef TERRAZZO_TARGET_TARGET_H
#define TERRAZZO_TARGET_TARGET_H

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace terrazzo {

/// Warps per program instance when a launch names none (Triton's default).
inline constexpr unsigned kDefaultNumWarps = 4;
/// Threads one program instance (CUDA block, HIP workgroup) may have on
/// every target.
inline constexpr unsigned kMaxThreadsPerBlock = 1024;
/// The most warps a launch may ask for (a power of two): 1024 threads of 32
/// lanes. Targets with wavefronts of 64 reject more than 16 when compiling.
inline constexpr unsigned kMaxNumWarps = kMaxThreadsPerBlock / 32;
/// The range of a register cap per thread (Triton's maxnreg): from
/// setmaxnreg's floor, which a kernel's code always fits, to the
/// architectural 255.
inline constexpr unsigned kMinMaxRegisters = 24;
inline constexpr unsigned kMaxMaxRegisters = 255;

/// The operand types of a matrix-core instruction. F8E4M3 and F8E5M2 are
/// the chip's 8-bit formats (Target::fp8 says which: FNUZ or OCP); XF32 is
/// float32 rounded to 19 bits inside the instruction.
enum class MatrixOperand { F32, XF32, F16, BF16, I8, F8E4M3, F8E5M2 };

/// A matrix-core instruction of one wavefront (HIP's MFMA): D (m x n,
/// float32, or int32 for I8) += A (m x k) B (k x n). Every lane holds
/// m n / warpSize accumulators and, of A and B, kWidth() consecutive k of
/// one row of A and one column of B.
struct MatrixInstruction {
  MatrixOperand a, b;
  unsigned m, n, k;
  unsigned warpSize;
  unsigned kWidth() const { return k * m / warpSize; }
};

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
  /// Shared memory one program instance may use (the opt-in maximum; LDS
  /// on HIP).
  unsigned maxSharedMemoryBytes = 0;

  /// HIP: the generation of the matrix-core (MFMA) instructions: 0 for none
  /// (RDNA), 2 for CDNA2 (gfx90a), 3 for CDNA3 (gfx942), 4 for CDNA4
  /// (gfx950). 0 on CUDA.
  unsigned mfmaVersion = 0;
  /// The 8-bit float formats the chip computes with (HIP; CUDA's follow
  /// from the capability).
  enum class Fp8 {
    None,
    /// f8E4M3FNUZ and f8E5M2FNUZ (gfx942).
    FNUZ,
    /// The OCP formats f8E4M3FN and f8E5M2, as CUDA's (gfx950, gfx12).
    OCP,
  };
  Fp8 fp8 = Fp8::None;

  /// The matrix-core (MFMA) instructions the chip has, for every operand
  /// type the faster (more k per instruction) first; empty on CUDA (its
  /// tensor-core instructions follow from the capability) and RDNA.
  std::vector<MatrixInstruction> matrixInstructions() const;

  bool isCUDA() const { return kind == Kind::CUDA; }
  bool isHIP() const { return kind == Kind::HIP; }
  std::string llvmTriple() const;

  /// Parses a target string; on failure returns nullopt and sets `error` to
  /// a message that lists the accepted targets.
  static std::optional<Target> parse(std::string_view text, std::string &error);
};

} // namespace terrazzo

#endif // TERRAZZO_TARGET_TARGET_H
