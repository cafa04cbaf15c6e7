// How TMA (sm_90's tensor memory accelerator) lays out a block in shared
// memory, for the tilegpu TMA ops' verifiers, the pass that lowers tensor
// descriptors to them and their LLVM lowering: all three must agree on
// which shared layout a tensor map's swizzle mode produces and which boxes
// fill it.
#ifndef TERRAZZO_DIALECTS_TILEGPU_IR_TMALAYOUT_H
#define TERRAZZO_DIALECTS_TILEGPU_IR_TMALAYOUT_H

#include "dialects/TileGPU/IR/TileGPU.h"

#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir::tilegpu {

/// The most dimensions a tensor map has, and the largest box dimension.
inline constexpr int64_t kTmaMaxRank = 5;
inline constexpr int64_t kTmaMaxBoxDim = 256;

/// One TMA copy of a block: its box starts `coordOffsets` elements (one per
/// dimension) after the block's first element, and lands `byteOffset`
/// bytes into the block's buffer.
struct TmaCopy {
  SmallVector<int64_t> coordOffsets;
  int64_t byteOffset = 0;
};

/// The box and copies that fill a buffer of `type`: `#tilegpu.nvmma_shared`
/// with a swizzle (rank 2, not transposed, at least 8 rows): boxes one
/// swizzle row wide and at most 256 rows, one after another as the layout
/// stores its column blocks; or a row-major `#tilegpu.swizzled_shared`
/// without swizzle: one box of the whole block (every dimension at most
/// 256). The innermost box dimension must hold a multiple of 16 bytes.
/// Fails with the reason in `why` for anything else.
LogicalResult getTmaCopies(MemDescType type, SmallVectorImpl<int64_t> &box,
                           SmallVectorImpl<TmaCopy> &copies,
                           std::string *why = nullptr);

/// The swizzle width in bytes (0 for none) of a TMA buffer of `type`.
unsigned getTmaSwizzleBytes(MemDescType type);

/// The shared layout TMA fills a block of `shape` and `elementType` in:
/// the widest swizzle (up to 128 bytes) a 2-D block of at least 8 rows
/// allows, else row-major; null when TMA cannot copy such a block at all
/// (element width not 1, 2, 4 or 8 bytes, sizes not powers of two, rank
/// above 5, an innermost dimension of fewer than 16 bytes or not a multiple
/// of 16, a box dimension above 256).
SharedLayoutAttr getTmaSharedLayout(MLIRContext *context,
                                    ArrayRef<int64_t> shape, Type elementType);

/// The mbarrier type the TMA lowering allocates: one mutable i64.
MemDescType getMBarrierType(MLIRContext *context);

} // namespace mlir::tilegpu

#endif // TERRAZZO_DIALECTS_TILEGPU_IR_TMALAYOUT_H
