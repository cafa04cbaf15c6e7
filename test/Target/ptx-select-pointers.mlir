// arith.select between blocks of pointers lowers to selp on 64-bit addresses.
// REQUIRES: ptxas
// RUN: terrazzo-compile %s --target=cuda:90 --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// CHECK: selp.b64
// CHECK: ld.global

func.func @k(%a: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %flag: i32) {
  %r = tile.make_range 0 to 256 : tensor<256xi32>
  %pa = tile.splat %a : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %pb = tile.splat %b : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %aa = tile.addptr %pa, %r : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %bb = tile.addptr %pb, %r : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %c128 = arith.constant dense<128> : tensor<256xi32>
  %lt = arith.cmpi slt, %r, %c128 : tensor<256xi32>
  %p = arith.select %lt, %aa, %bb : tensor<256xi1>, tensor<256x!tile.ptr<f32>>
  %v = tile.load %p : tensor<256x!tile.ptr<f32>>
  %po = tile.splat %out : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %oo = tile.addptr %po, %r : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  tile.store %oo, %v : tensor<256x!tile.ptr<f32>>
  return
}
