// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --terrazzo-allocate-shared-memory --terrazzo-insert-barriers --convert-scf-to-cf --terrazzo-convert-tilegpu-to-llvm | FileCheck %s

// tile.atomic_rmw and tile.atomic_cas: each element is updated once, by the
// thread that owns it, with inline PTX `atom` (or `red` when the old values
// are unused and the ordering allows it) carrying the memory ordering and
// scope; a false mask skips the element and returns 0.

// One element per thread (128 elements, 4 warps): no copies, so no thread
// predicate; the mask guards each atomic, whose old value (0 where masked
// off) is the result.

// CHECK-LABEL: llvm.func @add_masked
// CHECK: %[[M:.*]] = llvm.extractvalue %arg2[0] : !llvm.struct<(i1)>
// CHECK: %[[Z:.*]] = llvm.mlir.zero : i32
// CHECK: llvm.cond_br %[[M]], ^[[DO:.*]], ^[[JOIN:.*]](%[[Z]] : i32)
// CHECK: ^[[DO]]:
// CHECK: %[[A:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<1> to i64
// CHECK: %[[OLD:.*]] = llvm.inline_asm has_side_effects "atom.relaxed.gpu.global.add.u32 $0, [$1], $2;", "=r,l,r" %[[A]], %{{.*}} : (i64, i32) -> i32
// CHECK: llvm.br ^[[JOIN]](%[[OLD]] : i32)
// CHECK: ^[[JOIN]](%[[R:.*]]: i32):
// CHECK: llvm.insertvalue %[[R]]
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
#b4 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @add_masked(%p: tensor<128x!tile.ptr<i32>, #b4>, %v: tensor<128xi32, #b4>,
                                %m: tensor<128xi1, #b4>) -> tensor<128xi32, #b4> {
    %0 = tile.atomic_rmw add, relaxed, gpu, %p, %v, %m : tensor<128x!tile.ptr<i32>, #b4>
    return %0 : tensor<128xi32, #b4>
  }
}

// -----

// Every kind, ordering and scope. With the old values unused, `red` (no
// result) where PTX has it: relaxed or release ordering, not exchange.
// Ordering maps to .relaxed/.acquire/.release/.acq_rel and scope to
// .gpu/.cta/.sys.

