// RUN: terrazzo-opt %s -split-input-file -terrazzo-promote-offsets | FileCheck %s

// pid * 1024 + arange wraps past 2^31 elements (pid may be up to 2^31 - 1):
// the address takes the expression rebuilt on i64 (the product, the splat,
// the sum), its parts that cannot wrap sign-extended; the mask's widening
// for the i64 bound takes the same i64 value, not the wrapped one.

// CHECK-LABEL: func.func @vector_add
// CHECK: %[[PID:.*]] = tile.program_id x : i32
// CHECK: %[[PID64:.*]] = arith.extsi %[[PID]] : i32 to i64
// CHECK: %[[C64:.*]] = arith.constant 1024 : i64
// CHECK: %[[START:.*]] = arith.muli %[[PID64]], %[[C64]] : i64
// CHECK: %[[R:.*]] = tile.make_range 0 to 1024 : tensor<1024xi32>
// CHECK: %[[R64:.*]] = arith.extsi %[[R]] : tensor<1024xi32> to tensor<1024xi64>
// CHECK: %[[SPLAT:.*]] = tile.splat %[[START]] : i64 -> tensor<1024xi64>
// CHECK: %[[OFFS:.*]] = arith.addi %[[SPLAT]], %[[R64]] : tensor<1024xi64>
// CHECK: %[[NS:.*]] = tile.splat %{{.*}} : i64 -> tensor<1024xi64>
// CHECK: arith.cmpi slt, %[[OFFS]], %[[NS]] : tensor<1024xi64>
// CHECK: tile.addptr %{{.*}}, %[[OFFS]] : tensor<1024x!tile.ptr<i8>>, tensor<1024xi64>
// CHECK-NOT: arith.extsi %{{.*}} : tensor<1024xi32> to tensor<1024xi64>
// CHECK: return
func.func @vector_add(%x: !tile.ptr<i8>, %n: i64) {
  %pid = tile.program_id x : i32
  %c1024 = arith.constant 1024 : i32
  %start = arith.muli %pid, %c1024 : i32
  %r = tile.make_range 0 to 1024 : tensor<1024xi32>
  %s = tile.splat %start : i32 -> tensor<1024xi32>
  %offs = arith.addi %s, %r : tensor<1024xi32>
  %wide = arith.extsi %offs : tensor<1024xi32> to tensor<1024xi64>
  %ns = tile.splat %n : i64 -> tensor<1024xi64>
  %m = arith.cmpi slt, %wide, %ns : tensor<1024xi64>
  %xs = tile.splat %x : !tile.ptr<i8> -> tensor<1024x!tile.ptr<i8>>
  %p = tile.addptr %xs, %offs : tensor<1024x!tile.ptr<i8>>, tensor<1024xi32>
  %v = tile.load %p, %m : tensor<1024x!tile.ptr<i8>>
  tile.store %p, %v, %m : tensor<1024x!tile.ptr<i8>>
  return
}

// -----

// An i32 bound: the signed comparison of a wrapping offset is made on the
// exact values (an offset past 2^31 - 1 is not below n).

// CHECK-LABEL: func.func @i32_bound
// CHECK: %[[N64:.*]] = arith.extsi %arg1 : i32 to i64
// CHECK: %[[OFFS:.*]] = arith.addi %{{.*}}, %{{.*}} : tensor<256xi64>
// CHECK: %[[NS:.*]] = tile.splat %[[N64]] : i64 -> tensor<256xi64>
// CHECK: %[[M:.*]] = arith.cmpi slt, %[[OFFS]], %[[NS]] : tensor<256xi64>
// CHECK: tile.addptr %{{.*}}, %[[OFFS]] : tensor<256x!tile.ptr<f32>>, tensor<256xi64>
// CHECK: tile.load %{{.*}}, %[[M]]
func.func @i32_bound(%x: !tile.ptr<f32>, %n: i32) {
  %pid = tile.program_id x : i32
  %c256 = arith.constant 256 : i32
  %start = arith.muli %pid, %c256 : i32
  %r = tile.make_range 0 to 256 : tensor<256xi32>
  %s = tile.splat %start : i32 -> tensor<256xi32>
  %offs = arith.addi %s, %r : tensor<256xi32>
  %ns = tile.splat %n : i32 -> tensor<256xi32>
  %m = arith.cmpi slt, %offs, %ns : tensor<256xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %p = tile.addptr %xs, %offs : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %v = tile.load %p, %m : tensor<256x!tile.ptr<f32>>
  tile.store %p, %v, %m : tensor<256x!tile.ptr<f32>>
  return
}

// -----

// A row times a stride argument may wrap (the classic row * stride past 2^31
// elements); the 2-D block's offsets are promoted through expand_dims and
// broadcast.

