// RUN: terrazzo-opt %s -split-input-file --terrazzo-allocate-shared-memory --convert-scf-to-cf --terrazzo-convert-tilegpu-to-llvm | FileCheck %s

// tilegpu.max-registers (Triton's maxnreg) becomes the kernel's .maxnreg.
// CHECK-LABEL: llvm.func @capped
// CHECK-SAME: nvvm.maxnreg = 128 : i32
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.max-registers" = 128 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @capped() {
    return
  }
}

// -----

// Without it, the code generator's choice: no .maxnreg.
// CHECK-LABEL: llvm.func @uncapped
// CHECK-NOT: nvvm.maxnreg
// CHECK: llvm.return
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @uncapped() {
    return
  }
}

// -----

// A warp-specialized kernel of 4 + 4 warps under the cap launches with 128
// registers per thread (two programs per SM), not the even split's 248;
// the producer gives up 88 per thread, which the consumers take (216).
// CHECK-LABEL: llvm.func @split_capped
// CHECK-SAME: nvvm.maxnreg = 128 : i32, nvvm.maxntid = array<i32: 256, 1, 1>
// CHECK: nvvm.setmaxregister increase 216
// CHECK: nvvm.setmaxregister decrease 40
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.total-num-warps" = 8 : i32, "tilegpu.max-registers" = 128 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @split_capped() {
    tilegpu.warp_specialize producer_warps = 4 registers = 40, 216 {
      tilegpu.partition_end
    } producer {
      tilegpu.partition_end
    }
    return
  }
}
