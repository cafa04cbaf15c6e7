// RUN: terrazzo-opt %s -split-input-file --terrazzo-lower-tensor-descriptors="keep-tma=true keep-unvalidated=true" | FileCheck %s
// RUN: terrazzo-opt %s -split-input-file --terrazzo-lower-tensor-descriptors=keep-tma=true | FileCheck %s --check-prefix=VALID

// Without keep-unvalidated, descriptors stored through stay only with an
// innermost extent known to be a multiple of 16 bytes (here 16 elements
// of f16); loads stay whatever the block (the 1-D one too).
// VALID-LABEL: func.func @kept_2d
// VALID: tile.desc_load
// VALID: tile.desc_store
// VALID-LABEL: func.func @kept_1d
// VALID: tile.desc_load

// With keep-tma, a descriptor TMA can serve stays: base and row stride
// known multiples of 16 bytes (divisibility hints), innermost stride the
// constant 1, a block of power-of-two sizes with 128 bytes per row.
// CHECK-LABEL: func.func @kept_2d
// CHECK: tile.make_tensor_desc
// CHECK: tile.desc_load
// CHECK: tile.desc_store
// CHECK-NOT: tile.load
func.func @kept_2d(%base: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: i32, %n: i32 {tile.divisibility = 16 : i32}, %arg_i: i32) {
  %pid = tile.program_id x : i32
  %c64i = arith.constant 64 : i32
  %i = arith.muli %pid, %c64i : i32
  %c1 = arith.constant 1 : i64
  %s = arith.extsi %n : i32 to i64
  %d = tile.make_tensor_desc %base, [%m, %n], [%s, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
  %v = tile.desc_load %d[%i, %i] : !tile.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
  tile.desc_store %d[%i, %i], %v : !tile.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16>
  return
}

// -----

// A 1-D block needs no row stride at all.
// CHECK-LABEL: func.func @kept_1d
// CHECK: tile.make_tensor_desc
// CHECK: tile.desc_load
func.func @kept_1d(%base: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32, %arg_i: i32) -> tensor<128xf32> {
  %pid = tile.program_id x : i32
  %c64i = arith.constant 64 : i32
  %i = arith.muli %pid, %c64i : i32
  %c1 = arith.constant 1 : i64
  %d = tile.make_tensor_desc %base, [%n], [%c1] : !tile.ptr<f32> -> !tile.tensordesc<tensor<128xf32>>
  %v = tile.desc_load %d[%i] : !tile.tensordesc<tensor<128xf32>> -> tensor<128xf32>
  return %v : tensor<128xf32>
}

// -----

// A row stride not known to be a multiple of 16 bytes: pointer accesses.
// CHECK-LABEL: func.func @unaligned_stride
// CHECK-NOT: tile.make_tensor_desc
// CHECK: tile.load
func.func @unaligned_stride(%base: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: i32, %n: i32, %arg_i: i32) -> tensor<64x64xf16> {
  %pid = tile.program_id x : i32
  %c64i = arith.constant 64 : i32
  %i = arith.muli %pid, %c64i : i32
  %c1 = arith.constant 1 : i64
  %s = arith.extsi %n : i32 to i64
  %d = tile.make_tensor_desc %base, [%m, %n], [%s, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
  %v = tile.desc_load %d[%i, %i] : !tile.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
  return %v : tensor<64x64xf16>
}

// -----

// A base not known to be 16-byte aligned: pointer accesses.
// CHECK-LABEL: func.func @unaligned_base
// CHECK-NOT: tile.make_tensor_desc
// CHECK: tile.load
func.func @unaligned_base(%base: !tile.ptr<f32>, %n: i32, %arg_i: i32) -> tensor<128xf32> {
  %pid = tile.program_id x : i32
  %c64i = arith.constant 64 : i32
  %i = arith.muli %pid, %c64i : i32
  %c1 = arith.constant 1 : i64
  %d = tile.make_tensor_desc %base, [%n], [%c1] : !tile.ptr<f32> -> !tile.tensordesc<tensor<128xf32>>
  %v = tile.desc_load %d[%i] : !tile.tensordesc<tensor<128xf32>> -> tensor<128xf32>
  return %v : tensor<128xf32>
}

// -----

// An innermost stride that is not the constant 1: pointer accesses.
// CHECK-LABEL: func.func @strided_inner
// CHECK-NOT: tile.make_tensor_desc
// CHECK: tile.store
func.func @strided_inner(%base: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32, %s: i64 {tile.divisibility = 16 : i32}, %arg_i: i32, %v: tensor<128xf32>) {
  %pid = tile.program_id x : i32
  %c64i = arith.constant 64 : i32
  %i = arith.muli %pid, %c64i : i32
  %d = tile.make_tensor_desc %base, [%n], [%s] : !tile.ptr<f32> -> !tile.tensordesc<tensor<128xf32>>
  tile.desc_store %d[%i], %v : !tile.tensordesc<tensor<128xf32>>, tensor<128xf32>
  return
}

// -----

// Rows of 8 bytes are below TMA's 16: pointer accesses.
// CHECK-LABEL: func.func @narrow_rows
// CHECK-NOT: tile.make_tensor_desc
// CHECK: tile.load
func.func @narrow_rows(%base: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: i32, %n: i32 {tile.divisibility = 16 : i32}, %arg_i: i32) -> tensor<16x4xf16> {
  %pid = tile.program_id x : i32
  %c64i = arith.constant 64 : i32
  %i = arith.muli %pid, %c64i : i32
  %c1 = arith.constant 1 : i64
  %s = arith.extsi %n : i32 to i64
  %d = tile.make_tensor_desc %base, [%m, %n], [%s, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<16x4xf16>>
  %v = tile.desc_load %d[%i, %i] : !tile.tensordesc<tensor<16x4xf16>> -> tensor<16x4xf16>
  return %v : tensor<16x4xf16>
}

// -----

// A descriptor created in a loop (its tensor map would be rebuilt while
// copies may still read it): pointer accesses.
// CHECK-LABEL: func.func @in_loop
// CHECK-NOT: tile.make_tensor_desc
// CHECK: tile.load
func.func @in_loop(%base: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32, %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c1i = arith.constant 1 : i32
  %c1 = arith.constant 1 : i64
  scf.for %k = %c0 to %c4 step %c1i : i32 {
    %d = tile.make_tensor_desc %base, [%n], [%c1] : !tile.ptr<f32> -> !tile.tensordesc<tensor<128xf32>>
    %v = tile.desc_load %d[%k] : !tile.tensordesc<tensor<128xf32>> -> tensor<128xf32>
    %o = tile.make_tensor_desc %out, [%n], [%c1] : !tile.ptr<f32> -> !tile.tensordesc<tensor<128xf32>>
    tile.desc_store %o[%k], %v : !tile.tensordesc<tensor<128xf32>>, tensor<128xf32>
  }
  return
}

// -----

// Without keep-tma's conditions in a private function (not a kernel):
// pointer accesses.
// CHECK-LABEL: func.func private @helper
// CHECK-NOT: tile.make_tensor_desc
// CHECK: tile.load
func.func private @helper(%base: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32, %arg_i: i32) -> tensor<128xf32> {
  %pid = tile.program_id x : i32
  %c64i = arith.constant 64 : i32
  %i = arith.muli %pid, %c64i : i32
  %c1 = arith.constant 1 : i64
  %d = tile.make_tensor_desc %base, [%n], [%c1] : !tile.ptr<f32> -> !tile.tensordesc<tensor<128xf32>>
  %v = tile.desc_load %d[%i] : !tile.tensordesc<tensor<128xf32>> -> tensor<128xf32>
  return %v : tensor<128xf32>
}

// -----

// Loads at block coordinates that may be negative (an integer argument)
// stay for TMA: the H100 reads zeros outside the tensor there. Must not
// (unless keep-unvalidated): a store at such a coordinate (a TMA store at
// a negative coordinate faulted) lowers to pointers, with no check: an
// argument without tile.nonnegative is negative at this launch. The store
// through a maximum with 0, or at a signed remainder of a program id (the
// dividend's sign) by anything, is kept, with no check either.
// VALID-LABEL: func.func @maybe_negative
// VALID: tile.desc_load
// VALID-NOT: scf.if
// VALID-NOT: tile.desc_store
// VALID: tile.store
// VALID-LABEL: func.func @clamped
// VALID-NOT: scf.if
// VALID: tile.desc_store
// VALID-LABEL: func.func @remainder
// VALID-NOT: scf.if
// VALID: tile.desc_store
// CHECK-LABEL: func.func @maybe_negative
// CHECK: tile.desc_load
// CHECK: tile.desc_store
// CHECK-LABEL: func.func @clamped
// CHECK: tile.desc_store
func.func @maybe_negative(%base: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}, %i: i32 {tile.divisibility = 16 : i32}) {
  %c1 = arith.constant 1 : i64
  %d = tile.make_tensor_desc %base, [%n], [%c1] : !tile.ptr<f32> -> !tile.tensordesc<tensor<128xf32>>
  %v = tile.desc_load %d[%i] : !tile.tensordesc<tensor<128xf32>> -> tensor<128xf32>
  %e = tile.make_tensor_desc %base, [%n], [%c1] : !tile.ptr<f32> -> !tile.tensordesc<tensor<128xf32>>
  tile.desc_store %e[%i], %v : !tile.tensordesc<tensor<128xf32>>, tensor<128xf32>
  return
}
func.func @clamped(%base: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}, %i: i32 {tile.divisibility = 16 : i32}, %v: tensor<128xf32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %j = arith.maxsi %i, %c0 : i32
  %d = tile.make_tensor_desc %base, [%n], [%c1] : !tile.ptr<f32> -> !tile.tensordesc<tensor<128xf32>>
  tile.desc_store %d[%j], %v : !tile.tensordesc<tensor<128xf32>>, tensor<128xf32>
  return
}
func.func @remainder(%base: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}, %g: i32, %v: tensor<128xf32>) {
  %c1 = arith.constant 1 : i64
  %c128 = arith.constant 128 : i32
  %pid = tile.program_id x : i32
  %r = arith.remsi %pid, %g : i32
  %j = arith.muli %r, %c128 : i32
  %d = tile.make_tensor_desc %base, [%n], [%c1] : !tile.ptr<f32> -> !tile.tensordesc<tensor<128xf32>>
  tile.desc_store %d[%j], %v : !tile.tensordesc<tensor<128xf32>>, tensor<128xf32>
  return
}

