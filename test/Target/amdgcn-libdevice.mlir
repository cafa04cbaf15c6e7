// libdevice's functions that ocml has no counterpart of, defined by the
// kernel's module itself (backends/amd/DeviceLibraries.cpp): LLVM
// intrinsics for the bit functions, separately rounded `_rn` arithmetic that
// fusion leaves alone, float32 arithmetic with a rounding direction through
// float64 (exact sums and products, residuals of quotients), float64 ones
// through frexp-scaled residuals, and float64 fma with a rounding direction
// by the chip's mode register in a function of its own, Bessel functions
// of integer order by recurrences over ocml's orders 0 and 1, rcp64h as
// the reciprocal's high word. Each assembled
// again by llvm-mc, linked by ld.lld, no undefined symbol.
// python/test/test_libdevice.py::test_amd_definitions_match_reference
// checks their values against exact references through constant folding.
// RUN: rm -rf %t && split-file %s %t

// RUN: terrazzo-compile %t/bits.mlir --target=hip:gfx942 --num-warps=1 --emit=amdgcn -o %t/bits.s
// RUN: FileCheck %s --check-prefix=BITS < %t/bits.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t/bits.s -o %t/bits.o
// RUN: ld.lld -shared %t/bits.o -o %t/bits.hsaco
// RUN: llvm-nm -D --undefined-only %t/bits.hsaco | count 0
// BITS-LABEL: bits:
// BITS-DAG: v_bfrev_b32
// BITS-DAG: v_ffbl_b32
// BITS-DAG: v_ashrrev_i32
// BITS-DAG: v_lshrrev_b64
// BITS-DAG: v_bcnt_u32_b32
// BITS-NOT: s_swappc
// BITS: s_endpgm

// __nv_fmul_rn then __nv_fadd_rn: a multiply and an add, never an fma,
// although the code generator contracts (its default).
// RUN: terrazzo-compile %t/rn.mlir --target=hip:gfx942 --num-warps=1 --emit=amdgcn -o %t/rn.s
// RUN: FileCheck %s --check-prefix=RN < %t/rn.s
// RN-LABEL: separately_rounded:
// RN-NOT: v_fma
// RN-NOT: v_mad
// RN: v_mul_f32
// RN-NOT: v_fma
// RN: v_add_f32
// RN-NOT: v_fma
// RN: s_endpgm

// float32 with a rounding direction: in float64, rounded once to float32;
// no mode change.
// RUN: terrazzo-compile %t/rz.mlir --target=hip:gfx942 --num-warps=1 --emit=amdgcn -o %t/rz.s
// RUN: FileCheck %s --check-prefix=F32 < %t/rz.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t/rz.s -o %t/rz.o
// RUN: ld.lld -shared %t/rz.o -o %t/rz.hsaco
// RUN: llvm-nm -D --undefined-only %t/rz.hsaco | count 0
// F32-LABEL: directed_f32:
// F32-NOT: s_setreg
// F32-DAG: v_cvt_f64_f32
// F32-DAG: v_add_f64
// F32-DAG: v_div_scale_f64
// F32-DAG: v_cvt_f32_f64
// F32-DAG: v_floor_f32
// F32-DAG: v_cvt_i32_f32
// F32-NOT: s_setreg
// F32: s_endpgm

// float64: a quotient rounded down from its frexp-scaled residual; fma
// towards zero in __nv_fma_rz, which sets the mode register's rounding
// (both fields: 15 is towards zero) around its fma and restores it.
// RUN: terrazzo-compile %t/d.mlir --target=hip:gfx942 --num-warps=1 --emit=amdgcn -o %t/d.s
// RUN: FileCheck %s --check-prefix=F64 < %t/d.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t/d.s -o %t/d.o
// RUN: ld.lld -shared %t/d.o -o %t/d.hsaco
// RUN: llvm-nm -D --undefined-only %t/d.hsaco | count 0
// F64-LABEL: __nv_fma_rz:
// F64: s_getreg_b32 [[OLD:s[0-9]+]], hwreg(HW_REG_MODE, 0, 4)
// F64: s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 15
// F64: v_fmac_f64
// F64: s_setreg_b32 hwreg(HW_REG_MODE, 0, 4)
// F64: s_setpc_b64
// F64-LABEL: directed_f64:
// F64-DAG: v_frexp_mant_f64
// F64-DAG: v_frexp_exp_i32_f64
// F64-DAG: v_ldexp_f64
// F64-DAG: v_div_fixup_f64
// F64: s_swappc_b64
// F64: s_endpgm

// Constant arguments fold (O3): bit reversal, byte selection, 1/3 rounded
// up and down in float32.
// RUN: terrazzo-compile %t/fold.mlir --target=hip:gfx942 --emit=llvmir -o %t/fold.ll
// RUN: FileCheck %s --check-prefix=FOLD < %t/fold.ll
// FOLD-LABEL: define amdgpu_kernel void @fold(
// FOLD-DAG: store i32 510274632,
// FOLD-DAG: store i32 -1993067434,
// FOLD-DAG: store float 0x3FD5555560000000,
// FOLD-DAG: store float 0x3FD5555540000000,
// FOLD-NOT: @__nv_

