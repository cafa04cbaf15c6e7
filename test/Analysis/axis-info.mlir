// RUN: terrazzo-opt %s -split-input-file -terrazzo-test-print-axis-info -verify-diagnostics

// AxisInfo (passes/Analysis/AxisInfo.h): per dimension, the contiguity C,
// divisibility D (bytes for pointers) and constancy K of every integer and
// pointer value. 1073741824 = 2^30 is the divisibility cap (the value 0).

// Vector add: pid * BLOCK + make_range over 16-byte aligned pointers gives
// 128 consecutive f32 elements whose first address is 16-byte aligned, and
// the bounds mask against an n divisible by 16 is constant in runs of 16.
func.func @vector_add(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                      %out: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                      %n: i32 {tile.divisibility = 16 : i32}) {
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %pid = tile.program_id x : i32
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [128], constancy = [1], constant_value = 128}}
  %c128 = arith.constant 128 : i32
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [128], constancy = [1], constant_value = <none>}}
  %start = arith.muli %pid, %c128 : i32
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [128], constancy = [128], constant_value = <none>}}
  %starts = tile.splat %start : i32 -> tensor<128xi32>
  // expected-remark @below {{result #0: contiguity = [128], divisibility = [1073741824], constancy = [1], constant_value = <none>}}
  %range = tile.make_range 0 to 128 : tensor<128xi32>
  // expected-remark @below {{result #0: contiguity = [128], divisibility = [128], constancy = [1], constant_value = <none>}}
  %offs = arith.addi %starts, %range : tensor<128xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [16], constancy = [128], constant_value = <none>}}
  %ns = tile.splat %n : i32 -> tensor<128xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [16], constant_value = <none>}}
  %mask = arith.cmpi slt, %offs, %ns : tensor<128xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [16], constancy = [128], constant_value = <none>}}
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  // expected-remark @below {{result #0: contiguity = [128], divisibility = [16], constancy = [1], constant_value = <none>}}
  %xp = tile.addptr %xs, %offs : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %v = tile.load %xp, %mask : tensor<128x!tile.ptr<f32>>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [16], constancy = [128]}}
  %outs = tile.splat %out : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  // expected-remark @below {{result #0: contiguity = [128], divisibility = [16], constancy = [1]}}
  %op = tile.addptr %outs, %offs : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  tile.store %op, %v, %mask : tensor<128x!tile.ptr<f32>>
  return
}

// -----

// The tutorial's shape: BLOCK = 1024, offsets from a helper function. The
// framework follows the call into the private helper (its only call site
// gives the argument) and back out through the return.
func.func private @block_offsets(%pid: i32) -> tensor<1024xi32> {
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1024], constancy = [1], constant_value = 1024}}
  %block = arith.constant 1024 : i32
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1024], constancy = [1], constant_value = <none>}}
  %start = arith.muli %pid, %block : i32
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1024], constancy = [1024]}}
  %starts = tile.splat %start : i32 -> tensor<1024xi32>
  // expected-remark @below {{result #0: contiguity = [1024], divisibility = [1073741824], constancy = [1]}}
  %range = tile.make_range 0 to 1024 : tensor<1024xi32>
  // expected-remark @below {{result #0: contiguity = [1024], divisibility = [1024], constancy = [1]}}
  %offsets = arith.addi %starts, %range : tensor<1024xi32>
  return %offsets : tensor<1024xi32>
}

func.func @add_kernel(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}) {
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [1]}}
  %pid = tile.program_id x : i32
  // expected-remark @below {{result #0: contiguity = [1024], divisibility = [1024], constancy = [1]}}
  %offsets = func.call @block_offsets(%pid) : (i32) -> tensor<1024xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [16], constancy = [1024]}}
  %xs = tile.splat %x : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
  // expected-remark @below {{result #0: contiguity = [1024], divisibility = [16], constancy = [1]}}
  %xp = tile.addptr %xs, %offsets : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
  %v = tile.load %xp : tensor<1024x!tile.ptr<f16>>
  return
}

// -----

