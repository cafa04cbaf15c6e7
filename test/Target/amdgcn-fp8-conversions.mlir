// fp8 -> wider conversions on AMD (backends/amd/FP8ConversionToLLVM.cpp):
// integer arithmetic, the same on every chip, for the four fp8 formats
// (OCP f8E4M3FN and f8E5M2, FNUZ f8E4M3FNUZ and f8E5M2FNUZ). Each kernel
// converts constant bytes -- zero and negative zero, the smallest and
// largest subnormals, the smallest normal, ordinary values, the largest
// finite values, infinities and NaNs -- and LLVM folds the conversion, so
// the stored constants are what the generated code computes. The expected
// values were decoded from the formats' definitions (sign, exponent field
// with the format's bias, mantissa field) independently of this code; LLVM
// prints a float that 6 digits do not spell as its double's bits (0x3F60...
// is 2^-9). The same on gfx90a, which has no fp8 instruction at all.
// Conversions to fp8 are errors at the op.

// RUN: rm -rf %t && split-file %s %t
// RUN: terrazzo-compile %t/widen.mlir --target=hip:gfx942 --emit=llvmir -o %t/widen.942.ll
// RUN: FileCheck %s < %t/widen.942.ll
// RUN: terrazzo-compile %t/widen.mlir --target=hip:gfx90a --emit=llvmir -o %t/widen.90a.ll
// RUN: FileCheck %s < %t/widen.90a.ll
// RUN: terrazzo-compile %t/widen.mlir --target=hip:gfx950 -o %t/widen.950.hsaco
// RUN: llvm-nm -D --undefined-only %t/widen.950.hsaco | count 0
// RUN: not terrazzo-compile %t/narrow.mlir --target=hip:gfx942 -o /dev/null 2>&1 | FileCheck %t/narrow.mlir --check-prefix=ERR

// CHECK-LABEL: define amdgpu_kernel void @e4m3fn(
// CHECK: store float 0.000000e+00, ptr addrspace(1)
// CHECK: store float -0.000000e+00, ptr addrspace(1)
// CHECK: store float 0x3F60000000000000, ptr addrspace(1)
// CHECK: store float 0x3F8C000000000000, ptr addrspace(1)
// CHECK: store float 1.562500e-02, ptr addrspace(1)
// CHECK: store float 1.500000e+00, ptr addrspace(1)
// CHECK: store float 4.480000e+02, ptr addrspace(1)
// CHECK: store float -4.480000e+02, ptr addrspace(1)
// CHECK: store float 0x7FF8000000000000, ptr addrspace(1)
// CHECK: store float 0xFFF8000000000000, ptr addrspace(1)
// CHECK: store float -1.125000e+00, ptr addrspace(1)
// CHECK-LABEL: define amdgpu_kernel void @e5m2(
// CHECK: store float 0.000000e+00, ptr addrspace(1)
// CHECK: store float -0.000000e+00, ptr addrspace(1)
// CHECK: store float 0x3EF0000000000000, ptr addrspace(1)
// CHECK: store float 0x3F08000000000000, ptr addrspace(1)
// CHECK: store float 0x3F10000000000000, ptr addrspace(1)
// CHECK: store float 1.000000e+00, ptr addrspace(1)
// CHECK: store float 5.734400e+04, ptr addrspace(1)
// CHECK: store float -5.734400e+04, ptr addrspace(1)
// CHECK: store float 0x7FF0000000000000, ptr addrspace(1)
// CHECK: store float 0xFFF0000000000000, ptr addrspace(1)
// CHECK: store float 0x7FF8000000000000, ptr addrspace(1)
// CHECK: store float 0xFFF8000000000000, ptr addrspace(1)
// CHECK-LABEL: define amdgpu_kernel void @e4m3fnuz(
// CHECK: store float 0.000000e+00, ptr addrspace(1)
// CHECK: store float 0x3F50000000000000, ptr addrspace(1)
// CHECK: store float 0x3F7C000000000000, ptr addrspace(1)
// CHECK: store float 7.812500e-03, ptr addrspace(1)
// CHECK: store float 1.000000e+00, ptr addrspace(1)
// CHECK: store float 2.400000e+02, ptr addrspace(1)
// CHECK: store float -2.400000e+02, ptr addrspace(1)
// CHECK: store float 0xFFF8000000000000, ptr addrspace(1)
// CHECK: store float 0xBF74000000000000, ptr addrspace(1)
// CHECK-LABEL: define amdgpu_kernel void @e5m2fnuz(
// CHECK: store float 0.000000e+00, ptr addrspace(1)
// CHECK: store float 0x3EE0000000000000, ptr addrspace(1)
// CHECK: store float 0x3EF8000000000000, ptr addrspace(1)
// CHECK: store float 0x3F00000000000000, ptr addrspace(1)
// CHECK: store float 1.000000e+00, ptr addrspace(1)
// CHECK: store float 5.734400e+04, ptr addrspace(1)
// CHECK: store float -5.734400e+04, ptr addrspace(1)
// CHECK: store float 0xFFF8000000000000, ptr addrspace(1)
// CHECK: store float 0xBEF8000000000000, ptr addrspace(1)
// CHECK-LABEL: define amdgpu_kernel void @to_f16(
// CHECK: store half 0xH1800, ptr addrspace(1)
// CHECK: store half 0xH5F00, ptr addrspace(1)
// CHECK: store half 0xH0080, ptr addrspace(1)
// CHECK: store half 0xH7B00, ptr addrspace(1)

