//===- MmaLayouts.h - Tensor-core layouts as linear layouts -----*- C++ -*-===//
//
// The register layouts of NVIDIA's tensor-core instructions, written as
// linear layouts (input dims register, lane, warp, block; output dims dim0
// = M or K, dim1 = N or K) so that conversions, loads and stores of their
// tensors need nothing specific to them.
//
// mma.sync.m16n8k(8 kWidth), per warp, lane l = 4 g + t:
//   accumulator 16 x 8: c0,c1 at (g, 2t + {0,1}), c2,c3 at (g + 8, ...);
//   A 16 x 8kWidth: register r holds kWidth consecutive k; registers
//     (g, kWidth t), (g + 8, kWidth t), (g, kWidth (t + 4)), (g + 8, ...);
//   B 8kWidth x 8: registers (kWidth t, g), (kWidth (t + 4), g).
// wgmma's accumulator is mma.sync's, N / 8 tiles side by side per warp,
// four warps stacked along M.
//
// AMD's MFMA on wavefronts of 64, for an s x s result (s = 32 or 16) and
// kWidth consecutive k per lane (one instruction's k is 64 kWidth / s):
//   accumulator: lane l holds column l % s, its registers the rows
//     (r % 4) + 8 (r / 4) + 4 (l / s) (32 x 32: 16 registers; 16 x 16: 4);
//   A s x k: lane l holds row l % s, k from kWidth (l / s) on, kWidth of
//     them in consecutive registers; B k x s: column l % s likewise.
//
//===----------------------------------------------------------------------===//

#ifndef TERRAZZO_DIALECTS_TILEGPU_LAYOUT_MMALAYOUTS_H
#define TERRAZZO_DIALECTS_TILEGPU_LAYOUT_MMALAYOUTS_H

#include "dialects/TileGPU/Layout/LinearLayout.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <string>

namespace terrazzo {

/// The accumulator layout of a 2-D M x N tensor for `mma.sync` (version 2,
/// instrN = 8) or `wgmma` (version 3, instrN = the instruction's N): warps
/// tile the result warpsPerCTA[0] along M (16 rows each; for version 3 the
/// first four form a 64-row warp group) then warpsPerCTA[1] along N; the
/// pattern repeats, N fastest. Fatal error on whatever checkNvidiaMmaLayout
/// rejects.
LinearLayout nvidiaMmaLayout(llvm::ArrayRef<int64_t> shape, unsigned version,
                             llvm::ArrayRef<unsigned> warpsPerCTA,
                             unsigned instrN);

/// The layout of operand `opIdx` (0: A, M x K; 1: B, K x N) of mma.sync
/// whose accumulators have nvidiaMmaLayout(version 2, warpsPerCTA):
/// `kWidth` consecutive k per 32-bit register, one instruction's k is
/// 8 kWidth; repeats along K first, then along M (A) or N (B). wgmma's A
/// in registers (kWidth 32 / bits) is the same layout for the
/// accumulator's warpsPerCTA (version 3): each warp's 16 rows of its warp
/// group's 64 are mma.sync's A. Fatal error on whatever
/// checkMmaV2OperandLayout rejects.
LinearLayout mmaV2OperandLayout(llvm::ArrayRef<int64_t> shape, unsigned opIdx,
                                llvm::ArrayRef<unsigned> warpsPerCTA,
                                unsigned kWidth);

/// Why nvidiaMmaLayout (mmaV2OperandLayout) cannot build the layout of a
/// tensor of `shape` from these parameters (a rank other than 2, an entry
/// that is not a power of two, more bits than a linear layout holds), or an
/// empty string when it can.
std::string checkNvidiaMmaLayout(llvm::ArrayRef<int64_t> shape,
                                 unsigned version,
                                 llvm::ArrayRef<unsigned> warpsPerCTA,
                                 unsigned instrN);
std::string checkMmaV2OperandLayout(llvm::ArrayRef<int64_t> shape,
                                    unsigned opIdx,
                                    llvm::ArrayRef<unsigned> warpsPerCTA,
                                    unsigned kWidth);

/// The accumulator layout of a 2-D M x N tensor for MFMA instructions with
/// an instrSize x instrSize result (32 or 16) on wavefronts of 64: warps
/// tile the result warpsPerCTA[0] along M, then warpsPerCTA[1] along N,
/// each one instruction tile; the pattern repeats, N fastest. `transposed`:
/// the layout of the transposed result (the lanes along M, the registers
/// along N). Fatal error on whatever checkAmdMfmaLayout rejects.
LinearLayout amdMfmaLayout(llvm::ArrayRef<int64_t> shape,
                           llvm::ArrayRef<unsigned> warpsPerCTA,
                           unsigned instrSize, bool transposed = false);

/// The layout of operand `opIdx` (0: A, M x K; 1: B, K x N) of the MFMA
/// instructions whose accumulators have amdMfmaLayout(warpsPerCTA,
/// instrSize), `kWidth` consecutive k per lane: repeats along K first,
/// then along M (A) or N (B); warps along the other dimension hold copies.
/// Fatal error on whatever checkMfmaOperandLayout rejects.
LinearLayout mfmaOperandLayout(llvm::ArrayRef<int64_t> shape, unsigned opIdx,
                               llvm::ArrayRef<unsigned> warpsPerCTA,
                               unsigned instrSize, unsigned kWidth);

/// Why amdMfmaLayout (mfmaOperandLayout) cannot build the layout of a tensor
/// of `shape` from these parameters, or an empty string when it can.
std::string checkAmdMfmaLayout(llvm::ArrayRef<int64_t> shape,
                               llvm::ArrayRef<unsigned> warpsPerCTA,
                               unsigned instrSize);
std::string checkMfmaOperandLayout(llvm::ArrayRef<int64_t> shape,
                                   unsigned opIdx,
                                   llvm::ArrayRef<unsigned> warpsPerCTA,
                                   unsigned instrSize, unsigned kWidth);

} // namespace terrazzo

#endif // TERRAZZO_DIALECTS_TILEGPU_LAYOUT_MMALAYOUTS_H
