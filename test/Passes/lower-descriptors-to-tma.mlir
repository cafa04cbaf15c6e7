// RUN: terrazzo-opt %s -split-input-file --terrazzo-lower-tensor-descriptors="keep-tma=true keep-unvalidated=true" --terrazzo-convert-tile-to-tilegpu=target=cuda:90 --terrazzo-lower-descriptors-to-tma | FileCheck %s

// A 64 x 64 f16 load and store: the kernel gets its global scratch as a
// last argument (2 tensor maps, 256 bytes per program instance, recorded
// on the module); each descriptor becomes a tensor map in its slot, with a
// 128-byte swizzle and one 64 x 64 box. The load goes through an
// nvmma_shared buffer filled by TMA under an mbarrier, then local_load to
// the load's layout; the store through a buffer of the value, fenced for
// the async proxy, then a TMA store and its wait.
// CHECK: #[[NVMMA:.*]] = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK: module attributes {{{.*}}tilegpu.global_scratch_bytes = 256 : i32
// CHECK-LABEL: func.func @copy_2d
// CHECK-SAME: %[[SCRATCH:[^:]*]]: !tile.ptr<i8> {tile.divisibility = 128 : i32})
// CHECK: tile.program_id z
// CHECK: tile.num_programs x
// CHECK: %[[OFF:.*]] = arith.muli %{{.*}}, %c256_i64 : i64
// CHECK: %[[MINE:.*]] = tile.addptr %[[SCRATCH]], %[[OFF]]
// CHECK: %[[SLOT0:.*]] = tile.addptr %[[MINE]], %{{.*}} : !tile.ptr<i8>, i64
// CHECK: %[[X:.*]] = tilegpu.tensormap_create %[[SLOT0]], %{{.*}} box = [64, 64] swizzle = 128
// CHECK: %[[SLOT1:.*]] = tile.addptr %[[MINE]], %{{.*}} : !tile.ptr<i8>, i64
// CHECK: %[[Y:.*]] = tilegpu.tensormap_create %[[SLOT1]], %{{.*}} box = [64, 64] swizzle = 128
// CHECK: %[[BUF:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #[[NVMMA]], mutable>
// CHECK: %[[BAR:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64
// CHECK: tilegpu.mbarrier_init %[[BAR]], 1
// CHECK: tilegpu.mbarrier_expect_tx %[[BAR]], 8192
// CHECK: tilegpu.async_tma_copy_global_to_local %[[X]][%{{.*}}, %{{.*}}] %[[BUF]], %[[BAR]]
// CHECK: tilegpu.mbarrier_wait %[[BAR]], %{{.*}}
// CHECK: tilegpu.mbarrier_inval %[[BAR]]
// CHECK: %[[V:.*]] = tilegpu.local_load %[[BUF]] {{.*}} -> tensor<64x64xf16, #blocked>
// CHECK: %[[OUT:.*]] = tilegpu.local_alloc %[[V]] : (tensor<64x64xf16, {{.*}}>) -> !tilegpu.memdesc<64x64xf16, #[[NVMMA]]>
// CHECK: tilegpu.fence_async_shared
// CHECK: tilegpu.async_tma_copy_local_to_global %[[Y]][%{{.*}}, %{{.*}}] %[[OUT]]
// CHECK: tilegpu.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NOT: tile.desc_
// CHECK-NOT: tile.make_tensor_desc
func.func @copy_2d(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: i32, %n: i32 {tile.divisibility = 16 : i32}, %arg_i: i32) {
  %pid = tile.program_id x : i32
  %c64i = arith.constant 64 : i32
  %i = arith.muli %pid, %c64i : i32
  %c1 = arith.constant 1 : i64
  %s = arith.extsi %n : i32 to i64
  %xd = tile.make_tensor_desc %x, [%m, %n], [%s, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
  %yd = tile.make_tensor_desc %y, [%m, %n], [%s, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
  %v = tile.desc_load %xd[%i, %i] : !tile.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
  tile.desc_store %yd[%i, %i], %v : !tile.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16>
  return
}

// -----

// Blocks without a swizzle (a 1-D block; fewer than 8 rows) are row-major
// swizzled_shared buffers filled by one box; a 32 x 128 f16 block has two
// 64-element boxes (one 128-byte swizzle row each).
// CHECK: #[[ROW1:.*]] = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK: #[[ROW2:.*]] = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// CHECK: #[[SW:.*]] = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: func.func @shapes
// CHECK: tilegpu.tensormap_create {{.*}} box = [128] swizzle = 0 : !tile.ptr<i8>, !tile.ptr<f32>
// CHECK: tilegpu.tensormap_create {{.*}} box = [4, 64] swizzle = 0 : !tile.ptr<i8>, !tile.ptr<f32>
// CHECK: tilegpu.tensormap_create {{.*}} box = [32, 64] swizzle = 128 : !tile.ptr<i8>, !tile.ptr<f16>
// CHECK: tilegpu.local_alloc : () -> !tilegpu.memdesc<128xf32, #[[ROW1]], mutable>
// CHECK: tilegpu.mbarrier_expect_tx %{{.*}}, 512
// CHECK: tilegpu.local_alloc : () -> !tilegpu.memdesc<4x64xf32, #[[ROW2]], mutable>
// CHECK: tilegpu.mbarrier_expect_tx %{{.*}}, 1024
// CHECK: tilegpu.local_alloc : () -> !tilegpu.memdesc<32x128xf16, #[[SW]], mutable>
// CHECK: tilegpu.mbarrier_expect_tx %{{.*}}, 8192
func.func @shapes(%a: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}, %arg_i: i32, %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %pid = tile.program_id x : i32
  %c64i = arith.constant 64 : i32
  %i = arith.muli %pid, %c64i : i32
  %c1 = arith.constant 1 : i64
  %s = arith.extsi %n : i32 to i64
  %d1 = tile.make_tensor_desc %a, [%n], [%c1] : !tile.ptr<f32> -> !tile.tensordesc<tensor<128xf32>>
  %d2 = tile.make_tensor_desc %a, [%n, %n], [%s, %c1] : !tile.ptr<f32> -> !tile.tensordesc<tensor<4x64xf32>>
  %d3 = tile.make_tensor_desc %b, [%n, %n], [%s, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<32x128xf16>>
  %v1 = tile.desc_load %d1[%i] : !tile.tensordesc<tensor<128xf32>> -> tensor<128xf32>
  %v2 = tile.desc_load %d2[%i, %i] : !tile.tensordesc<tensor<4x64xf32>> -> tensor<4x64xf32>
  %v3 = tile.desc_load %d3[%i, %i] : !tile.tensordesc<tensor<32x128xf16>> -> tensor<32x128xf16>
  %p = tile.splat %out : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  tile.store %p, %v1 : tensor<128x!tile.ptr<f32>>
  %q = tile.splat %out : !tile.ptr<f32> -> tensor<4x64x!tile.ptr<f32>>
  tile.store %q, %v2 : tensor<4x64x!tile.ptr<f32>>
  %r = tile.splat %b : !tile.ptr<f16> -> tensor<32x128x!tile.ptr<f16>>
  tile.store %r, %v3 : tensor<32x128x!tile.ptr<f16>>
  return
}

// -----

// Must not: a descriptor TMA cannot serve (row stride not known to be a
// multiple of 16 bytes) is already pointer accesses; the kernel gets no
// scratch argument and the module no scratch size.
// CHECK-NOT: tilegpu.global_scratch_bytes
// CHECK-LABEL: func.func @fallback
// CHECK-SAME: %{{[^:]*}}: i32)
// CHECK-NOT: tilegpu.tensormap_create
// CHECK-NOT: tilegpu.async_tma
// CHECK: tile.load
func.func @fallback(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i32, %n: i32, %arg_i: i32) {
  %pid = tile.program_id x : i32
  %c64i = arith.constant 64 : i32
  %i = arith.muli %pid, %c64i : i32
  %c1 = arith.constant 1 : i64
  %s = arith.extsi %n : i32 to i64
  %xd = tile.make_tensor_desc %x, [%m, %n], [%s, %c1] : !tile.ptr<f32> -> !tile.tensordesc<tensor<16x16xf32>>
  %v = tile.desc_load %xd[%i, %i] : !tile.tensordesc<tensor<16x16xf32>> -> tensor<16x16xf32>
  %p = tile.splat %out : !tile.ptr<f32> -> tensor<16x16x!tile.ptr<f32>>
  tile.store %p, %v : tensor<16x16x!tile.ptr<f32>>
  return
}

// -----

// wgmma operands: a block only stored back into shared memory in the
// layout TMA writes it in is not read into registers: the dot reads the
// TMA buffer, or (B given N x K and transposed) a memdesc_trans view of
// it. Must not: a block stored in another layout (64-byte swizzle) is
// read into registers and stored again.
// CHECK-LABEL: func.func @wgmma_operands
// CHECK: %[[A:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #[[NV:[a-z0-9_]+]], mutable>
// CHECK: tilegpu.async_tma_copy_global_to_local %{{.*}} %[[A]]
// CHECK: %[[B:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #[[NV]], mutable>
// CHECK: tilegpu.async_tma_copy_global_to_local %{{.*}} %[[B]]
// CHECK: %[[BT:.*]] = tilegpu.memdesc_trans %[[B]] : !tilegpu.memdesc<64x64xf16, #[[NV]], mutable> -> !tilegpu.memdesc<64x64xf16, #[[NVT:[a-z0-9_]+]], mutable>
// CHECK: %[[C:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #[[NV]], mutable>
// CHECK: %[[CV:.*]] = tilegpu.local_load %[[C]]
// CHECK: %[[CS:.*]] = tilegpu.local_alloc %[[CV]]
// CHECK: tilegpu.warp_group_dot %[[A]], %[[BT]]
// CHECK: tilegpu.warp_group_dot %[[CS]], %[[BT]]
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #tilegpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nv64 = #tilegpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#nvt = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
func.func @wgmma_operands(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}, %out: tensor<64x64x!tile.ptr<f32>, #mma>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %s = arith.extsi %n : i32 to i64
  %ad = tile.make_tensor_desc %a, [%n, %n], [%s, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
  %bd = tile.make_tensor_desc %b, [%n, %n], [%s, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
  %x = tile.desc_load %ad[%c0, %c0] : !tile.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
  %y = tile.desc_load %bd[%c0, %c0] : !tile.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
  %yt = tile.trans %y [1, 0] : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
  %xs = tilegpu.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !tilegpu.memdesc<64x64xf16, #nv>
  %ys = tilegpu.local_alloc %yt : (tensor<64x64xf16, #blocked1>) -> !tilegpu.memdesc<64x64xf16, #nvt>
  %z = tile.desc_load %ad[%c0, %c0] : !tile.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
  %zs = tilegpu.local_alloc %z : (tensor<64x64xf16, #blocked>) -> !tilegpu.memdesc<64x64xf16, #nv64>
  %acc = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %d = tilegpu.warp_group_dot %xs, %ys, %acc : !tilegpu.memdesc<64x64xf16, #nv>, !tilegpu.memdesc<64x64xf16, #nvt> -> tensor<64x64xf32, #mma>
  %e = tilegpu.warp_group_dot %zs, %ys, %d : !tilegpu.memdesc<64x64xf16, #nv64>, !tilegpu.memdesc<64x64xf16, #nvt> -> tensor<64x64xf32, #mma>
  tile.store %out, %e : tensor<64x64x!tile.ptr<f32>, #mma>
  return
}
}

// -----

// A store in a loop over tiles (a persistent kernel's epilogue): its buffer
// is allocated once, before the outermost loop; each iteration first waits
// for the previous iteration's TMA store to have read it (and passes a
// barrier, the wait being the issuing thread's), then writes it with
// local_store and stores it by TMA, left in flight; one wait follows the
// loop. Must not: no wait right after the store in the loop.
// CHECK-LABEL: func.func @persistent_store
// CHECK: %[[BUF:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #{{.*}}, mutable>
// CHECK-NEXT: scf.for
// CHECK-NEXT: arith.muli
// CHECK-NEXT: tilegpu.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.local_store %{{.*}}, %[[BUF]]
// CHECK-NEXT: tilegpu.fence_async_shared
// CHECK-NEXT: tilegpu.async_tma_copy_local_to_global %{{.*}}[%{{.*}}, %{{.*}}] %[[BUF]]
// CHECK-NEXT: }
// CHECK-NEXT: tilegpu.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: return
func.func @persistent_store(%y: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: i32, %n: i32 {tile.divisibility = 16 : i32}, %tiles: i32, %v: tensor<64x64xf16>) {
  %pid = tile.program_id x : i32
  %programs = tile.num_programs x : i32
  %c64i = arith.constant 64 : i32
  %c1 = arith.constant 1 : i64
  %s = arith.extsi %n : i32 to i64
  %yd = tile.make_tensor_desc %y, [%m, %n], [%s, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
  scf.for %t = %pid to %tiles step %programs : i32 {
    %i = arith.muli %t, %c64i : i32
    tile.desc_store %yd[%i, %i], %v : !tile.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16>
  }
  return
}

// -----

// A store in a loop over tiles after an inner loop that reads an operand
// staged before it, of at least the store's bytes (attention's Q, per
// tile): the store is lowered as outside loops, its block allocated at the
// store and its wait right after, so that the block can take the
// operand's place once the inner loop is done. Must not: no buffer before
// the loop, no wait after it.
// CHECK-LABEL: func.func @persistent_store_after_staged_operand
// CHECK-NOT: tilegpu.local_alloc : ()
// CHECK: scf.for
// CHECK: tilegpu.async_tma_copy_global_to_local
// CHECK: scf.for
// CHECK: %[[OUT:.*]] = tilegpu.local_alloc %{{.*}} : (tensor<64x64xf16, {{.*}}>) -> !tilegpu.memdesc<64x64xf16, #{{.*}}>
// CHECK-NEXT: tilegpu.fence_async_shared
// CHECK-NEXT: tilegpu.async_tma_copy_local_to_global %{{.*}}[%{{.*}}, %{{.*}}] %[[OUT]]
// CHECK-NEXT: tilegpu.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @persistent_store_after_staged_operand(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: i32, %n: i32 {tile.divisibility = 16 : i32}, %tiles: i32, %k: i32) {
  %pid = tile.program_id x : i32
  %programs = tile.num_programs x : i32
  %c0i = arith.constant 0 : i32
  %c1i = arith.constant 1 : i32
  %c64i = arith.constant 64 : i32
  %c1 = arith.constant 1 : i64
  %s = arith.extsi %n : i32 to i64
  %xd = tile.make_tensor_desc %x, [%m, %n], [%s, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
  %yd = tile.make_tensor_desc %y, [%m, %n], [%s, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
  scf.for %t = %pid to %tiles step %programs : i32 {
    %i = arith.muli %t, %c64i : i32
    %q = tile.desc_load %xd[%i, %i] : !tile.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
    %acc = scf.for %j = %c0i to %k step %c1i iter_args(%a = %q) -> (tensor<64x64xf16>) : i32 {
      %b = arith.addf %a, %q : tensor<64x64xf16>
      scf.yield %b : tensor<64x64xf16>
    }
    tile.desc_store %yd[%i, %i], %acc : !tile.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16>
  }
  return
}

// -----

// Two stores of one descriptor in the loop (an epilogue stored in halves)
// share one buffer: each waits for the reads of the store before it, then
// rewrites it; one wait follows the loop.
// CHECK-LABEL: func.func @persistent_store_halves
// CHECK: %[[BUF:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #{{.*}}, mutable>
// CHECK-NOT: tilegpu.local_alloc
// CHECK: scf.for
// CHECK: tilegpu.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.local_store %{{.*}}, %[[BUF]]
// CHECK-NEXT: tilegpu.fence_async_shared
// CHECK-NEXT: tilegpu.async_tma_copy_local_to_global %{{.*}}[%{{.*}}, %{{.*}}] %[[BUF]]
// CHECK: tilegpu.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.local_store %{{.*}}, %[[BUF]]
// CHECK-NEXT: tilegpu.fence_async_shared
// CHECK-NEXT: tilegpu.async_tma_copy_local_to_global %{{.*}}[%{{.*}}, %{{.*}}] %[[BUF]]
// CHECK-NEXT: }
// CHECK-NEXT: tilegpu.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: return
func.func @persistent_store_halves(%y: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: i32, %n: i32 {tile.divisibility = 16 : i32}, %tiles: i32, %v: tensor<64x64xf16>, %w: tensor<64x64xf16>) {
  %pid = tile.program_id x : i32
  %programs = tile.num_programs x : i32
  %c64i = arith.constant 64 : i32
  %c1 = arith.constant 1 : i64
  %s = arith.extsi %n : i32 to i64
  %yd = tile.make_tensor_desc %y, [%m, %n], [%s, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
  scf.for %t = %pid to %tiles step %programs : i32 {
    %i = arith.muli %t, %c64i : i32
    tile.desc_store %yd[%i, %i], %v : !tile.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16>
    %j = arith.addi %i, %c64i : i32
    tile.desc_store %yd[%i, %j], %w : !tile.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16>
  }
  return
}

// -----

// A store under a branch in a loop (its condition a scalar, the same for
// every thread: a flattened persistent loop's `if k == last`) is deferred
// the same way. Must not: a store in an scf.while keeps its buffer of the
// value and waits at once.
// CHECK-LABEL: func.func @store_under_branch
// CHECK: %[[BUF:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #{{.*}}, mutable>
// CHECK-NEXT: scf.for
// CHECK: scf.if
// CHECK: tilegpu.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.local_store %{{.*}}, %[[BUF]]
// CHECK: tilegpu.async_tma_copy_local_to_global %{{.*}}[%{{.*}}, %{{.*}}] %[[BUF]]
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: tilegpu.async_tma_store_wait {pendings = 0 : i32}
// CHECK-LABEL: func.func @store_in_while
// CHECK: scf.while
// CHECK: tilegpu.local_alloc %{{.*}} : (tensor<64x64xf16
// CHECK-NEXT: tilegpu.fence_async_shared
// CHECK-NEXT: tilegpu.async_tma_copy_local_to_global
// CHECK-NEXT: tilegpu.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NOT: tilegpu.local_store
func.func @store_under_branch(%y: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: i32, %n: i32 {tile.divisibility = 16 : i32}, %tiles: i32, %v: tensor<64x64xf16>, %c: i1) {
  %pid = tile.program_id x : i32
  %c1i = arith.constant 1 : i32
  %c64i = arith.constant 64 : i32
  %c1 = arith.constant 1 : i64
  %s = arith.extsi %n : i32 to i64
  %yd = tile.make_tensor_desc %y, [%m, %n], [%s, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
  scf.for %t = %pid to %tiles step %c1i : i32 {
    scf.if %c {
      %i = arith.muli %t, %c64i : i32
      tile.desc_store %yd[%i, %i], %v : !tile.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16>
    }
  }
  return
}
func.func @store_in_while(%y: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: i32, %n: i32 {tile.divisibility = 16 : i32}, %tiles: i32, %v: tensor<64x64xf16>) {
  %pid = tile.program_id x : i32
  %c1i = arith.constant 1 : i32
  %c64i = arith.constant 64 : i32
  %c1 = arith.constant 1 : i64
  %s = arith.extsi %n : i32 to i64
  %yd = tile.make_tensor_desc %y, [%m, %n], [%s, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
  %r = scf.while (%t = %pid) : (i32) -> i32 {
    %go = arith.cmpi slt, %t, %tiles : i32
    scf.condition(%go) %t : i32
  } do {
  ^bb0(%t: i32):
    %i = arith.muli %t, %c64i : i32
    tile.desc_store %yd[%i, %i], %v : !tile.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16>
    %next = arith.addi %t, %c1i : i32
    scf.yield %next : i32
  }
  return
}

// -----

// Descriptors made in a loop (a grouped GEMM's per-problem A and C, the
// problem's address loaded each iteration) and under a branch there: each
// map is built in the loop, in its own slot of the program's scratch (128
// bytes apart), where the descriptor was. The map a store goes through is
// rebuilt only once the previous iteration's store through it is complete
// (async_tma_store_wait with `complete`, before its tensormap_create); the
// store itself keeps the in-loop form (buffer before the loop, left in
// flight). Must not: no such wait before a map only loaded through.
// CHECK-LABEL: func.func @per_tile_maps
// CHECK: %[[SCRATCH:.*]] = tile.addptr %{{.*}}, %{{.*}} : !tile.ptr<i8>, i64
// CHECK: %[[BUF:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #{{.*}}, mutable>
// CHECK: scf.for
// CHECK: %[[A:.*]] = tile.load
// CHECK: %[[ABASE:.*]] = tile.int_to_ptr %[[A]]
// CHECK-NOT: tilegpu.async_tma_store_wait
// CHECK: %[[ASLOT:.*]] = tile.addptr %[[SCRATCH]], %{{.*}} : !tile.ptr<i8>, i64
// CHECK-NEXT: %[[AMAP:.*]] = tilegpu.tensormap_create %[[ASLOT]], %[[ABASE]]
// CHECK: tilegpu.async_tma_copy_global_to_local %[[AMAP]]
// CHECK: scf.if
// CHECK: %[[CSLOT:.*]] = tile.addptr %[[SCRATCH]], %{{.*}} : !tile.ptr<i8>, i64
// CHECK-NEXT: tilegpu.async_tma_store_wait {complete, pendings = 0 : i32}
// CHECK-NEXT: %[[CMAP:.*]] = tilegpu.tensormap_create %[[CSLOT]]
// CHECK: tilegpu.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.local_store %{{.*}}, %[[BUF]]
// CHECK: tilegpu.async_tma_copy_local_to_global %[[CMAP]]
// CHECK: }
// CHECK: tilegpu.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: return
func.func @per_tile_maps(%addrs: !tile.ptr<i64> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: i32, %n: i32 {tile.divisibility = 16 : i32}, %tiles: i32, %c: i1) {
  %pid = tile.program_id x : i32
  %c1i = arith.constant 1 : i32
  %c64i = arith.constant 64 : i32
  %c1 = arith.constant 1 : i64
  %s = arith.extsi %n : i32 to i64
  scf.for %t = %pid to %tiles step %c1i : i32 {
    %ap = tile.addptr %addrs, %t : !tile.ptr<i64>, i32
    %a = tile.load %ap : !tile.ptr<i64>
    %abase = tile.int_to_ptr %a {tile.divisibility = array<i64: 16>} : i64 -> !tile.ptr<f16>
    %ad = tile.make_tensor_desc %abase, [%m, %n], [%s, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
    %i = arith.muli %t, %c64i : i32
    %v = tile.desc_load %ad[%i, %c64i] : !tile.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
    scf.if %c {
      %yd = tile.make_tensor_desc %y, [%m, %n], [%s, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
      tile.desc_store %yd[%c64i, %c64i], %v : !tile.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16>
    }
  }
  return
}

// -----

// A 16-bit tensor-core result converted to another layout for its store
// is written into the store's buffer from the accumulator layout (the
// lowering uses stmatrix there), and the conversion goes. Must not: a
// conversion of a 32-bit result stays (stmatrix moves 16-bit elements).
// CHECK-LABEL: func.func @accumulator_store
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tilegpu.local_alloc %{{.*}} : (tensor<64x64xf16, #tilegpu.nvidia_mma<{{.*}}>>) -> !tilegpu.memdesc<64x64xf16
// CHECK: tilegpu.async_tma_copy_local_to_global
// CHECK-LABEL: func.func @wide_accumulator_store
// CHECK: tilegpu.convert_layout %{{.*}} : tensor<64x64xf32, #tilegpu.nvidia_mma<{{.*}}>> -> tensor<64x64xf32, #blocked>
// CHECK: tilegpu.local_alloc %{{.*}} : (tensor<64x64xf32, #blocked>)
// A part of one split off by shape ops (a linear layout) too.
// CHECK-LABEL: func.func @accumulator_half_store
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tilegpu.local_alloc %{{.*}} : (tensor<64x32xf16, #linear>) -> !tilegpu.memdesc<64x32xf16
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#linear = #tilegpu.linear<{register = [[0, 1], [8, 0], [0, 8], [0, 16]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], block = []}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
func.func @accumulator_store(%y: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}, %v: tensor<64x64xf16, #mma>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %s = arith.extsi %n : i32 to i64
  %yd = tile.make_tensor_desc %y, [%n, %n], [%s, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
  %w = tilegpu.convert_layout %v : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #blocked>
  tile.desc_store %yd[%c0, %c0], %w : !tile.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16, #blocked>
  return
}
func.func @wide_accumulator_store(%y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}, %v: tensor<64x64xf32, #mma>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %s = arith.extsi %n : i32 to i64
  %yd = tile.make_tensor_desc %y, [%n, %n], [%s, %c1] : !tile.ptr<f32> -> !tile.tensordesc<tensor<64x64xf32>>
  %w = tilegpu.convert_layout %v : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
  tile.desc_store %yd[%c0, %c0], %w : !tile.tensordesc<tensor<64x64xf32>>, tensor<64x64xf32, #blocked>
  return
}
func.func @accumulator_half_store(%y: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}, %v: tensor<64x32xf16, #linear>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %s = arith.extsi %n : i32 to i64
  %yd = tile.make_tensor_desc %y, [%n, %n], [%s, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x32xf16>>
  %w = tilegpu.convert_layout %v : tensor<64x32xf16, #linear> -> tensor<64x32xf16, #blocked>
  tile.desc_store %yd[%c0, %c0], %w : !tile.tensordesc<tensor<64x32xf16>>, tensor<64x32xf16, #blocked>
  return
}
}

// -----

// With tilegpu.host-tensormaps (the launcher builds the maps of
// arguments), a descriptor whose base, extents and strides are kernel
// arguments or constants is a parameter of the kernel after its
// arguments, described on the module (the argument each operand is, or
// its constant); no global scratch, no tensormap_create. The stride
// extended from i32 argument 3 is that argument.
// CHECK: module attributes {"tilegpu.host-tensormaps", tilegpu.host_tensormap_params = [#tilegpu.host_tensormap<{parameter = 5, base = 0, elementType = f16, shapeArguments = [2, 3], shapeValues = [-1, -1], strideArguments = [3, -1], strideValues = [-1, 1], box = [64, 64], swizzleBytes = 128, stored = false}>, #tilegpu.host_tensormap<{parameter = 6, base = 1, elementType = f16, shapeArguments = [2, 3], shapeValues = [-1, -1], strideArguments = [3, -1], strideValues = [-1, 1], box = [64, 64], swizzleBytes = 128, stored = true}>]
// CHECK-NOT: global_scratch_bytes
// CHECK-LABEL: func.func @host_maps
// CHECK-SAME: %{{[^:]*}}: i32, %[[XMAP:[^:]*]]: !tile.ptr<i8>, %[[YMAP:[^:]*]]: !tile.ptr<i8>)
// CHECK-NOT: tensormap_create
// CHECK: tilegpu.async_tma_copy_global_to_local %[[XMAP]][
// CHECK: tilegpu.async_tma_copy_local_to_global %[[YMAP]][
module attributes {"tilegpu.host-tensormaps"} {
func.func @host_maps(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: i32, %n: i32 {tile.divisibility = 16 : i32}, %arg_i: i32) {
  %pid = tile.program_id x : i32
  %c64i = arith.constant 64 : i32
  %i = arith.muli %pid, %c64i : i32
  %c1 = arith.constant 1 : i64
  %s = arith.extsi %n : i32 to i64
  %xd = tile.make_tensor_desc %x, [%m, %n], [%s, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
  %yd = tile.make_tensor_desc %y, [%m, %n], [%s, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
  %v = tile.desc_load %xd[%i, %i] : !tile.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
  tile.desc_store %yd[%i, %i], %v : !tile.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16>
  return
}
}

// -----

// Must not: a descriptor whose base is computed in the kernel (a head's
// rows), or whose extent is, keeps its map in global scratch (one slot
// each, after the host maps' parameters); one of arguments and constants
// (an extent the constant 64) is a parameter even in a loop, built once by
// the launcher rather than per iteration; the output's map is the second
// parameter.
// CHECK: module attributes {tilegpu.global_scratch_bytes = 256 : i32, "tilegpu.host-tensormaps", tilegpu.host_tensormap_params = [#tilegpu.host_tensormap<{parameter = 3, base = 0, elementType = f16, shapeArguments = [1, -1], shapeValues = [-1, 64], strideArguments = [-1, -1], strideValues = [64, 1], box = [64, 64], swizzleBytes = 128, stored = false}>, #tilegpu.host_tensormap<{parameter = 4, base = 2,
// CHECK-LABEL: func.func @mixed_maps
// CHECK-SAME: %[[MAP:[^:]*]]: !tile.ptr<i8>, %[[OUTMAP:[^:]*]]: !tile.ptr<i8>, %[[SCRATCH:[^:]*]]: !tile.ptr<i8> {tile.divisibility = 128 : i32})
// CHECK: tilegpu.tensormap_create
// CHECK: tilegpu.tensormap_create
// CHECK-NOT: tilegpu.tensormap_create
// CHECK: scf.for
// CHECK-NOT: tilegpu.async_tma_store_wait
// CHECK: tilegpu.async_tma_copy_global_to_local %[[MAP]][
// CHECK: scf.yield
// CHECK: tilegpu.async_tma_copy_local_to_global %[[OUTMAP]][
module attributes {"tilegpu.host-tensormaps"} {
func.func @mixed_maps(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: i32 {tile.divisibility = 16 : i32}, %out: !tile.ptr<f16> {tile.divisibility = 16 : i32}) {
  %pid = tile.program_id x : i32
  %c64i = arith.constant 64 : i32
  %c0i = arith.constant 0 : i32
  %c1i = arith.constant 1 : i32
  %i = arith.muli %pid, %c64i : i32
  %c1 = arith.constant 1 : i64
  %c64 = arith.constant 64 : i64
  %off = arith.muli %pid, %m : i32
  %head = tile.addptr %x, %off : !tile.ptr<f16>, i32
  %hd = tile.make_tensor_desc %head, [%m, %c64i], [%c64, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
  %m2 = arith.muli %m, %c64i : i32
  %wd = tile.make_tensor_desc %x, [%m2, %c64i], [%c64, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
  %a = tile.desc_load %hd[%c0i, %c0i] : !tile.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
  %b = tile.desc_load %wd[%i, %c0i] : !tile.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
  %ab = arith.addf %a, %b : tensor<64x64xf16>
  %sum = scf.for %k = %c0i to %m step %c1i iter_args(%acc = %ab) -> (tensor<64x64xf16>) : i32 {
    %ld = tile.make_tensor_desc %x, [%m, %c64i], [%c64, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
    %row = arith.muli %k, %c64i : i32
    %c = tile.desc_load %ld[%row, %c0i] : !tile.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
    %next = arith.addf %acc, %c : tensor<64x64xf16>
    scf.yield %next : tensor<64x64xf16>
  }
  %od = tile.make_tensor_desc %out, [%m, %c64i], [%c64, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
  tile.desc_store %od[%i, %c0i], %sum : !tile.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16>
  return
}
}
