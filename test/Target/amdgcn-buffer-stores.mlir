// Buffer stores and buffer atomics on CDNA (gfx942, compile-only): a
// tile.store, tile.atomic_rmw or tile.atomic_cas through a scalar base
// pointer plus i32 offsets known not to be negative writes through the same
// buffer resource as the loads (2^31 - 1 bytes in s_brev_b32 -2, the gfx9
// flags 0x27000), as a pointer that LLVM AMDGPU lowers to buffer
// instructions. A masked store sends its masked-off vectors to the
// out-of-range offset 0x80000000 (v_bfrev_b32 1, chosen by v_cndmask), where
// it writes nothing, with no branch; atomics keep their branch on the mask
// (their old values of masked-off elements are 0). Must not: offsets that
// may be negative, i64 offsets and stores with cache hints stay
// global_store; 16-bit atomics (no buffer atomic of their width) stay global
// atomics. The assembly assembles again and links.

// RUN: terrazzo-compile %s --target=hip:gfx942 --num-warps=4 --emit=amdgcn -o %t.s
// RUN: FileCheck %s < %t.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t.s -o %t.o
// RUN: ld.lld -shared %t.o -o %t.hsaco
// RUN: llvm-nm -D --undefined-only %t.hsaco | count 0
// The other CDNA chips have the same buffer stores and atomics.
// RUN: terrazzo-compile %s --target=hip:gfx90a --num-warps=4 --emit=amdgcn | FileCheck %s --check-prefix=CDNA
// RUN: terrazzo-compile %s --target=hip:gfx950 --num-warps=4 --emit=amdgcn | FileCheck %s --check-prefix=CDNA

// CHECK-LABEL: masked_store:
// CHECK-DAG: s_mov_b32 s{{[0-9]+}}, 0x27000
// CHECK-DAG: s_brev_b32 s{{[0-9]+}}, -2
// CHECK-DAG: v_bfrev_b32_e32 [[OUT:v[0-9]+]], 1
// CHECK-NOT: s_cbranch
// CHECK: v_cndmask_b32_e32 [[OFFSET:v[0-9]+]], [[OUT]], v{{[0-9]+}}, vcc
// CHECK-NOT: s_cbranch
// CHECK: buffer_store_dwordx4 v[{{[0-9]+}}:{{[0-9]+}}], [[OFFSET]], s[{{[0-9]+}}:{{[0-9]+}}], 0 offen
// CHECK-NOT: s_cbranch
// CHECK-NOT: global_store
// CHECK: s_endpgm
// CDNA-LABEL: masked_store:
// CDNA: buffer_store_dwordx4
// CDNA-NOT: global_store
// CDNA: s_endpgm
func.func @masked_store(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32, tile.pointer_range = 32 : i32}, %out: !tile.ptr<f32> {tile.divisibility = 16 : i32, tile.pointer_range = 32 : i32}, %n: i32 {tile.divisibility = 16 : i32}) {
  %pid = tile.program_id x : i32
  %c1024 = arith.constant 1024 : i32
  %start = arith.muli %pid, %c1024 : i32
  %r = tile.make_range 0 to 1024 : tensor<1024xi32>
  %s = tile.splat %start : i32 -> tensor<1024xi32>
  %offs = arith.addi %s, %r : tensor<1024xi32>
  %ns = tile.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %a = tile.load %xp, %mask : tensor<1024x!tile.ptr<f32>>
  %b = arith.addf %a, %a : tensor<1024xf32>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %op = tile.addptr %os, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %op, %b, %mask : tensor<1024x!tile.ptr<f32>>
  return
}

// A 2-D tile whose rows are strided by a tile.nonnegative argument: the
// offsets row * stride + column are products and sums of values that are
// not negative: four f16 per work-item (a 32 x 32 tile over 256), one
// 8-byte store.
// CHECK-LABEL: strided_tile:
// CHECK-NOT: global_store
// CHECK: buffer_store_dwordx2
// CHECK-NOT: global_store
// CHECK: s_endpgm
func.func @strided_tile(%out: !tile.ptr<f16> {tile.divisibility = 16 : i32, tile.pointer_range = 32 : i32}, %stride: i32 {tile.divisibility = 16 : i32, tile.nonnegative}) {
  %rows = tile.make_range 0 to 32 : tensor<32xi32>
  %r2 = tile.expand_dims %rows axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %ss = tile.splat %stride : i32 -> tensor<32x1xi32>
  %rs = arith.muli %r2, %ss : tensor<32x1xi32>
  %rb = tile.broadcast %rs : tensor<32x1xi32> -> tensor<32x32xi32>
  %cols = tile.make_range 0 to 32 : tensor<32xi32>
  %c2 = tile.expand_dims %cols axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %cb = tile.broadcast %c2 : tensor<1x32xi32> -> tensor<32x32xi32>
  %offs = arith.addi %rb, %cb : tensor<32x32xi32>
  %v = arith.sitofp %offs : tensor<32x32xi32> to tensor<32x32xf16>
  %os = tile.splat %out : !tile.ptr<f16> -> tensor<32x32x!tile.ptr<f16>>
  %op = tile.addptr %os, %offs : tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>
  tile.store %op, %v : tensor<32x32x!tile.ptr<f16>>
  return
}

