// RUN: terrazzo-opt %s -split-input-file --terrazzo-coalesce | FileCheck %s

// Each global access gets the blocked layout that AxisInfo allows: its
// most contiguous dimension fastest, and as many consecutive elements per
// thread as contiguity, alignment and 16 bytes allow without idling threads.
// The pointers (and stored values, and the mask) are converted into that
// layout; a loaded value is converted back for its users.

// Contiguous f32 from 16-byte aligned pointers: 4 elements (16 bytes) per
// thread, for the load and for the store.

// CHECK-DAG: #[[$DEFAULT:.+]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$VEC4:.+]] = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @f32_aligned
// CHECK: %[[OFF:.*]] = arith.addi {{.*}} : tensor<1024xi32, #[[$DEFAULT]]>
// CHECK: %[[XP:.*]] = tile.addptr {{.*}} : tensor<1024x!tile.ptr<f32>, #[[$DEFAULT]]>
// CHECK-NEXT: %[[XPC:.*]] = tilegpu.convert_layout %[[XP]] : tensor<1024x!tile.ptr<f32>, #[[$DEFAULT]]> -> tensor<1024x!tile.ptr<f32>, #[[$VEC4]]>
// CHECK-NEXT: %[[V:.*]] = tile.load %[[XPC]] : tensor<1024x!tile.ptr<f32>, #[[$VEC4]]>
// CHECK-NEXT: %[[VB:.*]] = tilegpu.convert_layout %[[V]] : tensor<1024xf32, #[[$VEC4]]> -> tensor<1024xf32, #[[$DEFAULT]]>
// CHECK: %[[OP:.*]] = tile.addptr {{.*}} : tensor<1024x!tile.ptr<f32>, #[[$DEFAULT]]>
// CHECK-NEXT: %[[OPC:.*]] = tilegpu.convert_layout %[[OP]] : tensor<1024x!tile.ptr<f32>, #[[$DEFAULT]]> -> tensor<1024x!tile.ptr<f32>, #[[$VEC4]]>
// CHECK-NEXT: %[[VC:.*]] = tilegpu.convert_layout %[[VB]] : tensor<1024xf32, #[[$DEFAULT]]> -> tensor<1024xf32, #[[$VEC4]]>
// CHECK-NEXT: tile.store %[[OPC]], %[[VC]] : tensor<1024x!tile.ptr<f32>, #[[$VEC4]]>
#blocked = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @f32_aligned(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %o: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
    %pid = tile.program_id x : i32
    %c1024 = arith.constant 1024 : i32
    %start = arith.muli %pid, %c1024 : i32
    %starts = tile.splat %start : i32 -> tensor<1024xi32, #blocked>
    %range = tile.make_range 0 to 1024 : tensor<1024xi32, #blocked>
    %off = arith.addi %starts, %range : tensor<1024xi32, #blocked>
    %xs = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #blocked>
    %xp = tile.addptr %xs, %off : tensor<1024x!tile.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %v = tile.load %xp : tensor<1024x!tile.ptr<f32>, #blocked>
    %os = tile.splat %o : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #blocked>
    %op = tile.addptr %os, %off : tensor<1024x!tile.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    tile.store %op, %v : tensor<1024x!tile.ptr<f32>, #blocked>
    return
  }
}

// -----

// A masked load with `other`: the layout follows from the pointers, and
// the mask and `other` are converted into it with them.

// CHECK-DAG: #[[$DEFAULT:.+]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$VEC4:.+]] = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @masked
// CHECK-DAG: %[[PC:.*]] = tilegpu.convert_layout %{{.*}} : tensor<1024x!tile.ptr<f32>, #[[$DEFAULT]]> -> tensor<1024x!tile.ptr<f32>, #[[$VEC4]]>
// CHECK-DAG: %[[MC:.*]] = tilegpu.convert_layout %{{.*}} : tensor<1024xi1, #[[$DEFAULT]]> -> tensor<1024xi1, #[[$VEC4]]>
// CHECK-DAG: %[[OC:.*]] = tilegpu.convert_layout %{{.*}} : tensor<1024xf32, #[[$DEFAULT]]> -> tensor<1024xf32, #[[$VEC4]]>
// CHECK: %[[V:.*]] = tile.load %[[PC]], %[[MC]], %[[OC]] : tensor<1024x!tile.ptr<f32>, #[[$VEC4]]>
// CHECK-NEXT: tilegpu.convert_layout %[[V]] : tensor<1024xf32, #[[$VEC4]]> -> tensor<1024xf32, #[[$DEFAULT]]>
#blocked = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @masked(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) -> tensor<1024xf32, #blocked> {
    %range = tile.make_range 0 to 1024 : tensor<1024xi32, #blocked>
    %ns = tile.splat %n : i32 -> tensor<1024xi32, #blocked>
    %mask = arith.cmpi slt, %range, %ns : tensor<1024xi32, #blocked>
    %other = arith.constant dense<0.0> : tensor<1024xf32, #blocked>
    %xs = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #blocked>
    %xp = tile.addptr %xs, %range : tensor<1024x!tile.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %v = tile.load %xp, %mask, %other : tensor<1024x!tile.ptr<f32>, #blocked>
    return %v : tensor<1024xf32, #blocked>
  }
}

