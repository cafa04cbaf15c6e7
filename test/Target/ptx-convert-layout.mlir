// A layout conversion that moves data between warps (test/GPU/kernels/
// outer.mlir broadcasts a loaded 1-D block along the columns of a 2-D tile)
// goes through the dynamic shared memory: the kernel declares it, every
// thread stores its elements, a barrier, every thread loads the ones it
// needs. No barrier before the stores: nothing used shared memory before
// (terrazzo-insert-barriers). The PTX assembles.
// REQUIRES: ptxas

// RUN: terrazzo-compile %S/../GPU/kernels/outer.mlir --target=cuda:90 --emit=ptx -o %t.outer.ptx
// RUN: FileCheck %s < %t.outer.ptx
// RUN: FileCheck %s --check-prefix=JSON < %t.outer.ptx.json
// RUN: %ptxas -arch=sm_90a %t.outer.ptx -o %t.outer.cubin
// RUN: terrazzo-compile %S/../GPU/kernels/outer.mlir --target=cuda:80 --num-warps=8 --emit=ptx -o %t.outer80.ptx
// RUN: %ptxas -arch=sm_80 %t.outer80.ptx -o %t.outer80.cubin

// CHECK: .extern .shared .align 16 .b8 global_smem[];
// CHECK: .entry outer(
// CHECK-NOT: bar.sync
// CHECK: st.shared.b32
// CHECK: bar.sync 0;
// CHECK: ld.shared.b32
// CHECK-NOT: bar.sync
// CHECK: ret;

// 32 floats of x in shared memory.
// JSON: "shared_memory_bytes": 128,

// With one warp the conversion stays in the warp: each lane reads x[r] from
// lane r with a shuffle, and the kernel needs no shared memory.
// RUN: terrazzo-compile %S/../GPU/kernels/outer.mlir --target=cuda:90 --num-warps=1 --emit=ptx -o %t.outer1.ptx
// RUN: FileCheck %s --check-prefix=SHFL < %t.outer1.ptx
// RUN: FileCheck %s --check-prefix=SHFL-JSON < %t.outer1.ptx.json
// RUN: %ptxas -arch=sm_90a %t.outer1.ptx -o %t.outer1.cubin
// SHFL-NOT: .shared
// SHFL-NOT: bar.sync
// SHFL: shfl.sync.idx.b32 {{.*}}, 0, 31, -1;
// SHFL: shfl.sync.idx.b32 {{.*}}, 31, 31, -1;
// SHFL-NOT: .shared
// SHFL-NOT: bar.sync
// SHFL-JSON: "shared_memory_bytes": 0,