// -----

// A persistent loop over tiles: the induction variable counts up from the
// program id by the number of programs, so the store at tile * 128 needs
// no guard. Must not: the same loop with a step of unknown sign (an
// argument) stores by TMA only under a check of the coordinate.
// VALID-LABEL: func.func @persistent_tiles
// VALID: scf.for
// VALID-NOT: scf.if
// VALID: tile.desc_store
// VALID-LABEL: func.func @step_of_unknown_sign
// VALID: scf.for
// VALID: arith.cmpi sge
// VALID-NEXT: scf.if
// VALID-NEXT: tile.desc_store
// VALID-NEXT: } else {
// VALID: tile.store
// CHECK-LABEL: func.func @persistent_tiles
// CHECK: tile.desc_store
// CHECK-LABEL: func.func @step_of_unknown_sign
// CHECK: tile.desc_store
func.func @persistent_tiles(%base: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}, %tiles: i32, %v: tensor<128xf32>) {
  %c1 = arith.constant 1 : i64
  %c128 = arith.constant 128 : i32
  %d = tile.make_tensor_desc %base, [%n], [%c1] : !tile.ptr<f32> -> !tile.tensordesc<tensor<128xf32>>
  %pid = tile.program_id x : i32
  %programs = tile.num_programs x : i32
  scf.for %t = %pid to %tiles step %programs : i32 {
    %j = arith.muli %t, %c128 : i32
    tile.desc_store %d[%j], %v : !tile.tensordesc<tensor<128xf32>>, tensor<128xf32>
  }
  return
}
func.func @step_of_unknown_sign(%base: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}, %tiles: i32, %step: i32, %v: tensor<128xf32>) {
  %c1 = arith.constant 1 : i64
  %c128 = arith.constant 128 : i32
  %d = tile.make_tensor_desc %base, [%n], [%c1] : !tile.ptr<f32> -> !tile.tensordesc<tensor<128xf32>>
  %pid = tile.program_id x : i32
  scf.for %t = %pid to %tiles step %step : i32 {
    %j = arith.muli %t, %c128 : i32
    tile.desc_store %d[%j], %v : !tile.tensordesc<tensor<128xf32>>, tensor<128xf32>
  }
  return
}

