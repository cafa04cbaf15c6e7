// Buffer loads on CDNA (gfx942, compile-only): a tile.load through a scalar
// base pointer plus i32 offsets known not to be negative (program id times
// the block plus a range; a kernel argument marked tile.nonnegative), the
// base an argument whose tensor is smaller than 2 GiB
// (tile.pointer_range = 32: the launch key's "fits in 2^31 bytes"), reads
// through a buffer resource built from the base (buffer_load_dwordx4 ...
// offen: the resource's 2^31 - 1 bytes in s_brev_b32 -2, its gfx9 flags
// 0x27000), a masked-off vector at an out-of-range offset (0x80000000,
// v_bfrev_b32 1, chosen by v_cndmask) so that it reads zeros, with no
// branch around the load; a nonzero `other` is selected after it. Must
// not: offsets that may be negative (a plain i32 argument) or are i64 stay
// global_load_dwordx4. (The stores are buffer stores: amdgcn-buffer-stores.mlir.)
// The assembly assembles again and links.

// RUN: terrazzo-compile %s --target=hip:gfx942 --num-warps=4 --emit=amdgcn -o %t.s
// RUN: FileCheck %s < %t.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t.s -o %t.o
// RUN: ld.lld -shared %t.o -o %t.hsaco
// RUN: llvm-nm -D --undefined-only %t.hsaco | count 0

// CHECK-LABEL: masked_add:
// CHECK-NOT: s_cbranch
// CHECK-DAG: s_mov_b32 s{{[0-9]+}}, 0x27000
// CHECK-DAG: s_brev_b32 s{{[0-9]+}}, -2
// CHECK-DAG: v_bfrev_b32_e32 [[OUT:v[0-9]+]], 1
// CHECK: v_cndmask_b32_e32 [[OFFSET:v[0-9]+]], [[OUT]], v{{[0-9]+}}, vcc
// CHECK-NOT: s_cbranch
// CHECK: buffer_load_dwordx4 v[{{[0-9]+}}:{{[0-9]+}}], [[OFFSET]], s[{{[0-9]+}}:{{[0-9]+}}], 0 offen
// CHECK-NOT: s_cbranch
// CHECK: buffer_load_dwordx4 v[{{[0-9]+}}:{{[0-9]+}}], [[OFFSET]], s[{{[0-9]+}}:{{[0-9]+}}], 0 offen
// CHECK-NOT: global_load
// CHECK: buffer_store_dwordx4
// CHECK: s_endpgm
func.func @masked_add(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32, tile.pointer_range = 32 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32, tile.pointer_range = 32 : i32}, %out: !tile.ptr<f32> {tile.divisibility = 16 : i32, tile.pointer_range = 32 : i32}, %n: i32 {tile.divisibility = 16 : i32}) {
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
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %a = tile.load %xp, %mask : tensor<1024x!tile.ptr<f32>>
  %b = tile.load %yp, %mask : tensor<1024x!tile.ptr<f32>>
  %c = arith.addf %a, %b : tensor<1024xf32>
  // out holds a whole number of blocks: every lane stores.
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %op = tile.addptr %os, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %op, %c : tensor<1024x!tile.ptr<f32>>
  return
}

// A nonzero `other`: selected where the mask is false, after the load.
// The offsets from an argument marked tile.nonnegative.
// CHECK-LABEL: other_ones:
// CHECK-NOT: s_cbranch
// CHECK: buffer_load_dwordx4
// CHECK-NOT: s_cbranch
// CHECK: v_cndmask_b32
// CHECK-NOT: global_load
// CHECK: s_endpgm
func.func @other_ones(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32, tile.pointer_range = 32 : i32}, %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %first: i32 {tile.divisibility = 16 : i32, tile.nonnegative}, %n: i32 {tile.divisibility = 16 : i32}) {
  %r = tile.make_range 0 to 1024 : tensor<1024xi32>
  %s = tile.splat %first : i32 -> tensor<1024xi32>
  %offs = arith.addi %s, %r : tensor<1024xi32>
  %ns = tile.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
  %ones = arith.constant dense<1.0> : tensor<1024xf32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %a = tile.load %xp, %mask, %ones : tensor<1024x!tile.ptr<f32>>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %op = tile.addptr %os, %r : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %op, %a : tensor<1024x!tile.ptr<f32>>
  return
}

// Must not: offsets from an i32 argument that may be negative, and i64
// offsets, stay global loads.
// CHECK-LABEL: maybe_negative:
// CHECK-NOT: buffer_load
// CHECK: global_load_dwordx4
// CHECK-NOT: buffer_load
// CHECK: s_endpgm
func.func @maybe_negative(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32, tile.pointer_range = 32 : i32}, %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %first: i32 {tile.divisibility = 16 : i32}) {
  %r = tile.make_range 0 to 1024 : tensor<1024xi32>
  %s = tile.splat %first : i32 -> tensor<1024xi32>
  %offs = arith.addi %s, %r : tensor<1024xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %a = tile.load %xp : tensor<1024x!tile.ptr<f32>>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %op = tile.addptr %os, %r : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %op, %a : tensor<1024x!tile.ptr<f32>>
  return
}

// CHECK-LABEL: wide_offsets:
// CHECK-NOT: buffer_load
// CHECK: global_load_dwordx4
// CHECK-NOT: buffer_load
// CHECK: s_endpgm
func.func @wide_offsets(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32, tile.pointer_range = 32 : i32}, %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %pid = tile.program_id x : i32
  %pid64 = arith.extsi %pid : i32 to i64
  %c1024 = arith.constant 1024 : i64
  %start = arith.muli %pid64, %c1024 : i64
  %r = tile.make_range 0 to 1024 : tensor<1024xi32>
  %r64 = arith.extsi %r : tensor<1024xi32> to tensor<1024xi64>
  %s = tile.splat %start : i64 -> tensor<1024xi64>
  %offs = arith.addi %s, %r64 : tensor<1024xi64>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi64>
  %a = tile.load %xp : tensor<1024x!tile.ptr<f32>>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %op = tile.addptr %os, %r : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %op, %a : tensor<1024x!tile.ptr<f32>>
  return
}

// Must not: the same load as in @other_ones from an argument without
// tile.pointer_range (its tensor may be 2 GiB or more: 32-bit byte offsets
// would not reach all of it).
// CHECK-LABEL: unknown_range:
// CHECK-NOT: buffer_load
// CHECK: global_load_dwordx4
// CHECK-NOT: buffer_load
// CHECK: s_endpgm
func.func @unknown_range(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %first: i32 {tile.divisibility = 16 : i32, tile.nonnegative}) {
  %r = tile.make_range 0 to 1024 : tensor<1024xi32>
  %s = tile.splat %first : i32 -> tensor<1024xi32>
  %offs = arith.addi %s, %r : tensor<1024xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %a = tile.load %xp : tensor<1024x!tile.ptr<f32>>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %op = tile.addptr %os, %r : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %op, %a : tensor<1024x!tile.ptr<f32>>
  return
}
