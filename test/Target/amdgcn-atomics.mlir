// Atomics in AMDGCN (the kernels of test/GPU/kernels/atomic_*.mlir): LLVM
// atomicrmw and cmpxchg at the agent or workgroup scope on device memory
// select the chips' global atomics, float additions included; what has no
// instruction (f16 additions) is a compare-and-swap loop. Old values reach
// the copies of an element through LDS and s_barrier. Each code object
// links with nothing undefined.

// RUN: terrazzo-compile %S/../GPU/kernels/atomic_add_ret.mlir --target=hip:gfx942 --emit=amdgcn -o %t.add.s
// RUN: FileCheck %s --check-prefix=ADD < %t.add.s
// ADD-LABEL: atomic_add_ret:
// ADD: global_atomic_add_f32 {{.*}} sc0
// ADD: s_barrier
// ADD: global_atomic_add_f64 {{.*}} sc0
// ADD: s_endpgm

// RUN: terrazzo-compile %S/../GPU/kernels/atomic_cas_claim.mlir --target=hip:gfx942 --emit=amdgcn -o %t.cas.s
// RUN: FileCheck %s --check-prefix=CAS < %t.cas.s
// CAS-LABEL: atomic_cas_claim:
// CAS: global_atomic_cmpswap

// RUN: terrazzo-compile %S/../GPU/kernels/atomic_minmax_int.mlir --target=hip:gfx90a --emit=amdgcn -o %t.minmax.s
// RUN: FileCheck %s --check-prefix=MINMAX < %t.minmax.s
// MINMAX-LABEL: atomic_minmax_int:
// MINMAX-DAG: global_atomic_smax
// MINMAX-DAG: global_atomic_smin
// MINMAX-DAG: global_atomic_umax
// MINMAX-DAG: global_atomic_umin

// RUN: terrazzo-compile %S/../GPU/kernels/atomic_add_half.mlir --target=hip:gfx942 --emit=amdgcn -o %t.half.s
// RUN: FileCheck %s --check-prefix=HALF < %t.half.s
// HALF-LABEL: atomic_add_half:
// HALF: global_atomic_cmpswap

// RUN: terrazzo-compile %S/../GPU/kernels/atomic_lock.mlir --target=hip:gfx950 -o %t.lock.hsaco
// RUN: llvm-nm -D --undefined-only %t.lock.hsaco | count 0
// RUN: llvm-objdump -d %t.lock.hsaco | FileCheck %s --check-prefix=LOCK
// LOCK: <atomic_lock>:
// LOCK: global_atomic_cmpswap
// LOCK: global_atomic_swap