// -----

// Must not: an innermost block coordinate not known to be a whole number
// of 16 bytes (here any program id, 4 bytes per element) lowers to
// pointers; TMA faulted on such boxes on the H100 (float32 column 30).
// The outer coordinate may be anything: kept with the inner one a known
// multiple of 4 elements.
// CHECK-LABEL: func.func @unaligned_inner_coordinate
// CHECK-NOT: tile.desc_load
// CHECK: tile.load
// CHECK-LABEL: func.func @unaligned_outer_coordinate
// CHECK: tile.desc_load
// CHECK-NOT: tile.load
func.func @unaligned_inner_coordinate(%base: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i32, %n: i32 {tile.divisibility = 16 : i32}) -> tensor<16x32xf32> {
  %i = tile.program_id x : i32
  %c1 = arith.constant 1 : i64
  %s = arith.extsi %n : i32 to i64
  %d = tile.make_tensor_desc %base, [%m, %n], [%s, %c1] : !tile.ptr<f32> -> !tile.tensordesc<tensor<16x32xf32>>
  %v = tile.desc_load %d[%i, %i] : !tile.tensordesc<tensor<16x32xf32>> -> tensor<16x32xf32>
  return %v : tensor<16x32xf32>
}
func.func @unaligned_outer_coordinate(%base: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i32, %n: i32 {tile.divisibility = 16 : i32}) -> tensor<16x32xf32> {
  %i = tile.program_id x : i32
  %c4 = arith.constant 4 : i32
  %j = arith.muli %i, %c4 : i32
  %c1 = arith.constant 1 : i64
  %s = arith.extsi %n : i32 to i64
  %d = tile.make_tensor_desc %base, [%m, %n], [%s, %c1] : !tile.ptr<f32> -> !tile.tensordesc<tensor<16x32xf32>>
  %v = tile.desc_load %d[%i, %j] : !tile.tensordesc<tensor<16x32xf32>> -> tensor<16x32xf32>
  return %v : tensor<16x32xf32>
}