// CHECK-LABEL: llvm.func @kinds
// CHECK: "red.relaxed.gpu.global.add.u32 [$0], $1;", "l,r"
// CHECK: "atom.acquire.cta.global.and.b32 $0, [$1], $2;", "=r,l,r"
// CHECK: "red.release.sys.global.or.b32 [$0], $1;", "l,r"
// CHECK: "atom.acq_rel.gpu.global.xor.b32 $0, [$1], $2;", "=r,l,r"
// CHECK: "red.relaxed.gpu.global.max.s32 [$0], $1;", "l,r"
// CHECK: "red.relaxed.cta.global.min.s32 [$0], $1;", "l,r"
// CHECK: "red.relaxed.gpu.global.max.u32 [$0], $1;", "l,r"
// CHECK: "red.release.gpu.global.min.u32 [$0], $1;", "l,r"
// CHECK: "atom.relaxed.gpu.global.exch.b32 $0, [$1], $2;", "=r,l,r"
// CHECK: "red.relaxed.gpu.global.add.u64 [$0], $1;", "l,l"
// CHECK: "red.relaxed.gpu.global.max.s64 [$0], $1;", "l,l"
// CHECK: "red.relaxed.sys.global.min.u64 [$0], $1;", "l,l"
// CHECK: "atom.acquire.gpu.global.exch.b64 $0, [$1], $2;", "=l,l,l"
// CHECK: "red.relaxed.gpu.global.add.f32 [$0], $1;", "l,r"
// CHECK: "red.relaxed.gpu.global.add.f64 [$0], $1;", "l,l"
// CHECK: "red.relaxed.gpu.global.add.noftz.f16 [$0], $1;", "l,h"
// CHECK: "red.relaxed.gpu.global.add.noftz.bf16 [$0], $1;", "l,h"
// A float exchange moves the bits.
// CHECK: llvm.bitcast %{{.*}} : f32 to i32
// CHECK: "atom.relaxed.gpu.global.exch.b32 $0, [$1], $2;", "=r,l,r"
// CHECK: llvm.return
#b4 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @kinds(%pi: tensor<128x!tile.ptr<i32>, #b4>, %vi: tensor<128xi32, #b4>,
                           %pl: tensor<128x!tile.ptr<i64>, #b4>, %vl: tensor<128xi64, #b4>,
                           %pf: tensor<128x!tile.ptr<f32>, #b4>, %vf: tensor<128xf32, #b4>,
                           %pd: tensor<128x!tile.ptr<f64>, #b4>, %vd: tensor<128xf64, #b4>,
                           %ph: tensor<128x!tile.ptr<f16>, #b4>, %vh: tensor<128xf16, #b4>,
                           %pb: tensor<128x!tile.ptr<bf16>, #b4>, %vb: tensor<128xbf16, #b4>) {
    %0 = tile.atomic_rmw add, relaxed, gpu, %pi, %vi : tensor<128x!tile.ptr<i32>, #b4>
    %1 = tile.atomic_rmw and, acquire, cta, %pi, %vi : tensor<128x!tile.ptr<i32>, #b4>
    %2 = tile.atomic_rmw or, release, sys, %pi, %vi : tensor<128x!tile.ptr<i32>, #b4>
    %3 = tile.atomic_rmw xor, acq_rel, gpu, %pi, %vi : tensor<128x!tile.ptr<i32>, #b4>
    %4 = tile.atomic_rmw max, relaxed, gpu, %pi, %vi : tensor<128x!tile.ptr<i32>, #b4>
    %5 = tile.atomic_rmw min, relaxed, cta, %pi, %vi : tensor<128x!tile.ptr<i32>, #b4>
    %6 = tile.atomic_rmw umax, relaxed, gpu, %pi, %vi : tensor<128x!tile.ptr<i32>, #b4>
    %7 = tile.atomic_rmw umin, release, gpu, %pi, %vi : tensor<128x!tile.ptr<i32>, #b4>
    %8 = tile.atomic_rmw xchg, relaxed, gpu, %pi, %vi : tensor<128x!tile.ptr<i32>, #b4>
    %9 = tile.atomic_rmw add, relaxed, gpu, %pl, %vl : tensor<128x!tile.ptr<i64>, #b4>
    %10 = tile.atomic_rmw max, relaxed, gpu, %pl, %vl : tensor<128x!tile.ptr<i64>, #b4>
    %11 = tile.atomic_rmw umin, relaxed, sys, %pl, %vl : tensor<128x!tile.ptr<i64>, #b4>
    %12 = tile.atomic_rmw xchg, acquire, gpu, %pl, %vl : tensor<128x!tile.ptr<i64>, #b4>
    %13 = tile.atomic_rmw fadd, relaxed, gpu, %pf, %vf : tensor<128x!tile.ptr<f32>, #b4>
    %14 = tile.atomic_rmw fadd, relaxed, gpu, %pd, %vd : tensor<128x!tile.ptr<f64>, #b4>
    %15 = tile.atomic_rmw fadd, relaxed, gpu, %ph, %vh : tensor<128x!tile.ptr<f16>, #b4>
    %16 = tile.atomic_rmw fadd, relaxed, gpu, %pb, %vb : tensor<128x!tile.ptr<bf16>, #b4>
    %17 = tile.atomic_rmw xchg, relaxed, gpu, %pf, %vf : tensor<128x!tile.ptr<f32>, #b4>
    return
  }
}

// -----

// Float max and min of f32/f64 through integer atomics on the bits: a value
// with the sign bit clear takes signed max (min), one with it set unsigned
// min (max); the second atomic's join takes the first's result.

