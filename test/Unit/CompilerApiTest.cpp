// The public compiler API, used exactly as a client outside the build would:
// only <terrazzo/Compiler.h> and the core library.
#include "terrazzo/Compiler.h"

#include <gtest/gtest.h>

#include <string>

namespace {

const char *kCopyKernel = R"(
func.func private @offset(%p: tensor<64x!tile.ptr<f32>>) -> tensor<64x!tile.ptr<f32>> {
  %zero = arith.constant dense<0> : tensor<64xi32>
  %q = tile.addptr %p, %zero : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  return %q : tensor<64x!tile.ptr<f32>>
}
func.func @copy(%src: !tile.ptr<f32>, %dst: !tile.ptr<f32>) {
  %range = tile.make_range 0 to 64 : tensor<64xi32>
  %s = tile.splat %src : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %s0 = func.call @offset(%s) : (tensor<64x!tile.ptr<f32>>) -> tensor<64x!tile.ptr<f32>>
  %ps = tile.addptr %s0, %range : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %v = tile.load %ps : tensor<64x!tile.ptr<f32>>
  %d = tile.splat %dst : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %pd = tile.addptr %d, %range : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  tile.store %pd, %v : tensor<64x!tile.ptr<f32>>
  return
}
)";

size_t count(const std::string &text, const std::string &needle) {
  size_t n = 0;
  for (size_t pos = text.find(needle); pos != std::string::npos;
       pos = text.find(needle, pos + 1))
    ++n;
  return n;
}

TEST(CompilerApi, OptimizesAValidKernel) {
  terrazzo::CompileResult result =
      terrazzo::compileTileIR(kCopyKernel, "copy.mlir");
  ASSERT_TRUE(result.success) << result.formatDiagnostics();
  EXPECT_TRUE(result.diagnostics.empty());
  // The helper was inlined and removed, and its addptr by zero folded away.
  EXPECT_EQ(count(result.output, "func.func"), 1u) << result.output;
  EXPECT_EQ(count(result.output, "tile.addptr"), 2u) << result.output;
  EXPECT_EQ(count(result.output, "tile.load"), 1u);
  EXPECT_EQ(count(result.output, "tile.store"), 1u);
}

TEST(CompilerApi, ParseOnlyKeepsTheModuleAsWritten) {
  terrazzo::CompileOptions options;
  options.optimize = false;
  terrazzo::CompileResult result =
      terrazzo::compileTileIR(kCopyKernel, "copy.mlir", options);
  ASSERT_TRUE(result.success) << result.formatDiagnostics();
  EXPECT_EQ(count(result.output, "func.func"), 2u);
  EXPECT_EQ(count(result.output, "tile.addptr"), 3u);
}

TEST(CompilerApi, VerifierErrorHasFileLineAndColumn) {
  const char *source = "func.func @k() {\n"
                       "  %r = tile.make_range 0 to 100 : tensor<100xi32>\n"
                       "  return\n"
                       "}\n";
  terrazzo::CompileResult result = terrazzo::compileTileIR(source, "bad.mlir");
  EXPECT_FALSE(result.success);
  ASSERT_EQ(result.diagnostics.size(), 1u) << result.formatDiagnostics();
  const terrazzo::Diagnostic &diag = result.diagnostics.front();
  EXPECT_EQ(diag.severity, terrazzo::Diagnostic::Severity::Error);
  EXPECT_EQ(diag.file, "bad.mlir");
  EXPECT_EQ(diag.line, 2u);
  EXPECT_EQ(diag.column, 8u);
  EXPECT_NE(diag.message.find("must be a power of two"), std::string::npos)
      << diag.message;
  EXPECT_EQ(diag.str().rfind("bad.mlir:2:8: error: ", 0), 0u) << diag.str();
}

TEST(CompilerApi, SyntaxErrorIsADiagnosticNotACrash) {
  terrazzo::CompileResult result =
      terrazzo::compileTileIR("func.func @k( {", "syntax.mlir");
  EXPECT_FALSE(result.success);
  ASSERT_FALSE(result.diagnostics.empty());
  EXPECT_EQ(result.diagnostics.front().file, "syntax.mlir");
  EXPECT_EQ(result.diagnostics.front().line, 1u);
  EXPECT_TRUE(result.output.empty());
}

TEST(CompilerApi, UserSourceLocationsReachDiagnostics) {
  // The Python frontend tags every op with the kernel's file and line; a
  // verifier error must point there, not at the IR text.
  const char *source =
      "func.func @k(%x: tensor<4x8xf32>) {\n"
      "  %t = tile.trans %x [0, 0] : tensor<4x8xf32> -> tensor<8x4xf32> "
      "loc(\"kernel.py\":12:9)\n"
      "  return\n"
      "}\n";
  terrazzo::CompileResult result = terrazzo::compileTileIR(source, "ir.mlir");
  EXPECT_FALSE(result.success);
  ASSERT_EQ(result.diagnostics.size(), 1u) << result.formatDiagnostics();
  EXPECT_EQ(result.diagnostics[0].file, "kernel.py");
  EXPECT_EQ(result.diagnostics[0].line, 12u);
  EXPECT_EQ(result.diagnostics[0].column, 9u);
}

TEST(CompilerApi, CompilationsAreIndependent) {
  // A failed compilation leaves nothing behind for the next one.
  EXPECT_FALSE(terrazzo::compileTileIR("garbage", "a.mlir").success);
  terrazzo::CompileResult result =
      terrazzo::compileTileIR(kCopyKernel, "copy.mlir");
  EXPECT_TRUE(result.success);
  EXPECT_TRUE(result.diagnostics.empty());
}

TEST(CompilerApi, VersionNamesLLVM) {
  std::string version = terrazzo::version();
  EXPECT_EQ(version.rfind("terrazzo ", 0), 0u) << version;
  EXPECT_NE(version.find("LLVM 22"), std::string::npos) << version;
}

} // namespace
