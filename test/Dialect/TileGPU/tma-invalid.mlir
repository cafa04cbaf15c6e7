// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics

func.func @rank(%slot: !tile.ptr<i8>, %base: !tile.ptr<f16>, %m: i32, %s: i64) {
  // expected-error @+1 {{needs one shape and one stride per box dimension (2), got 1 and 1}}
  %map = tilegpu.tensormap_create %slot, %base, [%m], [%s] box = [64, 64] swizzle = 0 : !tile.ptr<i8>, !tile.ptr<f16> -> !tile.ptr<i8>
  return
}

// -----

func.func @box_too_large(%slot: !tile.ptr<i8>, %base: !tile.ptr<f16>, %m: i32, %s: i64) {
  // expected-error @+1 {{box dimensions must be 1 to 256, got 512}}
  %map = tilegpu.tensormap_create %slot, %base, [%m], [%s] box = [512] swizzle = 0 : !tile.ptr<i8>, !tile.ptr<f16> -> !tile.ptr<i8>
  return
}

// -----

func.func @box_rank(%slot: !tile.ptr<i8>, %base: !tile.ptr<f16>, %m: i32, %s: i64) {
  // expected-error @+1 {{needs a box of rank 1 to 5, got rank 6}}
  %map = tilegpu.tensormap_create %slot, %base, [%m], [%s] box = [1, 1, 1, 1, 1, 8] swizzle = 0 : !tile.ptr<i8>, !tile.ptr<f16> -> !tile.ptr<i8>
  return
}

// -----

func.func @inner_bytes(%slot: !tile.ptr<i8>, %base: !tile.ptr<f16>, %m: i32, %s: i64) {
  // expected-error @+1 {{the innermost box dimension holds 12 bytes; TMA needs a multiple of 16}}
  %map = tilegpu.tensormap_create %slot, %base, [%m], [%s] box = [6] swizzle = 0 : !tile.ptr<i8>, !tile.ptr<f16> -> !tile.ptr<i8>
  return
}

// -----

func.func @element(%slot: !tile.ptr<i8>, %base: !tile.ptr<i1>, %m: i32, %s: i64) {
  // expected-error @+1 {{TMA copies elements of 1, 2, 4 or 8 bytes, not 'i1'}}
  %map = tilegpu.tensormap_create %slot, %base, [%m], [%s] box = [64] swizzle = 0 : !tile.ptr<i8>, !tile.ptr<i1> -> !tile.ptr<i8>
  return
}

// -----

func.func @swizzle_value(%slot: !tile.ptr<i8>, %base: !tile.ptr<f16>, %m: i32, %s: i64) {
  // expected-error @+1 {{swizzle must be 0, 32, 64 or 128 bytes, got 16}}
  %map = tilegpu.tensormap_create %slot, %base, [%m], [%s] box = [64] swizzle = 16 : !tile.ptr<i8>, !tile.ptr<f16> -> !tile.ptr<i8>
  return
}

// -----

func.func @swizzle_narrow(%slot: !tile.ptr<i8>, %base: !tile.ptr<f16>, %m: i32, %n: i32, %s: i64) {
  // expected-error @+1 {{the innermost box dimension (128 bytes) is wider than the 64-byte swizzle}}
  %map = tilegpu.tensormap_create %slot, %base, [%m, %n], [%s, %s] box = [8, 64] swizzle = 64 : !tile.ptr<i8>, !tile.ptr<f16> -> !tile.ptr<i8>
  return
}

// -----

#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @mbarrier_type() {
  %bar = tilegpu.local_alloc : () -> !tilegpu.memdesc<2xi64, #bar, mutable>
  // expected-error @+1 {{needs an mbarrier: a mutable shared buffer of one i64, got '!tilegpu.memdesc<2xi64}}
  tilegpu.mbarrier_init %bar, 1 : !tilegpu.memdesc<2xi64, #bar, mutable>
  return
}

// -----

#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @mbarrier_count() {
  %bar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
  // expected-error @+1 {{attribute 'count' failed to satisfy constraint}}
  tilegpu.mbarrier_init %bar, 0 : !tilegpu.memdesc<1xi64, #bar, mutable>
  return
}

// -----

#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @expect_tx_element() {
  %bar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi32, #bar, mutable>
  // expected-error @+1 {{needs an mbarrier}}
  tilegpu.mbarrier_expect_tx %bar, 64 : !tilegpu.memdesc<1xi32, #bar, mutable>
  return
}

// -----

#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @wait_immutable(%t: tensor<1xi64, #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>, %p: i32) {
  %bar = tilegpu.local_alloc %t : (tensor<1xi64, #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>) -> !tilegpu.memdesc<1xi64, #bar>
  // expected-error @+1 {{needs an mbarrier}}
  tilegpu.mbarrier_wait %bar, %p : !tilegpu.memdesc<1xi64, #bar>
  return
}

// -----

