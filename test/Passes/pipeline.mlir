// RUN: terrazzo-opt %s -split-input-file --terrazzo-pipeline=rotate-one-warp-group=true | FileCheck %s
// RUN: terrazzo-opt %s -split-input-file --terrazzo-pipeline | FileCheck %s --check-prefix=DEFAULT
// RUN: terrazzo-opt %s -split-input-file --terrazzo-pipeline=num-stages=1 | FileCheck %s --check-prefix=OFF
// RUN: terrazzo-opt %s -split-input-file --terrazzo-pipeline=ping-pong=always | FileCheck %s --check-prefix=TURNS
// RUN: terrazzo-opt %s -split-input-file --terrazzo-pipeline=ping-pong=never | FileCheck %s --check-prefix=NEVER
// RUN: terrazzo-opt %s -split-input-file --terrazzo-pipeline=ping-pong=softmax | FileCheck %s --check-prefix=SOFTMAX
// RUN: not terrazzo-opt %s -split-input-file --terrazzo-pipeline=ping-pong=sometimes 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: terrazzo-pipeline: ping-pong must be auto, always, never or softmax, not 'sometimes'

// terrazzo-pipeline: loads of dot operands in loops become num-stages deep
// stacks of shared buffers filled by cp.async ahead of their iteration.

// With num-stages=1 nothing changes (unless the module says otherwise,
// @two_stages below).
// OFF-LABEL: func.func @two_operands
// OFF-NOT: tilegpu.local_alloc
// OFF-NOT: tilegpu.async_copy_global_to_local
// OFF-NOT: tilegpu.async_wait
// OFF: tile.load
// OFF: tile.load
// OFF-LABEL: func.func @masked
// OFF-NOT: tilegpu.local_alloc
// OFF-LABEL: func.func @not_only_dot
// OFF-NOT: tilegpu.local_alloc
// OFF-LABEL: func.func @two_stages
// OFF: tilegpu.local_alloc : () -> !tilegpu.memdesc<2x64x32xf16

// Both operands of a dot, 3 stages: two stacks; before the loop the copies
// of iterations 0 and 1 (for the iterations below the upper bound only),
// a group per copy (as Triton: a wait counts loads); in the loop a wait
// leaving the two groups of one iteration in flight, the buffers of this
// iteration read in the dot operands' layouts, the copies for iteration
// i + 2 into the buffers read in the previous one, a group each; after the
// loop a wait for everything. The loads and conversions are gone.

// CHECK-LABEL: func.func @two_operands
// CHECK: %[[SA:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x32xf16, #[[LA:.*]], mutable>
// CHECK: %[[SB:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x32x64xf16, #{{.*}}, mutable>
// CHECK: arith.cmpi slt, %{{.*}}, %[[K:.*]] : i32
// CHECK: tilegpu.async_copy_global_to_local %{{.*}}, %{{.*}} mask
// CHECK-NEXT: tilegpu.async_commit_group
// CHECK: tilegpu.async_copy_global_to_local %{{.*}}, %{{.*}} mask
// CHECK-NEXT: tilegpu.async_commit_group
// CHECK: tilegpu.async_copy_global_to_local
// CHECK-NEXT: tilegpu.async_commit_group
// CHECK: tilegpu.async_copy_global_to_local
// CHECK-NEXT: tilegpu.async_commit_group
// CHECK-NOT: tilegpu.async_copy_global_to_local
// CHECK: scf.for %[[I:[a-z0-9_]+]] = {{.*}} iter_args({{.*}}, %[[AHEAD_A:.*]] = %{{.*}}, %[[AHEAD_B:.*]] = %{{.*}}, %[[READ:.*]] = %c0_i32{{.*}}, %[[WRITE:.*]] = %c2_i32{{.*}})
// CHECK-NEXT: tilegpu.async_wait {num = 2 : i32}
// CHECK-NEXT: %[[BA:.*]] = tilegpu.memdesc_index %[[SA]][%[[READ]]]
// CHECK-NEXT: tilegpu.local_load %[[BA]] : {{.*}} -> tensor<64x32xf16, #{{.*}}>
// CHECK-NEXT: %[[BB:.*]] = tilegpu.memdesc_index %[[SB]][%[[READ]]]
// CHECK-NEXT: tilegpu.local_load %[[BB]]
// CHECK: %[[AHEAD:.*]] = arith.addi %[[I]], %{{.*}} : i32
// CHECK: arith.cmpi slt, %[[AHEAD]], %{{.*}} : i32
// CHECK: %[[WA:.*]] = tilegpu.memdesc_index %[[SA]][%[[WRITE]]]
// CHECK: tilegpu.async_copy_global_to_local %[[AHEAD_A]], %[[WA]] mask
// CHECK-NEXT: tilegpu.async_commit_group
// CHECK: tilegpu.async_copy_global_to_local %[[AHEAD_B]], %{{.*}} mask
// CHECK-NEXT: tilegpu.async_commit_group
// CHECK-NOT: tile.load
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.dot
// CHECK: scf.yield
// CHECK: tilegpu.async_wait {num = 0 : i32}
// CHECK-NEXT: tilegpu.local_dealloc %[[SA]]
// CHECK-NEXT: tilegpu.local_dealloc %[[SB]]
#blocked1 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dotA = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#dotB = #tilegpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:80", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @two_operands(%abase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %bbase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %k: i32, %out: tensor<64x64x!tile.ptr<f32>, #mma>) {
    %ar = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked1}>>
    %ac = tile.make_range 0 to 32 : tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #blocked1}>>
    %ar2 = tile.expand_dims %ar axis = 1 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked1}>> -> tensor<64x1xi32, #blocked1>
    %ac2 = tile.expand_dims %ac axis = 0 : tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x32xi32, #blocked1>
    %a32 = arith.constant dense<32> : tensor<64x1xi32, #blocked1>
    %arows = arith.muli %ar2, %a32 : tensor<64x1xi32, #blocked1>
    %arb = tile.broadcast %arows : tensor<64x1xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
    %acb = tile.broadcast %ac2 : tensor<1x32xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
    %aoff = arith.addi %arb, %acb : tensor<64x32xi32, #blocked1>
    %asp = tile.splat %abase : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>, #blocked1>
    %a = tile.addptr %asp, %aoff : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
    %br = tile.make_range 0 to 32 : tensor<32xi32, #tilegpu.slice<{dim = 1, parent = #blocked2}>>
    %bc = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked2}>>
    %br2 = tile.expand_dims %br axis = 1 : tensor<32xi32, #tilegpu.slice<{dim = 1, parent = #blocked2}>> -> tensor<32x1xi32, #blocked2>
    %bc2 = tile.expand_dims %bc axis = 0 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked2}>> -> tensor<1x64xi32, #blocked2>
    %b64 = arith.constant dense<64> : tensor<32x1xi32, #blocked2>
    %brows = arith.muli %br2, %b64 : tensor<32x1xi32, #blocked2>
    %brb = tile.broadcast %brows : tensor<32x1xi32, #blocked2> -> tensor<32x64xi32, #blocked2>
    %bcb = tile.broadcast %bc2 : tensor<1x64xi32, #blocked2> -> tensor<32x64xi32, #blocked2>
    %boff = arith.addi %brb, %bcb : tensor<32x64xi32, #blocked2>
    %bsp = tile.splat %bbase : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>, #blocked2>
    %b = tile.addptr %bsp, %boff : tensor<32x64x!tile.ptr<f16>, #blocked2>, tensor<32x64xi32, #blocked2>
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %sa = arith.constant dense<32> : tensor<64x32xi32, #blocked1>
    %sb = arith.constant dense<2048> : tensor<32x64xi32, #blocked2>
    %r:3 = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %acc0, %pa = %a, %pb = %b) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<32x64x!tile.ptr<f16>, #blocked2>) : i32 {
      %x = tile.load %pa : tensor<64x32x!tile.ptr<f16>, #blocked1>
      %y = tile.load %pb : tensor<32x64x!tile.ptr<f16>, #blocked2>
      %xa = tilegpu.convert_layout %x : tensor<64x32xf16, #blocked1> -> tensor<64x32xf16, #dotA>
      %yb = tilegpu.convert_layout %y : tensor<32x64xf16, #blocked2> -> tensor<32x64xf16, #dotB>
      %d = tile.dot %xa, %yb, %acc : tensor<64x32xf16, #dotA> * tensor<32x64xf16, #dotB> -> tensor<64x64xf32, #mma>
      %pa2 = tile.addptr %pa, %sa : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
      %pb2 = tile.addptr %pb, %sb : tensor<32x64x!tile.ptr<f16>, #blocked2>, tensor<32x64xi32, #blocked2>
      scf.yield %d, %pa2, %pb2 : tensor<64x64xf32, #mma>, tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<32x64x!tile.ptr<f16>, #blocked2>
    }
    tile.store %out, %r#0 : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// A mask computed in the loop from the induction variable is recomputed
// for the iteration each copy is for (before the loop, from the lower bound
// plus k steps; in the loop, from i + 2 steps), and combined with the
// loop's own bound. The zero `other` is what the copy fills anyway. (K is
// a multiple of 16, so the mask is constant over each 8-element copy.)

// CHECK-LABEL: func.func @masked
// CHECK: tilegpu.local_alloc
// CHECK: %[[IV0:.*]] = arith.addi %c0_i32, %{{.*}} : i32
// CHECK: %[[S0:.*]] = tile.splat %[[IV0]] : i32 -> tensor<32xi32
// CHECK: arith.cmpi slt
// CHECK: %[[M0:.*]] = arith.andi
// CHECK: tilegpu.async_copy_global_to_local %{{.*}}, %{{.*}} mask %[[M0]] :
// CHECK: scf.for %[[I:[a-z0-9_]+]] =
// CHECK: %[[AHEAD:.*]] = arith.addi %[[I]], %{{.*}} : i32
// CHECK: tile.splat %[[AHEAD]] : i32 -> tensor<32xi32
// CHECK: %[[M:.*]] = arith.andi
// CHECK: tilegpu.async_copy_global_to_local %{{.*}}, %{{.*}} mask %[[M]] {tilegpu.reads_retired} :
// CHECK-NOT: tile.load
// CHECK: scf.yield
#blocked1 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dotA = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#dotB = #tilegpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:80", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @masked(%abase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %bbase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %k: i32 {tile.divisibility = 16 : i32}, %out: tensor<64x64x!tile.ptr<f32>, #mma>) {
    %ar = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked1}>>
    %ac = tile.make_range 0 to 32 : tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #blocked1}>>
    %ar2 = tile.expand_dims %ar axis = 1 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked1}>> -> tensor<64x1xi32, #blocked1>
    %ac2 = tile.expand_dims %ac axis = 0 : tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x32xi32, #blocked1>
    %a32 = arith.constant dense<32> : tensor<64x1xi32, #blocked1>
    %arows = arith.muli %ar2, %a32 : tensor<64x1xi32, #blocked1>
    %arb = tile.broadcast %arows : tensor<64x1xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
    %acb = tile.broadcast %ac2 : tensor<1x32xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
    %aoff = arith.addi %arb, %acb : tensor<64x32xi32, #blocked1>
    %asp = tile.splat %abase : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>, #blocked1>
    %a = tile.addptr %asp, %aoff : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
    %br = tile.make_range 0 to 32 : tensor<32xi32, #tilegpu.slice<{dim = 1, parent = #blocked2}>>
    %bc = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked2}>>
    %br2 = tile.expand_dims %br axis = 1 : tensor<32xi32, #tilegpu.slice<{dim = 1, parent = #blocked2}>> -> tensor<32x1xi32, #blocked2>
    %bc2 = tile.expand_dims %bc axis = 0 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked2}>> -> tensor<1x64xi32, #blocked2>
    %b64 = arith.constant dense<64> : tensor<32x1xi32, #blocked2>
    %brows = arith.muli %br2, %b64 : tensor<32x1xi32, #blocked2>
    %brb = tile.broadcast %brows : tensor<32x1xi32, #blocked2> -> tensor<32x64xi32, #blocked2>
    %bcb = tile.broadcast %bc2 : tensor<1x64xi32, #blocked2> -> tensor<32x64xi32, #blocked2>
    %boff = arith.addi %brb, %bcb : tensor<32x64xi32, #blocked2>
    %bsp = tile.splat %bbase : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>, #blocked2>
    %b = tile.addptr %bsp, %boff : tensor<32x64x!tile.ptr<f16>, #blocked2>, tensor<32x64xi32, #blocked2>
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %sa = arith.constant dense<32> : tensor<64x32xi32, #blocked1>
    %sb = arith.constant dense<2048> : tensor<32x64xi32, #blocked2>
    %r:3 = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %acc0, %pa = %a, %pb = %b) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<32x64x!tile.ptr<f16>, #blocked2>) : i32 {
      %kk = tile.make_range 0 to 32 : tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #blocked1}>>
      %is = tile.splat %i : i32 -> tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #blocked1}>>
      %kc = arith.addi %is, %kk : tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #blocked1}>>
      %ks = tile.splat %k : i32 -> tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #blocked1}>>
      %kok = arith.cmpi slt, %kc, %ks : tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #blocked1}>>
      %kok2 = tile.expand_dims %kok axis = 0 : tensor<32xi1, #tilegpu.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x32xi1, #blocked1>
      %m = tile.broadcast %kok2 : tensor<1x32xi1, #blocked1> -> tensor<64x32xi1, #blocked1>
      %zero = arith.constant dense<0.0> : tensor<64x32xf16, #blocked1>
      %x = tile.load %pa, %m, %zero : tensor<64x32x!tile.ptr<f16>, #blocked1>
      %y = tile.load %pb : tensor<32x64x!tile.ptr<f16>, #blocked2>
      %xa = tilegpu.convert_layout %x : tensor<64x32xf16, #blocked1> -> tensor<64x32xf16, #dotA>
      %yb = tilegpu.convert_layout %y : tensor<32x64xf16, #blocked2> -> tensor<32x64xf16, #dotB>
      %d = tile.dot %xa, %yb, %acc : tensor<64x32xf16, #dotA> * tensor<32x64xf16, #dotB> -> tensor<64x64xf32, #mma>
      %pa2 = tile.addptr %pa, %sa : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
      %pb2 = tile.addptr %pb, %sb : tensor<32x64x!tile.ptr<f16>, #blocked2>, tensor<32x64xi32, #blocked2>
      scf.yield %d, %pa2, %pb2 : tensor<64x64xf32, #mma>, tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<32x64x!tile.ptr<f16>, #blocked2>
    }
    tile.store %out, %r#0 : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// A block that is also stored (not only a dot operand) stays a load; the
// other operand is still pipelined.

// CHECK-LABEL: func.func @not_only_dot
// CHECK: tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x32xf16
// CHECK-NOT: tilegpu.local_alloc
// CHECK: scf.for
// CHECK-NOT: tile.load %{{.*}} : tensor<64x32x
// CHECK: tile.load %{{.*}} : tensor<32x64x!tile.ptr<f16>
#blocked1 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dotA = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#dotB = #tilegpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:80", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @not_only_dot(%abase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %bbase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %k: i32, %out: tensor<64x64x!tile.ptr<f32>, #mma>) {
    %ar = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked1}>>
    %ac = tile.make_range 0 to 32 : tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #blocked1}>>
    %ar2 = tile.expand_dims %ar axis = 1 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked1}>> -> tensor<64x1xi32, #blocked1>
    %ac2 = tile.expand_dims %ac axis = 0 : tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x32xi32, #blocked1>
    %a32 = arith.constant dense<32> : tensor<64x1xi32, #blocked1>
    %arows = arith.muli %ar2, %a32 : tensor<64x1xi32, #blocked1>
    %arb = tile.broadcast %arows : tensor<64x1xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
    %acb = tile.broadcast %ac2 : tensor<1x32xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
    %aoff = arith.addi %arb, %acb : tensor<64x32xi32, #blocked1>
    %asp = tile.splat %abase : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>, #blocked1>
    %a = tile.addptr %asp, %aoff : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
    %br = tile.make_range 0 to 32 : tensor<32xi32, #tilegpu.slice<{dim = 1, parent = #blocked2}>>
    %bc = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked2}>>
    %br2 = tile.expand_dims %br axis = 1 : tensor<32xi32, #tilegpu.slice<{dim = 1, parent = #blocked2}>> -> tensor<32x1xi32, #blocked2>
    %bc2 = tile.expand_dims %bc axis = 0 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked2}>> -> tensor<1x64xi32, #blocked2>
    %b64 = arith.constant dense<64> : tensor<32x1xi32, #blocked2>
    %brows = arith.muli %br2, %b64 : tensor<32x1xi32, #blocked2>
    %brb = tile.broadcast %brows : tensor<32x1xi32, #blocked2> -> tensor<32x64xi32, #blocked2>
    %bcb = tile.broadcast %bc2 : tensor<1x64xi32, #blocked2> -> tensor<32x64xi32, #blocked2>
    %boff = arith.addi %brb, %bcb : tensor<32x64xi32, #blocked2>
    %bsp = tile.splat %bbase : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>, #blocked2>
    %b = tile.addptr %bsp, %boff : tensor<32x64x!tile.ptr<f16>, #blocked2>, tensor<32x64xi32, #blocked2>
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %sa = arith.constant dense<32> : tensor<64x32xi32, #blocked1>
    %sb = arith.constant dense<2048> : tensor<32x64xi32, #blocked2>
    %r:3 = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %acc0, %pa = %a, %pb = %b) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<32x64x!tile.ptr<f16>, #blocked2>) : i32 {
      %x = tile.load %pa : tensor<64x32x!tile.ptr<f16>, #blocked1>
      %y = tile.load %pb : tensor<32x64x!tile.ptr<f16>, #blocked2>
      %xa = tilegpu.convert_layout %x : tensor<64x32xf16, #blocked1> -> tensor<64x32xf16, #dotA>
      %yb = tilegpu.convert_layout %y : tensor<32x64xf16, #blocked2> -> tensor<32x64xf16, #dotB>
      %d0 = tile.dot %xa, %yb, %acc : tensor<64x32xf16, #dotA> * tensor<32x64xf16, #dotB> -> tensor<64x64xf32, #mma>
      %y2 = arith.addf %y, %y : tensor<32x64xf16, #blocked2>
      tile.store %pb, %y2 : tensor<32x64x!tile.ptr<f16>, #blocked2>
      %d = arith.addf %d0, %acc : tensor<64x64xf32, #mma>
      %pa2 = tile.addptr %pa, %sa : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
      %pb2 = tile.addptr %pb, %sb : tensor<32x64x!tile.ptr<f16>, #blocked2>, tensor<32x64xi32, #blocked2>
      scf.yield %d, %pa2, %pb2 : tensor<64x64xf32, #mma>, tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<32x64x!tile.ptr<f16>, #blocked2>
    }
    tile.store %out, %r#0 : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// The module's tilegpu.num-stages overrides the option: with 2 stages the
// loop waits for every group.

// CHECK-LABEL: func.func @two_stages
// CHECK: tilegpu.local_alloc : () -> !tilegpu.memdesc<2x64x32xf16
// CHECK: scf.for
// CHECK-NEXT: tilegpu.async_wait {num = 0 : i32}
#blocked1 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dotA = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#dotB = #tilegpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"tilegpu.num-stages" = 2 : i32, "tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:80", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @two_stages(%abase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %bbase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %k: i32, %out: tensor<64x64x!tile.ptr<f32>, #mma>) {
    %ar = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked1}>>
    %ac = tile.make_range 0 to 32 : tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #blocked1}>>
    %ar2 = tile.expand_dims %ar axis = 1 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked1}>> -> tensor<64x1xi32, #blocked1>
    %ac2 = tile.expand_dims %ac axis = 0 : tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x32xi32, #blocked1>
    %a32 = arith.constant dense<32> : tensor<64x1xi32, #blocked1>
    %arows = arith.muli %ar2, %a32 : tensor<64x1xi32, #blocked1>
    %arb = tile.broadcast %arows : tensor<64x1xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
    %acb = tile.broadcast %ac2 : tensor<1x32xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
    %aoff = arith.addi %arb, %acb : tensor<64x32xi32, #blocked1>
    %asp = tile.splat %abase : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>, #blocked1>
    %a = tile.addptr %asp, %aoff : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
    %br = tile.make_range 0 to 32 : tensor<32xi32, #tilegpu.slice<{dim = 1, parent = #blocked2}>>
    %bc = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked2}>>
    %br2 = tile.expand_dims %br axis = 1 : tensor<32xi32, #tilegpu.slice<{dim = 1, parent = #blocked2}>> -> tensor<32x1xi32, #blocked2>
    %bc2 = tile.expand_dims %bc axis = 0 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked2}>> -> tensor<1x64xi32, #blocked2>
    %b64 = arith.constant dense<64> : tensor<32x1xi32, #blocked2>
    %brows = arith.muli %br2, %b64 : tensor<32x1xi32, #blocked2>
    %brb = tile.broadcast %brows : tensor<32x1xi32, #blocked2> -> tensor<32x64xi32, #blocked2>
    %bcb = tile.broadcast %bc2 : tensor<1x64xi32, #blocked2> -> tensor<32x64xi32, #blocked2>
    %boff = arith.addi %brb, %bcb : tensor<32x64xi32, #blocked2>
    %bsp = tile.splat %bbase : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>, #blocked2>
    %b = tile.addptr %bsp, %boff : tensor<32x64x!tile.ptr<f16>, #blocked2>, tensor<32x64xi32, #blocked2>
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %sa = arith.constant dense<32> : tensor<64x32xi32, #blocked1>
    %sb = arith.constant dense<2048> : tensor<32x64xi32, #blocked2>
    %r:3 = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %acc0, %pa = %a, %pb = %b) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<32x64x!tile.ptr<f16>, #blocked2>) : i32 {
      %x = tile.load %pa : tensor<64x32x!tile.ptr<f16>, #blocked1>
      %y = tile.load %pb : tensor<32x64x!tile.ptr<f16>, #blocked2>
      %xa = tilegpu.convert_layout %x : tensor<64x32xf16, #blocked1> -> tensor<64x32xf16, #dotA>
      %yb = tilegpu.convert_layout %y : tensor<32x64xf16, #blocked2> -> tensor<32x64xf16, #dotB>
      %d = tile.dot %xa, %yb, %acc : tensor<64x32xf16, #dotA> * tensor<32x64xf16, #dotB> -> tensor<64x64xf32, #mma>
      %pa2 = tile.addptr %pa, %sa : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
      %pb2 = tile.addptr %pb, %sb : tensor<32x64x!tile.ptr<f16>, #blocked2>, tensor<32x64xi32, #blocked2>
      scf.yield %d, %pa2, %pb2 : tensor<64x64xf32, #mma>, tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<32x64x!tile.ptr<f16>, #blocked2>
    }
    tile.store %out, %r#0 : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// No dot in the loop: nothing to do.

// CHECK-LABEL: func.func @no_dot
// CHECK-NOT: tilegpu.local_alloc
// CHECK: tile.load
#blocked = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:80", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @no_dot(%a: tensor<512x!tile.ptr<f32>, #blocked>, %n: i32, %out: tensor<512x!tile.ptr<f32>, #blocked>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc0 = arith.constant dense<0.0> : tensor<512xf32, #blocked>
    %s = arith.constant dense<512> : tensor<512xi32, #blocked>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %p = %a) -> (tensor<512xf32, #blocked>, tensor<512x!tile.ptr<f32>, #blocked>) : i32 {
      %x = tile.load %p : tensor<512x!tile.ptr<f32>, #blocked>
      %y = arith.addf %acc, %x : tensor<512xf32, #blocked>
      %p2 = tile.addptr %p, %s : tensor<512x!tile.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
      scf.yield %y, %p2 : tensor<512xf32, #blocked>, tensor<512x!tile.ptr<f32>, #blocked>
    }
    tile.store %out, %r#0 : tensor<512x!tile.ptr<f32>, #blocked>
    return
  }
}

// -----

