// RUN: terrazzo-opt %s -split-input-file --terrazzo-pipeline=registers=true | FileCheck %s
// RUN: terrazzo-opt %s -split-input-file --terrazzo-pipeline="registers=true num-stages=1" | FileCheck %s --check-prefix=OFF
// RUN: terrazzo-opt %s -split-input-file --terrazzo-pipeline=registers=true --terrazzo-allocate-shared-memory --terrazzo-insert-barriers | FileCheck %s --check-prefix=BARRIERS

// terrazzo-pipeline's register-prefetch form (registers=true): loads that
// fill swizzled buffers only local_loads read (MFMA operands after
// terrazzo-amd-dot-operands-to-lds) go one iteration ahead through
// registers into the other of two buffers.

// Both operands, A through carried pointers, B through pointers computed
// from the induction variable, both masked by k < K: before the loop the
// stacks of two buffers and iteration 0's loads (masked by 0 < K as well)
// stored into buffer 0; in the loop first the loads for i + 32 (masks
// recomputed for it, and i + 32 < K), then the reads of this iteration's
// buffers and the dot, then the stores of the loaded values into the other
// buffers (reads_retired) and the next index; the stacks are freed after
// the loop. With num-stages=1 nothing changes.
// CHECK-LABEL: func.func @two_operands
// CHECK: %[[SA:.+]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<2x64x32xf16, #[[STACKA:.+]], mutable>
// CHECK: %[[IN0:.+]] = arith.cmpi slt, %c0_i32, %[[K:.+]] : i32
// CHECK: %[[M0:.+]] = tile.splat %[[IN0]]
// CHECK: %[[MA0:.+]] = arith.andi %[[M0]],
// CHECK: %[[A0:.+]] = tile.load %[[PA:.+]], %[[MA0]], %{{.+}} :
// CHECK: %[[WA0:.+]] = tilegpu.memdesc_index %[[SA]][%{{.+}}]
// CHECK: tilegpu.local_store %[[A0]], %[[WA0]] : {{.*}} -> !tilegpu.memdesc<64x32xf16, #[[BUFA:.+]], mutable>
// CHECK: %[[AHEAD0:.+]] = tile.addptr %[[PA]], %[[STEP:.+]] :
// CHECK: %[[SB:.+]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<2x32x64xf16
// CHECK: tile.load
// CHECK: tilegpu.local_store
// CHECK: scf.for %[[I:.+]] = %c0_i32 to %[[K]] step %c32_i32 iter_args({{.*}}, %[[AHEADA:.+]] = %[[AHEAD0]], %[[READ:.+]] = %{{.+}})
// CHECK-NEXT: %[[NEXTI:.+]] = arith.addi %[[I]], %c32_i32
// CHECK-NEXT: %[[INR:.+]] = arith.cmpi slt, %[[NEXTI]], %[[K]]
// CHECK: %[[NA:.+]] = tile.load %[[AHEADA]],
// CHECK: tile.splat %[[NEXTI]]
// CHECK: %[[NB:.+]] = tile.load
// CHECK-NEXT: %[[RA:.+]] = tilegpu.memdesc_index %[[SA]][%[[READ]]]
// CHECK-NEXT: %[[A:.+]] = tilegpu.local_load %[[RA]]
// CHECK-NEXT: %[[RB:.+]] = tilegpu.memdesc_index %[[SB]][%[[READ]]]
// CHECK-NEXT: %[[B:.+]] = tilegpu.local_load %[[RB]]
// CHECK-NEXT: tile.dot %[[A]], %[[B]]
// CHECK: %[[WRITE:.+]] = arith.xori %[[READ]], %c1_i32
// CHECK-NEXT: %[[WA:.+]] = tilegpu.memdesc_index %[[SA]][%[[WRITE]]]
// CHECK-NEXT: tilegpu.local_store %[[NA]], %[[WA]] {tilegpu.reads_retired}
// CHECK-NEXT: %[[NEXTA:.+]] = tile.addptr %[[AHEADA]], %[[STEP]]
// CHECK-NEXT: %[[WB:.+]] = tilegpu.memdesc_index %[[SB]][%[[WRITE]]]
// CHECK-NEXT: tilegpu.local_store %[[NB]], %[[WB]] {tilegpu.reads_retired}
// CHECK-NEXT: scf.yield {{.*}}, %[[NEXTA]], %[[WRITE]] :
// CHECK: tilegpu.local_dealloc %[[SA]]
// CHECK-NEXT: tilegpu.local_dealloc %[[SB]]
// OFF-LABEL: func.func @two_operands
// OFF-NOT: tilegpu.local_store
// OFF: scf.for
// OFF: tilegpu.local_alloc %{{.+}} : (tensor<64x32xf16
// One barrier per iteration, in front of the first read; the prologue's
// stores get one before them only if something before the loop read the
// memory (nothing here).
// BARRIERS-LABEL: func.func @two_operands
// BARRIERS-NOT: tilegpu.barrier
// BARRIERS: scf.for
// BARRIERS-NOT: tilegpu.barrier
// BARRIERS: tilegpu.memdesc_index
// BARRIERS-NEXT: tilegpu.barrier
// BARRIERS-NEXT: tilegpu.local_load
// BARRIERS-NOT: tilegpu.barrier
// BARRIERS: scf.yield
#blocked1 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mfma = #tilegpu.amd_mfma<{warpsPerCTA = [2, 2], instrShape = [32, 32]}>
#dotA = #tilegpu.dot_operand<{opIdx = 0, parent = #mfma, kWidth = 4}>
#dotB = #tilegpu.dot_operand<{opIdx = 1, parent = #mfma, kWidth = 4}>
#sA = #tilegpu.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 8, order = [1, 0]}>
#sB = #tilegpu.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 8, order = [0, 1]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "hip:gfx942", "tilegpu.threads-per-warp" = 64 : i32} {
  func.func @two_operands(%a: tensor<64x32x!tile.ptr<f16>, #blocked1>, %b: tensor<32x64x!tile.ptr<f16>, #blocked2>, %k: i32, %out: tensor<64x64x!tile.ptr<f32>, #mfma>) {
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mfma>
    %za = arith.constant dense<0.0> : tensor<64x32xf16, #blocked1>
    %zb = arith.constant dense<0.0> : tensor<32x64xf16, #blocked2>
    %sa = arith.constant dense<32> : tensor<64x32xi32, #blocked1>
    %ka = tile.make_range 0 to 32 : tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #blocked1}>>
    %ka2 = tile.expand_dims %ka axis = 0 : tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x32xi32, #blocked1>
    %kab = tile.broadcast %ka2 : tensor<1x32xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
    %kb = tile.make_range 0 to 32 : tensor<32xi32, #tilegpu.slice<{dim = 1, parent = #blocked2}>>
    %kb2 = tile.expand_dims %kb axis = 1 : tensor<32xi32, #tilegpu.slice<{dim = 1, parent = #blocked2}>> -> tensor<32x1xi32, #blocked2>
    %kbb = tile.broadcast %kb2 : tensor<32x1xi32, #blocked2> -> tensor<32x64xi32, #blocked2>
    %r:2 = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %acc0, %pa = %a) -> (tensor<64x64xf32, #mfma>, tensor<64x32x!tile.ptr<f16>, #blocked1>) : i32 {
      %left = arith.subi %k, %i : i32
      %lefta = tile.splat %left : i32 -> tensor<64x32xi32, #blocked1>
      %ma = arith.cmpi slt, %kab, %lefta : tensor<64x32xi32, #blocked1>
      %x = tile.load %pa, %ma, %za : tensor<64x32x!tile.ptr<f16>, #blocked1>
      %iv = tile.splat %i : i32 -> tensor<32x64xi32, #blocked2>
      %rows = arith.addi %kbb, %iv : tensor<32x64xi32, #blocked2>
      %pb = tile.addptr %b, %rows : tensor<32x64x!tile.ptr<f16>, #blocked2>, tensor<32x64xi32, #blocked2>
      %leftb = tile.splat %left : i32 -> tensor<32x64xi32, #blocked2>
      %mb = arith.cmpi slt, %kbb, %leftb : tensor<32x64xi32, #blocked2>
      %y = tile.load %pb, %mb, %zb : tensor<32x64x!tile.ptr<f16>, #blocked2>
      %bufa = tilegpu.local_alloc %x : (tensor<64x32xf16, #blocked1>) -> !tilegpu.memdesc<64x32xf16, #sA>
      %xa = tilegpu.local_load %bufa : !tilegpu.memdesc<64x32xf16, #sA> -> tensor<64x32xf16, #dotA>
      %bufb = tilegpu.local_alloc %y : (tensor<32x64xf16, #blocked2>) -> !tilegpu.memdesc<32x64xf16, #sB>
      %yb = tilegpu.local_load %bufb : !tilegpu.memdesc<32x64xf16, #sB> -> tensor<32x64xf16, #dotB>
      %d = tile.dot %xa, %yb, %acc : tensor<64x32xf16, #dotA> * tensor<32x64xf16, #dotB> -> tensor<64x64xf32, #mfma>
      %pa2 = tile.addptr %pa, %sa : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
      scf.yield %d, %pa2 : tensor<64x64xf32, #mfma>, tensor<64x32x!tile.ptr<f16>, #blocked1>
    }
    tile.store %out, %r#0 : tensor<64x64x!tile.ptr<f32>, #mfma>
    return
  }
}

