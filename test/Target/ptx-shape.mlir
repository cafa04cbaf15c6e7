// trans, reshape, join and split through the whole pipeline to PTX, which
// ptxas assembles. They relabel registers: in layouts chosen for them (this
// file's interleave kernel, whose layouts are written out) nothing but the
// loads and one 16-byte store per thread remains; in the GPU test kernels
// (test/GPU/kernels/shape_*.mlir) the data that must move between threads
// moves in the layout conversions around them.
// REQUIRES: ptxas

// RUN: terrazzo-compile %s --target=cuda:90 --num-warps=4 --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: FileCheck %s --check-prefix=JSON < %t.ptx.json
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// The one shuffle is the warp index's, read from lane 0 so that ptxas knows
// it is uniform; no data moves between threads.
// CHECK: .entry interleave(
// CHECK-NOT: .shared
// CHECK: shfl.sync.idx.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, 0, 31, -1;
// CHECK-NOT: shfl.sync
// CHECK-NOT: bar.sync
// CHECK-COUNT-2: ld.global.v2.b32
// CHECK-NOT: shfl.sync
// CHECK-NOT: bar.sync
// CHECK: st.global.v4.b32
// CHECK-NOT: shfl.sync
// CHECK-NOT: bar.sync
// CHECK: ret;
// JSON: "shared_memory_bytes": 0,

// The transpose of a 32 x 64 tile: the tile.trans itself is free, and the
// conversion of its result to the layout of the stores is the one round
// trip through shared memory (16 elements per thread at 4 warps, the whole
// 8 KiB tile).
// RUN: terrazzo-compile %S/../GPU/kernels/shape_transpose.mlir --target=cuda:90 --num-warps=4 --emit=ptx -o %t.tr4.ptx
// RUN: FileCheck %s --check-prefix=TRANS < %t.tr4.ptx
// RUN: FileCheck %s --check-prefix=TRANS-JSON < %t.tr4.ptx.json
// RUN: %ptxas -arch=sm_90a %t.tr4.ptx -o %t.tr4.cubin
// TRANS: .entry shape_transpose(
// TRANS: shfl.sync.idx.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, 0, 31, -1;
// TRANS-NOT: shfl.sync
// TRANS-COUNT-16: st.shared.b32
// TRANS: bar.sync 0;
// TRANS-COUNT-16: ld.shared.b32
// TRANS-NOT: bar.sync
// TRANS-NOT: .shared.
// TRANS: ret;
// TRANS-JSON: "shared_memory_bytes": 8192,

// Every GPU test kernel at 1, 4 and 8 warps, for sm_90a and sm_80.
// RUN: terrazzo-compile %S/../GPU/kernels/shape_transpose.mlir --target=cuda:90 --num-warps=1 --emit=ptx -o %t.tr1.ptx
// RUN: %ptxas -arch=sm_90a %t.tr1.ptx -o %t.tr1.cubin
// RUN: terrazzo-compile %S/../GPU/kernels/shape_transpose.mlir --target=cuda:80 --num-warps=8 --emit=ptx -o %t.tr8.ptx
// RUN: %ptxas -arch=sm_80 %t.tr8.ptx -o %t.tr8.cubin
// RUN: terrazzo-compile %S/../GPU/kernels/shape_reshape.mlir --target=cuda:90 --num-warps=1 --emit=ptx -o %t.rs1.ptx
// RUN: %ptxas -arch=sm_90a %t.rs1.ptx -o %t.rs1.cubin
// RUN: terrazzo-compile %S/../GPU/kernels/shape_reshape.mlir --target=cuda:90 --num-warps=4 --emit=ptx -o %t.rs4.ptx
// RUN: %ptxas -arch=sm_90a %t.rs4.ptx -o %t.rs4.cubin
// RUN: terrazzo-compile %S/../GPU/kernels/shape_reshape.mlir --target=cuda:80 --num-warps=8 --emit=ptx -o %t.rs8.ptx
// RUN: %ptxas -arch=sm_80 %t.rs8.ptx -o %t.rs8.cubin
// RUN: terrazzo-compile %S/../GPU/kernels/shape_join_split.mlir --target=cuda:90 --num-warps=1 --emit=ptx -o %t.js1.ptx
// RUN: %ptxas -arch=sm_90a %t.js1.ptx -o %t.js1.cubin
// RUN: terrazzo-compile %S/../GPU/kernels/shape_join_split.mlir --target=cuda:90 --num-warps=4 --emit=ptx -o %t.js4.ptx
// RUN: %ptxas -arch=sm_90a %t.js4.ptx -o %t.js4.cubin
// RUN: terrazzo-compile %S/../GPU/kernels/shape_join_split.mlir --target=cuda:80 --num-warps=8 --emit=ptx -o %t.js8.ptx
// RUN: %ptxas -arch=sm_80 %t.js8.ptx -o %t.js8.cubin
// The reshape from a #tilegpu.linear layout (a 4-warp kernel).
// RUN: terrazzo-compile %S/../GPU/kernels/shape_linear.mlir --target=cuda:90 --num-warps=4 --emit=ptx -o %t.lin.ptx
// RUN: %ptxas -arch=sm_90a %t.lin.ptx -o %t.lin.cubin
// RUN: terrazzo-compile %S/../GPU/kernels/shape_linear.mlir --target=cuda:80 --num-warps=4 --emit=ptx -o %t.lin80.ptx
// RUN: %ptxas -arch=sm_80 %t.lin80.ptx -o %t.lin80.cubin

// out[2k] = a[k], out[2k + 1] = b[k] for 256 k: each thread loads two
// consecutive elements of a and of b, joins them into a 2 x 2 block of its
// registers and flattens it into four consecutive elements of out.
#half = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#pairs = #tilegpu.blocked<{sizePerThread = [2, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#flat = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @interleave(%a: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                      %b: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                      %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range 0 to 256 : tensor<256xi32, #half>
  %ap = tile.splat %a : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>, #half>
  %aa = tile.addptr %ap, %r : tensor<256x!tile.ptr<f32>, #half>, tensor<256xi32, #half>
  %av = tile.load %aa : tensor<256x!tile.ptr<f32>, #half>
  %bp = tile.splat %b : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>, #half>
  %ba = tile.addptr %bp, %r : tensor<256x!tile.ptr<f32>, #half>, tensor<256xi32, #half>
  %bv = tile.load %ba : tensor<256x!tile.ptr<f32>, #half>
  %j = tile.join %av, %bv : tensor<256xf32, #half> -> tensor<256x2xf32, #pairs>
  %f = tile.reshape %j : tensor<256x2xf32, #pairs> -> tensor<512xf32, #flat>
  %r2 = tile.make_range 0 to 512 : tensor<512xi32, #flat>
  %op = tile.splat %out : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>, #flat>
  %oa = tile.addptr %op, %r2 : tensor<512x!tile.ptr<f32>, #flat>, tensor<512xi32, #flat>
  tile.store %oa, %f : tensor<512x!tile.ptr<f32>, #flat>
  return
}