// CHECK-LABEL: llvm.func @float_max
// CHECK: %[[B:.*]] = llvm.bitcast %{{.*}} : f32 to i32
// CHECK: %[[NN:.*]] = llvm.icmp "sge" %[[B]], %{{.*}} : i32
// CHECK: %[[NEG:.*]] = llvm.xor %[[NN]], %{{.*}} : i1
// CHECK: %[[P1:.*]] = llvm.and %[[M:.*]], %[[NN]] : i1
// CHECK: llvm.cond_br %[[P1]], ^[[DO1:.*]], ^[[J1:.*]](%{{.*}} : i32)
// CHECK: ^[[DO1]]:
// CHECK: "atom.relaxed.gpu.global.max.s32 $0, [$1], $2;", "=r,l,r"
// CHECK: ^[[J1]](%[[O1:.*]]: i32):
// CHECK: %[[P2:.*]] = llvm.and %[[M]], %[[NEG]] : i1
// CHECK: llvm.cond_br %[[P2]], ^[[DO2:.*]], ^[[J2:.*]](%[[O1]] : i32)
// CHECK: ^[[DO2]]:
// CHECK: "atom.relaxed.gpu.global.min.u32 $0, [$1], $2;", "=r,l,r"
// CHECK: ^[[J2]](%[[O2:.*]]: i32):
// CHECK: llvm.bitcast %[[O2]] : i32 to f32
// CHECK-LABEL: llvm.func @double_min
// CHECK: llvm.bitcast %{{.*}} : f64 to i64
// CHECK: llvm.icmp "sge"
// CHECK: "atom.acquire.gpu.global.min.s64 $0, [$1], $2;", "=l,l,l"
// CHECK: "atom.acquire.gpu.global.max.u64 $0, [$1], $2;", "=l,l,l"
// CHECK: llvm.bitcast %{{.*}} : i64 to f64
// Unused: the same two, as reductions.
// CHECK-LABEL: llvm.func @float_max_unused
// CHECK: "red.relaxed.gpu.global.max.s32 [$0], $1;", "l,r"
// CHECK: "red.relaxed.gpu.global.min.u32 [$0], $1;", "l,r"
#b4 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @float_max(%p: tensor<128x!tile.ptr<f32>, #b4>, %v: tensor<128xf32, #b4>,
                               %m: tensor<128xi1, #b4>) -> tensor<128xf32, #b4> {
    %0 = tile.atomic_rmw max, relaxed, gpu, %p, %v, %m : tensor<128x!tile.ptr<f32>, #b4>
    return %0 : tensor<128xf32, #b4>
  }
  func.func private @double_min(%p: tensor<128x!tile.ptr<f64>, #b4>, %v: tensor<128xf64, #b4>) -> tensor<128xf64, #b4> {
    %0 = tile.atomic_rmw min, acquire, gpu, %p, %v : tensor<128x!tile.ptr<f64>, #b4>
    return %0 : tensor<128xf64, #b4>
  }
  func.func private @float_max_unused(%p: tensor<128x!tile.ptr<f32>, #b4>, %v: tensor<128xf32, #b4>) {
    %0 = tile.atomic_rmw max, relaxed, gpu, %p, %v : tensor<128x!tile.ptr<f32>, #b4>
    return
  }
}

// -----

// f16 and bf16 max/min, 16-bit exchange, and bf16 add before sm_90: a
// compare-and-swap loop on the bits, from a relaxed atomic load at the op's
// scope. Max/min compare the totalOrder key: the bits inverted when the
// sign is set, else with the sign bit set, as unsigned integers.