// -----

// Must not: a load whose value is used besides its buffer, and a load
// through loop-invariant pointers (the same block every iteration), stay
// as they are.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: tilegpu.local_store
// CHECK-NOT: memdesc<2x
// CHECK: scf.for
// CHECK-COUNT-2: tilegpu.local_alloc %
// CHECK-NOT: tilegpu.local_store
// CHECK: scf.yield
#blocked1 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mfma = #tilegpu.amd_mfma<{warpsPerCTA = [2, 2], instrShape = [32, 32]}>
#dotA = #tilegpu.dot_operand<{opIdx = 0, parent = #mfma, kWidth = 4}>
#sA = #tilegpu.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 8, order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "hip:gfx942", "tilegpu.threads-per-warp" = 64 : i32} {
  func.func @left_alone(%a: tensor<64x32x!tile.ptr<f16>, #blocked1>, %c: tensor<64x32x!tile.ptr<f16>, #blocked1>, %k: i32, %out: tensor<64x32x!tile.ptr<f16>, #blocked1>) {
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %sa = arith.constant dense<32> : tensor<64x32xi32, #blocked1>
    %z = arith.constant dense<0.0> : tensor<64x32xf16, #blocked1>
    %r:2 = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %z, %pa = %a) -> (tensor<64x32xf16, #blocked1>, tensor<64x32x!tile.ptr<f16>, #blocked1>) : i32 {
      // Used besides its buffer.
      %x = tile.load %pa : tensor<64x32x!tile.ptr<f16>, #blocked1>
      %bufa = tilegpu.local_alloc %x : (tensor<64x32xf16, #blocked1>) -> !tilegpu.memdesc<64x32xf16, #sA>
      %xa = tilegpu.local_load %bufa : !tilegpu.memdesc<64x32xf16, #sA> -> tensor<64x32xf16, #dotA>
      // Through loop-invariant pointers: the same block every iteration.
      %y = tile.load %c : tensor<64x32x!tile.ptr<f16>, #blocked1>
      %bufc = tilegpu.local_alloc %y : (tensor<64x32xf16, #blocked1>) -> !tilegpu.memdesc<64x32xf16, #sA>
      %yc = tilegpu.local_load %bufc : !tilegpu.memdesc<64x32xf16, #sA> -> tensor<64x32xf16, #dotA>
      %s = arith.addf %acc, %x : tensor<64x32xf16, #blocked1>
      %pa2 = tile.addptr %pa, %sa : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
      scf.yield %s, %pa2 : tensor<64x32xf16, #blocked1>, tensor<64x32x!tile.ptr<f16>, #blocked1>
    }
    tile.store %out, %r#0 : tensor<64x32x!tile.ptr<f16>, #blocked1>
    return
  }
}