// CHECK-LABEL: func.func @row_stride
// CHECK: arith.muli %{{.*}}, %{{.*}} : i64
// CHECK: tile.expand_dims %{{.*}} axis = 1 : tensor<16xi64> -> tensor<16x1xi64>
// CHECK: tile.broadcast %{{.*}} : tensor<16x1xi64> -> tensor<16x64xi64>
// CHECK: tile.addptr %{{.*}}, %{{.*}} : tensor<16x64x!tile.ptr<f32>>, tensor<16x64xi64>
func.func @row_stride(%x: !tile.ptr<f32>, %stride: i32) {
  %pid = tile.program_id x : i32
  %c16 = arith.constant 16 : i32
  %row0 = arith.muli %pid, %c16 : i32
  %r = tile.make_range 0 to 16 : tensor<16xi32>
  %row0s = tile.splat %row0 : i32 -> tensor<16xi32>
  %rows = arith.addi %row0s, %r : tensor<16xi32>
  %ss = tile.splat %stride : i32 -> tensor<16xi32>
  %rowoff = arith.muli %rows, %ss : tensor<16xi32>
  %e = tile.expand_dims %rowoff axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %b = tile.broadcast %e : tensor<16x1xi32> -> tensor<16x64xi32>
  %c = tile.make_range 0 to 64 : tensor<64xi32>
  %ce = tile.expand_dims %c axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %cb = tile.broadcast %ce : tensor<1x64xi32> -> tensor<16x64xi32>
  %offs = arith.addi %b, %cb : tensor<16x64xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<16x64x!tile.ptr<f32>>
  %p = tile.addptr %xs, %offs : tensor<16x64x!tile.ptr<f32>>, tensor<16x64xi32>
  %v = tile.load %p : tensor<16x64x!tile.ptr<f32>>
  tile.store %p, %v : tensor<16x64x!tile.ptr<f32>>
  return
}

// -----

// NEGATIVE: offsets proven to stay in i32 (a 64 x 64 block, rows * 64 + cols,
// plus a constant; an unsigned comparison; a product of make_ranges) are
// left as they are.

// CHECK-LABEL: func.func @provable
// CHECK-NOT: i64
// CHECK: return
func.func @provable(%x: !tile.ptr<f32>, %n: i32) {
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %c64 = arith.constant dense<64> : tensor<64xi32>
  %rows = arith.muli %r, %c64 : tensor<64xi32>
  %re = tile.expand_dims %rows axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %rb = tile.broadcast %re : tensor<64x1xi32> -> tensor<64x64xi32>
  %ce = tile.expand_dims %r axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %cb = tile.broadcast %ce : tensor<1x64xi32> -> tensor<64x64xi32>
  %sum = arith.addi %rb, %cb : tensor<64x64xi32>
  %c7 = arith.constant dense<7> : tensor<64x64xi32>
  %offs = arith.addi %sum, %c7 : tensor<64x64xi32>
  %sq = arith.muli %offs, %offs : tensor<64x64xi32>
  %ns = tile.splat %n : i32 -> tensor<64x64xi32>
  %m = arith.cmpi slt, %sq, %ns : tensor<64x64xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  %p = tile.addptr %xs, %offs : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  %v = tile.load %p, %m : tensor<64x64x!tile.ptr<f32>>
  tile.store %p, %v : tensor<64x64x!tile.ptr<f32>>
  return
}

// -----

// NEGATIVE: an unsigned comparison is about the bits and stays on i32; the
// addptr of the same wrapping offset is still promoted.

// CHECK-LABEL: func.func @unsigned_compare
// CHECK: arith.cmpi ult, %{{.*}}, %{{.*}} : tensor<128xi32>
// CHECK: tile.addptr %{{.*}}, %{{.*}} : tensor<128x!tile.ptr<f32>>, tensor<128xi64>
func.func @unsigned_compare(%x: !tile.ptr<f32>, %n: i32) {
  %pid = tile.program_id x : i32
  %c128 = arith.constant 128 : i32
  %start = arith.muli %pid, %c128 : i32
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %s = tile.splat %start : i32 -> tensor<128xi32>
  %offs = arith.addi %s, %r : tensor<128xi32>
  %ns = tile.splat %n : i32 -> tensor<128xi32>
  %m = arith.cmpi ult, %offs, %ns : tensor<128xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %p = tile.addptr %xs, %offs : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %v = tile.load %p, %m : tensor<128x!tile.ptr<f32>>
  tile.store %p, %v, %m : tensor<128x!tile.ptr<f32>>
  return
}

// -----

// NEGATIVE: a comparison that does not make a mask (a causal mask's select
// in an attention loop) keeps Triton's wrapping i32 arithmetic.

// CHECK-LABEL: func.func @compare_not_a_mask
// CHECK: arith.cmpi sge, %{{.*}}, %{{.*}} : tensor<64xi32>
// CHECK: arith.select
func.func @compare_not_a_mask(%x: !tile.ptr<f32>, %k: i32) {
  %pid = tile.program_id x : i32
  %c64 = arith.constant 64 : i32
  %start = arith.muli %pid, %c64 : i32
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %s = tile.splat %start : i32 -> tensor<64xi32>
  %offs = arith.addi %s, %r : tensor<64xi32>
  %ks = tile.splat %k : i32 -> tensor<64xi32>
  %causal = arith.cmpi sge, %offs, %ks : tensor<64xi32>
  %zero = arith.constant dense<0.0> : tensor<64xf32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %p = tile.addptr %xs, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %v = tile.load %p : tensor<64x!tile.ptr<f32>>
  %w = arith.select %causal, %v, %zero : tensor<64xi1>, tensor<64xf32>
  tile.store %p, %w : tensor<64x!tile.ptr<f32>>
  return
}
