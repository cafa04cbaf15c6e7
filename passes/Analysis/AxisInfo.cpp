// AxisInfo: the lattice, the sparse forward data-flow analysis that computes
// it, and the module-level front end. See AxisInfo.h for what the three
// numbers per dimension mean; every transfer function below is written
// against that definition ("chunks" are the aligned runs of C or K
// positions along one dimension).
#include "passes/Analysis/AxisInfo.h"

#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/SparseAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::terrazzo;

//===----------------------------------------------------------------------===//
// AxisInfo
//===----------------------------------------------------------------------===//

AxisInfo::AxisInfo(ArrayRef<int64_t> contiguity, ArrayRef<int64_t> divisibility,
                   ArrayRef<int64_t> constancy,
                   std::optional<int64_t> constantValue)
    : contiguity(contiguity), divisibility(divisibility), constancy(constancy),
      constantValue(constantValue) {
  assert(contiguity.size() == divisibility.size() &&
         contiguity.size() == constancy.size() && "one entry per dimension");
}

AxisInfo AxisInfo::getUnknown(unsigned rank, int64_t divisibility) {
  DimVector ones(rank, 1);
  return AxisInfo(ones, DimVector(rank, divisibility), ones);
}

AxisInfo AxisInfo::join(const AxisInfo &lhs, const AxisInfo &rhs) {
  if (!lhs.isInitialized())
    return rhs;
  if (!rhs.isInitialized())
    return lhs;
  // Both describe the same value, so the ranks agree; if they ever do not,
  // knowing nothing is the safe answer.
  if (lhs.getRank() != rhs.getRank())
    return getUnknown(lhs.getRank());
  DimVector c, d, k;
  for (unsigned i = 0, e = lhs.getRank(); i < e; ++i) {
    // All entries are powers of two, so gcd is min.
    c.push_back(std::min(lhs.contiguity[i], rhs.contiguity[i]));
    d.push_back(std::min(lhs.divisibility[i], rhs.divisibility[i]));
    k.push_back(std::min(lhs.constancy[i], rhs.constancy[i]));
  }
  std::optional<int64_t> value;
  if (lhs.constantValue == rhs.constantValue)
    value = lhs.constantValue;
  return AxisInfo(c, d, k, value);
}

bool AxisInfo::operator==(const AxisInfo &other) const {
  return contiguity == other.contiguity && divisibility == other.divisibility &&
         constancy == other.constancy && constantValue == other.constantValue;
}

void AxisInfo::print(raw_ostream &os) const {
  if (!isInitialized()) {
    os << "<uninitialized>";
    return;
  }
  auto list = [&](ArrayRef<int64_t> values) {
    os << '[';
    llvm::interleaveComma(values, os);
    os << ']';
  };
  os << "contiguity = ";
  list(contiguity);
  os << ", divisibility = ";
  list(divisibility);
  os << ", constancy = ";
  list(constancy);
  os << ", constant_value = ";
  if (constantValue)
    os << *constantValue;
  else
    os << "<none>";
}

void AxisInfo::dump() const {
  print(llvm::errs());
  llvm::errs() << "\n";
}

//===----------------------------------------------------------------------===//
// Helpers on numbers and types
//===----------------------------------------------------------------------===//

namespace {

using DimVector = AxisInfo::DimVector;
constexpr int64_t kCap = AxisInfo::kMaxDivisibility;

int64_t clampDiv(int64_t v) { return std::clamp<int64_t>(v, 1, kCap); }

/// The largest power of two dividing `v` (the cap for zero).
int64_t pow2Divisor(int64_t v) {
  if (v == 0)
    return kCap;
  unsigned zeros = llvm::countr_zero(static_cast<uint64_t>(v));
  return zeros >= 30 ? kCap : int64_t(1) << zeros;
}

/// The largest power of two that is <= v (1 for v <= 1).
int64_t floorPow2(int64_t v) {
  return v <= 1 ? 1 : int64_t(1) << llvm::Log2_64(static_cast<uint64_t>(v));
}

bool isPow2(int64_t v) { return v > 0 && llvm::isPowerOf2_64(v); }

/// The shape the lattice of a value of `type` has: the tensor's shape, or
/// one dimension of size 1 for scalars.
SmallVector<int64_t> latticeShape(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || tensor.getRank() == 0)
    return {1};
  SmallVector<int64_t> shape;
  for (int64_t size : tensor.getShape())
    shape.push_back(ShapedType::isDynamic(size) ? 1 : size);
  return shape;
}

bool isPointerLike(Type type) {
  return isa<tile::PointerType>(getElementTypeOrSelf(type));
}

/// Bytes of one pointee element for pointers and tensors of pointers (at
/// least 1), 1 for everything else.
int64_t pointeeBytes(Type ptrLike) {
  auto ptr = dyn_cast<tile::PointerType>(getElementTypeOrSelf(ptrLike));
  if (!ptr)
    return 1;
  Type pointee = ptr.getPointeeType();
  if (isa<tile::PointerType>(pointee))
    return 8;
  if (pointee.isIntOrFloat())
    return std::max<int64_t>(1, pointee.getIntOrFloatBitWidth() / 8);
  return 1;
}

/// How far apart (in the unit divisibility counts in) two consecutive
/// elements of a contiguous run are: sizeof(pointee) bytes for pointers, 1
/// for integers.
int64_t stepOf(Type type) { return pointeeBytes(type); }

/// Bit width of an integer or index element type, 0 for anything else.
unsigned intWidth(Type type) {
  Type element = getElementTypeOrSelf(type);
  if (element.isIndex())
    return 64;
  if (auto integer = dyn_cast<IntegerType>(element))
    return integer.getWidth();
  return 0;
}

