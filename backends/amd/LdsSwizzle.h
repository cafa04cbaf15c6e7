// How a matrix-core operand is laid out in LDS so that the reads of one
// wavefront hit distinct banks (DESIGN.md §5). Plain arithmetic, no MLIR:
// the pass that puts the operands in LDS (DotOperandsToLds.cpp) asks it, and
// the unit tests check it against the banks themselves.
#ifndef TERRAZZO_BACKENDS_AMD_LDSSWIZZLE_H
#define TERRAZZO_BACKENDS_AMD_LDSSWIZZLE_H

#include <cstdint>

namespace terrazzo::amd {

/// CDNA's LDS serves one line of 32 banks of 4 bytes per cycle.
inline constexpr int64_t kLdsBankLineBytes = 128;
/// The widest LDS read a lane issues (ds_read_b128).
inline constexpr int64_t kLdsMaxReadBytes = 16;

/// The parameters of a #tilegpu.swizzled_shared layout.
struct LdsSwizzle {
  unsigned vec = 1;
  unsigned perPhase = 1;
  unsigned maxPhase = 1;
};

/// The swizzle of a buffer whose rows hold `rowElements` elements (a power
/// of two) of `elementBytes` bytes, read by lanes that each take
/// `readElements` consecutive elements of one row (an MFMA operand's kWidth
/// along K), consecutive lanes consecutive rows at the same column: vectors
/// of the read's width (at most 16 bytes: ds_read_b64, ds_read_b128), and
/// the vector index XORed with the row's phase so that the lanes a line of
/// banks serves together (128 bytes of reads) fall on distinct banks.
LdsSwizzle operandSwizzle(int64_t rowElements, unsigned elementBytes,
                          unsigned readElements);

} // namespace terrazzo::amd

#endif // TERRAZZO_BACKENDS_AMD_LDSSWIZZLE_H