// The wgmma form (sm_90a): loads stored into nvmma_shared buffers that only
// warp_group_dot reads become stacks of buffers in the same layout; the dot
// reads memdesc_index of this iteration's buffer (no local_alloc, no
// local_load in the loop). Both operands are pipelined and the dot only
// feeds its own accumulator: it becomes async, waited for with one group
// left in flight (the copies: one iteration's two groups), and the copies for iteration i + 2 (into the buffer of
// iteration i - 1, starting at 2) come after the wait, not marked
// tilegpu.reads_retired (other warp groups may still read that buffer: a
// barrier goes in front of them); after the loop a wait for no group. The accumulator starts as zeros, so
// it starts as ub.poison with use_c false in the first iteration, and
// after the loop a branch on the flag waits if it ran, else yields the
// zeros (a branch, not a select per element).
// OFF-LABEL: func.func @wgmma_two_operands
// OFF-NOT: tilegpu.async_copy_global_to_local
// CHECK-LABEL: func.func @wgmma_two_operands
// CHECK: %[[SA:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x64xf16, #[[NV:.*]], mutable>
// CHECK: %[[SB:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x64xf16, #[[NV]], mutable>
// CHECK: tilegpu.async_copy_global_to_local %{{.*}}, %{{.*}} mask {{.*}} -> !tilegpu.memdesc<64x64xf16, #[[NV]], mutable>
// CHECK-NOT: reads_retired
// CHECK: tilegpu.async_copy_global_to_local
// CHECK: tilegpu.async_commit_group
// CHECK: tilegpu.async_copy_global_to_local
// CHECK: tilegpu.async_copy_global_to_local
// CHECK-NOT: reads_retired
// CHECK: tilegpu.async_commit_group
// CHECK: %[[FALSE:.*]] = arith.constant false
// CHECK: %[[POISON:.*]] = ub.poison : tensor<64x64xf32
// CHECK: %[[RES:.*]]:8 = scf.for %[[I:[a-z0-9_]+]] = {{.*}} iter_args(%[[ACC:.*]] = %[[POISON]], {{.*}}, %[[READ:.*]] = %c0_i32{{.*}}, %[[WRITE:.*]] = %c2_i32{{.*}}, %[[USE:.*]] = %[[FALSE]])
// CHECK-NEXT: tilegpu.async_wait {num = 2 : i32}
// CHECK-NEXT: %[[BA:.*]] = tilegpu.memdesc_index %[[SA]][%[[READ]]] : !tilegpu.memdesc<3x64x64xf16, #[[NV]], mutable> -> !tilegpu.memdesc<64x64xf16, #[[NV]], mutable>
// CHECK-NEXT: %[[BB:.*]] = tilegpu.memdesc_index %[[SB]][%[[READ]]]
// CHECK-NOT: tilegpu.local_alloc
// CHECK-NOT: tilegpu.local_load
// CHECK-NOT: tilegpu.async_copy_global_to_local
// CHECK: %[[D:.*]] = tilegpu.warp_group_dot async %[[BA]], %[[BB]], %[[ACC]] use_c = %[[USE]] : !tilegpu.memdesc<64x64xf16, #[[NV]], mutable>, !tilegpu.memdesc<64x64xf16, #[[NV]], mutable>
// CHECK-NEXT: %[[W:.*]] = tilegpu.warp_group_dot_wait %[[D]] {pendings = 1 : i32}
// CHECK: %[[WA:.*]] = tilegpu.memdesc_index %[[SA]][%[[WRITE]]]
// CHECK-NOT: reads_retired
// CHECK: tilegpu.async_copy_global_to_local %{{.*}}, %[[WA]] mask
// CHECK-NOT: reads_retired
// CHECK: tilegpu.async_commit_group
// CHECK-NOT: tile.load
// CHECK: %[[C3:.*]] = arith.constant 3 : i32
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: scf.yield %[[W]], {{.*}}, %[[TRUE]] :
// CHECK: %[[DONE:.*]] = scf.if %[[RES]]#7 -> (tensor<64x64xf32, #[[MMA:.*]]>) {
// CHECK-NEXT: %[[WAITED:.*]] = tilegpu.warp_group_dot_wait %[[RES]]#0 {pendings = 0 : i32}
// CHECK-NEXT: scf.yield %[[WAITED]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %{{.*}} : tensor<64x64xf32, #[[MMA]]>
// CHECK-NEXT: }
// CHECK-NEXT: tilegpu.async_wait {num = 0 : i32}
// CHECK-NEXT: tilegpu.local_dealloc %[[SA]]
// CHECK-NEXT: tilegpu.local_dealloc %[[SB]]
// CHECK: tile.store %{{.*}}, %[[DONE]]
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @wgmma_two_operands(%abase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %bbase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %k: i32, %out: tensor<64x64x!tile.ptr<f32>, #mma>) {
    %r = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked}>>
    %c = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked}>>
    %r2 = tile.expand_dims %r axis = 1 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %c2 = tile.expand_dims %c axis = 0 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %s64 = arith.constant dense<64> : tensor<64x1xi32, #blocked>
    %rows = arith.muli %r2, %s64 : tensor<64x1xi32, #blocked>
    %rb = tile.broadcast %rows : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %cb = tile.broadcast %c2 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #blocked>
    %asp = tile.splat %abase : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blocked>
    %a = tile.addptr %asp, %off : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %bsp = tile.splat %bbase : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blocked>
    %b = tile.addptr %bsp, %off : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %sa = arith.constant dense<64> : tensor<64x64xi32, #blocked>
    %sb = arith.constant dense<4096> : tensor<64x64xi32, #blocked>
    %res:3 = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %acc0, %pa = %a, %pb = %b) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64x!tile.ptr<f16>, #blocked>) : i32 {
      %x = tile.load %pa : tensor<64x64x!tile.ptr<f16>, #blocked>
      %y = tile.load %pb : tensor<64x64x!tile.ptr<f16>, #blocked>
      %xs = tilegpu.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !tilegpu.memdesc<64x64xf16, #nv>
      %ys = tilegpu.local_alloc %y : (tensor<64x64xf16, #blocked>) -> !tilegpu.memdesc<64x64xf16, #nv>
      %d = tilegpu.warp_group_dot %xs, %ys, %acc : !tilegpu.memdesc<64x64xf16, #nv>, !tilegpu.memdesc<64x64xf16, #nv> -> tensor<64x64xf32, #mma>
      %pa2 = tile.addptr %pa, %sa : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %pb2 = tile.addptr %pb, %sb : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      scf.yield %d, %pa2, %pb2 : tensor<64x64xf32, #mma>, tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64x!tile.ptr<f16>, #blocked>
    }
    tile.store %out, %res#0 : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// Async, but accumulating into a value that is not zeros: no use_c flag,
// no ub.poison; the wait after the loop gives the result directly.
// CHECK-LABEL: func.func @wgmma_acc_in
// CHECK-NOT: ub.poison
// CHECK: %[[RES:.*]]:7 = scf.for {{.*}} iter_args(%[[ACC:[a-z0-9_]+]] = %arg4,
// CHECK: tilegpu.warp_group_dot async %{{.*}}, %{{.*}}, %[[ACC]] :
// CHECK: %[[DONE:.*]] = tilegpu.warp_group_dot_wait %[[RES]]#0 {pendings = 0 : i32}
// CHECK-NEXT: tilegpu.async_wait {num = 0 : i32}
// CHECK: tile.store %{{.*}}, %[[DONE]]
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @wgmma_acc_in(%abase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %bbase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %k: i32, %out: tensor<64x64x!tile.ptr<f32>, #mma>, %acc0: tensor<64x64xf32, #mma>) {
    %r = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked}>>
    %c = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked}>>
    %r2 = tile.expand_dims %r axis = 1 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %c2 = tile.expand_dims %c axis = 0 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %s64 = arith.constant dense<64> : tensor<64x1xi32, #blocked>
    %rows = arith.muli %r2, %s64 : tensor<64x1xi32, #blocked>
    %rb = tile.broadcast %rows : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %cb = tile.broadcast %c2 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #blocked>
    %asp = tile.splat %abase : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blocked>
    %a = tile.addptr %asp, %off : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %bsp = tile.splat %bbase : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blocked>
    %b = tile.addptr %bsp, %off : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %sa = arith.constant dense<64> : tensor<64x64xi32, #blocked>
    %sb = arith.constant dense<4096> : tensor<64x64xi32, #blocked>
    %res:3 = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %acc0, %pa = %a, %pb = %b) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64x!tile.ptr<f16>, #blocked>) : i32 {
      %x = tile.load %pa : tensor<64x64x!tile.ptr<f16>, #blocked>
      %y = tile.load %pb : tensor<64x64x!tile.ptr<f16>, #blocked>
      %xs = tilegpu.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !tilegpu.memdesc<64x64xf16, #nv>
      %ys = tilegpu.local_alloc %y : (tensor<64x64xf16, #blocked>) -> !tilegpu.memdesc<64x64xf16, #nv>
      %d = tilegpu.warp_group_dot %xs, %ys, %acc : !tilegpu.memdesc<64x64xf16, #nv>, !tilegpu.memdesc<64x64xf16, #nv> -> tensor<64x64xf32, #mma>
      %pa2 = tile.addptr %pa, %sa : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %pb2 = tile.addptr %pb, %sb : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      scf.yield %d, %pa2, %pb2 : tensor<64x64xf32, #mma>, tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64x!tile.ptr<f16>, #blocked>
    }
    tile.store %out, %res#0 : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// Must not: a buffer that something other than warp_group_dot also reads
// (here a local_load) keeps its load and local_alloc; the other operand is
// still pipelined. The dot stays synchronous (the next iteration's
// local_alloc rewrites a buffer it reads) and the stack keeps 3 buffers.
// CHECK-LABEL: func.func @wgmma_not_only_dot
// CHECK: tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x64xf16
// CHECK-NOT: tilegpu.local_alloc : () -> !tilegpu.memdesc<3x
// CHECK: scf.for
// CHECK: %[[X:.*]] = tile.load
// CHECK: %[[XS:.*]] = tilegpu.local_alloc %[[X]]
// CHECK: tilegpu.warp_group_dot %[[XS]]
// CHECK-NOT: tilegpu.warp_group_dot_wait
// CHECK: tilegpu.local_load %[[XS]]
// CHECK-NOT: tilegpu.warp_group_dot_wait
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @wgmma_not_only_dot(%abase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %bbase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %k: i32, %out: tensor<64x64x!tile.ptr<f32>, #mma>, %side: tensor<64x64x!tile.ptr<f16>, #blocked>) {
    %r = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked}>>
    %c = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked}>>
    %r2 = tile.expand_dims %r axis = 1 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %c2 = tile.expand_dims %c axis = 0 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %s64 = arith.constant dense<64> : tensor<64x1xi32, #blocked>
    %rows = arith.muli %r2, %s64 : tensor<64x1xi32, #blocked>
    %rb = tile.broadcast %rows : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %cb = tile.broadcast %c2 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #blocked>
    %asp = tile.splat %abase : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blocked>
    %a = tile.addptr %asp, %off : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %bsp = tile.splat %bbase : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blocked>
    %b = tile.addptr %bsp, %off : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %sa = arith.constant dense<64> : tensor<64x64xi32, #blocked>
    %res:3 = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %acc0, %pa = %a, %pb = %b) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64x!tile.ptr<f16>, #blocked>) : i32 {
      %x = tile.load %pa : tensor<64x64x!tile.ptr<f16>, #blocked>
      %y = tile.load %pb : tensor<64x64x!tile.ptr<f16>, #blocked>
      %xs = tilegpu.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !tilegpu.memdesc<64x64xf16, #nv>
      %ys = tilegpu.local_alloc %y : (tensor<64x64xf16, #blocked>) -> !tilegpu.memdesc<64x64xf16, #nv>
      %d = tilegpu.warp_group_dot %xs, %ys, %acc : !tilegpu.memdesc<64x64xf16, #nv>, !tilegpu.memdesc<64x64xf16, #nv> -> tensor<64x64xf32, #mma>
      %back = tilegpu.local_load %xs : !tilegpu.memdesc<64x64xf16, #nv> -> tensor<64x64xf16, #blocked>
      tile.store %side, %back : tensor<64x64x!tile.ptr<f16>, #blocked>
      %pa2 = tile.addptr %pa, %sa : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %pb2 = tile.addptr %pb, %sa : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      scf.yield %d, %pa2, %pb2 : tensor<64x64xf32, #mma>, tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64x!tile.ptr<f16>, #blocked>
    }
    tile.store %out, %res#0 : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// The TMA form: descriptor loads as terrazzo-lower-descriptors-to-tma
// leaves them in a loop (a buffer and an mbarrier per iteration, waited for
// at once), A read by the dot directly and B (N x K) through a
// memdesc_trans. Each becomes a stack of 3 buffers, with one mbarrier per
// stage for both: initialised before the loop, then a barrier; the
// prologue arms the mbarriers of iterations 0 and 1 (below the upper bound
// only) for both copies' bytes (8192 + 8192) and copies with the
// coordinates recomputed for the iteration; the loop waits for its stage's
// mbarrier in the carried parity, the dot becomes async, and after its wait
// the copies of iteration i + 2 go into the stage read in iteration i - 1
// (must not go earlier: that iteration's dot is in flight until the wait);
// the parity flips when the read stage wraps to 0; after the loop the
// mbarriers are invalidated and the stacks freed. The per-iteration
// buffers, mbarriers and waits are gone.
// OFF-LABEL: func.func @tma_wgmma
// OFF-NOT: tilegpu.memdesc_index
// CHECK-LABEL: func.func @tma_wgmma
// CHECK: %[[SA:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x64xf16, #[[NV:.*]], mutable>
// CHECK: %[[SB:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x64xf16, #[[NV]], mutable>
// CHECK: %[[BARS:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x1xi64
// CHECK: %[[B0:.*]] = tilegpu.memdesc_index %[[BARS]][%c0_i32{{.*}}]
// CHECK-NEXT: tilegpu.mbarrier_init %[[B0]], 1
// CHECK: %[[B1:.*]] = tilegpu.memdesc_index %[[BARS]][%c1_i32{{.*}}]
// CHECK-NEXT: tilegpu.mbarrier_init %[[B1]], 1
// CHECK: %[[B2:.*]] = tilegpu.memdesc_index %[[BARS]][%c2_i32]
// CHECK-NEXT: tilegpu.mbarrier_init %[[B2]], 1
// CHECK-NEXT: tilegpu.barrier
// CHECK: %[[GO0:.*]] = arith.cmpi slt, %{{.*}}, %[[K:.*]] : i32
// CHECK-NEXT: scf.if %[[GO0]] {
// CHECK-NEXT: %[[P0:.*]] = tilegpu.memdesc_index %[[BARS]][%c0_i32{{.*}}]
// CHECK-NEXT: tilegpu.mbarrier_expect_tx %[[P0]], 16384
// CHECK: tilegpu.async_tma_copy_global_to_local %[[MA:[^\[]*]][%{{.*}}, %{{.*}}] %{{.*}}, %[[P0]]
// CHECK: tilegpu.async_tma_copy_global_to_local %[[MB:[^\[]*]][%{{.*}}, %{{.*}}] %{{.*}}, %[[P0]]
// CHECK-NEXT: }
// CHECK: scf.if
// CHECK-NEXT: %[[P1:.*]] = tilegpu.memdesc_index %[[BARS]][%c1_i32{{.*}}]
// CHECK-NEXT: tilegpu.mbarrier_expect_tx %[[P1]], 16384
// CHECK: %[[RES:.*]]:5 = scf.for %[[I:[a-z0-9_]+]] = {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[READ:.*]] = %c0_i32{{.*}}, %[[WRITE:.*]] = %c2_i32{{.*}}, %[[PHASE:.*]] = %c0_i32{{.*}}, %[[USE:.*]] = %false)
// CHECK-NOT: tilegpu.local_alloc
// CHECK-NOT: tilegpu.mbarrier_init
// CHECK: %[[RB:.*]] = tilegpu.memdesc_index %[[BARS]][%[[READ]]]
// CHECK-NEXT: tilegpu.mbarrier_wait %[[RB]], %[[PHASE]]
// CHECK-NEXT: %[[BA:.*]] = tilegpu.memdesc_index %[[SA]][%[[READ]]]
// CHECK-NEXT: %[[BB:.*]] = tilegpu.memdesc_index %[[SB]][%[[READ]]]
// CHECK-NOT: tilegpu.mbarrier
// CHECK: %[[BT:.*]] = tilegpu.memdesc_trans %[[BB]]
// CHECK-NEXT: %[[D:.*]] = tilegpu.warp_group_dot async %[[BA]], %[[BT]], %[[ACC]] use_c = %[[USE]]
// CHECK-NEXT: %[[W:.*]] = tilegpu.warp_group_dot_wait %[[D]] {pendings = 1 : i32}
// CHECK: %[[AHEAD:.*]] = arith.addi %[[I]], %{{.*}} : i32
// CHECK-NEXT: %[[GO:.*]] = arith.cmpi slt, %[[AHEAD]], %[[K]] : i32
// CHECK-NEXT: scf.if %[[GO]] {
// CHECK-NEXT: %[[WB:.*]] = tilegpu.memdesc_index %[[BARS]][%[[WRITE]]]
// CHECK-NEXT: tilegpu.mbarrier_expect_tx %[[WB]], 16384
// CHECK-NEXT: %[[KA:.*]] = arith.muli %[[AHEAD]], %{{.*}} : i32
// CHECK-NEXT: %[[WA:.*]] = tilegpu.memdesc_index %[[SA]][%[[WRITE]]]
// CHECK-NEXT: tilegpu.async_tma_copy_global_to_local %[[MA]][%{{.*}}, %[[KA]]] %[[WA]], %[[WB]]
// CHECK: %[[WBB:.*]] = tilegpu.memdesc_index %[[SB]][%[[WRITE]]]
// CHECK-NEXT: tilegpu.async_tma_copy_global_to_local %[[MB]][%{{.*}}, %{{.*}}] %[[WBB]], %[[WB]]
// CHECK-NEXT: }
// CHECK: %[[NEXT:.*]] = arith.select %{{.*}}, %c0_i32{{.*}}, %{{.*}} : i32
// CHECK: %[[WRAPPED:.*]] = arith.cmpi eq, %[[NEXT]], %c0_i32{{.*}} : i32
// CHECK: %[[FLIP:.*]] = arith.xori %[[PHASE]], %c1_i32{{.*}} : i32
// CHECK-NEXT: %[[NPHASE:.*]] = arith.select %[[WRAPPED]], %[[FLIP]], %[[PHASE]] : i32
// CHECK: scf.yield %[[W]], %[[NEXT]], %{{.*}}, %[[NPHASE]], %true
// CHECK: scf.if %[[RES]]#4
// CHECK: tilegpu.mbarrier_inval
// CHECK: tilegpu.mbarrier_inval
// CHECK: tilegpu.mbarrier_inval
// CHECK-NEXT: tilegpu.local_dealloc %[[SA]]
// CHECK-NEXT: tilegpu.local_dealloc %[[SB]]
// CHECK-NEXT: tilegpu.local_dealloc %[[BARS]]
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvt = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @tma_wgmma(%ma: !tile.ptr<i8>, %mb: !tile.ptr<i8>, %row: i32, %col: i32, %k: i32, %out: tensor<64x64x!tile.ptr<f32>, #mma>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %res = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
      %kk = arith.muli %i, %c64 : i32
      %a = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %abar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %abar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %abar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %ma[%row, %kk] %a, %abar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %abar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %abar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %b = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %bbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %bbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %bbar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mb[%col, %kk] %b, %bbar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %bbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %bbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %bt = tilegpu.memdesc_trans %b : !tilegpu.memdesc<64x64xf16, #nv, mutable> -> !tilegpu.memdesc<64x64xf16, #nvt, mutable>
      %d = tilegpu.warp_group_dot %a, %bt, %acc : !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<64x64xf16, #nvt, mutable> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tile.store %out, %res : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// The flattened tile loop (tutorial 09's FLAT kernel after canonicalization):
// the accumulator is read only under `scf.if` on a scalar condition (the
// tile's last step stores it) and reset by a select on that condition. The
// dot stays in flight across iterations (wait for 1 group after it); the
// if waits for none at the start of its then region and yields what it
// waited for, its else region the value in flight, and the loop carries
// that result; the select goes, the next dot's use_c being whether the
// accumulator holds a value (false after a reset and in the first
// iteration). After the loop, the wait for none only where it holds one.
// CHECK-LABEL: func.func @tma_wgmma_flat
// CHECK: %[[ZEROS:.*]] = arith.constant dense<0.000000e+00>
// CHECK: %[[RES:.*]]:5 = scf.for %[[I:[a-z0-9_]+]] = {{.*}} iter_args(%[[ACC:[a-z0-9_]+]] = %{{.*}}, %{{.*}} = %c0_i32{{.*}}, %{{.*}} = %c2_i32{{.*}}, %{{.*}} = %c0_i32{{.*}}, %[[USE:[a-z0-9_]+]] = %false)
// CHECK: %[[D:.*]] = tilegpu.warp_group_dot async %{{.*}}, %{{.*}}, %[[ACC]] use_c = %[[USE]]
// CHECK-NEXT: %[[W:.*]] = tilegpu.warp_group_dot_wait %[[D]] {pendings = 1 : i32}
// CHECK-NOT: arith.select %{{.*}}, %[[ZEROS]]
// CHECK-NOT: tilegpu.warp_group_dot_wait
// CHECK: %[[LAST:.*]] = arith.cmpi eq, %[[I]], %{{.*}} : i32
// CHECK-NOT: tilegpu.warp_group_dot_wait
// CHECK: %[[KEPT:.*]] = scf.if %[[LAST]] -> (tensor<64x64xf32, {{.*}}>) {
// CHECK-NEXT: %[[DONE:.*]] = tilegpu.warp_group_dot_wait %[[W]] {pendings = 0 : i32}
// CHECK-NEXT: tile.store %{{.*}}, %[[DONE]]
// CHECK-NEXT: scf.yield %[[DONE]] :
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[W]] :
// CHECK-NEXT: {{^ +}}}
// CHECK: %[[HOLDS:.*]] = arith.xori %[[LAST]], %true
// CHECK-NEXT: scf.yield %[[KEPT]], %{{.*}}, %{{.*}}, %{{.*}}, %[[HOLDS]]
// CHECK: %[[AFTER:.*]] = scf.if %[[RES]]#4
// CHECK-NEXT: tilegpu.warp_group_dot_wait %[[RES]]#0 {pendings = 0 : i32}
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[ZEROS]]
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvt = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @tma_wgmma_flat(%ma: !tile.ptr<i8>, %mb: !tile.ptr<i8>, %row: i32, %col: i32, %k: i32, %last_k: i32, %out: tensor<64x64x!tile.ptr<f32>, #mma>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %res = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
      %kk = arith.muli %i, %c64 : i32
      %a = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %abar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %abar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %abar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %ma[%row, %kk] %a, %abar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %abar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %abar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %b = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %bbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %bbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %bbar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mb[%col, %kk] %b, %bbar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %bbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %bbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %bt = tilegpu.memdesc_trans %b : !tilegpu.memdesc<64x64xf16, #nv, mutable> -> !tilegpu.memdesc<64x64xf16, #nvt, mutable>
      %d = tilegpu.warp_group_dot %a, %bt, %acc : !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<64x64xf16, #nvt, mutable> -> tensor<64x64xf32, #mma>
      %last = arith.cmpi eq, %i, %last_k : i32
      %next = arith.select %last, %acc0, %d : tensor<64x64xf32, #mma>
      scf.if %last {
        tile.store %out, %d : tensor<64x64x!tile.ptr<f32>, #mma>
      }
      scf.yield %next : tensor<64x64xf32, #mma>
    }
    tile.store %out, %res : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// The reset on the condition's false side, from an accumulator that is
// not zeros: the flag starts true (no ub.poison) and is the condition
// itself; the else region reads the accumulator (waits), the then region
// yields it in flight; the zeros after the loop are the reset's.
// CHECK-LABEL: func.func @tma_wgmma_flat_reset_when_false
// CHECK-NOT: ub.poison
// CHECK: %[[RES:.*]]:5 = scf.for %{{.*}} iter_args(%[[ACC:[a-z0-9_]+]] = %arg7, {{.*}}, %[[USE:[a-z0-9_]+]] = %true)
// CHECK: %[[D:.*]] = tilegpu.warp_group_dot async %{{.*}}, %{{.*}}, %[[ACC]] use_c = %[[USE]]
// CHECK-NEXT: %[[W:.*]] = tilegpu.warp_group_dot_wait %[[D]] {pendings = 1 : i32}
// CHECK: %[[GOON:.*]] = arith.cmpi ne
// CHECK: %[[KEPT:.*]] = scf.if %[[GOON]] -> (tensor<64x64xf32, {{.*}}>) {
// CHECK-NEXT: scf.yield %[[W]] :
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[DONE:.*]] = tilegpu.warp_group_dot_wait %[[W]] {pendings = 0 : i32}
// CHECK-NEXT: tile.store %{{.*}}, %[[DONE]]
// CHECK-NEXT: scf.yield %[[DONE]] :
// CHECK-NEXT: {{^ +}}}
// CHECK-NEXT: scf.yield %[[KEPT]], %{{.*}}, %{{.*}}, %{{.*}}, %[[GOON]]
// CHECK: scf.if %[[RES]]#4
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvt = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @tma_wgmma_flat_reset_when_false(%ma: !tile.ptr<i8>, %mb: !tile.ptr<i8>, %row: i32, %col: i32, %k: i32, %last_k: i32, %out: tensor<64x64x!tile.ptr<f32>, #mma>, %acc0: tensor<64x64xf32, #mma>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %zeros = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %res = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
      %kk = arith.muli %i, %c64 : i32
      %a = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %abar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %abar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %abar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %ma[%row, %kk] %a, %abar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %abar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %abar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %b = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %bbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %bbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %bbar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mb[%col, %kk] %b, %bbar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %bbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %bbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %bt = tilegpu.memdesc_trans %b : !tilegpu.memdesc<64x64xf16, #nv, mutable> -> !tilegpu.memdesc<64x64xf16, #nvt, mutable>
      %d = tilegpu.warp_group_dot %a, %bt, %acc : !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<64x64xf16, #nvt, mutable> -> tensor<64x64xf32, #mma>
      %goon = arith.cmpi ne, %i, %last_k : i32
      %next = arith.select %goon, %d, %zeros : tensor<64x64xf32, #mma>
      scf.if %goon {
      } else {
        tile.store %out, %d : tensor<64x64x!tile.ptr<f32>, #mma>
      }
      scf.yield %next : tensor<64x64xf32, #mma>
    }
    tile.store %out, %res : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// Must not: an accumulator read in every iteration (stored outside any