/// A known constant is stored sign-extended, except i1, stored as 0/1.
int64_t fromAPInt(const APInt &value) {
  if (value.getBitWidth() == 1)
    return value.getZExtValue();
  return value.getSExtValue();
}

APInt toAPInt(int64_t value, unsigned width) {
  return APInt(width, static_cast<uint64_t>(value), /*isSigned=*/true,
               /*implicitTrunc=*/true);
}

//===----------------------------------------------------------------------===//
// Building blocks of the transfer functions
//===----------------------------------------------------------------------===//

/// What divides the value at every position along `dim` that is a multiple
/// of `chunk` (a power of two). At a run start that is `D`; inside a run of
/// length C > chunk the positions multiple of `chunk` are the start plus a
/// multiple of chunk * step.
int64_t divAt(const AxisInfo &info, unsigned dim, int64_t chunk, int64_t step) {
  int64_t contiguity = info.getContiguity(dim);
  int64_t divisibility = info.getDivisibility(dim);
  if (chunk >= contiguity)
    return divisibility;
  return std::min(divisibility, clampDiv(chunk * step));
}

/// What divides every element.
int64_t everyDiv(const AxisInfo &info, int64_t step) {
  int64_t best = 1;
  for (unsigned d = 0, e = info.getRank(); d < e; ++d)
    best = std::max(best, divAt(info, d, 1, step));
  return best;
}

bool isFullyConstant(const AxisInfo &info, ArrayRef<int64_t> shape) {
  if (info.getConstantValue())
    return true;
  for (unsigned d = 0, e = info.getRank(); d < e; ++d)
    if (info.getConstancy(d) < shape[d])
      return false;
  return true;
}

/// Every element equal, divisible by `divisibility`, possibly known.
AxisInfo splatInfo(ArrayRef<int64_t> shape, int64_t divisibility,
                   std::optional<int64_t> value) {
  DimVector ones(shape.size(), 1);
  return AxisInfo(ones, DimVector(shape.size(), clampDiv(divisibility)),
                  DimVector(shape.begin(), shape.end()), value);
}

AxisInfo constantInfo(Type type, int64_t value) {
  return splatInfo(latticeShape(type), pow2Divisor(value), value);
}

/// Nothing known. Pointers keep the natural alignment of their pointee.
AxisInfo unknownInfo(Type type) {
  unsigned rank = latticeShape(type).size();
  return AxisInfo::getUnknown(rank,
                              isPointerLike(type) ? pointeeBytes(type) : 1);
}

struct Dim {
  int64_t contiguity, divisibility, constancy;
};

template <typename Fn> AxisInfo perDim(unsigned rank, Fn &&fn) {
  DimVector c, d, k;
  for (unsigned i = 0; i < rank; ++i) {
    Dim dim = fn(i);
    c.push_back(dim.contiguity);
    d.push_back(clampDiv(dim.divisibility));
    k.push_back(dim.constancy);
  }
  return AxisInfo(c, d, k);
}

/// lhs + rhs * scale, with lhs runs stepping by `lhsStep` and rhs counted in
/// units that `scale` converts to lhs's (addptr: elements to bytes).
/// Inside an aligned chunk where one side is consecutive and the other
/// constant the sum is consecutive; it is constant where both are.
AxisInfo addInfo(const AxisInfo &lhs, const AxisInfo &rhs, int64_t lhsStep,
                 int64_t scale) {
  return perDim(lhs.getRank(), [&](unsigned d) {
    int64_t c = std::max(std::min(lhs.getContiguity(d), rhs.getConstancy(d)),
                         std::min(lhs.getConstancy(d), rhs.getContiguity(d)));
    int64_t div = std::min(divAt(lhs, d, c, lhsStep),
                           clampDiv(divAt(rhs, d, c, 1) * scale));
    int64_t k = std::min(lhs.getConstancy(d), rhs.getConstancy(d));
    return Dim{c, div, k};
  });
}

/// lhs - rhs: consecutive minus constant stays consecutive; two runs that
/// both step by one inside a chunk have a constant difference there.
AxisInfo subInfo(const AxisInfo &lhs, const AxisInfo &rhs) {
  return perDim(lhs.getRank(), [&](unsigned d) {
    int64_t c = std::min(lhs.getContiguity(d), rhs.getConstancy(d));
    int64_t div = std::min(divAt(lhs, d, c, 1), divAt(rhs, d, c, 1));
    int64_t k = std::max(std::min(lhs.getConstancy(d), rhs.getConstancy(d)),
                         std::min(lhs.getContiguity(d), rhs.getContiguity(d)));
    return Dim{c, div, k};
  });
}

/// lhs * rhs (neither side is the constant 0 or 1: those are handled by the
/// caller). Divisibilities multiply element by element.
AxisInfo mulInfo(const AxisInfo &lhs, const AxisInfo &rhs) {
  return perDim(lhs.getRank(), [&](unsigned d) {
    int64_t div = divAt(lhs, d, 1, 1) * divAt(rhs, d, 1, 1);
    return Dim{1, div, std::min(lhs.getConstancy(d), rhs.getConstancy(d))};
  });
}

/// floor(lhs / c) for a power of two c > 1, with `rhsConstancy` the
/// constancy of the divisor operand. A run [s, s + C) with D | s crosses a
/// multiple of c only at positions that are multiples of min(c, D), so the
/// quotient is constant on chunks of min(C, c, D); if the whole run fits
/// into one c-block (C <= c <= D) the quotient s / c is divisible by D / c.
AxisInfo divPow2Info(const AxisInfo &lhs, const AxisInfo &rhs, int64_t c) {
  return perDim(lhs.getRank(), [&](unsigned d) {
    int64_t lc = lhs.getContiguity(d), ld = lhs.getDivisibility(d);
    int64_t k = std::min(lhs.getConstancy(d), rhs.getConstancy(d));
    k = std::max(k, std::min({lc, c, ld}));
    int64_t div = 1;
    if (c <= ld && lc <= c)
      div = ld / c;
    return Dim{1, div, k};
  });
}