// CHECK-LABEL: llvm.func @half_max
// CHECK: %[[V:.*]] = llvm.extractvalue %arg1[0] : !llvm.struct<(f16)>
// CHECK: %[[INIT:.*]] = llvm.load %[[P:.*]] atomic syncscope("device") monotonic {alignment = 2 : i64} : !llvm.ptr<1> -> i16
// CHECK: llvm.br ^[[LOOP:.*]](%[[INIT]] : i16)
// CHECK: ^[[LOOP]](%[[EXP:.*]]: i16):
// CHECK: %[[OLDF:.*]] = llvm.bitcast %[[EXP]] : i16 to f16
// CHECK: %[[VB:.*]] = llvm.bitcast %[[V]] : f16 to i16
// CHECK: llvm.icmp "slt" %[[VB]]
// CHECK: llvm.xor %[[VB]]
// CHECK: llvm.or %[[VB]]
// CHECK: %[[KV:.*]] = llvm.select
// CHECK: %[[KO:.*]] = llvm.select
// CHECK: %[[TAKE:.*]] = llvm.icmp "ugt" %[[KV]], %[[KO]] : i16
// CHECK: %[[NEW:.*]] = llvm.select %[[TAKE]], %[[V]], %[[OLDF]] : i1, f16
// CHECK: %[[NEWB:.*]] = llvm.bitcast %[[NEW]] : f16 to i16
// CHECK: %[[GOT:.*]] = llvm.inline_asm has_side_effects "atom.relaxed.gpu.global.cas.b16 $0, [$1], $2, $3;", "=h,l,h,h" %{{.*}}, %[[EXP]], %[[NEWB]] : (i64, i16, i16) -> i16
// CHECK: %[[DONE:.*]] = llvm.icmp "eq" %[[GOT]], %[[EXP]] : i16
// CHECK: llvm.cond_br %[[DONE]], ^[[EXIT:.*]](%[[GOT]] : i16), ^[[LOOP]](%[[GOT]] : i16)
// CHECK: ^[[EXIT]](%[[SEEN:.*]]: i16):
// CHECK: llvm.br ^[[AFTER:.*]]
// CHECK: ^[[AFTER]]:
// CHECK: llvm.bitcast %[[SEEN]] : i16 to f16
// CHECK-LABEL: llvm.func @bf16_min
// CHECK: llvm.load %{{.*}} atomic syncscope("block") monotonic
// CHECK: llvm.icmp "ult"
// CHECK: "atom.release.cta.global.cas.b16 $0, [$1], $2, $3;", "=h,l,h,h"
// CHECK-LABEL: llvm.func @half_xchg
// CHECK: llvm.load %{{.*}} atomic monotonic
// CHECK-NOT: llvm.select
// CHECK: "atom.relaxed.sys.global.cas.b16 $0, [$1], $2, $3;", "=h,l,h,h"
// CHECK-LABEL: llvm.func @bf16_add_sm80
// CHECK: llvm.fadd %{{.*}}, %{{.*}} : bf16
// CHECK: "atom.relaxed.gpu.global.cas.b16 $0, [$1], $2, $3;", "=h,l,h,h"
#b4 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:80", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @half_max(%p: tensor<128x!tile.ptr<f16>, #b4>, %v: tensor<128xf16, #b4>) -> tensor<128xf16, #b4> {
    %0 = tile.atomic_rmw max, relaxed, gpu, %p, %v : tensor<128x!tile.ptr<f16>, #b4>
    return %0 : tensor<128xf16, #b4>
  }
  func.func private @bf16_min(%p: tensor<128x!tile.ptr<bf16>, #b4>, %v: tensor<128xbf16, #b4>) -> tensor<128xbf16, #b4> {
    %0 = tile.atomic_rmw min, release, cta, %p, %v : tensor<128x!tile.ptr<bf16>, #b4>
    return %0 : tensor<128xbf16, #b4>
  }
  func.func private @half_xchg(%p: tensor<128x!tile.ptr<f16>, #b4>, %v: tensor<128xf16, #b4>) -> tensor<128xf16, #b4> {
    %0 = tile.atomic_rmw xchg, relaxed, sys, %p, %v : tensor<128x!tile.ptr<f16>, #b4>
    return %0 : tensor<128xf16, #b4>
  }
  func.func private @bf16_add_sm80(%p: tensor<128x!tile.ptr<bf16>, #b4>, %v: tensor<128xbf16, #b4>) -> tensor<128xbf16, #b4> {
    %0 = tile.atomic_rmw fadd, relaxed, gpu, %p, %v : tensor<128x!tile.ptr<bf16>, #b4>
    return %0 : tensor<128xbf16, #b4>
  }
}

// -----

// Compare-and-swap on the bits: floats are bitcast, pointers converted.

