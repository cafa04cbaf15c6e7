// The 2-stage cp.async kernels of the GPU tests (test/GPU/kernels/
// cp_async_*.mlir), compiled to PTX for sm_80 and sm_90 and assembled:
// f16 with 16-byte aligned, 8-element-contiguous rows moves in 16-byte .cg
// copies, f32 with an arbitrary row stride and per-element masks in 4-byte
// .ca copies; every copy of a masked block carries its source size (0 for
// masked-off vectors: zero fill); two groups, a wait that leaves one in
// flight, then one for the last.
// REQUIRES: ptxas
// RUN: terrazzo-compile %S/../GPU/kernels/cp_async_f16.mlir --target=cuda:80 --num-warps=4 --emit=ptx -o %t.f16.ptx
// RUN: FileCheck %s --check-prefix=F16 < %t.f16.ptx
// RUN: %ptxas -arch=sm_80 %t.f16.ptx -o %t.f16.cubin
// RUN: terrazzo-compile %S/../GPU/kernels/cp_async_f32.mlir --target=cuda:80 --num-warps=4 --emit=ptx -o %t.f32.ptx
// RUN: FileCheck %s --check-prefix=F32 < %t.f32.ptx
// RUN: %ptxas -arch=sm_80 %t.f32.ptx -o %t.f32.cubin
// RUN: terrazzo-compile %S/../GPU/kernels/cp_async_f16.mlir --target=cuda:90 --num-warps=4 --emit=ptx -o %t.f16.sm90.ptx
// RUN: %ptxas -arch=sm_90a %t.f16.sm90.ptx -o %t.f16.sm90.cubin

// F16-LABEL: .entry cp_async_f16(
// F16-NOT: cp.async.ca
// F16-COUNT-2: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, %r{{[0-9]+}};
// F16: cp.async.commit_group;
// F16-COUNT-2: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, %r{{[0-9]+}};
// F16: cp.async.commit_group;
// F16-NOT: cp.async.cg
// F16: cp.async.wait_group 1;
// F16-NEXT: // end inline asm
// F16-NEXT: bar.sync 0;
// F16: cp.async.wait_group 0;
// F16-NEXT: // end inline asm
// F16-NEXT: bar.sync 0;
// F16-NOT: cp.async

// F32-LABEL: .entry cp_async_f32(
// F32-NOT: cp.async.cg
// F32-COUNT-16: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 4, %r{{[0-9]+}};
// F32: cp.async.commit_group;
// F32-COUNT-16: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 4, %r{{[0-9]+}};
// F32: cp.async.commit_group;
// F32: cp.async.wait_group 1;
// F32-NEXT: // end inline asm
// F32-NEXT: bar.sync 0;
// F32: cp.async.wait_group 0;
// F32-NEXT: // end inline asm
// F32-NEXT: bar.sync 0;
// F32-NOT: cp.async
