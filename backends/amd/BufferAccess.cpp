// Which accesses buffer operations may serve: see BufferAccess.h.
#include "backends/amd/BufferAccess.h"

#include "dialects/Tile/IR/Tile.h"
#include "passes/Analysis/NonNegative.h"
#include "passes/Analysis/PointerRange.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::terrazzo;

bool mlir::terrazzo::isBufferAddress(Value base, Value offsets) {
  auto pointer = dyn_cast<tile::PointerType>(base.getType());
  // Global memory only (address space 1).
  if (!pointer || pointer.getAddressSpace() != 1 ||
      !getElementTypeOrSelf(offsets.getType()).isInteger(32) ||
      !isKnownNonNegative(offsets))
    return false;
  // The resource reaches 2^31 - 1 bytes past the base: the base must be a
  // kernel argument whose addresses stay that close (tile.pointer_range,
  // the launch key's "fits in 2^31 bytes"), advanced by offsets that are
  // not negative.
  Value root = base;
  while (auto step = root.getDefiningOp<tile::AddPtrOp>()) {
    if (!isKnownNonNegative(step.getOffset()))
      return false;
    root = step.getPtr();
  }
  return hasSmallPointerRange(root);
}

std::optional<BufferAddress> mlir::terrazzo::matchBufferAccess(Operation *op) {
  Value ptr;
  // Stores and atomics move integers and floats (not pointers); atomics
  // 32- and 64-bit words, which buffer atomics have.
  bool plainData = false, words = false;
  if (auto load = dyn_cast<tile::LoadOp>(op)) {
    if (load.getIsVolatile() || load.getCache() || load.getEvict())
      return std::nullopt;
    ptr = load.getPtr();
  } else if (auto store = dyn_cast<tile::StoreOp>(op)) {
    if (store.getCache() || store.getEvict())
      return std::nullopt;
    ptr = store.getPtr();
    plainData = true;
  } else if (isa<tile::AtomicRMWOp, tile::AtomicCASOp>(op)) {
    if (auto rmw = dyn_cast<tile::AtomicRMWOp>(op))
      ptr = rmw.getPtr();
    else
      ptr = cast<tile::AtomicCASOp>(op).getPtr();
    plainData = words = true;
  } else {
    return std::nullopt;
  }
  auto type = dyn_cast<RankedTensorType>(ptr.getType());
  if (!type)
    return std::nullopt;
  auto pointer = dyn_cast<tile::PointerType>(type.getElementType());
  if (!pointer)
    return std::nullopt;
  // Not i1 (a byte in memory).
  Type pointee = pointer.getPointeeType();
  if (pointee.isInteger(1) ||
      (plainData && !pointee.isIntOrFloat()) ||
      (words && tile::getElementBitWidth(pointee) != 32 &&
       tile::getElementBitWidth(pointee) != 64))
    return std::nullopt;
  auto addptr = ptr.getDefiningOp<tile::AddPtrOp>();
  if (!addptr)
    return std::nullopt;
  Value ptrs = addptr.getPtr();
  if (auto broadcast = ptrs.getDefiningOp<tile::BroadcastOp>())
    ptrs = broadcast.getSrc();
  auto splat = ptrs.getDefiningOp<tile::SplatOp>();
  if (!splat || !isBufferAddress(splat.getSrc(), addptr.getOffset()))
    return std::nullopt;
  return BufferAddress{splat.getSrc(), addptr.getOffset()};
}

BufferAccesses mlir::terrazzo::findBufferAccesses(ModuleOp module) {
  BufferAccesses accesses;
  module.walk([&](Operation *op) {
    if (std::optional<BufferAddress> address = matchBufferAccess(op))
      accesses[op] = *address;
  });
  return accesses;
}