/// lhs mod c for a power of two c > 1 (the caller has ruled out that every
/// element is a multiple of c, which gives the constant 0).
AxisInfo remPow2Info(const AxisInfo &lhs, const AxisInfo &rhs, int64_t c) {
  return perDim(lhs.getRank(), [&](unsigned d) {
    int64_t lc = lhs.getContiguity(d), ld = lhs.getDivisibility(d);
    int64_t k = std::min(lhs.getConstancy(d), rhs.getConstancy(d));
    if (c <= ld) {
      // Run starts are multiples of c: the result counts 0, 1, ..., c - 1
      // from every multiple of c, and starts each chunk at 0.
      return Dim{std::min(lc, c), kCap, k};
    }
    // Run starts are multiples of D < c: wrapping around c can only happen
    // at positions that are multiples of D, and the values there stay
    // multiples of D.
    return Dim{std::min(lc, ld), ld, k};
  });
}

/// An elementwise op about whose values nothing useful is known except that
/// equal inputs give equal outputs, and what divides every element.
AxisInfo elementwiseInfo(const AxisInfo &lhs, const AxisInfo &rhs,
                         int64_t divisibility) {
  return perDim(lhs.getRank(), [&](unsigned d) {
    return Dim{1, divisibility,
               std::min(lhs.getConstancy(d), rhs.getConstancy(d))};
  });
}

/// Per dimension: min/gcd of what divides every element of each side.
AxisInfo elementwiseMinDiv(const AxisInfo &lhs, const AxisInfo &rhs) {
  return perDim(lhs.getRank(), [&](unsigned d) {
    return Dim{1, std::min(divAt(lhs, d, 1, 1), divAt(rhs, d, 1, 1)),
               std::min(lhs.getConstancy(d), rhs.getConstancy(d))};
  });
}

AxisInfo withConstancyOnly(const AxisInfo &src, int64_t divisibility) {
  return perDim(src.getRank(), [&](unsigned d) {
    return Dim{1, divisibility, src.getConstancy(d)};
  });
}

/// Elements of a non-splat dense integer constant, brute force (bounded).
AxisInfo denseInfo(DenseIntElementsAttr attr, Type type) {
  SmallVector<int64_t> shape = latticeShape(type);
  int64_t count = attr.getNumElements();
  if (count > (int64_t(1) << 16))
    return unknownInfo(type);
  SmallVector<int64_t> values;
  values.reserve(count);
  for (const APInt &value : attr.getValues<APInt>())
    values.push_back(fromAPInt(value));
  bool isBool = intWidth(type) == 1;
  unsigned rank = shape.size();
  SmallVector<int64_t> strides(rank, 1);
  for (int i = static_cast<int>(rank) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];

  return perDim(rank, [&](unsigned d) {
    int64_t c = isBool ? 1 : floorPow2(shape[d]);
    int64_t k = floorPow2(shape[d]);
    // A break at position p (p > 0) limits a chunk size to the largest
    // power of two dividing p.
    for (int64_t i = 0; i < count; ++i) {
      int64_t pos = (i / strides[d]) % shape[d];
      if (pos == 0)
        continue;
      int64_t prev = values[i - strides[d]];
      if (values[i] != prev + 1)
        c = std::min(c, pow2Divisor(pos));
      if (values[i] != prev)
        k = std::min(k, pow2Divisor(pos));
    }
    int64_t div = kCap;
    for (int64_t i = 0; i < count; ++i) {
      int64_t pos = (i / strides[d]) % shape[d];
      if (pos % c == 0)
        div = std::min(div, pow2Divisor(values[i]));
    }
    return Dim{c, div, k};
  });
}

std::optional<int64_t> foldBinary(Operation *op, int64_t a, int64_t b,
                                  unsigned width) {
  APInt x = toAPInt(a, width), y = toAPInt(b, width);
  std::optional<APInt> r =
      llvm::TypeSwitch<Operation *, std::optional<APInt>>(op)
          .Case([&](arith::AddIOp) { return x + y; })
          .Case([&](arith::SubIOp) { return x - y; })
          .Case([&](arith::MulIOp) { return x * y; })
          .Case([&](arith::DivSIOp) -> std::optional<APInt> {
            if (y.isZero() || (x.isMinSignedValue() && y.isAllOnes()))
              return std::nullopt;
            return x.sdiv(y);
          })
          .Case([&](arith::DivUIOp) -> std::optional<APInt> {
            if (y.isZero())
              return std::nullopt;
            return x.udiv(y);
          })
          .Case([&](arith::RemSIOp) -> std::optional<APInt> {
            if (y.isZero())
              return std::nullopt;
            return x.srem(y);
          })
          .Case([&](arith::RemUIOp) -> std::optional<APInt> {
            if (y.isZero())
              return std::nullopt;
            return x.urem(y);
          })
          .Case([&](arith::AndIOp) { return x & y; })
          .Case([&](arith::OrIOp) { return x | y; })
          .Case([&](arith::XOrIOp) { return x ^ y; })
          .Case([&](arith::ShLIOp) -> std::optional<APInt> {
            if (y.uge(width))
              return std::nullopt;
            return x.shl(y);
          })
          .Case([&](arith::ShRSIOp) -> std::optional<APInt> {
            if (y.uge(width))
              return std::nullopt;
            return x.ashr(y);
          })
          .Case([&](arith::ShRUIOp) -> std::optional<APInt> {
            if (y.uge(width))
              return std::nullopt;
            return x.lshr(y);
          })
          .Case([&](arith::MinSIOp) { return x.slt(y) ? x : y; })
          .Case([&](arith::MaxSIOp) { return x.sgt(y) ? x : y; })
          .Case([&](arith::MinUIOp) { return x.ult(y) ? x : y; })
          .Case([&](arith::MaxUIOp) { return x.ugt(y) ? x : y; })
          .Case([&](arith::CmpIOp cmp) {
            return APInt(1, arith::applyCmpPredicate(cmp.getPredicate(), x, y));
          })
          .Default([](Operation *) { return std::nullopt; });
  if (!r)
    return std::nullopt;
  return fromAPInt(*r);
}

