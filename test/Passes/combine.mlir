// RUN: terrazzo-opt %s -split-input-file -terrazzo-combine | FileCheck %s

//===----------------------------------------------------------------------===//
// dot(a, b, 0) + c -> dot(a, b, c)
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @dot_plus_c
// CHECK-SAME: (%[[A:.*]]: tensor<32x16xf16>, %[[B:.*]]: tensor<16x64xf16>, %[[C:.*]]: tensor<32x64xf32>)
// CHECK-NEXT: %[[D:.*]] = tile.dot %[[A]], %[[B]], %[[C]] : tensor<32x16xf16> * tensor<16x64xf16> -> tensor<32x64xf32>
// CHECK-NEXT: return %[[D]]
func.func @dot_plus_c(%a: tensor<32x16xf16>, %b: tensor<16x64xf16>, %c: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %zero = arith.constant dense<0.0> : tensor<32x64xf32>
  %d = tile.dot %a, %b, %zero : tensor<32x16xf16> * tensor<16x64xf16> -> tensor<32x64xf32>
  %r = arith.addf %d, %c : tensor<32x64xf32>
  return %r : tensor<32x64xf32>
}

// -----

// The accumulator on the left, and the dot's attributes carried over.
// CHECK-LABEL: func.func @c_plus_dot
// CHECK-SAME: (%[[A:.*]]: tensor<32x16xf32>, %[[B:.*]]: tensor<16x64xf32>, %[[C:.*]]: tensor<32x64xf32>)
// CHECK-NEXT: %[[D:.*]] = tile.dot %[[A]], %[[B]], %[[C]] precision = tf32 {maxNumImpreciseAcc = 4 : i32} : tensor<32x16xf32> * tensor<16x64xf32> -> tensor<32x64xf32>
// CHECK-NEXT: return %[[D]]
func.func @c_plus_dot(%a: tensor<32x16xf32>, %b: tensor<16x64xf32>, %c: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %zero = arith.constant dense<0.0> : tensor<32x64xf32>
  %d = tile.dot %a, %b, %zero precision = tf32 {maxNumImpreciseAcc = 4 : i32} : tensor<32x16xf32> * tensor<16x64xf32> -> tensor<32x64xf32>
  %r = arith.addf %c, %d : tensor<32x64xf32>
  return %r : tensor<32x64xf32>
}

// -----

// A negative zero is a zero accumulator too.
// CHECK-LABEL: func.func @dot_negative_zero
// CHECK-SAME: (%[[A:.*]]: tensor<16x16xf16>, %[[B:.*]]: tensor<16x16xf16>, %[[C:.*]]: tensor<16x16xf16>)
// CHECK-NEXT: %[[D:.*]] = tile.dot %[[A]], %[[B]], %[[C]]
// CHECK-NEXT: return %[[D]]
func.func @dot_negative_zero(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf16>) -> tensor<16x16xf16> {
  %zero = arith.constant dense<-0.0> : tensor<16x16xf16>
  %d = tile.dot %a, %b, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf16>
  %r = arith.addf %d, %c : tensor<16x16xf16>
  return %r : tensor<16x16xf16>
}

// -----

// An i8 dot accumulates in i32 with arith.addi.
// CHECK-LABEL: func.func @i8_dot_plus_c
// CHECK-SAME: (%[[A:.*]]: tensor<32x32xi8>, %[[B:.*]]: tensor<32x32xi8>, %[[C:.*]]: tensor<32x32xi32>)
// CHECK-NEXT: %[[D:.*]] = tile.dot %[[A]], %[[B]], %[[C]] : tensor<32x32xi8> * tensor<32x32xi8> -> tensor<32x32xi32>
// CHECK-NEXT: return %[[D]]
func.func @i8_dot_plus_c(%a: tensor<32x32xi8>, %b: tensor<32x32xi8>, %c: tensor<32x32xi32>) -> tensor<32x32xi32> {
  %zero = arith.constant dense<0> : tensor<32x32xi32>
  %d = tile.dot %a, %b, %zero : tensor<32x32xi8> * tensor<32x32xi8> -> tensor<32x32xi32>
  %r = arith.addi %d, %c : tensor<32x32xi32>
  return %r : tensor<32x32xi32>
}

