// RUN: terrazzo-opt %s --terrazzo-convert-tile-to-tilegpu="target=cuda:90 num-warps=4" | FileCheck %s

// Calls of code outside the language are elementwise: tile.extern_elementwise
// and tile.inline_asm take the default layout of their shape, as their
// operands do, and need no conversion.

// CHECK: #[[L:.*]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @calls(
// CHECK-SAME: %[[X:.*]]: tensor<256xf32, #[[L]]>, %[[I:.*]]: tensor<256xi8, #[[L]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.extern_elementwise "__nv_asinf"(%[[X]]) {{.*}} : (tensor<256xf32, #[[L]]>) -> tensor<256xf32, #[[L]]>
// CHECK: tile.inline_asm "{{.*}}" constraints "=r,=r,r,r" (%[[X]], %[[I]]) {{.*}} : (tensor<256xf32, #[[L]]>, tensor<256xi8, #[[L]]>) -> (tensor<256xi32, #[[L]]>, tensor<256xf32, #[[L]]>)
// CHECK: tile.inline_asm "mov.u32 $0, %smid;" constraints "=r" () {{.*}} : () -> i32
// CHECK-NOT: tilegpu.convert_layout
func.func @calls(%x: tensor<256xf32>, %i: tensor<256xi8>) -> (tensor<256xf32>, tensor<256xi32>, tensor<256xf32>, i32) {
  %0 = tile.extern_elementwise "__nv_asinf"(%x) {libname = "", libpath = "", pure = true} : (tensor<256xf32>) -> tensor<256xf32>
  %1:2 = tile.inline_asm "cvt.rzi.s32.f32 $0, $2; mov.b32 $1, $3;" constraints "=r,=r,r,r" (%x, %i) {pack = 1 : i32, pure = true} : (tensor<256xf32>, tensor<256xi8>) -> (tensor<256xi32>, tensor<256xf32>)
  %2 = tile.inline_asm "mov.u32 $0, %smid;" constraints "=r" () {pack = 1 : i32, pure = true} : () -> i32
  return %0, %1#0, %1#1, %2 : tensor<256xf32>, tensor<256xi32>, tensor<256xf32>, i32
}
