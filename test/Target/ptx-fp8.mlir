// fp8 (f8E4M3FN, f8E5M2) values are bytes in memory and registers; their
// conversions are sm_89's cvt instructions: fp8x2 -> f16x2 exactly (wider
// types continue from f16), f32 pairs -> fp8x2 rounded to nearest even and
// saturated (bf16 widens to f32 first), f16 -> fp8 one value at a time.
// Before sm_89 each conversion is a located error.
// REQUIRES: ptxas
// RUN: terrazzo-compile %s --target=cuda:90 --num-warps=1 --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// RUN: terrazzo-compile %s --target=cuda:89 --num-warps=1 --emit=ptx -o %t89.ptx
// RUN: %ptxas -arch=sm_89 %t89.ptx -o %t89.cubin
// RUN: not terrazzo-compile %s --target=cuda:80 --num-warps=1 --emit=ptx -o %t80.ptx 2>&1 | FileCheck %s --check-prefix=SM80

// 128 e4m3 bytes per warp, 4 per thread: one 32-bit load, two conversions
// to f16x2, then f32 stores.
// CHECK-LABEL: .entry e4m3_to_f32(
// CHECK: ld.global.v2.b16
// CHECK-COUNT-2: cvt.rn.f16x2.e4m3x2
// CHECK-NOT: cvt.rn.f16x2.e4m3x2
// CHECK: st.global.v4.b32
// SM80: ptx-fp8.mlir:[[# @LINE + 6]]:8: error: 'tile.fp_to_fp' op converts 'f8E4M3FN' to 'f32': fp8 conversions need sm_89 or newer, the target is sm_80
func.func @e4m3_to_f32(%x: !tile.ptr<f8E4M3FN> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %px = tile.splat %x : !tile.ptr<f8E4M3FN> -> tensor<128x!tile.ptr<f8E4M3FN>>
  %ax = tile.addptr %px, %r : tensor<128x!tile.ptr<f8E4M3FN>>, tensor<128xi32>
  %v = tile.load %ax : tensor<128x!tile.ptr<f8E4M3FN>>
  %w = tile.fp_to_fp %v : tensor<128xf8E4M3FN> -> tensor<128xf32>
  %py = tile.splat %y : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %ay = tile.addptr %py, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  tile.store %ay, %w : tensor<128x!tile.ptr<f32>>
  return
}

// f32 -> e4m3 in pairs, rounded and saturated; the bytes are stored as one
// 32-bit word per thread.
// CHECK-LABEL: .entry f32_to_e4m3(
// CHECK-COUNT-2: cvt.rn.satfinite.e4m3x2.f32
// CHECK-NOT: cvt.rn.satfinite.e4m3x2.f32
// CHECK: st.global.b32
func.func @f32_to_e4m3(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f8E4M3FN> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %px = tile.splat %x : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %ax = tile.addptr %px, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %v = tile.load %ax : tensor<128x!tile.ptr<f32>>
  %w = tile.fp_to_fp %v rounding = rtne : tensor<128xf32> -> tensor<128xf8E4M3FN>
  %py = tile.splat %y : !tile.ptr<f8E4M3FN> -> tensor<128x!tile.ptr<f8E4M3FN>>
  %ay = tile.addptr %py, %r : tensor<128x!tile.ptr<f8E4M3FN>>, tensor<128xi32>
  tile.store %ay, %w : tensor<128x!tile.ptr<f8E4M3FN>>
  return
}

