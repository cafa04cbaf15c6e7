// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of the tile type verifiers (TileDialect.cpp), the op
// verifiers (TileOps.cpp) and the ODS traits, then malformed custom syntax.

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// expected-error @+1 {{pointee must be an integer, float or pointer type, got 'tensor<4xf32>'}}
func.func @ptr_to_tensor(%a: !tile.ptr<tensor<4xf32>>) { return }

// -----

// expected-error @+1 {{pointee must be an integer, float or pointer type, got 'index'}}
func.func @ptr_to_index(%a: !tile.ptr<index>) { return }

// -----

// expected-error @+1 {{address space must be non-negative, got -1}}
func.func @ptr_negative_addrspace(%a: !tile.ptr<f32, -1>) { return }

// -----

// expected-error @+1 {{descriptor block must have a static shape, got 'tensor<?x32xf16>'}}
func.func @desc_dynamic(%d: !tile.tensordesc<tensor<?x32xf16>>) { return }

// -----

// expected-error @+1 {{descriptor block elements must be integers or floats, got '!tile.ptr<f16>'}}
func.func @desc_of_ptrs(%d: !tile.tensordesc<tensor<16x!tile.ptr<f16>>>) { return }

// -----

// expected-error @+1 {{descriptor block dimensions must be powers of two, got 'tensor<64x48xf16>'}}
func.func @desc_not_pow2(%d: !tile.tensordesc<tensor<64x48xf16>>) { return }

// -----

//===----------------------------------------------------------------------===//
// make_range
//===----------------------------------------------------------------------===//

func.func @range_negative_start() {
  // expected-error @+1 {{'tile.make_range' op start must be non-negative, got -4}}
  %0 = tile.make_range -4 to 12 : tensor<16xi32>
  return
}

// -----

func.func @range_empty() {
  // expected-error @+1 {{'tile.make_range' op end (8) must be greater than start (8)}}
  %0 = tile.make_range 8 to 8 : tensor<0xi32>
  return
}

// -----

func.func @range_negative_end() {
  // expected-error @+1 {{'tile.make_range' op end (-16) must be greater than start (0)}}
  %0 = tile.make_range 0 to -16 : tensor<16xi32>
  return
}

// -----

func.func @range_not_pow2() {
  // expected-error @+1 {{'tile.make_range' op length 12 must be a power of two}}
  %0 = tile.make_range 4 to 16 : tensor<12xi32>
  return
}

// -----

func.func @range_too_long() {
  // expected-error @+1 {{'tile.make_range' op length 2097152 exceeds the largest block of 1048576 elements}}
  %0 = tile.make_range 0 to 2097152 : tensor<2097152xi32>
  return
}

// -----

func.func @range_wrong_result() {
  // expected-error @+1 {{'tile.make_range' op result must be a 1-D tensor of 16 elements, got 'tensor<32xi32>'}}
  %0 = tile.make_range 0 to 16 : tensor<32xi32>
  return
}

// -----