// A 2-D row-major tile: ptr + rows[:, None] * stride + cols[None, :].
// Contiguous along the last dimension (16-byte aligned rows because the
// stride is a multiple of 16 elements), only element-aligned along rows.
// The row mask is constant along the columns.
func.func @grid_2d(%base: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                   %stride: i32 {tile.divisibility = 16 : i32},
                   %m: i32 {tile.divisibility = 16 : i32}) {
  // expected-remark @below {{result #0: contiguity = [32], divisibility = [1073741824], constancy = [1]}}
  %rows = tile.make_range 0 to 32 : tensor<32xi32>
  // expected-remark @below {{result #0: contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %cols = tile.make_range 0 to 64 : tensor<64xi32>
  // expected-remark @below {{result #0: contiguity = [32, 1], divisibility = [1073741824, 1], constancy = [1, 1]}}
  %r2 = tile.expand_dims %rows axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  // expected-remark @below {{result #0: contiguity = [1, 1], divisibility = [16, 16], constancy = [32, 1]}}
  %strides = tile.splat %stride : i32 -> tensor<32x1xi32>
  // expected-remark @below {{result #0: contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 1]}}
  %roff = arith.muli %r2, %strides : tensor<32x1xi32>
  // expected-remark @below {{result #0: contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 64]}}
  %rb = tile.broadcast %roff : tensor<32x1xi32> -> tensor<32x64xi32>
  // expected-remark @below {{result #0: contiguity = [1, 64], divisibility = [1, 1073741824], constancy = [1, 1]}}
  %c2 = tile.expand_dims %cols axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  // expected-remark @below {{result #0: contiguity = [1, 64], divisibility = [1, 1073741824], constancy = [32, 1]}}
  %cb = tile.broadcast %c2 : tensor<1x64xi32> -> tensor<32x64xi32>
  // expected-remark @below {{result #0: contiguity = [1, 64], divisibility = [1, 16], constancy = [1, 1]}}
  %offs = arith.addi %rb, %cb : tensor<32x64xi32>
  // expected-remark @below {{result #0: contiguity = [1, 1], divisibility = [16, 16], constancy = [32, 64]}}
  %bs = tile.splat %base : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>>
  // expected-remark @below {{result #0: contiguity = [1, 64], divisibility = [2, 16], constancy = [1, 1]}}
  %ptrs = tile.addptr %bs, %offs : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>

  // expected-remark @below {{result #0: contiguity = [1, 1], divisibility = [16, 16], constancy = [32, 1]}}
  %ms = tile.splat %m : i32 -> tensor<32x1xi32>
  // expected-remark @below {{result #0: contiguity = [1, 1], divisibility = [1, 1], constancy = [16, 1]}}
  %rmask = arith.cmpi slt, %r2, %ms : tensor<32x1xi32>
  // expected-remark @below {{result #0: contiguity = [1, 1], divisibility = [1, 1], constancy = [16, 64]}}
  %mask = tile.broadcast %rmask : tensor<32x1xi1> -> tensor<32x64xi1>
  %v = tile.load %ptrs, %mask : tensor<32x64x!tile.ptr<f16>>

  // Transposed: the contiguous dimension moves.
  // expected-remark @below {{result #0: contiguity = [64, 1], divisibility = [16, 1], constancy = [1, 1]}}
  %t = tile.trans %offs [1, 0] : tensor<32x64xi32> -> tensor<64x32xi32>
  // Flattening a 2-D grid is not understood: conservative.
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [1]}}
  %flat = tile.reshape %offs : tensor<32x64xi32> -> tensor<2048xi32>
  // Adding a unit dimension keeps the others.
  // expected-remark @below {{result #0: contiguity = [1, 64], divisibility = [1, 1073741824], constancy = [1, 1]}}
  %unit = tile.reshape %cols : tensor<64xi32> -> tensor<1x64xi32>
  return
}

// -----