/// Shapes the lattice of a scalar into a splat of `shape` (the scalar
/// condition of a select on tensors).
AxisInfo broadcastScalar(const AxisInfo &scalar, ArrayRef<int64_t> shape) {
  return splatInfo(shape, everyDiv(scalar, 1), scalar.getConstantValue());
}

//===----------------------------------------------------------------------===//
// Transfer functions
//===----------------------------------------------------------------------===//

/// The lattice of the result of an integer arith binary op. Known constants
/// fold; otherwise a rule per op.
AxisInfo visitArithBinary(Operation *op, const AxisInfo &lhs,
                          const AxisInfo &rhs) {
  Type type = op->getResult(0).getType();
  unsigned width = intWidth(op->getOperand(0).getType());
  std::optional<int64_t> a = lhs.getConstantValue();
  std::optional<int64_t> b = rhs.getConstantValue();
  if (a && b && width)
    if (std::optional<int64_t> folded = foldBinary(op, *a, *b, width))
      return constantInfo(type, *folded);

  auto isConst = [](std::optional<int64_t> v, int64_t c) {
    return v && *v == c;
  };
  auto badShift = [&](std::optional<int64_t> v) {
    return v && (*v < 0 || *v >= static_cast<int64_t>(width));
  };

  return llvm::TypeSwitch<Operation *, AxisInfo>(op)
      .Case([&](arith::AddIOp) { return addInfo(lhs, rhs, 1, 1); })
      .Case([&](arith::SubIOp) { return subInfo(lhs, rhs); })
      .Case([&](arith::MulIOp) {
        if (isConst(a, 0) || isConst(b, 0))
          return constantInfo(type, 0);
        if (isConst(a, 1))
          return rhs;
        if (isConst(b, 1))
          return lhs;
        return mulInfo(lhs, rhs);
      })
      .Case<arith::DivSIOp, arith::DivUIOp>([&](Operation *) {
        if (isConst(b, 1))
          return lhs;
        if (b && isPow2(*b))
          return divPow2Info(lhs, rhs, *b);
        return elementwiseInfo(lhs, rhs, 1);
      })
      .Case<arith::RemSIOp, arith::RemUIOp>([&](Operation *) {
        if (b && isPow2(*b)) {
          if (everyDiv(lhs, 1) >= *b)
            return constantInfo(type, 0);
          return remPow2Info(lhs, rhs, *b);
        }
        // x - q * y: whatever divides both divides the remainder. A run of
        // consecutive x that starts at a multiple of y's divisor and is no
        // longer than it stays consecutive (no wrap inside it) as long as
        // y is the same along the run: `(base + arange) % M` with M a
        // multiple of 16 keeps runs of 16, as the matmul tutorial needs.
        return perDim(lhs.getRank(), [&](unsigned d) {
          int64_t yDiv = divAt(rhs, d, 1, 1);
          int64_t run = std::min({lhs.getContiguity(d),
                                  lhs.getDivisibility(d), yDiv,
                                  rhs.getConstancy(d)});
          // Divisibility is that of each run's first element (x0 - q y
          // with both divisible by it), of every element when runs are 1.
          if (run > 1)
            return Dim{run, std::min(lhs.getDivisibility(d), yDiv),
                       std::min(lhs.getConstancy(d), rhs.getConstancy(d))};
          return Dim{1, std::min(divAt(lhs, d, 1, 1), yDiv),
                     std::min(lhs.getConstancy(d), rhs.getConstancy(d))};
        });
      })
      .Case([&](arith::AndIOp) {
        // Put a known mask on the right.
        const AxisInfo *x = &lhs, *m = &rhs;
        std::optional<int64_t> mask = b;
        if (!mask && a) {
          std::swap(x, m);
          mask = a;
        }
        if (mask) {
          if (*mask == -1)
            return *x;
          // x & (2^k - 1) is x mod 2^k (for negative x too).
          if (*mask >= 0 && *mask < INT64_MAX && isPow2(*mask + 1)) {
            int64_t c = *mask + 1;
            if (everyDiv(*x, 1) >= c)
              return constantInfo(type, 0);
            return remPow2Info(*x, *m, c);
          }
          // x & -2^k is floor(x / 2^k) * 2^k.
          if (*mask < 0 && *mask != INT64_MIN && isPow2(-*mask)) {
            // (A quotient by more than the cap is constant wherever the
            // quotient by the cap is.)
            int64_t c = std::min(-*mask, kCap);
            AxisInfo q = divPow2Info(*x, *m, c);
            return perDim(q.getRank(), [&](unsigned d) {
              return Dim{1, q.getDivisibility(d) * c, q.getConstancy(d)};
            });
          }
        }
        // Low zero bits of either side stay zero.
        return perDim(lhs.getRank(), [&](unsigned d) {
          return Dim{1, std::max(divAt(lhs, d, 1, 1), divAt(rhs, d, 1, 1)),
                     std::min(lhs.getConstancy(d), rhs.getConstancy(d))};
        });
      })
      .Case<arith::OrIOp, arith::XOrIOp>([&](Operation *) {
        if (isConst(b, 0))
          return lhs;
        if (isConst(a, 0))
          return rhs;
        // Setting bits below the known zero bits is an addition.
        if (b && *b > 0 && *b < everyDiv(lhs, 1))
          return addInfo(lhs, rhs, 1, 1);
        if (a && *a > 0 && *a < everyDiv(rhs, 1))
          return addInfo(lhs, rhs, 1, 1);
        return elementwiseMinDiv(lhs, rhs);
      })
      .Case([&](arith::ShLIOp) {
        if (isConst(b, 0))
          return lhs;
        if (badShift(b))
          return unknownInfo(type);
        int64_t shift = b ? *b : 0;
        return perDim(lhs.getRank(), [&](unsigned d) {
          int64_t div = divAt(lhs, d, 1, 1);
          div = shift >= 31 ? kCap : clampDiv(div << shift);
          return Dim{1, div,
                     std::min(lhs.getConstancy(d), rhs.getConstancy(d))};
        });
      })
      .Case<arith::ShRSIOp, arith::ShRUIOp>([&](Operation *) {
        if (isConst(b, 0))
          return lhs;
        if (badShift(b))
          return unknownInfo(type);
        // An arithmetic shift right is floor division even for negative
        // values, the logical one for unsigned values.
        if (b && *b < 31)
          return divPow2Info(lhs, rhs, int64_t(1) << *b);
        return elementwiseInfo(lhs, rhs, 1);
      })
      .Case<arith::MinSIOp, arith::MaxSIOp, arith::MinUIOp, arith::MaxUIOp>(
          [&](Operation *) {
            // Every element is one of the two sides.
            return elementwiseMinDiv(lhs, rhs);
          })
      .Default([&](Operation *) { return unknownInfo(type); });
}