// -----

// f16: 16 bytes are 8 elements per thread.

// CHECK-DAG: #[[$VEC8:.+]] = #tilegpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @f16_aligned
// CHECK: tile.load %{{.*}} : tensor<1024x!tile.ptr<f16>, #[[$VEC8]]>
#blocked = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @f16_aligned(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}) -> tensor<1024xf16, #blocked> {
    %range = tile.make_range 0 to 1024 : tensor<1024xi32, #blocked>
    %xs = tile.splat %x : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>, #blocked>
    %xp = tile.addptr %xs, %range : tensor<1024x!tile.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
    %v = tile.load %xp : tensor<1024x!tile.ptr<f16>, #blocked>
    return %v : tensor<1024xf16, #blocked>
  }
}

// -----

// Alignment bounds the vector: a pointer with no tile.divisibility is only
// known to be aligned to its element (1 per thread: the default layout
// already fits, so nothing changes); one divisible by 8 bytes allows 2 f32.

// CHECK-DAG: #[[$DEFAULT:.+]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$VEC2:.+]] = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @unaligned
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.load %{{.*}} : tensor<1024x!tile.ptr<f32>, #[[$DEFAULT]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.store %{{.*}} : tensor<1024x!tile.ptr<f32>, #[[$DEFAULT]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK-LABEL: func.func @aligned8
// CHECK: tile.load %{{.*}} : tensor<1024x!tile.ptr<f32>, #[[$VEC2]]>
#blocked = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @unaligned(%x: !tile.ptr<f32>, %o: !tile.ptr<f32>) {
    %range = tile.make_range 0 to 1024 : tensor<1024xi32, #blocked>
    %xs = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #blocked>
    %xp = tile.addptr %xs, %range : tensor<1024x!tile.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %v = tile.load %xp : tensor<1024x!tile.ptr<f32>, #blocked>
    %os = tile.splat %o : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #blocked>
    %op = tile.addptr %os, %range : tensor<1024x!tile.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    tile.store %op, %v : tensor<1024x!tile.ptr<f32>, #blocked>
    return
  }
  func.func @aligned8(%x: !tile.ptr<f32> {tile.divisibility = 8 : i32}) -> tensor<1024xf32, #blocked> {
    %range = tile.make_range 0 to 1024 : tensor<1024xi32, #blocked>
    %xs = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #blocked>
    %xp = tile.addptr %xs, %range : tensor<1024x!tile.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %v = tile.load %xp : tensor<1024x!tile.ptr<f32>, #blocked>
    return %v : tensor<1024xf32, #blocked>
  }
}

// -----

// Contiguity bounds the vector: every second element (offsets 2 * i) is
// contiguous in runs of 1, so the access stays one element per thread.

// CHECK-LABEL: func.func @strided
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.load
// CHECK-NOT: tilegpu.convert_layout
#blocked = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @strided(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) -> tensor<1024xf32, #blocked> {
    %range = tile.make_range 0 to 1024 : tensor<1024xi32, #blocked>
    %two = arith.constant dense<2> : tensor<1024xi32, #blocked>
    %off = arith.muli %range, %two : tensor<1024xi32, #blocked>
    %xs = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #blocked>
    %xp = tile.addptr %xs, %off : tensor<1024x!tile.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %v = tile.load %xp : tensor<1024x!tile.ptr<f32>, #blocked>
    return %v : tensor<1024xf32, #blocked>
  }
}

// -----

// Small tensors: 4 f32 per thread would leave threads idle. 256 elements
// over 128 threads get 2 each; 128 elements keep 1 each (no change). The
// thread count comes from the module: with 1 warp, 256 elements get 4.