// Bessel functions of integer order and rcp64h, defined in the module:
// ocml's orders 0 and 1 (and log, lgamma) inlined into the recurrences'
// loops, nothing left to call, the high word of the reciprocal masked.
// RUN: terrazzo-compile %t/bessel.mlir --target=hip:gfx942 --num-warps=1 --emit=llvmir -o %t/bessel.ll
// RUN: FileCheck %s --check-prefix=BESSEL < %t/bessel.ll
// RUN: terrazzo-compile %t/bessel.mlir --target=hip:gfx942 --num-warps=1 --emit=amdgcn -o %t/bessel.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t/bessel.s -o %t/bessel.o
// RUN: ld.lld -shared %t/bessel.o -o %t/bessel.hsaco
// RUN: llvm-nm -D --undefined-only %t/bessel.hsaco | count 0
// BESSEL-LABEL: define amdgpu_kernel void @bessel(
// BESSEL-NOT: call {{.*}}@__
// BESSEL: and i64 {{.*}}, -4294967296
// BESSEL-NOT: call {{.*}}@__
// BESSEL: phi double
// BESSEL-NOT: call {{.*}}@__
// BESSEL: ret void

// A __nv_ function libdevice does not have stays a located error.
// RUN: not terrazzo-compile %t/refused.mlir --target=hip:gfx942 -o %t/bad.hsaco 2>&1 | FileCheck %s --check-prefix=REFUSED
// REFUSED: refused.mlir:3:8: error: 'tile.extern_elementwise' op calls libdevice's '__nv_rcp32h', which the ROCm device libraries have no counterpart of for hip:gfx942

//--- bits.mlir
func.func @bits(%x: !tile.ptr<i32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<i32> {tile.divisibility = 16 : i32}, %l: !tile.ptr<i64> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %xp = tile.splat %x : !tile.ptr<i32> -> tensor<64x!tile.ptr<i32>>
  %xa = tile.addptr %xp, %r : tensor<64x!tile.ptr<i32>>, tensor<64xi32>
  %xv = tile.load %xa : tensor<64x!tile.ptr<i32>>
  %yp = tile.splat %y : !tile.ptr<i32> -> tensor<64x!tile.ptr<i32>>
  %ya = tile.addptr %yp, %r : tensor<64x!tile.ptr<i32>>, tensor<64xi32>
  %yv = tile.load %ya : tensor<64x!tile.ptr<i32>>
  %lp = tile.splat %l : !tile.ptr<i64> -> tensor<64x!tile.ptr<i64>>
  %la = tile.addptr %lp, %r : tensor<64x!tile.ptr<i64>>, tensor<64xi32>
  %lv = tile.load %la : tensor<64x!tile.ptr<i64>>
  %b = tile.extern_elementwise "__nv_brev"(%xv) {libname = "libdevice", libpath = "", pure = true} : (tensor<64xi32>) -> tensor<64xi32>
  %f = tile.extern_elementwise "__nv_ffs"(%xv) {libname = "libdevice", libpath = "", pure = true} : (tensor<64xi32>) -> tensor<64xi32>
  %h = tile.extern_elementwise "__nv_rhadd"(%xv, %yv) {libname = "libdevice", libpath = "", pure = true} : (tensor<64xi32>, tensor<64xi32>) -> tensor<64xi32>
  %p = tile.extern_elementwise "__nv_byte_perm"(%xv, %yv, %f) {libname = "libdevice", libpath = "", pure = true} : (tensor<64xi32>, tensor<64xi32>, tensor<64xi32>) -> tensor<64xi32>
  %c = tile.extern_elementwise "__nv_popcll"(%lv) {libname = "libdevice", libpath = "", pure = true} : (tensor<64xi64>) -> tensor<64xi32>
  %s1 = arith.addi %b, %h : tensor<64xi32>
  %s2 = arith.addi %s1, %p : tensor<64xi32>
  %s3 = arith.addi %s2, %c : tensor<64xi32>
  tile.store %xa, %s3 : tensor<64x!tile.ptr<i32>>
  return
}

//--- rn.mlir
func.func @separately_rounded(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %xp = tile.splat %x : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %xa = tile.addptr %xp, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %xv = tile.load %xa : tensor<64x!tile.ptr<f32>>
  %yp = tile.splat %y : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %ya = tile.addptr %yp, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %yv = tile.load %ya : tensor<64x!tile.ptr<f32>>
  %m = tile.extern_elementwise "__nv_fmul_rn"(%xv, %yv) {libname = "libdevice", libpath = "", pure = true} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %s = tile.extern_elementwise "__nv_fadd_rn"(%m, %yv) {libname = "libdevice", libpath = "", pure = true} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  tile.store %xa, %s : tensor<64x!tile.ptr<f32>>
  return
}