/// lhs <pred> rhs. Besides equal inputs giving equal outputs: where lhs
/// runs consecutively over a chunk in which rhs is constant, `lhs < rhs`
/// (and its negation `>=`) changes value at most once, at the position where
/// lhs reaches rhs; that position is a multiple of what divides both the
/// run start and rhs, so the result is constant on chunks of that size.
/// `>` and `<=` are the same with the sides swapped.
AxisInfo visitCmp(arith::CmpIOp cmp, const AxisInfo &lhs, const AxisInfo &rhs) {
  Type type = cmp.getType();
  unsigned width = intWidth(cmp.getLhs().getType());
  if (lhs.getConstantValue() && rhs.getConstantValue() && width)
    if (auto folded = foldBinary(cmp, *lhs.getConstantValue(),
                                 *rhs.getConstantValue(), width))
      return constantInfo(type, *folded);

  using P = arith::CmpIPredicate;
  P pred = cmp.getPredicate();
  bool lhsRuns =
      pred == P::slt || pred == P::ult || pred == P::sge || pred == P::uge;
  bool rhsRuns =
      pred == P::sgt || pred == P::ugt || pred == P::sle || pred == P::ule;
  return perDim(lhs.getRank(), [&](unsigned d) {
    int64_t k = std::min(lhs.getConstancy(d), rhs.getConstancy(d));
    int64_t chunk = 1;
    if (lhsRuns)
      chunk = std::min(lhs.getContiguity(d), rhs.getConstancy(d));
    else if (rhsRuns)
      chunk = std::min(lhs.getConstancy(d), rhs.getContiguity(d));
    if (chunk > 1) {
      int64_t g = std::min(divAt(lhs, d, chunk, 1), divAt(rhs, d, chunk, 1));
      k = std::max(k, std::min(chunk, g));
    }
    return Dim{1, 1, k};
  });
}

AxisInfo visitSelect(arith::SelectOp select, AxisInfo cond, const AxisInfo &a,
                     const AxisInfo &b) {
  SmallVector<int64_t> shape = latticeShape(select.getType());
  if (!isa<RankedTensorType>(select.getCondition().getType()))
    cond = broadcastScalar(cond, shape);
  if (std::optional<int64_t> c = cond.getConstantValue())
    return *c ? a : b;
  int64_t step = stepOf(select.getType());
  AxisInfo result = perDim(a.getRank(), [&](unsigned d) {
    int64_t c = std::min(
        {cond.getConstancy(d), a.getContiguity(d), b.getContiguity(d)});
    int64_t div = std::min(divAt(a, d, c, step), divAt(b, d, c, step));
    int64_t k =
        std::min({cond.getConstancy(d), a.getConstancy(d), b.getConstancy(d)});
    return Dim{c, div, k};
  });
  if (a.getConstantValue() && a.getConstantValue() == b.getConstantValue())
    return AxisInfo(result.getContiguity(), result.getDivisibility(),
                    result.getConstancy(), a.getConstantValue());
  return result;
}

/// extsi / extui / trunci / index_cast / index_castui.
AxisInfo visitIntCast(Operation *op, const AxisInfo &src) {
  Type srcType = op->getOperand(0).getType();
  Type dstType = op->getResult(0).getType();
  unsigned from = intWidth(srcType), to = intWidth(dstType);
  if (!from || !to)
    return unknownInfo(dstType);
  bool isSigned = isa<arith::ExtSIOp, arith::IndexCastOp>(op);
  if (std::optional<int64_t> v = src.getConstantValue()) {
    APInt x = toAPInt(*v, from);
    x = isSigned ? x.sextOrTrunc(to) : x.zextOrTrunc(to);
    return constantInfo(dstType, fromAPInt(x));
  }
  if (from == 1 || to == 1) // Booleans: 0 and 1 (or -1).
    return withConstancyOnly(src, 1);
  if (to < from && to < 31) {
    // Narrow types do wrap: read as signed, at values that are odd
    // multiples of 2^(to - 1), which inside a run starting at a multiple of
    // D happens only at multiples of min(D, 2^(to - 1)) positions. A divisor
    // larger than the type can represent means zero modulo 2^to, which is
    // what the cap stands for anyway. (Truncations to 32 bits or more are
    // assumed not to wrap.)
    return perDim(src.getRank(), [&](unsigned d) {
      int64_t c = std::min({src.getContiguity(d), src.getDivisibility(d),
                            int64_t(1) << (to - 1)});
      return Dim{c, divAt(src, d, c, 1), src.getConstancy(d)};
    });
  }
  return src;
}

