// RUN: terrazzo-opt %s | terrazzo-opt | FileCheck %s
// RUN: terrazzo-opt %s --mlir-print-op-generic | terrazzo-opt | FileCheck %s

// #tilegpu.linear: a layout given by its bases, for each hardware input the
// tensor coordinate of each power of two. It prints with its four inputs in
// order (register, lane, warp, block) whatever order it was written in, and
// `block` may be left out when it has no bases.

// The column-major layout of a 64 x 32 tile flattened to 2048 elements.
#flat = #tilegpu.linear<{lane = [[128], [256], [512], [1024], [1]], register = [[32], [64], [8], [16]], warp = [[2], [4]]}>
// A 2-D layout with copies: warp bit 1 is 0 (warps 0 and 2 hold the same
// elements), and a register basis that moves along both dimensions.
#copies = #tilegpu.linear<{register = [[1, 1], [2, 0]], lane = [[0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], warp = [[0, 1], [0, 0]], block = []}>
#row = #tilegpu.slice<{dim = 0, parent = #copies}>

// CHECK-DAG: #[[$FLAT:.+]] = #tilegpu.linear<{register = {{\[}}[32], [64], [8], [16]], lane = {{\[}}[128], [256], [512], [1024], [1]], warp = {{\[}}[2], [4]], block = []}>
// CHECK-DAG: #[[$COPIES:.+]] = #tilegpu.linear<{register = {{\[}}[1, 1], [2, 0]], lane = {{\[}}[0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], warp = {{\[}}[0, 1], [0, 0]], block = []}>
// CHECK-DAG: #[[$ROW:.+]] = #tilegpu.slice<{dim = 0, parent = #[[$COPIES]]}>

// CHECK-LABEL: func.func @linear
// CHECK-SAME: (%[[A:.*]]: tensor<2048xf32, #[[$FLAT]]>, %[[B:.*]]: tensor<4x64xi32, #[[$COPIES]]>, %[[C:.*]]: tensor<64xi32, #[[$ROW]]>)
// CHECK-NEXT: tilegpu.convert_layout %[[B]] : tensor<4x64xi32, #[[$COPIES]]> -> tensor<4x64xi32, #[[$COPIES]]>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:90"} {
  func.func @linear(%a: tensor<2048xf32, #flat>, %b: tensor<4x64xi32, #copies>,
                    %c: tensor<64xi32, #row>) {
    %0 = tilegpu.convert_layout %b : tensor<4x64xi32, #copies> -> tensor<4x64xi32, #copies>
    return
  }
}