//--- widen.mlir
func.func @e4m3fn(%out: !tile.ptr<f32>) {
  %x0 = arith.constant 0x00 : f8E4M3FN
  %y0 = tile.fp_to_fp %x0 : f8E4M3FN -> f32
  %i0 = arith.constant 0 : i32
  %p0 = tile.addptr %out, %i0 : !tile.ptr<f32>, i32
  tile.store %p0, %y0 : !tile.ptr<f32>
  %x1 = arith.constant 0x80 : f8E4M3FN
  %y1 = tile.fp_to_fp %x1 : f8E4M3FN -> f32
  %i1 = arith.constant 1 : i32
  %p1 = tile.addptr %out, %i1 : !tile.ptr<f32>, i32
  tile.store %p1, %y1 : !tile.ptr<f32>
  %x2 = arith.constant 0x01 : f8E4M3FN
  %y2 = tile.fp_to_fp %x2 : f8E4M3FN -> f32
  %i2 = arith.constant 2 : i32
  %p2 = tile.addptr %out, %i2 : !tile.ptr<f32>, i32
  tile.store %p2, %y2 : !tile.ptr<f32>
  %x3 = arith.constant 0x07 : f8E4M3FN
  %y3 = tile.fp_to_fp %x3 : f8E4M3FN -> f32
  %i3 = arith.constant 3 : i32
  %p3 = tile.addptr %out, %i3 : !tile.ptr<f32>, i32
  tile.store %p3, %y3 : !tile.ptr<f32>
  %x4 = arith.constant 0x08 : f8E4M3FN
  %y4 = tile.fp_to_fp %x4 : f8E4M3FN -> f32
  %i4 = arith.constant 4 : i32
  %p4 = tile.addptr %out, %i4 : !tile.ptr<f32>, i32
  tile.store %p4, %y4 : !tile.ptr<f32>
  %x5 = arith.constant 0x3C : f8E4M3FN
  %y5 = tile.fp_to_fp %x5 : f8E4M3FN -> f32
  %i5 = arith.constant 5 : i32
  %p5 = tile.addptr %out, %i5 : !tile.ptr<f32>, i32
  tile.store %p5, %y5 : !tile.ptr<f32>
  %x6 = arith.constant 0x7E : f8E4M3FN
  %y6 = tile.fp_to_fp %x6 : f8E4M3FN -> f32
  %i6 = arith.constant 6 : i32
  %p6 = tile.addptr %out, %i6 : !tile.ptr<f32>, i32
  tile.store %p6, %y6 : !tile.ptr<f32>
  %x7 = arith.constant 0xFE : f8E4M3FN
  %y7 = tile.fp_to_fp %x7 : f8E4M3FN -> f32
  %i7 = arith.constant 7 : i32
  %p7 = tile.addptr %out, %i7 : !tile.ptr<f32>, i32
  tile.store %p7, %y7 : !tile.ptr<f32>
  %x8 = arith.constant 0x7F : f8E4M3FN
  %y8 = tile.fp_to_fp %x8 : f8E4M3FN -> f32
  %i8 = arith.constant 8 : i32
  %p8 = tile.addptr %out, %i8 : !tile.ptr<f32>, i32
  tile.store %p8, %y8 : !tile.ptr<f32>
  %x9 = arith.constant 0xFF : f8E4M3FN
  %y9 = tile.fp_to_fp %x9 : f8E4M3FN -> f32
  %i9 = arith.constant 9 : i32
  %p9 = tile.addptr %out, %i9 : !tile.ptr<f32>, i32
  tile.store %p9, %y9 : !tile.ptr<f32>
  %x10 = arith.constant 0xB9 : f8E4M3FN
  %y10 = tile.fp_to_fp %x10 : f8E4M3FN -> f32
  %i10 = arith.constant 10 : i32
  %p10 = tile.addptr %out, %i10 : !tile.ptr<f32>, i32
  tile.store %p10, %y10 : !tile.ptr<f32>
  return
}