// -----

// CHECK-LABEL: func.func @c_plus_i8_dot
// CHECK-SAME: (%[[A:.*]]: tensor<32x32xi8>, %[[B:.*]]: tensor<32x32xi8>, %[[C:.*]]: tensor<32x32xi32>)
// CHECK-NEXT: %[[D:.*]] = tile.dot %[[A]], %[[B]], %[[C]] : tensor<32x32xi8> * tensor<32x32xi8> -> tensor<32x32xi32>
// CHECK-NEXT: return %[[D]]
func.func @c_plus_i8_dot(%a: tensor<32x32xi8>, %b: tensor<32x32xi8>, %c: tensor<32x32xi32>) -> tensor<32x32xi32> {
  %zero = arith.constant dense<0> : tensor<32x32xi32>
  %d = tile.dot %a, %b, %zero : tensor<32x32xi8> * tensor<32x32xi8> -> tensor<32x32xi32>
  %r = arith.addi %c, %d : tensor<32x32xi32>
  return %r : tensor<32x32xi32>
}

// -----

// A batched dot.
// CHECK-LABEL: func.func @batched_dot_plus_c
// CHECK-SAME: (%[[A:.*]]: tensor<2x16x16xbf16>, %[[B:.*]]: tensor<2x16x16xbf16>, %[[C:.*]]: tensor<2x16x16xf32>)
// CHECK-NEXT: %[[D:.*]] = tile.dot %[[A]], %[[B]], %[[C]] : tensor<2x16x16xbf16> * tensor<2x16x16xbf16> -> tensor<2x16x16xf32>
// CHECK-NEXT: return %[[D]]
func.func @batched_dot_plus_c(%a: tensor<2x16x16xbf16>, %b: tensor<2x16x16xbf16>, %c: tensor<2x16x16xf32>) -> tensor<2x16x16xf32> {
  %zero = arith.constant dense<0.0> : tensor<2x16x16xf32>
  %d = tile.dot %a, %b, %zero : tensor<2x16x16xbf16> * tensor<2x16x16xbf16> -> tensor<2x16x16xf32>
  %r = arith.addf %d, %c : tensor<2x16x16xf32>
  return %r : tensor<2x16x16xf32>
}

// -----

