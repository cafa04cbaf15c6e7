// A layout conversion between wavefronts goes through LDS in AMDGCN
// (test/GPU/kernels/outer.mlir broadcasts a loaded 1-D block along the
// columns of a 2-D tile): every work-item stores its elements, s_barrier,
// every work-item loads the ones it needs. With one wavefront the
// conversion stays in it: each lane reads x[r] of lane r with v_readlane
// (a uniform value), and the kernel needs no LDS.

// RUN: terrazzo-compile %S/../GPU/kernels/outer.mlir --target=hip:gfx942 --emit=amdgcn -o %t.s
// RUN: FileCheck %s < %t.s
// RUN: FileCheck %s --check-prefix=JSON < %t.s.json
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t.s -o %t.o
// RUN: ld.lld -shared %t.o -o %t.hsaco
// RUN: llvm-nm -D --undefined-only %t.hsaco | count 0
// CHECK-LABEL: outer:
// CHECK-NOT: s_barrier
// CHECK: ds_write_b32
// CHECK-NEXT: s_waitcnt lgkmcnt(0)
// CHECK-NEXT: s_barrier
// CHECK-NEXT: ds_read
// CHECK-NOT: s_barrier
// CHECK: s_endpgm
// 32 floats of x in LDS.
// JSON: "shared_memory_bytes": 128,

// RUN: terrazzo-compile %S/../GPU/kernels/outer.mlir --target=hip:gfx942 --num-warps=1 --emit=amdgcn -o %t.one.s
// RUN: FileCheck %s --check-prefix=ONE < %t.one.s
// RUN: FileCheck %s --check-prefix=ONE-JSON < %t.one.s.json
// ONE-LABEL: outer:
// ONE-NOT: ds_write
// ONE-NOT: s_barrier
// ONE: v_readlane_b32 s{{[0-9]+}}, v{{[0-9]+}}, 0
// ONE: v_readlane_b32 s{{[0-9]+}}, v{{[0-9]+}}, 31
// ONE-NOT: ds_read
// ONE-NOT: s_barrier
// ONE: s_endpgm
// ONE-JSON: "shared_memory_bytes": 0,
