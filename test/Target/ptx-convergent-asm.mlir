// The lowerings write warp- and block-collective PTX (bar.sync and
// bar.arrive with a thread count, wgmma, setmaxnreg, stmatrix) as inline
// assembly; the code generator marks every inline assembly call convergent,
// so LLVM does not duplicate one into the arms of a branch that threads
// take differently. The shape below is a warp-specialized program's
// consumers around a copy only thread 0 issues: thread 0 sets up, everyone
// passes the consumers' barrier, thread 0 goes on. Without the mark, jump
// threading merged the two thread-0 regions and put a copy of the barrier
// in each arm (warp 0 then arrived twice, at two instructions, and the
// barrier completed a warp early: a hang on the H100).
// REQUIRES: ptxas
// RUN: terrazzo-compile %s --target=cuda:90 --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// One barrier, after thread 0's first region, on the path of every thread:
// CHECK-LABEL: .entry consumers_barrier(
// CHECK-NOT: bar.sync
// CHECK: membar.cta;
// CHECK: bar.sync 0, 256;
// CHECK-NOT: bar.sync
// CHECK: ret;

module attributes {"tilegpu.num-warps" = 8 : i32} {
  func.func public @consumers_barrier() {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %first = llvm.icmp "eq" %tid, %c0 : i32
    cf.cond_br %first, ^setup, ^join
  ^setup:
    llvm.inline_asm has_side_effects "membar.cta;", "" : () -> ()
    cf.br ^join
  ^join:
    llvm.inline_asm has_side_effects "bar.sync 0, 256;", "" : () -> ()
    cf.cond_br %first, ^issue, ^end
  ^issue:
    llvm.inline_asm has_side_effects "membar.gl;", "" : () -> ()
    cf.br ^end
  ^end:
    return
  }
}
