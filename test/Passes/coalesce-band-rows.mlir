// RUN: terrazzo-opt %s -split-input-file --terrazzo-coalesce=band-rows=always | FileCheck %s
// RUN: terrazzo-opt %s -split-input-file --terrazzo-coalesce=band-rows=warp-specialized | FileCheck %s --check-prefix=WS


// With two warp groups, a 128 x 128 f16 tile whose warps would take two
// rows in turns (16 rows per round, 8 rounds) gives each thread its 8
// rounds' rows as consecutive elements instead: warp w holds rows 16 w to
// 16 w + 15, as a wgmma's accumulator does, so that the shared memory it
// is stored to for one is touched by one warp group per row. Each thread
// still loads 16 contiguous bytes of a row per access. With one warp
// group (the second function) nothing changes.
// CHECK-DAG: #[[$BAND:.+]] = #tilegpu.blocked<{sizePerThread = [8, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @band_rows
// CHECK: tile.load %{{.*}} : tensor<128x128x!tile.ptr<f16>, #[[$BAND]]>
// With band-rows=warp-specialized (the compiler's pipeline) a function
// without a warp-specialized loop keeps the rows in turns.
// WS-DAG: #[[$WS_TURNS:.+]] = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
// WS-LABEL: func.func @band_rows
// WS: tile.load %{{.*}} : tensor<128x128x!tile.ptr<f16>, #[[$WS_TURNS]]>
#rows = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @band_rows(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}) -> tensor<128x128xf16, #rows> {
    %r = tile.make_range 0 to 128 : tensor<128xi32, #tilegpu.slice<{dim = 1, parent = #rows}>>
    %c = tile.make_range 0 to 128 : tensor<128xi32, #tilegpu.slice<{dim = 0, parent = #rows}>>
    %re = tile.expand_dims %r axis = 1 : tensor<128xi32, #tilegpu.slice<{dim = 1, parent = #rows}>> -> tensor<128x1xi32, #rows>
    %ce = tile.expand_dims %c axis = 0 : tensor<128xi32, #tilegpu.slice<{dim = 0, parent = #rows}>> -> tensor<1x128xi32, #rows>
    %c128 = arith.constant dense<128> : tensor<128x1xi32, #rows>
    %ro = arith.muli %re, %c128 : tensor<128x1xi32, #rows>
    %rb = tile.broadcast %ro : tensor<128x1xi32, #rows> -> tensor<128x128xi32, #rows>
    %cb = tile.broadcast %ce : tensor<1x128xi32, #rows> -> tensor<128x128xi32, #rows>
    %off = arith.addi %rb, %cb : tensor<128x128xi32, #rows>
    %xs = tile.splat %x : !tile.ptr<f16> -> tensor<128x128x!tile.ptr<f16>, #rows>
    %xp = tile.addptr %xs, %off : tensor<128x128x!tile.ptr<f16>, #rows>, tensor<128x128xi32, #rows>
    %v = tile.load %xp : tensor<128x128x!tile.ptr<f16>, #rows>
    return %v : tensor<128x128xf16, #rows>
  }
}

// -----