// scf.if), reset under a condition that is a tensor, read under a scalar
// condition from inline assembly (neither the same in every thread), or
// whose carried value something besides the dot reads keeps the dot
// synchronous: no wait, no use_c.
// CHECK-LABEL: func.func @tma_wgmma_acc_read_each_iteration
// CHECK: scf.for
// CHECK: tilegpu.warp_group_dot %{{.*}}, %{{.*}}, %{{[a-z0-9_]+}} :
// CHECK-NOT: tilegpu.warp_group_dot_wait
// CHECK: tilegpu.warp_group_dot %{{.*}}, %{{.*}}, %{{[a-z0-9_]+}} :
// CHECK-NOT: tilegpu.warp_group_dot_wait
// CHECK: tilegpu.warp_group_dot %{{.*}}, %{{.*}}, %{{[a-z0-9_]+}} :
// CHECK-NOT: tilegpu.warp_group_dot_wait
// CHECK: tilegpu.warp_group_dot %{{.*}}, %{{.*}}, %{{[a-z0-9_]+}} :
// CHECK-NOT: tilegpu.warp_group_dot_wait
// CHECK: return
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvt = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @tma_wgmma_acc_read_each_iteration(%ma: !tile.ptr<i8>, %mb: !tile.ptr<i8>, %row: i32, %col: i32, %k: i32, %last_k: i32, %out: tensor<64x64x!tile.ptr<f32>, #mma>, %mask: tensor<64x64xi1, #mma>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    // Stored in every iteration.
    %res = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
      %kk = arith.muli %i, %c64 : i32
      %a = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %abar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %abar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %abar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %ma[%row, %kk] %a, %abar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %abar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %abar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %d = tilegpu.warp_group_dot %a, %a, %acc : !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<64x64xf16, #nv, mutable> -> tensor<64x64xf32, #mma>
      %last = arith.cmpi eq, %i, %last_k : i32
      %next = arith.select %last, %acc0, %d : tensor<64x64xf32, #mma>
      tile.store %out, %d : tensor<64x64x!tile.ptr<f32>, #mma>
      scf.yield %next : tensor<64x64xf32, #mma>
    }
    // Reset element by element, on a tensor condition.
    %res2 = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %res) -> (tensor<64x64xf32, #mma>) : i32 {
      %kk = arith.muli %i, %c64 : i32
      %a = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %abar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %abar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %abar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %ma[%row, %kk] %a, %abar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %abar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %abar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %d = tilegpu.warp_group_dot %a, %a, %acc : !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<64x64xf16, #nv, mutable> -> tensor<64x64xf32, #mma>
      %next = arith.select %mask, %acc0, %d : tensor<64x64xi1, #mma>, tensor<64x64xf32, #mma>
      scf.yield %next : tensor<64x64xf32, #mma>
    }
    // Stored under a condition that may differ between threads (inline
    // assembly: the wgmma wait is .sync.aligned).
    %res25 = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %res2) -> (tensor<64x64xf32, #mma>) : i32 {
      %kk = arith.muli %i, %c64 : i32
      %a = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %abar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %abar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %abar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %ma[%row, %kk] %a, %abar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %abar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %abar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %d = tilegpu.warp_group_dot %a, %a, %acc : !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<64x64xf16, #nv, mutable> -> tensor<64x64xf32, #mma>
      %lane = tile.inline_asm "mov.u32 $0, %laneid;" constraints "=r" () {pack = 1 : i32, pure = true} : () -> i32
      %first = arith.cmpi eq, %lane, %c0 : i32
      scf.if %first {
        tile.store %out, %d : tensor<64x64x!tile.ptr<f32>, #mma>
      }
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    // The carried accumulator read besides the dot.
    %res3 = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %res25) -> (tensor<64x64xf32, #mma>) : i32 {
      %kk = arith.muli %i, %c64 : i32
      %a = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %abar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %abar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %abar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %ma[%row, %kk] %a, %abar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %abar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %abar : !tilegpu.memdesc<1xi64, #bar, mutable>
      tile.store %out, %acc : tensor<64x64x!tile.ptr<f32>, #mma>
      %d = tilegpu.warp_group_dot %a, %a, %acc : !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<64x64xf16, #nv, mutable> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tile.store %out, %res3 : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// TMA blocks read into dot operand layouts (local_load): this iteration's
// stage is read after the mbarrier wait. With three stages the copies for
// iteration i + 2 come after the last read (the dot is synchronous: no
// wgmma wait), a whole iteration ahead of their use anyway. With two
// (the loop's own tile.num_stages), the stage the copies for iteration
// i + 1 refill was last read in iteration i - 1: they come right after the
// wait, ahead of this iteration's reads, so that they have a whole
// iteration to land. A TMA block that is not only read into dot operands
// (also stored) keeps its per-iteration buffer and mbarrier: it is not
// pipelined.
// CHECK-LABEL: func.func @tma_dot_operands
// CHECK: tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x32xf16
// CHECK: tilegpu.local_alloc : () -> !tilegpu.memdesc<3x32x64xf16
// CHECK-NEXT: tilegpu.local_alloc : () -> !tilegpu.memdesc<3x1xi64
// CHECK-NOT: tilegpu.local_alloc : () -> !tilegpu.memdesc<3x
// CHECK: scf.for
// CHECK: tilegpu.mbarrier_wait %{{.*}}, %[[PHASE:arg[0-9]+]]
// CHECK: %[[X:.*]] = tilegpu.local_load %{{.*}} -> tensor<64x32xf16, #{{.*}}>
// CHECK: %[[Y:.*]] = tilegpu.local_load %{{.*}} -> tensor<32x64xf16, #{{.*}}>
// CHECK: scf.if
// CHECK: tilegpu.async_tma_copy_global_to_local
// CHECK: tilegpu.async_tma_copy_global_to_local
// CHECK-NEXT: }
// CHECK: %[[Z:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<32x64xf16
// CHECK: tilegpu.mbarrier_init
// CHECK: tilegpu.async_tma_copy_global_to_local %{{.*}} %[[Z]]
// CHECK: tilegpu.mbarrier_wait %{{.*}}, %c0_i32
// CHECK: tile.dot %[[X]], %[[Y]]
// CHECK-LABEL: func.func @tma_dot_operands_two_stages
// OFF-LABEL: func.func @tma_dot_operands_two_stages
// OFF: tilegpu.local_alloc : () -> !tilegpu.memdesc<2x64x32xf16
// CHECK: tilegpu.local_alloc : () -> !tilegpu.memdesc<2x64x32xf16
// CHECK: tilegpu.local_alloc : () -> !tilegpu.memdesc<2x32x64xf16
// CHECK: scf.for
// CHECK: tilegpu.mbarrier_wait %{{.*}}, %{{.*}}
// CHECK-NOT: tilegpu.local_load
// CHECK: scf.if
// CHECK: tilegpu.async_tma_copy_global_to_local
// CHECK: tilegpu.async_tma_copy_global_to_local
// CHECK-NEXT: }
// CHECK: %[[X:.*]] = tilegpu.local_load %{{.*}} -> tensor<64x32xf16, #{{.*}}>
// CHECK: %[[Y:.*]] = tilegpu.local_load %{{.*}} -> tensor<32x64xf16, #{{.*}}>
// CHECK-NOT: tilegpu.async_tma_copy_global_to_local
// CHECK: tile.dot %[[X]], %[[Y]]
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#nv2 = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dotA = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#dotB = #tilegpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @tma_dot_operands(%ma: !tile.ptr<i8>, %mb: !tile.ptr<i8>, %row: i32, %col: i32, %k: i32, %out: tensor<64x64x!tile.ptr<f32>, #mma>, %side: tensor<32x64x!tile.ptr<f16>, #blocked>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %res = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
      %kk = arith.muli %i, %c32 : i32
      %a = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x32xf16, #nv, mutable>
      %abar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %abar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %abar, 4096 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %ma[%row, %kk] %a, %abar : !tile.ptr<i8>, !tilegpu.memdesc<64x32xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %abar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %abar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %x = tilegpu.local_load %a : !tilegpu.memdesc<64x32xf16, #nv, mutable> -> tensor<64x32xf16, #dotA>
      %b = tilegpu.local_alloc : () -> !tilegpu.memdesc<32x64xf16, #nv2, mutable>
      %bbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %bbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %bbar, 4096 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mb[%kk, %col] %b, %bbar : !tile.ptr<i8>, !tilegpu.memdesc<32x64xf16, #nv2, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %bbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %bbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %y = tilegpu.local_load %b : !tilegpu.memdesc<32x64xf16, #nv2, mutable> -> tensor<32x64xf16, #dotB>
      %z = tilegpu.local_alloc : () -> !tilegpu.memdesc<32x64xf16, #nv2, mutable>
      %zbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %zbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %zbar, 4096 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mb[%kk, %row] %z, %zbar : !tile.ptr<i8>, !tilegpu.memdesc<32x64xf16, #nv2, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %zbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %zbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %zv = tilegpu.local_load %z : !tilegpu.memdesc<32x64xf16, #nv2, mutable> -> tensor<32x64xf16, #blocked>
      tile.store %side, %zv : tensor<32x64x!tile.ptr<f16>, #blocked>
      %d = tile.dot %x, %y, %acc : tensor<64x32xf16, #dotA> * tensor<32x64xf16, #dotB> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tile.store %out, %res : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }
  func.func @tma_dot_operands_two_stages(%ma: !tile.ptr<i8>, %mb: !tile.ptr<i8>, %row: i32, %col: i32, %k: i32, %out: tensor<64x64x!tile.ptr<f32>, #mma>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %res = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
      %kk = arith.muli %i, %c32 : i32
      %a = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x32xf16, #nv, mutable>
      %abar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %abar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %abar, 4096 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %ma[%row, %kk] %a, %abar : !tile.ptr<i8>, !tilegpu.memdesc<64x32xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %abar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %abar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %x = tilegpu.local_load %a : !tilegpu.memdesc<64x32xf16, #nv, mutable> -> tensor<64x32xf16, #dotA>
      %b = tilegpu.local_alloc : () -> !tilegpu.memdesc<32x64xf16, #nv2, mutable>
      %bbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %bbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %bbar, 4096 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mb[%kk, %col] %b, %bbar : !tile.ptr<i8>, !tilegpu.memdesc<32x64xf16, #nv2, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %bbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %bbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %y = tilegpu.local_load %b : !tilegpu.memdesc<32x64xf16, #nv2, mutable> -> tensor<32x64xf16, #dotB>
      %d = tile.dot %x, %y, %acc : tensor<64x32xf16, #dotA> * tensor<32x64xf16, #dotB> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    } {tile.num_stages = 2 : i32}
    tile.store %out, %res : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// Must not: coordinates that depend on what the loop loads cannot be
// computed for an iteration ahead; the copy stays as it is.
// CHECK-LABEL: func.func @tma_data_dependent_coordinates
// CHECK-NOT: tilegpu.memdesc_index
// CHECK: scf.for
// CHECK: tile.load
// CHECK: tilegpu.mbarrier_init
// CHECK: tilegpu.async_tma_copy_global_to_local
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @tma_data_dependent_coordinates(%ma: !tile.ptr<i8>, %rows: !tile.ptr<i32>, %k: i32, %out: tensor<64x64x!tile.ptr<f32>, #mma>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %res = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
      %p = tile.addptr %rows, %i : !tile.ptr<i32>, i32
      %row = tile.load %p : !tile.ptr<i32>
      %a = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %abar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %abar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %abar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %ma[%row, %c0] %a, %abar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %abar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %abar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %d = tilegpu.warp_group_dot %a, %a, %acc : !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<64x64xf16, #nv, mutable> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tile.store %out, %res : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// A coordinate the loop carries and advances by its step (Triton's
// attention tutorial: `offsetkv_y += BLOCK_N`) is the induction variable's
// `init + (i - lb)`: the copy is pipelined like one at coordinates computed
// from i (the ring, the copies ahead before the loop), the carried value
// only what the loop yields.
// CHECK-LABEL: func.func @tma_carried_coordinate(
// CHECK-SAME: %[[MAP:[a-z0-9]+]]: !tile.ptr<i8>, %[[ROW0:[a-z0-9]+]]: i32, %[[LB:[a-z0-9]+]]: i32
// CHECK: tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x64xf16
// CHECK: %[[D0:.*]] = arith.subi %{{.*}}, %[[LB]] : i32
// CHECK-NEXT: %[[R0:.*]] = arith.addi %[[ROW0]], %[[D0]] : i32
// CHECK: tilegpu.async_tma_copy_global_to_local %[[MAP]][%[[R0]], %c0_i32]
// CHECK: scf.for %[[I:[a-z0-9_]+]] = %[[LB]] to
// CHECK-NEXT: %[[K:.*]] = arith.subi %[[I]], %[[LB]] : i32
// CHECK-NEXT: arith.addi %[[ROW0]], %[[K]] : i32
// CHECK: tilegpu.async_tma_copy_global_to_local %[[MAP]]
// CHECK-NOT: tilegpu.mbarrier_init
// CHECK: scf.yield
// Must not: advanced by a loop-variant amount, the copy stays as it is.
// CHECK-LABEL: func.func @tma_carried_coordinate_variant_step
// CHECK-NOT: tilegpu.memdesc_index
// CHECK: scf.for
// CHECK: tilegpu.mbarrier_init
// CHECK: tilegpu.async_tma_copy_global_to_local
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @tma_carried_coordinate(%ma: !tile.ptr<i8>, %row0: i32, %lb: i32, %k: i32, %out: tensor<64x64x!tile.ptr<f32>, #mma>) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %res:2 = scf.for %i = %lb to %k step %c64 iter_args(%acc = %acc0, %row = %row0) -> (tensor<64x64xf32, #mma>, i32) : i32 {
      %a = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %abar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %abar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %abar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %ma[%row, %c0] %a, %abar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %abar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %abar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %d = tilegpu.warp_group_dot %a, %a, %acc : !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<64x64xf16, #nv, mutable> -> tensor<64x64xf32, #mma>
      %next = arith.addi %row, %c64 : i32
      scf.yield %d, %next : tensor<64x64xf32, #mma>, i32
    }
    tile.store %out, %res#0 : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }

  func.func @tma_carried_coordinate_variant_step(%ma: !tile.ptr<i8>, %row0: i32, %k: i32, %out: tensor<64x64x!tile.ptr<f32>, #mma>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %res:2 = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %acc0, %row = %row0) -> (tensor<64x64xf32, #mma>, i32) : i32 {
      %a = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %abar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %abar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %abar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %ma[%row, %c0] %a, %abar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %abar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %abar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %d = tilegpu.warp_group_dot %a, %a, %acc : !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<64x64xf16, #nv, mutable> -> tensor<64x64xf32, #mma>
      %next = arith.addi %row, %i : i32
      scf.yield %d, %next : tensor<64x64xf32, #mma>, i32
    }
    tile.store %out, %res#0 : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// Pointers computed in the loop from the induction variable (Triton's
// `a_ptr + k * BK + offs`, and descriptor loads lowered to pointers): no
// carried pointers; each copy computes its iteration's pointers (before
// the loop for iterations 0 and 1, in the loop for i + 2 after the reads).
// Must not: pointers that depend on what the loop loads stay a load.
// CHECK-LABEL: func.func @computed_pointers
// CHECK: %[[S:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x32xf16
// CHECK: %[[K0:.*]] = arith.muli %{{.*}}, %c32_i32 : i32
// CHECK-NEXT: %[[P0:.*]] = tile.addptr %{{.*}}, %[[K0]] : !tile.ptr<f16>, i32
// CHECK-NEXT: %[[T0:.*]] = tile.splat %[[P0]]
// CHECK-NEXT: %[[Q0:.*]] = tile.addptr %[[T0]], %{{.*}}
// CHECK: tilegpu.async_copy_global_to_local %[[Q0]]
// CHECK: tilegpu.async_commit_group
// CHECK: tilegpu.async_copy_global_to_local
// CHECK: tilegpu.async_commit_group
// CHECK: scf.for %[[I:[a-z0-9_]+]] = {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[READ:.*]] = %c0_i32{{.*}}, %[[WRITE:.*]] = %c2_i32{{.*}}) -> (tensor<64x64xf32, #{{.*}}>, i32, i32)
// CHECK-NEXT: tilegpu.async_wait {num = 1 : i32}
// CHECK: tilegpu.local_load
// CHECK: %[[AHEAD:.*]] = arith.addi %[[I]], %{{.*}} : i32
// CHECK: %[[KA:.*]] = arith.muli %[[AHEAD]], %c32_i32 : i32
// CHECK-NEXT: %[[PA:.*]] = tile.addptr %{{.*}}, %[[KA]] : !tile.ptr<f16>, i32
// CHECK-NEXT: %[[TA:.*]] = tile.splat %[[PA]]
// CHECK-NEXT: %[[QA:.*]] = tile.addptr %[[TA]], %{{.*}}
// CHECK: tilegpu.async_copy_global_to_local %[[QA]]
// CHECK-NOT: tile.load %{{.*}} : tensor<64x32x!tile.ptr<f16>
// CHECK: tile.dot
// CHECK-LABEL: func.func @loaded_pointers
// CHECK-NOT: tilegpu.async_copy_global_to_local
// CHECK: tile.load %{{.*}} : tensor<64x32x!tile.ptr<f16>
#blocked1 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dotA = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#dotB = #tilegpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:80", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @computed_pointers(%abase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: tensor<32x64xf16, #dotB>, %k: i32, %out: tensor<64x64x!tile.ptr<f32>, #mma>) {
    %ar = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked1}>>
    %ac = tile.make_range 0 to 32 : tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #blocked1}>>
    %ar2 = tile.expand_dims %ar axis = 1 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked1}>> -> tensor<64x1xi32, #blocked1>
    %ac2 = tile.expand_dims %ac axis = 0 : tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x32xi32, #blocked1>
    %a32 = arith.constant dense<1024> : tensor<64x1xi32, #blocked1>
    %arows = arith.muli %ar2, %a32 : tensor<64x1xi32, #blocked1>
    %arb = tile.broadcast %arows : tensor<64x1xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
    %acb = tile.broadcast %ac2 : tensor<1x32xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
    %off = arith.addi %arb, %acb : tensor<64x32xi32, #blocked1>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %r = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
      %kk = arith.muli %i, %c32 : i32
      %p = tile.addptr %abase, %kk : !tile.ptr<f16>, i32
      %ps = tile.splat %p : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>, #blocked1>
      %pa = tile.addptr %ps, %off : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
      %x = tile.load %pa : tensor<64x32x!tile.ptr<f16>, #blocked1>
      %xa = tilegpu.convert_layout %x : tensor<64x32xf16, #blocked1> -> tensor<64x32xf16, #dotA>
      %d = tile.dot %xa, %b, %acc : tensor<64x32xf16, #dotA> * tensor<32x64xf16, #dotB> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tile.store %out, %r : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }
  func.func @loaded_pointers(%abase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %offs: !tile.ptr<i32>, %b: tensor<32x64xf16, #dotB>, %k: i32, %out: tensor<64x64x!tile.ptr<f32>, #mma>) {
    %ar = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked1}>>
    %ac = tile.make_range 0 to 32 : tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #blocked1}>>
    %ar2 = tile.expand_dims %ar axis = 1 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked1}>> -> tensor<64x1xi32, #blocked1>
    %ac2 = tile.expand_dims %ac axis = 0 : tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x32xi32, #blocked1>
    %a32 = arith.constant dense<1024> : tensor<64x1xi32, #blocked1>
    %arows = arith.muli %ar2, %a32 : tensor<64x1xi32, #blocked1>
    %arb = tile.broadcast %arows : tensor<64x1xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
    %acb = tile.broadcast %ac2 : tensor<1x32xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
    %off = arith.addi %arb, %acb : tensor<64x32xi32, #blocked1>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %r = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
      %q = tile.addptr %offs, %i : !tile.ptr<i32>, i32
      %kk = tile.load %q : !tile.ptr<i32>
      %p = tile.addptr %abase, %kk : !tile.ptr<f16>, i32
      %ps = tile.splat %p : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>, #blocked1>
      %pa = tile.addptr %ps, %off : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
      %x = tile.load %pa : tensor<64x32x!tile.ptr<f16>, #blocked1>
      %xa = tilegpu.convert_layout %x : tensor<64x32xf16, #blocked1> -> tensor<64x32xf16, #dotA>
      %d = tile.dot %xa, %b, %acc : tensor<64x32xf16, #dotA> * tensor<32x64xf16, #dotB> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tile.store %out, %r : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// B given N x K and transposed in the kernel (tile.trans) before its wgmma
// buffer: the stack holds the blocks as loaded (the buffer layout with
// `transposed` flipped, N x K), the copies write them as loaded, and the
// dot reads a memdesc_trans of this iteration's buffer; the dot is async.
// CHECK-LABEL: func.func @wgmma_transposed_operand
// CHECK: tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x64xf16, #[[NV:[a-z0-9_]+]], mutable>
// CHECK-NEXT: %[[SB:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x64xf16, #[[NV]], mutable>
// CHECK: scf.for
// CHECK: %[[BB:.*]] = tilegpu.memdesc_index %[[SB]][%{{.*}}] : !tilegpu.memdesc<3x64x64xf16, #[[NV]], mutable> -> !tilegpu.memdesc<64x64xf16, #[[NV]], mutable>
// CHECK-NEXT: %[[BT:.*]] = tilegpu.memdesc_trans %[[BB]] : !tilegpu.memdesc<64x64xf16, #[[NV]], mutable> -> !tilegpu.memdesc<64x64xf16, #[[NVT:[a-z0-9_]+]], mutable>
// CHECK-NOT: tile.trans
// CHECK: tilegpu.warp_group_dot async %{{.*}}, %[[BT]]
// CHECK: tilegpu.async_copy_global_to_local %{{.*}} -> !tilegpu.memdesc<64x64xf16, #[[NV]], mutable>
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #tilegpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvt = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @wgmma_transposed_operand(%abase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %bbase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %k: i32, %out: tensor<64x64x!tile.ptr<f32>, #mma>) {
    %r = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked}>>
    %c = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked}>>
    %r2 = tile.expand_dims %r axis = 1 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %c2 = tile.expand_dims %c axis = 0 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %s64 = arith.constant dense<4096> : tensor<64x1xi32, #blocked>
    %rows = arith.muli %r2, %s64 : tensor<64x1xi32, #blocked>
    %rb = tile.broadcast %rows : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %cb = tile.broadcast %c2 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #blocked>
    %asp = tile.splat %abase : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blocked>
    %a = tile.addptr %asp, %off : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %bsp = tile.splat %bbase : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blocked>
    %b = tile.addptr %bsp, %off : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %step = arith.constant dense<64> : tensor<64x64xi32, #blocked>
    %res:3 = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %acc0, %pa = %a, %pb = %b) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64x!tile.ptr<f16>, #blocked>) : i32 {
      %x = tile.load %pa : tensor<64x64x!tile.ptr<f16>, #blocked>
      %y = tile.load %pb : tensor<64x64x!tile.ptr<f16>, #blocked>
      %yt = tile.trans %y [1, 0] : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
      %xs = tilegpu.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !tilegpu.memdesc<64x64xf16, #nv>
      %ys = tilegpu.local_alloc %yt : (tensor<64x64xf16, #blocked1>) -> !tilegpu.memdesc<64x64xf16, #nvt>
      %d = tilegpu.warp_group_dot %xs, %ys, %acc : !tilegpu.memdesc<64x64xf16, #nv>, !tilegpu.memdesc<64x64xf16, #nvt> -> tensor<64x64xf32, #mma>
      %pa2 = tile.addptr %pa, %step : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %pb2 = tile.addptr %pb, %step : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      scf.yield %d, %pa2, %pb2 : tensor<64x64xf32, #mma>, tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64x!tile.ptr<f16>, #blocked>
    }
    tile.store %out, %res#0 : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// One buffer read by one wgmma as it is and by another through memdesc_trans
// (dO and dO^T in attention's backward): the load is pipelined, both dots
// read this iteration's buffer of the stack, the transposed view now of the
// mutable buffer. The two dots are issued back to back, asynchronously, and
// waited for together before the yield.
// CHECK-LABEL: func.func @wgmma_buffer_and_its_transpose
// CHECK: %[[SY:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x64xf16, #[[NV:[a-z0-9_]+]], mutable>
// CHECK: scf.for
// CHECK-NOT: tile.load
// CHECK: %[[YB:.*]] = tilegpu.memdesc_index %[[SY]][%{{.*}}] : !tilegpu.memdesc<3x64x64xf16, #[[NV]], mutable> -> !tilegpu.memdesc<64x64xf16, #[[NV]], mutable>
// CHECK: tilegpu.warp_group_dot async %{{.*}}, %[[YB]]
// CHECK: %[[YT:.*]] = tilegpu.memdesc_trans %[[YB]] : !tilegpu.memdesc<64x64xf16, #[[NV]], mutable> -> !tilegpu.memdesc<64x64xf16, #{{[a-z0-9_]+}}, mutable>
// CHECK: tilegpu.warp_group_dot async %{{.*}}, %[[YT]]
// CHECK: tilegpu.async_copy_global_to_local %{{.*}} -> !tilegpu.memdesc<64x64xf16, #[[NV]], mutable>
// CHECK: tilegpu.warp_group_dot_wait %{{.*}}, %{{.*}} {pendings = 0 : i32}
// CHECK-NEXT: scf.yield
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvt = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @wgmma_buffer_and_its_transpose(%xs: !tilegpu.memdesc<64x64xf16, #nv>, %bbase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %k: i32, %out: tensor<64x64x!tile.ptr<f32>, #mma>) {
    %r = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked}>>
    %c = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked}>>
    %r2 = tile.expand_dims %r axis = 1 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %c2 = tile.expand_dims %c axis = 0 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %s64 = arith.constant dense<64> : tensor<64x1xi32, #blocked>
    %rows = arith.muli %r2, %s64 : tensor<64x1xi32, #blocked>
    %rb = tile.broadcast %rows : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %cb = tile.broadcast %c2 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #blocked>
    %bsp = tile.splat %bbase : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blocked>
    %b = tile.addptr %bsp, %off : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %step = arith.constant dense<4096> : tensor<64x64xi32, #blocked>
    %res:3 = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %acc0, %acct = %acc0, %pb = %b) -> (tensor<64x64xf32, #mma>, tensor<64x64xf32, #mma>, tensor<64x64x!tile.ptr<f16>, #blocked>) : i32 {
      %y = tile.load %pb : tensor<64x64x!tile.ptr<f16>, #blocked>
      %ys = tilegpu.local_alloc %y : (tensor<64x64xf16, #blocked>) -> !tilegpu.memdesc<64x64xf16, #nv>
      %d = tilegpu.warp_group_dot %xs, %ys, %acc : !tilegpu.memdesc<64x64xf16, #nv>, !tilegpu.memdesc<64x64xf16, #nv> -> tensor<64x64xf32, #mma>
      %yt = tilegpu.memdesc_trans %ys : !tilegpu.memdesc<64x64xf16, #nv> -> !tilegpu.memdesc<64x64xf16, #nvt>
      %dt = tilegpu.warp_group_dot %xs, %yt, %acct : !tilegpu.memdesc<64x64xf16, #nv>, !tilegpu.memdesc<64x64xf16, #nvt> -> tensor<64x64xf32, #mma>
      %pb2 = tile.addptr %pb, %step : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      scf.yield %d, %dt, %pb2 : tensor<64x64xf32, #mma>, tensor<64x64xf32, #mma>, tensor<64x64x!tile.ptr<f16>, #blocked>
    }
    %sum = arith.addf %res#0, %res#1 : tensor<64x64xf32, #mma>
    tile.store %out, %sum : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// Several dots in the body reading pipelined buffers and buffers from
// outside the loop: all become async, issued in the order their results
// are needed, each as early as its operands allow (%t, independent of the
// exp2, right after %s), and waited for in front of their first user with
// the dots issued since left in flight; the accumulator the loop carries
// is waited for before the yield.
// CHECK-LABEL: func.func @overlapped_dots
// CHECK: scf.for
// CHECK: %[[S:.*]] = tilegpu.warp_group_dot async
// CHECK-NEXT: %[[T:.*]] = tilegpu.warp_group_dot async
// CHECK-NEXT: %[[SW:.*]] = tilegpu.warp_group_dot_wait %[[S]] {pendings = 1 : i32}
// CHECK-NEXT: math.exp2 %[[SW]]
// CHECK-NEXT: %[[TW:.*]] = tilegpu.warp_group_dot_wait %[[T]] {pendings = 0 : i32}
// CHECK-NEXT: arith.addf %{{.*}}, %[[TW]]
// CHECK: %[[D:.*]] = tilegpu.warp_group_dot async
// CHECK: tilegpu.async_commit_group
// CHECK: %[[DW:.*]] = tilegpu.warp_group_dot_wait %[[D]] {pendings = 0 : i32}
// CHECK-NEXT: scf.yield %[[DW]]
// OFF-LABEL: func.func @overlapped_dots
// OFF-NOT: async
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @overlapped_dots(%xs: !tilegpu.memdesc<64x64xf16, #nv>, %bbase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %k: i32, %out: tensor<64x64x!tile.ptr<f32>, #mma>, %side: tensor<64x64x!tile.ptr<f32>, #mma>) {
    %r = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked}>>
    %c = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked}>>
    %r2 = tile.expand_dims %r axis = 1 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %c2 = tile.expand_dims %c axis = 0 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %s64 = arith.constant dense<64> : tensor<64x1xi32, #blocked>
    %rows = arith.muli %r2, %s64 : tensor<64x1xi32, #blocked>
    %rb = tile.broadcast %rows : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %cb = tile.broadcast %c2 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #blocked>
    %bsp = tile.splat %bbase : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blocked>
    %b = tile.addptr %bsp, %off : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %step = arith.constant dense<4096> : tensor<64x64xi32, #blocked>
    %res:2 = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %acc0, %pb = %b) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tile.ptr<f16>, #blocked>) : i32 {
      %y = tile.load %pb : tensor<64x64x!tile.ptr<f16>, #blocked>
      %ys = tilegpu.local_alloc %y : (tensor<64x64xf16, #blocked>) -> !tilegpu.memdesc<64x64xf16, #nv>
      %s = tilegpu.warp_group_dot %xs, %ys, %acc0 : !tilegpu.memdesc<64x64xf16, #nv>, !tilegpu.memdesc<64x64xf16, #nv> -> tensor<64x64xf32, #mma>
      %e = math.exp2 %s : tensor<64x64xf32, #mma>
      %t = tilegpu.warp_group_dot %xs, %xs, %acc0 : !tilegpu.memdesc<64x64xf16, #nv>, !tilegpu.memdesc<64x64xf16, #nv> -> tensor<64x64xf32, #mma>
      %u = arith.addf %e, %t : tensor<64x64xf32, #mma>
      tile.store %side, %u : tensor<64x64x!tile.ptr<f32>, #mma>
      %d = tilegpu.warp_group_dot %xs, %ys, %acc : !tilegpu.memdesc<64x64xf16, #nv>, !tilegpu.memdesc<64x64xf16, #nv> -> tensor<64x64xf32, #mma>
      %pb2 = tile.addptr %pb, %step : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      scf.yield %d, %pb2 : tensor<64x64xf32, #mma>, tensor<64x64x!tile.ptr<f16>, #blocked>
    }
    tile.store %out, %res#0 : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// A row vector loaded each iteration (attention backward's log-sum-exp)