// CHECK-DAG: #[[$DEFAULT:.+]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$VEC2:.+]] = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @small
// CHECK: tile.load %{{.*}} : tensor<256x!tile.ptr<f32>, #[[$VEC2]]>
// CHECK: tile.load %{{.*}} : tensor<128x!tile.ptr<f32>, #[[$DEFAULT]]>
#blocked = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @small(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) -> (tensor<256xf32, #blocked>, tensor<128xf32, #blocked>) {
    %r256 = tile.make_range 0 to 256 : tensor<256xi32, #blocked>
    %xs256 = tile.splat %x : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>, #blocked>
    %xp256 = tile.addptr %xs256, %r256 : tensor<256x!tile.ptr<f32>, #blocked>, tensor<256xi32, #blocked>
    %v256 = tile.load %xp256 : tensor<256x!tile.ptr<f32>, #blocked>
    %r128 = tile.make_range 0 to 128 : tensor<128xi32, #blocked>
    %xs128 = tile.splat %x : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>, #blocked>
    %xp128 = tile.addptr %xs128, %r128 : tensor<128x!tile.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %v128 = tile.load %xp128 : tensor<128x!tile.ptr<f32>, #blocked>
    return %v256, %v128 : tensor<256xf32, #blocked>, tensor<128xf32, #blocked>
  }
}

// -----

// CHECK-DAG: #[[$WARP1:.+]] = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
// CHECK-LABEL: func.func @one_warp
// CHECK: tile.load %{{.*}} : tensor<256x!tile.ptr<f32>, #[[$WARP1]]>
#blocked = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @one_warp(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) -> tensor<256xf32, #blocked> {
    %r = tile.make_range 0 to 256 : tensor<256xi32, #blocked>
    %xs = tile.splat %x : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>, #blocked>
    %xp = tile.addptr %xs, %r : tensor<256x!tile.ptr<f32>, #blocked>, tensor<256xi32, #blocked>
    %v = tile.load %xp : tensor<256x!tile.ptr<f32>, #blocked>
    return %v : tensor<256xf32, #blocked>
  }
}

// -----

// A row-major 64x64 tile (x + 64 * row + col): contiguous along dimension 1,
// so order [1, 0] with 4 f32 per thread along dimension 1; the lanes fill
// a row (16 threads x 4) and then two rows.

// CHECK-DAG: #[[$DEFAULT:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG: #[[$ROWS:.+]] = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @row_major
// CHECK: %[[P:.*]] = tilegpu.convert_layout %{{.*}} : tensor<64x64x!tile.ptr<f32>, #[[$DEFAULT]]> -> tensor<64x64x!tile.ptr<f32>, #[[$ROWS]]>
// CHECK-NEXT: tile.load %[[P]] : tensor<64x64x!tile.ptr<f32>, #[[$ROWS]]>
#blocked = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked2 = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #tilegpu.slice<{dim = 1, parent = #blocked2}>
#row = #tilegpu.slice<{dim = 0, parent = #blocked}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @row_major(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) -> tensor<64x64xf32, #blocked> {
    %r = tile.make_range 0 to 64 : tensor<64xi32, #blocked1>
    %rc = tilegpu.convert_layout %r : tensor<64xi32, #blocked1> -> tensor<64xi32, #col>
    %rows = tile.expand_dims %rc axis = 1 : tensor<64xi32, #col> -> tensor<64x1xi32, #blocked2>
    %c64 = arith.constant dense<64> : tensor<64x1xi32, #blocked2>
    %rowoff = arith.muli %rows, %c64 : tensor<64x1xi32, #blocked2>
    %rowoff2 = tilegpu.convert_layout %rowoff : tensor<64x1xi32, #blocked2> -> tensor<64x1xi32, #blocked>
    %rowb = tile.broadcast %rowoff2 : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %rr = tilegpu.convert_layout %r : tensor<64xi32, #blocked1> -> tensor<64xi32, #row>
    %cols = tile.expand_dims %rr axis = 0 : tensor<64xi32, #row> -> tensor<1x64xi32, #blocked>
    %colb = tile.broadcast %cols : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %off = arith.addi %rowb, %colb : tensor<64x64xi32, #blocked>
    %xs = tile.splat %x : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>, #blocked>
    %xp = tile.addptr %xs, %off : tensor<64x64x!tile.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    %v = tile.load %xp : tensor<64x64x!tile.ptr<f32>, #blocked>
    return %v : tensor<64x64xf32, #blocked>
  }
}

// -----

// The transpose (x + row + 64 * col): contiguous along dimension 0, so
// order [0, 1] with the 4 f32 of a thread along dimension 0.

