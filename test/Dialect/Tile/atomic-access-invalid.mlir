// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of the verifiers of tile.atomic_load,
// tile.atomic_store and tile.atomic_poll (TileOps.cpp) and of their ODS
// type constraints.

func.func @load_release(%p: !tile.ptr<i32>) {
  // expected-error @+1 {{'tile.atomic_load' op an atomic load cannot have 'release' ordering (use 'relaxed' or 'acquire')}}
  %0 = tile.atomic_load release, gpu, %p : !tile.ptr<i32>
  return
}

// -----

func.func @load_acq_rel(%p: !tile.ptr<i32>) {
  // expected-error @+1 {{'tile.atomic_load' op an atomic load cannot have 'acq_rel' ordering (use 'relaxed' or 'acquire')}}
  %0 = tile.atomic_load acq_rel, gpu, %p : !tile.ptr<i32>
  return
}

// -----

func.func @store_acquire(%p: !tile.ptr<f32>, %v: f32) {
  // expected-error @+1 {{'tile.atomic_store' op an atomic store cannot have 'acquire' ordering (use 'relaxed' or 'release')}}
  tile.atomic_store acquire, gpu, %p, %v : !tile.ptr<f32>
  return
}

// -----

func.func @poll_release(%p: !tile.ptr<i32>, %e: i32) {
  // expected-error @+1 {{'tile.atomic_poll' op an atomic poll cannot have 'release' ordering (use 'relaxed' or 'acquire')}}
  %0 = tile.atomic_poll release, gpu, %p, %e : !tile.ptr<i32>
  return
}

// -----

func.func @load_i1(%p: !tile.ptr<i1>) {
  // expected-error @+1 {{'tile.atomic_load' op does not support elements of type 'i1'}}
  %0 = tile.atomic_load acquire, gpu, %p : !tile.ptr<i1>
  return
}

// -----

func.func @load_pointer(%p: !tile.ptr<!tile.ptr<f32>>) {
  // expected-error @+1 {{'tile.atomic_load' op does not support elements of type '!tile.ptr<f32>'}}
  %0 = tile.atomic_load acquire, gpu, %p : !tile.ptr<!tile.ptr<f32>>
  return
}

// -----

func.func @store_fp8(%p: !tile.ptr<f8E5M2>, %v: f8E5M2) {
  // expected-error @+1 {{'tile.atomic_store' op does not support elements of type 'f8E5M2'}}
  tile.atomic_store release, gpu, %p, %v : !tile.ptr<f8E5M2>
  return
}

// -----

func.func @poll_float(%p: !tile.ptr<f32>, %e: f32) {
  // expected-error @+1 {{'tile.atomic_poll' op polls 16-, 32- or 64-bit integers, got 'f32'}}
  %0 = tile.atomic_poll acquire, gpu, %p, %e : !tile.ptr<f32>
  return
}

// -----

func.func @poll_i8(%p: tensor<4x!tile.ptr<i8>>, %e: tensor<4xi8>) {
  // expected-error @+1 {{'tile.atomic_poll' op polls 16-, 32- or 64-bit integers, got 'i8'}}
  %0 = tile.atomic_poll acquire, gpu, %p, %e : tensor<4x!tile.ptr<i8>>
  return
}

// -----

func.func @bad_scope(%p: !tile.ptr<i32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'scope' [gpu, cta, sys]}}
  %0 = tile.atomic_load acquire, block, %p : !tile.ptr<i32>
  return
}

// -----

// expected-note @+1 {{prior use here}}
func.func @mask_shape(%p: tensor<4x!tile.ptr<i32>>, %m: tensor<8xi1>) {
  // expected-error @+1 {{use of value '%m' expects different type than prior uses: 'tensor<4xi1>' vs 'tensor<8xi1>'}}
  %0 = tile.atomic_load acquire, gpu, %p, %m : tensor<4x!tile.ptr<i32>>
  return
}

// -----

// expected-note @+1 {{prior use here}}
func.func @value_type(%p: tensor<4x!tile.ptr<i32>>, %v: tensor<4xi64>) {
  // expected-error @+1 {{use of value '%v' expects different type than prior uses: 'tensor<4xi32>' vs 'tensor<4xi64>'}}
  tile.atomic_store release, gpu, %p, %v : tensor<4x!tile.ptr<i32>>
  return
}

// -----

// expected-note @+1 {{prior use here}}
func.func @timeout_type(%p: !tile.ptr<i32>, %e: i32, %t: i32) {
  // expected-error @+1 {{use of value '%t' expects different type than prior uses: 'i64' vs 'i32'}}
  %0 = tile.atomic_poll acquire, gpu, %p, %e timeout %t : !tile.ptr<i32>
  return
}

// -----

func.func @generic_poll_result(%p: !tile.ptr<i32>, %e: i32) {
  // expected-error @+1 {{'tile.atomic_poll' op failed to verify that result is i1 with the shape of ptr}}
  %0 = "tile.atomic_poll"(%p, %e) <{sem = 1 : i32, scope = 0 : i32}> : (!tile.ptr<i32>, i32) -> tensor<2xi1>
  return
}