func.func @range_wrong_rank() {
  // expected-error @+1 {{'tile.make_range' op result must be a 1-D tensor of 16 elements, got 'tensor<4x4xi32>'}}
  %0 = tile.make_range 0 to 16 : tensor<4x4xi32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// splat, broadcast, expand_dims, reshape, trans, join, split
//===----------------------------------------------------------------------===//

func.func @splat_element(%s: f32) {
  // expected-error @+1 {{'tile.splat' op result element type 'f16' differs from the scalar type 'f32'}}
  %0 = tile.splat %s : f32 -> tensor<16xf16>
  return
}

// -----

func.func @splat_of_tensor(%t: tensor<4xf32>) {
  // expected-error @+1 {{'tile.splat' op operand #0 must be}}
  %0 = "tile.splat"(%t) : (tensor<4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @broadcast_element(%a: tensor<4x1xf32>) {
  // expected-error @+1 {{'tile.broadcast' op result element type 'f16' differs from the source element type 'f32'}}
  %0 = tile.broadcast %a : tensor<4x1xf32> -> tensor<4x8xf16>
  return
}

// -----

func.func @broadcast_rank(%a: tensor<4xf32>) {
  // expected-error @+1 {{'tile.broadcast' op source rank 1 differs from result rank 2}}
  %0 = tile.broadcast %a : tensor<4xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @broadcast_dim(%a: tensor<4x2xf32>) {
  // expected-error @+1 {{'tile.broadcast' op dimension 1 of size 2 cannot be broadcast to 8}}
  %0 = tile.broadcast %a : tensor<4x2xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @expand_dims_element(%a: tensor<16xi32>) {
  // expected-error @+1 {{'tile.expand_dims' op result element type 'i64' differs from the source element type 'i32'}}
  %0 = tile.expand_dims %a axis = 0 : tensor<16xi32> -> tensor<1x16xi64>
  return
}

// -----

func.func @expand_dims_axis(%a: tensor<16xi32>) {
  // expected-error @+1 {{'tile.expand_dims' op axis 2 is out of range for a source of rank 1}}
  %0 = tile.expand_dims %a axis = 2 : tensor<16xi32> -> tensor<16x1xi32>
  return
}

// -----

func.func @expand_dims_negative_axis(%a: tensor<16xi32>) {
  // expected-error @+1 {{'tile.expand_dims' op axis -1 is out of range for a source of rank 1}}
  %0 = tile.expand_dims %a axis = -1 : tensor<16xi32> -> tensor<16x1xi32>
  return
}

// -----

func.func @expand_dims_shape(%a: tensor<16xi32>) {
  // expected-error @+1 {{'tile.expand_dims' op result shape must be [16, 1], got [1, 16]}}
  %0 = tile.expand_dims %a axis = 1 : tensor<16xi32> -> tensor<1x16xi32>
  return
}

// -----

func.func @reshape_element(%a: tensor<8x16xf32>) {
  // expected-error @+1 {{'tile.reshape' op result element type 'i32' differs from the source element type 'f32'}}
  %0 = tile.reshape %a : tensor<8x16xf32> -> tensor<128xi32>
  return
}

// -----

func.func @reshape_size(%a: tensor<8x16xf32>) {
  // expected-error @+1 {{'tile.reshape' op source has 128 elements but the result has 64}}
  %0 = tile.reshape %a allow_reorder : tensor<8x16xf32> -> tensor<64xf32>
  return
}

// -----

func.func @trans_element(%a: tensor<8x16xf32>) {
  // expected-error @+1 {{'tile.trans' op result element type 'f16' differs from the source element type 'f32'}}
  %0 = tile.trans %a [1, 0] : tensor<8x16xf32> -> tensor<16x8xf16>
  return
}

// -----

func.func @trans_order_size(%a: tensor<8x16xf32>) {
  // expected-error @+1 {{'tile.trans' op order has 3 entries for a source of rank 2}}
  %0 = tile.trans %a [1, 0, 2] : tensor<8x16xf32> -> tensor<16x8xf32>
  return
}

// -----

func.func @trans_order_repeated(%a: tensor<8x16xf32>) {
  // expected-error @+1 {{'tile.trans' op order must be a permutation of 0..1}}
  %0 = tile.trans %a [1, 1] : tensor<8x16xf32> -> tensor<16x16xf32>
  return
}

// -----

func.func @trans_order_out_of_range(%a: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'tile.trans' op order must be a permutation of 0..2}}
  %0 = tile.trans %a [0, 3, 1] : tensor<2x3x4xf32> -> tensor<2x4x3xf32>
  return
}

// -----

func.func @trans_order_negative(%a: tensor<8x16xf32>) {
  // expected-error @+1 {{'tile.trans' op order must be a permutation of 0..1}}
  %0 = tile.trans %a [-1, 0] : tensor<8x16xf32> -> tensor<16x8xf32>
  return
}

// -----

func.func @trans_result_rank(%a: tensor<8x16xf32>) {
  // expected-error @+1 {{'tile.trans' op result rank must be 2}}
  %0 = tile.trans %a [1, 0] : tensor<8x16xf32> -> tensor<16x8x1xf32>
  return
}

// -----

func.func @trans_result_dim(%a: tensor<8x16xf32>) {
  // expected-error @+1 {{'tile.trans' op result dimension 0 must be source dimension 1 of size 16, got 8}}
  %0 = tile.trans %a [1, 0] : tensor<8x16xf32> -> tensor<8x16xf32>
  return
}

// -----

func.func @join_element(%a: tensor<8xf32>) {
  // expected-error @+1 {{'tile.join' op result element type 'f16' differs from the source element type 'f32'}}
  %0 = tile.join %a, %a : tensor<8xf32> -> tensor<8x2xf16>
  return
}

// -----

func.func @join_shape(%a: tensor<8xf32>) {
  // expected-error @+1 {{'tile.join' op result shape must be [8, 2], got [2, 8]}}
  %0 = tile.join %a, %a : tensor<8xf32> -> tensor<2x8xf32>
  return
}

// -----

func.func @join_operands(%a: tensor<8xf32>, %b: tensor<8xf16>) {
  // expected-error @+1 {{'tile.join' op failed to verify that all of {lhs, rhs} have same type}}
  %0 = "tile.join"(%a, %b) : (tensor<8xf32>, tensor<8xf16>) -> tensor<8x2xf32>
  return
}

// -----

func.func @split_element(%a: tensor<8x2xf32>) {
  // expected-error @+1 {{'tile.split' op result element type 'f16' differs from the source element type 'f32'}}
  %0:2 = tile.split %a : tensor<8x2xf32> -> tensor<8xf16>
  return
}

// -----

func.func @split_innermost(%a: tensor<8x4xf32>) {
  // expected-error @+1 {{'tile.split' op source's innermost dimension must have size 2, got [8, 4]}}
  %0:2 = tile.split %a : tensor<8x4xf32> -> tensor<8xf32>
  return
}

// -----

func.func @split_rank0(%a: tensor<f32>) {
  // expected-error @+1 {{'tile.split' op source's innermost dimension must have size 2, got []}}
  %0:2 = tile.split %a : tensor<f32> -> tensor<f32>
  return
}

// -----

func.func @split_shape(%a: tensor<8x2xf32>) {
  // expected-error @+1 {{'tile.split' op result shape must be [8], got [4]}}
  %0:2 = tile.split %a : tensor<8x2xf32> -> tensor<4xf32>
  return
}

// -----

func.func @split_results(%a: tensor<8x2xf32>) {
  // expected-error @+1 {{'tile.split' op failed to verify that all of {outLHS, outRHS} have same type}}
  %0:2 = "tile.split"(%a) : (tensor<8x2xf32>) -> (tensor<8xf32>, tensor<4xf32>)
  return
}

// -----

//===----------------------------------------------------------------------===//
// addptr, int_to_ptr, ptr_to_int
//===----------------------------------------------------------------------===//

func.func @addptr_shape(%p: tensor<16x!tile.ptr<f32>>, %o: tensor<8xi32>) {
  // expected-error @+1 {{'tile.addptr' op offset type 'tensor<8xi32>' must have the shape of the pointers 'tensor<16x!tile.ptr<f32>>'}}
  %0 = tile.addptr %p, %o : tensor<16x!tile.ptr<f32>>, tensor<8xi32>
  return
}

// -----

func.func @addptr_scalar_offset(%p: tensor<16x!tile.ptr<f32>>, %o: i32) {
  // expected-error @+1 {{'tile.addptr' op offset type 'i32' must have the shape of the pointers 'tensor<16x!tile.ptr<f32>>'}}
  %0 = tile.addptr %p, %o : tensor<16x!tile.ptr<f32>>, i32
  return
}

// -----

func.func @addptr_result(%p: !tile.ptr<f32>, %o: i32) {
  // expected-error @+1 {{'tile.addptr' op failed to verify that all of {ptr, result} have same type}}
  %0 = "tile.addptr"(%p, %o) : (!tile.ptr<f32>, i32) -> !tile.ptr<f16>
  return
}

// -----

func.func @int_to_ptr_shape(%a: tensor<16xi64>) {
  // expected-error @+1 {{'tile.int_to_ptr' op source and result must have the same shape}}
  %0 = tile.int_to_ptr %a : tensor<16xi64> -> tensor<8x!tile.ptr<f32>>
  return
}

// -----

func.func @int_to_ptr_i32(%a: i32) {
  // expected-error @+1 {{'tile.int_to_ptr' op operand #0 must be}}
  %0 = tile.int_to_ptr %a : i32 -> !tile.ptr<f32>
  return
}

// -----

func.func @ptr_to_int_shape(%p: !tile.ptr<f32>) {
  // expected-error @+1 {{'tile.ptr_to_int' op source and result must have the same shape}}
  %0 = tile.ptr_to_int %p : !tile.ptr<f32> -> tensor<1xi64>
  return
}

// -----

//===----------------------------------------------------------------------===//
// load and store
//===----------------------------------------------------------------------===//

func.func @load_other_without_mask(%p: tensor<16x!tile.ptr<f32>>, %o: tensor<16xf32>) {
  // expected-error @+1 {{'tile.load' op 'other' requires a 'mask'}}
  %0 = "tile.load"(%p, %o) <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (tensor<16x!tile.ptr<f32>>, tensor<16xf32>) -> tensor<16xf32>
  return
}

// -----

func.func @load_cache_wb(%p: tensor<16x!tile.ptr<f32>>) {
  // expected-error @+1 {{'tile.load' op cache modifier 'wb' only applies to stores}}
  %0 = tile.load %p cache = wb : tensor<16x!tile.ptr<f32>>
  return
}

// -----

func.func @load_cache_wt(%p: !tile.ptr<f32>) {
  // expected-error @+1 {{'tile.load' op cache modifier 'wt' only applies to stores}}
  %0 = tile.load %p cache = wt evict = evict_last : !tile.ptr<f32>
  return
}

// -----

func.func @load_result_type(%p: tensor<16x!tile.ptr<f32>>) {
  // expected-error @+1 {{'tile.load' op failed to verify that result type is the pointee type of ptr}}
  %0 = "tile.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<16x!tile.ptr<f32>>) -> tensor<16xf16>
  return
}

// -----

func.func @load_result_shape(%p: tensor<16x!tile.ptr<f32>>) {
  // expected-error @+1 {{'tile.load' op failed to verify that result type is the pointee type of ptr}}
  %0 = "tile.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<16x!tile.ptr<f32>>) -> f32
  return
}

// -----

func.func @load_mask_type(%p: tensor<16x!tile.ptr<f32>>, %m: tensor<8xi1>) {
  // expected-error @+1 {{'tile.load' op failed to verify that mask is i1 with the shape of ptr}}
  %0 = "tile.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<16x!tile.ptr<f32>>, tensor<8xi1>) -> tensor<16xf32>
  return
}

// -----

func.func @load_scalar_mask_for_block(%p: tensor<16x!tile.ptr<f32>>, %m: i1) {
  // expected-error @+1 {{'tile.load' op failed to verify that mask is i1 with the shape of ptr}}
  %0 = "tile.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<16x!tile.ptr<f32>>, i1) -> tensor<16xf32>
  return
}

// -----

func.func @load_other_type(%p: tensor<16x!tile.ptr<f32>>, %m: tensor<16xi1>, %o: tensor<16xf16>) {
  // expected-error @+1 {{'tile.load' op failed to verify that other has the type of the result}}
  %0 = "tile.load"(%p, %m, %o) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<16x!tile.ptr<f32>>, tensor<16xi1>, tensor<16xf16>) -> tensor<16xf32>
  return
}

// -----

func.func @load_non_pointer(%p: tensor<16xi64>) {
  // expected-error @+1 {{'tile.load' op operand #0 must be}}
  %0 = "tile.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<16xi64>) -> tensor<16xf32>
  return
}

// -----

func.func @store_cache_ca(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xf32>) {
  // expected-error @+1 {{'tile.store' op cache modifier 'ca' only applies to loads}}
  tile.store %p, %v cache = ca : tensor<16x!tile.ptr<f32>>
  return
}

// -----

func.func @store_cache_cv(%p: !tile.ptr<f32>, %v: f32) {
  // expected-error @+1 {{'tile.store' op cache modifier 'cv' only applies to loads}}
  tile.store %p, %v cache = cv : !tile.ptr<f32>
  return
}

// -----

func.func @store_value_type(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xf16>) {
  // expected-error @+1 {{'tile.store' op failed to verify that value type is the pointee type of ptr}}
  "tile.store"(%p, %v) : (tensor<16x!tile.ptr<f32>>, tensor<16xf16>) -> ()
  return
}

// -----

func.func @store_mask_type(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xf32>, %m: tensor<16xi8>) {
  // expected-error @+1 {{'tile.store' op operand #2 must be}}
  "tile.store"(%p, %v, %m) : (tensor<16x!tile.ptr<f32>>, tensor<16xf32>, tensor<16xi8>) -> ()
  return
}

// -----

func.func @store_mask_shape(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xf32>, %m: tensor<4x4xi1>) {
  // expected-error @+1 {{'tile.store' op failed to verify that mask is i1 with the shape of ptr}}
  "tile.store"(%p, %v, %m) : (tensor<16x!tile.ptr<f32>>, tensor<16xf32>, tensor<4x4xi1>) -> ()
  return
}

// -----

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

func.func @rmw_add_float(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xf32>) {
  // expected-error @+1 {{'tile.atomic_rmw' op 'add' does not support elements of type 'f32'}}
  %0 = tile.atomic_rmw add, relaxed, gpu, %p, %v : tensor<16x!tile.ptr<f32>>
  return
}

// -----

func.func @rmw_fadd_int(%p: !tile.ptr<i32>, %v: i32) {
  // expected-error @+1 {{'tile.atomic_rmw' op 'fadd' does not support elements of type 'i32'}}
  %0 = tile.atomic_rmw fadd, relaxed, gpu, %p, %v : !tile.ptr<i32>
  return
}

// -----

func.func @rmw_and_i16(%p: !tile.ptr<i16>, %v: i16) {
  // expected-error @+1 {{'tile.atomic_rmw' op 'and' does not support elements of type 'i16'}}
  %0 = tile.atomic_rmw and, acq_rel, cta, %p, %v : !tile.ptr<i16>
  return
}

// -----

func.func @rmw_max_fp8(%p: !tile.ptr<f8E4M3FN>, %v: f8E4M3FN) {
  // expected-error @+1 {{'tile.atomic_rmw' op 'max' does not support elements of type 'f8E4M3FN'}}
  %0 = tile.atomic_rmw max, relaxed, sys, %p, %v : !tile.ptr<f8E4M3FN>
  return
}

// -----

func.func @rmw_xchg_ptr(%p: !tile.ptr<!tile.ptr<f32>>, %v: !tile.ptr<f32>) {
  // expected-error @+1 {{'tile.atomic_rmw' op 'xchg' does not support elements of type '!tile.ptr<f32>'}}
  %0 = tile.atomic_rmw xchg, relaxed, gpu, %p, %v : !tile.ptr<!tile.ptr<f32>>
  return
}

// -----

func.func @rmw_val_type(%p: tensor<16x!tile.ptr<i32>>, %v: tensor<16xi64>) {
  // expected-error @+1 {{'tile.atomic_rmw' op failed to verify that val type is the pointee type of ptr}}
  %0 = "tile.atomic_rmw"(%p, %v) <{rmwOp = 3 : i32, scope = 0 : i32, sem = 0 : i32}> : (tensor<16x!tile.ptr<i32>>, tensor<16xi64>) -> tensor<16xi32>
  return
}

// -----

func.func @rmw_result_type(%p: tensor<16x!tile.ptr<i32>>, %v: tensor<16xi32>) {
  // expected-error @+1 {{'tile.atomic_rmw' op failed to verify that result type is the pointee type of ptr}}
  %0 = "tile.atomic_rmw"(%p, %v) <{rmwOp = 3 : i32, scope = 0 : i32, sem = 0 : i32}> : (tensor<16x!tile.ptr<i32>>, tensor<16xi32>) -> i32
  return
}

// -----

func.func @rmw_mask_type(%p: tensor<16x!tile.ptr<i32>>, %v: tensor<16xi32>, %m: i1) {
  // expected-error @+1 {{'tile.atomic_rmw' op failed to verify that mask is i1 with the shape of ptr}}
  %0 = "tile.atomic_rmw"(%p, %v, %m) <{rmwOp = 3 : i32, scope = 0 : i32, sem = 0 : i32}> : (tensor<16x!tile.ptr<i32>>, tensor<16xi32>, i1) -> tensor<16xi32>
  return
}

// -----

func.func @rmw_bad_enum_value(%p: !tile.ptr<i32>, %v: i32) {
  // expected-error @+1 {{invalid properties {rmwOp = 42 : i32, scope = 0 : i32, sem = 0 : i32} for op tile.atomic_rmw: Invalid attribute `rmwOp` in property conversion: 42 : i32}}
  %0 = "tile.atomic_rmw"(%p, %v) <{rmwOp = 42 : i32, scope = 0 : i32, sem = 0 : i32}> : (!tile.ptr<i32>, i32) -> i32
  return
}

// -----

func.func @cas_i8(%p: !tile.ptr<i8>, %c: i8, %v: i8) {
  // expected-error @+1 {{'tile.atomic_cas' op compare-and-swap needs 16-, 32- or 64-bit elements, got 'i8'}}
  %0 = tile.atomic_cas acq_rel, gpu, %p, %c, %v : !tile.ptr<i8>
  return
}

// -----

func.func @cas_i1(%p: tensor<4x!tile.ptr<i1>>, %c: tensor<4xi1>, %v: tensor<4xi1>) {
  // expected-error @+1 {{'tile.atomic_cas' op compare-and-swap needs 16-, 32- or 64-bit elements, got 'i1'}}
  %0 = tile.atomic_cas relaxed, cta, %p, %c, %v : tensor<4x!tile.ptr<i1>>
  return
}

// -----

func.func @cas_cmp_type(%p: !tile.ptr<i32>, %c: i64, %v: i32) {
  // expected-error @+1 {{'tile.atomic_cas' op failed to verify that cmp type is the pointee type of ptr}}
  %0 = "tile.atomic_cas"(%p, %c, %v) <{scope = 0 : i32, sem = 0 : i32}> : (!tile.ptr<i32>, i64, i32) -> i32
  return
}

// -----

func.func @cas_val_type(%p: !tile.ptr<i32>, %c: i32, %v: f32) {
  // expected-error @+1 {{'tile.atomic_cas' op failed to verify that val type is the pointee type of ptr}}
  %0 = "tile.atomic_cas"(%p, %c, %v) <{scope = 0 : i32, sem = 0 : i32}> : (!tile.ptr<i32>, i32, f32) -> i32
  return
}

// -----

func.func @cas_result_type(%p: !tile.ptr<i32>, %c: i32, %v: i32) {
  // expected-error @+1 {{'tile.atomic_cas' op failed to verify that result type is the pointee type of ptr}}
  %0 = "tile.atomic_cas"(%p, %c, %v) <{scope = 0 : i32, sem = 0 : i32}> : (!tile.ptr<i32>, i32, i32) -> f32
  return
}

// -----

//===----------------------------------------------------------------------===//
// Tensor descriptors
//===----------------------------------------------------------------------===//

func.func @desc_shape_count(%b: !tile.ptr<f16>, %m: i32, %s: i64) {
  // expected-error @+1 {{'tile.make_tensor_desc' op needs one shape and one stride per block dimension (2), got 1 and 2}}
  %0 = tile.make_tensor_desc %b, [%m], [%s, %s] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x32xf16>>
  return
}

// -----

func.func @desc_stride_count(%b: !tile.ptr<f16>, %m: i32, %s: i64) {
  // expected-error @+1 {{'tile.make_tensor_desc' op needs one shape and one stride per block dimension (2), got 2 and 3}}
  %0 = tile.make_tensor_desc %b, [%m, %m], [%s, %s, %s] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x32xf16>>
  return
}

// -----

func.func @desc_base_type(%b: !tile.ptr<f32>, %m: i32, %s: i64) {
  // expected-error @+1 {{'tile.make_tensor_desc' op base points to 'f32' but the block holds 'f16'}}
  %0 = tile.make_tensor_desc %b, [%m, %m], [%s, %s] : !tile.ptr<f32> -> !tile.tensordesc<tensor<64x32xf16>>
  return
}

// -----

func.func @desc_load_indices(%d: !tile.tensordesc<tensor<64x32xf16>>, %i: i32) {
  // expected-error @+1 {{'tile.desc_load' op needs 2 indices, got 1}}
  %0 = tile.desc_load %d[%i] : !tile.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
  return
}

// -----

func.func @desc_load_block(%d: !tile.tensordesc<tensor<64x32xf16>>, %i: i32) {
  // expected-error @+1 {{'tile.desc_load' op block type 'tensor<32x64xf16>' does not match the descriptor's 'tensor<64x32xf16>'}}
  %0 = tile.desc_load %d[%i, %i] : !tile.tensordesc<tensor<64x32xf16>> -> tensor<32x64xf16>
  return
}

// -----

func.func @desc_load_element(%d: !tile.tensordesc<tensor<64x32xf16>>, %i: i32) {
  // expected-error @+1 {{'tile.desc_load' op block type 'tensor<64x32xf32>' does not match the descriptor's 'tensor<64x32xf16>'}}
  %0 = tile.desc_load %d[%i, %i] : !tile.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf32>
  return
}

// -----

func.func @desc_load_cache(%d: !tile.tensordesc<tensor<64x32xf16>>, %i: i32) {
  // expected-error @+1 {{'tile.desc_load' op cache modifier 'wt' only applies to stores}}
  %0 = tile.desc_load %d[%i, %i] cache = wt : !tile.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
  return
}

// -----

func.func @desc_store_indices(%d: !tile.tensordesc<tensor<64x32xf16>>, %i: i32, %v: tensor<64x32xf16>) {
  // expected-error @+1 {{'tile.desc_store' op needs 2 indices, got 3}}
  tile.desc_store %d[%i, %i, %i], %v : !tile.tensordesc<tensor<64x32xf16>>, tensor<64x32xf16>
  return
}

// -----

func.func @desc_store_block(%d: !tile.tensordesc<tensor<64x32xf16>>, %i: i32, %v: tensor<64x64xf16>) {
  // expected-error @+1 {{'tile.desc_store' op block type 'tensor<64x64xf16>' does not match the descriptor's 'tensor<64x32xf16>'}}
  tile.desc_store %d[%i, %i], %v : !tile.tensordesc<tensor<64x32xf16>>, tensor<64x64xf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// dot
//===----------------------------------------------------------------------===//

func.func @dot_rank1(%a: tensor<16xf16>, %b: tensor<16xf16>, %c: tensor<16xf32>) {
  // expected-error @+1 {{'tile.dot' op operands must be 2-D, or 3-D with a batch dimension}}
  %0 = tile.dot %a, %b, %c : tensor<16xf16> * tensor<16xf16> -> tensor<16xf32>
  return
}

// -----

func.func @dot_rank_mismatch(%a: tensor<16x32xf16>, %b: tensor<2x32x64xf16>, %c: tensor<16x64xf32>) {
  // expected-error @+1 {{'tile.dot' op operands must all have rank 2}}
  %0 = tile.dot %a, %b, %c : tensor<16x32xf16> * tensor<2x32x64xf16> -> tensor<16x64xf32>
  return
}

// -----

func.func @dot_batch(%a: tensor<2x16x32xf16>, %b: tensor<4x32x64xf16>, %c: tensor<2x16x64xf32>) {
  // expected-error @+1 {{'tile.dot' op batch dimensions differ: 2, 4 and 2}}
  %0 = tile.dot %a, %b, %c : tensor<2x16x32xf16> * tensor<4x32x64xf16> -> tensor<2x16x64xf32>
  return
}

// -----

func.func @dot_k(%a: tensor<16x32xf16>, %b: tensor<16x64xf16>, %c: tensor<16x64xf32>) {
  // expected-error @+1 {{'tile.dot' op a is 16x32 but b has 16 rows}}
  %0 = tile.dot %a, %b, %c : tensor<16x32xf16> * tensor<16x64xf16> -> tensor<16x64xf32>
  return
}

// -----

func.func @dot_acc(%a: tensor<16x32xf16>, %b: tensor<32x64xf16>, %c: tensor<64x16xf32>) {
  // expected-error @+1 {{'tile.dot' op accumulator must be 16x64, got 64x16}}
  %0 = tile.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x64xf16> -> tensor<64x16xf32>
  return
}

// -----

func.func @dot_mixed(%a: tensor<16x32xf16>, %b: tensor<32x64xbf16>, %c: tensor<16x64xf32>) {
  // expected-error @+1 {{'tile.dot' op unsupported element types: 'f16' x 'bf16' -> 'f32'}}
  %0 = tile.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x64xbf16> -> tensor<16x64xf32>
  return
}

// -----

func.func @dot_bf16_acc(%a: tensor<16x32xbf16>, %b: tensor<32x64xbf16>, %c: tensor<16x64xbf16>) {
  // expected-error @+1 {{'tile.dot' op unsupported element types: 'bf16' x 'bf16' -> 'bf16'}}
  %0 = tile.dot %a, %b, %c : tensor<16x32xbf16> * tensor<32x64xbf16> -> tensor<16x64xbf16>
  return
}

// -----

func.func @dot_i8_acc(%a: tensor<16x32xi8>, %b: tensor<32x64xi8>, %c: tensor<16x64xf32>) {
  // expected-error @+1 {{'tile.dot' op unsupported element types: 'i8' x 'i8' -> 'f32'}}
  %0 = tile.dot %a, %b, %c : tensor<16x32xi8> * tensor<32x64xi8> -> tensor<16x64xf32>
  return
}

// -----

func.func @dot_fp8_f64(%a: tensor<16x32xf8E5M2>, %b: tensor<32x64xf8E4M3FN>, %c: tensor<16x64xf64>) {
  // expected-error @+1 {{'tile.dot' op unsupported element types: 'f8E5M2' x 'f8E4M3FN' -> 'f64'}}
  %0 = tile.dot %a, %b, %c : tensor<16x32xf8E5M2> * tensor<32x64xf8E4M3FN> -> tensor<16x64xf64>
  return
}

// -----

func.func @dot_precision(%a: tensor<16x32xf16>, %b: tensor<32x64xf16>, %c: tensor<16x64xf32>) {
  // expected-error @+1 {{'tile.dot' op precision 'tf32' only applies to f32 operands}}
  %0 = tile.dot %a, %b, %c precision = tf32 : tensor<16x32xf16> * tensor<32x64xf16> -> tensor<16x64xf32>
  return
}

// -----

func.func @dot_precision_x3(%a: tensor<16x32xf64>, %b: tensor<32x64xf64>, %c: tensor<16x64xf64>) {
  // expected-error @+1 {{'tile.dot' op precision 'tf32x3' only applies to f32 operands}}
  %0 = tile.dot %a, %b, %c precision = tf32x3 : tensor<16x32xf64> * tensor<32x64xf64> -> tensor<16x64xf64>
  return
}

// -----

func.func @dot_c_d(%a: tensor<16x32xf16>, %b: tensor<32x64xf16>, %c: tensor<16x64xf32>) {
  // expected-error @+1 {{'tile.dot' op failed to verify that all of {c, d} have same type}}
  %0 = "tile.dot"(%a, %b, %c) : (tensor<16x32xf16>, tensor<32x64xf16>, tensor<16x64xf32>) -> tensor<16x64xf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// reduce
//===----------------------------------------------------------------------===//

func.func @reduce_no_source() {
  // expected-error @+1 {{'tile.reduce' op needs at least one source}}
  "tile.reduce"() <{axis = 0 : i32}> ({
  ^bb0:
    "tile.reduce.return"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @reduce_shapes(%a: tensor<16xf32>, %b: tensor<8xi32>) {
  // expected-error @+1 {{'tile.reduce' op sources must all have the shape [16]}}
  %0:2 = tile.reduce (%a, %b) axis = 0 : (tensor<16xf32>, tensor<8xi32>) -> (f32, i32) {
  ^bb0(%x: f32, %i: i32, %y: f32, %j: i32):
    tile.reduce.return %x, %i : f32, i32
  }
  return
}

// -----

func.func @reduce_axis(%a: tensor<4x16xf32>) {
  // expected-error @+1 {{'tile.reduce' op axis 2 is out of range for sources of rank 2}}
  %0 = tile.reduce (%a) axis = 2 : (tensor<4x16xf32>) -> tensor<4xf32> {
  ^bb0(%x: f32, %y: f32):
    tile.reduce.return %x : f32
  }
  return
}

// -----

func.func @reduce_negative_axis(%a: tensor<4x16xf32>) {
  // expected-error @+1 {{'tile.reduce' op axis -1 is out of range for sources of rank 2}}
  %0 = tile.reduce (%a) axis = -1 : (tensor<4x16xf32>) -> tensor<4xf32> {
  ^bb0(%x: f32, %y: f32):
    tile.reduce.return %x : f32
  }
  return
}

// -----

func.func @reduce_result_count(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tile.reduce' op must have one result per source (1), got 2}}
  %0:2 = tile.reduce (%a) axis = 0 : (tensor<16xf32>) -> (f32, f32) {
  ^bb0(%x: f32, %y: f32):
    tile.reduce.return %x : f32
  }
  return
}

// -----

func.func @reduce_1d_result(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tile.reduce' op result #0 of a 1-D reduction must be the scalar 'f32', got 'tensor<1xf32>'}}
  %0 = tile.reduce (%a) axis = 0 : (tensor<16xf32>) -> tensor<1xf32> {
  ^bb0(%x: f32, %y: f32):
    tile.reduce.return %x : f32
  }
  return
}

// -----

func.func @reduce_2d_result_shape(%a: tensor<4x16xf32>) {
  // expected-error @+1 {{'tile.reduce' op result #0 must have shape [4] and element type 'f32', got 'tensor<16xf32>'}}
  %0 = tile.reduce (%a) axis = 1 : (tensor<4x16xf32>) -> tensor<16xf32> {
  ^bb0(%x: f32, %y: f32):
    tile.reduce.return %x : f32
  }
  return
}

// -----

func.func @reduce_2d_result_scalar(%a: tensor<4x16xf32>, %b: tensor<4x16xi32>) {
  // expected-error @+1 {{'tile.reduce' op result #1 must have shape [16] and element type 'i32', got 'i32'}}
  %0:2 = tile.reduce (%a, %b) axis = 0 : (tensor<4x16xf32>, tensor<4x16xi32>) -> (tensor<16xf32>, i32) {
  ^bb0(%x: f32, %i: i32, %y: f32, %j: i32):
    tile.reduce.return %x, %i : f32, i32
  }
  return
}

// -----

func.func @reduce_2d_result_element(%a: tensor<4x16xf32>) {
  // expected-error @+1 {{'tile.reduce' op result #0 must have shape [4] and element type 'f32', got 'tensor<4xf16>'}}
  %0 = tile.reduce (%a) axis = 1 : (tensor<4x16xf32>) -> tensor<4xf16> {
  ^bb0(%x: f32, %y: f32):
    tile.reduce.return %x : f32
  }
  return
}

// -----

func.func @reduce_region_arg_count(%a: tensor<16xf32>, %b: tensor<16xi32>) {
  // expected-error @+1 {{'tile.reduce' op combine region must take 4 arguments (two per source), got 2}}
  %0:2 = tile.reduce (%a, %b) axis = 0 : (tensor<16xf32>, tensor<16xi32>) -> (f32, i32) {
  ^bb0(%x: f32, %i: i32):
    tile.reduce.return %x, %i : f32, i32
  }
  return
}

// -----

// The new values come after all the accumulators: argument #1 is the
// accumulator of the second source.
func.func @reduce_region_arg_order(%a: tensor<16xf32>, %b: tensor<16xi32>) {
  // expected-error @+1 {{'tile.reduce' op combine region argument #1 must have type 'i32', got 'f32'}}
  %0:2 = tile.reduce (%a, %b) axis = 0 : (tensor<16xf32>, tensor<16xi32>) -> (f32, i32) {
  ^bb0(%x: f32, %y: f32, %i: i32, %j: i32):
    tile.reduce.return %x, %i : f32, i32
  }
  return
}

// -----

func.func @reduce_region_tensor_arg(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tile.reduce' op combine region argument #0 must have type 'f32', got 'tensor<16xf32>'}}
  %0 = tile.reduce (%a) axis = 0 : (tensor<16xf32>) -> f32 {
  ^bb0(%x: tensor<16xf32>, %y: f32):
    tile.reduce.return %y : f32
  }
  return
}

// -----

func.func @reduce_region_yield_count(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tile.reduce' op combine region must yield 1 values, got 2}}
  %0 = tile.reduce (%a) axis = 0 : (tensor<16xf32>) -> f32 {
  ^bb0(%x: f32, %y: f32):
    tile.reduce.return %x, %y : f32, f32
  }
  return
}

// -----

func.func @reduce_region_yield_type(%a: tensor<16xf32>, %b: tensor<16xi32>) {
  // expected-error @+1 {{'tile.reduce' op combine region result #1 must have type 'i32', got 'f32'}}
  %0:2 = tile.reduce (%a, %b) axis = 0 : (tensor<16xf32>, tensor<16xi32>) -> (f32, i32) {
  ^bb0(%x: f32, %i: i32, %y: f32, %j: i32):
    tile.reduce.return %x, %y : f32, f32
  }
  return
}

// -----

func.func @reduce_region_blocks(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tile.reduce' op expects region #0 to have 0 or 1 blocks}}
  %0 = tile.reduce (%a) axis = 0 : (tensor<16xf32>) -> f32 {
  ^bb0(%x: f32, %y: f32):
    cf.br ^bb1
  ^bb1:
    tile.reduce.return %x : f32
  }
  return
}

// -----

func.func @reduce_rank0(%a: tensor<f32>) {
  // expected-error @+1 {{'tile.reduce' op axis 0 is out of range for sources of rank 0}}
  %0 = tile.reduce (%a) axis = 0 : (tensor<f32>) -> f32 {
  ^bb0(%x: f32, %y: f32):
    tile.reduce.return %x : f32
  }
  return
}

// -----

// The structural region checks run before the combine-region verifier, which
// therefore never sees an empty region or a block without terminator.
func.func @reduce_empty_region(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tile.reduce' op expects a non-empty block}}
  %0 = tile.reduce (%a) axis = 0 : (tensor<16xf32>) -> f32 {
  }
  return
}

// -----

func.func @reduce_no_terminator(%a: tensor<16xf32>) {
  %0 = tile.reduce (%a) axis = 0 : (tensor<16xf32>) -> f32 {
  ^bb0(%x: f32, %y: f32):
    // expected-error @+1 {{block with no terminator}}
    %s = arith.addf %x, %y : f32
  }
  return
}

// -----

func.func @reduce_return_outside(%a: f32) {
  // expected-error @+1 {{'tile.reduce.return' op expects parent op 'tile.reduce'}}
  tile.reduce.return %a : f32
}

// -----

//===----------------------------------------------------------------------===//
// scan
//===----------------------------------------------------------------------===//

func.func @scan_no_source() {
  // expected-error @+1 {{'tile.scan' op needs at least one source}}
  "tile.scan"() <{axis = 0 : i32}> ({
  ^bb0:
    "tile.scan.return"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @scan_shapes(%a: tensor<4x16xf32>, %b: tensor<16x4xf32>) {
  // expected-error @+1 {{'tile.scan' op sources must all have the shape [4, 16]}}
  %0:2 = tile.scan (%a, %b) axis = 1 : (tensor<4x16xf32>, tensor<16x4xf32>) -> (tensor<4x16xf32>, tensor<16x4xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %w: f32):
    tile.scan.return %x, %y : f32, f32
  }
  return
}

// -----

func.func @scan_axis(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tile.scan' op axis 1 is out of range for sources of rank 1}}
  %0 = tile.scan (%a) axis = 1 : (tensor<16xf32>) -> tensor<16xf32> {
  ^bb0(%x: f32, %y: f32):
    tile.scan.return %x : f32
  }
  return
}

// -----

func.func @scan_result_count(%a: tensor<16xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{'tile.scan' op must have one result per source (2), got 1}}
  %0 = tile.scan (%a, %b) axis = 0 : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32> {
  ^bb0(%x: f32, %y: f32, %z: f32, %w: f32):
    tile.scan.return %x, %y : f32, f32
  }
  return
}

// -----

func.func @scan_result_shape(%a: tensor<4x16xf32>) {
  // expected-error @+1 {{'tile.scan' op result #0 must have the shape and element type of source #0}}
  %0 = tile.scan (%a) axis = 1 reverse : (tensor<4x16xf32>) -> tensor<4xf32> {
  ^bb0(%x: f32, %y: f32):
    tile.scan.return %x : f32
  }
  return
}

// -----

func.func @scan_result_element(%a: tensor<16xf32>, %b: tensor<16xi32>) {
  // expected-error @+1 {{'tile.scan' op result #1 must have the shape and element type of source #1}}
  %0:2 = tile.scan (%a, %b) axis = 0 : (tensor<16xf32>, tensor<16xi32>) -> (tensor<16xf32>, tensor<16xi64>) {
  ^bb0(%x: f32, %i: i32, %y: f32, %j: i32):
    tile.scan.return %x, %i : f32, i32
  }
  return
}

// -----

func.func @scan_scalar_result(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tile.scan' op result #0 must be variadic of ranked tensor of floating-point or integer or tile.ptr values, but got 'f32'}}
  %0 = tile.scan (%a) axis = 0 : (tensor<16xf32>) -> f32 {
  ^bb0(%x: f32, %y: f32):
    tile.scan.return %x : f32
  }
  return
}

// -----

func.func @scan_region_arg_count(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tile.scan' op combine region must take 2 arguments (two per source), got 3}}
  %0 = tile.scan (%a) axis = 0 : (tensor<16xf32>) -> tensor<16xf32> {
  ^bb0(%x: f32, %y: f32, %z: f32):
    tile.scan.return %x : f32
  }
  return
}

// -----

func.func @scan_region_arg_type(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tile.scan' op combine region argument #1 must have type 'f32', got 'f16'}}
  %0 = tile.scan (%a) axis = 0 : (tensor<16xf32>) -> tensor<16xf32> {
  ^bb0(%x: f32, %y: f16):
    tile.scan.return %x : f32
  }
  return
}

// -----

func.func @scan_region_yield_count(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tile.scan' op combine region must yield 1 values, got 0}}
  %0 = tile.scan (%a) axis = 0 : (tensor<16xf32>) -> tensor<16xf32> {
  ^bb0(%x: f32, %y: f32):
    "tile.scan.return"() : () -> ()
  }
  return
}

// -----

func.func @scan_region_yield_type(%a: tensor<16xi32>) {
  // expected-error @+1 {{'tile.scan' op combine region result #0 must have type 'i32', got 'i64'}}
  %0 = tile.scan (%a) axis = 0 : (tensor<16xi32>) -> tensor<16xi32> {
  ^bb0(%x: i32, %y: i32):
    %w = arith.extsi %x : i32 to i64
    tile.scan.return %w : i64
  }
  return
}

// -----

func.func @scan_return_in_reduce(%a: tensor<16xf32>) {
  %0 = tile.reduce (%a) axis = 0 : (tensor<16xf32>) -> f32 {
  ^bb0(%x: f32, %y: f32):
    // expected-error @+1 {{'tile.scan.return' op expects parent op 'tile.scan'}}
    tile.scan.return %x : f32
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// fp_to_fp, bitcast
//===----------------------------------------------------------------------===//

func.func @fp_to_fp_shape(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tile.fp_to_fp' op source 'tensor<16xf32>' and result 'tensor<8xf16>' must have the same shape}}
  %0 = tile.fp_to_fp %a rounding = rtne : tensor<16xf32> -> tensor<8xf16>
  return
}

// -----

func.func @fp_to_fp_scalar_to_tensor(%a: f16) {
  // expected-error @+1 {{'tile.fp_to_fp' op source 'f16' and result 'tensor<1xf32>' must have the same shape}}
  %0 = tile.fp_to_fp %a : f16 -> tensor<1xf32>
  return
}

// -----

func.func @fp_to_fp_needs_rounding(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tile.fp_to_fp' op conversion from 'f32' to 'f16' can lose precision and needs a rounding mode}}
  %0 = tile.fp_to_fp %a : tensor<16xf32> -> tensor<16xf16>
  return
}

// -----

// f16 and bf16 cannot represent each other's values: both directions round.
func.func @fp_to_fp_bf16_to_f16(%a: bf16) {
  // expected-error @+1 {{'tile.fp_to_fp' op conversion from 'bf16' to 'f16' can lose precision and needs a rounding mode}}
  %0 = tile.fp_to_fp %a : bf16 -> f16
  return
}

// -----

func.func @fp_to_fp_exact(%a: tensor<16xf16>) {
  // expected-error @+1 {{'tile.fp_to_fp' op conversion from 'f16' to 'f32' is exact and takes no rounding mode}}
  %0 = tile.fp_to_fp %a rounding = rtz : tensor<16xf16> -> tensor<16xf32>
  return
}

// -----

func.func @fp_to_fp_int(%a: i32) {
  // expected-error @+1 {{'tile.fp_to_fp' op operand #0 must be}}
  %0 = tile.fp_to_fp %a : i32 -> f32
  return
}

// -----

func.func @bitcast_shape(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tile.bitcast' op source 'tensor<16xf32>' and result 'tensor<4x4xi32>' must have the same shape}}
  %0 = tile.bitcast %a : tensor<16xf32> -> tensor<4x4xi32>
  return
}

// -----

func.func @bitcast_width(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tile.bitcast' op cannot reinterpret 32-bit elements as 16-bit elements}}
  %0 = tile.bitcast %a : tensor<16xf32> -> tensor<16xf16>
  return
}

// -----

func.func @bitcast_ptr_i32(%p: !tile.ptr<f32>) {
  // expected-error @+1 {{'tile.bitcast' op cannot reinterpret 64-bit elements as 32-bit elements}}
  %0 = tile.bitcast %p : !tile.ptr<f32> -> i32
  return
}

// -----

//===----------------------------------------------------------------------===//
// extern_elementwise, print
//===----------------------------------------------------------------------===//

func.func @extern_shape(%a: tensor<16xf32>, %b: f32) {
  // expected-error @+1 {{'tile.extern_elementwise' op operand #1 of type 'f32' does not have the shape of the result 'tensor<16xf32>'}}
  %0 = tile.extern_elementwise "__nv_powf"(%a, %b) {libname = "libdevice", libpath = "", pure = true} : (tensor<16xf32>, f32) -> tensor<16xf32>
  return
}

// -----

func.func @extern_symbol_not_a_name(%a: f32) {
  // expected-error @+1 {{'tile.extern_elementwise' op symbol "cuda:80" is not a function name: letters, digits, '_' and '$', not starting with a digit}}
  %0 = tile.extern_elementwise "cuda:80"(%a) {libname = "", libpath = "", pure = true} : (f32) -> f32
  return
}

// -----

func.func @extern_symbol_empty(%a: f32) {
  // expected-error @+1 {{'tile.extern_elementwise' op symbol "" is not a function name}}
  %0 = tile.extern_elementwise ""(%a) {libname = "", libpath = "", pure = true} : (f32) -> f32
  return
}

// -----

func.func @extern_missing_attr(%a: f32) {
  // expected-error @+1 {{'tile.extern_elementwise' op requires attribute 'pure'}}
  %0 = tile.extern_elementwise "__nv_expf"(%a) {libname = "libdevice", libpath = ""} : (f32) -> f32
  return
}

// -----

// inline_asm

func.func @inline_asm_shape(%a: tensor<16xi32>, %b: i32) {
  // expected-error @+1 {{'tile.inline_asm' op operand #1 of type 'i32' does not have the shape of the results 'tensor<16xi32>'}}
  %0 = tile.inline_asm "add.s32 $0, $1, $2;" constraints "=r,r,r" (%a, %b) {pack = 1 : i32, pure = true} : (tensor<16xi32>, i32) -> tensor<16xi32>
  return
}

// -----

func.func @inline_asm_result_shapes(%a: tensor<16xi32>) {
  // expected-error @+1 {{'tile.inline_asm' op result #1 of type 'tensor<8xi32>' does not have the shape of result #0 'tensor<16xi32>'}}
  %0:2 = tile.inline_asm "mov.b32 $0, $2; mov.b32 $1, $2;" constraints "=r,=r,r" (%a) {pack = 1 : i32, pure = true} : (tensor<16xi32>) -> (tensor<16xi32>, tensor<8xi32>)
  return
}

// -----

func.func @inline_asm_pack(%a: i32) {
  // expected-error @+1 {{'tile.inline_asm' op pack must be at least 1, got 0}}
  %0 = tile.inline_asm "mov.b32 $0, $1;" constraints "=r,r" (%a) {pack = 0 : i32, pure = true} : (i32) -> i32
  return
}

// -----

func.func @inline_asm_no_result(%a: i32) {
  // expected-error @+1 {{'tile.inline_asm' op must have at least one result}}
  tile.inline_asm "trap;" constraints "r" (%a) {pack = 1 : i32, pure = false} : (i32) -> ()
  return
}

// -----

// Four i8 share a register: pack = 4 takes one output and one input.
func.func @inline_asm_outputs(%a: tensor<16xi8>) {
  // expected-error @+1 {{'tile.inline_asm' op has 4 output constraints, but its results take 1 registers with pack = 4}}
  %0 = tile.inline_asm "mov.b32 $0, $4;" constraints "=r,=r,=r,=r,r" (%a) {pack = 4 : i32, pure = true} : (tensor<16xi8>) -> tensor<16xi8>
  return
}

// -----

// float32 takes a register per element: pack = 2 needs two inputs.
func.func @inline_asm_inputs(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tile.inline_asm' op has 1 input constraints, but its operands take 2 registers with pack = 2}}
  %0 = tile.inline_asm "mov.b32 $0, $2;" constraints "=r,=r,r" (%a) {pack = 2 : i32, pure = true} : (tensor<16xf32>) -> tensor<16xf32>
  return
}

// -----

func.func @inline_asm_order(%a: i32) {
  // expected-error @+1 {{'tile.inline_asm' op constraint '=r' is an output after an input; outputs come first}}
  %0 = tile.inline_asm "mov.b32 $1, $0;" constraints "r,=r" (%a) {pack = 1 : i32, pure = true} : (i32) -> i32
  return
}

// -----

func.func @inline_asm_empty_constraint(%a: i32) {
  // expected-error @+1 {{'tile.inline_asm' op has an empty constraint in '=r,,r'}}
  %0 = tile.inline_asm "mov.b32 $0, $1;" constraints "=r,,r" (%a) {pack = 1 : i32, pure = true} : (i32) -> i32
  return
}

// -----

func.func @print_is_signed(%a: i32, %b: i32) {
  // expected-error @+1 {{'tile.print' op is_signed has 1 entries for 2 arguments}}
  tile.print "x" {isSigned = array<i32: 1>} : %a, %b : i32, i32
  return
}

// -----

func.func @print_is_signed_no_args() {
  // expected-error @+1 {{'tile.print' op is_signed has 1 entries for 0 arguments}}
  tile.print "x" {isSigned = array<i32: 0>}
  return
}

// -----

func.func @assert_condition(%c: i32) {
  // expected-error @+1 {{'tile.assert' op operand #0 must be i1 or tensor of i1}}
  tile.assert %c, "bad" : i32
  return
}

// -----

//===----------------------------------------------------------------------===//
// Malformed custom syntax: the parser reports a located error.
//===----------------------------------------------------------------------===//

func.func @unknown_dim() {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'dim' [x, y, z]}}
  %0 = tile.program_id w : i32
  return
}

// -----

// An optional enum stops at a keyword it does not know: the error points at
// that keyword.
func.func @unknown_cache_keyword(%p: !tile.ptr<f32>) {
  // expected-error @+1 {{expected ':'}}
  %0 = tile.load %p cache = lru : !tile.ptr<f32>
  return
}

// -----

func.func @unknown_cache_string(%p: !tile.ptr<f32>) {
  // expected-error @+1 {{invalid cache attribute specification: "lru"}}
  %0 = tile.load %p cache = "lru" : !tile.ptr<f32>
  return
}

// -----

func.func @unknown_rmw(%p: !tile.ptr<i32>, %v: i32) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'rmwOp'}}
  %0 = tile.atomic_rmw nand, relaxed, gpu, %p, %v : !tile.ptr<i32>
  return
}

// -----

func.func @unknown_scope(%p: !tile.ptr<i32>, %v: i32) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'scope' [gpu, cta, sys]}}
  %0 = tile.atomic_rmw add, relaxed, device, %p, %v : !tile.ptr<i32>
  return
}

// -----

func.func @unknown_precision(%a: tensor<16x16xf32>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'inputPrecision' [tf32, tf32x3, ieee]}}
  %0 = tile.dot %a, %a, %c precision = bf16x3 : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  return
}