#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @arrive_two_words() {
  %bar = tilegpu.local_alloc : () -> !tilegpu.memdesc<2xi64, #bar, mutable>
  // expected-error @+1 {{needs an mbarrier}}
  tilegpu.mbarrier_arrive %bar : !tilegpu.memdesc<2xi64, #bar, mutable>
  return
}

// -----

#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @inval_type() {
  %bar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xf64, #bar, mutable>
  // expected-error @+1 {{needs an mbarrier}}
  tilegpu.mbarrier_inval %bar : !tilegpu.memdesc<1xf64, #bar, mutable>
  return
}

// -----

#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#rows = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @copy_coords(%map: !tile.ptr<i8>, %i: i32) {
  %buf = tilegpu.local_alloc : () -> !tilegpu.memdesc<8x16xf32, #rows, mutable>
  %bar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
  // expected-error @+1 {{needs one coordinate per buffer dimension (2), got 1}}
  tilegpu.async_tma_copy_global_to_local %map[%i] %buf, %bar : !tile.ptr<i8>, !tilegpu.memdesc<8x16xf32, #rows, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
  return
}

// -----

#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#cols = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
func.func @copy_column_major(%map: !tile.ptr<i8>, %i: i32) {
  %buf = tilegpu.local_alloc : () -> !tilegpu.memdesc<8x16xf32, #cols, mutable>
  %bar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
  // expected-error @+1 {{cannot fill '!tilegpu.memdesc<8x16xf32, #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>, mutable>' by TMA: a TMA buffer must be nvmma_shared or a row-major swizzled_shared without swizzle}}
  tilegpu.async_tma_copy_global_to_local %map[%i, %i] %buf, %bar : !tile.ptr<i8>, !tilegpu.memdesc<8x16xf32, #cols, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
  return
}

// -----

#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
func.func @copy_few_rows(%map: !tile.ptr<i8>, %i: i32) {
  %buf = tilegpu.local_alloc : () -> !tilegpu.memdesc<4x64xf16, #nvmma, mutable>
  %bar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
  // expected-error @+1 {{a swizzled TMA buffer needs a power-of-two number of rows, at least 8, and whole swizzle rows}}
  tilegpu.async_tma_copy_global_to_local %map[%i, %i] %buf, %bar : !tile.ptr<i8>, !tilegpu.memdesc<4x64xf16, #nvmma, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
  return
}

// -----

#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #tilegpu.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16}>
func.func @copy_interleaved(%map: !tile.ptr<i8>, %i: i32) {
  %buf = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nvmma, mutable>
  %bar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
  // expected-error @+1 {{an nvmma_shared TMA buffer must be 2-D, not transposed and swizzled}}
  tilegpu.async_tma_copy_global_to_local %map[%i, %i] %buf, %bar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nvmma, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
  return
}

// -----

#rows = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @copy_immutable(%map: !tile.ptr<i8>, %i: i32, %t: tensor<64xf32, #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>>) {
  %buf = tilegpu.local_alloc %t : (tensor<64xf32, #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>>) -> !tilegpu.memdesc<64xf32, #rows>
  %bar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
  // expected-error @+1 {{writes an immutable buffer}}
  tilegpu.async_tma_copy_global_to_local %map[%i] %buf, %bar : !tile.ptr<i8>, !tilegpu.memdesc<64xf32, #rows>, !tilegpu.memdesc<1xi64, #bar, mutable>
  return
}

// -----

#rows = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @store_too_long(%map: !tile.ptr<i8>, %i: i32) {
  %buf = tilegpu.local_alloc : () -> !tilegpu.memdesc<512xf32, #rows, mutable>
  // expected-error @+1 {{an unswizzled TMA buffer is one box, at most 256 elements in each dimension}}
  tilegpu.async_tma_copy_local_to_global %map[%i] %buf : !tile.ptr<i8>, !tilegpu.memdesc<512xf32, #rows, mutable>
  return
}

// -----

#rows = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @store_narrow(%map: !tile.ptr<i8>, %i: i32) {
  %buf = tilegpu.local_alloc : () -> !tilegpu.memdesc<2xf32, #rows, mutable>
  // expected-error @+1 {{TMA boxes hold a multiple of 16 bytes in their innermost dimension}}
  tilegpu.async_tma_copy_local_to_global %map[%i] %buf : !tile.ptr<i8>, !tilegpu.memdesc<2xf32, #rows, mutable>
  return
}

// -----

module attributes {"tilegpu.num-warps" = 4 : i32} {
  func.func @turn_one_group() {
    // expected-error @+1 {{needs at least two warp groups (tilegpu.num-warps a multiple of 4, at least 8), got 4 warps}}
    tilegpu.warp_group_turn_wait
    return
  }
}

// -----

module attributes {"tilegpu.num-warps" = 8 : i32} {
  func.func @turn_no_such_group() {
    // expected-error @+1 {{names warp group 2 of a program of 2}}
    tilegpu.warp_group_turn_pass {only = 2 : i32}
    return
  }
}

