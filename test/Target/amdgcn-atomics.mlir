// Atomics in AMDGCN (the kernels of test/GPU/kernels/atomic_*.mlir): LLVM
// atomicrmw and cmpxchg at the agent or workgroup scope on device memory
// select the chips' global atomics, float additions included; what has no
// instruction (f16 additions) is a compare-and-swap loop. Old values reach
// the copies of an element through LDS and s_barrier. Each assembly
// assembles again with llvm-mc and links with ld.lld, and each code object
// links with nothing undefined.

// RUN: terrazzo-compile %S/../GPU/kernels/atomic_add_ret.mlir --target=hip:gfx942 --emit=amdgcn -o %t.add.s
// RUN: FileCheck %s --check-prefix=ADD < %t.add.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t.add.s -o %t.add.o
// RUN: ld.lld -shared %t.add.o -o %t.add.hsaco
// RUN: llvm-nm -D --undefined-only %t.add.hsaco | count 0
// ADD-LABEL: atomic_add_ret:
// ADD: global_atomic_add_f32 {{.*}} sc0
// ADD: s_barrier
// ADD: global_atomic_add_f64 {{.*}} sc0
// ADD: s_endpgm

// RUN: terrazzo-compile %S/../GPU/kernels/atomic_cas_claim.mlir --target=hip:gfx942 --emit=amdgcn -o %t.cas.s
// RUN: FileCheck %s --check-prefix=CAS < %t.cas.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t.cas.s -o %t.cas.o
// RUN: ld.lld -shared %t.cas.o -o %t.cas.hsaco
// RUN: llvm-nm -D --undefined-only %t.cas.hsaco | count 0
// CAS-LABEL: atomic_cas_claim:
// CAS: global_atomic_cmpswap

// RUN: terrazzo-compile %S/../GPU/kernels/atomic_minmax_int.mlir --target=hip:gfx90a --emit=amdgcn -o %t.minmax.s
// RUN: FileCheck %s --check-prefix=MINMAX < %t.minmax.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx90a -filetype=obj %t.minmax.s -o %t.minmax.o
// RUN: ld.lld -shared %t.minmax.o -o %t.minmax.hsaco
// RUN: llvm-nm -D --undefined-only %t.minmax.hsaco | count 0
// MINMAX-LABEL: atomic_minmax_int:
// MINMAX-DAG: global_atomic_smax
// MINMAX-DAG: global_atomic_smin
// MINMAX-DAG: global_atomic_umax
// MINMAX-DAG: global_atomic_umin

// RUN: terrazzo-compile %S/../GPU/kernels/atomic_add_half.mlir --target=hip:gfx942 --emit=amdgcn -o %t.half.s
// RUN: FileCheck %s --check-prefix=HALF < %t.half.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t.half.s -o %t.half.o
// RUN: ld.lld -shared %t.half.o -o %t.half.hsaco
// RUN: llvm-nm -D --undefined-only %t.half.hsaco | count 0
// HALF-LABEL: atomic_add_half:
// HALF: global_atomic_cmpswap

// RUN: terrazzo-compile %S/../GPU/kernels/atomic_lock.mlir --target=hip:gfx950 -o %t.lock.hsaco
// RUN: llvm-nm -D --undefined-only %t.lock.hsaco | count 0
// RUN: llvm-objdump -d %t.lock.hsaco | FileCheck %s --check-prefix=LOCK
// LOCK: <atomic_lock>:
// LOCK: global_atomic_cmpswap
// LOCK: global_atomic_swap
