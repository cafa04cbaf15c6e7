#include "backends/common/PackNarrowPhis.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

#include <optional>

using namespace llvm;

namespace {

bool isNarrow(Type *type) {
  return type->isHalfTy() || type->isBFloatTy() || type->isIntegerTy(16) ||
         type->isIntegerTy(8);
}

/// A vector of narrow scalars that fills one 32-bit register.
bool fillsARegister(Type *type) {
  auto *vector = dyn_cast<FixedVectorType>(type);
  return vector && isNarrow(vector->getElementType()) &&
         vector->getNumElements() *
                 vector->getElementType()->getScalarSizeInBits() ==
             32;
}

/// Where a narrow value comes from when it is a constant lane of such a
/// vector.
struct Lane {
  Value *vector;
  unsigned index;
};

std::optional<Lane> laneOf(Value *value) {
  auto *extract = dyn_cast<ExtractElementInst>(value);
  if (!extract || !fillsARegister(extract->getVectorOperandType()))
    return std::nullopt;
  auto *index = dyn_cast<ConstantInt>(extract->getIndexOperand());
  if (!index)
    return std::nullopt;
  return Lane{extract->getVectorOperand(),
              static_cast<unsigned>(index->getZExtValue())};
}

/// The first lane among `phi`'s incoming values.
std::optional<Lane> firstLane(PHINode *phi) {
  for (Value *value : phi->incoming_values())
    if (std::optional<Lane> lane = laneOf(value))
      return lane;
  return std::nullopt;
}

/// What the rejoined phi takes from `pred`, given the phis of its lanes
/// (`byLane`): the vector whose lanes they all are there, or a constant
/// vector of their constants; null when neither.
Value *incomingVector(ArrayRef<PHINode *> byLane, FixedVectorType *type,
                      BasicBlock *pred) {
  Value *vector = nullptr;
  bool lanes = true;
  SmallVector<Constant *> constants;
  for (auto [index, phi] : llvm::enumerate(byLane)) {
    Value *value = phi->getIncomingValueForBlock(pred);
    std::optional<Lane> lane = laneOf(value);
    if (!lane || lane->index != index || lane->vector->getType() != type ||
        (vector && lane->vector != vector))
      lanes = false;
    else
      vector = lane->vector;
    if (auto *constant = dyn_cast<Constant>(value))
      constants.push_back(constant);
  }
  if (lanes)
    return vector;
  if (constants.size() == byLane.size())
    return ConstantVector::get(constants);
  return nullptr;
}

/// Rejoins the groups of `phis` that the first vector they read groups
/// together; returns whether it rejoined any.
bool rejoin(BasicBlock &block, ArrayRef<PHINode *> phis) {
  MapVector<Value *, SmallVector<PHINode *>> groups;
  for (PHINode *phi : phis)
    if (std::optional<Lane> lane = firstLane(phi))
      if (cast<FixedVectorType>(lane->vector->getType())->getElementType() ==
          phi->getType())
        groups[lane->vector].push_back(phi);

  bool changed = false;
  for (auto &[key, members] : groups) {
    auto *type = cast<FixedVectorType>(key->getType());
    unsigned width = type->getNumElements();
    if (members.size() != width)
      continue;
    SmallVector<PHINode *> byLane(width, nullptr);
    bool distinct = true;
    for (PHINode *phi : members) {
      unsigned index = firstLane(phi)->index;
      distinct = distinct && !byLane[index];
      byLane[index] = phi;
    }
    if (!distinct)
      continue;

    PHINode *first = byLane.front();
    SmallVector<Value *> incoming;
    for (BasicBlock *pred : first->blocks()) {
      Value *vector = incomingVector(byLane, type, pred);
      if (!vector)
        break;
      incoming.push_back(vector);
    }
    if (incoming.size() != first->getNumIncomingValues())
      continue;

    PHINode *packed = PHINode::Create(
        type, incoming.size(), first->getName() + ".packed", block.begin());
    for (auto [vector, pred] : llvm::zip(incoming, first->blocks()))
      packed->addIncoming(vector, pred);
    IRBuilder<> builder(&*block.getFirstInsertionPt());
    for (auto [index, phi] : llvm::enumerate(byLane)) {
      phi->replaceAllUsesWith(
          builder.CreateExtractElement(packed, builder.getInt64(index)));
      phi->eraseFromParent();
    }
    changed = true;
  }
  return changed;
}

} // namespace

bool mlir::terrazzo::packNarrowPhis(Function &function) {
  bool changed = false;
  for (BasicBlock &block : function) {
    SmallVector<PHINode *> narrow;
    for (PHINode &phi : block.phis())
      if (isNarrow(phi.getType()))
        narrow.push_back(&phi);
    if (narrow.size() > 1)
      changed |= rejoin(block, narrow);
  }
  return changed;
}