// -----

func.func @tensormap_group_position(%slot: !tile.ptr<i8>, %base: !tile.ptr<f16>, %m: i32, %s: i64) {
  // expected-error @+1 {{'tilegpu.tensormap_group' must be array<i64: k, n> (0 <= k < n, n > 1) on a tilegpu.tensormap_create}}
  %map = tilegpu.tensormap_create %slot, %base, [%m], [%s] box = [64] swizzle = 0 {tilegpu.tensormap_group = array<i64: 2, 2>} : !tile.ptr<i8>, !tile.ptr<f16> -> !tile.ptr<i8>
  return
}

// -----

func.func @tensormap_group_elsewhere(%x: i32) {
  // expected-error @+1 {{'tilegpu.tensormap_group' must be array<i64: k, n> (0 <= k < n, n > 1) on a tilegpu.tensormap_create}}
  %y = arith.addi %x, %x {tilegpu.tensormap_group = array<i64: 0, 2>} : i32
  return
}

// -----

// expected-error @+1 {{'tilegpu.host-tensormaps' must be a unit attribute}}
module attributes {"tilegpu.host-tensormaps" = 1 : i32} {}

// -----

// expected-error @+1 {{'tilegpu.host_tensormap_params' must be an array of #tilegpu.host_tensormap, got [1 : i32]}}
module attributes {tilegpu.host_tensormap_params = [1 : i32]} {}

// -----

// expected-error @+1 {{box extents must be from 1 to 256, got 512}}
module attributes {tilegpu.host_tensormap_params = [#tilegpu.host_tensormap<{parameter = 2, base = 0, elementType = f16, shapeArguments = [1], shapeValues = [-1], strideArguments = [-1], strideValues = [1], box = [512], swizzleBytes = 0, stored = false}>]} {}

// -----

// expected-error @+1 {{needs an extent and a stride per dimension of the box (2)}}
module attributes {tilegpu.host_tensormap_params = [#tilegpu.host_tensormap<{parameter = 2, base = 0, elementType = f16, shapeArguments = [1], shapeValues = [-1], strideArguments = [-1], strideValues = [1], box = [64, 64], swizzleBytes = 0, stored = false}>]} {}

// -----

// expected-error @+1 {{box must have 1 to 5 dimensions, got 6}}
module attributes {tilegpu.host_tensormap_params = [#tilegpu.host_tensormap<{parameter = 2, base = 0, elementType = f16, shapeArguments = [1, 1, 1, 1, 1, 1], shapeValues = [-1, -1, -1, -1, -1, -1], strideArguments = [1, 1, 1, 1, 1, -1], strideValues = [-1, -1, -1, -1, -1, 1], box = [1, 1, 1, 1, 1, 8], swizzleBytes = 0, stored = false}>]} {}

// -----

// expected-error @+1 {{elementType must be an integer or float of 8, 16, 32 or 64 bits, got 'i1'}}
module attributes {tilegpu.host_tensormap_params = [#tilegpu.host_tensormap<{parameter = 2, base = 0, elementType = i1, shapeArguments = [1], shapeValues = [-1], strideArguments = [-1], strideValues = [1], box = [64], swizzleBytes = 0, stored = false}>]} {}

// -----

// expected-error @+1 {{extents and strides are an argument (>= 0) or a positive constant (argument -1), got -1 and 0}}
module attributes {tilegpu.host_tensormap_params = [#tilegpu.host_tensormap<{parameter = 2, base = 0, elementType = f16, shapeArguments = [-1], shapeValues = [0], strideArguments = [-1], strideValues = [1], box = [64], swizzleBytes = 0, stored = false}>]} {}

// -----

// expected-error @+1 {{the innermost stride must be the constant 1}}
module attributes {tilegpu.host_tensormap_params = [#tilegpu.host_tensormap<{parameter = 2, base = 0, elementType = f16, shapeArguments = [1], shapeValues = [-1], strideArguments = [1], strideValues = [-1], box = [64], swizzleBytes = 0, stored = false}>]} {}

// -----

// expected-error @+1 {{swizzleBytes must be 0, 32, 64 or 128, got 16}}
module attributes {tilegpu.host_tensormap_params = [#tilegpu.host_tensormap<{parameter = 2, base = 0, elementType = f16, shapeArguments = [1], shapeValues = [-1], strideArguments = [-1], strideValues = [1], box = [64], swizzleBytes = 16, stored = false}>]} {}

// -----

#row = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"tilegpu.num-warps" = 8 : i32} {
  func.func @turn_ties_halves(%h: tensor<256xf16, #row>) {
    // expected-error @+1 {{ties only values of 32-bit elements to the turn, got 'tensor<256xf16, #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>>'}}
    %t = tilegpu.warp_group_turn_wait(%h : tensor<256xf16, #row>)
    return
  }
}
