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

// -----

// tile.inline_asm, pack = 4 on i8 (four elements a thread): the four bytes
// go in one i32 register each way; one asm for the thread's four elements.

// CHECK-LABEL: llvm.func @asm_packed_bytes
// CHECK-COUNT-3: llvm.insertelement {{.*}} : vector<4xi8>
// CHECK: %[[V:.*]] = llvm.insertelement {{.*}} : vector<4xi8>
// CHECK: %[[R:.*]] = llvm.bitcast %[[V]] : vector<4xi8> to i32
// CHECK: %[[O:.*]] = llvm.inline_asm "shl.b32 $0, $1, 3;", "=r,r" %[[R]] : (i32) -> i32
// CHECK: %[[B:.*]] = llvm.bitcast %[[O]] : i32 to vector<4xi8>
// CHECK-COUNT-4: llvm.extractelement %[[B]]
// CHECK-NOT: llvm.inline_asm
// CHECK: llvm.return
#four = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:90"} {
  func.func @asm_packed_bytes(%x: tensor<128xi8, #four>) {
    %0 = tile.inline_asm "shl.b32 $0, $1, 3;" constraints "=r,r" (%x) {pack = 4 : i32, pure = true} : (tensor<128xi8, #four>) -> tensor<128xi8, #four>
    return
  }
}

// -----

// Two results, a register per element (i32): one asm per element, its
// struct result split into the two results. (Functions that return values
// are private: a kernel returns nothing.)

// CHECK-LABEL: llvm.func {{.*}}@asm_two_results
// CHECK-COUNT-2: llvm.inline_asm "sub.u32 $0, $2, $3; sub.u32 $1, $3, $2;", "=r,=r,r,r" {{.*}} : (i32, i32) -> !llvm.struct<(i32, i32)>
// CHECK-NOT: llvm.inline_asm
// CHECK: llvm.return
#pairs = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:90"} {
  func.func private @asm_two_results(%a: tensor<64xi32, #pairs>, %b: tensor<64xi32, #pairs>) -> (tensor<64xi32, #pairs>, tensor<64xi32, #pairs>) {
    %0:2 = tile.inline_asm "sub.u32 $0, $2, $3; sub.u32 $1, $3, $2;" constraints "=r,=r,r,r" (%a, %b) {pack = 1 : i32, pure = true} : (tensor<64xi32, #pairs>, tensor<64xi32, #pairs>) -> (tensor<64xi32, #pairs>, tensor<64xi32, #pairs>)
    return %0#0, %0#1 : tensor<64xi32, #pairs>, tensor<64xi32, #pairs>
  }
}

// -----

// pack = 4 on float32 with two elements a thread: one asm whose last two
// operands are undefined, and whose last two results are dropped.

// CHECK-LABEL: llvm.func {{.*}}@asm_padded
// CHECK: %[[U:.*]] = llvm.mlir.undef : f32
// CHECK: %[[U2:.*]] = llvm.mlir.undef : f32
// CHECK: llvm.inline_asm "{{.*}}", "=r,=r,=r,=r,r,r,r,r" %{{.*}}, %{{.*}}, %[[U]], %[[U2]] : (f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: llvm.inline_asm
// CHECK: llvm.return
#pairs = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:90"} {
  func.func private @asm_padded(%a: tensor<64xf32, #pairs>) -> tensor<64xf32, #pairs> {
    %0 = tile.inline_asm "mov.b32 $0, $4; mov.b32 $1, $5; mov.b32 $2, $6; mov.b32 $3, $7;" constraints "=r,=r,=r,=r,r,r,r,r" (%a) {pack = 4 : i32, pure = true} : (tensor<64xf32, #pairs>) -> tensor<64xf32, #pairs>
    return %0 : tensor<64xf32, #pairs>
  }
}

// -----

// A scalar without operands, not pure: kept with its side effects.

// CHECK-LABEL: llvm.func {{.*}}@asm_timer
// CHECK: llvm.inline_asm has_side_effects "mov.u64 $0, %globaltimer;", "=l" {{ *}}: () -> i64
module attributes {"tilegpu.num-warps" = 1 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:90"} {
  func.func private @asm_timer() -> i64 {
    %0 = tile.inline_asm "mov.u64 $0, %globaltimer;" constraints "=l" () {pack = 1 : i32, pure = false} : () -> i64
    return %0 : i64
  }
}

// -----

// Operands in different layouts cannot be paired register by register.
#pairs = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#single = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:90"} {
  func.func @asm_layouts(%a: tensor<64xi32, #pairs>, %b: tensor<64xi32, #single>) {
    // expected-error @+1 {{'tile.inline_asm' op needs its operands and results in one layout}}
    %0 = tile.inline_asm "add.s32 $0, $1, $2;" constraints "=r,r,r" (%a, %b) {pack = 1 : i32, pure = true} : (tensor<64xi32, #pairs>, tensor<64xi32, #single>) -> tensor<64xi32, #pairs>
    return
  }
}
