// A row reduction of a wgmma accumulator (softmax's row max of exp2(QK^T)),
// sm_90a, 4 warps, 64 x 64: the rows' elements a thread holds are combined
// in registers (two rows per thread: 16 of each row's 64 columns in
// registers, 30 max.f32), then across the four lanes of a quad that share
// those rows (butterflies over lane bits 0 and 1, two per row), and
// nothing else: no shared memory, no barrier, no shuffle over other lanes.
// exp2 of float32 is ex2.approx.ftz.f32. The PTX assembles.
// REQUIRES: ptxas
// RUN: terrazzo-compile %s --target=cuda:90 --num-warps=4 --emit=ptx -o %t.ptx
// RUN: FileCheck %s --implicit-check-not=shfl.sync.bfly < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// CHECK-LABEL: .entry row_max(
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK-NOT: bar.sync
// CHECK-COUNT-32: ex2.approx.ftz.f32
// CHECK-NOT: bar.sync
// CHECK-NOT: st.shared
// CHECK-COUNT-30: max.f32
// CHECK-NOT: bar.sync
// CHECK-NOT: st.shared
// CHECK: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// CHECK: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// CHECK: shfl.sync.bfly.b32 {{.*}}, 2, 31, -1;
// CHECK: shfl.sync.bfly.b32 {{.*}}, 2, 31, -1;
// The result's store takes it to a layout of its own afterwards.
// CHECK: bar.sync
func.func @row_max(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %re = tile.expand_dims %r axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %c64 = arith.constant dense<64> : tensor<64x1xi32>
  %rows = arith.muli %re, %c64 : tensor<64x1xi32>
  %rb = tile.broadcast %rows : tensor<64x1xi32> -> tensor<64x64xi32>
  %ce = tile.expand_dims %r axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %cb = tile.broadcast %ce : tensor<1x64xi32> -> tensor<64x64xi32>
  %off = arith.addi %rb, %cb : tensor<64x64xi32>
  %pa = tile.splat %a : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
  %pb = tile.splat %b : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
  %aa = tile.addptr %pa, %off : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
  %ba = tile.addptr %pb, %off : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
  %x = tile.load %aa : tensor<64x64x!tile.ptr<f16>>
  %y = tile.load %ba : tensor<64x64x!tile.ptr<f16>>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %s = tile.dot %x, %y, %zero : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
  %e = math.exp2 %s : tensor<64x64xf32>
  %m = tile.reduce(%e) axis = 1 : (tensor<64x64xf32>) -> tensor<64xf32> {
  ^bb0(%p: f32, %q: f32):
    %t = arith.maxnumf %p, %q : f32
    tile.reduce.return %t : f32
  }
  %po = tile.splat %out : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %ao = tile.addptr %po, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  tile.store %ao, %m : tensor<64x!tile.ptr<f32>>
  return
}