// -----

// Two buffers for each load would take 2 x (16 + 32) KiB, more than
// gfx942's 64 KiB of LDS: the largest load (B's, 32 KiB) stays as it is,
// A's (2 x 16 KiB, with B's one buffer 64 KiB in all) is prefetched.
// CHECK-LABEL: func.func @over_lds
// CHECK: tilegpu.local_alloc : () -> !tilegpu.memdesc<2x128x64xf16
// CHECK-NOT: tilegpu.local_alloc : () -> !tilegpu.memdesc<2x
// CHECK: scf.for
// CHECK: %[[Y:.+]] = tile.load %{{.+}} : tensor<64x256x!tile.ptr<f16>
// CHECK: tilegpu.local_alloc %[[Y]] : (tensor<64x256xf16
// CHECK: tilegpu.local_store {{.*}} {tilegpu.reads_retired} : tensor<128x64xf16
// CHECK-NOT: tilegpu.local_store
// CHECK: scf.yield
#blocked1 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mfma = #tilegpu.amd_mfma<{warpsPerCTA = [2, 2], instrShape = [32, 32]}>
#dotA = #tilegpu.dot_operand<{opIdx = 0, parent = #mfma, kWidth = 4}>
#dotB = #tilegpu.dot_operand<{opIdx = 1, parent = #mfma, kWidth = 4}>
#sA = #tilegpu.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [1, 0]}>
#sB = #tilegpu.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [0, 1]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "hip:gfx942", "tilegpu.threads-per-warp" = 64 : i32} {
  func.func @over_lds(%a: tensor<128x64x!tile.ptr<f16>, #blocked1>, %b: tensor<64x256x!tile.ptr<f16>, #blocked2>, %k: i32, %out: tensor<128x256x!tile.ptr<f32>, #mfma>) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %acc0 = arith.constant dense<0.0> : tensor<128x256xf32, #mfma>
    %sa = arith.constant dense<64> : tensor<128x64xi32, #blocked1>
    %sb = arith.constant dense<16384> : tensor<64x256xi32, #blocked2>
    %r:3 = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %acc0, %pa = %a, %pb = %b) -> (tensor<128x256xf32, #mfma>, tensor<128x64x!tile.ptr<f16>, #blocked1>, tensor<64x256x!tile.ptr<f16>, #blocked2>) : i32 {
      %x = tile.load %pa : tensor<128x64x!tile.ptr<f16>, #blocked1>
      %y = tile.load %pb : tensor<64x256x!tile.ptr<f16>, #blocked2>
      %bufa = tilegpu.local_alloc %x : (tensor<128x64xf16, #blocked1>) -> !tilegpu.memdesc<128x64xf16, #sA>
      %xa = tilegpu.local_load %bufa : !tilegpu.memdesc<128x64xf16, #sA> -> tensor<128x64xf16, #dotA>
      %bufb = tilegpu.local_alloc %y : (tensor<64x256xf16, #blocked2>) -> !tilegpu.memdesc<64x256xf16, #sB>
      %yb = tilegpu.local_load %bufb : !tilegpu.memdesc<64x256xf16, #sB> -> tensor<64x256xf16, #dotB>
      %d = tile.dot %xa, %yb, %acc : tensor<128x64xf16, #dotA> * tensor<64x256xf16, #dotB> -> tensor<128x256xf32, #mfma>
      %pa2 = tile.addptr %pa, %sa : tensor<128x64x!tile.ptr<f16>, #blocked1>, tensor<128x64xi32, #blocked1>
      %pb2 = tile.addptr %pb, %sb : tensor<64x256x!tile.ptr<f16>, #blocked2>, tensor<64x256xi32, #blocked2>
      scf.yield %d, %pa2, %pb2 : tensor<128x256xf32, #mfma>, tensor<128x64x!tile.ptr<f16>, #blocked1>, tensor<64x256x!tile.ptr<f16>, #blocked2>
    }
    tile.store %out, %r#0 : tensor<128x256x!tile.ptr<f32>, #mfma>
    return
  }
}