// Pointer arguments without tile.divisibility are only assumed aligned to
// their element (every access through them must be): 4 bytes for f32, 1
// for i8. Converting to integers and back keeps the byte divisibility; the
// integers of a contiguous f32 pointer run step by 4, so they are not
// contiguous.
func.func @unaligned(%p: !tile.ptr<f32>, %q: !tile.ptr<i8>) {
  // expected-remark @below {{result #0: contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [4], constancy = [64]}}
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  // expected-remark @below {{result #0: contiguity = [64], divisibility = [4], constancy = [1]}}
  %pp = tile.addptr %ps, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [64]}}
  %qs = tile.splat %q : !tile.ptr<i8> -> tensor<64x!tile.ptr<i8>>
  // expected-remark @below {{result #0: contiguity = [64], divisibility = [1], constancy = [1]}}
  %qp = tile.addptr %qs, %r : tensor<64x!tile.ptr<i8>>, tensor<64xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [4], constancy = [1]}}
  %ints = tile.ptr_to_int %pp : tensor<64x!tile.ptr<f32>> -> tensor<64xi64>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [4], constancy = [1]}}
  %bytes = tile.int_to_ptr %ints : tensor<64xi64> -> tensor<64x!tile.ptr<i8>>
  // Same element size: the same lattice.
  // expected-remark @below {{result #0: contiguity = [64], divisibility = [4], constancy = [1]}}
  %as_i32 = tile.bitcast %pp : tensor<64x!tile.ptr<f32>> -> tensor<64x!tile.ptr<i32>>
  // Byte pointers: consecutive integers are consecutive elements.
  // expected-remark @below {{result #0: contiguity = [64], divisibility = [1], constancy = [1]}}
  %qi = tile.ptr_to_int %qp : tensor<64x!tile.ptr<i8>> -> tensor<64xi64>
  return
}

// -----

// Constants: scalars, splats, and dense tensors analysed element by element.
func.func @constants() {
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1073741824], constancy = [1], constant_value = 0}}
  %zero = arith.constant 0 : i32
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [16], constancy = [1], constant_value = 48}}
  %c48 = arith.constant 48 : index
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [2], constancy = [1], constant_value = -6}}
  %neg = arith.constant -6 : i64
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [1], constant_value = 1}}
  %true = arith.constant true
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [64], constancy = [16], constant_value = 64}}
  %splat = arith.constant dense<64> : tensor<16xi32>
  // expected-remark @below {{result #0: contiguity = [4], divisibility = [8], constancy = [1], constant_value = <none>}}
  %runs = arith.constant dense<[0, 1, 2, 3, 8, 9, 10, 11]> : tensor<8xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [4], constant_value = <none>}}
  %steps = arith.constant dense<[4, 4, 4, 4, 7, 7, 7, 7]> : tensor<8xi32>
  // expected-remark @below {{result #0: contiguity = [1, 2], divisibility = [1, 2], constancy = [1, 1]}}
  %grid = arith.constant dense<[[0, 1], [2, 3]]> : tensor<2x2xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [1]}}
  %bools = arith.constant dense<[true, false]> : tensor<2xi1>
  // Arithmetic on known constants folds.
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1073741824], constancy = [1], constant_value = 0}}
  %zero_idx = arith.constant 0 : index
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [16], constancy = [1], constant_value = 48}}
  %sum = arith.addi %zero_idx, %c48 : index
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [32], constancy = [16], constant_value = 32}}
  %c32s = arith.constant dense<32> : tensor<16xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [32], constancy = [16], constant_value = 96}}
  %sum_splat = arith.addi %splat, %c32s : tensor<16xi32>
  return
}

// -----

// Shifts: by constants they are multiplication and floor division by powers
// of two.
func.func @shifts(%n: i32 {tile.divisibility = 16 : i32}) {
  // expected-remark @below {{result #0: contiguity = [128], divisibility = [1073741824], constancy = [1]}}
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [4], constancy = [128], constant_value = 4}}
  %c4 = arith.constant dense<4> : tensor<128xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [2], constancy = [128], constant_value = 2}}
  %c2 = arith.constant dense<2> : tensor<128xi32>
  // r << 4: stride 16.
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [16], constancy = [1]}}
  %shl = arith.shli %r, %c4 : tensor<128xi32>
  // r >> 2: each value four times.
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [4]}}
  %shr = arith.shrui %r, %c2 : tensor<128xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [2], constancy = [1], constant_value = 2}}
  %s2 = arith.constant 2 : i32
  // n >> 2 with 16 | n: 4 | result.
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [4], constancy = [1]}}
  %q = arith.shrsi %n, %s2 : i32
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [64], constancy = [1]}}
  %m = arith.shli %n, %s2 : i32
  // An unknown shift amount: a left shift keeps the low zero bits.
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [1]}}
  %pid = tile.program_id x : i32
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [16], constancy = [1]}}
  %u = arith.shli %n, %pid : i32
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [1]}}
  %v = arith.shrui %n, %pid : i32
  return
}