// -----

// Must not (without keep-unvalidated): a store through a descriptor whose
// innermost extent is not known to be a multiple of 16 bytes (a TMA store
// of a box past it writes up to the next 16 bytes on the H100) lowers to
// pointers; the load of a descriptor that is only read stays.
// VALID-LABEL: func.func @store_unaligned_extent
// VALID: tile.desc_load
// VALID-NOT: tile.desc_store
// VALID: tile.store
// CHECK-LABEL: func.func @store_unaligned_extent
// CHECK: tile.desc_store
func.func @store_unaligned_extent(%base: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i32, %n: i32, %s: i64 {tile.divisibility = 16 : i32}) {
  %pid = tile.program_id x : i32
  %c32 = arith.constant 32 : i32
  %i = arith.muli %pid, %c32 : i32
  %c1 = arith.constant 1 : i64
  %d = tile.make_tensor_desc %base, [%m, %n], [%s, %c1] : !tile.ptr<f32> -> !tile.tensordesc<tensor<16x32xf32>>
  %o = tile.make_tensor_desc %out, [%m, %n], [%s, %c1] : !tile.ptr<f32> -> !tile.tensordesc<tensor<16x32xf32>>
  %v = tile.desc_load %d[%i, %i] : !tile.tensordesc<tensor<16x32xf32>> -> tensor<16x32xf32>
  tile.desc_store %o[%i, %i], %v : !tile.tensordesc<tensor<16x32xf32>>, tensor<16x32xf32>
  return
}