//--- rz.mlir
func.func @directed_f32(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %xp = tile.splat %x : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %xa = tile.addptr %xp, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %xv = tile.load %xa : tensor<64x!tile.ptr<f32>>
  %yp = tile.splat %y : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %ya = tile.addptr %yp, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %yv = tile.load %ya : tensor<64x!tile.ptr<f32>>
  %s = tile.extern_elementwise "__nv_fadd_rz"(%xv, %yv) {libname = "libdevice", libpath = "", pure = true} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %q = tile.extern_elementwise "__nv_fdiv_ru"(%s, %yv) {libname = "libdevice", libpath = "", pure = true} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %i = tile.extern_elementwise "__nv_float2int_rd"(%q) {libname = "libdevice", libpath = "", pure = true} : (tensor<64xf32>) -> tensor<64xi32>
  %f = arith.sitofp %i : tensor<64xi32> to tensor<64xf32>
  tile.store %xa, %f : tensor<64x!tile.ptr<f32>>
  return
}

//--- d.mlir
func.func @directed_f64(%x: !tile.ptr<f64> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f64> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %xp = tile.splat %x : !tile.ptr<f64> -> tensor<64x!tile.ptr<f64>>
  %xa = tile.addptr %xp, %r : tensor<64x!tile.ptr<f64>>, tensor<64xi32>
  %xv = tile.load %xa : tensor<64x!tile.ptr<f64>>
  %yp = tile.splat %y : !tile.ptr<f64> -> tensor<64x!tile.ptr<f64>>
  %ya = tile.addptr %yp, %r : tensor<64x!tile.ptr<f64>>, tensor<64xi32>
  %yv = tile.load %ya : tensor<64x!tile.ptr<f64>>
  %q = tile.extern_elementwise "__nv_ddiv_rd"(%xv, %yv) {libname = "libdevice", libpath = "", pure = true} : (tensor<64xf64>, tensor<64xf64>) -> tensor<64xf64>
  %f = tile.extern_elementwise "__nv_fma_rz"(%q, %yv, %xv) {libname = "libdevice", libpath = "", pure = true} : (tensor<64xf64>, tensor<64xf64>, tensor<64xf64>) -> tensor<64xf64>
  tile.store %xa, %f : tensor<64x!tile.ptr<f64>>
  return
}

//--- fold.mlir
func.func @fold(%out: !tile.ptr<i32>, %outf: !tile.ptr<f32>) {
  %x = arith.constant 305419896 : i32
  %y = arith.constant -1985229329 : i32
  %s = arith.constant 29217 : i32
  %a = tile.extern_elementwise "__nv_brev"(%x) {libname = "libdevice", libpath = "", pure = true} : (i32) -> i32
  %b = tile.extern_elementwise "__nv_byte_perm"(%x, %y, %s) {libname = "libdevice", libpath = "", pure = true} : (i32, i32, i32) -> i32
  %f1 = arith.constant 1.0 : f32
  %f3 = arith.constant 3.0 : f32
  %q = tile.extern_elementwise "__nv_fdiv_ru"(%f1, %f3) {libname = "libdevice", libpath = "", pure = true} : (f32, f32) -> f32
  %q2 = tile.extern_elementwise "__nv_fdiv_rd"(%f1, %f3) {libname = "libdevice", libpath = "", pure = true} : (f32, f32) -> f32
  %one = arith.constant 1 : i32
  %p1 = tile.addptr %out, %one : !tile.ptr<i32>, i32
  tile.store %out, %a : !tile.ptr<i32>
  tile.store %p1, %b : !tile.ptr<i32>
  tile.store %outf, %q : !tile.ptr<f32>
  %pf = tile.addptr %outf, %one : !tile.ptr<f32>, i32
  tile.store %pf, %q2 : !tile.ptr<f32>
  return
}

//--- bessel.mlir
func.func @bessel(%x: !tile.ptr<f64>, %y: !tile.ptr<f32>, %n: !tile.ptr<i32>) {
  %v = tile.load %x : !tile.ptr<f64>
  %w = tile.load %y : !tile.ptr<f32>
  %k = tile.load %n : !tile.ptr<i32>
  %r = tile.extern_elementwise "__nv_rcp64h"(%v) {libname = "libdevice", libpath = "", pure = true} : (f64) -> f64
  %j = tile.extern_elementwise "__nv_jn"(%k, %r) {libname = "libdevice", libpath = "", pure = true} : (i32, f64) -> f64
  %yn = tile.extern_elementwise "__nv_ynf"(%k, %w) {libname = "libdevice", libpath = "", pure = true} : (i32, f32) -> f32
  tile.store %x, %j : !tile.ptr<f64>
  tile.store %y, %yn : !tile.ptr<f32>
  return
}

//--- refused.mlir
func.func @refused(%x: !tile.ptr<f64>) {
  %v = tile.load %x : !tile.ptr<f64>
  %a = tile.extern_elementwise "__nv_rcp32h"(%v) {libname = "libdevice", libpath = "", pure = true} : (f64) -> f64
  tile.store %x, %a : !tile.ptr<f64>
  return
}
