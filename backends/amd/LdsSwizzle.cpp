// The LDS swizzle of matrix-core operands: see LdsSwizzle.h.
#include "backends/amd/LdsSwizzle.h"

#include <algorithm>

using namespace terrazzo::amd;

LdsSwizzle terrazzo::amd::operandSwizzle(int64_t rowElements,
                                         unsigned elementBytes,
                                         unsigned readElements) {
  LdsSwizzle swizzle;
  int64_t bytes = std::max<int64_t>(1, elementBytes);
  int64_t vec = std::clamp<int64_t>(readElements, 1, kLdsMaxReadBytes / bytes);
  swizzle.vec = unsigned(vec);
  // One vector per row: consecutive rows are consecutive vectors already.
  if (rowElements < 2 * vec)
    return swizzle;
  int64_t rowBytes = rowElements * bytes;
  // Rows that share a line of banks share a phase; the lanes one line of
  // reads serves (128 / read bytes of them, on consecutive rows) then need
  // as many distinct vector slots as rows per line leave them: one phase
  // per group of perPhase rows, at most one per vector of a row.
  int64_t perPhase = std::max<int64_t>(1, kLdsBankLineBytes / rowBytes);
  int64_t lanesPerLine = kLdsBankLineBytes / (vec * bytes);
  int64_t maxPhase = std::clamp<int64_t>(
      std::min(rowElements / vec, lanesPerLine / perPhase), 1, rowElements);
  swizzle.perPhase = unsigned(perPhase);
  swizzle.maxPhase = unsigned(maxPhase);
  return swizzle;
}