// -----

func.func @unknown_rounding(%a: f32) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'rounding' [rtne, rtz]}}
  %0 = tile.fp_to_fp %a rounding = rtn : f32 -> f16
  return
}

// -----

func.func @duplicate_oilist(%p: !tile.ptr<f32>) {
  // expected-error @+1 {{`cache` clause can appear at most once in the expansion of the oilist directive}}
  %0 = tile.load %p cache = ca cache = cg : !tile.ptr<f32>
  return
}

// -----

func.func @missing_axis_keyword(%a: tensor<16xi32>) {
  // expected-error @+1 {{expected 'axis'}}
  %0 = tile.expand_dims %a 0 : tensor<16xi32> -> tensor<1x16xi32>
  return
}

// -----

func.func @load_custom_non_pointer(%p: tensor<16xf32>) {
  // expected-error @+1 {{custom op 'tile.load' 'ptr' must be tile.ptr or ranked tensor of tile.ptr values, but got 'tensor<16xf32>'}}
  %0 = tile.load %p : tensor<16xf32>
  return
}

// -----

func.func @rmw_custom_non_pointer(%p: i64, %v: i64) {
  // expected-error @+1 {{custom op 'tile.atomic_rmw' 'ptr' must be tile.ptr or ranked tensor of tile.ptr values, but got 'i64'}}
  %0 = tile.atomic_rmw add, relaxed, gpu, %p, %v : i64
  return
}