// 64 elements over 256 work-items: each element is held by four, and only
// its owner stores it; the others' offsets, too, are out of range, so that
// no branch decides who stores.
// CHECK-LABEL: copies:
// CHECK: v_bfrev_b32_e32 [[OUT:v[0-9]+]], 1
// CHECK-NOT: s_cbranch
// CHECK: v_cndmask_b32_e32 [[OFFSET:v[0-9]+]], [[OUT]], v{{[0-9]+}}, vcc
// CHECK-NOT: s_cbranch
// CHECK: buffer_store_dword v{{[0-9]+}}, [[OFFSET]], s[{{[0-9]+}}:{{[0-9]+}}], 0 offen
// CHECK: s_endpgm
func.func @copies(%out: !tile.ptr<f32> {tile.divisibility = 16 : i32, tile.pointer_range = 32 : i32}) {
  %pid = tile.program_id x : i32
  %c64 = arith.constant 64 : i32
  %start = arith.muli %pid, %c64 : i32
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %s = tile.splat %start : i32 -> tensor<64xi32>
  %offs = arith.addi %s, %r : tensor<64xi32>
  %v = arith.sitofp %offs : tensor<64xi32> to tensor<64xf32>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %op = tile.addptr %os, %offs : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  tile.store %op, %v : tensor<64x!tile.ptr<f32>>
  return
}

// Atomics at block offsets: fadd (f32, f64), add, max, min, exchange and
// compare-and-swap are buffer atomics (returning, sc0, where the old value
// is used); the float max takes the integer max/min pair on the bits.
// CHECK-LABEL: atomics:
// CHECK-NOT: global_atomic
// CHECK-DAG: buffer_atomic_add_f32 v{{[0-9]+}}, v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen
// CHECK-DAG: buffer_atomic_add_f64 v[{{[0-9]+}}:{{[0-9]+}}], v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen
// CHECK-DAG: buffer_atomic_add v{{[0-9]+}}, v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen sc0
// CHECK-DAG: buffer_atomic_smax v{{[0-9]+}}, v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen
// CHECK-DAG: buffer_atomic_umin v{{[0-9]+}}, v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen
// CHECK-DAG: buffer_atomic_smin v{{[0-9]+}}, v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen
// CHECK-DAG: buffer_atomic_swap v{{[0-9]+}}, v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen sc0
// CHECK-DAG: buffer_atomic_cmpswap v[{{[0-9]+}}:{{[0-9]+}}], v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen sc0
// CHECK-NOT: global_atomic
// CHECK: s_endpgm
// CDNA-LABEL: atomics:
// CDNA-NOT: global_atomic
// CDNA: buffer_atomic
// CDNA-NOT: global_atomic
// CDNA: s_endpgm
func.func @atomics(%f: !tile.ptr<f32> {tile.divisibility = 16 : i32, tile.pointer_range = 32 : i32}, %d: !tile.ptr<f64> {tile.divisibility = 16 : i32, tile.pointer_range = 32 : i32}, %i: !tile.ptr<i32> {tile.divisibility = 16 : i32, tile.pointer_range = 32 : i32}, %out: !tile.ptr<i32> {tile.divisibility = 16 : i32, tile.pointer_range = 32 : i32}, %n: i32) {
  %pid = tile.program_id x : i32
  %c256 = arith.constant 256 : i32
  %start = arith.muli %pid, %c256 : i32
  %r = tile.make_range 0 to 256 : tensor<256xi32>
  %s = tile.splat %start : i32 -> tensor<256xi32>
  %offs = arith.addi %s, %r : tensor<256xi32>
  %ns = tile.splat %n : i32 -> tensor<256xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<256xi32>
  %fs = tile.splat %f : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %fp = tile.addptr %fs, %offs : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %one = arith.constant dense<1.0> : tensor<256xf32>
  %a = tile.atomic_rmw fadd, relaxed, gpu, %fp, %one, %mask : tensor<256x!tile.ptr<f32>>
  %b = tile.atomic_rmw max, relaxed, gpu, %fp, %a, %mask : tensor<256x!tile.ptr<f32>>
  %ds = tile.splat %d : !tile.ptr<f64> -> tensor<256x!tile.ptr<f64>>
  %dp = tile.addptr %ds, %offs : tensor<256x!tile.ptr<f64>>, tensor<256xi32>
  %one64 = arith.constant dense<1.0> : tensor<256xf64>
  %c = tile.atomic_rmw fadd, relaxed, gpu, %dp, %one64, %mask : tensor<256x!tile.ptr<f64>>
  %is = tile.splat %i : !tile.ptr<i32> -> tensor<256x!tile.ptr<i32>>
  %ip = tile.addptr %is, %offs : tensor<256x!tile.ptr<i32>>, tensor<256xi32>
  %t = tile.atomic_rmw add, relaxed, gpu, %ip, %offs, %mask : tensor<256x!tile.ptr<i32>>
  %u = tile.atomic_rmw min, relaxed, gpu, %ip, %t, %mask : tensor<256x!tile.ptr<i32>>
  %w = tile.atomic_rmw xchg, relaxed, gpu, %ip, %offs, %mask : tensor<256x!tile.ptr<i32>>
  %x = tile.atomic_cas relaxed, gpu, %ip, %w, %offs : tensor<256x!tile.ptr<i32>>
  %os = tile.splat %out : !tile.ptr<i32> -> tensor<256x!tile.ptr<i32>>
  %op = tile.addptr %os, %offs : tensor<256x!tile.ptr<i32>>, tensor<256xi32>
  tile.store %op, %x, %mask : tensor<256x!tile.ptr<i32>>
  return
}