func.func @e5m2(%out: !tile.ptr<f32>) {
  %x0 = arith.constant 0x00 : f8E5M2
  %y0 = tile.fp_to_fp %x0 : f8E5M2 -> f32
  %i0 = arith.constant 0 : i32
  %p0 = tile.addptr %out, %i0 : !tile.ptr<f32>, i32
  tile.store %p0, %y0 : !tile.ptr<f32>
  %x1 = arith.constant 0x80 : f8E5M2
  %y1 = tile.fp_to_fp %x1 : f8E5M2 -> f32
  %i1 = arith.constant 1 : i32
  %p1 = tile.addptr %out, %i1 : !tile.ptr<f32>, i32
  tile.store %p1, %y1 : !tile.ptr<f32>
  %x2 = arith.constant 0x01 : f8E5M2
  %y2 = tile.fp_to_fp %x2 : f8E5M2 -> f32
  %i2 = arith.constant 2 : i32
  %p2 = tile.addptr %out, %i2 : !tile.ptr<f32>, i32
  tile.store %p2, %y2 : !tile.ptr<f32>
  %x3 = arith.constant 0x03 : f8E5M2
  %y3 = tile.fp_to_fp %x3 : f8E5M2 -> f32
  %i3 = arith.constant 3 : i32
  %p3 = tile.addptr %out, %i3 : !tile.ptr<f32>, i32
  tile.store %p3, %y3 : !tile.ptr<f32>
  %x4 = arith.constant 0x04 : f8E5M2
  %y4 = tile.fp_to_fp %x4 : f8E5M2 -> f32
  %i4 = arith.constant 4 : i32
  %p4 = tile.addptr %out, %i4 : !tile.ptr<f32>, i32
  tile.store %p4, %y4 : !tile.ptr<f32>
  %x5 = arith.constant 0x3C : f8E5M2
  %y5 = tile.fp_to_fp %x5 : f8E5M2 -> f32
  %i5 = arith.constant 5 : i32
  %p5 = tile.addptr %out, %i5 : !tile.ptr<f32>, i32
  tile.store %p5, %y5 : !tile.ptr<f32>
  %x6 = arith.constant 0x7B : f8E5M2
  %y6 = tile.fp_to_fp %x6 : f8E5M2 -> f32
  %i6 = arith.constant 6 : i32
  %p6 = tile.addptr %out, %i6 : !tile.ptr<f32>, i32
  tile.store %p6, %y6 : !tile.ptr<f32>
  %x7 = arith.constant 0xFB : f8E5M2
  %y7 = tile.fp_to_fp %x7 : f8E5M2 -> f32
  %i7 = arith.constant 7 : i32
  %p7 = tile.addptr %out, %i7 : !tile.ptr<f32>, i32
  tile.store %p7, %y7 : !tile.ptr<f32>
  %x8 = arith.constant 0x7C : f8E5M2
  %y8 = tile.fp_to_fp %x8 : f8E5M2 -> f32
  %i8 = arith.constant 8 : i32
  %p8 = tile.addptr %out, %i8 : !tile.ptr<f32>, i32
  tile.store %p8, %y8 : !tile.ptr<f32>
  %x9 = arith.constant 0xFC : f8E5M2
  %y9 = tile.fp_to_fp %x9 : f8E5M2 -> f32
  %i9 = arith.constant 9 : i32
  %p9 = tile.addptr %out, %i9 : !tile.ptr<f32>, i32
  tile.store %p9, %y9 : !tile.ptr<f32>
  %x10 = arith.constant 0x7D : f8E5M2
  %y10 = tile.fp_to_fp %x10 : f8E5M2 -> f32
  %i10 = arith.constant 10 : i32
  %p10 = tile.addptr %out, %i10 : !tile.ptr<f32>, i32
  tile.store %p10, %y10 : !tile.ptr<f32>
  %x11 = arith.constant 0xFF : f8E5M2
  %y11 = tile.fp_to_fp %x11 : f8E5M2 -> f32
  %i11 = arith.constant 11 : i32
  %p11 = tile.addptr %out, %i11 : !tile.ptr<f32>, i32
  tile.store %p11, %y11 : !tile.ptr<f32>
  return
}

