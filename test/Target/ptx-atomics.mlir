// tile.atomic_rmw and tile.atomic_cas in PTX through the whole pipeline (the
// kernels of test/GPU/kernels/atomic_*.mlir): `atom` with the ordering and
// scope qualifiers, `red` where the old values are unused, predicates that
// keep copies of an element from updating it twice, and the broadcast of
// old values through shared memory. The PTX assembles.
// REQUIRES: ptxas

// 16 elements over 4 warps: lanes 16..31 and warps 1..3 hold copies, so
// only (lane & 16) | warp == 0 does the atomic; the owners store the old
// values in shared memory and, after a barrier, every copy loads its own;
// the same owners alone store the results to global memory.
// RUN: terrazzo-compile %S/../GPU/kernels/atomic_ticket_small.mlir --target=cuda:90 --emit=ptx -o %t.small.ptx
// RUN: FileCheck %s --check-prefix=SMALL < %t.small.ptx
// RUN: FileCheck %s --check-prefix=SMALL-JSON < %t.small.ptx.json
// RUN: %ptxas -arch=sm_90a %t.small.ptx -o %t.small.cubin
// SMALL: .entry atomic_ticket_small(
// SMALL: and.b32 [[LF:%r[0-9]+]], %r{{[0-9]+}}, 16;
// SMALL: or.b32 [[F:%r[0-9]+]], {{(%r[0-9]+, )?}}[[LF]]{{(, %r[0-9]+)?}};
// SMALL: setp.eq.b32 [[OWNER:%p[0-9]+]], [[F]], 0;
// SMALL: and.pred [[OWNED:%p[0-9]+]], {{(%p[0-9]+, )?}}[[OWNER]]{{(, %p[0-9]+)?}};
// SMALL: atom.relaxed.gpu.global.add.u32
// SMALL: setp.ne.b32 [[COPY:%p[0-9]+]], [[F]], 0;
// SMALL: @[[COPY]] bra
// SMALL: st.shared.b32
// SMALL: bar.sync 0;
// SMALL: ld.shared.b32
// SMALL: @[[OWNED]] st.global.b32
// SMALL-JSON: "shared_memory_bytes": 64,

// One warp: the copies in lanes 16..31 get the old value by a shuffle from
// lane & 15; no shared memory.
// RUN: terrazzo-compile %S/../GPU/kernels/atomic_ticket_small.mlir --target=cuda:80 --num-warps=1 --emit=ptx -o %t.small1.ptx
// RUN: FileCheck %s --check-prefix=SMALL1 < %t.small1.ptx
// RUN: %ptxas -arch=sm_80 %t.small1.ptx -o %t.small1.cubin
// SMALL1: atom.relaxed.gpu.global.add.u32
// SMALL1: shfl.sync.idx.b32
// SMALL1-NOT: bar.sync
// SMALL1: ret;

// A scalar atomic: thread 0 does it and every thread reads the old value
// from shared memory after a barrier.
// RUN: terrazzo-compile %S/../GPU/kernels/atomic_scalar.mlir --target=cuda:90 --num-warps=8 --emit=ptx -o %t.scalar.ptx
// RUN: FileCheck %s --check-prefix=SCALAR < %t.scalar.ptx
// RUN: %ptxas -arch=sm_90a %t.scalar.ptx -o %t.scalar.cubin
// SCALAR: mov.u32 [[TID:%r[0-9]+]], %tid.x;
// SCALAR: setp.ne.b32 [[NOT0:%p[0-9]+]], [[TID]], 0;
// SCALAR: @[[NOT0]] bra
// SCALAR: atom.acq_rel.gpu.global.add.u32
// SCALAR: st.shared.b32 [global_smem],
// SCALAR: bar.sync 0;
// SCALAR: ld.shared.b32 {{%r[0-9]+}}, [global_smem];

// Unused old values: `red`. Float max/min are a signed max (min) for
// values with the sign bit clear and an unsigned min (max) for the others.
// RUN: terrazzo-compile %S/../GPU/kernels/atomic_minmax_f32.mlir --target=cuda:90 --emit=ptx -o %t.minmax.ptx
// RUN: FileCheck %s --check-prefix=MINMAX < %t.minmax.ptx
// RUN: %ptxas -arch=sm_90a %t.minmax.ptx -o %t.minmax.cubin
// MINMAX: red.relaxed.gpu.global.max.s32
// MINMAX: red.relaxed.gpu.global.min.u32
// MINMAX: red.relaxed.gpu.global.min.s32
// MINMAX: red.relaxed.gpu.global.max.u32
// MINMAX-NOT: atom.

// RUN: terrazzo-compile %S/../GPU/kernels/atomic_minmax_int.mlir --target=cuda:80 --num-warps=8 --emit=ptx -o %t.int.ptx
// RUN: FileCheck %s --check-prefix=INT < %t.int.ptx
// RUN: %ptxas -arch=sm_80 %t.int.ptx -o %t.int.cubin
// INT: red.relaxed.gpu.global.max.s32
// INT: red.relaxed.gpu.global.min.s32
// INT: red.relaxed.gpu.global.max.u32
// INT: red.relaxed.gpu.global.min.u32