/// The lattices of the results of `op`, from its operands' lattices; empty
/// (or uninitialized entries) for ops it knows nothing about, whose results
/// the caller then marks unknown.
SmallVector<AxisInfo> transfer(Operation *op, ArrayRef<AxisInfo> in) {
  auto one = [](AxisInfo info) { return SmallVector<AxisInfo>{info}; };
  return llvm::TypeSwitch<Operation *, SmallVector<AxisInfo>>(op)
      .Case([&](arith::ConstantOp cst) -> SmallVector<AxisInfo> {
        Type type = cst.getType();
        if (auto attr = dyn_cast<IntegerAttr>(cst.getValue()))
          return one(constantInfo(type, fromAPInt(attr.getValue())));
        if (auto dense = dyn_cast<DenseIntElementsAttr>(cst.getValue())) {
          if (dense.isSplat())
            return one(
                constantInfo(type, fromAPInt(dense.getSplatValue<APInt>())));
          return one(denseInfo(dense, type));
        }
        return {};
      })
      .Case<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivSIOp,
            arith::DivUIOp, arith::RemSIOp, arith::RemUIOp, arith::AndIOp,
            arith::OrIOp, arith::XOrIOp, arith::ShLIOp, arith::ShRSIOp,
            arith::ShRUIOp, arith::MinSIOp, arith::MaxSIOp, arith::MinUIOp,
            arith::MaxUIOp>([&](Operation *binary) {
        return one(visitArithBinary(binary, in[0], in[1]));
      })
      .Case([&](arith::CmpIOp cmp) { return one(visitCmp(cmp, in[0], in[1])); })
      .Case([&](arith::SelectOp select) {
        return one(visitSelect(select, in[0], in[1], in[2]));
      })
      .Case<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::IndexCastOp,
            arith::IndexCastUIOp>(
          [&](Operation *cast) { return one(visitIntCast(cast, in[0])); })
      .Case([&](tile::SplatOp splat) {
        return one(splatInfo(latticeShape(splat.getType()),
                             everyDiv(in[0], stepOf(splat.getSrc().getType())),
                             in[0].getConstantValue()));
      })
      .Case([&](tile::MakeRangeOp range) {
        int64_t start = range.getStartAttr().getInt();
        int64_t length = range.getEndAttr().getInt() - start;
        if (length <= 1)
          return one(constantInfo(range.getType(), start));
        // One run over the whole block, starting at `start`.
        return one(AxisInfo({floorPow2(length)}, {pow2Divisor(start)}, {1}));
      })
      .Case([&](tile::BroadcastOp broadcast) {
        ArrayRef<int64_t> from = broadcast.getSrc().getType().getShape();
        ArrayRef<int64_t> to = broadcast.getType().getShape();
        const AxisInfo &src = in[0];
        AxisInfo result = perDim(src.getRank(), [&](unsigned d) {
          if (from[d] == 1 && to[d] != 1) // D of a size-1 dim divides all.
            return Dim{1, src.getDivisibility(d), to[d]};
          return Dim{src.getContiguity(d), src.getDivisibility(d),
                     src.getConstancy(d)};
        });
        return one(AxisInfo(result.getContiguity(), result.getDivisibility(),
                            result.getConstancy(), src.getConstantValue()));
      })
      .Case([&](tile::ExpandDimsOp expand) {
        const AxisInfo &src = in[0];
        unsigned axis = expand.getAxis();
        DimVector c(src.getContiguity()), d(src.getDivisibility()),
            k(src.getConstancy());
        c.insert(c.begin() + axis, 1);
        d.insert(d.begin() + axis,
                 everyDiv(src, stepOf(expand.getSrc().getType())));
        k.insert(k.begin() + axis, 1);
        return one(AxisInfo(c, d, k, src.getConstantValue()));
      })
      .Case([&](tile::TransOp trans) {
        const AxisInfo &src = in[0];
        DimVector c, d, k;
        for (int32_t from : trans.getOrder()) {
          c.push_back(src.getContiguity(from));
          d.push_back(src.getDivisibility(from));
          k.push_back(src.getConstancy(from));
        }
        return one(AxisInfo(c, d, k, src.getConstantValue()));
      })
      .Case([&](tile::ReshapeOp reshape) {
        const AxisInfo &src = in[0];
        SmallVector<int64_t> from = latticeShape(reshape.getSrc().getType());
        SmallVector<int64_t> to = latticeShape(reshape.getType());
        int64_t all = everyDiv(src, stepOf(reshape.getType()));
        if (isFullyConstant(src, from))
          return one(splatInfo(to, all, src.getConstantValue()));
        // Only dimensions of size 1 added or removed, in order: the other
        // dimensions keep their lattice.
        SmallVector<unsigned> fromDims, toDims;
        for (unsigned i = 0; i < from.size(); ++i)
          if (from[i] != 1)
            fromDims.push_back(i);
        for (unsigned i = 0; i < to.size(); ++i)
          if (to[i] != 1)
            toDims.push_back(i);
        bool sameDims =
            !reshape.getAllowReorder() && fromDims.size() == toDims.size() &&
            llvm::all_of(llvm::seq<size_t>(0, fromDims.size()), [&](size_t i) {
              return from[fromDims[i]] == to[toDims[i]];
            });
        AxisInfo result = AxisInfo::getUnknown(to.size(), all);
        if (!sameDims)
          return one(result);
        DimVector c(result.getContiguity()), d(result.getDivisibility()),
            k(result.getConstancy());
        for (size_t i = 0; i < fromDims.size(); ++i) {
          c[toDims[i]] = src.getContiguity(fromDims[i]);
          d[toDims[i]] = src.getDivisibility(fromDims[i]);
          k[toDims[i]] = src.getConstancy(fromDims[i]);
        }
        return one(AxisInfo(c, d, k));
      })
      .Case([&](tile::JoinOp join) {
        // Along the old dimensions each half keeps its lattice; the new
        // innermost dimension (size 2) interleaves the halves.
        const AxisInfo &l = in[0], &r = in[1];
        int64_t step = stepOf(join.getType());
        DimVector c, d, k;
        for (unsigned i = 0, e = l.getRank(); i < e; ++i) {
          int64_t ci = std::min(l.getContiguity(i), r.getContiguity(i));
          c.push_back(ci);
          d.push_back(std::min(divAt(l, i, ci, step), divAt(r, i, ci, step)));
          k.push_back(std::min(l.getConstancy(i), r.getConstancy(i)));
        }
        c.push_back(1);
        d.push_back(std::min(everyDiv(l, step), everyDiv(r, step)));
        k.push_back(1);
        return one(AxisInfo(c, d, k));
      })
      .Case([&](tile::SplitOp split) {
        const AxisInfo &src = in[0];
        ArrayRef<int64_t> c = src.getContiguity(), d = src.getDivisibility(),
                          k = src.getConstancy();
        if (src.getRank() <= 1) // A tensor<2xT> splits into scalars.
          return SmallVector<AxisInfo>(
              2, AxisInfo::getUnknown(
                     1, everyDiv(src, stepOf(split.getSrc().getType()))));
        AxisInfo half(c.drop_back(), d.drop_back(), k.drop_back());
        return SmallVector<AxisInfo>{half, half};
      })
      .Case([&](tile::AddPtrOp addptr) {
        int64_t bytes = pointeeBytes(addptr.getType());
        return one(addInfo(in[0], in[1], bytes, bytes));
      })
      .Case([&](tile::IntToPtrOp cast) {
        // Consecutive integers are consecutive elements only for bytes.
        int64_t bytes = pointeeBytes(cast.getType());
        if (bytes == 1)
          return one(AxisInfo(in[0].getContiguity(), in[0].getDivisibility(),
                              in[0].getConstancy()));
        return one(perDim(in[0].getRank(), [&](unsigned d) {
          return Dim{1, divAt(in[0], d, 1, 1), in[0].getConstancy(d)};
        }));
      })
      .Case([&](tile::PtrToIntOp cast) {
        int64_t bytes = pointeeBytes(cast.getSrc().getType());
        if (bytes == 1)
          return one(in[0]);
        return one(perDim(in[0].getRank(), [&](unsigned d) {
          return Dim{1, divAt(in[0], d, 1, bytes), in[0].getConstancy(d)};
        }));
      })
      .Case([&](tile::BitcastOp cast) -> SmallVector<AxisInfo> {
        Type from = cast.getSrc().getType(), to = cast.getType();
        if (isPointerLike(from) && isPointerLike(to)) {
          int64_t fromBytes = pointeeBytes(from), toBytes = pointeeBytes(to);
          if (fromBytes == toBytes)
            return one(in[0]);
          return one(perDim(in[0].getRank(), [&](unsigned d) {
            return Dim{1, divAt(in[0], d, 1, fromBytes), in[0].getConstancy(d)};
          }));
        }
        // Integers of the same width: the same numbers.
        if (intWidth(from) && intWidth(from) == intWidth(to))
          return one(in[0]);
        return {};
      })
      .Case([&](tilegpu::ConvertLayoutOp) { return one(in[0]); })
      .Default([](Operation *) { return SmallVector<AxisInfo>(); });
}

