// #tilegpu.linear: syntax, verifier and the layout interface.
#include "dialects/TileGPU/IR/LayoutVerification.h"
#include "dialects/TileGPU/IR/LinearLayoutConversion.h"
#include "dialects/TileGPU/IR/TileGPU.h"
#include "dialects/TileGPU/Layout/NamedLayouts.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::tilegpu;

namespace {

/// The input dimensions of the attribute, in syntax and storage order.
constexpr const char *kInDims[] = {"register", "lane", "warp", "block"};

/// Largest number of bases of one input dimension (as LinearLayout allows).
constexpr size_t kMaxBases = ::terrazzo::LinearLayout::kMaxDimBits;

ArrayRef<int32_t> flatBases(LinearLayoutAttr attr, unsigned index) {
  switch (index) {
  case 0:
    return attr.getRegisterBases();
  case 1:
    return attr.getLaneBases();
  case 2:
    return attr.getWarpBases();
  default:
    return attr.getBlockBases();
  }
}

/// `[[0, 1], [2, 0]]`: a list of bases, each a list of coordinates.
ParseResult parseBases(AsmParser &parser,
                       SmallVectorImpl<SmallVector<int32_t>> &bases) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        SmallVector<int32_t> &basis = bases.emplace_back();
        return parser.parseCommaSeparatedList(
            AsmParser::Delimiter::Square, [&]() -> ParseResult {
              SMLoc loc = parser.getCurrentLocation();
              int64_t value;
              if (parser.parseInteger(value))
                return failure();
              if (value < 0 || value > std::numeric_limits<int32_t>::max())
                return parser.emitError(loc, "expected a coordinate in "
                                             "[0, 2^31), got ")
                       << value;
              basis.push_back(value);
              return success();
            });
      });
}

} // namespace

Attribute LinearLayoutAttr::parse(AsmParser &parser, Type) {
  SMLoc start = parser.getCurrentLocation();
  SmallVector<SmallVector<int32_t>> bases[4];
  bool seen[4] = {false, false, false, false};
  if (parser.parseLess() || parser.parseLBrace())
    return {};
  auto parseEntry = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key))
      return failure();
    unsigned index = 0;
    while (index < 4 && key != kInDims[index])
      ++index;
    if (index == 4)
      return parser.emitError(loc, "expected 'register', 'lane', 'warp' or "
                                   "'block', got '")
             << key << "'";
    if (seen[index])
      return parser.emitError(loc, "'") << key << "' appears twice";
    seen[index] = true;
    return failure(parser.parseEqual() || parseBases(parser, bases[index]));
  };
  if (parser.parseCommaSeparatedList(parseEntry) || parser.parseRBrace() ||
      parser.parseGreater())
    return {};
  for (unsigned index = 0; index < 3; ++index)
    if (!seen[index]) {
      parser.emitError(start, "linear layout is missing '")
          << kInDims[index] << "' (block may be left out)";
      return {};
    }

  std::optional<size_t> rank;
  for (auto &list : bases)
    for (auto &basis : list) {
      if (!rank)
        rank = basis.size();
      if (basis.size() != *rank) {
        parser.emitError(start, "every basis must have the same number of "
                                "coordinates (the tensor rank), got ")
            << *rank << " and " << basis.size();
        return {};
      }
    }
  if (!rank) {
    parser.emitError(start, "linear layout needs at least one basis");
    return {};
  }
  SmallVector<int32_t> flat[4];
  for (unsigned index = 0; index < 4; ++index)
    for (auto &basis : bases[index])
      flat[index].append(basis.begin(), basis.end());
  return parser.getChecked<LinearLayoutAttr>(
      parser.getContext(), unsigned(*rank), ArrayRef<int32_t>(flat[0]),
      ArrayRef<int32_t>(flat[1]), ArrayRef<int32_t>(flat[2]),
      ArrayRef<int32_t>(flat[3]));
}

void LinearLayoutAttr::print(AsmPrinter &printer) const {
  unsigned rank = getRank();
  printer << "<{";
  for (unsigned index = 0; index < 4; ++index) {
    if (index)
      printer << ", ";
    printer << kInDims[index] << " = [";
    ArrayRef<int32_t> flat = flatBases(*this, index);
    for (size_t i = 0; i < flat.size(); i += rank) {
      if (i)
        printer << ", ";
      printer << '[';
      llvm::interleaveComma(flat.slice(i, rank), printer);
      printer << ']';
    }
    printer << ']';
  }
  printer << "}>";
}

LogicalResult
LinearLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         unsigned rank, ArrayRef<int32_t> registerBases,
                         ArrayRef<int32_t> laneBases,
                         ArrayRef<int32_t> warpBases,
                         ArrayRef<int32_t> blockBases) {
  if (rank == 0)
    return emitError() << "linear layout needs at least one dimension";
  ArrayRef<int32_t> all[] = {registerBases, laneBases, warpBases, blockBases};
  for (unsigned index = 0; index < 4; ++index) {
    if (all[index].size() % rank)
      return emitError() << kInDims[index] << " bases do not have " << rank
                         << " coordinates each";
    if (all[index].size() / rank > kMaxBases)
      return emitError() << "at most " << kMaxBases << " " << kInDims[index]
                         << " bases are allowed";
    for (int32_t coordinate : all[index])
      if (coordinate < 0)
        return emitError() << "basis coordinates must not be negative, got "
                           << coordinate;
  }
  return success();
}