// and converted for elementwise code joins the copies: a stack of its own,
// one cp.async group per iteration, read in the conversion's layout; no
// load is left in the loop.

// CHECK: #[[$COL:.+]] = #tilegpu.slice<{dim = 0, parent = #tilegpu.nvidia_mma
// CHECK-LABEL: func.func @row_vector
// CHECK: tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x64xf16
// CHECK: %[[VS:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64xf32
// CHECK: tilegpu.async_copy_global_to_local {{.*}} : tensor<64x!tile.ptr<f32>, #{{.*}}>, tensor<64xi1, #{{.*}}> -> !tilegpu.memdesc<64xf32
// CHECK: scf.for
// CHECK-NOT: tile.load
// CHECK: %[[V:.*]] = tilegpu.memdesc_index %[[VS]]
// CHECK-NEXT: tilegpu.local_load %[[V]] : !tilegpu.memdesc<64xf32, {{.*}}> -> tensor<64xf32, #[[$COL]]>
// CHECK-NOT: tile.load
// CHECK: tilegpu.async_copy_global_to_local {{.*}} -> !tilegpu.memdesc<64xf32
// CHECK: scf.yield
// OFF-LABEL: func.func @row_vector
// OFF: scf.for
// OFF: tile.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x!tile.ptr<f32>
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#vec = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#col = #tilegpu.slice<{dim = 0, parent = #mma}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @row_vector(%xs: !tilegpu.memdesc<64x64xf16, #nv>, %bbase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %lse: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32, %k: i32, %out: tensor<64x64x!tile.ptr<f32>, #mma>, %side: tensor<64x64x!tile.ptr<f32>, #mma>) {
    %r = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked}>>
    %c = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked}>>
    %r2 = tile.expand_dims %r axis = 1 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %c2 = tile.expand_dims %c axis = 0 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %s64 = arith.constant dense<64> : tensor<64x1xi32, #blocked>
    %rows = arith.muli %r2, %s64 : tensor<64x1xi32, #blocked>
    %rb = tile.broadcast %rows : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %cb = tile.broadcast %c2 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #blocked>
    %bsp = tile.splat %bbase : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blocked>
    %b = tile.addptr %bsp, %off : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %vr = tile.make_range 0 to 64 : tensor<64xi32, #vec>
    %vsp = tile.splat %lse : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>, #vec>
    %nv = tile.splat %n : i32 -> tensor<64xi32, #vec>
    %zero = arith.constant dense<0.0> : tensor<64xf32, #vec>
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %step = arith.constant dense<4096> : tensor<64x64xi32, #blocked>
    %res:2 = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %acc0, %pb = %b) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tile.ptr<f16>, #blocked>) : i32 {
      %y = tile.load %pb : tensor<64x64x!tile.ptr<f16>, #blocked>
      %ys = tilegpu.local_alloc %y : (tensor<64x64xf16, #blocked>) -> !tilegpu.memdesc<64x64xf16, #nv>
      %s = tilegpu.warp_group_dot %xs, %ys, %acc0 : !tilegpu.memdesc<64x64xf16, #nv>, !tilegpu.memdesc<64x64xf16, #nv> -> tensor<64x64xf32, #mma>
      %iv = tile.splat %i : i32 -> tensor<64xi32, #vec>
      %offs = arith.addi %iv, %vr : tensor<64xi32, #vec>
      %ok = arith.cmpi slt, %offs, %nv : tensor<64xi32, #vec>
      %vp = tile.addptr %vsp, %offs : tensor<64x!tile.ptr<f32>, #vec>, tensor<64xi32, #vec>
      %v = tile.load %vp, %ok, %zero : tensor<64x!tile.ptr<f32>, #vec>
      %vc = tilegpu.convert_layout %v : tensor<64xf32, #vec> -> tensor<64xf32, #col>
      %v2 = tile.expand_dims %vc axis = 0 : tensor<64xf32, #col> -> tensor<1x64xf32, #mma>
      %vb = tile.broadcast %v2 : tensor<1x64xf32, #mma> -> tensor<64x64xf32, #mma>
      %e0 = arith.subf %s, %vb : tensor<64x64xf32, #mma>
      %e = math.exp2 %e0 : tensor<64x64xf32, #mma>
      %t = tilegpu.warp_group_dot %xs, %xs, %acc0 : !tilegpu.memdesc<64x64xf16, #nv>, !tilegpu.memdesc<64x64xf16, #nv> -> tensor<64x64xf32, #mma>
      %u = arith.addf %e, %t : tensor<64x64xf32, #mma>
      tile.store %side, %u : tensor<64x64x!tile.ptr<f32>, #mma>
      %d = tilegpu.warp_group_dot %xs, %ys, %acc : !tilegpu.memdesc<64x64xf16, #nv>, !tilegpu.memdesc<64x64xf16, #nv> -> tensor<64x64xf32, #mma>
      %pb2 = tile.addptr %pb, %step : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      scf.yield %d, %pb2 : tensor<64x64xf32, #mma>, tensor<64x64x!tile.ptr<f16>, #blocked>
    }
    tile.store %out, %res#0 : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// Must not: a loop whose one dot keeps its accumulator in flight keeps its
// row vector a load (the form pipelines its dot's operands alone).

// CHECK-LABEL: func.func @row_vector_beside_dot_in_flight
// CHECK: scf.for
// CHECK: tile.load %{{.*}} : tensor<64x!tile.ptr<f32>
// CHECK: tilegpu.warp_group_dot async
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#vec = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#col = #tilegpu.slice<{dim = 0, parent = #mma}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @row_vector_beside_dot_in_flight(%xs: !tilegpu.memdesc<64x64xf16, #nv>, %bbase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %lse: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %k: i32, %out: tensor<64x64x!tile.ptr<f32>, #mma>, %side: tensor<64x!tile.ptr<f32>, #col>) {
    %r = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked}>>
    %c = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked}>>
    %r2 = tile.expand_dims %r axis = 1 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %c2 = tile.expand_dims %c axis = 0 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %s64 = arith.constant dense<64> : tensor<64x1xi32, #blocked>
    %rows = arith.muli %r2, %s64 : tensor<64x1xi32, #blocked>
    %rb = tile.broadcast %rows : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %cb = tile.broadcast %c2 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #blocked>
    %bsp = tile.splat %bbase : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blocked>
    %b = tile.addptr %bsp, %off : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %vr = tile.make_range 0 to 64 : tensor<64xi32, #vec>
    %vsp = tile.splat %lse : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>, #vec>
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %step = arith.constant dense<4096> : tensor<64x64xi32, #blocked>
    %res:2 = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %acc0, %pb = %b) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tile.ptr<f16>, #blocked>) : i32 {
      %y = tile.load %pb : tensor<64x64x!tile.ptr<f16>, #blocked>
      %ys = tilegpu.local_alloc %y : (tensor<64x64xf16, #blocked>) -> !tilegpu.memdesc<64x64xf16, #nv>
      %iv = tile.splat %i : i32 -> tensor<64xi32, #vec>
      %offs = arith.addi %iv, %vr : tensor<64xi32, #vec>
      %vp = tile.addptr %vsp, %offs : tensor<64x!tile.ptr<f32>, #vec>, tensor<64xi32, #vec>
      %v = tile.load %vp : tensor<64x!tile.ptr<f32>, #vec>
      %vc = tilegpu.convert_layout %v : tensor<64xf32, #vec> -> tensor<64xf32, #col>
      tile.store %side, %vc : tensor<64x!tile.ptr<f32>, #col>
      %d = tilegpu.warp_group_dot %ys, %ys, %acc : !tilegpu.memdesc<64x64xf16, #nv>, !tilegpu.memdesc<64x64xf16, #nv> -> tensor<64x64xf32, #mma>
      %pb2 = tile.addptr %pb, %step : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      scf.yield %d, %pb2 : tensor<64x64xf32, #mma>, tensor<64x64x!tile.ptr<f16>, #blocked>
    }
    tile.store %out, %res#0 : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// Must not: a dot reading a buffer the body writes itself (a local_alloc of
// a computed value, not a pipelined load) keeps every dot of the loop
// synchronous.
// CHECK-LABEL: func.func @dots_reading_body_buffers
// CHECK: scf.for
// CHECK-NOT: warp_group_dot async
// CHECK-NOT: warp_group_dot_wait
// CHECK: scf.yield
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @dots_reading_body_buffers(%xs: !tilegpu.memdesc<64x64xf16, #nv>, %bbase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %k: i32, %out: tensor<64x64x!tile.ptr<f32>, #mma>) {
    %r = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked}>>
    %c = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked}>>
    %r2 = tile.expand_dims %r axis = 1 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %c2 = tile.expand_dims %c axis = 0 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %s64 = arith.constant dense<64> : tensor<64x1xi32, #blocked>
    %rows = arith.muli %r2, %s64 : tensor<64x1xi32, #blocked>
    %rb = tile.broadcast %rows : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %cb = tile.broadcast %c2 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #blocked>
    %bsp = tile.splat %bbase : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blocked>
    %b = tile.addptr %bsp, %off : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %step = arith.constant dense<4096> : tensor<64x64xi32, #blocked>
    %res:2 = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %acc0, %pb = %b) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tile.ptr<f16>, #blocked>) : i32 {
      %y = tile.load %pb : tensor<64x64x!tile.ptr<f16>, #blocked>
      %ys = tilegpu.local_alloc %y : (tensor<64x64xf16, #blocked>) -> !tilegpu.memdesc<64x64xf16, #nv>
      %s = tilegpu.warp_group_dot %xs, %ys, %acc0 : !tilegpu.memdesc<64x64xf16, #nv>, !tilegpu.memdesc<64x64xf16, #nv> -> tensor<64x64xf32, #mma>
      %h = arith.truncf %s : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
      %hs = tilegpu.local_alloc %h : (tensor<64x64xf16, #mma>) -> !tilegpu.memdesc<64x64xf16, #nv>
      %d = tilegpu.warp_group_dot %hs, %ys, %acc : !tilegpu.memdesc<64x64xf16, #nv>, !tilegpu.memdesc<64x64xf16, #nv> -> tensor<64x64xf32, #mma>
      %pb2 = tile.addptr %pb, %step : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      scf.yield %d, %pb2 : tensor<64x64xf32, #mma>, tensor<64x64x!tile.ptr<f16>, #blocked>
    }
    tile.store %out, %res#0 : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// A dot chain (attention's forward: S = Q K^T, a softmax with a carried row
// max, P V into a rescaled accumulator) is rotated over two stages: one
// buffer more per stack (4 at 3 stages), the first iteration's first dot
// and softmax peeled in front of the loop and the last iteration's rescale
// and second dot behind it, all under a check that the loop runs; in the
// loop this iteration's first dot and the previous iteration's second dot
// (P in the operand layout, the row max and its buffer index carried) are
// issued together,
// the first is waited for with the second in flight, the second at the end
// of the iteration, and only then is P converted to the operand (the
// registers it writes are the ones the second dot read). (CHECK runs with
// rotate-one-warp-group, as the other 4-warp chains below.)
// By default the chain of this program of one warp group is not rotated:
// stacks of three buffers at 3 stages, no guard, both dots asynchronous
// within the iteration.
// DEFAULT-LABEL: func.func @dot_chain
// DEFAULT: tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x64xf16
// DEFAULT: tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x64xf16
// DEFAULT-NOT: scf.if
// DEFAULT: scf.for
// DEFAULT: tilegpu.warp_group_dot async
// DEFAULT: tilegpu.warp_group_dot async
// DEFAULT-NOT: scf.if
// DEFAULT: return
// CHECK-LABEL: func.func @dot_chain
// CHECK: tilegpu.local_alloc : () -> !tilegpu.memdesc<4x64x64xf16
// CHECK: tilegpu.local_alloc : () -> !tilegpu.memdesc<4x64x64xf16
// CHECK: %[[RUNS:.*]] = arith.cmpi slt, %c0_i32, %arg3 : i32
// CHECK-NEXT: %[[R:.*]]:8 = scf.if %[[RUNS]]
// CHECK-NEXT: tilegpu.async_wait {num = 2 : i32}
// CHECK-NEXT: tilegpu.memdesc_index
// CHECK-NEXT: tilegpu.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} : !tilegpu.memdesc
// CHECK: math.exp2
// CHECK: tilegpu.convert_layout {{.*}} -> tensor<64x64xf16, #tilegpu.dot_operand
// CHECK: tilegpu.async_copy_global_to_local
// CHECK: %[[L:.*]]:12 = scf.for
// CHECK-NEXT: tilegpu.async_wait {num = 2 : i32}
// CHECK-NEXT: tilegpu.memdesc_index
// CHECK-NEXT: %[[S:.*]] = tilegpu.warp_group_dot async
// CHECK-NOT: arith.truncf
// CHECK: arith.mulf
// CHECK-NEXT: %[[O:.*]] = tilegpu.warp_group_dot async %arg{{[0-9]+}}
// CHECK-NEXT: tilegpu.warp_group_dot_wait %[[S]] {pendings = 1 : i32}
// CHECK: %[[P:.*]] = math.exp2 {{.*}} : tensor<64x64xf32,
// CHECK-NOT: arith.truncf
// CHECK: tilegpu.async_copy_global_to_local
// CHECK: %[[OW:.*]] = tilegpu.warp_group_dot_wait %[[O]] {pendings = 0 : i32}
// CHECK-NEXT: %[[PH:.*]] = arith.truncf %[[P]]
// CHECK-NEXT: %[[PA:.*]] = tilegpu.convert_layout %[[PH]] : {{.*}} -> tensor<64x64xf16, #tilegpu.dot_operand
// CHECK-NEXT: scf.yield %[[OW]], {{.*}}, %[[PA]] :
// CHECK: arith.mulf %[[L]]#0
// CHECK-NEXT: tilegpu.memdesc_index %{{.*}}[%[[L]]#10]
// CHECK-NEXT: tilegpu.warp_group_dot %[[L]]#11
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } else {
// CHECK: tilegpu.async_wait {num = 0 : i32}
// CHECK: tile.store %{{.*}}, %[[R]]#0
// OFF-LABEL: func.func @dot_chain
// OFF-NOT: scf.if
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#row = #tilegpu.slice<{dim = 1, parent = #mma}>
#dop = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @dot_chain(%qs: !tilegpu.memdesc<64x64xf16, #nv>, %kbase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %vbase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32, %out: tensor<64x64x!tile.ptr<f32>, #mma>) {
    %r = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked}>>
    %c = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked}>>
    %r2 = tile.expand_dims %r axis = 1 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %c2 = tile.expand_dims %c axis = 0 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %s64 = arith.constant dense<64> : tensor<64x1xi32, #blocked>
    %rows = arith.muli %r2, %s64 : tensor<64x1xi32, #blocked>
    %rb = tile.broadcast %rows : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %cb = tile.broadcast %c2 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #blocked>
    %ksp = tile.splat %kbase : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blocked>
    %kp = tile.addptr %ksp, %off : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %vsp = tile.splat %vbase : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blocked>
    %vp = tile.addptr %vsp, %off : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %m0 = arith.constant dense<0xFF800000> : tensor<64xf32, #row>
    %step = arith.constant dense<4096> : tensor<64x64xi32, #blocked>
    %res:4 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %m = %m0, %pk = %kp, %pv = %vp) -> (tensor<64x64xf32, #mma>, tensor<64xf32, #row>, tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64x!tile.ptr<f16>, #blocked>) : i32 {
      %kt = tile.load %pk : tensor<64x64x!tile.ptr<f16>, #blocked>
      %ks = tilegpu.local_alloc %kt : (tensor<64x64xf16, #blocked>) -> !tilegpu.memdesc<64x64xf16, #nv>
      %s = tilegpu.warp_group_dot %qs, %ks, %zero : !tilegpu.memdesc<64x64xf16, #nv>, !tilegpu.memdesc<64x64xf16, #nv> -> tensor<64x64xf32, #mma>
      %rm = tile.reduce(%s) axis = 1 : (tensor<64x64xf32, #mma>) -> tensor<64xf32, #row> {
      ^bb0(%x: f32, %y: f32):
        %mx = arith.maxnumf %x, %y : f32
        tile.reduce.return %mx : f32
      }
      %mn = arith.maxnumf %m, %rm : tensor<64xf32, #row>
      %md = arith.subf %m, %mn : tensor<64xf32, #row>
      %alpha = math.exp2 %md : tensor<64xf32, #row>
      %me = tile.expand_dims %mn axis = 1 : tensor<64xf32, #row> -> tensor<64x1xf32, #mma>
      %mb = tile.broadcast %me : tensor<64x1xf32, #mma> -> tensor<64x64xf32, #mma>
      %sd = arith.subf %s, %mb : tensor<64x64xf32, #mma>
      %p = math.exp2 %sd : tensor<64x64xf32, #mma>
      %ph = arith.truncf %p : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
      %pa = tilegpu.convert_layout %ph : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #dop>
      %ae = tile.expand_dims %alpha axis = 1 : tensor<64xf32, #row> -> tensor<64x1xf32, #mma>
      %ab = tile.broadcast %ae : tensor<64x1xf32, #mma> -> tensor<64x64xf32, #mma>
      %accs = arith.mulf %acc, %ab : tensor<64x64xf32, #mma>
      %vt = tile.load %pv : tensor<64x64x!tile.ptr<f16>, #blocked>
      %vs = tilegpu.local_alloc %vt : (tensor<64x64xf16, #blocked>) -> !tilegpu.memdesc<64x64xf16, #nv>
      %o = tilegpu.warp_group_dot %pa, %vs, %accs : tensor<64x64xf16, #dop>, !tilegpu.memdesc<64x64xf16, #nv> -> tensor<64x64xf32, #mma>
      %pk2 = tile.addptr %pk, %step : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %pv2 = tile.addptr %pv, %step : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      scf.yield %o, %mn, %pk2, %pv2 : tensor<64x64xf32, #mma>, tensor<64xf32, #row>, tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64x!tile.ptr<f16>, #blocked>
    }
    tile.store %out, %res#0 : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// Must not: a dot chain whose accumulator the early stage reads (here a
// store of it before the second dot) is not rotated: the dots overlap
// within the iteration only, in stacks of three buffers.
// CHECK-LABEL: func.func @dot_chain_acc_read_early
// CHECK: tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x64xf16
// CHECK-NOT: scf.if
// CHECK: scf.for
// CHECK: tilegpu.warp_group_dot async
// CHECK: tilegpu.warp_group_dot async
// CHECK: scf.yield
// CHECK-NOT: tilegpu.warp_group_dot
// CHECK: return
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#row = #tilegpu.slice<{dim = 1, parent = #mma}>
#dop = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @dot_chain_acc_read_early(%qs: !tilegpu.memdesc<64x64xf16, #nv>, %kbase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %vbase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32, %out: tensor<64x64x!tile.ptr<f32>, #mma>) {
    %r = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked}>>
    %c = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked}>>
    %r2 = tile.expand_dims %r axis = 1 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %c2 = tile.expand_dims %c axis = 0 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %s64 = arith.constant dense<64> : tensor<64x1xi32, #blocked>
    %rows = arith.muli %r2, %s64 : tensor<64x1xi32, #blocked>
    %rb = tile.broadcast %rows : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %cb = tile.broadcast %c2 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #blocked>
    %ksp = tile.splat %kbase : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blocked>
    %kp = tile.addptr %ksp, %off : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %vsp = tile.splat %vbase : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blocked>
    %vp = tile.addptr %vsp, %off : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %m0 = arith.constant dense<0xFF800000> : tensor<64xf32, #row>
    %step = arith.constant dense<4096> : tensor<64x64xi32, #blocked>
    %res:4 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %m = %m0, %pk = %kp, %pv = %vp) -> (tensor<64x64xf32, #mma>, tensor<64xf32, #row>, tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64x!tile.ptr<f16>, #blocked>) : i32 {
      %kt = tile.load %pk : tensor<64x64x!tile.ptr<f16>, #blocked>
      %ks = tilegpu.local_alloc %kt : (tensor<64x64xf16, #blocked>) -> !tilegpu.memdesc<64x64xf16, #nv>
      %s = tilegpu.warp_group_dot %qs, %ks, %zero : !tilegpu.memdesc<64x64xf16, #nv>, !tilegpu.memdesc<64x64xf16, #nv> -> tensor<64x64xf32, #mma>
      %rm = tile.reduce(%s) axis = 1 : (tensor<64x64xf32, #mma>) -> tensor<64xf32, #row> {
      ^bb0(%x: f32, %y: f32):
        %mx = arith.maxnumf %x, %y : f32
        tile.reduce.return %mx : f32
      }
      %mn = arith.maxnumf %m, %rm : tensor<64xf32, #row>
      %md = arith.subf %m, %mn : tensor<64xf32, #row>
      %alpha = math.exp2 %md : tensor<64xf32, #row>
      %me = tile.expand_dims %mn axis = 1 : tensor<64xf32, #row> -> tensor<64x1xf32, #mma>
      %mb = tile.broadcast %me : tensor<64x1xf32, #mma> -> tensor<64x64xf32, #mma>
      %sd = arith.subf %s, %mb : tensor<64x64xf32, #mma>
      tile.store %out, %acc : tensor<64x64x!tile.ptr<f32>, #mma>
      %p = math.exp2 %sd : tensor<64x64xf32, #mma>
      %ph = arith.truncf %p : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
      %pa = tilegpu.convert_layout %ph : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #dop>
      %ae = tile.expand_dims %alpha axis = 1 : tensor<64xf32, #row> -> tensor<64x1xf32, #mma>
      %ab = tile.broadcast %ae : tensor<64x1xf32, #mma> -> tensor<64x64xf32, #mma>
      %accs = arith.mulf %acc, %ab : tensor<64x64xf32, #mma>
      %vt = tile.load %pv : tensor<64x64x!tile.ptr<f16>, #blocked>
      %vs = tilegpu.local_alloc %vt : (tensor<64x64xf16, #blocked>) -> !tilegpu.memdesc<64x64xf16, #nv>
      %o = tilegpu.warp_group_dot %pa, %vs, %accs : tensor<64x64xf16, #dop>, !tilegpu.memdesc<64x64xf16, #nv> -> tensor<64x64xf32, #mma>
      %pk2 = tile.addptr %pk, %step : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %pv2 = tile.addptr %pv, %step : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      scf.yield %o, %mn, %pk2, %pv2 : tensor<64x64xf32, #mma>, tensor<64xf32, #row>, tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64x!tile.ptr<f16>, #blocked>
    }
    tile.store %out, %res#0 : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// Must not: two dots where the second's A does not come from the first
// (P is computed but not multiplied; A is an argument) are not a chain.
// CHECK-LABEL: func.func @dots_not_a_chain
// CHECK: tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x64xf16
// CHECK-NOT: scf.if
// CHECK: scf.for
// CHECK: scf.yield
// CHECK-NOT: tilegpu.warp_group_dot
// CHECK: return
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#row = #tilegpu.slice<{dim = 1, parent = #mma}>
#dop = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @dots_not_a_chain(%qs: !tilegpu.memdesc<64x64xf16, #nv>, %kbase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %vbase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32, %out: tensor<64x64x!tile.ptr<f32>, #mma>, %pfixed: tensor<64x64xf16, #dop>) {
    %r = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked}>>
    %c = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked}>>
    %r2 = tile.expand_dims %r axis = 1 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %c2 = tile.expand_dims %c axis = 0 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %s64 = arith.constant dense<64> : tensor<64x1xi32, #blocked>
    %rows = arith.muli %r2, %s64 : tensor<64x1xi32, #blocked>
    %rb = tile.broadcast %rows : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %cb = tile.broadcast %c2 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #blocked>
    %ksp = tile.splat %kbase : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blocked>
    %kp = tile.addptr %ksp, %off : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %vsp = tile.splat %vbase : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blocked>
    %vp = tile.addptr %vsp, %off : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %m0 = arith.constant dense<0xFF800000> : tensor<64xf32, #row>
    %step = arith.constant dense<4096> : tensor<64x64xi32, #blocked>
    %res:4 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %m = %m0, %pk = %kp, %pv = %vp) -> (tensor<64x64xf32, #mma>, tensor<64xf32, #row>, tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64x!tile.ptr<f16>, #blocked>) : i32 {
      %kt = tile.load %pk : tensor<64x64x!tile.ptr<f16>, #blocked>
      %ks = tilegpu.local_alloc %kt : (tensor<64x64xf16, #blocked>) -> !tilegpu.memdesc<64x64xf16, #nv>
      %s = tilegpu.warp_group_dot %qs, %ks, %zero : !tilegpu.memdesc<64x64xf16, #nv>, !tilegpu.memdesc<64x64xf16, #nv> -> tensor<64x64xf32, #mma>
      %rm = tile.reduce(%s) axis = 1 : (tensor<64x64xf32, #mma>) -> tensor<64xf32, #row> {
      ^bb0(%x: f32, %y: f32):
        %mx = arith.maxnumf %x, %y : f32
        tile.reduce.return %mx : f32
      }
      %mn = arith.maxnumf %m, %rm : tensor<64xf32, #row>
      %md = arith.subf %m, %mn : tensor<64xf32, #row>
      %alpha = math.exp2 %md : tensor<64xf32, #row>
      %me = tile.expand_dims %mn axis = 1 : tensor<64xf32, #row> -> tensor<64x1xf32, #mma>
      %mb = tile.broadcast %me : tensor<64x1xf32, #mma> -> tensor<64x64xf32, #mma>
      %sd = arith.subf %s, %mb : tensor<64x64xf32, #mma>
      %p = math.exp2 %sd : tensor<64x64xf32, #mma>
      %ph = arith.truncf %p : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
      %pa = tilegpu.convert_layout %ph : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #dop>
      %ae = tile.expand_dims %alpha axis = 1 : tensor<64xf32, #row> -> tensor<64x1xf32, #mma>
      %ab = tile.broadcast %ae : tensor<64x1xf32, #mma> -> tensor<64x64xf32, #mma>
      %accs = arith.mulf %acc, %ab : tensor<64x64xf32, #mma>
      %vt = tile.load %pv : tensor<64x64x!tile.ptr<f16>, #blocked>
      %vs = tilegpu.local_alloc %vt : (tensor<64x64xf16, #blocked>) -> !tilegpu.memdesc<64x64xf16, #nv>
      %o = tilegpu.warp_group_dot %pfixed, %vs, %accs : tensor<64x64xf16, #dop>, !tilegpu.memdesc<64x64xf16, #nv> -> tensor<64x64xf32, #mma>
      %pk2 = tile.addptr %pk, %step : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %pv2 = tile.addptr %pv, %step : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      tile.store %out, %p : tensor<64x64x!tile.ptr<f32>, #mma>
      scf.yield %o, %mn, %pk2, %pv2 : tensor<64x64xf32, #mma>, tensor<64xf32, #row>, tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64x!tile.ptr<f16>, #blocked>
    }
    tile.store %out, %res#0 : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// Must not: a loop whose own tile.num_stages (tl.range's num_stages) is 1
// is not pipelined, whatever the pass's depth.
// CHECK-LABEL: func.func @loop_not_staged
// CHECK-NOT: tilegpu.local_alloc
// CHECK-NOT: async_copy
// CHECK: tile.load
// OFF-LABEL: func.func @loop_not_staged
#blocked1 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dotA = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#dotB = #tilegpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:80", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @loop_not_staged(%abase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %bbase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %k: i32, %out: tensor<64x64x!tile.ptr<f32>, #mma>) {
    %ar = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked1}>>
    %ac = tile.make_range 0 to 32 : tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #blocked1}>>
    %ar2 = tile.expand_dims %ar axis = 1 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked1}>> -> tensor<64x1xi32, #blocked1>
    %ac2 = tile.expand_dims %ac axis = 0 : tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x32xi32, #blocked1>
    %a32 = arith.constant dense<32> : tensor<64x1xi32, #blocked1>
    %arows = arith.muli %ar2, %a32 : tensor<64x1xi32, #blocked1>
    %arb = tile.broadcast %arows : tensor<64x1xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
    %acb = tile.broadcast %ac2 : tensor<1x32xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
    %aoff = arith.addi %arb, %acb : tensor<64x32xi32, #blocked1>
    %asp = tile.splat %abase : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>, #blocked1>
    %a = tile.addptr %asp, %aoff : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
    %br = tile.make_range 0 to 32 : tensor<32xi32, #tilegpu.slice<{dim = 1, parent = #blocked2}>>
    %bc = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked2}>>
    %br2 = tile.expand_dims %br axis = 1 : tensor<32xi32, #tilegpu.slice<{dim = 1, parent = #blocked2}>> -> tensor<32x1xi32, #blocked2>
    %bc2 = tile.expand_dims %bc axis = 0 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked2}>> -> tensor<1x64xi32, #blocked2>
    %b64 = arith.constant dense<64> : tensor<32x1xi32, #blocked2>
    %brows = arith.muli %br2, %b64 : tensor<32x1xi32, #blocked2>
    %brb = tile.broadcast %brows : tensor<32x1xi32, #blocked2> -> tensor<32x64xi32, #blocked2>
    %bcb = tile.broadcast %bc2 : tensor<1x64xi32, #blocked2> -> tensor<32x64xi32, #blocked2>
    %boff = arith.addi %brb, %bcb : tensor<32x64xi32, #blocked2>
    %bsp = tile.splat %bbase : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>, #blocked2>
    %b = tile.addptr %bsp, %boff : tensor<32x64x!tile.ptr<f16>, #blocked2>, tensor<32x64xi32, #blocked2>
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %sa = arith.constant dense<32> : tensor<64x32xi32, #blocked1>
    %sb = arith.constant dense<2048> : tensor<32x64xi32, #blocked2>
    %r:3 = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %acc0, %pa = %a, %pb = %b) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<32x64x!tile.ptr<f16>, #blocked2>) : i32 {
      %x = tile.load %pa : tensor<64x32x!tile.ptr<f16>, #blocked1>
      %y = tile.load %pb : tensor<32x64x!tile.ptr<f16>, #blocked2>
      %xa = tilegpu.convert_layout %x : tensor<64x32xf16, #blocked1> -> tensor<64x32xf16, #dotA>
      %yb = tilegpu.convert_layout %y : tensor<32x64xf16, #blocked2> -> tensor<32x64xf16, #dotB>
      %d = tile.dot %xa, %yb, %acc : tensor<64x32xf16, #dotA> * tensor<32x64xf16, #dotB> -> tensor<64x64xf32, #mma>
      %pa2 = tile.addptr %pa, %sa : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
      %pb2 = tile.addptr %pb, %sb : tensor<32x64x!tile.ptr<f16>, #blocked2>, tensor<32x64xi32, #blocked2>
      scf.yield %d, %pa2, %pb2 : tensor<64x64xf32, #mma>, tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<32x64x!tile.ptr<f16>, #blocked2>
    } {tile.num_stages = 1 : i32}
    tile.store %out, %r#0 : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// A loop's own tile.num_stages = 2 wins over the pass's depth (3 here, 1