// -----

// A descriptor made in a loop over tiles, from a base loaded there (a
// grouped GEMM's per-problem operand), and one made under a branch in that
// loop: both stay (their maps are built where they are made). Must not: one
// made in a while loop is lowered to pointers.
// CHECK-LABEL: func.func @made_in_loops
// CHECK: scf.for
// CHECK: tile.make_tensor_desc
// CHECK: tile.desc_load
// CHECK: scf.if
// CHECK: tile.make_tensor_desc
// CHECK: tile.desc_load
// CHECK: scf.while
// CHECK-NOT: tile.make_tensor_desc
// CHECK: tile.load
// CHECK: return
func.func @made_in_loops(%addrs: !tile.ptr<i64> {tile.divisibility = 16 : i32}, %base: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: i32, %n: i32 {tile.divisibility = 16 : i32}, %tiles: i32, %c: i1) {
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
      %bd = tile.make_tensor_desc %base, [%m, %n], [%s, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
      %w = tile.desc_load %bd[%i, %c64i] : !tile.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
    }
  }
  %r = scf.while (%t = %pid) : (i32) -> i32 {
    %go = arith.cmpi slt, %t, %tiles : i32
    scf.condition(%go) %t : i32
  } do {
  ^bb0(%t: i32):
    %wd = tile.make_tensor_desc %base, [%m, %n], [%s, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
    %j = arith.muli %t, %c64i : i32
    %u = tile.desc_load %wd[%j, %c64i] : !tile.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
    %next = arith.addi %t, %c1i : i32
    scf.yield %next : i32
  }
  return
}

// -----