unsigned LinearLayoutAttr::getRank() const { return getTensorRank(); }

unsigned LinearLayoutAttr::getNumWarps() const {
  return 1u << (getWarpBases().size() / getRank());
}

unsigned LinearLayoutAttr::getWarpSize() const {
  return 1u << (getLaneBases().size() / getRank());
}

LogicalResult LinearLayoutAttr::verifyTensorShape(
    ArrayRef<int64_t> shape,
    function_ref<InFlightDiagnostic()> emitError) const {
  unsigned rank = getRank();
  if (shape.size() != rank)
    return emitError() << "layout of rank " << rank
                       << " does not fit a tensor of rank " << shape.size();
  for (int64_t size : shape)
    if (size <= 0 || !llvm::isPowerOf2_64(size))
      return emitError() << "a linear layout needs power-of-two sizes, got "
                         << size;
  for (unsigned index = 0; index < 4; ++index) {
    ArrayRef<int32_t> flat = flatBases(*this, index);
    for (size_t i = 0; i < flat.size(); ++i)
      if (flat[i] >= shape[i % rank])
        return emitError() << kInDims[index] << " basis " << i / rank
                           << " has coordinate " << flat[i]
                           << " along dimension " << i % rank
                           << ", beyond its size " << shape[i % rank];
  }
  std::string error;
  std::optional<::terrazzo::LinearLayout> layout =
      toLinearLayout(shape, *this, &error);
  if (!layout)
    return emitError() << "invalid linear layout for the shape: " << error;
  if (!layout->isSurjective())
    return emitError() << "linear layout does not hold every element of a "
                          "tensor of this shape";
  return verifyBlockSize(shape, emitError);
}

LogicalResult LinearLayoutAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyTensorShape(shape, emitError);
}

std::optional<::terrazzo::LinearLayout>
mlir::tilegpu::linearAttrToLinearLayout(LinearLayoutAttr attr,
                                        ArrayRef<int64_t> shape,
                                        std::string *error) {
  unsigned rank = attr.getRank();
  if (shape.size() != rank) {
    if (error)
      *error = "layout of rank " + std::to_string(rank) +
               " does not fit a tensor of rank " + std::to_string(shape.size());
    return std::nullopt;
  }
  if (std::string reason = ::terrazzo::checkTensorShape(shape);
      !reason.empty()) {
    if (error)
      *error = std::move(reason);
    return std::nullopt;
  }
  ::terrazzo::LinearLayout::DimsT outDims;
  for (unsigned d = 0; d < rank; ++d)
    outDims.emplace_back(::terrazzo::tensorDimName(d), int32_t(shape[d]));
  ::terrazzo::LinearLayout::BasesT bases;
  for (unsigned index = 0; index < 4; ++index) {
    ArrayRef<int32_t> flat = flatBases(attr, index);
    std::vector<::terrazzo::LinearLayout::Basis> list;
    for (size_t i = 0; i < flat.size(); i += rank) {
      ::terrazzo::LinearLayout::Basis basis;
      bool wasZero = true, isZero = true;
      for (unsigned d = 0; d < rank; ++d) {
        // Coordinates wrap around dimensions smaller than the layout's
        // (the parent of a slice sees the sliced dimension with size 1).
        int32_t coordinate = flat[i + d] & int32_t(shape[d] - 1);
        wasZero &= flat[i + d] == 0;
        isZero &= coordinate == 0;
        basis.push_back(coordinate);
      }
      if (index == 0 && isZero && !wasZero)
        continue;
      list.push_back(std::move(basis));
    }
    bases.emplace_back(kInDims[index], std::move(list));
  }
  return ::terrazzo::LinearLayout::tryCreate(std::move(bases),
                                             std::move(outDims), error);
}

Attribute mlir::tilegpu::getLinearLayoutAttr(
    MLIRContext *context, const ::terrazzo::LinearLayout &layout) {
  unsigned rank = layout.getNumOutDims();
  if (rank == 0)
    return {};
  SmallVector<int32_t> flat[4];
  for (const auto &[name, list] : layout.getBases()) {
    unsigned index = 0;
    while (index < 4 && name != kInDims[index])
      ++index;
    if (index == 4)
      return {};
    for (const auto &basis : list)
      flat[index].append(basis.begin(), basis.end());
  }
  return LinearLayoutAttr::get(
      context, rank, ArrayRef<int32_t>(flat[0]), ArrayRef<int32_t>(flat[1]),
      ArrayRef<int32_t>(flat[2]), ArrayRef<int32_t>(flat[3]));
}
