//===- LinearLayout.h - Linear layouts over GF(2) ---------------*- C++ -*-===//
//
// A linear layout describes where the elements of a tensor live in the
// hardware. It is a function
//
//     L : (hardware input dims) -> (tensor output dims)
//
// that is *linear over GF(2)*: every input dimension has a power-of-two size
// 2^k, so an input value is a k-bit vector, and
//
//     L(a xor b) = L(a) xor L(b).
//
// Such a function is fully described by the images of the inputs that have a
// single bit set. We call those images the *bases*: basis i of input dimension
// `in` is L(in = 2^i, every other input = 0), one coordinate per output
// dimension. The image of any other input is the XOR of the bases of its set
// bits, across all input dimensions.
//
// Typical input dimensions are "register", "lane", "warp" and "block" for a
// tensor distributed over the threads of a CTA, or "offset" for a tensor in
// shared memory; typical output dimensions are "dim0", "dim1", ... of the
// logical tensor. The function maps hardware to tensor (and not the other way
// round) because one element may be held in several places (broadcast), while
// every hardware location holds exactly one element.
//
// Dimensions are ordered. The order matters for flattening (reshapeIns /
// reshapeOuts, and the internal bit-vector view): the FIRST dimension is the
// least significant one.
//
// Internally the layout is a matrix over GF(2): the input is the bit vector
// made of the bits of every input dimension (first dimension lowest), the
// output the bit vector made of the coordinates of every output dimension
// (first dimension lowest), and every input bit is a column holding its basis.
// Both vectors are limited to 62 bits (so every total size fits an int64_t),
// which is far beyond any tile a GPU CTA holds.
//
// This library is pure algebra: it has no MLIR dependency and is meant to be
// unit-tested exhaustively. Named layouts (blocked, slice, MMA, shared, ...)
// are built on top of it in NamedLayouts.h.
//
//===----------------------------------------------------------------------===//

#ifndef TERRAZZO_DIALECTS_TILEGPU_LAYOUT_LINEARLAYOUT_H
#define TERRAZZO_DIALECTS_TILEGPU_LAYOUT_LINEARLAYOUT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace terrazzo {

class LinearLayout {
public:
  /// One basis: a coordinate for every output dimension, in out-dim order.
  using Basis = std::vector<int32_t>;
  /// For every input dimension, in order: its name and its bases (basis i is
  /// the image of 2^i). The number of bases is log2 of the dimension size.
  using BasesT = std::vector<std::pair<std::string, std::vector<Basis>>>;
  /// A list of named dimensions with their sizes (or, for
  /// getFreeVariableMasks, named bit masks).
  using DimsT = std::vector<std::pair<std::string, int32_t>>;

  /// The largest number of bits of the flattened input or output.
  static constexpr int kMaxTotalBits = 62;
  /// The largest log2 of a single dimension (its size fits an int32_t).
  static constexpr int kMaxDimBits = 30;

  /// The empty layout: no input and no output dimensions. It maps the single
  /// (empty) input to the single (empty) output and is the neutral element of
  /// operator*.
  LinearLayout() = default;

  /// Builds a layout from its bases and its output dimensions (name, size).
  /// Invalid input (see tryCreate) is a programmer error and aborts with a
  /// fatal error; use tryCreate for input that may be invalid.
  LinearLayout(BasesT bases, DimsT outDims);

  /// Validates and builds a layout. Returns std::nullopt and, if `error` is
  /// non-null, a description in *error when:
  ///   - a dimension name appears twice among the inputs or among the outputs;
  ///   - an output size is not a positive power of two;
  ///   - a basis does not have one coordinate per output dimension, or a
  ///     coordinate is negative or not below its output dimension's size;
  ///   - an input dimension has more than kMaxDimBits bases, or the input or
  ///     output has more than kMaxTotalBits bits in total.
  /// Layouts need not be surjective nor injective.
  static std::optional<LinearLayout> tryCreate(BasesT bases, DimsT outDims,
                                               std::string *error = nullptr);

  /// The layout with no dimensions (same as the default constructor).
  static LinearLayout empty() { return LinearLayout(); }
  /// L(x) = x for x in [0, size); `outDim` has size `size`.
  static LinearLayout identity1D(int32_t size, std::string inDim,
                                 std::string outDim);
  /// L(x) = 0 for x in [0, size); `outDim` has size 1.
  static LinearLayout zeros1D(int32_t size, std::string inDim,
                              std::string outDim);

  //===--------------------------------------------------------------------===//
  // Queries
  //===--------------------------------------------------------------------===//

  const BasesT &getBases() const { return bases; }
  /// Output dimensions with their sizes, in order.
  const DimsT &getOutDims() const { return outDims; }
  /// Input dimensions with their sizes, in order.
  DimsT getInDims() const;
  std::vector<std::string> getInDimNames() const;
  std::vector<std::string> getOutDimNames() const;