// A grouped GEMM's operand as Triton's tutorial writes it: address and row
// stride loaded per problem, so their alignment is known only at run time.
// The code from the descriptor through its last use (the K loop) is
// versioned on it: the then branch keeps the descriptor for TMA, the else
// branch reads through pointers; the loop's result leaves by the scf.if.
// CHECK-LABEL: func.func @versioned_on_alignment
// CHECK: %[[A:.+]] = tile.load %{{.+}} : !tile.ptr<i64>
// CHECK: %[[LDA:.+]] = tile.load %{{.+}} : !tile.ptr<i64>
// CHECK: %[[BASE:.+]] = tile.int_to_ptr %[[A]]
// CHECK: %[[ADDR:.+]] = tile.ptr_to_int %[[BASE]] : !tile.ptr<f16> -> i64
// CHECK: %[[C15:.+]] = arith.constant 15 : i64
// CHECK: %[[LOW:.+]] = arith.andi %[[ADDR]], %[[C15]]
// CHECK: %[[OK1:.+]] = arith.cmpi eq, %[[LOW]]
// CHECK: %[[C7:.+]] = arith.constant 7 : i64
// CHECK: %[[LOWS:.+]] = arith.andi %[[LDA]], %[[C7]]
// CHECK: %[[OK2:.+]] = arith.cmpi eq, %[[LOWS]]
// CHECK: %[[OK:.+]] = arith.andi %[[OK1]], %[[OK2]] : i1
// CHECK: %[[R:.+]] = scf.if %[[OK]] -> (tensor<64x64xf32>) {
// CHECK: tile.make_tensor_desc %[[BASE]]
// CHECK: scf.for
// CHECK: tile.desc_load
// CHECK: scf.yield %{{.+}} : tensor<64x64xf32>
// CHECK: } else {
// CHECK-NOT: tile.make_tensor_desc
// CHECK-NOT: tile.desc_load
// CHECK: scf.for
// CHECK: tile.load %{{.+}}, %{{.+}}, %{{.+}} : tensor<64x64x!tile.ptr<f16>>
// CHECK: scf.yield %{{.+}} : tensor<64x64xf32>
// CHECK: }
// CHECK: tile.store %{{.+}}, %[[R]]
func.func @versioned_on_alignment(%addrs: !tile.ptr<i64> {tile.divisibility = 16 : i32}, %lds: !tile.ptr<i64> {tile.divisibility = 16 : i32}, %m: i32, %k: i32, %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %pid = tile.program_id x : i32
  %c0i = arith.constant 0 : i32
  %c1i = arith.constant 1 : i32
  %c64i = arith.constant 64 : i32
  %c1 = arith.constant 1 : i64
  %ap = tile.addptr %addrs, %pid : !tile.ptr<i64>, i32
  %a = tile.load %ap : !tile.ptr<i64>
  %lp = tile.addptr %lds, %pid : !tile.ptr<i64>, i32
  %lda = tile.load %lp : !tile.ptr<i64>
  %base = tile.int_to_ptr %a : i64 -> !tile.ptr<f16>
  %d = tile.make_tensor_desc %base, [%m, %k], [%lda, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %steps = arith.divsi %k, %c64i : i32
  %r = scf.for %i = %c0i to %steps step %c1i iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    %kk = arith.muli %i, %c64i : i32
    %v = tile.desc_load %d[%c0i, %kk] : !tile.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
    %f = arith.extf %v : tensor<64x64xf16> to tensor<64x64xf32>
    %s = arith.addf %acc, %f : tensor<64x64xf32>
    scf.yield %s : tensor<64x64xf32>
  }
  %o = tile.splat %out : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  tile.store %o, %r : tensor<64x64x!tile.ptr<f32>>
  return
}

// -----

// An innermost stride loaded from memory is checked to be 1.
// CHECK-LABEL: func.func @versioned_on_unit_stride
// CHECK: %[[ONE:.+]] = tile.load
// CHECK: %[[C1:.+]] = arith.constant 1 : i64
// CHECK: %[[OK:.+]] = arith.cmpi eq, %[[ONE]], %[[C1]] : i64
// CHECK: scf.if %[[OK]] -> (tensor<64x64xf16>)
// CHECK: tile.desc_load
// CHECK: } else {
// CHECK: tile.load
func.func @versioned_on_unit_stride(%base: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %strides: !tile.ptr<i64> {tile.divisibility = 16 : i32}, %m: i32, %n: i32 {tile.divisibility = 16 : i32}) -> tensor<64x64xf16> {
  %c0i = arith.constant 0 : i32
  %s = arith.extsi %n : i32 to i64
  %one = tile.load %strides : !tile.ptr<i64>
  %d = tile.make_tensor_desc %base, [%m, %n], [%s, %one] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
  %v = tile.desc_load %d[%c0i, %c0i] : !tile.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
  return %v : tensor<64x64xf16>
}

// -----