// NEGATIVE: the accumulator is not zero.
// CHECK-LABEL: func.func @dot_nonzero_acc
// CHECK-SAME: (%[[A:.*]]: tensor<16x16xf16>, %[[B:.*]]: tensor<16x16xf16>, %[[C:.*]]: tensor<16x16xf32>)
// CHECK: %[[ONE:.*]] = arith.constant dense<1.000000e+00>
// CHECK-NEXT: %[[D:.*]] = tile.dot %[[A]], %[[B]], %[[ONE]]
// CHECK-NEXT: %[[R:.*]] = arith.addf %[[D]], %[[C]]
// CHECK-NEXT: return %[[R]]
func.func @dot_nonzero_acc(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %one = arith.constant dense<1.0> : tensor<16x16xf32>
  %d = tile.dot %a, %b, %one : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %r = arith.addf %d, %c : tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// -----

// NEGATIVE: the accumulator is an unknown value.
// CHECK-LABEL: func.func @dot_unknown_acc
// CHECK-SAME: (%[[A:.*]]: tensor<16x16xi8>, %[[B:.*]]: tensor<16x16xi8>, %[[ACC:.*]]: tensor<16x16xi32>, %[[C:.*]]: tensor<16x16xi32>)
// CHECK-NEXT: %[[D:.*]] = tile.dot %[[A]], %[[B]], %[[ACC]]
// CHECK-NEXT: %[[R:.*]] = arith.addi %[[D]], %[[C]]
// CHECK-NEXT: return %[[R]]
func.func @dot_unknown_acc(%a: tensor<16x16xi8>, %b: tensor<16x16xi8>, %acc: tensor<16x16xi32>, %c: tensor<16x16xi32>) -> tensor<16x16xi32> {
  %d = tile.dot %a, %b, %acc : tensor<16x16xi8> * tensor<16x16xi8> -> tensor<16x16xi32>
  %r = arith.addi %d, %c : tensor<16x16xi32>
  return %r : tensor<16x16xi32>
}

// -----

// NEGATIVE: the dot has a second user, which needs a * b alone.
// CHECK-LABEL: func.func @dot_two_users
// CHECK-SAME: (%[[A:.*]]: tensor<16x16xf16>, %[[B:.*]]: tensor<16x16xf16>, %[[C:.*]]: tensor<16x16xf32>)
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00>
// CHECK-NEXT: %[[D:.*]] = tile.dot %[[A]], %[[B]], %[[ZERO]]
// CHECK-NEXT: %[[R:.*]] = arith.addf %[[D]], %[[C]]
// CHECK-NEXT: return %[[R]], %[[D]]
func.func @dot_two_users(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>) {
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %d = tile.dot %a, %b, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %r = arith.addf %d, %c : tensor<16x16xf32>
  return %r, %d : tensor<16x16xf32>, tensor<16x16xf32>
}

// -----

// NEGATIVE: dot + dot, where the dot is used twice by the same add.
// CHECK-LABEL: func.func @dot_plus_itself
// CHECK: %[[D:.*]] = tile.dot
// CHECK-NEXT: %[[R:.*]] = arith.addf %[[D]], %[[D]]
// CHECK-NEXT: return %[[R]]
func.func @dot_plus_itself(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>) -> tensor<16x16xf32> {
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %d = tile.dot %a, %b, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %r = arith.addf %d, %d : tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

//===----------------------------------------------------------------------===//
// addptr(addptr(p, x), y) -> addptr(p, x + y)
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @addptr_chain
// CHECK-SAME: (%[[P:.*]]: tensor<128x!tile.ptr<f32>>, %[[X:.*]]: tensor<128xi32>, %[[Y:.*]]: tensor<128xi32>)
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[X]], %[[Y]] : tensor<128xi32>
// CHECK-NEXT: %[[R:.*]] = tile.addptr %[[P]], %[[S]] : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
// CHECK-NEXT: return %[[R]]
func.func @addptr_chain(%p: tensor<128x!tile.ptr<f32>>, %x: tensor<128xi32>, %y: tensor<128xi32>) -> tensor<128x!tile.ptr<f32>> {
  %0 = tile.addptr %p, %x : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %1 = tile.addptr %0, %y : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  return %1 : tensor<128x!tile.ptr<f32>>
}

// -----

// Scalar pointers, and a chain of three.
// CHECK-LABEL: func.func @addptr_chain_of_three
// CHECK-SAME: (%[[P:.*]]: !tile.ptr<f16>, %[[X:.*]]: i64, %[[Y:.*]]: i64, %[[Z:.*]]: i64)
// CHECK-NOT: tile.addptr
// CHECK: %[[R:.*]] = tile.addptr %[[P]], %{{.*}} : !tile.ptr<f16>, i64
// CHECK-NOT: tile.addptr
// CHECK: return %[[R]]
func.func @addptr_chain_of_three(%p: !tile.ptr<f16>, %x: i64, %y: i64, %z: i64) -> !tile.ptr<f16> {
  %0 = tile.addptr %p, %x : !tile.ptr<f16>, i64
  %1 = tile.addptr %0, %y : !tile.ptr<f16>, i64
  %2 = tile.addptr %1, %z : !tile.ptr<f16>, i64
  return %2 : !tile.ptr<f16>
}

// -----

// The inner addptr keeps its other user.
// CHECK-LABEL: func.func @addptr_shared_inner
// CHECK-SAME: (%[[P:.*]]: !tile.ptr<i8>, %[[X:.*]]: i32, %[[Y:.*]]: i32)
// CHECK-DAG: %[[Q:.*]] = tile.addptr %[[P]], %[[X]] : !tile.ptr<i8>, i32
// CHECK-DAG: %[[S:.*]] = arith.addi %[[X]], %[[Y]] : i32
// CHECK: %[[R:.*]] = tile.addptr %[[P]], %[[S]] : !tile.ptr<i8>, i32
// CHECK: return %[[Q]], %[[R]]
func.func @addptr_shared_inner(%p: !tile.ptr<i8>, %x: i32, %y: i32) -> (!tile.ptr<i8>, !tile.ptr<i8>) {
  %0 = tile.addptr %p, %x : !tile.ptr<i8>, i32
  %1 = tile.addptr %0, %y : !tile.ptr<i8>, i32
  return %0, %1 : !tile.ptr<i8>, !tile.ptr<i8>
}

// -----

// NEGATIVE: offsets of different types are not added.
// CHECK-LABEL: func.func @addptr_mixed_offsets
// CHECK-SAME: (%[[P:.*]]: tensor<64x!tile.ptr<f32>>, %[[X:.*]]: tensor<64xi32>, %[[Y:.*]]: tensor<64xi64>)
// CHECK-NEXT: %[[Q:.*]] = tile.addptr %[[P]], %[[X]] : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
// CHECK-NEXT: %[[R:.*]] = tile.addptr %[[Q]], %[[Y]] : tensor<64x!tile.ptr<f32>>, tensor<64xi64>
// CHECK-NEXT: return %[[R]]
func.func @addptr_mixed_offsets(%p: tensor<64x!tile.ptr<f32>>, %x: tensor<64xi32>, %y: tensor<64xi64>) -> tensor<64x!tile.ptr<f32>> {
  %0 = tile.addptr %p, %x : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %1 = tile.addptr %0, %y : tensor<64x!tile.ptr<f32>>, tensor<64xi64>
  return %1 : tensor<64x!tile.ptr<f32>>
}

// -----

// NEGATIVE: a single addptr is left alone.
// CHECK-LABEL: func.func @addptr_single
// CHECK-SAME: (%[[P:.*]]: !tile.ptr<f32>, %[[X:.*]]: i32)
// CHECK-NEXT: %[[R:.*]] = tile.addptr %[[P]], %[[X]] : !tile.ptr<f32>, i32
// CHECK-NEXT: return %[[R]]
func.func @addptr_single(%p: !tile.ptr<f32>, %x: i32) -> !tile.ptr<f32> {
  %0 = tile.addptr %p, %x : !tile.ptr<f32>, i32
  return %0 : !tile.ptr<f32>
}

//===----------------------------------------------------------------------===//
// select(m, load(p, m), o) -> load(p, m, o)
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @select_of_masked_load
// CHECK-SAME: (%[[P:.*]]: tensor<128x!tile.ptr<f32>>, %[[M:.*]]: tensor<128xi1>, %[[O:.*]]: tensor<128xf32>)
// CHECK-NEXT: %[[L:.*]] = tile.load %[[P]], %[[M]], %[[O]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT: return %[[L]]
func.func @select_of_masked_load(%p: tensor<128x!tile.ptr<f32>>, %m: tensor<128xi1>, %o: tensor<128xf32>) -> tensor<128xf32> {
  %l = tile.load %p, %m : tensor<128x!tile.ptr<f32>>
  %r = arith.select %m, %l, %o : tensor<128xi1>, tensor<128xf32>
  return %r : tensor<128xf32>
}

// -----

// The load's cache, eviction and volatile flags are kept; a scalar load too.
// CHECK-LABEL: func.func @select_of_scalar_load
// CHECK-SAME: (%[[P:.*]]: !tile.ptr<i32>, %[[M:.*]]: i1)
// CHECK-NEXT: %[[O:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[L:.*]] = tile.load %[[P]], %[[M]], %[[O]] cache = cg evict = evict_last volatile : !tile.ptr<i32>
// CHECK-NEXT: return %[[L]]
func.func @select_of_scalar_load(%p: !tile.ptr<i32>, %m: i1) -> i32 {
  %l = tile.load %p, %m cache = cg evict = evict_last volatile : !tile.ptr<i32>
  %o = arith.constant 0 : i32
  %r = arith.select %m, %l, %o : i32
  return %r : i32
}

// -----

// NEGATIVE: the select's condition is not the load's mask.
// CHECK-LABEL: func.func @select_other_condition
// CHECK-SAME: (%[[P:.*]]: tensor<64x!tile.ptr<f16>>, %[[M:.*]]: tensor<64xi1>, %[[N:.*]]: tensor<64xi1>, %[[O:.*]]: tensor<64xf16>)
// CHECK-NEXT: %[[L:.*]] = tile.load %[[P]], %[[M]] : tensor<64x!tile.ptr<f16>>
// CHECK-NEXT: %[[R:.*]] = arith.select %[[N]], %[[L]], %[[O]]
// CHECK-NEXT: return %[[R]]
func.func @select_other_condition(%p: tensor<64x!tile.ptr<f16>>, %m: tensor<64xi1>, %n: tensor<64xi1>, %o: tensor<64xf16>) -> tensor<64xf16> {
  %l = tile.load %p, %m : tensor<64x!tile.ptr<f16>>
  %r = arith.select %n, %l, %o : tensor<64xi1>, tensor<64xf16>
  return %r : tensor<64xf16>
}

// -----

// NEGATIVE: the load has no mask at all.
// CHECK-LABEL: func.func @select_of_unmasked_load
// CHECK-SAME: (%[[P:.*]]: tensor<64x!tile.ptr<f16>>, %[[M:.*]]: tensor<64xi1>, %[[O:.*]]: tensor<64xf16>)
// CHECK-NEXT: %[[L:.*]] = tile.load %[[P]] : tensor<64x!tile.ptr<f16>>
// CHECK-NEXT: %[[R:.*]] = arith.select %[[M]], %[[L]], %[[O]]
// CHECK-NEXT: return %[[R]]
func.func @select_of_unmasked_load(%p: tensor<64x!tile.ptr<f16>>, %m: tensor<64xi1>, %o: tensor<64xf16>) -> tensor<64xf16> {
  %l = tile.load %p : tensor<64x!tile.ptr<f16>>
  %r = arith.select %m, %l, %o : tensor<64xi1>, tensor<64xf16>
  return %r : tensor<64xf16>
}

// -----

// NEGATIVE: the load already has an `other`.
// CHECK-LABEL: func.func @select_of_load_with_other
// CHECK-SAME: (%[[P:.*]]: tensor<64x!tile.ptr<f16>>, %[[M:.*]]: tensor<64xi1>, %[[O1:.*]]: tensor<64xf16>, %[[O2:.*]]: tensor<64xf16>)
// CHECK-NEXT: %[[L:.*]] = tile.load %[[P]], %[[M]], %[[O1]] : tensor<64x!tile.ptr<f16>>
// CHECK-NEXT: %[[R:.*]] = arith.select %[[M]], %[[L]], %[[O2]]
// CHECK-NEXT: return %[[R]]
func.func @select_of_load_with_other(%p: tensor<64x!tile.ptr<f16>>, %m: tensor<64xi1>, %o1: tensor<64xf16>, %o2: tensor<64xf16>) -> tensor<64xf16> {
  %l = tile.load %p, %m, %o1 : tensor<64x!tile.ptr<f16>>
  %r = arith.select %m, %l, %o2 : tensor<64xi1>, tensor<64xf16>
  return %r : tensor<64xf16>
}

// -----

// NEGATIVE: the load has a second user, which needs the unselected value.
// CHECK-LABEL: func.func @select_of_shared_load
// CHECK-SAME: (%[[P:.*]]: tensor<64x!tile.ptr<f16>>, %[[M:.*]]: tensor<64xi1>, %[[O:.*]]: tensor<64xf16>)
// CHECK-NEXT: %[[L:.*]] = tile.load %[[P]], %[[M]] : tensor<64x!tile.ptr<f16>>
// CHECK-NEXT: %[[R:.*]] = arith.select %[[M]], %[[L]], %[[O]]
// CHECK-NEXT: return %[[R]], %[[L]]
func.func @select_of_shared_load(%p: tensor<64x!tile.ptr<f16>>, %m: tensor<64xi1>, %o: tensor<64xf16>) -> (tensor<64xf16>, tensor<64xf16>) {
  %l = tile.load %p, %m : tensor<64x!tile.ptr<f16>>
  %r = arith.select %m, %l, %o : tensor<64xi1>, tensor<64xf16>
  return %r, %l : tensor<64xf16>, tensor<64xf16>
}

// -----

// NEGATIVE: the load is the false value; folding would need the inverted mask.
// CHECK-LABEL: func.func @select_load_on_false_side
// CHECK-SAME: (%[[P:.*]]: tensor<64x!tile.ptr<f16>>, %[[M:.*]]: tensor<64xi1>, %[[O:.*]]: tensor<64xf16>)
// CHECK-NEXT: %[[L:.*]] = tile.load %[[P]], %[[M]] : tensor<64x!tile.ptr<f16>>
// CHECK-NEXT: %[[R:.*]] = arith.select %[[M]], %[[O]], %[[L]]
// CHECK-NEXT: return %[[R]]
func.func @select_load_on_false_side(%p: tensor<64x!tile.ptr<f16>>, %m: tensor<64xi1>, %o: tensor<64xf16>) -> tensor<64xf16> {
  %l = tile.load %p, %m : tensor<64x!tile.ptr<f16>>
  %r = arith.select %m, %o, %l : tensor<64xi1>, tensor<64xf16>
  return %r : tensor<64xf16>
}

// -----

// A store between the load and the select must still come after the load.
// CHECK-LABEL: func.func @select_of_load_before_store
// CHECK-SAME: (%[[P:.*]]: tensor<64x!tile.ptr<f32>>, %[[M:.*]]: tensor<64xi1>, %[[V:.*]]: tensor<64xf32>, %[[O:.*]]: tensor<64xf32>)
// CHECK-NEXT: %[[L:.*]] = tile.load %[[P]], %[[M]]
// CHECK-NEXT: tile.store %[[P]], %[[V]], %[[M]]
// CHECK-NEXT: %[[R:.*]] = arith.select %[[M]], %[[L]], %[[O]]
// CHECK-NEXT: return %[[R]]
func.func @select_of_load_before_store(%p: tensor<64x!tile.ptr<f32>>, %m: tensor<64xi1>, %v: tensor<64xf32>, %o: tensor<64xf32>) -> tensor<64xf32> {
  %l = tile.load %p, %m : tensor<64x!tile.ptr<f32>>
  tile.store %p, %v, %m : tensor<64x!tile.ptr<f32>>
  %r = arith.select %m, %l, %o : tensor<64xi1>, tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// NEGATIVE: an op with a region that stores lies between the load and the select.
// CHECK-LABEL: func.func @select_of_load_before_nested_store
// CHECK: %[[L:.*]] = tile.load %{{.*}}, %{{.*}} : tensor<64x!tile.ptr<f32>>
// CHECK-NEXT: scf.if
// CHECK-NEXT: tile.store
// CHECK: %[[R:.*]] = arith.select %{{.*}}, %[[L]], %{{.*}}
// CHECK-NEXT: return %[[R]]
func.func @select_of_load_before_nested_store(%p: tensor<64x!tile.ptr<f32>>, %m: tensor<64xi1>, %v: tensor<64xf32>, %o: tensor<64xf32>, %c: i1) -> tensor<64xf32> {
  %l = tile.load %p, %m : tensor<64x!tile.ptr<f32>>
  scf.if %c {
    tile.store %p, %v, %m : tensor<64x!tile.ptr<f32>>
  }
  %r = arith.select %m, %l, %o : tensor<64xi1>, tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// NEGATIVE: a call of unknown effects lies between the load and the select.
func.func private @opaque()
// CHECK-LABEL: func.func @select_of_load_before_call
// CHECK: %[[L:.*]] = tile.load %{{.*}}, %{{.*}} : tensor<64x!tile.ptr<f32>>
// CHECK-NEXT: call @opaque()
// CHECK-NEXT: %[[R:.*]] = arith.select %{{.*}}, %[[L]], %{{.*}}
// CHECK-NEXT: return %[[R]]
func.func @select_of_load_before_call(%p: tensor<64x!tile.ptr<f32>>, %m: tensor<64xi1>, %o: tensor<64xf32>) -> tensor<64xf32> {
  %l = tile.load %p, %m : tensor<64x!tile.ptr<f32>>
  func.call @opaque() : () -> ()
  %r = arith.select %m, %l, %o : tensor<64xi1>, tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// Reads and pure ops between the load and the select do not stop it.
// CHECK-LABEL: func.func @select_after_reads
// CHECK-SAME: (%[[P:.*]]: tensor<64x!tile.ptr<f32>>, %[[Q:.*]]: tensor<64x!tile.ptr<f32>>, %[[M:.*]]: tensor<64xi1>)
// CHECK-NEXT: %[[K:.*]] = tile.load %[[Q]] : tensor<64x!tile.ptr<f32>>
// CHECK-NEXT: %[[O:.*]] = arith.negf %[[K]]
// CHECK-NEXT: %[[L:.*]] = tile.load %[[P]], %[[M]], %[[O]] : tensor<64x!tile.ptr<f32>>
// CHECK-NEXT: return %[[L]], %[[K]]
func.func @select_after_reads(%p: tensor<64x!tile.ptr<f32>>, %q: tensor<64x!tile.ptr<f32>>, %m: tensor<64xi1>) -> (tensor<64xf32>, tensor<64xf32>) {
  %l = tile.load %p, %m : tensor<64x!tile.ptr<f32>>
  %k = tile.load %q : tensor<64x!tile.ptr<f32>>
  %o = arith.negf %k : tensor<64xf32>
  %r = arith.select %m, %l, %o : tensor<64xi1>, tensor<64xf32>
  return %r, %k : tensor<64xf32>, tensor<64xf32>
}

// -----

// NEGATIVE: the select is in a loop and the load outside it; the load must
// not move into the loop.
// CHECK-LABEL: func.func @select_in_other_block
// CHECK: %[[L:.*]] = tile.load %{{.*}}, %{{.*}} : tensor<64x!tile.ptr<f32>>
// CHECK: scf.for
// CHECK-NOT: tile.load
// CHECK: arith.select %{{.*}}, %[[L]], %{{.*}}
func.func @select_in_other_block(%p: tensor<64x!tile.ptr<f32>>, %m: tensor<64xi1>, %o: tensor<64xf32>, %n: index) -> tensor<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %l = tile.load %p, %m : tensor<64x!tile.ptr<f32>>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %o) -> (tensor<64xf32>) {
    %s = arith.select %m, %l, %acc : tensor<64xi1>, tensor<64xf32>
    scf.yield %s : tensor<64xf32>
  }
  return %r : tensor<64xf32>
}

// -----

// With tilegpu layouts, all three rewrites apply the same way.
#blocked = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @with_layouts
// CHECK-SAME: (%[[A:.*]]: tensor<32x32xf16, #[[L:.*]]>, %[[B:.*]]: tensor<32x32xf16, #{{.*}}>, %[[C:.*]]: tensor<32x32xf32, #{{.*}}>, %[[P:.*]]: tensor<32x32x!tile.ptr<f32>, #{{.*}}>, %[[X:.*]]: tensor<32x32xi32, #{{.*}}>, %[[M:.*]]: tensor<32x32xi1, #{{.*}}>)
// CHECK-NEXT: %[[D:.*]] = tile.dot %[[A]], %[[B]], %[[C]]
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[X]], %[[X]]
// CHECK-NEXT: %[[Q:.*]] = tile.addptr %[[P]], %[[S]]
// CHECK-NEXT: %[[V:.*]] = tile.load %[[Q]], %[[M]], %[[D]]
// CHECK-NEXT: return %[[V]]
func.func @with_layouts(%a: tensor<32x32xf16, #blocked>, %b: tensor<32x32xf16, #blocked>, %c: tensor<32x32xf32, #blocked>,
                        %p: tensor<32x32x!tile.ptr<f32>, #blocked>, %x: tensor<32x32xi32, #blocked>, %m: tensor<32x32xi1, #blocked>) -> tensor<32x32xf32, #blocked> {
  %zero = arith.constant dense<0.0> : tensor<32x32xf32, #blocked>
  %d = tile.dot %a, %b, %zero : tensor<32x32xf16, #blocked> * tensor<32x32xf16, #blocked> -> tensor<32x32xf32, #blocked>
  %sum = arith.addf %c, %d : tensor<32x32xf32, #blocked>
  %q0 = tile.addptr %p, %x : tensor<32x32x!tile.ptr<f32>, #blocked>, tensor<32x32xi32, #blocked>
  %q1 = tile.addptr %q0, %x : tensor<32x32x!tile.ptr<f32>, #blocked>, tensor<32x32xi32, #blocked>
  %l = tile.load %q1, %m : tensor<32x32x!tile.ptr<f32>, #blocked>
  %r = arith.select %m, %l, %sum : tensor<32x32xi1, #blocked>, tensor<32x32xf32, #blocked>
  return %r : tensor<32x32xf32, #blocked>
}
