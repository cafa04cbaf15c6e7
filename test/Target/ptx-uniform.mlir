// Scalars that every lane holds equal but ptxas cannot prove so (a loaded
// value, a reduction's total) are taken from lane 0 by shfl.sync.idx, which
// ptxas knows to be warp-uniform: a loop bounded by such a value, and the
// arithmetic on it, can then stay on the uniform datapath (tutorial 08's
// grouped GEMM: bench/RESULTS.md, session 19). Must not: tensors are not
// broadcast, and AMDGCN gets no broadcast (LLVM's AMDGPU backend finds the
// uniform values itself: the loaded size comes by the scalar unit's
// s_load_dword).
// REQUIRES: ptxas
// RUN: terrazzo-compile %S/Inputs/loaded_loop_bound.mlir --target=cuda:90 --num-warps=4 --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// RUN: terrazzo-compile %S/Inputs/loaded_loop_bound.mlir --target=hip:gfx942 --num-warps=4 --emit=amdgcn -o %t.s
// RUN: FileCheck %s --check-prefix=AMD < %t.s
// RUN: terrazzo-compile %S/Inputs/loaded_scalars_widths.mlir --target=cuda:90 --num-warps=4 --emit=ptx -o %t.w.ptx
// RUN: FileCheck %s --check-prefix=WIDTHS < %t.w.ptx
// RUN: %ptxas -arch=sm_90a %t.w.ptx -o %t.w.cubin

// CHECK-LABEL: .entry loaded_loop_bound(
// The loaded trip count, lane 0's for all.
// CHECK: ld.global.b32 [[N:%r[0-9]+]], [{{%rd[0-9]+}}];
// CHECK-NEXT: shfl.sync.idx.b32 {{%r[0-9]+}}, [[N]], 0, 31, -1;
// The steps: one per lane of four (not broadcast), their sum by two
// butterflies, then lane 0's sum for all.
// CHECK: ld.global.b32 [[S:%r[0-9]+]], [{{%rd[0-9]+}}];
// CHECK-NOT: shfl.sync.idx
// CHECK: shfl.sync.bfly.b32 {{%r[0-9]+}}, [[S]], 1, 31, -1;
// CHECK: shfl.sync.bfly.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 2, 31, -1;
// CHECK-NEXT: add.s32 [[T:%r[0-9]+]],
// CHECK-NEXT: shfl.sync.idx.b32 {{%r[0-9]+}}, [[T]], 0, 31, -1;
// The loop (its vector loads and adds) has none.
// CHECK-NOT: shfl.sync
// CHECK: ret;

// AMD-LABEL: loaded_loop_bound:
// AMD-NOT: ds_bpermute
// AMD: s_load_dword s{{[0-9]+}}
// AMD-NOT: ds_bpermute
// AMD: s_endpgm

// Other widths: a 64-bit value (and a loaded pointer) in two 32-bit halves,
// a 16-bit one widened to 32 bits and back.
// WIDTHS-LABEL: .entry loaded_scalars_widths(
// WIDTHS: ld.global.b64 [[X:%rd[0-9]+]], [{{%rd[0-9]+}}];
// WIDTHS: cvt.u32.u64 [[XLO:%r[0-9]+]], [[X]];
// WIDTHS: mov.b64 {_, [[XHI:%r[0-9]+]]}, [[X]];
// WIDTHS-NEXT: shfl.sync.idx.b32 {{%r[0-9]+}}, [[XLO]], 0, 31, -1;
// WIDTHS-NEXT: shfl.sync.idx.b32 {{%r[0-9]+}}, [[XHI]], 0, 31, -1;
// WIDTHS: ld.global.b16 [[Y:%r[0-9]+]], [{{%rd[0-9]+}}];
// WIDTHS-NEXT: shfl.sync.idx.b32 [[YS:%r[0-9]+]], [[Y]], 0, 31, -1;
// WIDTHS-NEXT: cvt.u16.u32 {{%rs[0-9]+}}, [[YS]];
// WIDTHS: ld.global.b64 [[P:%rd[0-9]+]], [{{%rd[0-9]+}}];
// WIDTHS-COUNT-2: shfl.sync.idx.b32
// WIDTHS: ld.global.b32 [[Z:%r[0-9]+]], [{{%rd[0-9]+}}];
// WIDTHS-NEXT: shfl.sync.idx.b32 {{%r[0-9]+}}, [[Z]], 0, 31, -1;