// Must not: offsets from an i32 argument that may be negative, i64
// offsets, and a store with a cache hint stay global stores; a 16-bit
// atomic stays a global atomic (its compare-and-swap loop).
// CHECK-LABEL: must_not:
// CHECK-NOT: buffer_store
// CHECK-NOT: buffer_atomic
// CHECK: global_store_dwordx4
// CHECK: global_store_dwordx4
// CHECK: global_store_dwordx4
// CHECK: global_atomic_pk_add_f16
// CHECK-NOT: buffer_store
// CHECK-NOT: buffer_atomic
// CHECK: s_endpgm
func.func @must_not(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32, tile.pointer_range = 32 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32, tile.pointer_range = 32 : i32}, %z: !tile.ptr<f32> {tile.divisibility = 16 : i32, tile.pointer_range = 32 : i32}, %h: !tile.ptr<f16> {tile.divisibility = 16 : i32, tile.pointer_range = 32 : i32}, %first: i32 {tile.divisibility = 16 : i32}) {
  %r = tile.make_range 0 to 1024 : tensor<1024xi32>
  %s = tile.splat %first : i32 -> tensor<1024xi32>
  %offs = arith.addi %s, %r : tensor<1024xi32>
  %v = arith.sitofp %r : tensor<1024xi32> to tensor<1024xf32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %xp, %v : tensor<1024x!tile.ptr<f32>>
  %r64 = arith.extsi %r : tensor<1024xi32> to tensor<1024xi64>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %wp = tile.addptr %ys, %r64 : tensor<1024x!tile.ptr<f32>>, tensor<1024xi64>
  %v2 = arith.addf %v, %v : tensor<1024xf32>
  tile.store %wp, %v2 : tensor<1024x!tile.ptr<f32>>
  %zs = tile.splat %z : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %rp = tile.addptr %zs, %r : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %v3 = arith.mulf %v, %v : tensor<1024xf32>
  tile.store %rp, %v3 cache = cg : tensor<1024x!tile.ptr<f32>>
  %hs = tile.splat %h : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
  %hp = tile.addptr %hs, %r : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
  %hv = arith.sitofp %r : tensor<1024xi32> to tensor<1024xf16>
  %old = tile.atomic_rmw fadd, relaxed, gpu, %hp, %hv : tensor<1024x!tile.ptr<f16>>
  return
}

// Must not: the same store and atomic as above through an argument without
// tile.pointer_range (its tensor may be 2 GiB or more, beyond 32-bit byte
// offsets) stay global.
// CHECK-LABEL: unknown_range:
// CHECK-NOT: buffer_
// CHECK: global_atomic_add_f32
// CHECK-NOT: buffer_
// CHECK: global_store_dword
// CHECK-NOT: buffer_
// CHECK: s_endpgm
func.func @unknown_range(%out: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %pid = tile.program_id x : i32
  %c64 = arith.constant 64 : i32
  %start = arith.muli %pid, %c64 : i32
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %s = tile.splat %start : i32 -> tensor<64xi32>
  %offs = arith.addi %s, %r : tensor<64xi32>
  %v = arith.sitofp %offs : tensor<64xi32> to tensor<64xf32>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %op = tile.addptr %os, %offs : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %old = tile.atomic_rmw fadd, relaxed, gpu, %op, %v : tensor<64x!tile.ptr<f32>>
  %c64s = arith.constant dense<64> : tensor<64xi32>
  %next = arith.addi %offs, %c64s : tensor<64xi32>
  %np = tile.addptr %os, %next : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  tile.store %np, %v : tensor<64x!tile.ptr<f32>>
  return
}