// CHECK-LABEL: llvm.func @cas
// CHECK: %[[C:.*]] = llvm.bitcast %{{.*}} : f32 to i32
// CHECK: %[[V:.*]] = llvm.bitcast %{{.*}} : f32 to i32
// CHECK: %[[O:.*]] = llvm.inline_asm has_side_effects "atom.acq_rel.gpu.global.cas.b32 $0, [$1], $2, $3;", "=r,l,r,r" %{{.*}}, %[[C]], %[[V]] : (i64, i32, i32) -> i32
// CHECK: llvm.bitcast %[[O]] : i32 to f32
// CHECK: "atom.relaxed.cta.global.cas.b64 $0, [$1], $2, $3;", "=l,l,l,l"
// CHECK-LABEL: llvm.func @cas_pointers
// CHECK: llvm.ptrtoint %{{.*}} : !llvm.ptr<1> to i64
// CHECK: "atom.acquire.sys.global.cas.b64 $0, [$1], $2, $3;", "=l,l,l,l"
// CHECK: llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<1>
#b4 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @cas(%p: tensor<128x!tile.ptr<f32>, #b4>, %c: tensor<128xf32, #b4>, %v: tensor<128xf32, #b4>,
                         %pl: tensor<128x!tile.ptr<i64>, #b4>, %vl: tensor<128xi64, #b4>) -> tensor<128xf32, #b4> {
    %0 = tile.atomic_cas acq_rel, gpu, %p, %c, %v : tensor<128x!tile.ptr<f32>, #b4>
    %1 = tile.atomic_cas relaxed, cta, %pl, %vl, %vl : tensor<128x!tile.ptr<i64>, #b4>
    return %0 : tensor<128xf32, #b4>
  }
  func.func private @cas_pointers(%p: !tile.ptr<!tile.ptr<f32>>, %c: !tile.ptr<f32>, %v: !tile.ptr<f32>) -> !tile.ptr<f32> {
    %0 = tile.atomic_cas acquire, sys, %p, %c, %v : !tile.ptr<!tile.ptr<f32>>
    return %0 : !tile.ptr<f32>
  }
}

// -----

// Copies of elements do no atomics. 16 elements over 4 warps of 32 lanes:
// lanes 16..31 and warps 1..3 hold copies (the free bits of the layout), so
// only lanes 0..15 of warp 0 update; the old values reach the copies in
// other warps through shared memory (stored by the owners at the elements'
// offsets, a barrier, loaded by everyone).

// CHECK-LABEL: llvm.func @copies_in_warps
// CHECK: %[[TID0:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[WARPTID:.*]] = llvm.lshr %[[TID0]], %{{.*}} : i32
// CHECK: %[[WARP:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[WARPTID]], %{{.*}}, %{{.*}} {terrazzo.warp_index} : i32 -> i32
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[LANE:.*]] = llvm.and %[[TID]], %{{.*}} : i32
// CHECK: %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK: %[[LF:.*]] = llvm.and %[[LANE]], %[[C16]] : i32
// CHECK: %[[C3:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: %[[WF:.*]] = llvm.and %[[WARP]], %[[C3]] : i32
// CHECK: %[[F:.*]] = llvm.or %[[LF]], %[[WF]] : i32
// CHECK: %[[OWN:.*]] = llvm.icmp "eq" %[[F]], %{{.*}} : i32
// CHECK: llvm.cond_br %[[OWN]], ^[[DO:.*]], ^[[J:.*]](%{{.*}} : i32)
// CHECK: ^[[DO]]:
// CHECK: "atom.relaxed.gpu.global.add.u32 $0, [$1], $2;"
// CHECK: ^[[J]](%[[OLD:.*]]: i32):
// CHECK: %[[SMEM:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK: llvm.cond_br %[[OWN]], ^[[ST:.*]], ^[[STJ:.*]]
// CHECK: ^[[ST]]:
// CHECK: %[[SLOT:.*]] = llvm.getelementptr %[[SMEM]][%[[OFF:.*]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// CHECK: llvm.store %[[OLD]], %[[SLOT]] {alignment = 4 : i64} : i32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: %[[SLOT2:.*]] = llvm.getelementptr %[[SMEM]][%[[OFF]]]
// CHECK: llvm.load %[[SLOT2]] {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// CHECK: llvm.return
// With the old values unused, the same predicate and nothing after.
// CHECK-LABEL: llvm.func @copies_unused
// CHECK: llvm.icmp "eq"
// CHECK: "red.relaxed.gpu.global.add.u32 [$0], $1;"
// CHECK-NOT: global_smem
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
#b4 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @copies_in_warps(%p: tensor<16x!tile.ptr<i32>, #b4>, %v: tensor<16xi32, #b4>) -> tensor<16xi32, #b4> {
    %0 = tile.atomic_rmw add, relaxed, gpu, %p, %v : tensor<16x!tile.ptr<i32>, #b4>
    return %0 : tensor<16xi32, #b4>
  }
  func.func private @copies_unused(%p: tensor<16x!tile.ptr<i32>, #b4>, %v: tensor<16xi32, #b4>) {
    %0 = tile.atomic_rmw add, relaxed, gpu, %p, %v : tensor<16x!tile.ptr<i32>, #b4>
    return
  }
}