// -----

// Division and remainder by constants.
func.func @div_rem(%n: i32 {tile.divisibility = 16 : i32},
                   %k: i32 {tile.divisibility = 4 : i32}) {
  // expected-remark @below {{result #0: contiguity = [128], divisibility = [1073741824], constancy = [1]}}
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [16], constancy = [128], constant_value = 16}}
  %c16 = arith.constant dense<16> : tensor<128xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [128], constant_value = 3}}
  %c3 = arith.constant dense<3> : tensor<128xi32>
  // r / 16: runs of 16 equal values.
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [16]}}
  %q = arith.divsi %r, %c16 : tensor<128xi32>
  // r % 16: 0..15 repeated, each run starting at 0.
  // expected-remark @below {{result #0: contiguity = [16], divisibility = [1073741824], constancy = [1]}}
  %rem = arith.remsi %r, %c16 : tensor<128xi32>
  // r & 31 = r % 32.
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [128], constant_value = 31}}
  %c31 = arith.constant dense<31> : tensor<128xi32>
  // expected-remark @below {{result #0: contiguity = [32], divisibility = [1073741824], constancy = [1]}}
  %and = arith.andi %r, %c31 : tensor<128xi32>
  // Not a power of two: nothing.
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [1]}}
  %q3 = arith.divui %r, %c3 : tensor<128xi32>
  // A multiple of 16 modulo 16 is 0.
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [16], constancy = [128]}}
  %ns = tile.splat %n : i32 -> tensor<128xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1073741824], constancy = [128], constant_value = 0}}
  %zero = arith.remui %ns, %c16 : tensor<128xi32>
  // Runs of 8 starting at multiples of 4, modulo 16: can wrap at every
  // multiple of 4.
  // expected-remark @below {{result #0: contiguity = [8], divisibility = [1073741824], constancy = [1]}}
  %r8 = tile.make_range 0 to 8 : tensor<8xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [4], constancy = [8]}}
  %ks = tile.splat %k : i32 -> tensor<8xi32>
  // expected-remark @below {{result #0: contiguity = [8], divisibility = [4], constancy = [1]}}
  %kr = arith.addi %ks, %r8 : tensor<8xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [16], constancy = [8], constant_value = 16}}
  %c16x8 = arith.constant dense<16> : tensor<8xi32>
  // expected-remark @below {{result #0: contiguity = [4], divisibility = [4], constancy = [1]}}
  %krm = arith.remui %kr, %c16x8 : tensor<8xi32>
  // Remainder by a non-constant: what divides both sides.
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [4], constancy = [1]}}
  %nk = arith.remsi %n, %k : i32
  // Scalar constants fold.
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [128], constancy = [1], constant_value = 128}}
  %c128 = arith.constant 128 : i32
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [4], constancy = [1], constant_value = 4}}
  %c4 = arith.constant 4 : i32
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [32], constancy = [1], constant_value = 32}}
  %c32 = arith.divui %c128, %c4 : i32
  // Aligning down: n & -64 is a multiple of 64.
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [64], constancy = [1], constant_value = -64}}
  %cm64 = arith.constant -64 : i32
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [64], constancy = [1]}}
  %aligned = arith.andi %k, %cm64 : i32
  return
}

// -----

// Masks: comparing consecutive offsets with a bound changes value at most
// once per run, at a multiple of what divides both.
func.func @masks(%n: i32 {tile.divisibility = 16 : i32}, %m: i32) {
  // expected-remark @below {{result #0: contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [16], constancy = [64]}}
  %ns = tile.splat %n : i32 -> tensor<64xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [64]}}
  %ms = tile.splat %m : i32 -> tensor<64xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [16]}}
  %lt = arith.cmpi slt, %r, %ns : tensor<64xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [16]}}
  %ge = arith.cmpi uge, %r, %ns : tensor<64xi32>
  // n > r is r < n.
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [16]}}
  %gt = arith.cmpi sgt, %ns, %r : tensor<64xi32>
  // r <= n flips after r = n: not at a multiple of 16.
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [1]}}
  %le = arith.cmpi sle, %r, %ns : tensor<64xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [1]}}
  %eq = arith.cmpi eq, %r, %ns : tensor<64xi32>
  // An unaligned bound: no constancy.
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [1]}}
  %lt_m = arith.cmpi slt, %r, %ms : tensor<64xi32>
  // Two splats compare to a splat.
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [64]}}
  %splats = arith.cmpi slt, %ns, %ms : tensor<64xi32>
  return
}