//===----------------------------------------------------------------------===//
// The data-flow analysis
//===----------------------------------------------------------------------===//

/// `info` (of a result of `op`, of shape `shape`) with the hints on `op`
/// in place of what was derived.
AxisInfo applyHints(Operation *op, const AxisInfo &info,
                    ArrayRef<int64_t> shape) {
  auto hint = [&](StringRef name) -> std::optional<ArrayRef<int64_t>> {
    auto attr = op->getAttrOfType<DenseI64ArrayAttr>(name);
    if (!attr || attr.size() != int64_t(shape.size()))
      return std::nullopt;
    return attr.asArrayRef();
  };
  auto contiguity = hint(tile::TileDialect::kContiguityAttrName);
  auto divisibility = hint(tile::TileDialect::kDivisibilityAttrName);
  auto constancy = hint(tile::TileDialect::kConstancyAttrName);
  if (!contiguity && !divisibility && !constancy)
    return info;
  DimVector c(info.getContiguity()), d(info.getDivisibility()),
      k(info.getConstancy());
  for (size_t i = 0; i < shape.size(); ++i) {
    if (contiguity)
      c[i] = floorPow2(std::min((*contiguity)[i], shape[i]));
    if (divisibility && (*divisibility)[i] > 0)
      d[i] = pow2Divisor((*divisibility)[i]);
    if (constancy)
      k[i] = floorPow2(std::min((*constancy)[i], shape[i]));
  }
  return AxisInfo(c, d, k, info.getConstantValue());
}

class AxisInfoLattice : public dataflow::Lattice<AxisInfo> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(AxisInfoLattice)
  using Lattice::Lattice;
};