// under OFF): stacks of two buffers, one copy group ahead.
// CHECK-LABEL: func.func @loop_two_stages
// CHECK: tilegpu.local_alloc : () -> !tilegpu.memdesc<2x
// CHECK: tilegpu.local_alloc : () -> !tilegpu.memdesc<2x
// CHECK: scf.for
// CHECK: tilegpu.async_wait {num = 0 : i32}
// OFF-LABEL: func.func @loop_two_stages
// OFF: tilegpu.local_alloc : () -> !tilegpu.memdesc<2x
#blocked1 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dotA = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#dotB = #tilegpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:80", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @loop_two_stages(%abase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %bbase: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %k: i32, %out: tensor<64x64x!tile.ptr<f32>, #mma>) {
    %ar = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked1}>>
    %ac = tile.make_range 0 to 32 : tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #blocked1}>>
    %ar2 = tile.expand_dims %ar axis = 1 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blocked1}>> -> tensor<64x1xi32, #blocked1>
    %ac2 = tile.expand_dims %ac axis = 0 : tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x32xi32, #blocked1>
    %a32 = arith.constant dense<32> : tensor<64x1xi32, #blocked1>
    %arows = arith.muli %ar2, %a32 : tensor<64x1xi32, #blocked1>
    %arb = tile.broadcast %arows : tensor<64x1xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
    %acb = tile.broadcast %ac2 : tensor<1x32xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
    %aoff = arith.addi %arb, %acb : tensor<64x32xi32, #blocked1>
    %asp = tile.splat %abase : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>, #blocked1>
    %a = tile.addptr %asp, %aoff : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
    %br = tile.make_range 0 to 32 : tensor<32xi32, #tilegpu.slice<{dim = 1, parent = #blocked2}>>
    %bc = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked2}>>
    %br2 = tile.expand_dims %br axis = 1 : tensor<32xi32, #tilegpu.slice<{dim = 1, parent = #blocked2}>> -> tensor<32x1xi32, #blocked2>
    %bc2 = tile.expand_dims %bc axis = 0 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blocked2}>> -> tensor<1x64xi32, #blocked2>
    %b64 = arith.constant dense<64> : tensor<32x1xi32, #blocked2>
    %brows = arith.muli %br2, %b64 : tensor<32x1xi32, #blocked2>
    %brb = tile.broadcast %brows : tensor<32x1xi32, #blocked2> -> tensor<32x64xi32, #blocked2>
    %bcb = tile.broadcast %bc2 : tensor<1x64xi32, #blocked2> -> tensor<32x64xi32, #blocked2>
    %boff = arith.addi %brb, %bcb : tensor<32x64xi32, #blocked2>
    %bsp = tile.splat %bbase : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>, #blocked2>
    %b = tile.addptr %bsp, %boff : tensor<32x64x!tile.ptr<f16>, #blocked2>, tensor<32x64xi32, #blocked2>
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %sa = arith.constant dense<32> : tensor<64x32xi32, #blocked1>
    %sb = arith.constant dense<2048> : tensor<32x64xi32, #blocked2>
    %r:3 = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %acc0, %pa = %a, %pb = %b) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<32x64x!tile.ptr<f16>, #blocked2>) : i32 {
      %x = tile.load %pa : tensor<64x32x!tile.ptr<f16>, #blocked1>
      %y = tile.load %pb : tensor<32x64x!tile.ptr<f16>, #blocked2>
      %xa = tilegpu.convert_layout %x : tensor<64x32xf16, #blocked1> -> tensor<64x32xf16, #dotA>
      %yb = tilegpu.convert_layout %y : tensor<32x64xf16, #blocked2> -> tensor<32x64xf16, #dotB>
      %d = tile.dot %xa, %yb, %acc : tensor<64x32xf16, #dotA> * tensor<32x64xf16, #dotB> -> tensor<64x64xf32, #mma>
      %pa2 = tile.addptr %pa, %sa : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
      %pb2 = tile.addptr %pb, %sb : tensor<32x64x!tile.ptr<f16>, #blocked2>, tensor<32x64xi32, #blocked2>
      scf.yield %d, %pa2, %pb2 : tensor<64x64xf32, #mma>, tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<32x64x!tile.ptr<f16>, #blocked2>
    } {tile.num_stages = 2 : i32}
    tile.store %out, %r#0 : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// A dot chain whose K and V come by TMA (as terrazzo-lower-descriptors-to-tma
// leaves them, K^T through a memdesc_trans) is rotated as the cp.async one
// is, with a ring of 4 stages at 3 (one buffer more), and its stages are
// released through empty mbarriers instead of a barrier of the whole
// program in front of each refill: one per stage, expecting one arrival
// per warp (4); a refill waits for its stage's empty phase in a carried
// parity (1 until the stage was filled once, flipped when the written
// stage wraps) and its copies are marked reads_retired; each iteration
// arrives on the empty mbarrier of the stage the previous iteration's
// second dot read, right after the wait for that dot.
// CHECK-LABEL: func.func @tma_dot_chain
// CHECK: tilegpu.local_alloc : () -> !tilegpu.memdesc<4x64x64xf16
// CHECK: tilegpu.local_alloc : () -> !tilegpu.memdesc<4x64x64xf16
// CHECK: %[[FULL:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<4x1xi64
// CHECK: %[[EMPTY:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<4x1xi64
// CHECK: %[[E0:.*]] = tilegpu.memdesc_index %[[EMPTY]][%c0_i32{{.*}}]
// CHECK-NEXT: tilegpu.mbarrier_init %[[E0]], 4
// CHECK: tilegpu.barrier
// CHECK: scf.if %{{.*}} -> (
// CHECK: %[[EP:.*]] = tilegpu.memdesc_index %[[EMPTY]][%c2_i32
// CHECK-NEXT: tilegpu.mbarrier_wait %[[EP]], %c1_i32
// CHECK: scf.for
// CHECK: tilegpu.mbarrier_wait
// CHECK: %[[S:.*]] = tilegpu.warp_group_dot async
// CHECK: %[[O:.*]] = tilegpu.warp_group_dot async %arg{{[0-9]+}}, %[[VB:[^,]*]],
// CHECK: scf.if
// CHECK-NEXT: %[[EW:.*]] = tilegpu.memdesc_index %[[EMPTY]][%[[WRITE:.*]]]
// CHECK-NEXT: tilegpu.mbarrier_wait %[[EW]], %arg{{[0-9]+}}
// CHECK-NEXT: %[[FW:.*]] = tilegpu.memdesc_index %[[FULL]][%[[WRITE]]]
// CHECK-NEXT: tilegpu.mbarrier_expect_tx %[[FW]], 16384
// CHECK: tilegpu.async_tma_copy_global_to_local {{.*}} {tilegpu.reads_retired}
// CHECK: tilegpu.async_tma_copy_global_to_local {{.*}} {tilegpu.reads_retired}
// CHECK: tilegpu.warp_group_dot_wait %[[O]] {pendings = 0 : i32}
// CHECK-NEXT: %[[ER:.*]] = tilegpu.memdesc_index %[[EMPTY]]
// CHECK-NEXT: tilegpu.mbarrier_arrive %[[ER]]
// CHECK: scf.yield
// CHECK-NOT: tilegpu.mbarrier_arrive
// CHECK: tilegpu.mbarrier_inval
// CHECK: tilegpu.local_dealloc %[[EMPTY]]
// CHECK-NOT: tilegpu.warp_group_turn
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvt = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#row = #tilegpu.slice<{dim = 1, parent = #mma}>
#dop = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @tma_dot_chain(%qs: !tilegpu.memdesc<64x64xf16, #nv>, %mk: !tile.ptr<i8>, %mv: !tile.ptr<i8>, %n: i32, %out: tensor<64x64x!tile.ptr<f32>, #mma>) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %m0 = arith.constant dense<0xFF800000> : tensor<64xf32, #row>
    %res:2 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %m = %m0) -> (tensor<64x64xf32, #mma>, tensor<64xf32, #row>) : i32 {
      %k = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %kbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %kbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %kbar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mk[%i, %c0] %k, %kbar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %kbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %kbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %kt = tilegpu.memdesc_trans %k : !tilegpu.memdesc<64x64xf16, #nv, mutable> -> !tilegpu.memdesc<64x64xf16, #nvt, mutable>
      %s = tilegpu.warp_group_dot %qs, %kt, %zero : !tilegpu.memdesc<64x64xf16, #nv>, !tilegpu.memdesc<64x64xf16, #nvt, mutable> -> tensor<64x64xf32, #mma>
      %rm = tile.reduce(%s) axis = 1 : (tensor<64x64xf32, #mma>) -> tensor<64xf32, #row> {
      ^bb0(%x: f32, %y: f32):
        %mx = arith.maxnumf %x, %y : f32
        tile.reduce.return %mx : f32
      }
      %mn = arith.maxnumf %m, %rm : tensor<64xf32, #row>
      %md = arith.subf %m, %mn : tensor<64xf32, #row>
      %alpha = math.exp2 %md : tensor<64xf32, #row>
      %me = tile.expand_dims %mn axis = 1 : tensor<64xf32, #row> -> tensor<64x1xf32, #mma>
      %mb = tile.broadcast %me : tensor<64x1xf32, #mma> -> tensor<64x64xf32, #mma>
      %sd = arith.subf %s, %mb : tensor<64x64xf32, #mma>
      %p = math.exp2 %sd : tensor<64x64xf32, #mma>
      %ph = arith.truncf %p : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
      %pa = tilegpu.convert_layout %ph : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #dop>
      %ae = tile.expand_dims %alpha axis = 1 : tensor<64xf32, #row> -> tensor<64x1xf32, #mma>
      %ab = tile.broadcast %ae : tensor<64x1xf32, #mma> -> tensor<64x64xf32, #mma>
      %accs = arith.mulf %acc, %ab : tensor<64x64xf32, #mma>
      %v = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %vbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %vbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %vbar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mv[%i, %c0] %v, %vbar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %vbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %vbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %o = tilegpu.warp_group_dot %pa, %v, %accs : tensor<64x64xf16, #dop>, !tilegpu.memdesc<64x64xf16, #nv, mutable> -> tensor<64x64xf32, #mma>
      scf.yield %o, %mn : tensor<64x64xf32, #mma>, tensor<64xf32, #row>
    }
    tile.store %out, %res#0 : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }
}


// -----

// The same chain marked for warp specialization: a program of one warp
// group, but rotated by default (the producer's form needs it) and
// specialized: one producer warp group beside the four warps.
// DEFAULT-LABEL: func.func @tma_dot_chain_one_warp_group_specialized
// DEFAULT: tilegpu.local_alloc : () -> !tilegpu.memdesc<4x64x64xf16
// DEFAULT: tilegpu.warp_specialize
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvt = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#row = #tilegpu.slice<{dim = 1, parent = #mma}>
#dop = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @tma_dot_chain_one_warp_group_specialized(%qs: !tilegpu.memdesc<64x64xf16, #nv>, %mk: !tile.ptr<i8>, %mv: !tile.ptr<i8>, %n: i32, %out: tensor<64x64x!tile.ptr<f32>, #mma>) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %m0 = arith.constant dense<0xFF800000> : tensor<64xf32, #row>
    %res:2 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %m = %m0) -> (tensor<64x64xf32, #mma>, tensor<64xf32, #row>) : i32 {
      %k = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %kbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %kbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %kbar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mk[%i, %c0] %k, %kbar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %kbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %kbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %kt = tilegpu.memdesc_trans %k : !tilegpu.memdesc<64x64xf16, #nv, mutable> -> !tilegpu.memdesc<64x64xf16, #nvt, mutable>
      %s = tilegpu.warp_group_dot %qs, %kt, %zero : !tilegpu.memdesc<64x64xf16, #nv>, !tilegpu.memdesc<64x64xf16, #nvt, mutable> -> tensor<64x64xf32, #mma>
      %rm = tile.reduce(%s) axis = 1 : (tensor<64x64xf32, #mma>) -> tensor<64xf32, #row> {
      ^bb0(%x: f32, %y: f32):
        %mx = arith.maxnumf %x, %y : f32
        tile.reduce.return %mx : f32
      }
      %mn = arith.maxnumf %m, %rm : tensor<64xf32, #row>
      %md = arith.subf %m, %mn : tensor<64xf32, #row>
      %alpha = math.exp2 %md : tensor<64xf32, #row>
      %me = tile.expand_dims %mn axis = 1 : tensor<64xf32, #row> -> tensor<64x1xf32, #mma>
      %mb = tile.broadcast %me : tensor<64x1xf32, #mma> -> tensor<64x64xf32, #mma>
      %sd = arith.subf %s, %mb : tensor<64x64xf32, #mma>
      %p = math.exp2 %sd : tensor<64x64xf32, #mma>
      %ph = arith.truncf %p : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
      %pa = tilegpu.convert_layout %ph : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #dop>
      %ae = tile.expand_dims %alpha axis = 1 : tensor<64xf32, #row> -> tensor<64x1xf32, #mma>
      %ab = tile.broadcast %ae : tensor<64x1xf32, #mma> -> tensor<64x64xf32, #mma>
      %accs = arith.mulf %acc, %ab : tensor<64x64xf32, #mma>
      %v = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %vbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %vbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %vbar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mv[%i, %c0] %v, %vbar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %vbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %vbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %o = tilegpu.warp_group_dot %pa, %v, %accs : tensor<64x64xf16, #dop>, !tilegpu.memdesc<64x64xf16, #nv, mutable> -> tensor<64x64xf32, #mma>
      scf.yield %o, %mn : tensor<64x64xf32, #mma>, tensor<64xf32, #row>
    } {tile.warp_specialize}
    tile.store %out, %res#0 : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }
}


// -----

// An operand staged in shared memory outside loops (attention's Q) is
// written there after the pipelined loop's setup (the ring's mbarriers, the
// copies ahead), just before the guard of the rotated chain that reads it,
// with its proxy fence: its load lands while the setup runs.
// CHECK-LABEL: func.func @staged_operand_sinks
// CHECK: %[[Q:.*]] = tile.load
// CHECK-NOT: tilegpu.local_alloc %[[Q]]
// CHECK: tilegpu.mbarrier_init
// CHECK: tilegpu.async_tma_copy_global_to_local
// CHECK: %[[QS:.*]] = tilegpu.local_alloc %[[Q]]
// CHECK-NEXT: tilegpu.fence_async_shared %[[QS]]
// CHECK-NEXT: scf.if
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvt = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#row = #tilegpu.slice<{dim = 1, parent = #mma}>
#dop = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#blk = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @staged_operand_sinks(%qp: tensor<64x64x!tile.ptr<f16>, #blk>, %mk: !tile.ptr<i8>, %mv: !tile.ptr<i8>, %n: i32, %out: tensor<64x64x!tile.ptr<f32>, #mma>) {
    %qt = tile.load %qp : tensor<64x64x!tile.ptr<f16>, #blk>
    %qs = tilegpu.local_alloc %qt : (tensor<64x64xf16, #blk>) -> !tilegpu.memdesc<64x64xf16, #nv>
    tilegpu.fence_async_shared %qs : !tilegpu.memdesc<64x64xf16, #nv>
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %m0 = arith.constant dense<0xFF800000> : tensor<64xf32, #row>
    %res:2 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %m = %m0) -> (tensor<64x64xf32, #mma>, tensor<64xf32, #row>) : i32 {
      %k = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %kbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %kbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %kbar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mk[%i, %c0] %k, %kbar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %kbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %kbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %kt = tilegpu.memdesc_trans %k : !tilegpu.memdesc<64x64xf16, #nv, mutable> -> !tilegpu.memdesc<64x64xf16, #nvt, mutable>
      %s = tilegpu.warp_group_dot %qs, %kt, %zero : !tilegpu.memdesc<64x64xf16, #nv>, !tilegpu.memdesc<64x64xf16, #nvt, mutable> -> tensor<64x64xf32, #mma>
      %rm = tile.reduce(%s) axis = 1 : (tensor<64x64xf32, #mma>) -> tensor<64xf32, #row> {
      ^bb0(%x: f32, %y: f32):
        %mx = arith.maxnumf %x, %y : f32
        tile.reduce.return %mx : f32
      }
      %mn = arith.maxnumf %m, %rm : tensor<64xf32, #row>
      %md = arith.subf %m, %mn : tensor<64xf32, #row>
      %alpha = math.exp2 %md : tensor<64xf32, #row>
      %me = tile.expand_dims %mn axis = 1 : tensor<64xf32, #row> -> tensor<64x1xf32, #mma>
      %mb = tile.broadcast %me : tensor<64x1xf32, #mma> -> tensor<64x64xf32, #mma>
      %sd = arith.subf %s, %mb : tensor<64x64xf32, #mma>
      %p = math.exp2 %sd : tensor<64x64xf32, #mma>
      %ph = arith.truncf %p : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
      %pa = tilegpu.convert_layout %ph : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #dop>
      %ae = tile.expand_dims %alpha axis = 1 : tensor<64xf32, #row> -> tensor<64x1xf32, #mma>
      %ab = tile.broadcast %ae : tensor<64x1xf32, #mma> -> tensor<64x64xf32, #mma>
      %accs = arith.mulf %acc, %ab : tensor<64x64xf32, #mma>
      %v = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %vbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %vbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %vbar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mv[%i, %c0] %v, %vbar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %vbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %vbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %o = tilegpu.warp_group_dot %pa, %v, %accs : tensor<64x64xf16, #dop>, !tilegpu.memdesc<64x64xf16, #nv, mutable> -> tensor<64x64xf32, #mma>
      scf.yield %o, %mn : tensor<64x64xf32, #mma>, tensor<64xf32, #row>
    }
    tile.store %out, %res#0 : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }
}


// -----