// -----

// select: the condition's constancy bounds the runs of the result.
func.func @select(%n: i32 {tile.divisibility = 16 : i32}, %flag: i1) {
  // expected-remark @below {{result #0: contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [256], constancy = [64], constant_value = 256}}
  %c256 = arith.constant dense<256> : tensor<64xi32>
  // expected-remark @below {{result #0: contiguity = [64], divisibility = [256], constancy = [1]}}
  %r2 = arith.addi %r, %c256 : tensor<64xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [16], constancy = [64]}}
  %ns = tile.splat %n : i32 -> tensor<64xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [16]}}
  %mask = arith.cmpi slt, %r, %ns : tensor<64xi32>
  // expected-remark @below {{result #0: contiguity = [16], divisibility = [16], constancy = [1]}}
  %sel = arith.select %mask, %r, %r2 : tensor<64xi1>, tensor<64xi32>
  // A scalar condition over tensors.
  // expected-remark @below {{result #0: contiguity = [64], divisibility = [256], constancy = [1]}}
  %sel_s = arith.select %flag, %r, %r2 : tensor<64xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [64], constancy = [1], constant_value = 64}}
  %c64 = arith.constant 64 : i32
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [32], constancy = [1], constant_value = 32}}
  %c32 = arith.constant 32 : i32
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [32], constancy = [1], constant_value = <none>}}
  %s = arith.select %flag, %c64, %c32 : i32
  // A known condition picks a side.
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1073741824], constancy = [1], constant_value = 0}}
  %false = arith.constant false
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [32], constancy = [1], constant_value = 32}}
  %k = arith.select %false, %c64, %c32 : i32
  return
}

// -----

// scf.for: the induction variable is lb + i * step; a pointer advanced by a
// constant each iteration keeps the divisibility common to its start and
// its increment.
func.func @loop(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) {
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1073741824], constancy = [1], constant_value = 0}}
  %c0 = arith.constant 0 : i32
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [16], constancy = [1], constant_value = 16}}
  %c16 = arith.constant 16 : i32
  // expected-remark @below {{result #0: contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [16], constancy = [64]}}
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  // expected-remark @below {{result #0: contiguity = [64], divisibility = [16], constancy = [1]}}
  %p0 = tile.addptr %ps, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [32], constancy = [64], constant_value = 32}}
  %c32 = arith.constant dense<32> : tensor<64xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [64], constant_value = 1}}
  %c1 = arith.constant dense<1> : tensor<64xi32>
  %c1f = arith.constant dense<1.0> : tensor<64xf32>

  // Advanced by 32 elements (128 bytes): stays 16-byte aligned.
  // expected-remark @below {{region #0 arg #0: contiguity = [1], divisibility = [16], constancy = [1]}}
  // expected-remark @below {{region #0 arg #1: contiguity = [64], divisibility = [16], constancy = [1]}}
  // expected-remark @below {{result #0: contiguity = [64], divisibility = [16], constancy = [1]}}
  %res = scf.for %i = %c0 to %n step %c16 iter_args(%ptr = %p0) -> (tensor<64x!tile.ptr<f32>>) : i32 {
    %v = tile.load %ptr : tensor<64x!tile.ptr<f32>>
    // expected-remark @below {{result #0: contiguity = [64], divisibility = [16], constancy = [1]}}
    %next = tile.addptr %ptr, %c32 : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
    scf.yield %next : tensor<64x!tile.ptr<f32>>
  }

  // Advanced by one element (4 bytes): only 4-byte aligned from the second
  // iteration on, and the join says so for every iteration.
  // expected-remark @below {{region #0 arg #0: contiguity = [1], divisibility = [16], constancy = [1]}}
  // expected-remark @below {{region #0 arg #1: contiguity = [64], divisibility = [4], constancy = [1]}}
  // expected-remark @below {{result #0: contiguity = [64], divisibility = [4], constancy = [1]}}
  %res2 = scf.for %i = %c0 to %n step %c16 iter_args(%ptr = %p0) -> (tensor<64x!tile.ptr<f32>>) : i32 {
    // expected-remark @below {{result #0: contiguity = [64], divisibility = [4], constancy = [1]}}
    %next = tile.addptr %ptr, %c1 : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
    scf.yield %next : tensor<64x!tile.ptr<f32>>
  }

  // An integer offset accumulated in steps of 64, and the induction variable
  // used as an offset.
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [64], constancy = [1], constant_value = 64}}
  %c64 = arith.constant 64 : i32
  // expected-remark @below {{region #0 arg #0: contiguity = [1], divisibility = [16], constancy = [1]}}
  // expected-remark @below {{region #0 arg #1: contiguity = [1], divisibility = [64], constancy = [1], constant_value = <none>}}
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [64], constancy = [1], constant_value = <none>}}
  %acc = scf.for %i = %c0 to %n step %c16 iter_args(%o = %c0) -> (i32) : i32 {
    // expected-remark @below {{result #0: contiguity = [1], divisibility = [16], constancy = [64]}}
    %is = tile.splat %i : i32 -> tensor<64xi32>
    // expected-remark @below {{result #0: contiguity = [64], divisibility = [16], constancy = [1]}}
    %offs = arith.addi %is, %r : tensor<64xi32>
    // expected-remark @below {{result #0: contiguity = [1], divisibility = [64], constancy = [1], constant_value = <none>}}
    %o2 = arith.addi %o, %c64 : i32
    scf.yield %o2 : i32
  }

  // A loop without iter_args: its induction variable is still lb + i * step.
  // expected-remark @below {{region #0 arg #0: contiguity = [1], divisibility = [16], constancy = [1]}}
  scf.for %i = %c0 to %n step %c16 : i32 {
    // expected-remark @below {{result #0: contiguity = [1], divisibility = [16], constancy = [64]}}
    %is = tile.splat %i : i32 -> tensor<64xi32>
    // expected-remark @below {{result #0: contiguity = [64], divisibility = [16], constancy = [1]}}
    %offs = arith.addi %is, %r : tensor<64xi32>
    // expected-remark @below {{result #0: contiguity = [64], divisibility = [16], constancy = [1]}}
    %q = tile.addptr %ps, %offs : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
    tile.store %q, %c1f : tensor<64x!tile.ptr<f32>>
  }
  return
}

