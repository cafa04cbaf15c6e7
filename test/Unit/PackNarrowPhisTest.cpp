// Unit tests of backends/common/PackNarrowPhis.h on LLVM IR: the phis of a
// 32-bit vector's lanes become one phi of the vector, and what does not
// come from one vector lane by lane on every edge is left alone.
#include "backends/common/PackNarrowPhis.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace {

struct Rewritten {
  bool changed = false;
  unsigned narrowPhis = 0;
  unsigned vectorPhis = 0;
  std::string text;
};

/// `body` as the function @f of a module, after packNarrowPhis; the
/// module must verify before and after.
Rewritten rewrite(const std::string &body) {
  llvm::LLVMContext context;
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> module =
      llvm::parseAssemblyString(body, error, context);
  if (!module) {
    std::string message;
    llvm::raw_string_ostream os(message);
    error.print("test", os);
    ADD_FAILURE() << message;
    return {};
  }
  EXPECT_FALSE(llvm::verifyModule(*module, &llvm::errs()));
  llvm::Function &function = *module->getFunction("f");
  Rewritten result;
  result.changed = mlir::terrazzo::packNarrowPhis(function);
  EXPECT_FALSE(llvm::verifyModule(*module, &llvm::errs()));
  for (llvm::BasicBlock &block : function)
    for (llvm::PHINode &phi : block.phis()) {
      if (phi.getType()->isVectorTy())
        ++result.vectorPhis;
      else if (phi.getType()->getScalarSizeInBits() < 32)
        ++result.narrowPhis;
    }
  llvm::raw_string_ostream os(result.text);
  function.print(os);
  return result;
}

/// A function `signature` (with an i32 %n) of a loop from 0 to %n around
/// `loop` (after the counter's phi %i), `entry` before it, `exit` after.
std::string loopFunction(const std::string &prelude,
                         const std::string &signature, const std::string &entry,
                         const std::string &loop, const std::string &exit) {
  return prelude + "define " + signature + " {\nentry:\n" + entry +
         "  br label %loop\nloop:\n"
         "  %i = phi i32 [ 0, %entry ], [ %next, %loop ]\n" +
         loop +
         "  %next = add i32 %i, 1\n"
         "  %more = icmp slt i32 %next, %n\n"
         "  br i1 %more, label %loop, label %exit\nexit:\n" +
         exit + "}\n";
}

/// A loop whose two half phis take lanes `entry0`/`entry1` on entry and
/// `back0`/`back1` on the back edge (each an operand text).
std::string halfLoop(const std::string &entry0, const std::string &entry1,
                     const std::string &back0, const std::string &back1) {
  return loopFunction(
      "declare <2 x half> @llvm.nvvm.ff2f16x2.rn(float, float)\n",
      "i32 @f(float %x, float %y, half %h, i32 %n)",
      R"(  %v0 = call <2 x half> @llvm.nvvm.ff2f16x2.rn(float %x, float %y)
  %w0 = call <2 x half> @llvm.nvvm.ff2f16x2.rn(float %y, float %x)
  %a0 = extractelement <2 x half> %v0, i64 0
  %b0 = extractelement <2 x half> %v0, i64 1
  %c0 = extractelement <2 x half> %w0, i64 1
)",
      "  %p0 = phi half [ " + entry0 + ", %entry ], [ " + back0 +
          ", %loop ]\n  %p1 = phi half [ " + entry1 + ", %entry ], [ " + back1 +
          R"(, %loop ]
  %u0 = insertelement <2 x half> poison, half %p0, i64 0
  %u1 = insertelement <2 x half> %u0, half %p1, i64 1
  %bits = bitcast <2 x half> %u1 to i32
  %f = sitofp i32 %bits to float
  %v = call <2 x half> @llvm.nvvm.ff2f16x2.rn(float %f, float %x)
  %w = call <2 x half> @llvm.nvvm.ff2f16x2.rn(float %x, float %f)
  %a = extractelement <2 x half> %v, i64 0
  %b = extractelement <2 x half> %v, i64 1
  %c = extractelement <2 x half> %w, i64 1
)",
      "  ret i32 %bits\n");
}