// -----

func.func @reduce_type_count(%a: tensor<16xf32>) {
  // expected-error @+1 {{number of operands and types do not match: got 1 operands and 2 types}}
  %0 = tile.reduce (%a) axis = 0 : (tensor<16xf32>, tensor<16xf32>) -> f32 {
  ^bb0(%x: f32, %y: f32):
    tile.reduce.return %x : f32
  }
  return
}

// -----

func.func @split_one_result(%a: tensor<8x2xf32>) {
  // expected-error @+1 {{operation defines 2 results but was provided 1 to bind}}
  %0 = tile.split %a : tensor<8x2xf32> -> tensor<8xf32>
  return
}

// -----

// expected-error @+2 {{invalid kind of type specified: expected builtin.tensor, but found 'f32'}}
// expected-error @+1 {{failed to parse Tile_TensorDescType parameter 'blockType' which is to be a `RankedTensorType`}}
func.func @desc_of_scalar(%d: !tile.tensordesc<f32>) { return }

// -----

// expected-error @+2 {{expected integer value}}
// expected-error @+1 {{failed to parse Tile_PtrType parameter 'addressSpace' which is to be a `int`}}
func.func @ptr_addrspace_keyword(%a: !tile.ptr<f32, global>) { return }

// -----

// expected-error @+2 {{expected non-function type}}
// expected-error @+1 {{failed to parse Tile_PtrType parameter 'pointeeType' which is to be a `Type`}}
func.func @ptr_missing_pointee(%a: !tile.ptr<>) { return }