  int getNumInDims() const { return static_cast<int>(bases.size()); }
  int getNumOutDims() const { return static_cast<int>(outDims.size()); }
  bool hasInDim(llvm::StringRef inDim) const;
  bool hasOutDim(llvm::StringRef outDim) const;
  /// Position of a dimension; a fatal error if it is absent.
  int getInDimIndex(llvm::StringRef inDim) const;
  int getOutDimIndex(llvm::StringRef outDim) const;

  int32_t getInDimSizeLog2(llvm::StringRef inDim) const;
  int32_t getInDimSize(llvm::StringRef inDim) const {
    return int32_t(1) << getInDimSizeLog2(inDim);
  }
  int32_t getOutDimSizeLog2(llvm::StringRef outDim) const;
  int32_t getOutDimSize(llvm::StringRef outDim) const;

  /// Number of input (output) bits, i.e. log2 of the product of the sizes.
  int32_t getTotalInDimSizeLog2() const;
  int32_t getTotalOutDimSizeLog2() const;
  /// Product of the input (output) sizes (at most 2^kMaxTotalBits).
  int64_t getTotalInDimSize() const;
  int64_t getTotalOutDimSize() const;

  /// Basis `i` of `inDim`: the image of inDim = 2^i, one entry per out dim.
  const Basis &getBasis(llvm::StringRef inDim, int32_t i) const;
  /// The coordinate of that basis along `outDim`.
  int32_t getBasis(llvm::StringRef inDim, int32_t i,
                   llvm::StringRef outDim) const;

  /// Size of the "register" input dimension (1 if there is none).
  int32_t getNumRegisters() const;

  /// The largest power of two V such that, for every i < log2(V), "register"
  /// basis i is exactly 2^i along output dimension number `outDim` and 0
  /// along all others: registers 0..V-1 hold elements 0..V-1 of `outDim`
  /// (relative to register 0), so V is the vector width of a load or store
  /// along that dimension. 1 if there is no "register" dimension.
  int32_t getContiguousRegisters(int outDim) const;

  //===--------------------------------------------------------------------===//
  // Evaluation
  //===--------------------------------------------------------------------===//

  /// Computes L(inputs). Every input dimension must be given exactly once (in
  /// any order) with a value in [0, size). The result lists every output
  /// dimension in out-dim order.
  DimsT apply(llvm::ArrayRef<std::pair<std::string, int32_t>> inputs) const;

  //===--------------------------------------------------------------------===//
  // Algebra
  //===--------------------------------------------------------------------===//

  /// The product (direct sum) of two layouts. The result has the union of the
  /// dimensions: lhs's dimensions in lhs's order, then rhs's new ones in rhs's
  /// order. An input dimension present in both gets lhs's bases in its low
  /// bits and rhs's above them; an output dimension present in both has the
  /// product of the two sizes, with lhs's coordinates in its low bits and
  /// rhs's shifted above them. Examples:
  ///   identity1D(4,"i","o") * identity1D(2,"i","o") == identity1D(8,"i","o")
  ///   identity1D(4,"i","o") * zeros1D(2,"i","o")    :  x -> x % 4 (o size 4)
  ///   zeros1D(2,"i","o") * identity1D(4,"i","o")    :  x -> x / 2 (o size 4)
  ///   identity1D(4,"i","a") * identity1D(8,"i","b") :  x -> (x % 4, x / 4)
  friend LinearLayout operator*(const LinearLayout &lhs,
                                const LinearLayout &rhs);
  LinearLayout &operator*=(const LinearLayout &rhs) {
    *this = *this * rhs;
    return *this;
  }

  /// x -> outer(this(x)). Every output dimension of this must be an input
  /// dimension of `outer` and vice versa (order may differ), and
  /// getOutDimSize(d) <= outer.getInDimSize(d). The result has this's input
  /// dimensions and outer's output dimensions.
  LinearLayout compose(const LinearLayout &outer) const;

  /// The inverse of an invertible layout: in dims are this's out dims (same
  /// sizes) and out dims are this's in dims. Fatal error if not invertible.
  LinearLayout invert() const;

  /// A right inverse P of a surjective layout L: L(P(y)) == y for every y.
  /// P's in dims are L's out dims and P's out dims are L's in dims. Among the
  /// many right inverses of a non-injective L, P is the one whose outputs
  /// only use the input bits that are *not* free variables (see
  /// getFreeVariableMasks): free bits are always 0. For invertible layouts
  /// this is the inverse. Fatal error if L is not surjective.
  LinearLayout pseudoinvert() const;