// CHECK-DAG: #[[$TURNS:.+]] = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @one_group
// CHECK: tile.load %{{.*}} : tensor<128x128x!tile.ptr<f16>, #[[$TURNS]]>
#rows = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @one_group(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}) -> tensor<128x128xf16, #rows> {
    %r = tile.make_range 0 to 128 : tensor<128xi32, #tilegpu.slice<{dim = 1, parent = #rows}>>
    %c = tile.make_range 0 to 128 : tensor<128xi32, #tilegpu.slice<{dim = 0, parent = #rows}>>
    %re = tile.expand_dims %r axis = 1 : tensor<128xi32, #tilegpu.slice<{dim = 1, parent = #rows}>> -> tensor<128x1xi32, #rows>
    %ce = tile.expand_dims %c axis = 0 : tensor<128xi32, #tilegpu.slice<{dim = 0, parent = #rows}>> -> tensor<1x128xi32, #rows>
    %c128 = arith.constant dense<128> : tensor<128x1xi32, #rows>
    %ro = arith.muli %re, %c128 : tensor<128x1xi32, #rows>
    %rb = tile.broadcast %ro : tensor<128x1xi32, #rows> -> tensor<128x128xi32, #rows>
    %cb = tile.broadcast %ce : tensor<1x128xi32, #rows> -> tensor<128x128xi32, #rows>
    %off = arith.addi %rb, %cb : tensor<128x128xi32, #rows>
    %xs = tile.splat %x : !tile.ptr<f16> -> tensor<128x128x!tile.ptr<f16>, #rows>
    %xp = tile.addptr %xs, %off : tensor<128x128x!tile.ptr<f16>, #rows>, tensor<128x128xi32, #rows>
    %v = tile.load %xp : tensor<128x128x!tile.ptr<f16>, #rows>
    return %v : tensor<128x128xf16, #rows>
  }
}

// -----

// A function with a loop marked tile.warp_specialize (tl.range(...,
// warp_specialize=True)) gets the bands under both settings, also for
// its loads outside the loop.
// CHECK-DAG: #[[$BAND:.+]] = #tilegpu.blocked<{sizePerThread = [8, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @warp_specialized
// CHECK: tile.load %{{.*}} : tensor<128x128x!tile.ptr<f16>, #[[$BAND]]>
// CHECK: scf.for
// CHECK: tile.load %{{.*}} : tensor<128x128x!tile.ptr<f16>, #[[$BAND]]>
// WS-DAG: #[[$WS_BAND:.+]] = #tilegpu.blocked<{sizePerThread = [8, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
// WS-LABEL: func.func @warp_specialized
// WS: tile.load %{{.*}} : tensor<128x128x!tile.ptr<f16>, #[[$WS_BAND]]>
// WS: scf.for
// WS: tile.load %{{.*}} : tensor<128x128x!tile.ptr<f16>, #[[$WS_BAND]]>
#rows = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @warp_specialized(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: index) -> tensor<128x128xf16, #rows> {
    %r = tile.make_range 0 to 128 : tensor<128xi32, #tilegpu.slice<{dim = 1, parent = #rows}>>
    %c = tile.make_range 0 to 128 : tensor<128xi32, #tilegpu.slice<{dim = 0, parent = #rows}>>
    %re = tile.expand_dims %r axis = 1 : tensor<128xi32, #tilegpu.slice<{dim = 1, parent = #rows}>> -> tensor<128x1xi32, #rows>
    %ce = tile.expand_dims %c axis = 0 : tensor<128xi32, #tilegpu.slice<{dim = 0, parent = #rows}>> -> tensor<1x128xi32, #rows>
    %c128 = arith.constant dense<128> : tensor<128x1xi32, #rows>
    %ro = arith.muli %re, %c128 : tensor<128x1xi32, #rows>
    %rb = tile.broadcast %ro : tensor<128x1xi32, #rows> -> tensor<128x128xi32, #rows>
    %cb = tile.broadcast %ce : tensor<1x128xi32, #rows> -> tensor<128x128xi32, #rows>
    %off = arith.addi %rb, %cb : tensor<128x128xi32, #rows>
    %xs = tile.splat %x : !tile.ptr<f16> -> tensor<128x128x!tile.ptr<f16>, #rows>
    %xp = tile.addptr %xs, %off : tensor<128x128x!tile.ptr<f16>, #rows>, tensor<128x128xi32, #rows>
    %first = tile.load %xp : tensor<128x128x!tile.ptr<f16>, #rows>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %first) -> (tensor<128x128xf16, #rows>) {
      %v = tile.load %xp : tensor<128x128x!tile.ptr<f16>, #rows>
      %s = arith.addf %acc, %v : tensor<128x128xf16, #rows>
      scf.yield %s : tensor<128x128xf16, #rows>
    } {tile.warp_specialize}
    return %sum : tensor<128x128xf16, #rows>
  }
}