// CHECK-DAG: #[[$DEFAULT:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG: #[[$COLS:.+]] = #tilegpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: func.func @column_major
// CHECK: %[[P:.*]] = tilegpu.convert_layout %{{.*}} : tensor<64x64x!tile.ptr<f32>, #[[$DEFAULT]]> -> tensor<64x64x!tile.ptr<f32>, #[[$COLS]]>
// CHECK-NEXT: tile.load %[[P]] : tensor<64x64x!tile.ptr<f32>, #[[$COLS]]>
#blocked = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked2 = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #tilegpu.slice<{dim = 1, parent = #blocked2}>
#row = #tilegpu.slice<{dim = 0, parent = #blocked}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @column_major(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) -> tensor<64x64xf32, #blocked> {
    %r = tile.make_range 0 to 64 : tensor<64xi32, #blocked1>
    %rc = tilegpu.convert_layout %r : tensor<64xi32, #blocked1> -> tensor<64xi32, #col>
    %rows = tile.expand_dims %rc axis = 1 : tensor<64xi32, #col> -> tensor<64x1xi32, #blocked2>
    %rows2 = tilegpu.convert_layout %rows : tensor<64x1xi32, #blocked2> -> tensor<64x1xi32, #blocked>
    %rowb = tile.broadcast %rows2 : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %rr = tilegpu.convert_layout %r : tensor<64xi32, #blocked1> -> tensor<64xi32, #row>
    %cols = tile.expand_dims %rr axis = 0 : tensor<64xi32, #row> -> tensor<1x64xi32, #blocked>
    %c64 = arith.constant dense<64> : tensor<1x64xi32, #blocked>
    %coloff = arith.muli %cols, %c64 : tensor<1x64xi32, #blocked>
    %colb = tile.broadcast %coloff : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %off = arith.addi %rowb, %colb : tensor<64x64xi32, #blocked>
    %xs = tile.splat %x : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>, #blocked>
    %xp = tile.addptr %xs, %off : tensor<64x64x!tile.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    %v = tile.load %xp : tensor<64x64x!tile.ptr<f32>, #blocked>
    return %v : tensor<64x64xf32, #blocked>
  }
}

// -----

// Scalar loads and stores have no layout to choose: untouched.

// CHECK-LABEL: func.func @scalar
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[V:.*]] = tile.load %[[X:.*]] : !tile.ptr<f32>
// CHECK-NEXT: tile.store %[[X]], %[[V]] : !tile.ptr<f32>
// CHECK-NOT: tilegpu.convert_layout
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @scalar(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) -> f32 {
    %v = tile.load %x : !tile.ptr<f32>
    tile.store %x, %v : !tile.ptr<f32>
    return %v : f32
  }
}

// -----

// Atomics: one element per thread, coalesced, except f16/bf16 adds, which
// take two adjacent elements (the lowering pairs them into f16x2 atomics).

// CHECK-DAG: #[[$ONE:.+]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$PAIR:.+]] = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @atomics
// CHECK: %[[P:.*]] = tilegpu.convert_layout %[[XP:.*]] : tensor<1024x!tile.ptr<f16>, #[[$ONE]]> -> tensor<1024x!tile.ptr<f16>, #[[$PAIR]]>
// CHECK: %[[V:.*]] = tilegpu.convert_layout %{{.*}} : tensor<1024xf16, #[[$ONE]]> -> tensor<1024xf16, #[[$PAIR]]>
// CHECK: tile.atomic_rmw fadd, relaxed, gpu, %[[P]], %[[V]] : tensor<1024x!tile.ptr<f16>, #[[$PAIR]]>
// CHECK: tile.atomic_rmw max, relaxed, gpu, %[[XP]], %{{.*}} : tensor<1024x!tile.ptr<f16>, #[[$ONE]]>
// CHECK: tile.atomic_cas relaxed, gpu, %[[XP]], %{{.*}}, %{{.*}} : tensor<1024x!tile.ptr<f16>, #[[$ONE]]>
#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @atomics(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %v: tensor<1024xf16, #b>) -> tensor<1024xf16, #b> {
    %r = tile.make_range 0 to 1024 : tensor<1024xi32, #b>
    %xs = tile.splat %x : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>, #b>
    %xp = tile.addptr %xs, %r : tensor<1024x!tile.ptr<f16>, #b>, tensor<1024xi32, #b>
    %old = tile.atomic_rmw fadd, relaxed, gpu, %xp, %v : tensor<1024x!tile.ptr<f16>, #b>
    %m = tile.atomic_rmw max, relaxed, gpu, %xp, %v : tensor<1024x!tile.ptr<f16>, #b>
    %c = tile.atomic_cas relaxed, gpu, %xp, %v, %v : tensor<1024x!tile.ptr<f16>, #b>
    return %old : tensor<1024xf16, #b>
  }
}
