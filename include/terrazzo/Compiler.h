// Terrazzo's public compiler API (DESIGN.md §7).
//
// This header is all a client (the Python extension, another language's
// bindings, a build of the core on another machine) needs: it includes no
// LLVM or MLIR header, so the core library can link LLVM/MLIR statically
// with hidden symbols and still be used from code built elsewhere.
#ifndef TERRAZZO_COMPILER_H
#define TERRAZZO_COMPILER_H

#include <string>
#include <string_view>
#include <vector>

#define TERRAZZO_API __attribute__((visibility("default")))

namespace terrazzo {

/// One message from the compiler, with the source position it points at
/// (`line` and `column` are 1-based; 0 when the message has no position).
struct Diagnostic {
  enum class Severity { Error, Warning, Note, Remark };
  Severity severity = Severity::Error;
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
  std::string message;

  /// "file:line:col: error: message", the form compilers print.
  TERRAZZO_API std::string str() const;
};

struct CompileOptions {
  /// Run the tile-level pipeline (inline, canonicalize, combine, CSE, symbol
  /// DCE) after parsing and verifying; otherwise only parse and verify.
  bool optimize = true;
};

struct CompileResult {
  bool success = false;
  /// The module's text after the last stage that ran.
  std::string output;
  std::vector<Diagnostic> diagnostics;

  /// All diagnostics, one per line, in the order they were reported.
  TERRAZZO_API std::string formatDiagnostics() const;
};

/// Parses tile IR from `source` (named `sourceName` in diagnostics), verifies
/// it and runs the stages selected by `options`. Never throws or aborts on bad
/// input: failures come back as `success == false` with diagnostics.
TERRAZZO_API CompileResult compileTileIR(std::string_view source,
                                         std::string_view sourceName,
                                         const CompileOptions &options = {});

/// The compiler's version, including the LLVM it was built with; part of
/// every cache key.
TERRAZZO_API const char *version();

} // namespace terrazzo

#endif // TERRAZZO_COMPILER_H
