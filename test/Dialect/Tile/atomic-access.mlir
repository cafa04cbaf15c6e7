// RUN: terrazzo-opt %s | terrazzo-opt | FileCheck %s
// RUN: terrazzo-opt %s --mlir-print-op-generic | terrazzo-opt | FileCheck %s
// RUN: terrazzo-opt %s --cse --canonicalize | FileCheck %s --check-prefix=CSE

// Round trip of tile.atomic_load, tile.atomic_store and tile.atomic_poll
// through the custom and the generic form: scalars and blocks, with and
// without a mask or a timeout, every allowed ordering and every scope.

// CHECK-LABEL: func.func @accesses
// CHECK: %[[A:.*]] = tile.atomic_load acquire, gpu, %arg0 : !tile.ptr<i32>
// CHECK: %[[B:.*]] = tile.atomic_load relaxed, cta, %arg1, %arg2 : tensor<16x!tile.ptr<f16>>
// CHECK: tile.atomic_store release, sys, %arg1, %[[B]], %arg2 : tensor<16x!tile.ptr<f16>>
// CHECK: tile.atomic_store relaxed, gpu, %arg0, %[[A]] : !tile.ptr<i32>
// CHECK: %{{.*}} = tile.atomic_poll acquire, gpu, %arg0, %[[A]] timeout %arg3 : !tile.ptr<i32>
// CHECK: %{{.*}} = tile.atomic_poll relaxed, sys, %arg4, %arg5 : tensor<8x!tile.ptr<i64>>
// CHECK: %{{.*}} = tile.atomic_load acquire, gpu, %arg6 : tensor<4x!tile.ptr<i8>>
// CHECK: %{{.*}} = tile.atomic_load relaxed, gpu, %arg7 : !tile.ptr<bf16>
func.func @accesses(%p: !tile.ptr<i32>, %q: tensor<16x!tile.ptr<f16>>, %m: tensor<16xi1>,
                    %t: i64, %r: tensor<8x!tile.ptr<i64>>, %e: tensor<8xi64>,
                    %s: tensor<4x!tile.ptr<i8>>, %b: !tile.ptr<bf16>) -> (i1, tensor<8xi1>) {
  %0 = tile.atomic_load acquire, gpu, %p : !tile.ptr<i32>
  %1 = tile.atomic_load relaxed, cta, %q, %m : tensor<16x!tile.ptr<f16>>
  tile.atomic_store release, sys, %q, %1, %m : tensor<16x!tile.ptr<f16>>
  tile.atomic_store relaxed, gpu, %p, %0 : !tile.ptr<i32>
  %2 = tile.atomic_poll acquire, gpu, %p, %0 timeout %t : !tile.ptr<i32>
  %3 = tile.atomic_poll relaxed, sys, %r, %e : tensor<8x!tile.ptr<i64>>
  %4 = tile.atomic_load acquire, gpu, %s : tensor<4x!tile.ptr<i8>>
  %5 = tile.atomic_load relaxed, gpu, %b : !tile.ptr<bf16>
  return %2, %3 : i1, tensor<8xi1>
}

// The atomic accesses count as writing memory: CSE keeps both loads, and
// unused ones stay.
// CHECK-LABEL: func.func @not_merged
// CSE-LABEL: func.func @not_merged
// CSE-COUNT-3: tile.atomic_load
// CSE: return
func.func @not_merged(%p: !tile.ptr<i32>) -> (i32, i32) {
  %0 = tile.atomic_load relaxed, gpu, %p : !tile.ptr<i32>
  %1 = tile.atomic_load relaxed, gpu, %p : !tile.ptr<i32>
  %2 = tile.atomic_load acquire, gpu, %p : !tile.ptr<i32>
  return %0, %1 : i32, i32
}