// -----

// The two buffers of a prefetched load are live across the whole loop, so
// they must fit with what the body has live at each point: here a 64 KiB
// layout conversion in the body (a persistent kernel's epilogue, run on
// the last K step of a flattened loop) leaves no room for A's 2 x 16 KiB
// on gfx942's 64 KiB, so no load is prefetched and the loop stays as it is
// (B's and A's single buffers are dead by the time the conversion runs).
// CHECK-LABEL: func.func @epilogue_in_loop
// CHECK-NOT: tilegpu.local_alloc : () -> !tilegpu.memdesc<2x
// CHECK: scf.for
// CHECK: tile.load %{{.+}} : tensor<128x64x!tile.ptr<f16>
// CHECK: tile.load %{{.+}} : tensor<64x256x!tile.ptr<f16>
// CHECK-NOT: tilegpu.local_store
// CHECK: scf.yield
#blocked1 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mfma = #tilegpu.amd_mfma<{warpsPerCTA = [2, 2], instrShape = [32, 32]}>
#dotA = #tilegpu.dot_operand<{opIdx = 0, parent = #mfma, kWidth = 4}>
#dotB = #tilegpu.dot_operand<{opIdx = 1, parent = #mfma, kWidth = 4}>
#sA = #tilegpu.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [1, 0]}>
#sB = #tilegpu.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [0, 1]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "hip:gfx942", "tilegpu.threads-per-warp" = 64 : i32} {
  func.func @epilogue_in_loop(%a: tensor<128x64x!tile.ptr<f16>, #blocked1>, %b: tensor<64x256x!tile.ptr<f16>, #blocked2>, %k: i32, %last: i32, %out: tensor<128x256x!tile.ptr<f16>, #blocked2>) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %acc0 = arith.constant dense<0.0> : tensor<128x256xf32, #mfma>
    %sa = arith.constant dense<64> : tensor<128x64xi32, #blocked1>
    %sb = arith.constant dense<16384> : tensor<64x256xi32, #blocked2>
    %r:3 = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %acc0, %pa = %a, %pb = %b) -> (tensor<128x256xf32, #mfma>, tensor<128x64x!tile.ptr<f16>, #blocked1>, tensor<64x256x!tile.ptr<f16>, #blocked2>) : i32 {
      %x = tile.load %pa : tensor<128x64x!tile.ptr<f16>, #blocked1>
      %y = tile.load %pb : tensor<64x256x!tile.ptr<f16>, #blocked2>
      %bufa = tilegpu.local_alloc %x : (tensor<128x64xf16, #blocked1>) -> !tilegpu.memdesc<128x64xf16, #sA>
      %xa = tilegpu.local_load %bufa : !tilegpu.memdesc<128x64xf16, #sA> -> tensor<128x64xf16, #dotA>
      %bufb = tilegpu.local_alloc %y : (tensor<64x256xf16, #blocked2>) -> !tilegpu.memdesc<64x256xf16, #sB>
      %yb = tilegpu.local_load %bufb : !tilegpu.memdesc<64x256xf16, #sB> -> tensor<64x256xf16, #dotB>
      %d = tile.dot %xa, %yb, %acc : tensor<128x64xf16, #dotA> * tensor<64x256xf16, #dotB> -> tensor<128x256xf32, #mfma>
      %done = arith.cmpi eq, %i, %last : i32
      scf.if %done {
        %h = arith.truncf %d : tensor<128x256xf32, #mfma> to tensor<128x256xf16, #mfma>
        %c = tilegpu.convert_layout %h : tensor<128x256xf16, #mfma> -> tensor<128x256xf16, #blocked2>
        tile.store %out, %c : tensor<128x256x!tile.ptr<f16>, #blocked2>
      }
      %pa2 = tile.addptr %pa, %sa : tensor<128x64x!tile.ptr<f16>, #blocked1>, tensor<128x64xi32, #blocked1>
      %pb2 = tile.addptr %pb, %sb : tensor<64x256x!tile.ptr<f16>, #blocked2>, tensor<64x256xi32, #blocked2>
      scf.yield %d, %pa2, %pb2 : tensor<128x256xf32, #mfma>, tensor<128x64x!tile.ptr<f16>, #blocked1>, tensor<64x256x!tile.ptr<f16>, #blocked2>
    }
    return
  }
}

