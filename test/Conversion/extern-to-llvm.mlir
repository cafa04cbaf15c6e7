// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --terrazzo-convert-tilegpu-to-llvm | FileCheck %s

// tile.extern_elementwise: one call of the declared function per element a
// thread holds (two here), with the operands' scalars in order; a scalar
// call is one call. Two calls of one symbol share its declaration.

// CHECK-DAG: llvm.func @__nv_powif(f32, i32) -> f32
// CHECK-DAG: llvm.func @__nv_asinf(f32) -> f32
// CHECK-DAG: llvm.func @__nv_isnand(f64) -> i32
// CHECK-LABEL: llvm.func @calls
// CHECK-COUNT-2: llvm.call @__nv_powif(%{{.*}}, %{{.*}}) : (f32, i32) -> f32
// CHECK-COUNT-2: llvm.call @__nv_asinf(%{{.*}}) : (f32) -> f32
// CHECK: llvm.call @__nv_isnand(%{{.*}}) : (f64) -> i32
// CHECK-NOT: llvm.call
// CHECK: llvm.return
#pairs = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:90"} {
  func.func @calls(%x: tensor<64xf32, #pairs>, %n: tensor<64xi32, #pairs>, %d: f64) {
    %0 = tile.extern_elementwise "__nv_powif"(%x, %n) {libname = "", libpath = "", pure = true} : (tensor<64xf32, #pairs>, tensor<64xi32, #pairs>) -> tensor<64xf32, #pairs>
    %1 = tile.extern_elementwise "__nv_asinf"(%0) {libname = "", libpath = "", pure = true} : (tensor<64xf32, #pairs>) -> tensor<64xf32, #pairs>
    %2 = tile.extern_elementwise "__nv_isnand"(%d) {libname = "", libpath = "", pure = true} : (f64) -> i32
    return
  }
}

// -----

// One symbol called with two different signatures is an error.
#pairs = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:90"} {
  func.func @mismatch(%x: f32, %y: f64) {
    %0 = tile.extern_elementwise "__nv_sinf"(%x) {libname = "", libpath = "", pure = true} : (f32) -> f32
    // expected-error @+1 {{calls '__nv_sinf' as '(f64) -> f64', but another call in the module calls it as '(f32) -> f32'}}
    %1 = tile.extern_elementwise "__nv_sinf"(%y) {libname = "", libpath = "", pure = true} : (f64) -> f64
    return
  }
}
