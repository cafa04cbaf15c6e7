// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// The kernel argument attributes the tile dialect declares and verifies
// (TileDialect::verifyRegionArgAttribute): what is accepted, then one case
// per diagnostic.

// CHECK-LABEL: func.func @hints
// CHECK-SAME: !tile.ptr<f32> {tile.divisibility = 16 : i32}
// CHECK-SAME: i32 {tile.divisibility = 8 : i32, tile.nonnegative}
// CHECK-SAME: i64 {tile.nonnegative}
// CHECK-SAME: !tile.ptr<i8> {tile.divisibility = 16 : i32, tile.pointer_range = 32 : i32}
func.func @hints(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                 %n: i32 {tile.divisibility = 8 : i32, tile.nonnegative},
                 %m: i64 {tile.nonnegative},
                 %q: !tile.ptr<i8> {tile.divisibility = 16 : i32, tile.pointer_range = 32 : i32}) {
  return
}

// CHECK-LABEL: func.func private @declaration
// CHECK-SAME: i32 {tile.nonnegative}
func.func private @declaration(%n: i32 {tile.nonnegative})

// -----

// expected-error @+1 {{'tile.divisibility' of argument #0 must be a positive i32, got 0 : i32}}
func.func @zero(%n: i32 {tile.divisibility = 0 : i32}) { return }

// -----

// expected-error @+1 {{'tile.divisibility' of argument #0 must be a positive i32, got 16 : i64}}
func.func @wide(%n: i32 {tile.divisibility = 16 : i64}) { return }

// -----

// expected-error @+1 {{'tile.divisibility' is for integer and pointer arguments, not argument #1 of type 'f32'}}
func.func @float(%n: i32, %x: f32 {tile.divisibility = 16 : i32}) { return }

// -----

// expected-error @+1 {{'tile.nonnegative' of argument #0 must be a unit attribute, got true}}
func.func @not_unit(%n: i32 {tile.nonnegative = true}) { return }

// -----

// expected-error @+1 {{'tile.nonnegative' is for integer arguments, not argument #0 of type '!tile.ptr<f32>'}}
func.func @pointer(%p: !tile.ptr<f32> {tile.nonnegative}) { return }

// -----

// expected-error @+1 {{'tile.pointer_range' of argument #0 must be an i32 from 1 to 64, got 0 : i32}}
func.func @no_range(%p: !tile.ptr<f32> {tile.pointer_range = 0 : i32}) { return }

// -----

// expected-error @+1 {{'tile.pointer_range' of argument #0 must be an i32 from 1 to 64, got 32 : i64}}
func.func @range_i64(%p: !tile.ptr<f32> {tile.pointer_range = 32 : i64}) { return }

// -----

// expected-error @+1 {{'tile.pointer_range' of argument #0 must be an i32 from 1 to 64, got 65 : i32}}
func.func @range_too_wide(%p: !tile.ptr<f32> {tile.pointer_range = 65 : i32}) { return }

// -----

// expected-error @+1 {{'tile.pointer_range' is for pointer arguments, not argument #0 of type 'i64'}}
func.func @range_of_int(%n: i64 {tile.pointer_range = 32 : i32}) { return }

// -----

// expected-error @+1 {{unknown tile argument attribute 'tile.aligned'}}
func.func @unknown(%n: i32 {tile.aligned}) { return }
