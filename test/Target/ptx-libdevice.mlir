// tile.extern_elementwise calls of libdevice functions are linked in: the
// kernel's PTX computes asinf and powi itself (no external function is left
// to resolve), and it assembles.
// REQUIRES: ptxas
// RUN: terrazzo-compile %s --target=cuda:90 --num-warps=1 --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// CHECK-NOT: .extern .func
// CHECK-LABEL: .entry libdevice_calls(
// CHECK: ret;

func.func @libdevice_calls(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %px = tile.splat %x : !tile.ptr<f32> -> tensor<32x!tile.ptr<f32>>
  %ax = tile.addptr %px, %r : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  %v = tile.load %ax : tensor<32x!tile.ptr<f32>>
  %a = tile.extern_elementwise "__nv_asinf"(%v) {libname = "", libpath = "", pure = true} : (tensor<32xf32>) -> tensor<32xf32>
  %p = tile.extern_elementwise "__nv_powif"(%a, %r) {libname = "", libpath = "", pure = true} : (tensor<32xf32>, tensor<32xi32>) -> tensor<32xf32>
  tile.store %ax, %p : tensor<32x!tile.ptr<f32>>
  return
}
