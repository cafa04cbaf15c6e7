// RUN: terrazzo-opt %s | terrazzo-opt | FileCheck %s
// RUN: terrazzo-opt %s --mlir-print-op-generic | terrazzo-opt | FileCheck %s

// Round trip of every op and type of the tile dialect, through the custom
// and through the generic form. Function arguments print as %argN, which the
// checks below match literally; op results are captured.

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// The default address space (1) is elided; any other one is printed.
// CHECK-LABEL: func.func @types(
// CHECK-SAME: %arg0: !tile.ptr<f32>,
// CHECK-SAME: %arg1: !tile.ptr<f16, 3>,
// CHECK-SAME: %arg2: !tile.ptr<f32>,
// CHECK-SAME: %arg3: !tile.ptr<i8, 0>,
// CHECK-SAME: %arg4: !tile.ptr<!tile.ptr<bf16>>,
// CHECK-SAME: %arg5: tensor<16x!tile.ptr<i64, 5>>,
// CHECK-SAME: %arg6: !tile.tensordesc<tensor<64x32xf16>>,
// CHECK-SAME: %arg7: !tile.ptr<f8E4M3FN>,
// CHECK-SAME: %arg8: tensor<2x4x!tile.ptr<i1>>,
// CHECK-SAME: %arg9: !tile.tensordesc<tensor<128xi8>>)
// CHECK-SAME: -> !tile.ptr<f16, 3>
func.func @types(%a: !tile.ptr<f32>, %b: !tile.ptr<f16, 3>, %c: !tile.ptr<f32, 1>,
                 %d: !tile.ptr<i8, 0>, %e: !tile.ptr<!tile.ptr<bf16>>,
                 %f: tensor<16x!tile.ptr<i64, 5>>,
                 %g: !tile.tensordesc<tensor<64x32xf16>>, %h: !tile.ptr<f8E4M3FN>,
                 %i: tensor<2x4x!tile.ptr<i1>>, %j: !tile.tensordesc<tensor<128xi8>>)
    -> !tile.ptr<f16, 3> {
  // CHECK: return %arg1 : !tile.ptr<f16, 3>
  return %b : !tile.ptr<f16, 3>
}

//===----------------------------------------------------------------------===//
// Grid
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @grid()
// CHECK: %[[PX:.*]] = tile.program_id x : i32
// CHECK: %[[PY:.*]] = tile.program_id y : i32
// CHECK: %[[PZ:.*]] = tile.program_id z : i32
// CHECK: %[[NX:.*]] = tile.num_programs x : i32
// CHECK: %[[NY:.*]] = tile.num_programs y : i32
// CHECK: %[[NZ:.*]] = tile.num_programs z : i32
// CHECK: return %[[PX]], %[[PY]], %[[PZ]], %[[NX]], %[[NY]], %[[NZ]]
func.func @grid() -> (i32, i32, i32, i32, i32, i32) {
  %0 = tile.program_id x : i32
  %1 = tile.program_id y : i32
  %2 = tile.program_id z : i32
  %3 = tile.num_programs x : i32
  %4 = tile.num_programs y : i32
  %5 = tile.num_programs z : i32
  return %0, %1, %2, %3, %4, %5 : i32, i32, i32, i32, i32, i32
}