// -----

// scf.if joins what its branches yield; scf.while joins the loop-carried
// values like scf.for.
func.func @branches(%c: i1, %n: i32) {
  // expected-remark @below {{result #0: contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  // expected-remark @below {{result #0: contiguity = [64], divisibility = [8], constancy = [1]}}
  %x = scf.if %c -> tensor<64xi32> {
    // expected-remark @below {{result #0: contiguity = [1], divisibility = [64], constancy = [64], constant_value = 64}}
    %c64 = arith.constant dense<64> : tensor<64xi32>
    // expected-remark @below {{result #0: contiguity = [64], divisibility = [64], constancy = [1]}}
    %a = arith.addi %r, %c64 : tensor<64xi32>
    scf.yield %a : tensor<64xi32>
  } else {
    // expected-remark @below {{result #0: contiguity = [1], divisibility = [8], constancy = [64], constant_value = 8}}
    %c8 = arith.constant dense<8> : tensor<64xi32>
    // expected-remark @below {{result #0: contiguity = [64], divisibility = [8], constancy = [1]}}
    %b = arith.addi %r, %c8 : tensor<64xi32>
    scf.yield %b : tensor<64xi32>
  }

  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1073741824], constancy = [1], constant_value = 0}}
  %c0 = arith.constant 0 : i32
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [16], constancy = [1], constant_value = 16}}
  %c16 = arith.constant 16 : i32
  // expected-remark @below {{region #0 arg #0: contiguity = [1], divisibility = [16], constancy = [1], constant_value = <none>}}
  // expected-remark @below {{region #1 arg #0: contiguity = [1], divisibility = [16], constancy = [1], constant_value = <none>}}
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [16], constancy = [1], constant_value = <none>}}
  %w = scf.while (%i = %c0) : (i32) -> i32 {
    // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [1]}}
    %cond = arith.cmpi slt, %i, %n : i32
    scf.condition(%cond) %i : i32
  } do {
  ^bb0(%j: i32):
    // expected-remark @below {{result #0: contiguity = [1], divisibility = [16], constancy = [1], constant_value = <none>}}
    %k = arith.addi %j, %c16 : i32
    scf.yield %k : i32
  }
  return
}

