// Inputs that crash MLIR's own parser, found in the text before it parses:
// terrazzo-opt and the core library (terrazzo-compile, the Python extension)
// reject them with a located error instead (DESIGN.md §7).
//
// The one known: a dense array of `index` (`array<index: 1, 2>`):
// parseDenseArrayAttr asks `index` for its bit width, which it has not, and
// dereferences nothing (SIGSEGV in a release build of LLVM 22).
#ifndef TERRAZZO_LIB_PARSERGUARD_H
#define TERRAZZO_LIB_PARSERGUARD_H

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <optional>
#include <string>

namespace terrazzo {

struct ParserHazard {
  /// Where in the text (a byte offset).
  std::size_t offset;
  /// What to report there.
  std::string message;
};

/// The first construct of `text` (outside string literals and comments) that
/// MLIR's parser would crash on, if any.
std::optional<ParserHazard> findParserHazard(llvm::StringRef text);

} // namespace terrazzo

#endif // TERRAZZO_LIB_PARSERGUARD_H
