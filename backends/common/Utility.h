// Helpers every lowering pattern uses: packing a thread's values into the
// struct of a tensor and back, the linear layout of a tensor type, and the
// coordinates each register of a thread holds.
#ifndef TERRAZZO_BACKENDS_COMMON_UTILITY_H
#define TERRAZZO_BACKENDS_COMMON_UTILITY_H

#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/Layout/LinearLayout.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"

#include <map>
#include <optional>

namespace mlir::terrazzo {

using ::terrazzo::LinearLayout;

class TargetInfo;

inline constexpr const char *kRegister = "register";
inline constexpr const char *kLane = "lane";
inline constexpr const char *kWarp = "warp";
inline constexpr const char *kBlock = "block";

/// The linear layout of a tensor type's encoding, or nullopt when it has no
/// distributed layout.
std::optional<LinearLayout> getLinearLayout(RankedTensorType type);

/// Which warp holds each element of a tensor laid out by `layout` (the
/// row-major index over its out dims), or with `warpsPerOwner` > 1 which
/// run of that many warps (a warp group); -1 where several do.
SmallVector<int32_t> elementWarps(const LinearLayout &layout,
                                  unsigned warpsPerOwner = 1);

/// The linear layout that every tensor of `values` has, or nullopt with a
/// reason ("sources have no layout", "sources have different layouts").
std::optional<LinearLayout> getCommonLayout(ValueRange values,
                                            std::string &reason);

/// The values in the fields of a struct, in order.
SmallVector<Value> unpackStruct(RewriterBase &rewriter, Location loc,
                                Value aggregate);
/// The values one thread holds of a converted tensor (a struct's fields) or
/// scalar (the value itself); none for a null value (an absent operand).
SmallVector<Value> elementsOf(RewriterBase &rewriter, Location loc, Value value);
/// A struct of type `structType` holding `values`.
Value packStruct(RewriterBase &rewriter, Location loc, Type structType,
                 ValueRange values);

/// Applies `fn` to the elements of `operands` (all structs of one size, or
/// all scalars) position by position; the results form a value of
/// `resultType` (a struct, or the scalar itself).
Value mapElements(RewriterBase &rewriter, Location loc, Type resultType,
                  ValueRange operands,
                  llvm::function_ref<Value(ValueRange)> fn);

/// Runs `body` only when `condition` (i1) holds, as a branch around the
/// code `body` emits; returns `body`'s value, or `otherwise` when the
/// condition is false (pass null for both when there is no value). The code
/// after the insertion point moves to a new block.
Value emitGuarded(RewriterBase &rewriter, Location loc, Value condition,
                  Value otherwise, llvm::function_ref<Value()> body);

Value i32Constant(RewriterBase &rewriter, Location loc, int64_t value);

/// The LLVM ordering of an atomic access with ordering `sem`.
LLVM::AtomicOrdering getAtomicOrdering(tile::MemSemantic sem);

/// The address (in `addressSpace`) of a NUL-terminated string constant
/// `text` in the enclosing module: an existing global named `prefix`_N of
/// the same text, else a new one.
Value stringConstant(RewriterBase &rewriter, Location loc, StringRef prefix,
                     StringRef text, unsigned addressSpace = 0);

/// The enclosing module's function `name`, declared with `type` when the
/// module has none.
LLVM::LLVMFuncOp getOrDeclareFunction(RewriterBase &rewriter, Location loc,
                                      StringRef name,
                                      LLVM::LLVMFunctionType type);

/// `parts` (scalars of one type) packed into one register of `type`, e.g.
/// two f16 halves of an i32 operand word.
Value packRegister(RewriterBase &rewriter, Location loc, ArrayRef<Value> parts,
                   Type type);

/// The lane and warp of the calling thread.
struct ThreadPosition {
  Value lane;
  Value warp;
};
ThreadPosition getThreadPosition(RewriterBase &rewriter, Location loc,
                                 const TargetInfo &target, unsigned warpSize);
/// The calling thread's warp index (i32), in a form the code generator
/// knows to be the same in every lane of the warp.
Value uniformWarpIndex(RewriterBase &rewriter, Location loc,
                       const TargetInfo &target, unsigned warpSize);

/// Which copies of a value's elements are redundant, from the free
/// variables of its layout (LinearLayout::getFreeVariableMasks): a register
/// with a bit of `registerMask` set repeats a register of the same thread,
/// and a thread with a lane bit of `laneMask` or a warp bit of `warpMask`
/// set holds only copies. Every thread holds a scalar (`scalar`).
struct ElementCopies {
  bool scalar = false;
  int32_t registerMask = 0;
  int32_t laneMask = 0;
  int32_t warpMask = 0;
};
/// The copies of a value of `type` (a tensor with a distributed layout, or
/// a scalar); fails with `reason` for a tensor without one or with copies
/// along another dimension.
FailureOr<ElementCopies> getElementCopies(Type type, std::string &reason);
/// True (i1) in the threads that write the elements they hold, one thread
/// per element (thread 0 for a scalar); null when every thread does.
/// `position` gives the calling thread's lane and warp.
Value emitOwnerPredicate(RewriterBase &rewriter, Location loc,
                         const TargetInfo &target, const ElementCopies &copies,
                         llvm::function_ref<ThreadPosition()> position);

/// Coordinates of a tensor element, one per output dimension.
using Coordinates = std::vector<int32_t>;

/// The coordinates register `reg` holds in lane 0 of warp 0 (the register's
/// own part of the layout, before the thread's part is added).
Coordinates registerCoordinates(const LinearLayout &layout, int32_t reg);

/// Register index of every element coordinate a thread holds (its own part
/// of the layout, lane 0 of warp 0; threads add the same offset to all).
std::map<Coordinates, int32_t> registerIndex(const LinearLayout &layout);
/// Sets `reg` to the register of `index` (a registerIndex) that holds the
/// element at `at`; false when the thread holds none there.
bool findRegister(const std::map<Coordinates, int32_t> &index,
                  const Coordinates &at, int32_t &reg);

/// The distinct multiples of `tile` along `dim` at which the registers of
/// lane 0 of warp 0 lie, increasing: the origins of a thread's instruction
/// tiles.
SmallVector<int32_t> tileOrigins(const LinearLayout &layout, unsigned dim,
                                 int32_t tile);

/// `layout` applied to run-time inputs (i32 values, by input dimension
/// name; dimensions not given count as 0): per output dimension, the XOR of
/// the bases of the inputs' set bits, or null where no basis contributes.
SmallVector<Value> applyLinearLayout(
    RewriterBase &rewriter, Location loc, const LinearLayout &layout,
    ArrayRef<std::pair<StringRef, Value>> inputs);

/// For every register of `layout`, the coordinates (one i32 per output
/// dimension) of the element the calling thread holds there.
SmallVector<SmallVector<Value>>
emitIndices(RewriterBase &rewriter, Location loc, const LinearLayout &layout,
            ThreadPosition thread);

/// Moves `value` (an LLVM scalar of at most 64 bits or a pointer) between
/// lanes with `shuffle32`, a warp shuffle of one i32: narrower values are
/// widened, 64-bit ones (and pointers) move in two halves.
Value shuffleScalar(RewriterBase &rewriter, Location loc, Value value,
                    llvm::function_ref<Value(Value)> shuffle32);

/// Where `op`'s shared-memory scratch starts: the module's dynamic shared
/// memory (declared by the lowering when some op needs scratch) at the
/// offset the allocation gave `op` (attribute `tilegpu.scratch_offset`, 0
/// when absent). Emits an error on `op` and returns null when the module
/// declares no shared memory.
Value getScratchPointer(RewriterBase &rewriter, Location loc, Operation *op);

/// Slots in an op's shared-memory scratch for several sources at once (the
/// operands of a reduction or scan combined together): source s has its
/// own area of `areaBytes[s]` bytes, the areas one after another from
/// `scratch`, each an array of that source's elements (i1 kept as i8).
class ScratchSlots {
public:
  /// `elementTypes`: the sources' element types as the lowering holds them
  /// (LLVM scalars); `tileElementTypes`: the same at tile level (for sizes).
  ScratchSlots(RewriterBase &rewriter, Location loc, Value scratch,
               TypeRange elementTypes, TypeRange tileElementTypes,
               ArrayRef<int64_t> areaBytes);
  /// Stores `values` (one per source) at slot `index` of every area.
  void store(RewriterBase &rewriter, Location loc, Value index,
             ValueRange values) const;
  /// The values (one per source) at slot `index`.
  SmallVector<Value> load(RewriterBase &rewriter, Location loc,
                          Value index) const;

private:
  Value address(RewriterBase &rewriter, Location loc, unsigned source,
                Value index) const;

  SmallVector<Value> bases;
  SmallVector<Type> elementTypes, memoryTypes;
  SmallVector<unsigned> elementBytes;
};

} // namespace mlir::terrazzo

#endif // TERRAZZO_BACKENDS_COMMON_UTILITY_H