/// `result` has one phi of a vector, `phi` (its text), and no narrow one.
void expectJoined(const Rewritten &result, const std::string &phi) {
  EXPECT_TRUE(result.changed);
  EXPECT_EQ(result.narrowPhis, 0u);
  EXPECT_EQ(result.vectorPhis, 1u);
  EXPECT_NE(result.text.find(phi), std::string::npos) << result.text;
}

/// `result` is its input, with its two narrow phis.
void expectKept(const Rewritten &result) {
  EXPECT_FALSE(result.changed);
  EXPECT_EQ(result.narrowPhis, 2u);
  EXPECT_EQ(result.vectorPhis, 0u);
}

TEST(PackNarrowPhis, JoinsTheLanesOfOneVectorOnEveryEdge) {
  Rewritten result = rewrite(halfLoop("%a0", "%b0", "%a", "%b"));
  expectJoined(result, "phi <2 x half> [ %v0, %entry ], [ %v, %loop ]");
}

TEST(PackNarrowPhis, JoinsConstantsOnAnEdge) {
  Rewritten result = rewrite(halfLoop("0xH3C00", "0xH0000", "%a", "%b"));
  expectJoined(result,
               "phi <2 x half> [ <half 0xH3C00, half 0xH0000>, %entry ]");
}

TEST(PackNarrowPhis, KeepsLanesOfTwoVectors) {
  // On the back edge lane 1 comes from another vector than lane 0.
  Rewritten result = rewrite(halfLoop("%a0", "%b0", "%a", "%c"));
  expectKept(result);
  // The same on entry.
  result = rewrite(halfLoop("%a0", "%c0", "%a", "%b"));
  expectKept(result);
}

TEST(PackNarrowPhis, KeepsLanesThatMoveBetweenEdges) {
  // Lane 0 on entry feeds the phi that takes lane 1 on the back edge.
  Rewritten result = rewrite(halfLoop("%b0", "%a0", "%a", "%b"));
  expectKept(result);
}

TEST(PackNarrowPhis, KeepsAnEdgeOfOtherValues) {
  // A function argument on entry: no vector holds it.
  Rewritten result = rewrite(halfLoop("%h", "%b0", "%a", "%b"));
  expectKept(result);
}

TEST(PackNarrowPhis, JoinsFourBytes) {
  Rewritten result =
      rewrite(loopFunction("", "i32 @f(<4 x i8> %init, <4 x i8> %step, i32 %n)",
                           R"(  %a0 = extractelement <4 x i8> %init, i64 0
  %a1 = extractelement <4 x i8> %init, i64 1
  %a2 = extractelement <4 x i8> %init, i64 2
  %a3 = extractelement <4 x i8> %init, i64 3
)",
                           R"(  %p3 = phi i8 [ %a3, %entry ], [ %b3, %loop ]
  %p1 = phi i8 [ %a1, %entry ], [ %b1, %loop ]
  %p0 = phi i8 [ %a0, %entry ], [ %b0, %loop ]
  %p2 = phi i8 [ %a2, %entry ], [ %b2, %loop ]
  %s = add i8 %p0, %p3
  %t = add i8 %s, %p1
  %u = add i8 %t, %p2
  %v = insertelement <4 x i8> %step, i8 %u, i64 2
  %b0 = extractelement <4 x i8> %v, i64 0
  %b1 = extractelement <4 x i8> %v, i64 1
  %b2 = extractelement <4 x i8> %v, i64 2
  %b3 = extractelement <4 x i8> %v, i64 3
)",
                           "  %r = zext i8 %u to i32\n  ret i32 %r\n"));
  expectJoined(result, "phi <4 x i8> [ %init, %entry ], [ %v, %loop ]");
}

TEST(PackNarrowPhis, KeepsVectorsWiderThanARegister) {
  // Four halves (64 bits) are not one register's lanes.
  Rewritten result =
      rewrite(loopFunction("", "half @f(<4 x half> %init, i32 %n)",
                           R"(  %a0 = extractelement <4 x half> %init, i64 0
  %a1 = extractelement <4 x half> %init, i64 1
)",
                           R"(  %p0 = phi half [ %a0, %entry ], [ %a0, %loop ]
  %p1 = phi half [ %a1, %entry ], [ %a1, %loop ]
)",
                           "  %r = fadd half %p0, %p1\n  ret half %r\n"));
  expectKept(result);
}

} // namespace
