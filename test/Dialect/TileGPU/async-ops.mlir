// RUN: terrazzo-opt %s | terrazzo-opt | FileCheck %s

// Multi-buffered shared memory and asynchronous copies round-trip.

#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s3 = #tilegpu.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]}>
#s2 = #tilegpu.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>

// CHECK-LABEL: func.func @copy
// CHECK: %[[B:.*]] = tilegpu.memdesc_index %{{.*}}[%{{.*}}] : !tilegpu.memdesc<3x16x64xf16, #{{.*}}, mutable> -> !tilegpu.memdesc<16x64xf16, #{{.*}}, mutable>
// CHECK: %[[T:.*]] = tilegpu.async_copy_global_to_local %{{.*}}, %[[B]] mask %{{.*}} other %{{.*}} : tensor<16x64x!tile.ptr<f16>, #{{.*}}>, tensor<16x64xi1, #{{.*}}>, tensor<16x64xf16, #{{.*}}> -> !tilegpu.memdesc<16x64xf16, #{{.*}}, mutable>
// CHECK: tilegpu.async_copy_global_to_local %{{.*}}, %[[B]] : tensor<16x64x!tile.ptr<f16>, #{{.*}}> -> !tilegpu.memdesc
// CHECK: %[[G:.*]] = tilegpu.async_commit_group tokens %[[T]]
// CHECK: tilegpu.async_commit_group{{$}}
// CHECK: tilegpu.async_wait tokens %[[G]] {num = 1 : i32}
// CHECK: tilegpu.async_wait {num = 0 : i32}
func.func @copy(%p: tensor<16x64x!tile.ptr<f16>, #blocked>, %m: tensor<16x64xi1, #blocked>, %i: i32) {
  %buffers = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x16x64xf16, #s3, mutable>
  %b = tilegpu.memdesc_index %buffers[%i] : !tilegpu.memdesc<3x16x64xf16, #s3, mutable> -> !tilegpu.memdesc<16x64xf16, #s2, mutable>
  %zero = arith.constant dense<0.0> : tensor<16x64xf16, #blocked>
  %t = tilegpu.async_copy_global_to_local %p, %b mask %m other %zero : tensor<16x64x!tile.ptr<f16>, #blocked>, tensor<16x64xi1, #blocked>, tensor<16x64xf16, #blocked> -> !tilegpu.memdesc<16x64xf16, #s2, mutable>
  %t2 = tilegpu.async_copy_global_to_local %p, %b : tensor<16x64x!tile.ptr<f16>, #blocked> -> !tilegpu.memdesc<16x64xf16, #s2, mutable>
  %g = tilegpu.async_commit_group tokens %t
  %g2 = tilegpu.async_commit_group
  %w = tilegpu.async_wait tokens %g {num = 1 : i32}
  %w2 = tilegpu.async_wait {num = 0 : i32}
  tilegpu.local_dealloc %buffers : !tilegpu.memdesc<3x16x64xf16, #s3, mutable>
  return
}

// A 2-D nvmma_shared buffer seen transposed: the shape reversed, the
// layout's `transposed` flipped.
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvt = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
// CHECK-LABEL: func.func @trans
// CHECK: tilegpu.memdesc_trans %{{.*}} : !tilegpu.memdesc<128x64xf16, #{{.*}}, mutable> -> !tilegpu.memdesc<64x128xf16, #{{.*}}, mutable>
func.func @trans(%b: !tilegpu.memdesc<128x64xf16, #nv, mutable>) -> !tilegpu.memdesc<64x128xf16, #nvt, mutable> {
  %t = tilegpu.memdesc_trans %b : !tilegpu.memdesc<128x64xf16, #nv, mutable> -> !tilegpu.memdesc<64x128xf16, #nvt, mutable>
  return %t : !tilegpu.memdesc<64x128xf16, #nvt, mutable>
}