// f16 max/min: a compare-and-swap loop from a relaxed load.
// RUN: terrazzo-compile %S/../GPU/kernels/atomic_minmax_f16.mlir --target=cuda:90 --emit=ptx -o %t.f16.ptx
// RUN: FileCheck %s --check-prefix=F16 < %t.f16.ptx
// RUN: %ptxas -arch=sm_90a %t.f16.ptx -o %t.f16.cubin
// F16: ld.relaxed.gpu.global.b16
// F16: [[LOOP:\$L__BB[0-9_]+]]:
// F16: atom.relaxed.gpu.global.cas.b16
// F16: setp.ne.b16 [[AGAIN:%p[0-9]+]]
// F16: @[[AGAIN]] bra [[LOOP]];

// Exchange (f32: exch.b32; bf16: a compare-and-swap loop), returning the
// old values; compare-and-swap; the spin lock's acquire and release.
// RUN: terrazzo-compile %S/../GPU/kernels/atomic_xchg.mlir --target=cuda:90 --emit=ptx -o %t.xchg.ptx
// RUN: FileCheck %s --check-prefix=XCHG < %t.xchg.ptx
// RUN: %ptxas -arch=sm_90a %t.xchg.ptx -o %t.xchg.cubin
// XCHG: atom.acq_rel.gpu.global.exch.b32
// XCHG: atom.relaxed.gpu.global.cas.b16
// RUN: terrazzo-compile %S/../GPU/kernels/atomic_cas_claim.mlir --target=cuda:90 --emit=ptx -o %t.cas.ptx
// RUN: FileCheck %s --check-prefix=CAS < %t.cas.ptx
// RUN: %ptxas -arch=sm_90a %t.cas.ptx -o %t.cas.cubin
// CAS: atom.acq_rel.gpu.global.cas.b32
// RUN: terrazzo-compile %S/../GPU/kernels/atomic_lock.mlir --target=cuda:90 --emit=ptx -o %t.lock.ptx
// RUN: FileCheck %s --check-prefix=LOCK < %t.lock.ptx
// RUN: %ptxas -arch=sm_90a %t.lock.ptx -o %t.lock.cubin
// LOCK: atom.acquire.gpu.global.cas.b32
// LOCK: atom.relaxed.gpu.global.add.u32
// LOCK: atom.relaxed.gpu.global.exch.b32
// LOCK: atom.release.gpu.global.exch.b32

// f16 and bf16 adds: pairs of adjacent elements as f16x2 / bf16x2 on
// sm_90; bf16 before sm_90 is a compare-and-swap loop.
// RUN: terrazzo-compile %S/../GPU/kernels/atomic_add_half.mlir --target=cuda:90 --emit=ptx -o %t.half.ptx
// RUN: FileCheck %s --check-prefix=HALF90 < %t.half.ptx
// RUN: %ptxas -arch=sm_90a %t.half.ptx -o %t.half.cubin
// HALF90: red.relaxed.gpu.global.add.noftz.f16x2
// HALF90: red.relaxed.gpu.global.add.noftz.bf16x2
// RUN: terrazzo-compile %S/../GPU/kernels/atomic_add_half.mlir --target=cuda:80 --emit=ptx -o %t.half80.ptx
// RUN: FileCheck %s --check-prefix=HALF80 < %t.half80.ptx
// RUN: %ptxas -arch=sm_80 %t.half80.ptx -o %t.half80.cubin
// HALF80: red.relaxed.gpu.global.add.noftz.f16x2
// HALF80-NOT: bf16x2
// HALF80: atom.relaxed.gpu.global.cas.b16

// f32 and f64 adds that return the old values.
// RUN: terrazzo-compile %S/../GPU/kernels/atomic_add_ret.mlir --target=cuda:90 --emit=ptx -o %t.ret.ptx
// RUN: FileCheck %s --check-prefix=RET < %t.ret.ptx
// RUN: %ptxas -arch=sm_90a %t.ret.ptx -o %t.ret.cubin
// RET: atom.relaxed.gpu.global.add.f32
// RET: atom.relaxed.gpu.global.add.f64

// The histograms: reductions only.
// RUN: terrazzo-compile %S/../GPU/kernels/atomic_histogram_i32.mlir --target=cuda:90 --emit=ptx -o %t.hi.ptx
// RUN: FileCheck %s --check-prefix=HIST < %t.hi.ptx
// RUN: %ptxas -arch=sm_90a %t.hi.ptx -o %t.hi.cubin
// HIST: red.relaxed.gpu.global.add.u32
// HIST-NOT: atom.
// RUN: terrazzo-compile %S/../GPU/kernels/atomic_histogram_f32.mlir --target=cuda:80 --emit=ptx -o %t.hf.ptx
// RUN: FileCheck %s --check-prefix=HISTF < %t.hf.ptx
// RUN: %ptxas -arch=sm_80 %t.hf.ptx -o %t.hf.cubin
// HISTF: red.relaxed.gpu.global.add.f32
