#include "lib/ParserGuard.h"

#include "llvm/ADT/StringExtras.h"

namespace terrazzo {
namespace {

bool isIdentifierChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '.' || c == '$' || c == '-';
}

std::size_t skipSpaces(llvm::StringRef text, std::size_t i) {
  while (i < text.size() && llvm::isSpace(text[i]))
    ++i;
  return i;
}

/// Whether `array<index` (spaces allowed around `<`, `index` a whole word)
/// starts at `i`.
bool isIndexDenseArray(llvm::StringRef text, std::size_t i) {
  if (!text.substr(i).starts_with("array") ||
      (i > 0 && isIdentifierChar(text[i - 1])))
    return false;
  std::size_t j = skipSpaces(text, i + 5);
  if (j >= text.size() || text[j] != '<')
    return false;
  j = skipSpaces(text, j + 1);
  if (!text.substr(j).starts_with("index"))
    return false;
  j += 5;
  return j >= text.size() || !isIdentifierChar(text[j]);
}

} // namespace

std::optional<ParserHazard> findParserHazard(llvm::StringRef text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"') { // a string literal: up to the unescaped closing quote
      for (++i; i < text.size() && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\')
          ++i;
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      i = text.find('\n', i);
      if (i == llvm::StringRef::npos)
        break;
      continue;
    }
    if (c == 'a' && isIndexDenseArray(text, i))
      return ParserHazard{
          i, "dense arrays of 'index' are not supported (MLIR's parser "
             "crashes on them): use array<i64: ...>"};
  }
  return std::nullopt;
}

} // namespace terrazzo
