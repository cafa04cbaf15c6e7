// AxisInfo: what is known about the integer and pointer values of a kernel,
// per tensor dimension, for choosing vector widths of memory accesses
// (DESIGN.md §4, used by coalesce).
//
// For a value of rank r (a scalar counts as rank 1 with one dimension of size
// 1) the lattice keeps, for every dimension d, three powers of two:
//
//   contiguity[d]   C: cut dimension d into aligned chunks of C positions
//                   ([0, C), [C, 2C), ...); inside every chunk the values
//                   step by exactly one: v, v+1, v+2, ... For pointers the
//                   step is one *element* (sizeof(pointee) bytes).
//   divisibility[d] D: D divides the value at the first position of every
//                   such chunk (so with C = 1 it divides every element).
//                   Pointers count in bytes. Capped at kMaxDivisibility; a
//                   zero is "divisible by everything", i.e. the cap.
//   constancy[d]    K: inside every aligned chunk of K positions along d the
//                   values are equal.
//
// and, for scalars and splats whose value is known, that value.
//
// Hints: an op may carry `tile.contiguity`, `tile.divisibility` and
// `tile.constancy` (array<i64>, one value per dimension of its results;
// the frontend's tl.max_contiguous, tl.multiple_of and tl.max_constancy, as
// Triton's tt.* attributes), which replace what the analysis derives for
// its results: divisibility as its largest power-of-two divisor, contiguity
// and constancy as the largest power of two not above the hint or the
// dimension's size. They are promises of the program, not checked.
//
// The properties along one dimension hold for every fixed position of the
// other dimensions. A dimension of size 1 has C = K = 1, and its D divides
// every element. Joining two lattices (where control flow merges) takes the
// minimum (= gcd of powers of two) per dimension and keeps the constant only
// if both agree; a default-constructed AxisInfo is "not yet known" (the
// bottom of the lattice) and joins as the identity.
//
// Assumptions, as in other block compilers: integer arithmetic does not wrap
// inside a run, and signed division/remainder by a constant see non-negative
// dividends (offsets). A pointer of type !tile.ptr<T> that nothing else is
// known about is assumed aligned to sizeof(T): every access through it must
// be, on every supported target.
#ifndef TERRAZZO_PASSES_ANALYSIS_AXISINFO_H
#define TERRAZZO_PASSES_ANALYSIS_AXISINFO_H

#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mlir {
class DataFlowSolver;
class Operation;
} // namespace mlir

namespace mlir::terrazzo {

class AxisInfo {
public:
  using DimVector = SmallVector<int64_t, 4>;

  /// The largest divisibility tracked (2^30).
  static constexpr int64_t kMaxDivisibility = int64_t(1) << 30;

  /// The uninitialized (bottom) state.
  AxisInfo() = default;
  AxisInfo(ArrayRef<int64_t> contiguity, ArrayRef<int64_t> divisibility,
           ArrayRef<int64_t> constancy,
           std::optional<int64_t> constantValue = std::nullopt);

  /// Nothing known: C = K = 1 and D = `divisibility` in every dimension.
  static AxisInfo getUnknown(unsigned rank, int64_t divisibility = 1);

  bool isInitialized() const { return !contiguity.empty(); }
  unsigned getRank() const { return contiguity.size(); }

  int64_t getContiguity(unsigned dim) const { return contiguity[dim]; }
  int64_t getDivisibility(unsigned dim) const { return divisibility[dim]; }
  int64_t getConstancy(unsigned dim) const { return constancy[dim]; }
  ArrayRef<int64_t> getContiguity() const { return contiguity; }
  ArrayRef<int64_t> getDivisibility() const { return divisibility; }
  ArrayRef<int64_t> getConstancy() const { return constancy; }
  /// The value of every element, when it is known.
  std::optional<int64_t> getConstantValue() const { return constantValue; }

  /// The least upper bound of two lattices (the data-flow framework's join).
  static AxisInfo join(const AxisInfo &lhs, const AxisInfo &rhs);

  bool operator==(const AxisInfo &other) const;
  bool operator!=(const AxisInfo &other) const { return !(*this == other); }

  /// `contiguity = [..], divisibility = [..], constancy = [..],
  /// constant_value = <none>|N`.
  void print(raw_ostream &os) const;
  void dump() const;

private:
  DimVector contiguity;
  DimVector divisibility;
  DimVector constancy;
  std::optional<int64_t> constantValue;
};

inline raw_ostream &operator<<(raw_ostream &os, const AxisInfo &info) {
  info.print(os);
  return os;
}

/// Adds the AxisInfo analysis to a solver that the caller runs, for passes
/// that combine several data-flow analyses. The solver also needs
/// dataflow::DeadCodeAnalysis and dataflow::SparseConstantPropagation.
void loadAxisInfoAnalysis(DataFlowSolver &solver);

/// The lattice that a solver loaded with loadAxisInfoAnalysis computed for
/// `value`, or null when it has none (dead code, not yet run).
const AxisInfo *lookupAxisInfo(const DataFlowSolver &solver, Value value);

/// Runs the analysis once over everything nested in `root` (usually the
/// module) and answers queries about any value in it.
class ModuleAxisInfoAnalysis {
public:
  explicit ModuleAxisInfoAnalysis(Operation *root);

  /// The lattice of `value`, or null when nothing was computed for it (a
  /// value in unreachable code, or one defined outside `root`).
  const AxisInfo *getAxisInfo(Value value) const;

  /// Contiguity of `ptrOrInt` along `dim` (elements for pointers); 1 when
  /// unknown or `dim` is out of range.
  unsigned getContiguity(Value ptrOrInt, unsigned dim) const;

  /// Contiguity along the last (fastest-varying) dimension, in elements; 1
  /// for scalars and unknown values.
  unsigned getPtrContiguity(Value ptr) const;

  /// The power of two in bytes that divides the address at the start of
  /// every contiguous run along the last dimension. A vector access of w
  /// elements of b bytes starting at such a run is aligned to w * b bytes
  /// when w <= getPtrContiguity(ptr) and w * b <= this. Unknown values get
  /// the natural alignment of the pointee.
  unsigned getPtrAlignmentBytes(Value ptr) const;

  /// Length of the runs of equal mask bits along the last dimension; 1 when
  /// unknown.
  unsigned getMaskConstancy(Value mask) const;

private:
  llvm::DenseMap<Value, AxisInfo> infos;
};

/// Registers `--terrazzo-test-print-axis-info`, which reports the lattice of
/// every integer and pointer value as a remark (for lit tests).
void registerTestAxisInfoPass();

} // namespace mlir::terrazzo

#endif // TERRAZZO_PASSES_ANALYSIS_AXISINFO_H