// -----

// A smaller conversion in the body (16 KiB) fits beside A's two buffers
// (2 x 16 KiB) and B's one (32 KiB, dead by then): A is prefetched, as
// without it.
// CHECK-LABEL: func.func @small_epilogue_in_loop
// CHECK: tilegpu.local_alloc : () -> !tilegpu.memdesc<2x128x64xf16
// CHECK-NOT: tilegpu.local_alloc : () -> !tilegpu.memdesc<2x
// CHECK: scf.for
// CHECK: tilegpu.convert_layout
// CHECK: scf.yield
#blocked1 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mfma = #tilegpu.amd_mfma<{warpsPerCTA = [2, 2], instrShape = [32, 32]}>
#dotA = #tilegpu.dot_operand<{opIdx = 0, parent = #mfma, kWidth = 4}>
#dotB = #tilegpu.dot_operand<{opIdx = 1, parent = #mfma, kWidth = 4}>
#sA = #tilegpu.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [1, 0]}>
#sB = #tilegpu.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [0, 1]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "hip:gfx942", "tilegpu.threads-per-warp" = 64 : i32} {
  func.func @small_epilogue_in_loop(%a: tensor<128x64x!tile.ptr<f16>, #blocked1>, %b: tensor<64x256x!tile.ptr<f16>, #blocked2>, %k: i32, %last: i32, %e: tensor<128x64xf16, #blocked1>, %out: tensor<128x64x!tile.ptr<f16>, #blocked2>) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %acc0 = arith.constant dense<0.0> : tensor<128x256xf32, #mfma>
    %sa = arith.constant dense<64> : tensor<128x64xi32, #blocked1>
    %sb = arith.constant dense<16384> : tensor<64x256xi32, #blocked2>
    %r:3 = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %acc0, %pa = %a, %pb = %b) -> (tensor<128x256xf32, #mfma>, tensor<128x64x!tile.ptr<f16>, #blocked1>, tensor<64x256x!tile.ptr<f16>, #blocked2>) : i32 {
      %x = tile.load %pa : tensor<128x64x!tile.ptr<f16>, #blocked1>
      %y = tile.load %pb : tensor<64x256x!tile.ptr<f16>, #blocked2>
      %bufa = tilegpu.local_alloc %x : (tensor<128x64xf16, #blocked1>) -> !tilegpu.memdesc<128x64xf16, #sA>
      %xa = tilegpu.local_load %bufa : !tilegpu.memdesc<128x64xf16, #sA> -> tensor<128x64xf16, #dotA>
      %bufb = tilegpu.local_alloc %y : (tensor<64x256xf16, #blocked2>) -> !tilegpu.memdesc<64x256xf16, #sB>
      %yb = tilegpu.local_load %bufb : !tilegpu.memdesc<64x256xf16, #sB> -> tensor<64x256xf16, #dotB>
      %d = tile.dot %xa, %yb, %acc : tensor<128x64xf16, #dotA> * tensor<64x256xf16, #dotB> -> tensor<128x256xf32, #mfma>
      %done = arith.cmpi eq, %i, %last : i32
      scf.if %done {
        %c = tilegpu.convert_layout %e : tensor<128x64xf16, #blocked1> -> tensor<128x64xf16, #blocked2>
        tile.store %out, %c : tensor<128x64x!tile.ptr<f16>, #blocked2>
      }
      %pa2 = tile.addptr %pa, %sa : tensor<128x64x!tile.ptr<f16>, #blocked1>, tensor<128x64xi32, #blocked1>
      %pb2 = tile.addptr %pb, %sb : tensor<64x256x!tile.ptr<f16>, #blocked2>, tensor<64x256xi32, #blocked2>
      scf.yield %d, %pa2, %pb2 : tensor<128x256xf32, #mfma>, tensor<128x64x!tile.ptr<f16>, #blocked1>, tensor<64x256x!tile.ptr<f16>, #blocked2>
    }
    return
  }
}
