#include "dialects/TileGPU/IR/DotOperandLayouts.h"

#include "dialects/TileGPU/IR/LinearLayoutConversion.h"
#include "dialects/TileGPU/IR/ShapeLayoutInference.h"
#include "dialects/TileGPU/Layout/NamedLayouts.h"

#include "llvm/Support/MathExtras.h"

using ::terrazzo::LinearLayout;

namespace mlir::tilegpu {

std::optional<LinearLayout>
getFmaDotOperandLinearLayout(const LinearLayout &result, unsigned index,
                             int64_t k) {
  unsigned rank = result.getNumOutDims();
  if (rank < 2 || index > 1 || k < 1 || !llvm::isPowerOf2_64(k))
    return std::nullopt;
  unsigned m = rank - 2, n = rank - 1;
  // The operand's dims: batch.., then (M, K) for A or (K, N) for B: the
  // result dimension it keeps sits where it sits in the result, and K
  // where the other one was.
  unsigned dropped = index == 0 ? n : m;
  unsigned kDim = dropped;
  LinearLayout::BasesT bases;
  for (const std::string &name : result.getInDimNames()) {
    std::vector<LinearLayout::Basis> projected;
    if (name == "register")
      for (int64_t step = 1; step < k; step *= 2) {
        LinearLayout::Basis basis(rank, 0);
        basis[kDim] = int32_t(step);
        projected.push_back(basis);
      }
    for (int i = 0, e = result.getInDimSizeLog2(name); i < e; ++i) {
      LinearLayout::Basis basis = result.getBasis(name, i);
      if (basis[m] && basis[n])
        return std::nullopt;
      // A step along the other dimension of the result reaches an element
      // that needs the same row of A (column of B): a copy. Any other step
      // keeps its place; the K coordinate sits where that other dimension
      // was, and is zero.
      // (Registers that would be copies are left out.)
      if (basis[dropped]) {
        if (name == "register")
          continue;
        basis.assign(rank, 0);
      }
      projected.push_back(basis);
    }
    bases.emplace_back(name, std::move(projected));
  }
  LinearLayout::DimsT outDims;
  for (unsigned d = 0; d < rank; ++d) {
    std::string name = ::terrazzo::tensorDimName(d);
    outDims.emplace_back(name, d == kDim ? int32_t(k)
                                         : result.getOutDimSize(name));
  }
  return LinearLayout::tryCreate(std::move(bases), std::move(outDims));
}

Attribute getFmaDotOperandLayout(RankedTensorType resultType, unsigned index,
                                 ArrayRef<int64_t> operandShape) {
  std::optional<LinearLayout> result =
      toLinearLayout(resultType.getShape(), resultType.getEncoding());
  if (!result)
    return Attribute();
  int64_t k = index == 0 ? operandShape.back()
                         : operandShape[operandShape.size() - 2];
  std::optional<LinearLayout> operand =
      getFmaDotOperandLinearLayout(*result, index, k);
  if (!operand)
    return Attribute();
  return getLayoutAttrFor(resultType.getContext(), operandShape, *operand);
}

} // namespace mlir::tilegpu
