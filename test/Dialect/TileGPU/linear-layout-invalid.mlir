// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics

// The syntax of #tilegpu.linear.

// expected-error @+1 {{expected 'register', 'lane', 'warp' or 'block', got 'lanes'}}
#l = #tilegpu.linear<{register = [], lanes = [[1]], warp = []}>
func.func @f(%a: tensor<2xf32, #l>)

// -----

// expected-error @+1 {{'lane' appears twice}}
#l = #tilegpu.linear<{register = [], lane = [[1]], lane = [[1]], warp = []}>
func.func @f(%a: tensor<2xf32, #l>)

// -----

// expected-error @+1 {{linear layout is missing 'warp' (block may be left out)}}
#l = #tilegpu.linear<{register = [], lane = [[1]]}>
func.func @f(%a: tensor<2xf32, #l>)

// -----

// expected-error @+1 {{every basis must have the same number of coordinates (the tensor rank), got 2 and 1}}
#l = #tilegpu.linear<{register = [[0, 1]], lane = [[1]], warp = []}>
func.func @f(%a: tensor<2x2xf32, #l>)

// -----

// expected-error @+1 {{linear layout needs at least one basis}}
#l = #tilegpu.linear<{register = [], lane = [], warp = [], block = []}>
func.func @f(%a: tensor<1xf32, #l>)

// -----

// expected-error @+1 {{expected a coordinate in [0, 2^31), got -1}}
#l = #tilegpu.linear<{register = [[-1]], lane = [], warp = []}>
func.func @f(%a: tensor<2xf32, #l>)

// -----

// Tensors of the wrong shape.

#l = #tilegpu.linear<{register = [[0, 1]], lane = [[1, 0]], warp = []}>
// expected-error @+1 {{layout of rank 2 does not fit a tensor of rank 1}}
func.func @f(%a: tensor<4xf32, #l>)

// -----

#l = #tilegpu.linear<{register = [[0, 1]], lane = [[1, 0], [2, 0]], warp = []}>
// expected-error @+1 {{lane basis 1 has coordinate 2 along dimension 0, beyond its size 2}}
func.func @f(%a: tensor<2x2xf32, #l>)

// -----

#l = #tilegpu.linear<{register = [[0, 1]], lane = [[1, 0]], warp = []}>
// expected-error @+1 {{linear layout does not hold every element of a tensor of this shape}}
func.func @f(%a: tensor<2x4xf32, #l>)

// -----

#l = #tilegpu.linear<{register = [[0, 1]], lane = [[1, 0]], warp = []}>
// expected-error @+1 {{a linear layout needs power-of-two sizes, got 3}}
func.func @f(%a: tensor<2x3xf32, #l>)

// -----

// The warps and warp size of a linear layout are those of its bases, and
// must be the module's.
#l = #tilegpu.linear<{register = [], lane = [[1], [2], [4], [8], [16]], warp = [[32]]}>
module attributes {"tilegpu.num-warps" = 4 : i32} {
  // expected-error @+1 {{'arith.constant' op layout #tilegpu.linear<{register = [], lane = [[1], [2], [4], [8], [16]], warp = [[32]], block = []}> disagrees with the module's tilegpu.num-warps = 4}}
  %0 = arith.constant dense<0.0> : tensor<64xf32, #l>
}

// -----

#l = #tilegpu.linear<{register = [], lane = [[1], [2], [4], [8]], warp = [[16], [32]]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32} {
  // expected-error @+1 {{'arith.constant' op layout #tilegpu.linear<{register = [], lane = [[1], [2], [4], [8]], warp = [[16], [32]], block = []}> disagrees with the module's tilegpu.threads-per-warp = 32}}
  %0 = arith.constant dense<0.0> : tensor<64xf32, #l>
}
