// Inputs that once crashed terrazzo-compile (a segfault, an LLVM fatal
// error, a trap in the code generator): each is a located error and exit
// code 1 now, never an internal compiler error. The kernels are the //---
// parts at the end.
// RUN: rm -rf %t && split-file --leading-lines %s %t

// A rank-0 tensor (issue 18: exit 139, no output).
// RUN: not terrazzo-compile %t/rank0.mlir --target=cuda:90 --emit=ptx -o %t/out 2>&1 | FileCheck %s --check-prefix=RANK0 --implicit-check-not="internal compiler error"
// RANK0: rank0.mlir:[[# @LINE + 38]]:8: error: the result of 'arith.constant' has type 'tensor<i64>', a tensor of rank 0, which has no layout on the GPU; use a scalar

// A tensor argument whose size is not a power of two (it got a message
// about threadsPerWarp = [30], a layout the compiler chose itself).
// RUN: not terrazzo-compile %t/odd.mlir --target=cuda:90 --emit=ptx -o %t/out 2>&1 | FileCheck %s --check-prefix=ODD --implicit-check-not="internal compiler error"
// ODD: odd.mlir:[[# @LINE + 40]]:36: error: argument 1 of 'func.func' @odd has type 'tensor<3xf32>', which has no layout on the GPU: shape entry 3 is not a power of two in [1, 2^30]

// An f80 argument (a trap in NVPTX).
// RUN: not terrazzo-compile %t/f80.mlir --target=cuda:90 --emit=ptx -o %t/out 2>&1 | FileCheck %s --check-prefix=F80 --implicit-check-not="internal compiler error"
// F80: f80.mlir:[[# @LINE + 41]]:36: error: argument 1 of 'func.func' has type 'f80', which has no lowering to the GPU

// An op at module level, outside any function (a segfault building the
// intrinsic call outside a block).
// RUN: not terrazzo-compile %t/module-level.mlir --target=cuda:90 --emit=ptx -o %t/out 2>&1 | FileCheck %s --check-prefix=MODULE --implicit-check-not="internal compiler error"
// MODULE: module-level.mlir:[[# @LINE + 43]]:1: error: 'tilegpu.barrier' op is outside any function; a module compiled for a target holds functions (and globals) only

// A kernel with no parameters compiles.
// RUN: terrazzo-compile %t/no-params.mlir --target=cuda:90 --emit=ptx -o - | FileCheck %s --check-prefix=NO-PARAMS
// NO-PARAMS: .entry no_params()

// tilegpu IR the compiler printed reads back (it holds ub.poison) and
// compiles from there on, for the target it was made for alone; a wgmma in
// tilegpu IR for sm_80 (its target attribute rewritten) is a located error
// (an LLVM selection failure once); tilegpu IR is not tile IR.
// RUN: terrazzo-compile %S/../GPU/kernels/wgmma_dot_64.mlir --target=cuda:90 --emit=tilegpu -o %t/wgmma.mlir
// RUN: terrazzo-compile %t/wgmma.mlir --target=cuda:90 --emit=ptx -o - | FileCheck %s --check-prefix=WGMMA90
// RUN: not terrazzo-compile %t/wgmma.mlir --target=cuda:80 --emit=ptx -o %t/out 2>&1 | FileCheck %s --check-prefix=OTHER-TARGET --implicit-check-not="internal compiler error"
// RUN: sed -e 's/tilegpu.target = "cuda:90"/tilegpu.target = "cuda:80"/' %t/wgmma.mlir > %t/wgmma80.mlir
// RUN: not terrazzo-compile %t/wgmma80.mlir --target=cuda:80 --emit=ptx -o %t/out 2>&1 | FileCheck %s --check-prefix=WGMMA80 --implicit-check-not="internal compiler error"
// RUN: not terrazzo-compile %t/wgmma.mlir --emit=tile -o %t/out 2>&1 | FileCheck %s --check-prefix=NOT-TILE --implicit-check-not="internal compiler error"
// WGMMA90: wgmma.mma_async
// OTHER-TARGET: wgmma.mlir:{{[0-9]+}}:1: error: the module is tilegpu IR for cuda:90, not for cuda:80
// WGMMA80: wgmma80.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'tilegpu.warp_group_dot' op needs wgmma, which sm_80 does not have (sm_90 only)
// NOT-TILE: error: the module is already tilegpu IR (it has tilegpu.num-warps): it compiles to the tilegpu stage or later ones

//--- rank0.mlir
func.func @rank0(%p: !tile.ptr<i64>) {
  %c = arith.constant 7 : i64
  %v = tile.splat %c : i64 -> tensor<i64>
  %ps = tile.splat %p : !tile.ptr<i64> -> tensor<!tile.ptr<i64>>
  tile.store %ps, %v : tensor<!tile.ptr<i64>>
  return
}

//--- odd.mlir
func.func @odd(%p: !tile.ptr<f32>, %t: tensor<3xf32>) {
  return
}

//--- f80.mlir
func.func @f80(%p: !tile.ptr<f32>, %x: f80) {
  %y = arith.truncf %x : f80 to f32
  tile.store %p, %y : !tile.ptr<f32>
  return
}

//--- module-level.mlir
tilegpu.barrier
func.func @kernel(%p: !tile.ptr<i32>) {
  return
}

//--- no-params.mlir
func.func @no_params() {
  return
}