func.func @e4m3fnuz(%out: !tile.ptr<f32>) {
  %x0 = arith.constant 0x00 : f8E4M3FNUZ
  %y0 = tile.fp_to_fp %x0 : f8E4M3FNUZ -> f32
  %i0 = arith.constant 0 : i32
  %p0 = tile.addptr %out, %i0 : !tile.ptr<f32>, i32
  tile.store %p0, %y0 : !tile.ptr<f32>
  %x1 = arith.constant 0x01 : f8E4M3FNUZ
  %y1 = tile.fp_to_fp %x1 : f8E4M3FNUZ -> f32
  %i1 = arith.constant 1 : i32
  %p1 = tile.addptr %out, %i1 : !tile.ptr<f32>, i32
  tile.store %p1, %y1 : !tile.ptr<f32>
  %x2 = arith.constant 0x07 : f8E4M3FNUZ
  %y2 = tile.fp_to_fp %x2 : f8E4M3FNUZ -> f32
  %i2 = arith.constant 2 : i32
  %p2 = tile.addptr %out, %i2 : !tile.ptr<f32>, i32
  tile.store %p2, %y2 : !tile.ptr<f32>
  %x3 = arith.constant 0x08 : f8E4M3FNUZ
  %y3 = tile.fp_to_fp %x3 : f8E4M3FNUZ -> f32
  %i3 = arith.constant 3 : i32
  %p3 = tile.addptr %out, %i3 : !tile.ptr<f32>, i32
  tile.store %p3, %y3 : !tile.ptr<f32>
  %x4 = arith.constant 0x40 : f8E4M3FNUZ
  %y4 = tile.fp_to_fp %x4 : f8E4M3FNUZ -> f32
  %i4 = arith.constant 4 : i32
  %p4 = tile.addptr %out, %i4 : !tile.ptr<f32>, i32
  tile.store %p4, %y4 : !tile.ptr<f32>
  %x5 = arith.constant 0x7F : f8E4M3FNUZ
  %y5 = tile.fp_to_fp %x5 : f8E4M3FNUZ -> f32
  %i5 = arith.constant 5 : i32
  %p5 = tile.addptr %out, %i5 : !tile.ptr<f32>, i32
  tile.store %p5, %y5 : !tile.ptr<f32>
  %x6 = arith.constant 0xFF : f8E4M3FNUZ
  %y6 = tile.fp_to_fp %x6 : f8E4M3FNUZ -> f32
  %i6 = arith.constant 6 : i32
  %p6 = tile.addptr %out, %i6 : !tile.ptr<f32>, i32
  tile.store %p6, %y6 : !tile.ptr<f32>
  %x7 = arith.constant 0x80 : f8E4M3FNUZ
  %y7 = tile.fp_to_fp %x7 : f8E4M3FNUZ -> f32
  %i7 = arith.constant 7 : i32
  %p7 = tile.addptr %out, %i7 : !tile.ptr<f32>, i32
  tile.store %p7, %y7 : !tile.ptr<f32>
  %x8 = arith.constant 0x85 : f8E4M3FNUZ
  %y8 = tile.fp_to_fp %x8 : f8E4M3FNUZ -> f32
  %i8 = arith.constant 8 : i32
  %p8 = tile.addptr %out, %i8 : !tile.ptr<f32>, i32
  tile.store %p8, %y8 : !tile.ptr<f32>
  return
}