// Must not: past a loop (the loaded registers would be held through it),
// the staged operand stays in front of that loop.
// CHECK-LABEL: func.func @staged_operand_not_past_a_loop
// CHECK: %[[Q:.*]] = tile.load
// CHECK-NEXT: %[[QS:.*]] = tilegpu.local_alloc %[[Q]]
// CHECK-NEXT: tilegpu.fence_async_shared %[[QS]]
// CHECK: scf.for
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvt = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#row = #tilegpu.slice<{dim = 1, parent = #mma}>
#dop = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#blk = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @staged_operand_not_past_a_loop(%qp: tensor<64x64x!tile.ptr<f16>, #blk>, %mk: !tile.ptr<i8>, %mv: !tile.ptr<i8>, %n: i32, %out: tensor<64x64x!tile.ptr<f32>, #mma>, %junk: !tile.ptr<i32>) {
    %qt = tile.load %qp : tensor<64x64x!tile.ptr<f16>, #blk>
    %qs = tilegpu.local_alloc %qt : (tensor<64x64xf16, #blk>) -> !tilegpu.memdesc<64x64xf16, #nv>
    tilegpu.fence_async_shared %qs : !tilegpu.memdesc<64x64xf16, #nv>
    %cz = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %spin = scf.for %j = %cz to %n step %c1 iter_args(%x = %cz) -> (i32) : i32 {
      %y = arith.addi %x, %j : i32
      scf.yield %y : i32
    }
    tile.store %junk, %spin : !tile.ptr<i32>
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %m0 = arith.constant dense<0xFF800000> : tensor<64xf32, #row>
    %res:2 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %m = %m0) -> (tensor<64x64xf32, #mma>, tensor<64xf32, #row>) : i32 {
      %k = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %kbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %kbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %kbar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mk[%i, %c0] %k, %kbar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %kbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %kbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %kt = tilegpu.memdesc_trans %k : !tilegpu.memdesc<64x64xf16, #nv, mutable> -> !tilegpu.memdesc<64x64xf16, #nvt, mutable>
      %s = tilegpu.warp_group_dot %qs, %kt, %zero : !tilegpu.memdesc<64x64xf16, #nv>, !tilegpu.memdesc<64x64xf16, #nvt, mutable> -> tensor<64x64xf32, #mma>
      %rm = tile.reduce(%s) axis = 1 : (tensor<64x64xf32, #mma>) -> tensor<64xf32, #row> {
      ^bb0(%x: f32, %y: f32):
        %mx = arith.maxnumf %x, %y : f32
        tile.reduce.return %mx : f32
      }
      %mn = arith.maxnumf %m, %rm : tensor<64xf32, #row>
      %md = arith.subf %m, %mn : tensor<64xf32, #row>
      %alpha = math.exp2 %md : tensor<64xf32, #row>
      %me = tile.expand_dims %mn axis = 1 : tensor<64xf32, #row> -> tensor<64x1xf32, #mma>
      %mb = tile.broadcast %me : tensor<64x1xf32, #mma> -> tensor<64x64xf32, #mma>
      %sd = arith.subf %s, %mb : tensor<64x64xf32, #mma>
      %p = math.exp2 %sd : tensor<64x64xf32, #mma>
      %ph = arith.truncf %p : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
      %pa = tilegpu.convert_layout %ph : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #dop>
      %ae = tile.expand_dims %alpha axis = 1 : tensor<64xf32, #row> -> tensor<64x1xf32, #mma>
      %ab = tile.broadcast %ae : tensor<64x1xf32, #mma> -> tensor<64x64xf32, #mma>
      %accs = arith.mulf %acc, %ab : tensor<64x64xf32, #mma>
      %v = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %vbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %vbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %vbar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mv[%i, %c0] %v, %vbar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %vbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %vbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %o = tilegpu.warp_group_dot %pa, %v, %accs : tensor<64x64xf16, #dop>, !tilegpu.memdesc<64x64xf16, #nv, mutable> -> tensor<64x64xf32, #mma>
      scf.yield %o, %mn : tensor<64x64xf32, #mma>, tensor<64xf32, #row>
    }
    tile.store %out, %res#0 : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }
}


// -----

// The same chain in two warp groups, each with rows of its own (warps
// along M): with ping-pong, besides the releases, the groups take turns
// issuing their dots (FlashAttention-3's ping-pong): in the loop the turn
// is awaited in front of the first dot and passed on after the second;
// the last group passes the first turn before the loop, group 0 takes the
// last pass after it. Without the option (the default), no turns; nothing
// of the kind in the 4-warp case above (one group) either way. Two warp
// groups: rotated by default too (four buffers at 3 stages, the guard).
// DEFAULT-LABEL: func.func @tma_dot_chain_ping_pong
// DEFAULT: tilegpu.local_alloc : () -> !tilegpu.memdesc<4x64x64xf16
// DEFAULT: tilegpu.local_alloc : () -> !tilegpu.memdesc<4x64x64xf16
// DEFAULT: scf.if
// DEFAULT: scf.for
// CHECK-LABEL: func.func @tma_dot_chain_ping_pong
// CHECK-NOT: tilegpu.warp_group_turn
// CHECK: return
// TURNS-LABEL: func.func @tma_dot_chain_ping_pong
// TURNS: tilegpu.warp_group_turn_pass {only = 1 : i32}
// TURNS-NEXT: scf.for
// TURNS: tilegpu.mbarrier_wait
// TURNS: tilegpu.warp_group_turn_wait{{$}}
// TURNS-NEXT: tilegpu.warp_group_dot async
// TURNS: tilegpu.warp_group_dot async %arg
// TURNS-NEXT: tilegpu.warp_group_turn_pass{{$}}
// TURNS: scf.yield
// TURNS-NEXT: {{^ *}}}
// TURNS-NEXT: tilegpu.warp_group_turn_wait {only = 0 : i32}
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvt = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
#row = #tilegpu.slice<{dim = 1, parent = #mma}>
#dop = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @tma_dot_chain_ping_pong(%qs: !tilegpu.memdesc<128x64xf16, #nv>, %mk: !tile.ptr<i8>, %mv: !tile.ptr<i8>, %n: i32, %out: tensor<128x64x!tile.ptr<f32>, #mma>) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %m0 = arith.constant dense<0xFF800000> : tensor<128xf32, #row>
    %res:2 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %m = %m0) -> (tensor<128x64xf32, #mma>, tensor<128xf32, #row>) : i32 {
      %k = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %kbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %kbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %kbar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mk[%i, %c0] %k, %kbar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %kbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %kbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %kt = tilegpu.memdesc_trans %k : !tilegpu.memdesc<64x64xf16, #nv, mutable> -> !tilegpu.memdesc<64x64xf16, #nvt, mutable>
      %s = tilegpu.warp_group_dot %qs, %kt, %zero : !tilegpu.memdesc<128x64xf16, #nv>, !tilegpu.memdesc<64x64xf16, #nvt, mutable> -> tensor<128x64xf32, #mma>
      %rm = tile.reduce(%s) axis = 1 : (tensor<128x64xf32, #mma>) -> tensor<128xf32, #row> {
      ^bb0(%x: f32, %y: f32):
        %mx = arith.maxnumf %x, %y : f32
        tile.reduce.return %mx : f32
      }
      %mn = arith.maxnumf %m, %rm : tensor<128xf32, #row>
      %md = arith.subf %m, %mn : tensor<128xf32, #row>
      %alpha = math.exp2 %md : tensor<128xf32, #row>
      %me = tile.expand_dims %mn axis = 1 : tensor<128xf32, #row> -> tensor<128x1xf32, #mma>
      %mb = tile.broadcast %me : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
      %sd = arith.subf %s, %mb : tensor<128x64xf32, #mma>
      %p = math.exp2 %sd : tensor<128x64xf32, #mma>
      %ph = arith.truncf %p : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
      %pa = tilegpu.convert_layout %ph : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #dop>
      %ae = tile.expand_dims %alpha axis = 1 : tensor<128xf32, #row> -> tensor<128x1xf32, #mma>
      %ab = tile.broadcast %ae : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
      %accs = arith.mulf %acc, %ab : tensor<128x64xf32, #mma>
      %v = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %vbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %vbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %vbar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mv[%i, %c0] %v, %vbar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %vbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %vbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %o = tilegpu.warp_group_dot %pa, %v, %accs : tensor<128x64xf16, #dop>, !tilegpu.memdesc<64x64xf16, #nv, mutable> -> tensor<128x64xf32, #mma>
      scf.yield %o, %mn : tensor<128x64xf32, #mma>, tensor<128xf32, #row>
    }
    tile.store %out, %res#0 : tensor<128x64x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// tl.range(..., warp_specialize=True) on the chain above: the function's
// body becomes the consumers of a tilegpu.warp_specialize (8 warps; the
// module now launches 12), whose producer warp group issues every copy: a
// loop over the iterations (tensor maps and bounds from the function's
// scalars) that waits for a stage's release (empty parity from 1, flipped
// at each wrap) before its copies. The ring is allocated and initialised
// in front of the split (which opens with a barrier of all warps: no
// tilegpu.barrier of its own), invalidated after it; the consumers keep
// the rotated chain without copies and release the stages; they take turns
// only with the ping-pong option (TURNS).
// CHECK-LABEL: "tilegpu.total-num-warps" = 12 : i32
// CHECK: func.func @tma_dot_chain_warp_specialized
// CHECK: tilegpu.mbarrier_init %{{.*}}, 1 :
// CHECK: tilegpu.mbarrier_init %{{.*}}, 8 :
// CHECK-NOT: tilegpu.barrier
// CHECK: tilegpu.warp_specialize producer_warps = 4 registers = 40, 232 {
// CHECK-NOT: tilegpu.async_tma_copy_global_to_local
// CHECK-NOT: tilegpu.warp_group_turn
// CHECK: scf.for
// CHECK: tilegpu.mbarrier_wait
// CHECK-NOT: tilegpu.warp_group_turn
// CHECK: tilegpu.warp_group_dot async
// CHECK-NOT: tilegpu.warp_group_turn
// CHECK: tilegpu.mbarrier_arrive
// CHECK-NOT: tilegpu.async_tma_copy_global_to_local
// CHECK: tilegpu.partition_end
// CHECK-NEXT: } producer {
// CHECK: scf.for %[[IV:.*]] = %{{.*}} to %arg3 step %{{.*}} iter_args(%[[S:.*]] = %{{.*}}, %[[P:.*]] = %{{.*}}) -> (i32, i32)
// CHECK: tilegpu.mbarrier_wait %{{.*}}, %[[P]]
// CHECK: tilegpu.mbarrier_expect_tx %{{.*}}, 16384
// CHECK: tilegpu.async_tma_copy_global_to_local %arg1[%[[IV]], %{{.*}}] %{{.*}} {tilegpu.reads_retired}
// CHECK: tilegpu.async_tma_copy_global_to_local %arg2[%[[IV]], %{{.*}}] %{{.*}} {tilegpu.reads_retired}
// CHECK: arith.xori %[[P]]
// CHECK: scf.yield
// CHECK: tilegpu.partition_end
// CHECK-NEXT: }
// CHECK: tilegpu.mbarrier_inval
// CHECK: return
// TURNS-LABEL: func.func @tma_dot_chain_warp_specialized
// TURNS: tilegpu.warp_specialize
// TURNS: tilegpu.warp_group_turn_pass {only = 1 : i32}
// TURNS-NEXT: scf.for
// TURNS: tilegpu.warp_group_turn_wait{{$}}
// TURNS-NEXT: tilegpu.warp_group_dot async
// TURNS: } producer {
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvt = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
#row = #tilegpu.slice<{dim = 1, parent = #mma}>
#dop = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @tma_dot_chain_warp_specialized(%qs: !tilegpu.memdesc<128x64xf16, #nv>, %mk: !tile.ptr<i8>, %mv: !tile.ptr<i8>, %n: i32, %out: tensor<128x64x!tile.ptr<f32>, #mma>) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %m0 = arith.constant dense<0xFF800000> : tensor<128xf32, #row>
    %res:2 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %m = %m0) -> (tensor<128x64xf32, #mma>, tensor<128xf32, #row>) : i32 {
      %k = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %kbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %kbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %kbar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mk[%i, %c0] %k, %kbar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %kbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %kbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %kt = tilegpu.memdesc_trans %k : !tilegpu.memdesc<64x64xf16, #nv, mutable> -> !tilegpu.memdesc<64x64xf16, #nvt, mutable>
      %s = tilegpu.warp_group_dot %qs, %kt, %zero : !tilegpu.memdesc<128x64xf16, #nv>, !tilegpu.memdesc<64x64xf16, #nvt, mutable> -> tensor<128x64xf32, #mma>
      %rm = tile.reduce(%s) axis = 1 : (tensor<128x64xf32, #mma>) -> tensor<128xf32, #row> {
      ^bb0(%x: f32, %y: f32):
        %mx = arith.maxnumf %x, %y : f32
        tile.reduce.return %mx : f32
      }
      %mn = arith.maxnumf %m, %rm : tensor<128xf32, #row>
      %md = arith.subf %m, %mn : tensor<128xf32, #row>
      %alpha = math.exp2 %md : tensor<128xf32, #row>
      %me = tile.expand_dims %mn axis = 1 : tensor<128xf32, #row> -> tensor<128x1xf32, #mma>
      %mb = tile.broadcast %me : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
      %sd = arith.subf %s, %mb : tensor<128x64xf32, #mma>
      %p = math.exp2 %sd : tensor<128x64xf32, #mma>
      %ph = arith.truncf %p : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
      %pa = tilegpu.convert_layout %ph : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #dop>
      %ae = tile.expand_dims %alpha axis = 1 : tensor<128xf32, #row> -> tensor<128x1xf32, #mma>
      %ab = tile.broadcast %ae : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
      %accs = arith.mulf %acc, %ab : tensor<128x64xf32, #mma>
      %v = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %vbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %vbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %vbar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mv[%i, %c0] %v, %vbar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %vbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %vbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %o = tilegpu.warp_group_dot %pa, %v, %accs : tensor<128x64xf16, #dop>, !tilegpu.memdesc<64x64xf16, #nv, mutable> -> tensor<128x64xf32, #mma>
      scf.yield %o, %mn : tensor<128x64xf32, #mma>, tensor<128xf32, #row>
    } {tile.warp_specialize}
    tile.store %out, %res#0 : tensor<128x64x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// The same chain at head dimension 64 with the softmax's row sum, as
// attention computes it. By default (ping-pong=auto: its first dot reduces
// over less than 128) it is rotated (one buffer more) and takes no turns,
// as with never (NEVER); with always (TURNS), turns around its dots. With
// softmax (SOFTMAX) the consumer warp groups take turns around their
// exponentials instead (cuDNN's schedule): the chain stays unrotated (each
// dot waited for at once, P V's before the stage's release at the end of
// the iteration) with a ring of num-stages buffers; the row maximum passes
// through the turn's wait, which all its users then read, and the pass
// takes the row sum; the last group passes the first turn before the
// loop, group 0 takes the last pass after it.
// CHECK-LABEL: func.func @tma_dot_chain_softmax_turns
// CHECK: tilegpu.local_alloc : () -> !tilegpu.memdesc<4x64x64xf16
// CHECK-NOT: tilegpu.warp_group_turn
// CHECK: } producer {
// NEVER-LABEL: func.func @tma_dot_chain_softmax_turns
// NEVER: tilegpu.local_alloc : () -> !tilegpu.memdesc<4x64x64xf16
// NEVER-NOT: tilegpu.warp_group_turn
// NEVER: } producer {
// TURNS-LABEL: func.func @tma_dot_chain_softmax_turns
// TURNS: tilegpu.local_alloc : () -> !tilegpu.memdesc<4x64x64xf16
// TURNS: tilegpu.warp_group_turn_wait{{$}}
// TURNS-NEXT: tilegpu.warp_group_dot async
// TURNS-NOT: tilegpu.warp_group_turn_wait(%
// TURNS: } producer {
// SOFTMAX-LABEL: func.func @tma_dot_chain_softmax_turns
// SOFTMAX: tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x64xf16
// SOFTMAX: tilegpu.warp_specialize
// SOFTMAX: tilegpu.warp_group_turn_pass {only = 1 : i32}
// SOFTMAX-NEXT: %[[R:.*]]:{{[0-9]+}} = scf.for
// SOFTMAX: %[[S:.*]] = tilegpu.warp_group_dot async
// SOFTMAX: %[[SW:.*]] = tilegpu.warp_group_dot_wait %[[S]] {pendings = 0 : i32}
// SOFTMAX: %[[MN:.*]] = arith.maxnumf %{{.*}} : tensor<128xf32
// SOFTMAX-NEXT: %[[M:.*]] = tilegpu.warp_group_turn_wait(%[[MN]] : tensor<128xf32
// SOFTMAX-NOT: %[[MN]]
// SOFTMAX: arith.subf %{{.*}}, %[[M]]
// SOFTMAX: tile.expand_dims %[[M]]
// SOFTMAX: %[[P:.*]] = math.exp2 %{{.*}} : tensor<128x64xf32
// SOFTMAX: %[[RS:.*]] = tile.reduce(%[[P]])
// SOFTMAX: tilegpu.warp_group_turn_pass(%[[RS]] : tensor<128xf32
// SOFTMAX: %[[O:.*]] = tilegpu.warp_group_dot async
// SOFTMAX: %[[OW:.*]] = tilegpu.warp_group_dot_wait %[[O]] {pendings = 0 : i32}
// SOFTMAX-NEXT: tilegpu.memdesc_index
// SOFTMAX-NEXT: tilegpu.mbarrier_arrive
// SOFTMAX-NEXT: scf.yield %[[OW]], %[[M]],
// SOFTMAX-NEXT: } {tile.warp_specialize}
// SOFTMAX-NEXT: tilegpu.warp_group_turn_wait {only = 0 : i32}
// SOFTMAX-NOT: scf.if
// SOFTMAX: } producer {
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvt = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
#row = #tilegpu.slice<{dim = 1, parent = #mma}>
#dop = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @tma_dot_chain_softmax_turns(%qs: !tilegpu.memdesc<128x64xf16, #nv>, %mk: !tile.ptr<i8>, %mv: !tile.ptr<i8>, %n: i32, %out: tensor<128x64x!tile.ptr<f32>, #mma>) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %m0 = arith.constant dense<0xFF800000> : tensor<128xf32, #row>
    %l0 = arith.constant dense<0.0> : tensor<128xf32, #row>
    %res:3 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %m = %m0, %l = %l0) -> (tensor<128x64xf32, #mma>, tensor<128xf32, #row>, tensor<128xf32, #row>) : i32 {
      %k = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %kbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %kbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %kbar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mk[%i, %c0] %k, %kbar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %kbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %kbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %kt = tilegpu.memdesc_trans %k : !tilegpu.memdesc<64x64xf16, #nv, mutable> -> !tilegpu.memdesc<64x64xf16, #nvt, mutable>
      %s = tilegpu.warp_group_dot %qs, %kt, %zero : !tilegpu.memdesc<128x64xf16, #nv>, !tilegpu.memdesc<64x64xf16, #nvt, mutable> -> tensor<128x64xf32, #mma>
      %rm = tile.reduce(%s) axis = 1 : (tensor<128x64xf32, #mma>) -> tensor<128xf32, #row> {
      ^bb0(%x: f32, %y: f32):
        %mx = arith.maxnumf %x, %y : f32
        tile.reduce.return %mx : f32
      }
      %mn = arith.maxnumf %m, %rm : tensor<128xf32, #row>
      %md = arith.subf %m, %mn : tensor<128xf32, #row>
      %alpha = math.exp2 %md : tensor<128xf32, #row>
      %me = tile.expand_dims %mn axis = 1 : tensor<128xf32, #row> -> tensor<128x1xf32, #mma>
      %mb = tile.broadcast %me : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
      %sd = arith.subf %s, %mb : tensor<128x64xf32, #mma>
      %p = math.exp2 %sd : tensor<128x64xf32, #mma>
      %rs = tile.reduce(%p) axis = 1 : (tensor<128x64xf32, #mma>) -> tensor<128xf32, #row> {
      ^bb0(%x: f32, %y: f32):
        %sum = arith.addf %x, %y : f32
        tile.reduce.return %sum : f32
      }
      %ls = arith.mulf %l, %alpha : tensor<128xf32, #row>
      %ln = arith.addf %ls, %rs : tensor<128xf32, #row>
      %ph = arith.truncf %p : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
      %pa = tilegpu.convert_layout %ph : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #dop>
      %ae = tile.expand_dims %alpha axis = 1 : tensor<128xf32, #row> -> tensor<128x1xf32, #mma>
      %ab = tile.broadcast %ae : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
      %accs = arith.mulf %acc, %ab : tensor<128x64xf32, #mma>
      %v = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %vbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %vbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %vbar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mv[%i, %c0] %v, %vbar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %vbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %vbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %o = tilegpu.warp_group_dot %pa, %v, %accs : tensor<128x64xf16, #dop>, !tilegpu.memdesc<64x64xf16, #nv, mutable> -> tensor<128x64xf32, #mma>
      scf.yield %o, %mn, %ln : tensor<128x64xf32, #mma>, tensor<128xf32, #row>, tensor<128xf32, #row>
    } {tile.warp_specialize}
    tile.store %out, %res#0 : tensor<128x64x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// The same chain at head dimension 128 (its first dot reduces over 128;
// 2 stages, so that three 128 x 128 buffers of K and of V fit beside Q),
// warp-specialized: by default (ping-pong=auto) the two consumer warp
// groups take turns issuing their dots, FlashAttention-3's ping-pong: the
// second group passes the first turn before the loop, each iteration
// waits for its turn in front of Q K^T and passes it after P V, group 0
// takes the last pass after the loop. Not with ping-pong=never (NEVER).
// CHECK-LABEL: func.func @tma_dot_chain_wide_warp_specialized
// CHECK: tilegpu.warp_specialize
// CHECK: tilegpu.warp_group_turn_pass {only = 1 : i32}
// CHECK-NEXT: scf.for
// CHECK: tilegpu.warp_group_turn_wait{{$}}
// CHECK-NEXT: tilegpu.warp_group_dot async
// CHECK: tilegpu.warp_group_dot async
// CHECK-NEXT: tilegpu.warp_group_turn_pass{{$}}
// CHECK: scf.yield
// CHECK: tilegpu.warp_group_turn_wait {only = 0 : i32}
// CHECK: } producer {
// NEVER-LABEL: func.func @tma_dot_chain_wide_warp_specialized
// NEVER-NOT: tilegpu.warp_group_turn
// NEVER: } producer {
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvt = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
#row = #tilegpu.slice<{dim = 1, parent = #mma}>
#dop = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
module attributes {"tilegpu.num-stages" = 2 : i32, "tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @tma_dot_chain_wide_warp_specialized(%qs: !tilegpu.memdesc<128x128xf16, #nv>, %mk: !tile.ptr<i8>, %mv: !tile.ptr<i8>, %n: i32, %out: tensor<128x128x!tile.ptr<f32>, #mma>) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 128 : i32
    %zero = arith.constant dense<0.0> : tensor<128x128xf32, #mma>
    %m0 = arith.constant dense<0xFF800000> : tensor<128xf32, #row>
    %res:2 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %m = %m0) -> (tensor<128x128xf32, #mma>, tensor<128xf32, #row>) : i32 {
      %k = tilegpu.local_alloc : () -> !tilegpu.memdesc<128x128xf16, #nv, mutable>
      %kbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %kbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %kbar, 32768 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mk[%i, %c0] %k, %kbar : !tile.ptr<i8>, !tilegpu.memdesc<128x128xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %kbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %kbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %kt = tilegpu.memdesc_trans %k : !tilegpu.memdesc<128x128xf16, #nv, mutable> -> !tilegpu.memdesc<128x128xf16, #nvt, mutable>
      %s = tilegpu.warp_group_dot %qs, %kt, %zero : !tilegpu.memdesc<128x128xf16, #nv>, !tilegpu.memdesc<128x128xf16, #nvt, mutable> -> tensor<128x128xf32, #mma>
      %rm = tile.reduce(%s) axis = 1 : (tensor<128x128xf32, #mma>) -> tensor<128xf32, #row> {
      ^bb0(%x: f32, %y: f32):
        %mx = arith.maxnumf %x, %y : f32
        tile.reduce.return %mx : f32
      }
      %mn = arith.maxnumf %m, %rm : tensor<128xf32, #row>
      %md = arith.subf %m, %mn : tensor<128xf32, #row>
      %alpha = math.exp2 %md : tensor<128xf32, #row>
      %me = tile.expand_dims %mn axis = 1 : tensor<128xf32, #row> -> tensor<128x1xf32, #mma>
      %mb = tile.broadcast %me : tensor<128x1xf32, #mma> -> tensor<128x128xf32, #mma>
      %sd = arith.subf %s, %mb : tensor<128x128xf32, #mma>
      %p = math.exp2 %sd : tensor<128x128xf32, #mma>
      %ph = arith.truncf %p : tensor<128x128xf32, #mma> to tensor<128x128xf16, #mma>
      %pa = tilegpu.convert_layout %ph : tensor<128x128xf16, #mma> -> tensor<128x128xf16, #dop>
      %ae = tile.expand_dims %alpha axis = 1 : tensor<128xf32, #row> -> tensor<128x1xf32, #mma>
      %ab = tile.broadcast %ae : tensor<128x1xf32, #mma> -> tensor<128x128xf32, #mma>
      %accs = arith.mulf %acc, %ab : tensor<128x128xf32, #mma>
      %v = tilegpu.local_alloc : () -> !tilegpu.memdesc<128x128xf16, #nv, mutable>
      %vbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %vbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %vbar, 32768 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mv[%i, %c0] %v, %vbar : !tile.ptr<i8>, !tilegpu.memdesc<128x128xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %vbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %vbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %o = tilegpu.warp_group_dot %pa, %v, %accs : tensor<128x128xf16, #dop>, !tilegpu.memdesc<128x128xf16, #nv, mutable> -> tensor<128x128xf32, #mma>
      scf.yield %o, %mn : tensor<128x128xf32, #mma>, tensor<128xf32, #row>
    } {tile.warp_specialize}
    tile.store %out, %res#0 : tensor<128x128x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// The same chain with Q staged in shared memory before the loop and its
