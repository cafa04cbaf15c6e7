// RUN: terrazzo-opt %s -split-input-file --terrazzo-allocate-shared-memory --terrazzo-insert-barriers --convert-scf-to-cf --terrazzo-convert-tilegpu-to-llvm | FileCheck %s

// wgmma with A in registers. The conversion of a float16 accumulator-
// layout tensor to the register-A layout of the same wgmma layout only
// relabels registers (no shared memory, no shuffles, no scratch); the
// float16 pairs are packed into 32-bit registers before wgmma.fence (so
// that ptxas need not fence again before each instruction), and each
// wgmma.mma_async takes four of them in place of A's descriptor, with
// B's transpose immediate alone (V is MN-major here). 64 x 64 x 64: one
// 64-row tile, four K steps. (The barrier after the packing is the one
// wgmma passes for B, a buffer written by other threads.)

// CHECK-LABEL: llvm.func @register_a
// CHECK-NOT: llvm.store
// CHECK-NOT: llvm.load
// CHECK-NOT: nvvm.shfl.sync bfly
// CHECK-NOT: nvvm.barrier0
// CHECK-COUNT-16: llvm.bitcast %{{.+}} : vector<2xf16> to i32
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NOT: llvm.bitcast
// CHECK-COUNT-4: llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, $69, 0;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{{(\$[0-9]+, ){31}\$31}}}, {$64, $65, $66, $67}, $68, p, 1, 1, 1;\0A}", "{{(=f,)+=f,([0-9]+,)+}}r,r,r,r,l,r"
// CHECK: nvvm.wgmma.commit.group.sync.aligned
#s = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#a = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @register_a(%p: tensor<64x64xf16, #mma>, %v: !tilegpu.memdesc<64x64xf16, #s>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %pa = tilegpu.convert_layout %p : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #a>
    %d = tilegpu.warp_group_dot %pa, %v, %c : tensor<64x64xf16, #a>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xf32, #mma>
    return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// With two warp groups stacked along M (8 warps, 128 rows) each takes its
// own 64 rows from its own registers: the same four-register form, one
// 64-row tile per thread, still no data moved for the conversion.
// CHECK-LABEL: llvm.func @two_groups
// CHECK-NOT: llvm.store
// CHECK-NOT: llvm.load
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{{(\$[0-9]+, ){31}\$31}}}, {$64, $65, $66, $67}, $68, p, 1, 1, 1;
// CHECK-NOT: wgmma.mma_async
#s = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
#a = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @two_groups(%p: tensor<128x64xf16, #mma>, %v: !tilegpu.memdesc<64x64xf16, #s>, %c: tensor<128x64xf32, #mma>) -> tensor<128x64xf32, #mma> {
    %pa = tilegpu.convert_layout %p : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #a>
    %d = tilegpu.warp_group_dot %pa, %v, %c : tensor<128x64xf16, #a>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<128x64xf32, #mma>
    return %d : tensor<128x64xf32, #mma>
  }
}
