// RUN: terrazzo-opt %s -split-input-file --terrazzo-convert-tile-to-tilegpu="target=cuda:90 num-warps=4" | FileCheck %s --check-prefix=LAYOUT
// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --terrazzo-convert-tile-to-tilegpu="target=cuda:90 num-warps=4" --terrazzo-allocate-shared-memory --terrazzo-insert-barriers --convert-scf-to-cf --terrazzo-convert-tilegpu-to-llvm | FileCheck %s

// tile.dot without tensor cores. The dot computes in a layout where each
// thread holds a 4 x 4 block of the result (32 x 64 over 128 threads: one
// block each), the accumulator converted to it and the result back; A gets
// the layout in which every thread holds the 4 rows it needs with all of K
// in registers (k first), broadcast over the 16 lanes that move along N;
// B the K x 4 columns it needs, K in registers: a blocked layout. Each
// result element is then K fused multiply-adds of widened float16
// operands: 16 elements x 16 = 256 per thread, each loaded value of A and
// B serving 4 of them.

// LAYOUT-DAG: #[[$C:.+]] = #tilegpu.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// LAYOUT-DAG: #[[$B:.+]] = #tilegpu.blocked<{sizePerThread = [16, 4], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [0, 1]}>
// LAYOUT-DAG: #[[$A:.+]] = #tilegpu.linear<{register = {{\[}}[0, 1], [0, 2], [0, 4], [0, 8], [1, 0], [2, 0]], lane = {{\[}}[0, 0], [0, 0], [0, 0], [0, 0], [4, 0]], warp = {{\[}}[8, 0], [16, 0]], block = []}>
// LAYOUT-LABEL: func.func private @dot
// LAYOUT: %[[C:.*]] = tilegpu.convert_layout %{{.*}} -> tensor<32x64xf32, #[[$C]]>
// LAYOUT: %[[A:.*]] = tilegpu.convert_layout %{{.*}} -> tensor<32x16xf16, #[[$A]]>
// LAYOUT: %[[B:.*]] = tilegpu.convert_layout %{{.*}} -> tensor<16x64xf16, #[[$B]]>
// LAYOUT: %[[D:.*]] = tile.dot %[[A]], %[[B]], %[[C]] : tensor<32x16xf16, #[[$A]]> * tensor<16x64xf16, #[[$B]]> -> tensor<32x64xf32, #[[$C]]>
// LAYOUT: tilegpu.convert_layout %[[D]] : tensor<32x64xf32, #[[$C]]> ->

// CHECK-LABEL: llvm.func @dot
// CHECK-COUNT-256: llvm.intr.fma
// CHECK-NOT: llvm.intr.fma
// CHECK: llvm.return
func.func private @dot(%a: tensor<32x16xf16>, %b: tensor<16x64xf16>, %c: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %d = tile.dot %a, %b, %c : tensor<32x16xf16> * tensor<16x64xf16> -> tensor<32x64xf32>
  return %d : tensor<32x64xf32>
}

// -----

// int8 operands: sign-extended products accumulated in int32, no FMA.

// CHECK-LABEL: llvm.func @dot_i8
// CHECK-NOT: llvm.intr.fma
// CHECK: llvm.sext %{{.*}} : i8 to i32
// CHECK: llvm.mul %{{.*}} : i32
// CHECK: llvm.add %{{.*}} : i32
func.func private @dot_i8(%a: tensor<16x16xi8>, %b: tensor<16x16xi8>, %c: tensor<16x16xi32>) -> tensor<16x16xi32> {
  %d = tile.dot %a, %b, %c : tensor<16x16xi8> * tensor<16x16xi8> -> tensor<16x16xi32>
  return %d : tensor<16x16xi32>
}

// -----

// A float16 result accumulates in float32 and is rounded once at the end:
// the accumulator is widened, every product is an f32 FMA, the results are
// truncated after the last k.

// CHECK-LABEL: llvm.func @dot_f16_result
// CHECK-COUNT-16: llvm.fpext %{{.*}} : f16 to f32
// CHECK-NOT: llvm.intr.fma(%{{.*}}) : (f16, f16, f16)
// CHECK: llvm.intr.fma(%{{.*}}) : (f32, f32, f32) -> f32
// CHECK-NOT: llvm.intr.fma(%{{.*}}) : (f16, f16, f16)
// CHECK: llvm.fptrunc %{{.*}} : f32 to f16
// CHECK: llvm.return
func.func private @dot_f16_result(%a: tensor<32x16xf16>, %b: tensor<16x64xf16>, %c: tensor<32x64xf16>) -> tensor<32x64xf16> {
  %d = tile.dot %a, %b, %c : tensor<32x16xf16> * tensor<16x64xf16> -> tensor<32x64xf16>
  return %d : tensor<32x64xf16>
}