//===----------------------------------------------------------------------===//
// Creating and reshaping blocks
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @shapes(
// CHECK: %[[R0:.*]] = tile.make_range 0 to 128 : tensor<128xi32>
// CHECK: %[[R1:.*]] = tile.make_range 16 to 32 : tensor<16xi32>
// CHECK: %[[S0:.*]] = tile.splat %arg0 : f32 -> tensor<4x8xf32>
// CHECK: %[[S1:.*]] = tile.splat %arg1 : !tile.ptr<f16> -> tensor<64x!tile.ptr<f16>>
// CHECK: %[[S2:.*]] = tile.splat %arg0 : f32 -> tensor<f32>
// CHECK: %[[B0:.*]] = tile.broadcast %arg2 : tensor<4x1xf32> -> tensor<4x8xf32>
// CHECK: %[[B1:.*]] = tile.broadcast %arg2 : tensor<4x1xf32> -> tensor<4x1xf32>
// CHECK: %[[E0:.*]] = tile.expand_dims %[[R1]] axis = 0 : tensor<16xi32> -> tensor<1x16xi32>
// CHECK: %[[E1:.*]] = tile.expand_dims %[[R1]] axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
// CHECK: %[[E2:.*]] = tile.expand_dims %arg4 axis = 3 : tensor<2x3x4xi8> -> tensor<2x3x4x1xi8>
// CHECK: %[[V0:.*]] = tile.reshape %arg3 : tensor<8x16xf32> -> tensor<128xf32>
// CHECK: %[[V1:.*]] = tile.reshape %arg3 allow_reorder : tensor<8x16xf32> -> tensor<4x32xf32>
// CHECK: %[[T0:.*]] = tile.trans %arg3 [1, 0] : tensor<8x16xf32> -> tensor<16x8xf32>
// CHECK: %[[T1:.*]] = tile.trans %arg4 [2, 0, 1] : tensor<2x3x4xi8> -> tensor<4x2x3xi8>
// CHECK: %[[J:.*]] = tile.join %arg3, %arg3 : tensor<8x16xf32> -> tensor<8x16x2xf32>
// CHECK: %[[SL:.*]], %[[SR:.*]] = tile.split %[[J]] : tensor<8x16x2xf32> -> tensor<8x16xf32>
// CHECK: %[[J1:.*]] = tile.join %arg5, %arg5 : tensor<4x!tile.ptr<f32>> -> tensor<4x2x!tile.ptr<f32>>
// CHECK: return %[[R0]], %[[S0]], %[[S1]], %[[S2]], %[[B0]], %[[B1]], %[[E0]], %[[E1]], %[[E2]], %[[V0]], %[[V1]], %[[T0]], %[[T1]], %[[SL]], %[[SR]], %[[J1]] :
func.func @shapes(%s: f32, %p: !tile.ptr<f16>, %t: tensor<4x1xf32>,
                  %u: tensor<8x16xf32>, %w: tensor<2x3x4xi8>,
                  %q: tensor<4x!tile.ptr<f32>>)
    -> (tensor<128xi32>, tensor<4x8xf32>, tensor<64x!tile.ptr<f16>>, tensor<f32>,
        tensor<4x8xf32>, tensor<4x1xf32>, tensor<1x16xi32>, tensor<16x1xi32>,
        tensor<2x3x4x1xi8>, tensor<128xf32>, tensor<4x32xf32>, tensor<16x8xf32>,
        tensor<4x2x3xi8>, tensor<8x16xf32>, tensor<8x16xf32>,
        tensor<4x2x!tile.ptr<f32>>) {
  %0 = tile.make_range 0 to 128 : tensor<128xi32>
  %1 = tile.make_range 16 to 32 : tensor<16xi32>
  %2 = tile.splat %s : f32 -> tensor<4x8xf32>
  %3 = tile.splat %p : !tile.ptr<f16> -> tensor<64x!tile.ptr<f16>>
  %4 = tile.splat %s : f32 -> tensor<f32>
  %5 = tile.broadcast %t : tensor<4x1xf32> -> tensor<4x8xf32>
  %6 = tile.broadcast %t : tensor<4x1xf32> -> tensor<4x1xf32>
  %7 = tile.expand_dims %1 axis = 0 : tensor<16xi32> -> tensor<1x16xi32>
  %8 = tile.expand_dims %1 axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %9 = tile.expand_dims %w axis = 3 : tensor<2x3x4xi8> -> tensor<2x3x4x1xi8>
  %10 = tile.reshape %u : tensor<8x16xf32> -> tensor<128xf32>
  %11 = tile.reshape %u allow_reorder : tensor<8x16xf32> -> tensor<4x32xf32>
  %12 = tile.trans %u [1, 0] : tensor<8x16xf32> -> tensor<16x8xf32>
  %13 = tile.trans %w [2, 0, 1] : tensor<2x3x4xi8> -> tensor<4x2x3xi8>
  %14 = tile.join %u, %u : tensor<8x16xf32> -> tensor<8x16x2xf32>
  %15:2 = tile.split %14 : tensor<8x16x2xf32> -> tensor<8x16xf32>
  %16 = tile.join %q, %q : tensor<4x!tile.ptr<f32>> -> tensor<4x2x!tile.ptr<f32>>
  return %0, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %15#0, %15#1, %16
      : tensor<128xi32>, tensor<4x8xf32>, tensor<64x!tile.ptr<f16>>, tensor<f32>,
        tensor<4x8xf32>, tensor<4x1xf32>, tensor<1x16xi32>, tensor<16x1xi32>,
        tensor<2x3x4x1xi8>, tensor<128xf32>, tensor<4x32xf32>, tensor<16x8xf32>,
        tensor<4x2x3xi8>, tensor<8x16xf32>, tensor<8x16xf32>,
        tensor<4x2x!tile.ptr<f32>>
}

//===----------------------------------------------------------------------===//
// Pointers
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @pointers(
// CHECK: %[[A0:.*]] = tile.addptr %arg0, %arg2 : !tile.ptr<f32>, i32
// CHECK: %[[A1:.*]] = tile.addptr %arg0, %arg3 : !tile.ptr<f32>, i64
// CHECK: %[[A2:.*]] = tile.addptr %arg1, %arg4 : tensor<16x!tile.ptr<f16, 3>>, tensor<16xi32>
// CHECK: %[[I0:.*]] = tile.ptr_to_int %arg0 : !tile.ptr<f32> -> i64
// CHECK: %[[P0:.*]] = tile.int_to_ptr %[[I0]] : i64 -> !tile.ptr<i8>
// CHECK: %[[I1:.*]] = tile.ptr_to_int %arg1 : tensor<16x!tile.ptr<f16, 3>> -> tensor<16xi64>
// CHECK: %[[P1:.*]] = tile.int_to_ptr %[[I1]] : tensor<16xi64> -> tensor<16x!tile.ptr<f16, 3>>
// CHECK: return %[[A0]], %[[A1]], %[[A2]], %[[P0]], %[[P1]] :
func.func @pointers(%p: !tile.ptr<f32>, %q: tensor<16x!tile.ptr<f16, 3>>, %o32: i32,
                    %o64: i64, %offs: tensor<16xi32>)
    -> (!tile.ptr<f32>, !tile.ptr<f32>, tensor<16x!tile.ptr<f16, 3>>,
        !tile.ptr<i8>, tensor<16x!tile.ptr<f16, 3>>) {
  %0 = tile.addptr %p, %o32 : !tile.ptr<f32>, i32
  %1 = tile.addptr %p, %o64 : !tile.ptr<f32>, i64
  %2 = tile.addptr %q, %offs : tensor<16x!tile.ptr<f16, 3>>, tensor<16xi32>
  %3 = tile.ptr_to_int %p : !tile.ptr<f32> -> i64
  %4 = tile.int_to_ptr %3 : i64 -> !tile.ptr<i8>
  %5 = tile.ptr_to_int %q : tensor<16x!tile.ptr<f16, 3>> -> tensor<16xi64>
  %6 = tile.int_to_ptr %5 : tensor<16xi64> -> tensor<16x!tile.ptr<f16, 3>>
  return %0, %1, %2, %4, %6 : !tile.ptr<f32>, !tile.ptr<f32>,
      tensor<16x!tile.ptr<f16, 3>>, !tile.ptr<i8>, tensor<16x!tile.ptr<f16, 3>>
}

//===----------------------------------------------------------------------===//
// Loads and stores
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @loads(
// CHECK: %[[L0:.*]] = tile.load %arg0 : tensor<16x!tile.ptr<f32>>
// CHECK: %[[L1:.*]] = tile.load %arg0, %arg1 : tensor<16x!tile.ptr<f32>>
// CHECK: %[[L2:.*]] = tile.load %arg0, %arg1, %arg2 : tensor<16x!tile.ptr<f32>>
// CHECK: %[[L3:.*]] = tile.load %arg0, %arg1, %arg2 cache = cg evict = evict_last volatile : tensor<16x!tile.ptr<f32>>
// The oilist keywords may come in any order; they print in declaration order.
// CHECK: %[[L4:.*]] = tile.load %arg3 cache = ca evict = evict_first : !tile.ptr<f32>
// CHECK: %[[L5:.*]] = tile.load %arg3, %arg4, %[[L4]] cache = cs : !tile.ptr<f32>
// CHECK: %[[L6:.*]] = tile.load %arg3 evict = evict_normal : !tile.ptr<f32>
// CHECK: %[[L7:.*]] = tile.load %arg3 cache = cv volatile : !tile.ptr<f32>
// CHECK: %[[L8:.*]] = tile.load %arg5 volatile : !tile.ptr<i64, 3>
// CHECK: return %[[L0]], %[[L1]], %[[L2]], %[[L3]], %[[L4]], %[[L5]], %[[L6]], %[[L7]], %[[L8]] :
func.func @loads(%p: tensor<16x!tile.ptr<f32>>, %m: tensor<16xi1>, %o: tensor<16xf32>,
                 %s: !tile.ptr<f32>, %sm: i1, %shared: !tile.ptr<i64, 3>)
    -> (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, f32, f32,
        f32, f32, i64) {
  %0 = tile.load %p : tensor<16x!tile.ptr<f32>>
  %1 = tile.load %p, %m : tensor<16x!tile.ptr<f32>>
  %2 = tile.load %p, %m, %o : tensor<16x!tile.ptr<f32>>
  %3 = tile.load %p, %m, %o cache = cg evict = evict_last volatile : tensor<16x!tile.ptr<f32>>
  %4 = tile.load %s evict = evict_first cache = ca : !tile.ptr<f32>
  %5 = tile.load %s, %sm, %4 cache = cs : !tile.ptr<f32>
  %6 = tile.load %s evict = evict_normal : !tile.ptr<f32>
  %7 = tile.load %s cache = cv volatile : !tile.ptr<f32>
  %8 = tile.load %shared volatile : !tile.ptr<i64, 3>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<16xf32>, tensor<16xf32>,
      tensor<16xf32>, tensor<16xf32>, f32, f32, f32, f32, i64
}

// CHECK-LABEL: func.func @stores(
// CHECK: tile.store %arg0, %arg2 : tensor<16x!tile.ptr<f32>>
// CHECK: tile.store %arg0, %arg2, %arg1 : tensor<16x!tile.ptr<f32>>
// CHECK: tile.store %arg0, %arg2, %arg1 cache = wb : tensor<16x!tile.ptr<f32>>
// CHECK: tile.store %arg0, %arg2 cache = wt evict = evict_first : tensor<16x!tile.ptr<f32>>
// CHECK: tile.store %arg0, %arg2 cache = cg : tensor<16x!tile.ptr<f32>>
// CHECK: tile.store %arg0, %arg2 cache = cs evict = evict_last : tensor<16x!tile.ptr<f32>>
// CHECK: tile.store %arg3, %arg4 evict = evict_normal : !tile.ptr<bf16, 3>
// CHECK: tile.store %arg3, %arg4, %arg5 : !tile.ptr<bf16, 3>
// CHECK: tile.store %arg6, %arg7 : tensor<2x2x!tile.ptr<!tile.ptr<f32>>>
func.func @stores(%p: tensor<16x!tile.ptr<f32>>, %m: tensor<16xi1>, %v: tensor<16xf32>,
                  %s: !tile.ptr<bf16, 3>, %sv: bf16, %sm: i1,
                  %pp: tensor<2x2x!tile.ptr<!tile.ptr<f32>>>,
                  %pv: tensor<2x2x!tile.ptr<f32>>) {
  tile.store %p, %v : tensor<16x!tile.ptr<f32>>
  tile.store %p, %v, %m : tensor<16x!tile.ptr<f32>>
  tile.store %p, %v, %m cache = wb : tensor<16x!tile.ptr<f32>>
  tile.store %p, %v evict = evict_first cache = wt : tensor<16x!tile.ptr<f32>>
  tile.store %p, %v cache = cg : tensor<16x!tile.ptr<f32>>
  tile.store %p, %v cache = cs evict = evict_last : tensor<16x!tile.ptr<f32>>
  tile.store %s, %sv evict = evict_normal : !tile.ptr<bf16, 3>
  tile.store %s, %sv, %sm : !tile.ptr<bf16, 3>
  tile.store %pp, %pv : tensor<2x2x!tile.ptr<!tile.ptr<f32>>>
  return
}

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @atomics(
// CHECK: %[[X0:.*]] = tile.atomic_rmw and, relaxed, gpu, %arg0, %arg1 : tensor<16x!tile.ptr<i32>>
// CHECK: %[[X1:.*]] = tile.atomic_rmw or, acquire, cta, %arg0, %arg1, %arg2 : tensor<16x!tile.ptr<i32>>
// CHECK: %[[X2:.*]] = tile.atomic_rmw xor, release, sys, %arg0, %arg1 : tensor<16x!tile.ptr<i32>>
// CHECK: %[[X3:.*]] = tile.atomic_rmw add, acq_rel, gpu, %arg3, %arg4 : !tile.ptr<i64>
// CHECK: %[[X4:.*]] = tile.atomic_rmw fadd, acq_rel, gpu, %arg5, %arg6, %arg2 : tensor<16x!tile.ptr<f32>>
// CHECK: %[[X5:.*]] = tile.atomic_rmw fadd, relaxed, cta, %arg7, %arg8, %arg9 : !tile.ptr<f16>
// CHECK: %[[X6:.*]] = tile.atomic_rmw max, relaxed, gpu, %arg0, %arg1 : tensor<16x!tile.ptr<i32>>
// CHECK: %[[X7:.*]] = tile.atomic_rmw min, acquire, sys, %arg5, %arg6 : tensor<16x!tile.ptr<f32>>
// CHECK: %[[X8:.*]] = tile.atomic_rmw umax, release, cta, %arg3, %arg4, %arg9 : !tile.ptr<i64>
// CHECK: %[[X9:.*]] = tile.atomic_rmw umin, relaxed, gpu, %arg0, %arg1, %arg2 : tensor<16x!tile.ptr<i32>>
// CHECK: %[[X10:.*]] = tile.atomic_rmw xchg, acq_rel, sys, %arg7, %arg8 : !tile.ptr<f16>
// CHECK: %[[X11:.*]] = tile.atomic_rmw xchg, relaxed, gpu, %arg3, %arg4 : !tile.ptr<i64>
// CHECK: %[[C0:.*]] = tile.atomic_cas acq_rel, gpu, %arg0, %arg1, %[[X0]] : tensor<16x!tile.ptr<i32>>
// CHECK: %[[C1:.*]] = tile.atomic_cas relaxed, sys, %arg7, %arg8, %[[X5]] : !tile.ptr<f16>
// CHECK: %[[C2:.*]] = tile.atomic_cas acquire, cta, %arg3, %arg4, %[[X3]] : !tile.ptr<i64>
// CHECK: return %[[X0]], %[[X1]], %[[X2]], %[[X3]], %[[X4]], %[[X5]], %[[X6]], %[[X7]], %[[X8]], %[[X9]], %[[X10]], %[[X11]], %[[C0]], %[[C1]], %[[C2]] :
func.func @atomics(%pi: tensor<16x!tile.ptr<i32>>, %vi: tensor<16xi32>, %m: tensor<16xi1>,
                   %si: !tile.ptr<i64>, %svi: i64,
                   %pf: tensor<16x!tile.ptr<f32>>, %vf: tensor<16xf32>,
                   %sh: !tile.ptr<f16>, %svh: f16, %sm: i1)
    -> (tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, i64, tensor<16xf32>, f16,
        tensor<16xi32>, tensor<16xf32>, i64, tensor<16xi32>, f16, i64,
        tensor<16xi32>, f16, i64) {
  %0 = tile.atomic_rmw and, relaxed, gpu, %pi, %vi : tensor<16x!tile.ptr<i32>>
  %1 = tile.atomic_rmw or, acquire, cta, %pi, %vi, %m : tensor<16x!tile.ptr<i32>>
  %2 = tile.atomic_rmw xor, release, sys, %pi, %vi : tensor<16x!tile.ptr<i32>>
  %3 = tile.atomic_rmw add, acq_rel, gpu, %si, %svi : !tile.ptr<i64>
  %4 = tile.atomic_rmw fadd, acq_rel, gpu, %pf, %vf, %m : tensor<16x!tile.ptr<f32>>
  %5 = tile.atomic_rmw fadd, relaxed, cta, %sh, %svh, %sm : !tile.ptr<f16>
  %6 = tile.atomic_rmw max, relaxed, gpu, %pi, %vi : tensor<16x!tile.ptr<i32>>
  %7 = tile.atomic_rmw min, acquire, sys, %pf, %vf : tensor<16x!tile.ptr<f32>>
  %8 = tile.atomic_rmw umax, release, cta, %si, %svi, %sm : !tile.ptr<i64>
  %9 = tile.atomic_rmw umin, relaxed, gpu, %pi, %vi, %m : tensor<16x!tile.ptr<i32>>
  %10 = tile.atomic_rmw xchg, acq_rel, sys, %sh, %svh : !tile.ptr<f16>
  %11 = tile.atomic_rmw xchg, relaxed, gpu, %si, %svi : !tile.ptr<i64>
  %12 = tile.atomic_cas acq_rel, gpu, %pi, %vi, %0 : tensor<16x!tile.ptr<i32>>
  %13 = tile.atomic_cas relaxed, sys, %sh, %svh, %5 : !tile.ptr<f16>
  %14 = tile.atomic_cas acquire, cta, %si, %svi, %3 : !tile.ptr<i64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14
      : tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, i64, tensor<16xf32>, f16,
        tensor<16xi32>, tensor<16xf32>, i64, tensor<16xi32>, f16, i64,
        tensor<16xi32>, f16, i64
}

//===----------------------------------------------------------------------===//
// Tensor descriptors
//===----------------------------------------------------------------------===//

// Operands whose constraint is a tile type print that type in its short form
// (`<f16>` for `!tile.ptr<f16>`); both forms parse.
// CHECK-LABEL: func.func @descriptors(
// CHECK: %[[D0:.*]] = tile.make_tensor_desc %arg0, [%arg1, %arg2], [%arg3, %arg4] : <f16> -> <tensor<64x32xf16>>
// CHECK: %[[B0:.*]] = tile.desc_load %[[D0]][%arg5, %arg6] : <tensor<64x32xf16>> -> tensor<64x32xf16>
// CHECK: %[[B1:.*]] = tile.desc_load %[[D0]][%arg5, %arg6] cache = cg evict = evict_first : <tensor<64x32xf16>> -> tensor<64x32xf16>
// CHECK: tile.desc_store %[[D0]][%arg6, %arg5], %[[B0]] : <tensor<64x32xf16>>, tensor<64x32xf16>
// CHECK: %[[D1:.*]] = tile.make_tensor_desc %arg7, [%arg1], [%arg4] : <i8, 3> -> <tensor<128xi8>>
// CHECK: %[[B2:.*]] = tile.desc_load %[[D1]][%arg5] evict = evict_last : <tensor<128xi8>> -> tensor<128xi8>
// CHECK: tile.desc_store %[[D1]][%arg6], %[[B2]] : <tensor<128xi8>>, tensor<128xi8>
// CHECK: %[[D2:.*]] = tile.make_tensor_desc %arg0, [%arg1, %arg2, %arg1], [%arg3, %arg4, %arg4] : <f16> -> <tensor<2x16x8xf16>>
// CHECK: return %[[B1]], %[[D2]] : tensor<64x32xf16>, !tile.tensordesc<tensor<2x16x8xf16>>
func.func @descriptors(%base: !tile.ptr<f16>, %m: i32, %n: i32, %sm: i64, %sn: i64,
                       %i: i32, %j: i32, %bytes: !tile.ptr<i8, 3>)
    -> (tensor<64x32xf16>, !tile.tensordesc<tensor<2x16x8xf16>>) {
  %0 = tile.make_tensor_desc %base, [%m, %n], [%sm, %sn] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x32xf16>>
  %1 = tile.desc_load %0[%i, %j] : !tile.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
  %2 = tile.desc_load %0[%i, %j] evict = evict_first cache = cg : !tile.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
  tile.desc_store %0[%j, %i], %1 : !tile.tensordesc<tensor<64x32xf16>>, tensor<64x32xf16>
  // The short type form parses too.
  %3 = tile.make_tensor_desc %bytes, [%m], [%sn] : <i8, 3> -> <tensor<128xi8>>
  %4 = tile.desc_load %3[%i] evict = evict_last : <tensor<128xi8>> -> tensor<128xi8>
  tile.desc_store %3[%j], %4 : !tile.tensordesc<tensor<128xi8>>, tensor<128xi8>
  %5 = tile.make_tensor_desc %base, [%m, %n, %m], [%sm, %sn, %sn] : !tile.ptr<f16> -> !tile.tensordesc<tensor<2x16x8xf16>>
  return %2, %5 : tensor<64x32xf16>, !tile.tensordesc<tensor<2x16x8xf16>>
}

//===----------------------------------------------------------------------===//
// Dot
//===----------------------------------------------------------------------===//

// The default precision (ieee) and the default maxNumImpreciseAcc (0) are
// elided.
// CHECK-LABEL: func.func @dots(
// CHECK: %[[D0:.*]] = tile.dot %arg0, %arg1, %arg2 : tensor<16x32xf16> * tensor<32x64xf16> -> tensor<16x64xf32>
// CHECK: %[[D1:.*]] = tile.dot %arg0, %arg1, %arg3 : tensor<16x32xf16> * tensor<32x64xf16> -> tensor<16x64xf16>
// CHECK: %[[D2:.*]] = tile.dot %arg4, %arg5, %arg2 : tensor<16x32xbf16> * tensor<32x64xbf16> -> tensor<16x64xf32>
// CHECK: %[[D3:.*]] = tile.dot %arg6, %arg7, %arg2 : tensor<16x32xf32> * tensor<32x64xf32> -> tensor<16x64xf32>
// CHECK: %[[D4:.*]] = tile.dot %arg6, %arg7, %arg2 precision = tf32 : tensor<16x32xf32> * tensor<32x64xf32> -> tensor<16x64xf32>
// CHECK: %[[D5:.*]] = tile.dot %arg6, %arg7, %arg2 precision = tf32x3 : tensor<16x32xf32> * tensor<32x64xf32> -> tensor<16x64xf32>
// CHECK: %[[D6:.*]] = tile.dot %arg6, %arg7, %arg2 : tensor<16x32xf32> * tensor<32x64xf32> -> tensor<16x64xf32>
// CHECK: %[[D7:.*]] = tile.dot %arg8, %arg9, %arg10 : tensor<16x32xf64> * tensor<32x64xf64> -> tensor<16x64xf64>
// CHECK: %[[D8:.*]] = tile.dot %arg11, %arg12, %arg2 {maxNumImpreciseAcc = 32 : i32} : tensor<16x32xf8E4M3FN> * tensor<32x64xf8E5M2> -> tensor<16x64xf32>
// CHECK: %[[D9:.*]] = tile.dot %arg11, %arg13, %arg3 : tensor<16x32xf8E4M3FN> * tensor<32x64xf8E4M3FN> -> tensor<16x64xf16>
// CHECK: %[[D10:.*]] = tile.dot %arg14, %arg15, %arg16 : tensor<16x32xi8> * tensor<32x64xi8> -> tensor<16x64xi32>
// CHECK: %[[D11:.*]] = tile.dot %arg17, %arg18, %arg19 : tensor<4x16x32xf16> * tensor<4x32x64xf16> -> tensor<4x16x64xf32>
// CHECK: %[[D12:.*]] = tile.dot %arg20, %arg21, %arg22 precision = tf32 : tensor<2x64x16xf32> * tensor<2x16x32xf32> -> tensor<2x64x32xf32>
// CHECK: return %[[D0]], %[[D1]], %[[D2]], %[[D3]], %[[D4]], %[[D5]], %[[D6]], %[[D7]], %[[D8]], %[[D9]], %[[D10]], %[[D11]], %[[D12]] :
func.func @dots(%a16: tensor<16x32xf16>, %b16: tensor<32x64xf16>, %c32: tensor<16x64xf32>,
                %c16: tensor<16x64xf16>, %abf: tensor<16x32xbf16>, %bbf: tensor<32x64xbf16>,
                %a32: tensor<16x32xf32>, %b32: tensor<32x64xf32>,
                %a64: tensor<16x32xf64>, %b64: tensor<32x64xf64>, %c64: tensor<16x64xf64>,
                %a8: tensor<16x32xf8E4M3FN>, %b8: tensor<32x64xf8E5M2>,
                %b8b: tensor<32x64xf8E4M3FN>,
                %ai: tensor<16x32xi8>, %bi: tensor<32x64xi8>, %ci: tensor<16x64xi32>,
                %ba: tensor<4x16x32xf16>, %bb: tensor<4x32x64xf16>, %bc: tensor<4x16x64xf32>,
                %ta: tensor<2x64x16xf32>, %tb: tensor<2x16x32xf32>, %tc: tensor<2x64x32xf32>)
    -> (tensor<16x64xf32>, tensor<16x64xf16>, tensor<16x64xf32>, tensor<16x64xf32>,
        tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf64>,
        tensor<16x64xf32>, tensor<16x64xf16>, tensor<16x64xi32>, tensor<4x16x64xf32>,
        tensor<2x64x32xf32>) {
  %0 = tile.dot %a16, %b16, %c32 : tensor<16x32xf16> * tensor<32x64xf16> -> tensor<16x64xf32>
  %1 = tile.dot %a16, %b16, %c16 : tensor<16x32xf16> * tensor<32x64xf16> -> tensor<16x64xf16>
  %2 = tile.dot %abf, %bbf, %c32 : tensor<16x32xbf16> * tensor<32x64xbf16> -> tensor<16x64xf32>
  %3 = tile.dot %a32, %b32, %c32 : tensor<16x32xf32> * tensor<32x64xf32> -> tensor<16x64xf32>
  %4 = tile.dot %a32, %b32, %c32 precision = tf32 : tensor<16x32xf32> * tensor<32x64xf32> -> tensor<16x64xf32>
  %5 = tile.dot %a32, %b32, %c32 precision = tf32x3 : tensor<16x32xf32> * tensor<32x64xf32> -> tensor<16x64xf32>
  %6 = tile.dot %a32, %b32, %c32 precision = ieee : tensor<16x32xf32> * tensor<32x64xf32> -> tensor<16x64xf32>
  %7 = tile.dot %a64, %b64, %c64 : tensor<16x32xf64> * tensor<32x64xf64> -> tensor<16x64xf64>
  %8 = tile.dot %a8, %b8, %c32 {maxNumImpreciseAcc = 32 : i32} : tensor<16x32xf8E4M3FN> * tensor<32x64xf8E5M2> -> tensor<16x64xf32>
  %9 = tile.dot %a8, %b8b, %c16 : tensor<16x32xf8E4M3FN> * tensor<32x64xf8E4M3FN> -> tensor<16x64xf16>
  %10 = tile.dot %ai, %bi, %ci : tensor<16x32xi8> * tensor<32x64xi8> -> tensor<16x64xi32>
  %11 = tile.dot %ba, %bb, %bc : tensor<4x16x32xf16> * tensor<4x32x64xf16> -> tensor<4x16x64xf32>
  %12 = tile.dot %ta, %tb, %tc precision = tf32 : tensor<2x64x16xf32> * tensor<2x16x32xf32> -> tensor<2x64x32xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12
      : tensor<16x64xf32>, tensor<16x64xf16>, tensor<16x64xf32>, tensor<16x64xf32>,
        tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf64>,
        tensor<16x64xf32>, tensor<16x64xf16>, tensor<16x64xi32>, tensor<4x16x64xf32>,
        tensor<2x64x32xf32>
}

//===----------------------------------------------------------------------===//
// Reduce and scan
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reduce_1d(
// CHECK: %[[SUM:.*]] = tile.reduce(%arg0) axis = 0 : (tensor<128xf32>) -> f32 {
// CHECK-NEXT: ^bb0(%[[ACC:.*]]: f32, %[[NEW:.*]]: f32):
// CHECK-NEXT: %[[ADD:.*]] = arith.addf %[[ACC]], %[[NEW]] : f32
// CHECK-NEXT: tile.reduce.return %[[ADD]] : f32
// CHECK-NEXT: }
// CHECK: %[[ARG:.*]]:2 = tile.reduce(%arg0, %arg1) axis = 0 : (tensor<128xf32>, tensor<128xi32>) -> (f32, i32) {
// CHECK-NEXT: ^bb0(%[[V0:.*]]: f32, %[[I0:.*]]: i32, %[[V1:.*]]: f32, %[[I1:.*]]: i32):
// CHECK-NEXT: %[[GT:.*]] = arith.cmpf ogt, %[[V0]], %[[V1]] : f32
// CHECK-NEXT: %[[V:.*]] = arith.select %[[GT]], %[[V0]], %[[V1]] : f32
// CHECK-NEXT: %[[I:.*]] = arith.select %[[GT]], %[[I0]], %[[I1]] : i32
// CHECK-NEXT: tile.reduce.return %[[V]], %[[I]] : f32, i32
// CHECK-NEXT: }
// CHECK: return %[[SUM]], %[[ARG]]#0, %[[ARG]]#1 : f32, f32, i32
func.func @reduce_1d(%x: tensor<128xf32>, %idx: tensor<128xi32>) -> (f32, f32, i32) {
  %0 = tile.reduce (%x) axis = 0 : (tensor<128xf32>) -> f32 {
  ^bb0(%acc: f32, %new: f32):
    %s = arith.addf %acc, %new : f32
    tile.reduce.return %s : f32
  }
  %1:2 = tile.reduce (%x, %idx) axis = 0 : (tensor<128xf32>, tensor<128xi32>) -> (f32, i32) {
  ^bb0(%v0: f32, %i0: i32, %v1: f32, %i1: i32):
    %gt = arith.cmpf ogt, %v0, %v1 : f32
    %v = arith.select %gt, %v0, %v1 : f32
    %i = arith.select %gt, %i0, %i1 : i32
    tile.reduce.return %v, %i : f32, i32
  }
  return %0, %1#0, %1#1 : f32, f32, i32
}

// CHECK-LABEL: func.func @reduce_2d(
// CHECK: %[[MAX:.*]] = tile.reduce(%arg0) axis = 1 : (tensor<8x16xf32>) -> tensor<8xf32> {
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
// CHECK-NEXT: %[[M:.*]] = arith.maximumf %[[A]], %[[B]] : f32
// CHECK-NEXT: tile.reduce.return %[[M]] : f32
// CHECK-NEXT: }
// CHECK: %[[ARG:.*]]:2 = tile.reduce(%arg0, %arg1) axis = 0 : (tensor<8x16xf32>, tensor<8x16xi32>) -> (tensor<16xf32>, tensor<16xi32>) {
// CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: i32, %{{.*}}: f32, %{{.*}}: i32):
// CHECK: tile.reduce.return %{{.*}}, %{{.*}} : f32, i32
// CHECK: %[[INT:.*]] = tile.reduce(%arg2) axis = 2 {tile.tag} : (tensor<2x4x8xi64>) -> tensor<2x4xi64> {
// CHECK: arith.addi
// CHECK: tile.reduce.return %{{.*}} : i64
// CHECK: return %[[MAX]], %[[ARG]]#0, %[[ARG]]#1, %[[INT]] :
func.func @reduce_2d(%x: tensor<8x16xf32>, %idx: tensor<8x16xi32>, %y: tensor<2x4x8xi64>)
    -> (tensor<8xf32>, tensor<16xf32>, tensor<16xi32>, tensor<2x4xi64>) {
  %0 = tile.reduce (%x) axis = 1 : (tensor<8x16xf32>) -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maximumf %a, %b : f32
    tile.reduce.return %m : f32
  }
  %1:2 = tile.reduce (%x, %idx) axis = 0 : (tensor<8x16xf32>, tensor<8x16xi32>) -> (tensor<16xf32>, tensor<16xi32>) {
  ^bb0(%v0: f32, %i0: i32, %v1: f32, %i1: i32):
    %gt = arith.cmpf ogt, %v0, %v1 : f32
    %v = arith.select %gt, %v0, %v1 : f32
    %i = arith.select %gt, %i0, %i1 : i32
    tile.reduce.return %v, %i : f32, i32
  }
  %2 = tile.reduce (%y) axis = 2 {tile.tag} : (tensor<2x4x8xi64>) -> tensor<2x4xi64> {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    tile.reduce.return %s : i64
  }
  return %0, %1#0, %1#1, %2 : tensor<8xf32>, tensor<16xf32>, tensor<16xi32>, tensor<2x4xi64>
}

// CHECK-LABEL: func.func @scans(
// CHECK: %[[C:.*]] = tile.scan(%arg0) axis = 0 : (tensor<128xf32>) -> tensor<128xf32> {
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT: tile.scan.return %[[S]] : f32
// CHECK-NEXT: }
// CHECK: %[[R:.*]] = tile.scan(%arg1) axis = 1 reverse : (tensor<8x16xi32>) -> tensor<8x16xi32> {
// CHECK: arith.muli
// CHECK: tile.scan.return %{{.*}} : i32
// CHECK: %[[P:.*]]:2 = tile.scan(%arg1, %arg2) axis = 0 reverse : (tensor<8x16xi32>, tensor<8x16xf16>) -> (tensor<8x16xi32>, tensor<8x16xf16>) {
// CHECK-NEXT: ^bb0(%{{.*}}: i32, %{{.*}}: f16, %{{.*}}: i32, %{{.*}}: f16):
// CHECK: tile.scan.return %{{.*}}, %{{.*}} : i32, f16
// CHECK: return %[[C]], %[[R]], %[[P]]#0, %[[P]]#1 :
func.func @scans(%x: tensor<128xf32>, %y: tensor<8x16xi32>, %z: tensor<8x16xf16>)
    -> (tensor<128xf32>, tensor<8x16xi32>, tensor<8x16xi32>, tensor<8x16xf16>) {
  %0 = tile.scan (%x) axis = 0 : (tensor<128xf32>) -> tensor<128xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.scan.return %s : f32
  }
  %1 = tile.scan (%y) axis = 1 reverse : (tensor<8x16xi32>) -> tensor<8x16xi32> {
  ^bb0(%a: i32, %b: i32):
    %p = arith.muli %a, %b : i32
    tile.scan.return %p : i32
  }
  %2:2 = tile.scan (%y, %z) axis = 0 reverse : (tensor<8x16xi32>, tensor<8x16xf16>) -> (tensor<8x16xi32>, tensor<8x16xf16>) {
  ^bb0(%i0: i32, %f0: f16, %i1: i32, %f1: f16):
    %i = arith.addi %i0, %i1 : i32
    %f = arith.addf %f0, %f1 : f16
    tile.scan.return %i, %f : i32, f16
  }
  return %0, %1, %2#0, %2#1 : tensor<128xf32>, tensor<8x16xi32>, tensor<8x16xi32>, tensor<8x16xf16>
}

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @fp_to_fp(
// CHECK: %[[F0:.*]] = tile.fp_to_fp %arg0 : tensor<16xf16> -> tensor<16xf32>
// CHECK: %[[F1:.*]] = tile.fp_to_fp %[[F0]] rounding = rtne : tensor<16xf32> -> tensor<16xbf16>
// CHECK: %[[F2:.*]] = tile.fp_to_fp %[[F0]] rounding = rtz : tensor<16xf32> -> tensor<16xf8E4M3FN>
// CHECK: %[[F3:.*]] = tile.fp_to_fp %[[F2]] : tensor<16xf8E4M3FN> -> tensor<16xf16>
// CHECK: %[[F4:.*]] = tile.fp_to_fp %arg1 : f8E5M2 -> f16
// CHECK: %[[F5:.*]] = tile.fp_to_fp %arg2 rounding = rtne : f64 -> f8E5M2
// CHECK: %[[F6:.*]] = tile.fp_to_fp %arg3 : bf16 -> f64
// CHECK: %[[F7:.*]] = tile.fp_to_fp %arg0 rounding = rtz : tensor<16xf16> -> tensor<16xbf16>
// CHECK: return %[[F1]], %[[F3]], %[[F4]], %[[F5]], %[[F6]], %[[F7]] :
func.func @fp_to_fp(%h: tensor<16xf16>, %e5: f8E5M2, %d: f64, %bf: bf16)
    -> (tensor<16xbf16>, tensor<16xf16>, f16, f8E5M2, f64, tensor<16xbf16>) {
  %0 = tile.fp_to_fp %h : tensor<16xf16> -> tensor<16xf32>
  %1 = tile.fp_to_fp %0 rounding = rtne : tensor<16xf32> -> tensor<16xbf16>
  %2 = tile.fp_to_fp %0 rounding = rtz : tensor<16xf32> -> tensor<16xf8E4M3FN>
  %3 = tile.fp_to_fp %2 : tensor<16xf8E4M3FN> -> tensor<16xf16>
  %4 = tile.fp_to_fp %e5 : f8E5M2 -> f16
  %5 = tile.fp_to_fp %d rounding = rtne : f64 -> f8E5M2
  %6 = tile.fp_to_fp %bf : bf16 -> f64
  %7 = tile.fp_to_fp %h rounding = rtz : tensor<16xf16> -> tensor<16xbf16>
  return %1, %3, %4, %5, %6, %7 : tensor<16xbf16>, tensor<16xf16>, f16, f8E5M2, f64, tensor<16xbf16>
}

// Pointers count as 64 bits.
// CHECK-LABEL: func.func @bitcasts(
// CHECK: %[[B0:.*]] = tile.bitcast %arg0 : tensor<16xf32> -> tensor<16xi32>
// CHECK: %[[B1:.*]] = tile.bitcast %arg1 : f16 -> bf16
// CHECK: %[[B2:.*]] = tile.bitcast %arg2 : !tile.ptr<f32> -> i64
// CHECK: %[[B3:.*]] = tile.bitcast %[[B2]] : i64 -> !tile.ptr<f32>
// CHECK: %[[B4:.*]] = tile.bitcast %arg2 : !tile.ptr<f32> -> !tile.ptr<i8, 3>
// CHECK: %[[B5:.*]] = tile.bitcast %arg3 : tensor<4x!tile.ptr<f32>> -> tensor<4xf64>
// CHECK: %[[B6:.*]] = tile.bitcast %arg4 : tensor<2x2xi8> -> tensor<2x2xf8E5M2>
// CHECK: return %[[B0]], %[[B1]], %[[B3]], %[[B4]], %[[B5]], %[[B6]] :
func.func @bitcasts(%f: tensor<16xf32>, %h: f16, %p: !tile.ptr<f32>,
                    %ps: tensor<4x!tile.ptr<f32>>, %b: tensor<2x2xi8>)
    -> (tensor<16xi32>, bf16, !tile.ptr<f32>, !tile.ptr<i8, 3>, tensor<4xf64>,
        tensor<2x2xf8E5M2>) {
  %0 = tile.bitcast %f : tensor<16xf32> -> tensor<16xi32>
  %1 = tile.bitcast %h : f16 -> bf16
  %2 = tile.bitcast %p : !tile.ptr<f32> -> i64
  %3 = tile.bitcast %2 : i64 -> !tile.ptr<f32>
  %4 = tile.bitcast %p : !tile.ptr<f32> -> !tile.ptr<i8, 3>
  %5 = tile.bitcast %ps : tensor<4x!tile.ptr<f32>> -> tensor<4xf64>
  %6 = tile.bitcast %b : tensor<2x2xi8> -> tensor<2x2xf8E5M2>
  return %0, %1, %3, %4, %5, %6 : tensor<16xi32>, bf16, !tile.ptr<f32>,
      !tile.ptr<i8, 3>, tensor<4xf64>, tensor<2x2xf8E5M2>
}

// CHECK-LABEL: func.func @extern(
// CHECK: %[[X0:.*]] = tile.extern_elementwise "__nv_expf"(%arg0) {libname = "libdevice", libpath = "/opt/libdevice.10.bc", pure = true} : (tensor<16xf32>) -> tensor<16xf32>
// CHECK: %[[X1:.*]] = tile.extern_elementwise "__nv_powf"(%arg1, %arg2) {libname = "libdevice", libpath = "", pure = false} : (f32, f32) -> f32
// CHECK: %[[X2:.*]] = tile.extern_elementwise "__nv_ffs"(%arg3) {libname = "", libpath = "", pure = true} : (tensor<16xi32>) -> tensor<16xi32>
// CHECK: %[[X3:.*]] = tile.extern_elementwise "__nv_clock"() {libname = "libdevice", libpath = "", pure = false} : () -> i64
// CHECK: return %[[X0]], %[[X1]], %[[X2]], %[[X3]] :
func.func @extern(%x: tensor<16xf32>, %a: f32, %b: f32, %i: tensor<16xi32>)
    -> (tensor<16xf32>, f32, tensor<16xi32>, i64) {
  %0 = tile.extern_elementwise "__nv_expf"(%x) {libname = "libdevice", libpath = "/opt/libdevice.10.bc", pure = true} : (tensor<16xf32>) -> tensor<16xf32>
  %1 = tile.extern_elementwise "__nv_powf"(%a, %b) {libname = "libdevice", libpath = "", pure = false} : (f32, f32) -> f32
  %2 = tile.extern_elementwise "__nv_ffs"(%i) {pure = true, libpath = "", libname = ""} : (tensor<16xi32>) -> tensor<16xi32>
  %3 = tile.extern_elementwise "__nv_clock"() {libname = "libdevice", libpath = "", pure = false} : () -> i64
  return %0, %1, %2, %3 : tensor<16xf32>, f32, tensor<16xi32>, i64
}

// Inline assembly: several results, packed small types, pointers, scalars,
// clobbers, and no operands.
// CHECK-LABEL: func.func @inline_asm(
// CHECK: %[[A0:.*]]:2 = tile.inline_asm "sub.u32 $0, $2, $3; sub.u32 $1, $3, $2;" constraints "=r,=r,r,r" (%arg0, %arg1) {pack = 1 : i32, pure = true} : (tensor<16xi32>, tensor<16xi32>) -> (tensor<16xi32>, tensor<16xi32>)
// CHECK: %[[A1:.*]] = tile.inline_asm "shl.b32 $0, $1, 3;" constraints "=r,r" (%arg2) {pack = 4 : i32, pure = true} : (tensor<16xi8>) -> tensor<16xi8>
// CHECK: %[[A2:.*]] = tile.inline_asm "ld.global.b8 $0, [$1];" constraints "=r,l,~{memory}" (%arg3) {pack = 1 : i32, pure = false} : (tensor<16x!tile.ptr<i8>>) -> tensor<16xi8>
// CHECK: %[[A3:.*]] = tile.inline_asm "mov.u64 $0, %globaltimer;" constraints "=l" () {pack = 1 : i32, pure = false} : () -> i64
// CHECK: return %[[A0]]#0, %[[A0]]#1, %[[A1]], %[[A2]], %[[A3]] :
func.func @inline_asm(%a: tensor<16xi32>, %b: tensor<16xi32>, %c: tensor<16xi8>,
                      %p: tensor<16x!tile.ptr<i8>>)
    -> (tensor<16xi32>, tensor<16xi32>, tensor<16xi8>, tensor<16xi8>, i64) {
  %0:2 = tile.inline_asm "sub.u32 $0, $2, $3; sub.u32 $1, $3, $2;" constraints "=r,=r,r,r" (%a, %b) {pack = 1 : i32, pure = true} : (tensor<16xi32>, tensor<16xi32>) -> (tensor<16xi32>, tensor<16xi32>)
  %1 = tile.inline_asm "shl.b32 $0, $1, 3;" constraints "=r,r" (%c) {pack = 4 : i32, pure = true} : (tensor<16xi8>) -> tensor<16xi8>
  %2 = tile.inline_asm "ld.global.b8 $0, [$1];" constraints "=r,l,~{memory}" (%p) {pack = 1 : i32, pure = false} : (tensor<16x!tile.ptr<i8>>) -> tensor<16xi8>
  %3 = tile.inline_asm "mov.u64 $0, %globaltimer;" constraints "=l" () {pack = 1 : i32, pure = false} : () -> i64
  return %0#0, %0#1, %1, %2, %3 : tensor<16xi32>, tensor<16xi32>, tensor<16xi8>, tensor<16xi8>, i64
}

//===----------------------------------------------------------------------===//
// Debugging
//===----------------------------------------------------------------------===//

// A print without arguments followed by an op with results: the argument
// list must not swallow the next op.
// CHECK-LABEL: func.func @debug(
// CHECK: tile.print "pid: " : %arg0 : i32
// CHECK-NEXT: tile.print "bits: " hex : %arg1 : tensor<16xi32>
// CHECK-NEXT: tile.print "mixed: " {isSigned = array<i32: 1, 0>} : %arg0, %arg1 : i32, tensor<16xi32>
// CHECK-NEXT: tile.print "all: " hex {isSigned = array<i32: 0, 0, 1>} : %arg0, %arg2, %arg3 : i32, tensor<4x!tile.ptr<f32>>, tensor<16xf32>
// CHECK-NEXT: tile.print "checkpoint"
// CHECK-NEXT: %[[SUM:.*]] = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT: tile.print "" hex
// CHECK-NEXT: tile.assert %arg4, "scalar failed" : i1
// CHECK-NEXT: tile.assert %arg5, "block failed" : tensor<16xi1>
// CHECK-NEXT: return %[[SUM]] : i32
func.func @debug(%pid: i32, %bits: tensor<16xi32>, %ptrs: tensor<4x!tile.ptr<f32>>,
                 %vals: tensor<16xf32>, %c: i1, %cs: tensor<16xi1>) -> i32 {
  tile.print "pid: " : %pid : i32
  tile.print "bits: " hex : %bits : tensor<16xi32>
  tile.print "mixed: " {isSigned = array<i32: 1, 0>} : %pid, %bits : i32, tensor<16xi32>
  tile.print "all: " hex {isSigned = array<i32: 0, 0, 1>} : %pid, %ptrs, %vals : i32, tensor<4x!tile.ptr<f32>>, tensor<16xf32>
  tile.print "checkpoint"
  %0 = arith.addi %pid, %pid : i32
  tile.print "" hex
  tile.assert %c, "scalar failed" : i1
  tile.assert %cs, "block failed" : tensor<16xi1>
  return %0 : i32
}

//===----------------------------------------------------------------------===//
// Functions and calls
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func private @helper(
// CHECK-SAME: %arg0: tensor<64x!tile.ptr<f32>>, %arg1: tensor<64xi1>) -> tensor<64xf32>
// CHECK: %[[V:.*]] = tile.load %arg0, %arg1 : tensor<64x!tile.ptr<f32>>
// CHECK: return %[[V]] : tensor<64xf32>
func.func private @helper(%p: tensor<64x!tile.ptr<f32>>, %m: tensor<64xi1>) -> tensor<64xf32> {
  %0 = tile.load %p, %m : tensor<64x!tile.ptr<f32>>
  return %0 : tensor<64xf32>
}

// CHECK-LABEL: func.func @kernel(
// CHECK-SAME: %arg0: !tile.ptr<f32>, %arg1: !tile.ptr<f32>, %arg2: i32)
// CHECK: %[[PID:.*]] = tile.program_id x : i32
// CHECK: %[[RANGE:.*]] = tile.make_range 0 to 64 : tensor<64xi32>
// CHECK: %[[OFFS:.*]] = arith.addi %{{.*}}, %[[RANGE]] : tensor<64xi32>
// CHECK: %[[MASK:.*]] = arith.cmpi slt, %[[OFFS]], %{{.*}} : tensor<64xi32>
// CHECK: %[[XS:.*]] = tile.splat %arg0 : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
// CHECK: %[[XP:.*]] = tile.addptr %[[XS]], %[[OFFS]] : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
// CHECK: %[[VALS:.*]] = call @helper(%[[XP]], %[[MASK]]) : (tensor<64x!tile.ptr<f32>>, tensor<64xi1>) -> tensor<64xf32>
// CHECK: %[[YS:.*]] = tile.splat %arg1 : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
// CHECK: %[[YP:.*]] = tile.addptr %[[YS]], %[[OFFS]] : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
// CHECK: tile.store %[[YP]], %[[VALS]], %[[MASK]] : tensor<64x!tile.ptr<f32>>
// CHECK: return
func.func @kernel(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %n: i32) {
  %pid = tile.program_id x : i32
  %c64 = arith.constant 64 : i32
  %start = arith.muli %pid, %c64 : i32
  %range = tile.make_range 0 to 64 : tensor<64xi32>
  %starts = tile.splat %start : i32 -> tensor<64xi32>
  %offs = arith.addi %starts, %range : tensor<64xi32>
  %ns = tile.splat %n : i32 -> tensor<64xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<64xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %offs : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %v = func.call @helper(%xp, %mask) : (tensor<64x!tile.ptr<f32>>, tensor<64xi1>) -> tensor<64xf32>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %offs : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  tile.store %yp, %v, %mask : tensor<64x!tile.ptr<f32>>
  return
}