// -----

// Copies in lanes only (16 elements, one warp): lanes 16..31 skip the
// atomic and read the old value from lane & 15 with a shuffle (a 64-bit
// value in two halves). No shared memory.

// CHECK-LABEL: llvm.func @copies_in_lanes
// CHECK: %[[LANE:.*]] = llvm.and %{{.*}}, %{{.*}} : i32
// CHECK: llvm.icmp "eq"
// CHECK: "atom.relaxed.gpu.global.add.f64 $0, [$1], $2;", "=l,l,l"
// CHECK: %[[C15:.*]] = llvm.mlir.constant(15 : i32) : i32
// CHECK: %[[SRC:.*]] = llvm.and %[[LANE]], %[[C15]] : i32
// CHECK: nvvm.shfl.sync idx %{{.*}}, %{{.*}}, %[[SRC]], %{{.*}} : i32 -> i32
// CHECK: nvvm.shfl.sync idx %{{.*}}, %{{.*}}, %[[SRC]], %{{.*}} : i32 -> i32
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
#b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @copies_in_lanes(%p: tensor<16x!tile.ptr<f64>, #b1>, %v: tensor<16xf64, #b1>) -> tensor<16xf64, #b1> {
    %0 = tile.atomic_rmw fadd, relaxed, gpu, %p, %v : tensor<16x!tile.ptr<f64>, #b1>
    return %0 : tensor<16xf64, #b1>
  }
}

// -----

// A slice layout whose warps all hold the same row (4 warps along the
// reduced dimension): warps 1..3 hold copies.

// CHECK-LABEL: llvm.func @slice_copies
// CHECK: %[[C3:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: llvm.and %{{.*}}, %[[C3]] : i32
// CHECK: "atom.relaxed.gpu.global.exch.b32 $0, [$1], $2;"
// CHECK: llvm.store
// CHECK: nvvm.barrier0
// CHECK: llvm.load
#p = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#s = #tilegpu.slice<{dim = 1, parent = #p}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @slice_copies(%p: tensor<32x!tile.ptr<i32>, #s>, %v: tensor<32xi32, #s>) -> tensor<32xi32, #s> {
    %0 = tile.atomic_rmw xchg, relaxed, gpu, %p, %v : tensor<32x!tile.ptr<i32>, #s>
    return %0 : tensor<32xi32, #s>
  }
}

// -----

// A scalar atomic: thread 0 does it; with several warps the old value goes
// through shared memory, with one warp through a shuffle from lane 0.

// CHECK-LABEL: llvm.func @scalar_warps
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[T0:.*]] = llvm.icmp "eq" %[[TID]], %{{.*}} : i32
// CHECK: llvm.cond_br %[[T0]], ^[[DO:.*]], ^[[J:.*]](%{{.*}} : i32)
// CHECK: ^[[DO]]:
// CHECK: "atom.acq_rel.gpu.global.add.u32 $0, [$1], $2;"
// CHECK: ^[[J]](%[[OLD:.*]]: i32):
// CHECK: llvm.cond_br %[[T0]]
// CHECK: llvm.store %[[OLD]], %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: %[[R:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// CHECK: llvm.return %[[R]] : i32
#b4 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @scalar_warps(%p: !tile.ptr<i32>, %v: i32) -> i32 {
    %0 = tile.atomic_rmw add, acq_rel, gpu, %p, %v : !tile.ptr<i32>
    return %0 : i32
  }
}

// -----

// CHECK-LABEL: llvm.func @scalar_warp
// CHECK: llvm.icmp "eq"
// CHECK: "atom.relaxed.gpu.global.cas.b32 $0, [$1], $2, $3;"
// CHECK: %[[Z:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: nvvm.shfl.sync idx %{{.*}}, %{{.*}}, %[[Z]], %{{.*}} : i32 -> i32
// CHECK-NOT: nvvm.barrier0
module attributes {"tilegpu.num-warps" = 1 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @scalar_warp(%p: !tile.ptr<i32>, %c: i32, %v: i32) -> i32 {
    %0 = tile.atomic_cas relaxed, gpu, %p, %c, %v : !tile.ptr<i32>
    return %0 : i32
  }
}