// -----

// Unstructured control flow: block arguments join their predecessors.
// expected-remark @below {{region #0 block #3 arg #0: contiguity = [1], divisibility = [8], constancy = [1], constant_value = <none>}}
func.func @cfg(%c: i1) -> i32 {
  cf.cond_br %c, ^a, ^b
^a:
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [8], constancy = [1], constant_value = 24}}
  %x = arith.constant 24 : i32
  cf.br ^join(%x : i32)
^b:
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [32], constancy = [1], constant_value = 32}}
  %y = arith.constant 32 : i32
  cf.br ^join(%y : i32)
^join(%v: i32):
  return %v : i32
}

// -----

// Where the analysis must be conservative: offsets loaded from memory
// (a gather) are not contiguous, so the f32 pointers are only
// element-aligned; and calls to external functions are unknown.
func.func private @external(i32) -> i32

func.func @gather(%idx: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                  %x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  // expected-remark @below {{result #0: contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [16], constancy = [64]}}
  %is = tile.splat %idx : !tile.ptr<i32> -> tensor<64x!tile.ptr<i32>>
  // expected-remark @below {{result #0: contiguity = [64], divisibility = [16], constancy = [1]}}
  %ip = tile.addptr %is, %r : tensor<64x!tile.ptr<i32>>, tensor<64xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %offs = tile.load %ip : tensor<64x!tile.ptr<i32>>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [16], constancy = [64]}}
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [4], constancy = [1]}}
  %xp = tile.addptr %xs, %offs : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [16], constancy = [1], constant_value = 16}}
  %c16 = arith.constant 16 : i32
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %e = func.call @external(%c16) : (i32) -> i32
  // The minimum of two values: what divides both, no runs.
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [1]}}
  %min = arith.minsi %r, %offs : tensor<64xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [16], constancy = [1], constant_value = 16}}
  %max = arith.maxui %c16, %c16 : i32
  return
}

// -----

// Casts, bit operations and layout conversions.
#blocked = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#other = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @casts(%n: i32 {tile.divisibility = 16 : i32}) {
  // expected-remark @below {{result #0: contiguity = [512], divisibility = [1073741824], constancy = [1]}}
  %r = tile.make_range 0 to 512 : tensor<512xi32, #blocked>
  // expected-remark @below {{result #0: contiguity = [512], divisibility = [1073741824], constancy = [1]}}
  %cv = tilegpu.convert_layout %r : tensor<512xi32, #blocked> -> tensor<512xi32, #other>
  // expected-remark @below {{result #0: contiguity = [512], divisibility = [1073741824], constancy = [1]}}
  %wide = arith.extsi %cv : tensor<512xi32, #other> to tensor<512xi64, #other>
  // Truncating bounds runs by the signed range of the narrow type.
  // expected-remark @below {{result #0: contiguity = [128], divisibility = [128], constancy = [1]}}
  %narrow = arith.trunci %wide : tensor<512xi64, #other> to tensor<512xi8, #other>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [16], constancy = [1]}}
  %idx = arith.index_cast %n : i32 to index
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [16], constancy = [1], constant_value = 16}}
  %c16 = arith.constant 16 : i64
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [16], constancy = [1], constant_value = 16}}
  %c16i = arith.trunci %c16 : i64 to i32
  // Setting bits below known zero bits is an addition: n | 4 = n + 4.
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [4], constancy = [1], constant_value = 4}}
  %c4 = arith.constant 4 : i32
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [4], constancy = [1]}}
  %or = arith.ori %n, %c4 : i32
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [4], constancy = [1]}}
  %xor = arith.xori %n, %c4 : i32
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [1]}}
  %pid = tile.program_id x : i32
  // n & pid keeps n's low zero bits.
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [16], constancy = [1]}}
  %and = arith.andi %n, %pid : i32
  return
}

// -----