class AxisInfoAnalysis
    : public dataflow::SparseForwardDataFlowAnalysis<AxisInfoLattice> {
public:
  using SparseForwardDataFlowAnalysis::SparseForwardDataFlowAnalysis;

  LogicalResult visitOperation(Operation *op,
                               ArrayRef<const AxisInfoLattice *> operands,
                               ArrayRef<AxisInfoLattice *> results) override {
    SmallVector<AxisInfo> in;
    for (const AxisInfoLattice *operand : operands) {
      // Wait until every operand is known (loop-carried values start out
      // uninitialized; the op is visited again when they change).
      if (!operand->getValue().isInitialized())
        return success();
      in.push_back(operand->getValue());
    }
    SmallVector<AxisInfo> out = transfer(op, in);
    for (auto [i, result] : llvm::enumerate(results)) {
      Type type = op->getResult(i).getType();
      AxisInfo info = i < out.size() ? out[i] : AxisInfo();
      if (!info.isInitialized() || info.getRank() != latticeShape(type).size())
        info = unknownInfo(type);
      info = applyHints(op, info, latticeShape(type));
      propagateIfChanged(result, result->join(info));
    }
    return success();
  }

  void setToEntryState(AxisInfoLattice *lattice) override {
    Value value = lattice->getAnchor();
    Type type = value.getType();
    AxisInfo info = unknownInfo(type);
    // Kernel arguments: `tile.divisibility = N` from the frontend's
    // specialization (bytes for pointers).
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      Block *block = arg.getOwner();
      auto function =
          dyn_cast_or_null<FunctionOpInterface>(block->getParentOp());
      if (function && block->isEntryBlock() &&
          arg.getArgNumber() < function.getNumArguments()) {
        if (auto attr = function.getArgAttrOfType<IntegerAttr>(
                arg.getArgNumber(), tile::TileDialect::kDivisibilityAttrName)) {
          int64_t n = attr.getValue().getSExtValue();
          if (n > 0) {
            int64_t div = pow2Divisor(n);
            if (isPointerLike(type))
              div = std::max(div, pointeeBytes(type));
            info = AxisInfo::getUnknown(latticeShape(type).size(), div);
          }
        }
      }
    }
    propagateIfChanged(lattice, lattice->join(info));
  }

  void visitNonControlFlowArguments(Operation *op,
                                    const RegionSuccessor &successor,
                                    ArrayRef<AxisInfoLattice *> argLattices,
                                    unsigned firstIndex) override {
    // The induction variable of scf.for is lb + i * step: divisible by
    // whatever divides both. (firstIndex, where the iter_args start, is 0
    // for a loop without iter_args: the induction variable is still the
    // first block argument.)
    auto forOp = dyn_cast<scf::ForOp>(op);
    if (forOp && successor.getSuccessor() == &forOp.getRegion() &&
        !argLattices.empty()) {
      ProgramPoint *point = getProgramPointBefore(&forOp.getRegion().front());
      const AxisInfoLattice *lb =
          getLatticeElementFor(point, forOp.getLowerBound());
      const AxisInfoLattice *step =
          getLatticeElementFor(point, forOp.getStep());
      if (!lb->getValue().isInitialized() || !step->getValue().isInitialized())
        return;
      int64_t div =
          std::min(everyDiv(lb->getValue(), 1), everyDiv(step->getValue(), 1));
      AxisInfoLattice *iv = argLattices.front();
      propagateIfChanged(iv, iv->join(AxisInfo::getUnknown(1, div)));
      return;
    }
    SparseForwardDataFlowAnalysis::visitNonControlFlowArguments(
        op, successor, argLattices, firstIndex);
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

void mlir::terrazzo::loadAxisInfoAnalysis(DataFlowSolver &solver) {
  solver.load<AxisInfoAnalysis>();
}

const AxisInfo *mlir::terrazzo::lookupAxisInfo(const DataFlowSolver &solver,
                                               Value value) {
  const auto *lattice = solver.lookupState<AxisInfoLattice>(value);
  if (!lattice || !lattice->getValue().isInitialized())
    return nullptr;
  return &lattice->getValue();
}

ModuleAxisInfoAnalysis::ModuleAxisInfoAnalysis(Operation *root) {
  DataFlowSolver solver;
  // The sparse framework needs liveness (which needs constants for branch
  // conditions) to decide which blocks and edges to follow.
  solver.load<dataflow::DeadCodeAnalysis>();
  solver.load<dataflow::SparseConstantPropagation>();
  loadAxisInfoAnalysis(solver);
  if (failed(solver.initializeAndRun(root)))
    return;
  auto record = [&](Value value) {
    if (const AxisInfo *info = lookupAxisInfo(solver, value))
      infos.try_emplace(value, *info);
  };
  root->walk([&](Operation *op) {
    for (Value result : op->getResults())
      record(result);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Value arg : block.getArguments())
          record(arg);
  });
}

const AxisInfo *ModuleAxisInfoAnalysis::getAxisInfo(Value value) const {
  auto it = infos.find(value);
  return it == infos.end() ? nullptr : &it->second;
}

unsigned ModuleAxisInfoAnalysis::getContiguity(Value ptrOrInt,
                                               unsigned dim) const {
  const AxisInfo *info = getAxisInfo(ptrOrInt);
  if (!info || dim >= info->getRank())
    return 1;
  return info->getContiguity(dim);
}

unsigned ModuleAxisInfoAnalysis::getPtrContiguity(Value ptr) const {
  const AxisInfo *info = getAxisInfo(ptr);
  if (!info)
    return 1;
  return info->getContiguity(info->getRank() - 1);
}

unsigned ModuleAxisInfoAnalysis::getPtrAlignmentBytes(Value ptr) const {
  const AxisInfo *info = getAxisInfo(ptr);
  if (!info)
    return pointeeBytes(ptr.getType());
  return info->getDivisibility(info->getRank() - 1);
}

unsigned ModuleAxisInfoAnalysis::getMaskConstancy(Value mask) const {
  const AxisInfo *info = getAxisInfo(mask);
  if (!info)
    return 1;
  return info->getConstancy(info->getRank() - 1);
}