// Must not: a row stride that is a kernel argument the launcher did not
// find aligned (no tile.divisibility), beside a loaded base, is not
// checked at run time: pointer accesses, no scf.if.
// CHECK-LABEL: func.func @not_versioned_on_arguments
// CHECK-NOT: scf.if
// CHECK-NOT: tile.make_tensor_desc
// CHECK: tile.load %{{.+}}, %{{.+}}, %{{.+}} : tensor<64x64x!tile.ptr<f16>>
func.func @not_versioned_on_arguments(%addrs: !tile.ptr<i64> {tile.divisibility = 16 : i32}, %m: i32, %n: i32) -> tensor<64x64xf16> {
  %c0i = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %a = tile.load %addrs : !tile.ptr<i64>
  %base = tile.int_to_ptr %a : i64 -> !tile.ptr<f16>
  %s = arith.extsi %n : i32 to i64
  %d = tile.make_tensor_desc %base, [%m, %n], [%s, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
  %v = tile.desc_load %d[%c0i, %c0i] : !tile.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
  return %v : tensor<64x64xf16>
}

// -----

// Must not: a range with a warp-specialized loop (the producer is built
// from the function's one copy of it) is not duplicated: pointer accesses.
// CHECK-LABEL: func.func @not_versioned_with_warp_specialize
// CHECK-NOT: scf.if
// CHECK-NOT: tile.make_tensor_desc
// CHECK: scf.for
// CHECK: tile.load %{{.+}}, %{{.+}}, %{{.+}} : tensor<64x64x!tile.ptr<f16>>
func.func @not_versioned_with_warp_specialize(%addrs: !tile.ptr<i64> {tile.divisibility = 16 : i32}, %m: i32, %k: i32 {tile.divisibility = 16 : i32}) -> tensor<64x64xf16> {
  %c0i = arith.constant 0 : i32
  %c1i = arith.constant 1 : i32
  %c64i = arith.constant 64 : i32
  %c1 = arith.constant 1 : i64
  %a = tile.load %addrs : !tile.ptr<i64>
  %base = tile.int_to_ptr %a : i64 -> !tile.ptr<f16>
  %s = arith.extsi %k : i32 to i64
  %d = tile.make_tensor_desc %base, [%m, %k], [%s, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
  %zero = arith.constant dense<0.0> : tensor<64x64xf16>
  %r = scf.for %i = %c0i to %k step %c64i iter_args(%acc = %zero) -> (tensor<64x64xf16>) : i32 {
    %v = tile.desc_load %d[%c0i, %i] : !tile.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
    %s2 = arith.addf %acc, %v : tensor<64x64xf16>
    scf.yield %s2 : tensor<64x64xf16>
  } {tile.warp_specialize}
  return %r : tensor<64x64xf16>
}

// -----

// Two descriptors versioned together, on one scf.if: the second's row
// stride is extended to i64 after the first descriptor is made (as the
// frontend emits it), and that extension moves in front of the check.
// CHECK-LABEL: func.func @versioned_together
// CHECK: arith.extsi %{{.+}} : i32 to i64
// CHECK-NEXT: %[[LDB:.+]] = arith.extsi %{{.+}} : i32 to i64
// CHECK: scf.if
// CHECK-NEXT: tile.make_tensor_desc
// CHECK-NEXT: tile.make_tensor_desc %{{.+}}, [%{{.+}}, %{{.+}}], [%[[LDB]], %{{.+}}]
// CHECK: tile.desc_load
// CHECK: tile.desc_load
// CHECK: } else {
// CHECK-NOT: tile.desc_load
// CHECK: return
func.func @versioned_together(%addrs: !tile.ptr<i64> {tile.divisibility = 16 : i32}, %lds: !tile.ptr<i32> {tile.divisibility = 16 : i32}, %m: i32, %k: i32) -> tensor<64x64xf16> {
  %c0i = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %a = tile.load %addrs : !tile.ptr<i64>
  %ap = tile.int_to_ptr %a : i64 -> !tile.ptr<f16>
  %bp = tile.addptr %addrs, %c0i : !tile.ptr<i64>, i32
  %b = tile.load %bp : !tile.ptr<i64>
  %bb = tile.int_to_ptr %b : i64 -> !tile.ptr<f16>
  %lda32 = tile.load %lds : !tile.ptr<i32>
  %ldb32 = tile.load %lds : !tile.ptr<i32>
  %lda = arith.extsi %lda32 : i32 to i64
  %da = tile.make_tensor_desc %ap, [%m, %k], [%lda, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
  %ldb = arith.extsi %ldb32 : i32 to i64
  %db = tile.make_tensor_desc %bb, [%m, %k], [%ldb, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
  %va = tile.desc_load %da[%c0i, %c0i] : !tile.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
  %vb = tile.desc_load %db[%c0i, %c0i] : !tile.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
  %s = arith.addf %va, %vb : tensor<64x64xf16>
  return %s : tensor<64x64xf16>
}

// -----

// A descriptor stored through, made from a loaded base, row stride and
// column count, at a loaded row (which may be negative): the column count
// joins the alignment check (a TMA store writes past an extent that is not
// a whole 16 bytes), and in the then branch the store is also guarded by a
// check of its row.
// VALID-LABEL: func.func @versioned_store
// VALID: %[[N:.+]] = tile.load %{{.+}} : !tile.ptr<i32>
// VALID: %[[ROW:.+]] = tile.load %{{.+}} : !tile.ptr<i32>
// VALID: %[[C7:.+]] = arith.constant 7 : i32
// VALID: arith.andi %[[N]], %[[C7]] : i32
// VALID: scf.if
// VALID-NEXT: tile.make_tensor_desc
// VALID: arith.cmpi sge, %[[ROW]]
// VALID-NEXT: scf.if
// VALID-NEXT: tile.desc_store
// VALID-NEXT: } else {
// VALID: tile.store
// VALID: } else {
// VALID-NOT: tile.desc_store
// VALID: tile.store
// VALID: return
func.func @versioned_store(%addrs: !tile.ptr<i64> {tile.divisibility = 16 : i32}, %row: i32, %m: i32, %v: tensor<64x64xf16>) {
  %c0i = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %a = tile.load %addrs : !tile.ptr<i64>
  %base = tile.int_to_ptr %a : i64 -> !tile.ptr<f16>
  %np = tile.addptr %addrs, %row : !tile.ptr<i64>, i32
  %n64 = tile.load %np : !tile.ptr<i64>
  %ns = tile.bitcast %np : !tile.ptr<i64> -> !tile.ptr<i32>
  %n2 = tile.load %ns : !tile.ptr<i32>
  %ld = arith.extsi %n2 : i32 to i64
  %rp = tile.addptr %ns, %m : !tile.ptr<i32>, i32
  %r = tile.load %rp : !tile.ptr<i32>
  %d = tile.make_tensor_desc %base, [%m, %n2], [%ld, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
  tile.desc_store %d[%r, %c0i], %v : !tile.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16>
  return
}

// -----

// Must not: a second descriptor whose row stride is loaded after the
// first descriptor is made (a load does not move in front of the check)
// is not versioned: the first is, and the second reads through pointers
// in both branches.
// VALID-LABEL: func.func @loaded_inside_the_range
// VALID: scf.if
// VALID-NEXT: tile.make_tensor_desc
// VALID-NOT: tile.make_tensor_desc
// VALID: tile.desc_load
// VALID-NOT: tile.desc_load
// VALID: } else {
// VALID-NOT: tile.desc_load
// VALID: return
func.func @loaded_inside_the_range(%addrs: !tile.ptr<i64> {tile.divisibility = 16 : i32}, %lds: !tile.ptr<i64> {tile.divisibility = 16 : i32}, %m: i32, %k: i32) -> tensor<64x64xf16> {
  %c0i = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %a = tile.load %addrs : !tile.ptr<i64>
  %ap = tile.int_to_ptr %a : i64 -> !tile.ptr<f16>
  %lda = tile.load %lds : !tile.ptr<i64>
  %da = tile.make_tensor_desc %ap, [%m, %k], [%lda, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
  %ldb = tile.load %lds : !tile.ptr<i64>
  %db = tile.make_tensor_desc %ap, [%m, %k], [%ldb, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
  %va = tile.desc_load %da[%c0i, %c0i] : !tile.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
  %vb = tile.desc_load %db[%c0i, %c0i] : !tile.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
  %s = arith.addf %va, %vb : tensor<64x64xf16>
  return %s : tensor<64x64xf16>
}