// result staged again after it for a TMA store (an epilogue's): the ring
// (3 x 64 KiB) fits beside the larger of the two, since the store's block
// is written when Q is dead; warp-specialized.
// CHECK-LABEL: func.func @tma_dot_chain_store_staged_after
// CHECK: tilegpu.warp_specialize
// CHECK: tilegpu.async_tma_copy_local_to_global
// CHECK: } producer {
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvt = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
#row = #tilegpu.slice<{dim = 1, parent = #mma}>
#dop = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#blk = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"tilegpu.num-stages" = 2 : i32, "tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @tma_dot_chain_store_staged_after(%qp: tensor<128x128x!tile.ptr<f16>, #blk>, %mo: !tile.ptr<i8>, %mk: !tile.ptr<i8>, %mv: !tile.ptr<i8>, %n: i32, %out: tensor<128x128x!tile.ptr<f16>, #blk>) {
    %qt = tile.load %qp : tensor<128x128x!tile.ptr<f16>, #blk>
    %qs = tilegpu.local_alloc %qt : (tensor<128x128xf16, #blk>) -> !tilegpu.memdesc<128x128xf16, #nv>
    tilegpu.fence_async_shared %qs : !tilegpu.memdesc<128x128xf16, #nv>
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 128 : i32
    %zero = arith.constant dense<0.0> : tensor<128x128xf32, #mma>
    %m0 = arith.constant dense<0xFF800000> : tensor<128xf32, #row>
    %res:2 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %m = %m0) -> (tensor<128x128xf32, #mma>, tensor<128xf32, #row>) : i32 {
      %k = tilegpu.local_alloc : () -> !tilegpu.memdesc<128x128xf16, #nv, mutable>
      %kbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %kbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %kbar, 32768 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mk[%i, %c0] %k, %kbar : !tile.ptr<i8>, !tilegpu.memdesc<128x128xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %kbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %kbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %kt = tilegpu.memdesc_trans %k : !tilegpu.memdesc<128x128xf16, #nv, mutable> -> !tilegpu.memdesc<128x128xf16, #nvt, mutable>
      %s = tilegpu.warp_group_dot %qs, %kt, %zero : !tilegpu.memdesc<128x128xf16, #nv>, !tilegpu.memdesc<128x128xf16, #nvt, mutable> -> tensor<128x128xf32, #mma>
      %rm = tile.reduce(%s) axis = 1 : (tensor<128x128xf32, #mma>) -> tensor<128xf32, #row> {
      ^bb0(%x: f32, %y: f32):
        %mx = arith.maxnumf %x, %y : f32
        tile.reduce.return %mx : f32
      }
      %mn = arith.maxnumf %m, %rm : tensor<128xf32, #row>
      %md = arith.subf %m, %mn : tensor<128xf32, #row>
      %alpha = math.exp2 %md : tensor<128xf32, #row>
      %me = tile.expand_dims %mn axis = 1 : tensor<128xf32, #row> -> tensor<128x1xf32, #mma>
      %mb = tile.broadcast %me : tensor<128x1xf32, #mma> -> tensor<128x128xf32, #mma>
      %sd = arith.subf %s, %mb : tensor<128x128xf32, #mma>
      %p = math.exp2 %sd : tensor<128x128xf32, #mma>
      %ph = arith.truncf %p : tensor<128x128xf32, #mma> to tensor<128x128xf16, #mma>
      %pa = tilegpu.convert_layout %ph : tensor<128x128xf16, #mma> -> tensor<128x128xf16, #dop>
      %ae = tile.expand_dims %alpha axis = 1 : tensor<128xf32, #row> -> tensor<128x1xf32, #mma>
      %ab = tile.broadcast %ae : tensor<128x1xf32, #mma> -> tensor<128x128xf32, #mma>
      %accs = arith.mulf %acc, %ab : tensor<128x128xf32, #mma>
      %v = tilegpu.local_alloc : () -> !tilegpu.memdesc<128x128xf16, #nv, mutable>
      %vbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %vbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %vbar, 32768 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mv[%i, %c0] %v, %vbar : !tile.ptr<i8>, !tilegpu.memdesc<128x128xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %vbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %vbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %o = tilegpu.warp_group_dot %pa, %v, %accs : tensor<128x128xf16, #dop>, !tilegpu.memdesc<128x128xf16, #nv, mutable> -> tensor<128x128xf32, #mma>
      scf.yield %o, %mn : tensor<128x128xf32, #mma>, tensor<128xf32, #row>
    } {tile.warp_specialize}
    %oh = arith.truncf %res#0 : tensor<128x128xf32, #mma> to tensor<128x128xf16, #mma>
    %os = tilegpu.local_alloc %oh : (tensor<128x128xf16, #mma>) -> !tilegpu.memdesc<128x128xf16, #nv>
    tilegpu.fence_async_shared
    tilegpu.async_tma_copy_local_to_global %mo[%c0, %c0] %os : !tile.ptr<i8>, !tilegpu.memdesc<128x128xf16, #nv>
    tilegpu.async_tma_store_wait {pendings = 0 : i32}
    return
  }
}

// -----

// Must not: the same, but the block staged after the loop is read back
// by the threads (not a TMA store's), counted beside Q: the ring no longer
// fits with both, and the loop is not specialized.
// CHECK-LABEL: func.func @tma_dot_chain_staged_twice
// CHECK-NOT: tilegpu.warp_specialize
// CHECK: tilegpu.local_load
// CHECK: return
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvt = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
#row = #tilegpu.slice<{dim = 1, parent = #mma}>
#dop = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#blk = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"tilegpu.num-stages" = 2 : i32, "tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @tma_dot_chain_staged_twice(%qp: tensor<128x128x!tile.ptr<f16>, #blk>, %mo: !tile.ptr<i8>, %mk: !tile.ptr<i8>, %mv: !tile.ptr<i8>, %n: i32, %out: tensor<128x128x!tile.ptr<f16>, #blk>) {
    %qt = tile.load %qp : tensor<128x128x!tile.ptr<f16>, #blk>
    %qs = tilegpu.local_alloc %qt : (tensor<128x128xf16, #blk>) -> !tilegpu.memdesc<128x128xf16, #nv>
    tilegpu.fence_async_shared %qs : !tilegpu.memdesc<128x128xf16, #nv>
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 128 : i32
    %zero = arith.constant dense<0.0> : tensor<128x128xf32, #mma>
    %m0 = arith.constant dense<0xFF800000> : tensor<128xf32, #row>
    %res:2 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %m = %m0) -> (tensor<128x128xf32, #mma>, tensor<128xf32, #row>) : i32 {
      %k = tilegpu.local_alloc : () -> !tilegpu.memdesc<128x128xf16, #nv, mutable>
      %kbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %kbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %kbar, 32768 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mk[%i, %c0] %k, %kbar : !tile.ptr<i8>, !tilegpu.memdesc<128x128xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %kbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %kbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %kt = tilegpu.memdesc_trans %k : !tilegpu.memdesc<128x128xf16, #nv, mutable> -> !tilegpu.memdesc<128x128xf16, #nvt, mutable>
      %s = tilegpu.warp_group_dot %qs, %kt, %zero : !tilegpu.memdesc<128x128xf16, #nv>, !tilegpu.memdesc<128x128xf16, #nvt, mutable> -> tensor<128x128xf32, #mma>
      %rm = tile.reduce(%s) axis = 1 : (tensor<128x128xf32, #mma>) -> tensor<128xf32, #row> {
      ^bb0(%x: f32, %y: f32):
        %mx = arith.maxnumf %x, %y : f32
        tile.reduce.return %mx : f32
      }
      %mn = arith.maxnumf %m, %rm : tensor<128xf32, #row>
      %md = arith.subf %m, %mn : tensor<128xf32, #row>
      %alpha = math.exp2 %md : tensor<128xf32, #row>
      %me = tile.expand_dims %mn axis = 1 : tensor<128xf32, #row> -> tensor<128x1xf32, #mma>
      %mb = tile.broadcast %me : tensor<128x1xf32, #mma> -> tensor<128x128xf32, #mma>
      %sd = arith.subf %s, %mb : tensor<128x128xf32, #mma>
      %p = math.exp2 %sd : tensor<128x128xf32, #mma>
      %ph = arith.truncf %p : tensor<128x128xf32, #mma> to tensor<128x128xf16, #mma>
      %pa = tilegpu.convert_layout %ph : tensor<128x128xf16, #mma> -> tensor<128x128xf16, #dop>
      %ae = tile.expand_dims %alpha axis = 1 : tensor<128xf32, #row> -> tensor<128x1xf32, #mma>
      %ab = tile.broadcast %ae : tensor<128x1xf32, #mma> -> tensor<128x128xf32, #mma>
      %accs = arith.mulf %acc, %ab : tensor<128x128xf32, #mma>
      %v = tilegpu.local_alloc : () -> !tilegpu.memdesc<128x128xf16, #nv, mutable>
      %vbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %vbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %vbar, 32768 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mv[%i, %c0] %v, %vbar : !tile.ptr<i8>, !tilegpu.memdesc<128x128xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %vbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %vbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %o = tilegpu.warp_group_dot %pa, %v, %accs : tensor<128x128xf16, #dop>, !tilegpu.memdesc<128x128xf16, #nv, mutable> -> tensor<128x128xf32, #mma>
      scf.yield %o, %mn : tensor<128x128xf32, #mma>, tensor<128xf32, #row>
    } {tile.warp_specialize}
    %oh = arith.truncf %res#0 : tensor<128x128xf32, #mma> to tensor<128x128xf16, #mma>
    %os = tilegpu.local_alloc %oh : (tensor<128x128xf16, #mma>) -> !tilegpu.memdesc<128x128xf16, #nv>
    %ob = tilegpu.local_load %os : !tilegpu.memdesc<128x128xf16, #nv> -> tensor<128x128xf16, #blk>
    tile.store %out, %ob : tensor<128x128x!tile.ptr<f16>, #blk>
    return
  }
}

// -----

// The same chain without a producer warp group: no turns by default (they
// were measured slower there), only with ping-pong=always (TURNS), which
// rotates it. By default (DEFAULT) its two-stage ring is not rotated: two
// stacks of num-stages buffers, the refill right after the wait for this
// iteration's stage, behind the wait for its empty phase (eight arrivals,
// one per warp), each warp releasing the stage after the wait for P V.
// CHECK-LABEL: func.func @tma_dot_chain_wide
// CHECK-NOT: tilegpu.warp_group_turn
// CHECK: return
// TURNS-LABEL: func.func @tma_dot_chain_wide
// TURNS: tilegpu.warp_group_turn_pass {only = 1 : i32}
// TURNS-NEXT: scf.for
// TURNS: tilegpu.warp_group_turn_wait{{$}}
// DEFAULT-LABEL: func.func @tma_dot_chain_wide
// DEFAULT-COUNT-2: tilegpu.local_alloc : () -> !tilegpu.memdesc<2x128x128xf16
// DEFAULT: tilegpu.mbarrier_init %{{.*}}, 8 :
// DEFAULT: scf.for
// DEFAULT-NEXT: tilegpu.memdesc_index
// DEFAULT-NEXT: tilegpu.mbarrier_wait
// DEFAULT: scf.if
// DEFAULT-NEXT: tilegpu.memdesc_index
// DEFAULT-NEXT: tilegpu.mbarrier_wait
// DEFAULT: tilegpu.async_tma_copy_global_to_local {{.*}} {tilegpu.reads_retired}
// DEFAULT: tilegpu.async_tma_copy_global_to_local {{.*}} {tilegpu.reads_retired}
// DEFAULT-NEXT: }
// DEFAULT-NEXT: tilegpu.memdesc_index
// DEFAULT-NEXT: tilegpu.memdesc_trans
// DEFAULT-NEXT: tilegpu.warp_group_dot async
// DEFAULT-NOT: tilegpu.warp_group_turn
// DEFAULT: tilegpu.warp_group_dot async
// DEFAULT-NEXT: tilegpu.warp_group_dot_wait {{.*}} {pendings = 0 : i32}
// DEFAULT-NEXT: tilegpu.memdesc_index
// DEFAULT-NEXT: tilegpu.mbarrier_arrive
// DEFAULT-NEXT: scf.yield
// DEFAULT-NOT: scf.if
// DEFAULT: return
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvt = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
#row = #tilegpu.slice<{dim = 1, parent = #mma}>
#dop = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
module attributes {"tilegpu.num-stages" = 2 : i32, "tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @tma_dot_chain_wide(%qs: !tilegpu.memdesc<128x128xf16, #nv>, %mk: !tile.ptr<i8>, %mv: !tile.ptr<i8>, %n: i32, %out: tensor<128x128x!tile.ptr<f32>, #mma>) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 128 : i32
    %zero = arith.constant dense<0.0> : tensor<128x128xf32, #mma>
    %m0 = arith.constant dense<0xFF800000> : tensor<128xf32, #row>
    %res:2 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %m = %m0) -> (tensor<128x128xf32, #mma>, tensor<128xf32, #row>) : i32 {
      %k = tilegpu.local_alloc : () -> !tilegpu.memdesc<128x128xf16, #nv, mutable>
      %kbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %kbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %kbar, 32768 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mk[%i, %c0] %k, %kbar : !tile.ptr<i8>, !tilegpu.memdesc<128x128xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %kbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %kbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %kt = tilegpu.memdesc_trans %k : !tilegpu.memdesc<128x128xf16, #nv, mutable> -> !tilegpu.memdesc<128x128xf16, #nvt, mutable>
      %s = tilegpu.warp_group_dot %qs, %kt, %zero : !tilegpu.memdesc<128x128xf16, #nv>, !tilegpu.memdesc<128x128xf16, #nvt, mutable> -> tensor<128x128xf32, #mma>
      %rm = tile.reduce(%s) axis = 1 : (tensor<128x128xf32, #mma>) -> tensor<128xf32, #row> {
      ^bb0(%x: f32, %y: f32):
        %mx = arith.maxnumf %x, %y : f32
        tile.reduce.return %mx : f32
      }
      %mn = arith.maxnumf %m, %rm : tensor<128xf32, #row>
      %md = arith.subf %m, %mn : tensor<128xf32, #row>
      %alpha = math.exp2 %md : tensor<128xf32, #row>
      %me = tile.expand_dims %mn axis = 1 : tensor<128xf32, #row> -> tensor<128x1xf32, #mma>
      %mb = tile.broadcast %me : tensor<128x1xf32, #mma> -> tensor<128x128xf32, #mma>
      %sd = arith.subf %s, %mb : tensor<128x128xf32, #mma>
      %p = math.exp2 %sd : tensor<128x128xf32, #mma>
      %ph = arith.truncf %p : tensor<128x128xf32, #mma> to tensor<128x128xf16, #mma>
      %pa = tilegpu.convert_layout %ph : tensor<128x128xf16, #mma> -> tensor<128x128xf16, #dop>
      %ae = tile.expand_dims %alpha axis = 1 : tensor<128xf32, #row> -> tensor<128x1xf32, #mma>
      %ab = tile.broadcast %ae : tensor<128x1xf32, #mma> -> tensor<128x128xf32, #mma>
      %accs = arith.mulf %acc, %ab : tensor<128x128xf32, #mma>
      %v = tilegpu.local_alloc : () -> !tilegpu.memdesc<128x128xf16, #nv, mutable>
      %vbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %vbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %vbar, 32768 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mv[%i, %c0] %v, %vbar : !tile.ptr<i8>, !tilegpu.memdesc<128x128xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %vbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %vbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %o = tilegpu.warp_group_dot %pa, %v, %accs : tensor<128x128xf16, #dop>, !tilegpu.memdesc<128x128xf16, #nv, mutable> -> tensor<128x128xf32, #mma>
      scf.yield %o, %mn : tensor<128x128xf32, #mma>, tensor<128xf32, #row>
    }
    tile.store %out, %res#0 : tensor<128x128x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// Must not: the same chain with three stages stays rotated by default (a
// ring of one buffer more, the last iteration's P V behind the loop under
// the scf.if that it ran), its copies after the iteration's last read.
// DEFAULT-LABEL: func.func @tma_dot_chain_wide_three_stages
// DEFAULT-COUNT-2: tilegpu.local_alloc : () -> !tilegpu.memdesc<4x128x128xf16
// DEFAULT: scf.for
// DEFAULT: tilegpu.warp_group_dot async
// DEFAULT: tilegpu.warp_group_dot async
// DEFAULT: tilegpu.async_tma_copy_global_to_local
// DEFAULT: scf.yield
// DEFAULT: tilegpu.warp_group_dot
// DEFAULT: return
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvt = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
#row = #tilegpu.slice<{dim = 1, parent = #mma}>
#dop = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
module attributes {"tilegpu.num-stages" = 3 : i32, "tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @tma_dot_chain_wide_three_stages(%qs: !tilegpu.memdesc<128x128xf16, #nv>, %mk: !tile.ptr<i8>, %mv: !tile.ptr<i8>, %n: i32, %out: tensor<128x128x!tile.ptr<f32>, #mma>) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 128 : i32
    %zero = arith.constant dense<0.0> : tensor<128x128xf32, #mma>
    %m0 = arith.constant dense<0xFF800000> : tensor<128xf32, #row>
    %res:2 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %m = %m0) -> (tensor<128x128xf32, #mma>, tensor<128xf32, #row>) : i32 {
      %k = tilegpu.local_alloc : () -> !tilegpu.memdesc<128x128xf16, #nv, mutable>
      %kbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %kbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %kbar, 32768 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mk[%i, %c0] %k, %kbar : !tile.ptr<i8>, !tilegpu.memdesc<128x128xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %kbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %kbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %kt = tilegpu.memdesc_trans %k : !tilegpu.memdesc<128x128xf16, #nv, mutable> -> !tilegpu.memdesc<128x128xf16, #nvt, mutable>
      %s = tilegpu.warp_group_dot %qs, %kt, %zero : !tilegpu.memdesc<128x128xf16, #nv>, !tilegpu.memdesc<128x128xf16, #nvt, mutable> -> tensor<128x128xf32, #mma>
      %rm = tile.reduce(%s) axis = 1 : (tensor<128x128xf32, #mma>) -> tensor<128xf32, #row> {
      ^bb0(%x: f32, %y: f32):
        %mx = arith.maxnumf %x, %y : f32
        tile.reduce.return %mx : f32
      }
      %mn = arith.maxnumf %m, %rm : tensor<128xf32, #row>
      %md = arith.subf %m, %mn : tensor<128xf32, #row>
      %alpha = math.exp2 %md : tensor<128xf32, #row>
      %me = tile.expand_dims %mn axis = 1 : tensor<128xf32, #row> -> tensor<128x1xf32, #mma>
      %mb = tile.broadcast %me : tensor<128x1xf32, #mma> -> tensor<128x128xf32, #mma>
      %sd = arith.subf %s, %mb : tensor<128x128xf32, #mma>
      %p = math.exp2 %sd : tensor<128x128xf32, #mma>
      %ph = arith.truncf %p : tensor<128x128xf32, #mma> to tensor<128x128xf16, #mma>
      %pa = tilegpu.convert_layout %ph : tensor<128x128xf16, #mma> -> tensor<128x128xf16, #dop>
      %ae = tile.expand_dims %alpha axis = 1 : tensor<128xf32, #row> -> tensor<128x1xf32, #mma>
      %ab = tile.broadcast %ae : tensor<128x1xf32, #mma> -> tensor<128x128xf32, #mma>
      %accs = arith.mulf %acc, %ab : tensor<128x128xf32, #mma>
      %v = tilegpu.local_alloc : () -> !tilegpu.memdesc<128x128xf16, #nv, mutable>
      %vbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %vbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %vbar, 32768 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mv[%i, %c0] %v, %vbar : !tile.ptr<i8>, !tilegpu.memdesc<128x128xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %vbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %vbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %o = tilegpu.warp_group_dot %pa, %v, %accs : tensor<128x128xf16, #dop>, !tilegpu.memdesc<128x128xf16, #nv, mutable> -> tensor<128x128xf32, #mma>
      scf.yield %o, %mn : tensor<128x128xf32, #mma>, tensor<128xf32, #row>
    }
    tile.store %out, %res#0 : tensor<128x128x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// Two warp-specialized loops whose copies fill the same buffers (causal
// attention's keys below the diagonal, then on it) share one ring: one
// stack per copy and one set of mbarriers, initialised once in front of the
// split and invalidated once after it. The producer's second loop goes on
// from the stage and empty parity its first loop ended with; the
// consumers' second loop from the stage and full parity of the first's
// guard, in which the stage the first loop's last iteration read is
// released after its second dot (no refill followed it in that loop, the
// second loop's producer refills it).
// CHECK-LABEL: func.func @tma_dot_chain_warp_specialized_two_loops
// CHECK-COUNT-2: tilegpu.local_alloc : () -> !tilegpu.memdesc<4x64x64xf16
// CHECK-COUNT-8: tilegpu.mbarrier_init
// CHECK-NOT: tilegpu.mbarrier_init
// CHECK: tilegpu.warp_specialize
// CHECK: %[[G:.*]]:4 = scf.if
// CHECK: scf.for
// CHECK: tilegpu.warp_group_dot_wait %{{.*}} {pendings = 0
// CHECK-NEXT: tilegpu.memdesc_index
// CHECK-NEXT: tilegpu.mbarrier_arrive
// CHECK: tilegpu.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} :
// CHECK-NEXT: %[[STAGE:.*]] = tilegpu.memdesc_index
// CHECK-NEXT: tilegpu.mbarrier_arrive %[[STAGE]]
// CHECK-NEXT: scf.yield
// CHECK: } else {
// CHECK: scf.if
// CHECK: tilegpu.mbarrier_wait %{{.*}}, %[[G]]#3
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %[[G]]#0,
// CHECK: } producer {
// CHECK: %[[P1:.*]]:2 = scf.for %{{.*}} = %{{.*}} to %arg3 step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (i32, i32)
// CHECK: scf.for %{{.*}} = %arg3 to %arg5 step %{{.*}} iter_args(%{{.*}} = %[[P1]]#0, %{{.*}} = %[[P1]]#1) -> (i32, i32)
// CHECK: tilegpu.partition_end
// CHECK-COUNT-8: tilegpu.mbarrier_inval
// CHECK-NOT: tilegpu.mbarrier_inval
// CHECK: return
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvt = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
#row = #tilegpu.slice<{dim = 1, parent = #mma}>
#dop = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @tma_dot_chain_warp_specialized_two_loops(%qs: !tilegpu.memdesc<128x64xf16, #nv>, %mk: !tile.ptr<i8>, %mv: !tile.ptr<i8>, %n: i32, %out: tensor<128x64x!tile.ptr<f32>, #mma>, %n2: i32) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %m0 = arith.constant dense<0xFF800000> : tensor<128xf32, #row>
    %res:2 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %m = %m0) -> (tensor<128x64xf32, #mma>, tensor<128xf32, #row>) : i32 {
      %k = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %kbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %kbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %kbar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mk[%i, %c0] %k, %kbar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %kbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %kbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %kt = tilegpu.memdesc_trans %k : !tilegpu.memdesc<64x64xf16, #nv, mutable> -> !tilegpu.memdesc<64x64xf16, #nvt, mutable>
      %s = tilegpu.warp_group_dot %qs, %kt, %zero : !tilegpu.memdesc<128x64xf16, #nv>, !tilegpu.memdesc<64x64xf16, #nvt, mutable> -> tensor<128x64xf32, #mma>
      %rm = tile.reduce(%s) axis = 1 : (tensor<128x64xf32, #mma>) -> tensor<128xf32, #row> {
      ^bb0(%x: f32, %y: f32):
        %mx = arith.maxnumf %x, %y : f32
        tile.reduce.return %mx : f32
      }
      %mn = arith.maxnumf %m, %rm : tensor<128xf32, #row>
      %md = arith.subf %m, %mn : tensor<128xf32, #row>
      %alpha = math.exp2 %md : tensor<128xf32, #row>
      %me = tile.expand_dims %mn axis = 1 : tensor<128xf32, #row> -> tensor<128x1xf32, #mma>
      %mb = tile.broadcast %me : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
      %sd = arith.subf %s, %mb : tensor<128x64xf32, #mma>
      %p = math.exp2 %sd : tensor<128x64xf32, #mma>
      %ph = arith.truncf %p : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
      %pa = tilegpu.convert_layout %ph : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #dop>
      %ae = tile.expand_dims %alpha axis = 1 : tensor<128xf32, #row> -> tensor<128x1xf32, #mma>
      %ab = tile.broadcast %ae : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
      %accs = arith.mulf %acc, %ab : tensor<128x64xf32, #mma>
      %v = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %vbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %vbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %vbar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mv[%i, %c0] %v, %vbar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %vbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %vbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %o = tilegpu.warp_group_dot %pa, %v, %accs : tensor<128x64xf16, #dop>, !tilegpu.memdesc<64x64xf16, #nv, mutable> -> tensor<128x64xf32, #mma>
      scf.yield %o, %mn : tensor<128x64xf32, #mma>, tensor<128xf32, #row>
    } {tile.warp_specialize}
    %res2:2 = scf.for %i = %n to %n2 step %c64 iter_args(%acc = %res#0, %m = %res#1) -> (tensor<128x64xf32, #mma>, tensor<128xf32, #row>) : i32 {
      %k = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %kbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %kbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %kbar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mk[%i, %c0] %k, %kbar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %kbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %kbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %kt = tilegpu.memdesc_trans %k : !tilegpu.memdesc<64x64xf16, #nv, mutable> -> !tilegpu.memdesc<64x64xf16, #nvt, mutable>
      %s = tilegpu.warp_group_dot %qs, %kt, %zero : !tilegpu.memdesc<128x64xf16, #nv>, !tilegpu.memdesc<64x64xf16, #nvt, mutable> -> tensor<128x64xf32, #mma>
      %rm = tile.reduce(%s) axis = 1 : (tensor<128x64xf32, #mma>) -> tensor<128xf32, #row> {
      ^bb0(%x: f32, %y: f32):
        %mx = arith.maxnumf %x, %y : f32
        tile.reduce.return %mx : f32
      }
      %mn = arith.maxnumf %m, %rm : tensor<128xf32, #row>
      %md = arith.subf %m, %mn : tensor<128xf32, #row>
      %alpha = math.exp2 %md : tensor<128xf32, #row>
      %me = tile.expand_dims %mn axis = 1 : tensor<128xf32, #row> -> tensor<128x1xf32, #mma>
      %mb = tile.broadcast %me : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
      %sd = arith.subf %s, %mb : tensor<128x64xf32, #mma>
      %p = math.exp2 %sd : tensor<128x64xf32, #mma>
      %ph = arith.truncf %p : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
      %pa = tilegpu.convert_layout %ph : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #dop>
      %ae = tile.expand_dims %alpha axis = 1 : tensor<128xf32, #row> -> tensor<128x1xf32, #mma>
      %ab = tile.broadcast %ae : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
      %accs = arith.mulf %acc, %ab : tensor<128x64xf32, #mma>
      %v = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %vbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %vbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %vbar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mv[%i, %c0] %v, %vbar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %vbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %vbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %o = tilegpu.warp_group_dot %pa, %v, %accs : tensor<128x64xf16, #dop>, !tilegpu.memdesc<64x64xf16, #nv, mutable> -> tensor<128x64xf32, #mma>
      scf.yield %o, %mn : tensor<128x64xf32, #mma>, tensor<128xf32, #row>
    } {tile.warp_specialize}
    tile.store %out, %res2#0 : tensor<128x64x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// Must not: a loop in other control flow (here an scf.if) keeps its
