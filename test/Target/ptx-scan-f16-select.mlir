// A float16 prefix sum whose axis crosses warps and then register repeats
// (256x16 along axis 0 at 4 warps) selects its 16-bit carries as 32-bit
// words: ptxas -O1 and up miscompiled selp.b16 on these float16 values on
// an H100 (wrong sums from row 64 on; right at -O0 and with selp.b32).
// REQUIRES: ptxas
// RUN: terrazzo-compile %s --target=cuda:90 --num-warps=4 --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// CHECK-LABEL: .entry cumsum_f16(
// CHECK-NOT: selp.b16
// CHECK: selp.b32
// CHECK-NOT: selp.b16
// CHECK: ret;

func.func @cumsum_f16(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}) {
  %0 = tile.make_range 0 to 256 : tensor<256xi32>
  %1 = tile.make_range 0 to 16 : tensor<16xi32>
  %2 = tile.expand_dims %0 axis = 1 : tensor<256xi32> -> tensor<256x1xi32>
  %3 = arith.constant dense<16> : tensor<256x1xi32>
  %4 = arith.muli %2, %3 : tensor<256x1xi32>
  %5 = tile.expand_dims %1 axis = 0 : tensor<16xi32> -> tensor<1x16xi32>
  %6 = tile.broadcast %4 : tensor<256x1xi32> -> tensor<256x16xi32>
  %7 = tile.broadcast %5 : tensor<1x16xi32> -> tensor<256x16xi32>
  %8 = arith.addi %6, %7 : tensor<256x16xi32>
  %9 = tile.splat %arg0 : !tile.ptr<f16> -> tensor<256x16x!tile.ptr<f16>>
  %10 = tile.addptr %9, %8 : tensor<256x16x!tile.ptr<f16>>, tensor<256x16xi32>
  %11 = tile.load %10 : tensor<256x16x!tile.ptr<f16>>
  %15 = tile.scan(%11) axis = 0 : (tensor<256x16xf16>) -> tensor<256x16xf16> {
  ^bb0(%12: f16, %13: f16):
    %14 = arith.addf %12, %13 : f16
    tile.scan.return %14 : f16
  }
  %16 = tile.splat %arg1 : !tile.ptr<f16> -> tensor<256x16x!tile.ptr<f16>>
  %17 = tile.addptr %16, %8 : tensor<256x16x!tile.ptr<f16>>, tensor<256x16xi32>
  tile.store %17, %15 : tensor<256x16x!tile.ptr<f16>>
  return
}