  /// The layout C from this's input dimensions to outer's input dimensions
  /// with outer(C(x)) == this(x) for every x. It exists when every element of
  /// this's image is in outer's image (e.g. when outer is surjective onto
  /// this's output space). Output dimensions are matched by name; an output
  /// dimension missing from either side is treated as always 0. When outer is
  /// not injective, C picks the unique preimage whose free-variable bits (see
  /// getFreeVariableMasks on outer) are 0, i.e. it prefers outer's earlier
  /// input dimensions and lower bits ("register" before "lane" before "warp"
  /// in a distributed layout). The result's output sizes are outer's input
  /// sizes. Fatal error if the image condition does not hold.
  ///
  /// Lowering a layout conversion from src to dst uses
  /// src.invertAndCompose(dst): it maps each source location to a
  /// destination location holding the same element.
  LinearLayout invertAndCompose(const LinearLayout &outer) const;
  /// As invertAndCompose, but returns std::nullopt (and a message in *error)
  /// instead of failing when some element of this's image is not in outer's.
  std::optional<LinearLayout>
  tryInvertAndCompose(const LinearLayout &outer,
                      std::string *error = nullptr) const;

  /// The restriction to the given input and output dimensions: other inputs
  /// are fixed to 0 and other outputs dropped. Output sizes are unchanged.
  /// The dimensions keep this layout's order, not the order of the arguments.
  LinearLayout sublayout(llvm::ArrayRef<std::string> inDims,
                         llvm::ArrayRef<std::string> outDims) const;
  /// True if every basis of the given input dims is 0 along the given output
  /// dims.
  bool sublayoutIsZero(llvm::ArrayRef<std::string> inDims,
                       llvm::ArrayRef<std::string> outDims) const;

  /// Reorders the input (output) dimensions; `order` must be a permutation of
  /// their names. The function is unchanged; only flattening order differs.
  LinearLayout transposeIns(llvm::ArrayRef<std::string> order) const;
  LinearLayout transposeOuts(llvm::ArrayRef<std::string> order) const;

  /// Flattens all input (output) dimensions into one index, the first
  /// dimension fastest (least significant), then splits that index into the
  /// new dimensions, again the first new dimension fastest. The product of the
  /// new sizes must equal the old one; each new size must be a power of two.
  LinearLayout
  reshapeIns(llvm::ArrayRef<std::pair<std::string, int32_t>> newInDims) const;
  LinearLayout
  reshapeOuts(llvm::ArrayRef<std::pair<std::string, int32_t>> newOutDims) const;
  /// reshapeIns/Outs to one dimension named like the current first one.
  LinearLayout flattenIns() const;
  LinearLayout flattenOuts() const;

  /// Rank of the GF(2) matrix: log2 of the number of distinct outputs.
  int32_t getRank() const;
  /// Every output value is reached.
  bool isSurjective() const;
  /// No two inputs map to the same output.
  bool isInjective() const;
  /// Surjective and injective.
  bool isInvertible() const;

  /// For every input dimension, in order, a bit mask of its *free* bits.
  /// Bits are visited in flattened order (first input dimension first, low
  /// bits first); a bit is free when its basis is the XOR of bases of bits
  /// visited before it (a zero basis is always free). Flipping a free bit
  /// alone may change the output, but the output never depends on anything
  /// the non-free bits do not already determine: the inputs whose free bits
  /// are all 0 map one-to-one onto the image. Hence all masks are 0 iff the
  /// layout is injective, and e.g. a store may be predicated on
  /// `(lane & laneMask) == 0 && (warp & warpMask) == 0` (and skip registers
  /// with a free bit set) to write each element exactly once.
  DimsT getFreeVariableMasks() const;

  /// Removes the bases of `inDim` that are zero (its size shrinks).
  LinearLayout removeZeroBasesAlongDim(llvm::StringRef inDim) const;

  /// Exact equality: same input dimensions in the same order with the same
  /// bases, same output dimensions in the same order with the same sizes.
  friend bool operator==(const LinearLayout &lhs, const LinearLayout &rhs) {
    return lhs.bases == rhs.bases && lhs.outDims == rhs.outDims;
  }
  friend bool operator!=(const LinearLayout &lhs, const LinearLayout &rhs) {
    return !(lhs == rhs);
  }

  /// A readable multi-line description, e.g.
  ///   register[4]: (0, 1) (0, 2)
  ///   lane[2]: (1, 0)
  ///   -> dim0[2] dim1[4]
  std::string toString() const;

private:
  struct NoCheck {};
  LinearLayout(BasesT bases, DimsT outDims, NoCheck)
      : bases(std::move(bases)), outDims(std::move(outDims)) {}

  static std::optional<std::string> verify(const BasesT &bases,
                                           const DimsT &outDims);

  // Flattened views (see the file comment).
  std::vector<int32_t> getOutBitOffsets() const;
  uint64_t flattenBasis(const Basis &basis) const;
  Basis unflattenOutput(uint64_t bits) const;
  std::vector<uint64_t> getColumns() const;

  BasesT bases;
  DimsT outDims;
};

LinearLayout operator*(const LinearLayout &lhs, const LinearLayout &rhs);

inline std::ostream &operator<<(std::ostream &os, const LinearLayout &layout) {
  return os << layout.toString();
}
inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os,
                                     const LinearLayout &layout) {
  return os << layout.toString();
}

} // namespace terrazzo

#endif // TERRAZZO_DIALECTS_TILEGPU_LAYOUT_LINEARLAYOUT_H