// copies; warp_specialize is a hint, and the chain is pipelined as without
// it (a barrier publishes the ring's mbarriers).
// CHECK-LABEL: func.func @tma_dot_chain_warp_specialized_nested
// CHECK-NOT: tilegpu.warp_specialize
// CHECK: tilegpu.barrier
// CHECK: tilegpu.async_tma_copy_global_to_local
// CHECK-NOT: tilegpu.warp_specialize
// CHECK: return
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvt = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
#row = #tilegpu.slice<{dim = 1, parent = #mma}>
#dop = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @tma_dot_chain_warp_specialized_nested(%qs: !tilegpu.memdesc<128x64xf16, #nv>, %mk: !tile.ptr<i8>, %mv: !tile.ptr<i8>, %n: i32, %out: tensor<128x64x!tile.ptr<f32>, #mma>, %go: i1) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %m0 = arith.constant dense<0xFF800000> : tensor<128xf32, #row>
    %res:2 = scf.if %go -> (tensor<128x64xf32, #mma>, tensor<128xf32, #row>) {
    %r:2 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %m = %m0) -> (tensor<128x64xf32, #mma>, tensor<128xf32, #row>) : i32 {
      %k = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %kbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %kbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %kbar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mk[%i, %c0] %k, %kbar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %kbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %kbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %kt = tilegpu.memdesc_trans %k : !tilegpu.memdesc<64x64xf16, #nv, mutable> -> !tilegpu.memdesc<64x64xf16, #nvt, mutable>
      %s = tilegpu.warp_group_dot %qs, %kt, %zero : !tilegpu.memdesc<128x64xf16, #nv>, !tilegpu.memdesc<64x64xf16, #nvt, mutable> -> tensor<128x64xf32, #mma>
      %rm = tile.reduce(%s) axis = 1 : (tensor<128x64xf32, #mma>) -> tensor<128xf32, #row> {
      ^bb0(%x: f32, %y: f32):
        %mx = arith.maxnumf %x, %y : f32
        tile.reduce.return %mx : f32
      }
      %mn = arith.maxnumf %m, %rm : tensor<128xf32, #row>
      %md = arith.subf %m, %mn : tensor<128xf32, #row>
      %alpha = math.exp2 %md : tensor<128xf32, #row>
      %me = tile.expand_dims %mn axis = 1 : tensor<128xf32, #row> -> tensor<128x1xf32, #mma>
      %mb = tile.broadcast %me : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
      %sd = arith.subf %s, %mb : tensor<128x64xf32, #mma>
      %p = math.exp2 %sd : tensor<128x64xf32, #mma>
      %ph = arith.truncf %p : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
      %pa = tilegpu.convert_layout %ph : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #dop>
      %ae = tile.expand_dims %alpha axis = 1 : tensor<128xf32, #row> -> tensor<128x1xf32, #mma>
      %ab = tile.broadcast %ae : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
      %accs = arith.mulf %acc, %ab : tensor<128x64xf32, #mma>
      %v = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %vbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %vbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %vbar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mv[%i, %c0] %v, %vbar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %vbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %vbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %o = tilegpu.warp_group_dot %pa, %v, %accs : tensor<128x64xf16, #dop>, !tilegpu.memdesc<64x64xf16, #nv, mutable> -> tensor<128x64xf32, #mma>
      scf.yield %o, %mn : tensor<128x64xf32, #mma>, tensor<128xf32, #row>
    } {tile.warp_specialize}
    scf.yield %r#0, %r#1 : tensor<128x64xf32, #mma>, tensor<128xf32, #row>
    } else {
    scf.yield %zero, %m0 : tensor<128x64xf32, #mma>, tensor<128xf32, #row>
    }
    tile.store %out, %res#0 : tensor<128x64x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// A persistent kernel's loop over tiles around the specialized chain: the
// producer runs its own loop over the same tiles (the row of the tile
// computed again in it from its induction variable) around its loop over
// the iterations, and carries the ring's stage and empty parity from tile
// to tile; the consumers' loop over tiles carries their stage to read and
// full parity (from 0, 0) the same way, through the chain's guard, whose
// last iteration releases the stage it read (the next tile's producer
// refills it).
// CHECK-LABEL: func.func @tma_dot_chain_warp_specialized_persistent
// CHECK: tilegpu.warp_specialize producer_warps = 4
// CHECK: %[[T:.*]]:2 = scf.for %[[TILE:.*]] = %arg5 to %arg6 step %arg7 iter_args(%[[R:.*]] = %[[Z:.*]], %[[F:.*]] = %[[Z]]) -> (i32, i32)
// CHECK: %[[G:.*]]:4 = scf.if
// CHECK: tilegpu.mbarrier_wait %{{.*}}, %[[F]]
// CHECK: scf.for
// CHECK: tilegpu.mbarrier_arrive
// CHECK: tilegpu.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} :
// CHECK-NEXT: %[[STAGE:.*]] = tilegpu.memdesc_index
// CHECK-NEXT: tilegpu.mbarrier_arrive %[[STAGE]]
// CHECK-NEXT: scf.yield
// CHECK: } else {
// CHECK-NEXT: scf.yield %{{.*}}, %{{.*}}, %[[R]], %[[F]]
// CHECK: tile.store
// CHECK-NEXT: scf.yield %[[G]]#2, %[[G]]#3 : i32, i32
// CHECK: tilegpu.partition_end
// CHECK-NEXT: } producer {
// CHECK: scf.for %[[PT:.*]] = %arg5 to %arg6 step %arg7 iter_args(%[[S:.*]] = %c0_i32{{.*}}, %[[P:.*]] = %c1_i32{{.*}}) -> (i32, i32)
// CHECK-NEXT: %[[ROW0:.*]] = arith.muli %[[PT]], %arg3
// CHECK-NEXT: %[[IN:.*]]:2 = scf.for %[[IV:.*]] = %{{.*}} to %arg3 step %{{.*}} iter_args(%{{.*}} = %[[S]], %{{.*}} = %[[P]]) -> (i32, i32)
// CHECK: %[[ROW:.*]] = arith.addi %[[ROW0]], %[[IV]]
// CHECK-NEXT: tilegpu.memdesc_index
// CHECK-NEXT: tilegpu.async_tma_copy_global_to_local %arg1[%[[ROW]], %{{.*}}]
// CHECK: scf.yield %[[IN]]#0, %[[IN]]#1 : i32, i32
// CHECK: tilegpu.partition_end
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvt = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
#row = #tilegpu.slice<{dim = 1, parent = #mma}>
#dop = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @tma_dot_chain_warp_specialized_persistent(%qs: !tilegpu.memdesc<128x64xf16, #nv>, %mk: !tile.ptr<i8>, %mv: !tile.ptr<i8>, %n: i32, %out: tensor<128x64x!tile.ptr<f32>, #mma>, %first: i32, %tiles: i32, %programs: i32) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %m0 = arith.constant dense<0xFF800000> : tensor<128xf32, #row>
    scf.for %t = %first to %tiles step %programs : i32 {
      %row0 = arith.muli %t, %n : i32
      %res:2 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %m = %m0) -> (tensor<128x64xf32, #mma>, tensor<128xf32, #row>) : i32 {
        %row = arith.addi %row0, %i : i32
        %k = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
        %kbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
        tilegpu.mbarrier_init %kbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
        tilegpu.mbarrier_expect_tx %kbar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
        tilegpu.async_tma_copy_global_to_local %mk[%row, %c0] %k, %kbar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
        tilegpu.mbarrier_wait %kbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
        tilegpu.mbarrier_inval %kbar : !tilegpu.memdesc<1xi64, #bar, mutable>
        %kt = tilegpu.memdesc_trans %k : !tilegpu.memdesc<64x64xf16, #nv, mutable> -> !tilegpu.memdesc<64x64xf16, #nvt, mutable>
        %s = tilegpu.warp_group_dot %qs, %kt, %zero : !tilegpu.memdesc<128x64xf16, #nv>, !tilegpu.memdesc<64x64xf16, #nvt, mutable> -> tensor<128x64xf32, #mma>
        %rm = tile.reduce(%s) axis = 1 : (tensor<128x64xf32, #mma>) -> tensor<128xf32, #row> {
        ^bb0(%x: f32, %y: f32):
          %mx = arith.maxnumf %x, %y : f32
          tile.reduce.return %mx : f32
        }
        %mn = arith.maxnumf %m, %rm : tensor<128xf32, #row>
        %md = arith.subf %m, %mn : tensor<128xf32, #row>
        %alpha = math.exp2 %md : tensor<128xf32, #row>
        %me = tile.expand_dims %mn axis = 1 : tensor<128xf32, #row> -> tensor<128x1xf32, #mma>
        %mb = tile.broadcast %me : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
        %sd = arith.subf %s, %mb : tensor<128x64xf32, #mma>
        %p = math.exp2 %sd : tensor<128x64xf32, #mma>
        %ph = arith.truncf %p : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
        %pa = tilegpu.convert_layout %ph : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #dop>
        %ae = tile.expand_dims %alpha axis = 1 : tensor<128xf32, #row> -> tensor<128x1xf32, #mma>
        %ab = tile.broadcast %ae : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
        %accs = arith.mulf %acc, %ab : tensor<128x64xf32, #mma>
        %v = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
        %vbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
        tilegpu.mbarrier_init %vbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
        tilegpu.mbarrier_expect_tx %vbar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
        tilegpu.async_tma_copy_global_to_local %mv[%row, %c0] %v, %vbar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
        tilegpu.mbarrier_wait %vbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
        tilegpu.mbarrier_inval %vbar : !tilegpu.memdesc<1xi64, #bar, mutable>
        %o = tilegpu.warp_group_dot %pa, %v, %accs : tensor<128x64xf16, #dop>, !tilegpu.memdesc<64x64xf16, #nv, mutable> -> tensor<128x64xf32, #mma>
        scf.yield %o, %mn : tensor<128x64xf32, #mma>, tensor<128xf32, #row>
      } {tile.warp_specialize}
      tile.store %out, %res#0 : tensor<128x64x!tile.ptr<f32>, #mma>
    }
    return
  }
}

// -----

// A persistent GEMM (tutorial 09's kernel with warp_specialize=True on its K
// loop): one dot whose accumulator starts from zeros (kept as the loop's
// start, which a loop that did not run yields) and stays in flight.
// The consumers wait for a stage's full mbarrier, issue the dot and wait
// for the previous iteration's, then release the stage that one read
// (none in the first iteration); after the loop they wait for the last
// dot without a branch (a loop that did not run has none in flight and
// yields its start, the zeros), release its stage if the loop ran (in a
// branch of its own), and the loop over tiles carries
// the stage to read and its parity. The producer's loop over the same
// tiles fills the ring, waiting for each stage's release.
// CHECK-LABEL: func.func @tma_gemm_warp_specialized_persistent
// CHECK: tilegpu.warp_specialize producer_warps = 4
// CHECK: %[[T:.*]]:2 = scf.for %{{.*}} = %arg4 to %arg5 step %arg6 iter_args(%[[R:.*]] = %[[Z:.*]], %[[F:.*]] = %[[Z]]) -> (i32, i32)
// CHECK: %[[RES:.*]]:4 = scf.for %[[I:.*]] = %c0_i32{{.*}} to %arg3 step %{{.*}} iter_args(%[[ACC:.*]] = %cst{{.*}}, %[[READ:.*]] = %[[R]], %[[PHASE:.*]] = %[[F]], %[[USE:.*]] = %false)
// CHECK: tilegpu.mbarrier_wait %{{.*}}, %[[PHASE]]
// CHECK: %[[D:.*]] = tilegpu.warp_group_dot async %{{.*}}, %{{.*}}, %[[ACC]] use_c = %[[USE]]
// CHECK-NEXT: tilegpu.warp_group_dot_wait %[[D]] {pendings = 1 : i32}
// CHECK-NOT: tilegpu.async_tma_copy_global_to_local
// CHECK: %[[LATER:.*]] = arith.cmpi ne, %[[I]], %c0_i32
// CHECK-NEXT: scf.if %[[LATER]] {
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[READ]], %c0_i32
// CHECK: %[[LESS:.*]] = arith.subi %[[READ]], %c1_i32
// CHECK: %[[PREV:.*]] = arith.select %[[FIRST]], %c2_i32{{.*}}, %[[LESS]]
// CHECK-NEXT: %[[EMPTY:.*]] = tilegpu.memdesc_index %{{.*}}[%[[PREV]]]
// CHECK-NEXT: tilegpu.mbarrier_arrive %[[EMPTY]]
// CHECK: } {tile.warp_specialize}
// CHECK-NEXT: %[[OUT:.*]] = tilegpu.warp_group_dot_wait %[[RES]]#0 {pendings = 0 : i32}
// CHECK-NEXT: %[[RAN:.*]] = arith.cmpi slt, %c0_i32{{.*}}, %arg3
// CHECK-NEXT: scf.if %[[RAN]] {
// CHECK: arith.cmpi eq, %[[RES]]#1, %c0_i32
// CHECK: tilegpu.mbarrier_arrive
// CHECK: tile.store %{{.*}}, %[[OUT]]
// CHECK-NEXT: scf.yield %[[RES]]#1, %[[RES]]#2 : i32, i32
// CHECK: tilegpu.partition_end
// CHECK-NEXT: } producer {
// CHECK: scf.for %{{.*}} = %arg4 to %arg5 step %arg6 iter_args(%[[S:.*]] = %c0_i32{{.*}}, %[[P:.*]] = %c1_i32{{.*}}) -> (i32, i32)
// CHECK: scf.for %{{.*}} = %c0_i32{{.*}} to %arg3 step %{{.*}} iter_args(%{{.*}} = %[[S]], %{{.*}} = %[[P]]) -> (i32, i32)
// CHECK: tilegpu.mbarrier_wait
// CHECK: tilegpu.mbarrier_expect_tx %{{.*}}, 24576
// CHECK: tilegpu.async_tma_copy_global_to_local %arg0
// CHECK: tilegpu.async_tma_copy_global_to_local %arg1
// CHECK: tilegpu.partition_end
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvt = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @tma_gemm_warp_specialized_persistent(%ma: !tile.ptr<i8>, %mb: !tile.ptr<i8>, %tiles_n: i32, %k: i32, %first: i32, %tiles: i32, %programs: i32, %out: tensor<128x64x!tile.ptr<f32>, #mma>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %c128 = arith.constant 128 : i32
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    scf.for %t = %first to %tiles step %programs : i32 {
      %tm = arith.divsi %t, %tiles_n : i32
      %tn = arith.remsi %t, %tiles_n : i32
      %row = arith.muli %tm, %c128 : i32
      %col = arith.muli %tn, %c64 : i32
      %res = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %zero) -> (tensor<128x64xf32, #mma>) : i32 {
      %kk = arith.muli %i, %c64 : i32
      %a = tilegpu.local_alloc : () -> !tilegpu.memdesc<128x64xf16, #nv, mutable>
      %abar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %abar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %abar, 16384 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %ma[%row, %kk] %a, %abar : !tile.ptr<i8>, !tilegpu.memdesc<128x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %abar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %abar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %b = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %bbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %bbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %bbar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mb[%col, %kk] %b, %bbar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %bbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %bbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %bt = tilegpu.memdesc_trans %b : !tilegpu.memdesc<64x64xf16, #nv, mutable> -> !tilegpu.memdesc<64x64xf16, #nvt, mutable>
      %d = tilegpu.warp_group_dot %a, %bt, %acc : !tilegpu.memdesc<128x64xf16, #nv, mutable>, !tilegpu.memdesc<64x64xf16, #nvt, mutable> -> tensor<128x64xf32, #mma>
        scf.yield %d : tensor<128x64xf32, #mma>
      } {tile.warp_specialize}
      tile.store %out, %res : tensor<128x64x!tile.ptr<f32>, #mma>
    }
    return
  }
}

// -----

// Must not: the same GEMM with A's tensor map built per tile, in the loop
// over tiles (a map per problem, from scalar code of the tile: what the
// producer could clone): not specialized, since the
// producer, running ahead, would rebuild the map while its copies of the
// tile before still read it; the K loop is pipelined on a ring of its own.
// CHECK-LABEL: func.func @tma_gemm_per_tile_map_not_specialized
// CHECK-NOT: tilegpu.warp_specialize
// CHECK: scf.for
// CHECK: tilegpu.tensormap_create
// CHECK: scf.for
// CHECK: tilegpu.async_tma_copy_global_to_local
// CHECK-NOT: tilegpu.warp_specialize
// CHECK: return
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvt = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @tma_gemm_per_tile_map_not_specialized(%slot: !tile.ptr<i8>, %abases: !tile.ptr<f16>, %mb: !tile.ptr<i8>, %tiles_n: i32, %k: i32, %first: i32, %tiles: i32, %programs: i32, %out: tensor<128x64x!tile.ptr<f32>, #mma>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %c128 = arith.constant 128 : i32
    %c1l = arith.constant 1 : i64
    %c4096l = arith.constant 4096 : i64
    %c4096 = arith.constant 4096 : i32
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    scf.for %t = %first to %tiles step %programs : i32 {
      %tm = arith.divsi %t, %tiles_n : i32
      %tn = arith.remsi %t, %tiles_n : i32
      %row = arith.muli %tm, %c128 : i32
      %col = arith.muli %tn, %c64 : i32
      %aoff = arith.muli %t, %c4096 : i32
      %abase = tile.addptr %abases, %aoff : !tile.ptr<f16>, i32
      %ma = tilegpu.tensormap_create %slot, %abase, [%c4096, %c4096], [%c4096l, %c1l] box = [128, 64] swizzle = 128 : !tile.ptr<i8>, !tile.ptr<f16> -> !tile.ptr<i8>
      %res = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %zero) -> (tensor<128x64xf32, #mma>) : i32 {
      %kk = arith.muli %i, %c64 : i32
      %a = tilegpu.local_alloc : () -> !tilegpu.memdesc<128x64xf16, #nv, mutable>
      %abar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %abar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %abar, 16384 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %ma[%row, %kk] %a, %abar : !tile.ptr<i8>, !tilegpu.memdesc<128x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %abar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %abar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %b = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %bbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %bbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %bbar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mb[%col, %kk] %b, %bbar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %bbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %bbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %bt = tilegpu.memdesc_trans %b : !tilegpu.memdesc<64x64xf16, #nv, mutable> -> !tilegpu.memdesc<64x64xf16, #nvt, mutable>
      %d = tilegpu.warp_group_dot %a, %bt, %acc : !tilegpu.memdesc<128x64xf16, #nv, mutable>, !tilegpu.memdesc<64x64xf16, #nvt, mutable> -> tensor<128x64xf32, #mma>
        scf.yield %d : tensor<128x64xf32, #mma>
      } {tile.warp_specialize}
      tile.store %out, %res : tensor<128x64x!tile.ptr<f32>, #mma>
    }
    return
  }
}

// -----

// Must not: the same GEMM flattened by hand (the accumulator reset to
// zeros in the loop on a tile's last step): not specialized (the tile's
// epilogue would sit in the consumers' loop between the stages); the dot
// stays in flight, the loop refilling its own ring.
// CHECK-LABEL: func.func @tma_gemm_warp_specialized_reset
// CHECK-NOT: tilegpu.warp_specialize
// CHECK: tilegpu.warp_group_dot async
// CHECK: tilegpu.async_tma_copy_global_to_local
// CHECK-NOT: tilegpu.warp_specialize
// CHECK: return
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvt = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @tma_gemm_warp_specialized_reset(%ma: !tile.ptr<i8>, %mb: !tile.ptr<i8>, %row: i32, %col: i32, %k: i32, %last_k: i32, %out: tensor<128x64x!tile.ptr<f32>, #mma>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %res = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %zero) -> (tensor<128x64xf32, #mma>) : i32 {
      %kk = arith.muli %i, %c64 : i32
      %a = tilegpu.local_alloc : () -> !tilegpu.memdesc<128x64xf16, #nv, mutable>
      %abar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %abar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %abar, 16384 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %ma[%row, %kk] %a, %abar : !tile.ptr<i8>, !tilegpu.memdesc<128x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %abar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %abar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %b = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %bbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_init %bbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %bbar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %mb[%col, %kk] %b, %bbar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %bbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_inval %bbar : !tilegpu.memdesc<1xi64, #bar, mutable>
      %bt = tilegpu.memdesc_trans %b : !tilegpu.memdesc<64x64xf16, #nv, mutable> -> !tilegpu.memdesc<64x64xf16, #nvt, mutable>
      %d = tilegpu.warp_group_dot %a, %bt, %acc : !tilegpu.memdesc<128x64xf16, #nv, mutable>, !tilegpu.memdesc<64x64xf16, #nvt, mutable> -> tensor<128x64xf32, #mma>
      %last = arith.cmpi eq, %i, %last_k : i32
      %next = arith.select %last, %zero, %d : tensor<128x64xf32, #mma>
      scf.if %last {
        tile.store %out, %d : tensor<128x64x!tile.ptr<f32>, #mma>
      }
      scf.yield %next : tensor<128x64xf32, #mma>
    } {tile.warp_specialize}
    tile.store %out, %res : tensor<128x64x!tile.ptr<f32>, #mma>
    return
  }
}

// -----

// Must not: a tile loop whose carried value gives the copies' coordinates
// (the producer could not compute it): not specialized, the chain is
// pipelined in the loop as without the hint.
// CHECK-LABEL: func.func @tma_dot_chain_warp_specialized_tile_carried
// CHECK-NOT: tilegpu.warp_specialize
// CHECK: tilegpu.async_tma_copy_global_to_local
// CHECK-NOT: tilegpu.warp_specialize
// CHECK: return
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvt = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
#row = #tilegpu.slice<{dim = 1, parent = #mma}>
#dop = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @tma_dot_chain_warp_specialized_tile_carried(%qs: !tilegpu.memdesc<128x64xf16, #nv>, %mk: !tile.ptr<i8>, %mv: !tile.ptr<i8>, %n: i32, %out: tensor<128x64x!tile.ptr<f32>, #mma>, %first: i32, %tiles: i32, %programs: i32) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %m0 = arith.constant dense<0xFF800000> : tensor<128xf32, #row>
    %last = scf.for %t = %first to %tiles step %programs iter_args(%carried = %c0) -> (i32) : i32 {
      %res:2 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %m = %m0) -> (tensor<128x64xf32, #mma>, tensor<128xf32, #row>) : i32 {
        %row = arith.addi %carried, %i : i32
        %k = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
        %kbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
        tilegpu.mbarrier_init %kbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
        tilegpu.mbarrier_expect_tx %kbar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
        tilegpu.async_tma_copy_global_to_local %mk[%row, %c0] %k, %kbar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
        tilegpu.mbarrier_wait %kbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
        tilegpu.mbarrier_inval %kbar : !tilegpu.memdesc<1xi64, #bar, mutable>
        %kt = tilegpu.memdesc_trans %k : !tilegpu.memdesc<64x64xf16, #nv, mutable> -> !tilegpu.memdesc<64x64xf16, #nvt, mutable>
        %s = tilegpu.warp_group_dot %qs, %kt, %zero : !tilegpu.memdesc<128x64xf16, #nv>, !tilegpu.memdesc<64x64xf16, #nvt, mutable> -> tensor<128x64xf32, #mma>
        %rm = tile.reduce(%s) axis = 1 : (tensor<128x64xf32, #mma>) -> tensor<128xf32, #row> {
        ^bb0(%x: f32, %y: f32):
          %mx = arith.maxnumf %x, %y : f32
          tile.reduce.return %mx : f32
        }
        %mn = arith.maxnumf %m, %rm : tensor<128xf32, #row>
        %md = arith.subf %m, %mn : tensor<128xf32, #row>
        %alpha = math.exp2 %md : tensor<128xf32, #row>
        %me = tile.expand_dims %mn axis = 1 : tensor<128xf32, #row> -> tensor<128x1xf32, #mma>
        %mb = tile.broadcast %me : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
        %sd = arith.subf %s, %mb : tensor<128x64xf32, #mma>
        %p = math.exp2 %sd : tensor<128x64xf32, #mma>
        %ph = arith.truncf %p : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
        %pa = tilegpu.convert_layout %ph : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #dop>
        %ae = tile.expand_dims %alpha axis = 1 : tensor<128xf32, #row> -> tensor<128x1xf32, #mma>
        %ab = tile.broadcast %ae : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
        %accs = arith.mulf %acc, %ab : tensor<128x64xf32, #mma>
        %v = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
        %vbar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
        tilegpu.mbarrier_init %vbar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
        tilegpu.mbarrier_expect_tx %vbar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
        tilegpu.async_tma_copy_global_to_local %mv[%row, %c0] %v, %vbar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
        tilegpu.mbarrier_wait %vbar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
        tilegpu.mbarrier_inval %vbar : !tilegpu.memdesc<1xi64, #bar, mutable>
        %o = tilegpu.warp_group_dot %pa, %v, %accs : tensor<128x64xf16, #dop>, !tilegpu.memdesc<64x64xf16, #nv, mutable> -> tensor<128x64xf32, #mma>
        scf.yield %o, %mn : tensor<128x64xf32, #mma>, tensor<128xf32, #row>
      } {tile.warp_specialize}
      tile.store %out, %res#0 : tensor<128x64x!tile.ptr<f32>, #mma>
      %next = arith.addi %carried, %n : i32
      scf.yield %next : i32
    }
    return
  }
}