// -----

// expected-error @+1 {{type `pointer` in dialect `tile`}}
func.func @unknown_type(%a: !tile.pointer<f32>) { return }

// -----

func.func @inline_asm_negative_operand(%a: i32) -> i32 {
  // expected-error @+1 {{'tile.inline_asm' op names operand '$-1' in its assembly; operands are numbered from $0}}
  %0 = tile.inline_asm "add.s32 $0, $-1, $1;" constraints "=r,r" (%a) {pack = 1 : i32, pure = true} : (i32) -> i32
  return %0 : i32
}

// -----

func.func @inline_asm_operand_out_of_range(%a: i32) -> i32 {
  // expected-error @+1 {{'tile.inline_asm' op names operand $2 in its assembly, but has 2 (outputs, then inputs)}}
  %0 = tile.inline_asm "add.s32 $0, $1, $2; // $$ stays" constraints "=r,r" (%a) {pack = 1 : i32, pure = true} : (i32) -> i32
  return %0 : i32
}

// -----

// An operand number past 2^32 - 1 (LLVM would read it wrapped to $0).
func.func @inline_asm_operand_number_too_large(%a: i32) -> i32 {
  // expected-error @+1 {{'tile.inline_asm' op names operand $4294967296 in its assembly, but has 2 (outputs, then inputs)}}
  %0 = tile.inline_asm "add.s32 $4294967296, $1, $1;" constraints "=r,r" (%a) {pack = 1 : i32, pure = true} : (i32) -> i32
  return %0 : i32
}
