// Reductions in AMDGCN (test/GPU/kernels/row_sum.mlir: sums, maxima and
// argmaxima along the rows of an 8 x 128 tile, then its total). Within a
// wavefront the lanes combine through DPP quad permutations (lane masks 1
// and 2), ds_swizzle (4, 8, 16) and ds_bpermute (32); the partial totals
// of the four wavefronts meet in LDS: stores, s_barrier, loads. The
// assembly assembles and links.

// RUN: terrazzo-compile %S/../GPU/kernels/row_sum.mlir --target=hip:gfx942 --emit=amdgcn -o %t.s
// RUN: FileCheck %s < %t.s
// RUN: FileCheck %s --check-prefix=JSON < %t.s.json
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t.s -o %t.o
// RUN: ld.lld -shared %t.o -o %t.hsaco
// RUN: llvm-nm -D --undefined-only %t.hsaco | count 0
// CHECK-LABEL: row_sum:
// CHECK-DAG: v_mov_b32_dpp {{.*}} quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
// CHECK-DAG: v_mov_b32_dpp {{.*}} quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf
// CHECK-DAG: ds_swizzle_b32 {{.*}} offset:swizzle(SWAP,4)
// CHECK-DAG: ds_swizzle_b32 {{.*}} offset:swizzle(SWAP,8)
// CHECK-DAG: ds_swizzle_b32 {{.*}} offset:swizzle(SWAP,16)
// CHECK-DAG: ds_bpermute_b32
// CHECK: ds_write
// CHECK: s_barrier
// CHECK: ds_read
// CHECK: s_endpgm
// The total's scratch (and the three row reductions') in LDS, declared
// dynamic: the launch passes its size.
// JSON: "warp_size": 64,
// JSON: "shared_memory_bytes": {{[1-9][0-9]*}},

// On gfx90a and gfx950 too, as code objects with nothing undefined.
// RUN: terrazzo-compile %S/../GPU/kernels/row_sum.mlir --target=hip:gfx90a -o %t.90a.hsaco
// RUN: llvm-nm -D --undefined-only %t.90a.hsaco | count 0
// RUN: llvm-objdump -d %t.90a.hsaco | FileCheck %s --check-prefix=DIS
// RUN: terrazzo-compile %S/../GPU/kernels/row_sum.mlir --target=hip:gfx950 -o %t.950.hsaco
// RUN: llvm-nm -D --undefined-only %t.950.hsaco | count 0
// RUN: llvm-objdump -d %t.950.hsaco | FileCheck %s --check-prefix=DIS
// DIS: <row_sum>:
// DIS: ds_swizzle_b32
// DIS: s_barrier