// -----

// Packed half adds: two consecutive registers, contiguous in memory and
// 4-byte aligned (AxisInfo), become one f16x2 (bf16x2 on sm_90) atomic;
// under a mask that may differ between them, one atomic per element.

// CHECK-LABEL: llvm.func @packed
// CHECK: %[[V:.*]] = llvm.insertelement %{{.*}}, %{{.*}}[%{{.*}} : i32] : vector<2xf16>
// CHECK: %[[VI:.*]] = llvm.bitcast %{{.*}} : vector<2xf16> to i32
// CHECK: %[[O:.*]] = llvm.inline_asm has_side_effects "atom.relaxed.gpu.global.add.noftz.f16x2 $0, [$1], $2;", "=r,l,r" %{{.*}}, %[[VI]] : (i64, i32) -> i32
// CHECK: llvm.bitcast %[[O]] : i32 to vector<2xf16>
// CHECK: llvm.extractelement
// CHECK: "red.relaxed.gpu.global.add.noftz.bf16x2 [$0], $1;", "l,r"
// CHECK: "atom.relaxed.gpu.global.add.noftz.f16 $0, [$1], $2;"
// CHECK: "atom.relaxed.gpu.global.add.noftz.f16 $0, [$1], $2;"
#v2 = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @packed(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %y: !tile.ptr<bf16> {tile.divisibility = 16 : i32},
                    %out: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32) {
    %r = tile.make_range 0 to 256 : tensor<256xi32, #v2>
    %xs = tile.splat %x : !tile.ptr<f16> -> tensor<256x!tile.ptr<f16>, #v2>
    %xp = tile.addptr %xs, %r : tensor<256x!tile.ptr<f16>, #v2>, tensor<256xi32, #v2>
    %v = arith.sitofp %r : tensor<256xi32, #v2> to tensor<256xf16, #v2>
    %old = tile.atomic_rmw fadd, relaxed, gpu, %xp, %v : tensor<256x!tile.ptr<f16>, #v2>
    %os = tile.splat %out : !tile.ptr<f16> -> tensor<256x!tile.ptr<f16>, #v2>
    %op = tile.addptr %os, %r : tensor<256x!tile.ptr<f16>, #v2>, tensor<256xi32, #v2>
    tile.store %op, %old : tensor<256x!tile.ptr<f16>, #v2>
    %ys = tile.splat %y : !tile.ptr<bf16> -> tensor<256x!tile.ptr<bf16>, #v2>
    %yp = tile.addptr %ys, %r : tensor<256x!tile.ptr<bf16>, #v2>, tensor<256xi32, #v2>
    %vb = arith.sitofp %r : tensor<256xi32, #v2> to tensor<256xbf16, #v2>
    %u = tile.atomic_rmw fadd, relaxed, gpu, %yp, %vb : tensor<256x!tile.ptr<bf16>, #v2>
    %ns = tile.splat %n : i32 -> tensor<256xi32, #v2>
    %m = arith.cmpi slt, %r, %ns : tensor<256xi32, #v2>
    %old2 = tile.atomic_rmw fadd, relaxed, gpu, %xp, %v, %m : tensor<256x!tile.ptr<f16>, #v2>
    tile.store %op, %old2 : tensor<256x!tile.ptr<f16>, #v2>
    return
  }
}

// -----

// The lowering needs distributed layouts.
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @no_layout(%p: tensor<16x!tile.ptr<i32>>, %v: tensor<16xi32>) {
    // expected-error @below {{'tile.atomic_rmw' op needs pointers with a distributed layout; run terrazzo-convert-tile-to-tilegpu first}}
    %0 = tile.atomic_rmw add, relaxed, gpu, %p, %v : tensor<16x!tile.ptr<i32>>
    return
  }
}

// -----

module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @no_layout_cas(%p: tensor<16x!tile.ptr<i32>>, %v: tensor<16xi32>) -> tensor<16xi32> {
    // expected-error @below {{'tile.atomic_cas' op needs pointers with a distributed layout; run terrazzo-convert-tile-to-tilegpu first}}
    %0 = tile.atomic_cas relaxed, gpu, %p, %v, %v : tensor<16x!tile.ptr<i32>>
    return %0 : tensor<16xi32>
  }
}
