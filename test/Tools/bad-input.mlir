// Bad IR never crashes terrazzo-opt: each case prints a located diagnostic
// and exits non-zero (`not` fails on a crash, as it must).

// RUN: not terrazzo-opt %s --split-input-file 2>&1 | FileCheck %s

// An op that fails its verifier.
// CHECK: bad-input.mlir:[[# @LINE + 2]]:8: error: 'tile.make_range' op length 96 must be a power of two
func.func @verifier_error() {
  %r = tile.make_range 0 to 96 : tensor<96xi32>
  return
}

// -----

// A syntax error.
// CHECK: bad-input.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error:
func.func @syntax_error() {
  %r = tile.make_range 0 to : tensor<8xi32>
  return
}

// -----

// An unknown op in a known dialect.
// CHECK: bad-input.mlir:[[# @LINE + 2]]:3: error: custom op 'tile.frobnicate' is unknown
func.func @unknown_op() {
  tile.frobnicate
  return
}

// -----

// A type error across ops: the mask of a load has the wrong shape.
// CHECK: bad-input.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error:
func.func @shape_mismatch(%p: tensor<8x!tile.ptr<f32>>, %m: tensor<16xi1>) {
  %v = tile.load %p, %m : tensor<8x!tile.ptr<f32>>
  return
}

// -----

// An invalid type.
// CHECK: bad-input.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: pointee must be an integer, float or pointer type
func.func @bad_pointer(%p: !tile.ptr<tensor<4xf32>>) {
  return
}