func.func @e5m2fnuz(%out: !tile.ptr<f32>) {
  %x0 = arith.constant 0x00 : f8E5M2FNUZ
  %y0 = tile.fp_to_fp %x0 : f8E5M2FNUZ -> f32
  %i0 = arith.constant 0 : i32
  %p0 = tile.addptr %out, %i0 : !tile.ptr<f32>, i32
  tile.store %p0, %y0 : !tile.ptr<f32>
  %x1 = arith.constant 0x01 : f8E5M2FNUZ
  %y1 = tile.fp_to_fp %x1 : f8E5M2FNUZ -> f32
  %i1 = arith.constant 1 : i32
  %p1 = tile.addptr %out, %i1 : !tile.ptr<f32>, i32
  tile.store %p1, %y1 : !tile.ptr<f32>
  %x2 = arith.constant 0x03 : f8E5M2FNUZ
  %y2 = tile.fp_to_fp %x2 : f8E5M2FNUZ -> f32
  %i2 = arith.constant 2 : i32
  %p2 = tile.addptr %out, %i2 : !tile.ptr<f32>, i32
  tile.store %p2, %y2 : !tile.ptr<f32>
  %x3 = arith.constant 0x04 : f8E5M2FNUZ
  %y3 = tile.fp_to_fp %x3 : f8E5M2FNUZ -> f32
  %i3 = arith.constant 3 : i32
  %p3 = tile.addptr %out, %i3 : !tile.ptr<f32>, i32
  tile.store %p3, %y3 : !tile.ptr<f32>
  %x4 = arith.constant 0x40 : f8E5M2FNUZ
  %y4 = tile.fp_to_fp %x4 : f8E5M2FNUZ -> f32
  %i4 = arith.constant 4 : i32
  %p4 = tile.addptr %out, %i4 : !tile.ptr<f32>, i32
  tile.store %p4, %y4 : !tile.ptr<f32>
  %x5 = arith.constant 0x7F : f8E5M2FNUZ
  %y5 = tile.fp_to_fp %x5 : f8E5M2FNUZ -> f32
  %i5 = arith.constant 5 : i32
  %p5 = tile.addptr %out, %i5 : !tile.ptr<f32>, i32
  tile.store %p5, %y5 : !tile.ptr<f32>
  %x6 = arith.constant 0xFF : f8E5M2FNUZ
  %y6 = tile.fp_to_fp %x6 : f8E5M2FNUZ -> f32
  %i6 = arith.constant 6 : i32
  %p6 = tile.addptr %out, %i6 : !tile.ptr<f32>, i32
  tile.store %p6, %y6 : !tile.ptr<f32>
  %x7 = arith.constant 0x80 : f8E5M2FNUZ
  %y7 = tile.fp_to_fp %x7 : f8E5M2FNUZ -> f32
  %i7 = arith.constant 7 : i32
  %p7 = tile.addptr %out, %i7 : !tile.ptr<f32>, i32
  tile.store %p7, %y7 : !tile.ptr<f32>
  %x8 = arith.constant 0x83 : f8E5M2FNUZ
  %y8 = tile.fp_to_fp %x8 : f8E5M2FNUZ -> f32
  %i8 = arith.constant 8 : i32
  %p8 = tile.addptr %out, %i8 : !tile.ptr<f32>, i32
  tile.store %p8, %y8 : !tile.ptr<f32>
  return
}

// float16, what a widened dot operand is: 2^-9 and 448 (f8E4M3FN), and
// f8E5M2FNUZ's 2^-17, a float16 subnormal, and 57344.
func.func @to_f16(%out: !tile.ptr<f16>) {
  %x0 = arith.constant 0x01 : f8E4M3FN
  %y0 = tile.fp_to_fp %x0 : f8E4M3FN -> f16
  tile.store %out, %y0 : !tile.ptr<f16>
  %x1 = arith.constant 0x7E : f8E4M3FN
  %y1 = tile.fp_to_fp %x1 : f8E4M3FN -> f16
  %i1 = arith.constant 1 : i32
  %p1 = tile.addptr %out, %i1 : !tile.ptr<f16>, i32
  tile.store %p1, %y1 : !tile.ptr<f16>
  %x2 = arith.constant 0x01 : f8E5M2FNUZ
  %y2 = tile.fp_to_fp %x2 {rounding = 0 : i32} : f8E5M2FNUZ -> f16
  %i2 = arith.constant 2 : i32
  %p2 = tile.addptr %out, %i2 : !tile.ptr<f16>, i32
  tile.store %p2, %y2 : !tile.ptr<f16>
  %x3 = arith.constant 0x7F : f8E5M2FNUZ
  %y3 = tile.fp_to_fp %x3 {rounding = 0 : i32} : f8E5M2FNUZ -> f16
  %i3 = arith.constant 3 : i32
  %p3 = tile.addptr %out, %i3 : !tile.ptr<f16>, i32
  tile.store %p3, %y3 : !tile.ptr<f16>
  return
}

//--- narrow.mlir
// ERR: narrow.mlir:[[@LINE+2]]:8: error: 'tile.fp_to_fp' op converts 'f32' to 'f8E4M3FN': conversions to fp8 have no lowering for hip:gfx942 yet
func.func @narrow(%out: !tile.ptr<f8E4M3FN>, %x: f32) {
  %y = tile.fp_to_fp %x {rounding = 0 : i32} : f32 -> f8E4M3FN
  tile.store %out, %y : !tile.ptr<f8E4M3FN>
  return
}