// f16 -> e5m2 (one cvt per value), e5m2 -> bf16 (exact, through f16 and
// f32), bf16 -> e4m3 through f32, e4m3 -> e5m2 through f16; arith.truncf
// and arith.extf with fp8 lower the same way.
// CHECK-LABEL: .entry mixed(
// CHECK-DAG: cvt.rn.satfinite.e5m2x2.f16x2
// CHECK-DAG: cvt.rn.f16x2.e5m2x2
// CHECK-DAG: cvt.rn.bf16{{(x2)?}}.f32
// CHECK-DAG: cvt.rn.satfinite.e4m3x2.f32
// CHECK-DAG: cvt.rn.f16x2.e4m3x2
func.func @mixed(%h: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<bf16> {tile.divisibility = 16 : i32}, %e4: !tile.ptr<f8E4M3FN> {tile.divisibility = 16 : i32}, %e5: !tile.ptr<f8E5M2> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %ph = tile.splat %h : !tile.ptr<f16> -> tensor<64x!tile.ptr<f16>>
  %ah = tile.addptr %ph, %r : tensor<64x!tile.ptr<f16>>, tensor<64xi32>
  %pb = tile.splat %b : !tile.ptr<bf16> -> tensor<64x!tile.ptr<bf16>>
  %ab = tile.addptr %pb, %r : tensor<64x!tile.ptr<bf16>>, tensor<64xi32>
  %p4 = tile.splat %e4 : !tile.ptr<f8E4M3FN> -> tensor<64x!tile.ptr<f8E4M3FN>>
  %a4 = tile.addptr %p4, %r : tensor<64x!tile.ptr<f8E4M3FN>>, tensor<64xi32>
  %p5 = tile.splat %e5 : !tile.ptr<f8E5M2> -> tensor<64x!tile.ptr<f8E5M2>>
  %a5 = tile.addptr %p5, %r : tensor<64x!tile.ptr<f8E5M2>>, tensor<64xi32>
  %vh = tile.load %ah : tensor<64x!tile.ptr<f16>>
  %vb = tile.load %ab : tensor<64x!tile.ptr<bf16>>
  %v4 = tile.load %a4 : tensor<64x!tile.ptr<f8E4M3FN>>
  %v5 = tile.load %a5 : tensor<64x!tile.ptr<f8E5M2>>
  %h5 = arith.truncf %vh : tensor<64xf16> to tensor<64xf8E5M2>
  %b4 = tile.fp_to_fp %vb rounding = rtne : tensor<64xbf16> -> tensor<64xf8E4M3FN>
  %e5b = tile.fp_to_fp %v5 : tensor<64xf8E5M2> -> tensor<64xbf16>
  %e45 = tile.fp_to_fp %v4 rounding = rtne : tensor<64xf8E4M3FN> -> tensor<64xf8E5M2>
  %e4h = arith.extf %v4 : tensor<64xf8E4M3FN> to tensor<64xf16>
  tile.store %a5, %h5 : tensor<64x!tile.ptr<f8E5M2>>
  tile.store %a4, %b4 : tensor<64x!tile.ptr<f8E4M3FN>>
  tile.store %ab, %e5b : tensor<64x!tile.ptr<bf16>>
  tile.store %a5, %e45 : tensor<64x!tile.ptr<f8E5M2>>
  tile.store %ah, %e4h : tensor<64x!tile.ptr<f16>>
  return
}

// A masked fp8 load's `other` is an fp8 constant: its byte (1.5 in e4m3 is
// 0x3C = 60), here selected in registers.
// CHECK-LABEL: .entry masked_other(
// CHECK: 60
func.func @masked_other(%x: !tile.ptr<f8E4M3FN> {tile.divisibility = 16 : i32}, %n: i32) {
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %ns = tile.splat %n : i32 -> tensor<32xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<32xi32>
  %c = arith.constant dense<1.5> : tensor<32xf8E4M3FN>
  %px = tile.splat %x : !tile.ptr<f8E4M3FN> -> tensor<32x!tile.ptr<f8E4M3FN>>
  %ax = tile.addptr %px, %r : tensor<32x!tile.ptr<f8E4M3FN>>, tensor<32xi32>
  %v = tile.load %ax, %m, %c : tensor<32x!tile.ptr<f8E4M3FN>>
  %w = tile.fp_to_fp %v : tensor<32xf8E4M3FN> -> tensor<32xf32>
  %s = tile.fp_to_fp %w rounding = rtne : tensor<32xf32> -> tensor<32xf8E4M3FN>
  %r2 = tile.make_range 32 to 64 : tensor<32xi32>
  %ay = tile.addptr %px, %r2 : tensor<32x!tile.ptr<f8E4M3FN>>, tensor<32xi32>
  tile.store %ay, %s : tensor<32x!tile.ptr<f8E4M3FN>>
  return
}
