// tile.reduce in PTX (test/GPU/kernels/row_sum.mlir: a row sum, max and
// argmax of an 8 x 128 tile along axis 1, and the 1-D sum of the row sums
// to a scalar). The PTX assembles.
// REQUIRES: ptxas

// With 4 warps the axis spans the 32 lanes and the 4 warps of a row: five
// butterfly shuffles per row and reduction, then each warp's partials go
// through shared memory, with one barrier between the stores and the
// loads. The three reductions' scratch sits apart (8 rows x 4 warps x 4
// bytes for the sum and the max, twice that for the argmax's value and
// index: 512 bytes), so no reduction waits for another's readers: six
// barriers in all, one per reduction and one per conversion of its result.
// RUN: terrazzo-compile %S/../GPU/kernels/row_sum.mlir --target=cuda:90 --emit=ptx -o %t.rs.ptx
// RUN: FileCheck %s < %t.rs.ptx
// RUN: FileCheck %s --check-prefix=JSON < %t.rs.ptx.json
// RUN: %ptxas -arch=sm_90a %t.rs.ptx -o %t.rs.cubin
// RUN: terrazzo-compile %S/../GPU/kernels/row_sum.mlir --target=cuda:80 --num-warps=8 --emit=ptx -o %t.rs80.ptx
// RUN: %ptxas -arch=sm_80 %t.rs80.ptx -o %t.rs80.cubin
// CHECK: .extern .shared .align 16 .b8 global_smem[];
// CHECK: .entry row_sum(
// CHECK: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// CHECK: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// CHECK-NOT: bar.sync
// CHECK: st.shared.b32
// CHECK: bar.sync 0;
// CHECK: ld.shared
// CHECK-COUNT-5: bar.sync 0;
// CHECK-NOT: bar.sync
// CHECK: ret;
// JSON: "shared_memory_bytes": 512,

// With one warp the reductions stay in the warp: all 160 butterfly
// shuffles (40 each for the sum and the max, 80 for the argmax's value and
// index) come before any barrier, and the sum of the row sums, which every
// lane holds whole, needs none. (Shared memory is still used after them,
// for the conversions of the row results to the layout of the stores'
// pointers.)
// RUN: terrazzo-compile %S/../GPU/kernels/row_sum.mlir --target=cuda:90 --num-warps=1 --emit=ptx -o %t.rs1.ptx
// RUN: FileCheck %s --check-prefix=ONE < %t.rs1.ptx
// RUN: %ptxas -arch=sm_90a %t.rs1.ptx -o %t.rs1.cubin
// ONE: .entry row_sum(
// ONE-NOT: bar.sync
// ONE-COUNT-160: shfl.sync.bfly.b32
// ONE-NOT: shfl.sync
// (The scalar total of the last reduction, lane 0's for all: see
// ptx-uniform.mlir.)
// ONE: shfl.sync.idx.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 0, 31, -1;
// ONE-NOT: shfl.sync
// ONE: bar.sync 0;
