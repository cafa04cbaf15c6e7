// RUN: terrazzo-opt %s | terrazzo-opt | FileCheck %s

// The TMA and mbarrier ops print and parse back.
#nvmma = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#rows = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK-LABEL: func.func @tma
// CHECK: %[[MAP:.*]] = tilegpu.tensormap_create %{{.*}}, %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] box = [64, 64] swizzle = 128 : !tile.ptr<i8>, !tile.ptr<f16> -> !tile.ptr<i8>
// CHECK: tilegpu.mbarrier_init %{{.*}}, 1 : !tilegpu.memdesc<1xi64, #{{.*}}, mutable>
// CHECK: tilegpu.mbarrier_expect_tx %{{.*}}, 8192 : !tilegpu.memdesc<1xi64
// CHECK: tilegpu.async_tma_copy_global_to_local %[[MAP]][%{{.*}}, %{{.*}}] %{{.*}}, %{{.*}} : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #{{.*}}, mutable>, !tilegpu.memdesc<1xi64
// CHECK: tilegpu.mbarrier_wait %{{.*}}, %{{.*}} : !tilegpu.memdesc<1xi64
// CHECK: tilegpu.mbarrier_arrive %{{.*}} : !tilegpu.memdesc<1xi64
// CHECK: tilegpu.mbarrier_inval %{{.*}} : !tilegpu.memdesc<1xi64
// CHECK: tilegpu.fence_async_shared
// CHECK: tilegpu.async_tma_copy_local_to_global %[[MAP]][%{{.*}}, %{{.*}}] %{{.*}} : !tile.ptr<i8>, !tilegpu.memdesc<8x16xf32
// CHECK: tilegpu.async_tma_store_wait {pendings = 0 : i32}
// CHECK: tilegpu.async_tma_store_wait {complete, pendings = 0 : i32}
func.func @tma(%slot: !tile.ptr<i8>, %base: !tile.ptr<f16>, %m: i32, %n: i32, %s: i64, %i: i32, %j: i32, %phase: i32) {
  %c1 = arith.constant 1 : i64
  %map = tilegpu.tensormap_create %slot, %base, [%m, %n], [%s, %c1] box = [64, 64] swizzle = 128 : !tile.ptr<i8>, !tile.ptr<f16> -> !tile.ptr<i8>
  %buf = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nvmma, mutable>
  %bar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
  tilegpu.mbarrier_init %bar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
  tilegpu.mbarrier_expect_tx %bar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
  tilegpu.async_tma_copy_global_to_local %map[%i, %j] %buf, %bar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nvmma, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
  tilegpu.mbarrier_wait %bar, %phase : !tilegpu.memdesc<1xi64, #bar, mutable>
  tilegpu.mbarrier_arrive %bar : !tilegpu.memdesc<1xi64, #bar, mutable>
  tilegpu.mbarrier_inval %bar : !tilegpu.memdesc<1xi64, #bar, mutable>
  %out = tilegpu.local_alloc : () -> !tilegpu.memdesc<8x16xf32, #rows, mutable>
  tilegpu.fence_async_shared
  tilegpu.async_tma_copy_local_to_global %map[%i, %j] %out : !tile.ptr<i8>, !tilegpu.memdesc<8x16xf32, #rows, mutable>
  tilegpu.async_tma_store_wait {pendings = 0 : i32}
  tilegpu.async_tma_store_wait {complete, pendings = 0 : i32}
  return
}

// The warp-group turns, in a module of two warp groups, with and without
// values tied to them.
// CHECK-LABEL: func.func @turns
// CHECK: tilegpu.warp_group_turn_wait
// CHECK-NEXT: tilegpu.warp_group_turn_pass {only = 1 : i32}
// CHECK-NEXT: %[[M:.*]] = tilegpu.warp_group_turn_wait(%arg0 : tensor<256xf32, #{{.*}}>)
// CHECK-NEXT: tilegpu.warp_group_turn_pass(%[[M]], %arg1 : tensor<256xf32, #{{.*}}>, tensor<256xi32, #{{.*}}>)
// A turn without values followed by an op with a result parses back as
// two ops (the values are parenthesised: a bare `%x` after the mnemonic
// was read as the turn's operand).
// CHECK-NEXT: tilegpu.warp_group_turn_wait{{$}}
// CHECK-NEXT: %{{.*}} = arith.addf %arg0, %arg0
#row = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"tilegpu.num-warps" = 8 : i32} {
  func.func @turns(%m: tensor<256xf32, #row>, %i: tensor<256xi32, #row>) {
    tilegpu.warp_group_turn_wait
    tilegpu.warp_group_turn_pass {only = 1 : i32}
    %t = tilegpu.warp_group_turn_wait(%m : tensor<256xf32, #row>)
    tilegpu.warp_group_turn_pass(%t, %i : tensor<256xf32, #row>, tensor<256xi32, #row>)
    tilegpu.warp_group_turn_wait
    %s = arith.addf %m, %m : tensor<256xf32, #row>
    return
  }
}

// -----

// A host tensor map's description prints and parses back.
// CHECK: module attributes {"tilegpu.host-tensormaps", tilegpu.host_tensormap_params = [#tilegpu.host_tensormap<{parameter = 4, base = 0, elementType = bf16, shapeArguments = [2, -1], shapeValues = [-1, 64], strideArguments = [3, -1], strideValues = [-1, 1], box = [128, 64], swizzleBytes = 128, stored = true}>]}
module attributes {"tilegpu.host-tensormaps", tilegpu.host_tensormap_params = [#tilegpu.host_tensormap<{parameter = 4, base = 0, elementType = bf16, shapeArguments = [2, -1], shapeValues = [-1, 64], strideArguments = [3, -1], strideValues = [-1, 1], box = [128, 64], swizzleBytes = 128, stored = true}>]} {}