// join / split keep the lattice of the old dimensions; reshaping a splat
// gives a splat.
func.func @join_split(%n: i32 {tile.divisibility = 16 : i32}) {
  // expected-remark @below {{result #0: contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [256], constancy = [64], constant_value = 256}}
  %c256 = arith.constant dense<256> : tensor<64xi32>
  // expected-remark @below {{result #0: contiguity = [64], divisibility = [256], constancy = [1]}}
  %r2 = arith.addi %r, %c256 : tensor<64xi32>
  // expected-remark @below {{result #0: contiguity = [64, 1], divisibility = [256, 1], constancy = [1, 1]}}
  %j = tile.join %r, %r2 : tensor<64xi32> -> tensor<64x2xi32>
  // expected-remark @below {{result #0: contiguity = [64], divisibility = [256], constancy = [1]}}
  // expected-remark @below {{result #1: contiguity = [64], divisibility = [256], constancy = [1]}}
  %lo, %hi = tile.split %j : tensor<64x2xi32> -> tensor<64xi32>
  // expected-remark @below {{result #0: contiguity = [1, 1], divisibility = [16, 16], constancy = [4, 16]}}
  %s = tile.splat %n : i32 -> tensor<4x16xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [16], constancy = [64], constant_value = <none>}}
  %flat = tile.reshape %s : tensor<4x16xi32> -> tensor<64xi32>
  return
}

// -----

// The matmul tutorial's wrapped offsets, (pid * 128 + arange(128)) % M, with
// M a multiple of 16: runs of 16 stay consecutive and start at multiples of
// 16; with M of unknown divisibility nothing is known.
func.func @wrapped_offsets(%pid: i32, %m: i32 {tile.divisibility = 16 : i32}, %odd: i32) {
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [128], constancy = [1], constant_value = 128}}
  %c128 = arith.constant 128 : i32
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [128], constancy = [1]}}
  %base = arith.muli %pid, %c128 : i32
  // expected-remark @below {{result #0: contiguity = [128], divisibility = [1073741824], constancy = [1]}}
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [128], constancy = [128]}}
  %b = tile.splat %base : i32 -> tensor<128xi32>
  // expected-remark @below {{result #0: contiguity = [128], divisibility = [128], constancy = [1]}}
  %offs = arith.addi %b, %r : tensor<128xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [16], constancy = [128]}}
  %ms = tile.splat %m : i32 -> tensor<128xi32>
  // expected-remark @below {{result #0: contiguity = [16], divisibility = [16], constancy = [1]}}
  %wrapped = arith.remsi %offs, %ms : tensor<128xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [128]}}
  %os = tile.splat %odd : i32 -> tensor<128xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [1]}}
  %unknown = arith.remsi %offs, %os : tensor<128xi32>
  return
}

// -----

// Hints (tl.multiple_of, tl.max_contiguous, tl.max_constancy) replace what
// is derived for the op's results: offsets shifted by a loaded value are
// contiguous but of unknown divisibility, which the hint gives (3072: its
// power of two, 1024); contiguity and constancy hints become powers of two
// no larger than the shape; a hint of the wrong rank is ignored.
func.func @hints(%p: !tile.ptr<i32> {tile.divisibility = 16 : i32}) {
  // expected-remark @below {{result #0: contiguity = [1024], divisibility = [1073741824], constancy = [1], constant_value = <none>}}
  %range = tile.make_range 0 to 1024 : tensor<1024xi32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %off = tile.load %p : !tile.ptr<i32>
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [1], constancy = [1024], constant_value = <none>}}
  %offs = tile.splat %off : i32 -> tensor<1024xi32>
  // expected-remark @below {{result #0: contiguity = [1024], divisibility = [1], constancy = [1], constant_value = <none>}}
  %plain = arith.addi %range, %offs : tensor<1024xi32>
  // expected-remark @below {{result #0: contiguity = [1024], divisibility = [1024], constancy = [1], constant_value = <none>}}
  %hinted = arith.addi %range, %offs {tile.divisibility = array<i64: 3072>} : tensor<1024xi32>
  // expected-remark @below {{result #0: contiguity = [1024], divisibility = [1], constancy = [512], constant_value = <none>}}
  %capped = arith.addi %range, %offs {tile.contiguity = array<i64: 4096>, tile.constancy = array<i64: 600>} : tensor<1024xi32>
  // expected-remark @below {{result #0: contiguity = [1024], divisibility = [1], constancy = [1], constant_value = <none>}}
  %wrong_rank = arith.addi %range, %offs {tile.contiguity = array<i64: 4, 4>} : tensor<1024xi32>
  return
}
