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
//
// To fp8 (narrow.mlir): f32 constants rounded to nearest, ties to even,
// saturated to the largest finite value (infinities too), NaN to the NaN
// code, no negative zero in the FNUZ formats: zeros, ties at 1 and in the
// subnormals (half the smallest subnormal rounds to zero; the largest
// subnormal plus half a step to the smallest normal), the largest finite
// value and beyond, and random values at three scales, 132 in all; the
// expected bytes were computed from the formats' values independently
// (nearest, ties to the even code). f64 sources and round-toward-zero
// are errors at the op, as on NVIDIA.

// RUN: rm -rf %t && split-file %s %t
// RUN: terrazzo-compile %t/widen.mlir --target=hip:gfx942 --emit=llvmir -o %t/widen.942.ll
// RUN: FileCheck %s < %t/widen.942.ll
// RUN: terrazzo-compile %t/widen.mlir --target=hip:gfx90a --emit=llvmir -o %t/widen.90a.ll
// RUN: FileCheck %s < %t/widen.90a.ll
// RUN: terrazzo-compile %t/widen.mlir --target=hip:gfx950 -o %t/widen.950.hsaco
// RUN: llvm-nm -D --undefined-only %t/widen.950.hsaco | count 0
// RUN: terrazzo-compile %t/narrow.mlir --target=hip:gfx942 --emit=llvmir -o %t/narrow.942.ll
// RUN: FileCheck %s --check-prefix=NARROW < %t/narrow.942.ll
// RUN: terrazzo-compile %t/narrow.mlir --target=hip:gfx90a --emit=llvmir -o %t/narrow.90a.ll
// RUN: FileCheck %s --check-prefix=NARROW < %t/narrow.90a.ll
// RUN: not terrazzo-compile %t/errors.mlir --target=hip:gfx942 -o /dev/null 2>&1 | FileCheck %t/errors.mlir --check-prefix=ERR

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

// NARROW-LABEL: define amdgpu_kernel void @to_e4m3fn(
// NARROW: store i8 0, ptr addrspace(1)
// NARROW: store i8 -128, ptr addrspace(1)
// NARROW: store i8 56, ptr addrspace(1)
// NARROW: store i8 56, ptr addrspace(1)
// NARROW: store i8 58, ptr addrspace(1)
// NARROW: store i8 -70, ptr addrspace(1)
// NARROW: store i8 126, ptr addrspace(1)
// NARROW: store i8 -2, ptr addrspace(1)
// NARROW: store i8 126, ptr addrspace(1)
// NARROW: store i8 126, ptr addrspace(1)
// NARROW: store i8 126, ptr addrspace(1)
// NARROW: store i8 -2, ptr addrspace(1)
// NARROW: store i8 127, ptr addrspace(1)
// NARROW: store i8 1, ptr addrspace(1)
// NARROW: store i8 0, ptr addrspace(1)
// NARROW: store i8 1, ptr addrspace(1)
// NARROW: store i8 2, ptr addrspace(1)
// NARROW: store i8 2, ptr addrspace(1)
// NARROW: store i8 8, ptr addrspace(1)
// NARROW: store i8 -128, ptr addrspace(1)
// NARROW: store i8 0, ptr addrspace(1)
// NARROW: store i8 42, ptr addrspace(1)
// NARROW: store i8 -48, ptr addrspace(1)
// NARROW: store i8 -14, ptr addrspace(1)
// NARROW: store i8 -20, ptr addrspace(1)
// NARROW: store i8 -84, ptr addrspace(1)
// NARROW: store i8 -84, ptr addrspace(1)
// NARROW: store i8 -83, ptr addrspace(1)
// NARROW: store i8 -8, ptr addrspace(1)
// NARROW: store i8 -25, ptr addrspace(1)
// NARROW: store i8 -89, ptr addrspace(1)
// NARROW: store i8 -103, ptr addrspace(1)
// NARROW: store i8 -5, ptr addrspace(1)
// NARROW-LABEL: define amdgpu_kernel void @to_e5m2(
// NARROW: store i8 0, ptr addrspace(1)
// NARROW: store i8 -128, ptr addrspace(1)
// NARROW: store i8 60, ptr addrspace(1)
// NARROW: store i8 60, ptr addrspace(1)
// NARROW: store i8 62, ptr addrspace(1)
// NARROW: store i8 -66, ptr addrspace(1)
// NARROW: store i8 123, ptr addrspace(1)
// NARROW: store i8 -5, ptr addrspace(1)
// NARROW: store i8 123, ptr addrspace(1)
// NARROW: store i8 123, ptr addrspace(1)
// NARROW: store i8 123, ptr addrspace(1)
// NARROW: store i8 -5, ptr addrspace(1)
// NARROW: store i8 127, ptr addrspace(1)
// NARROW: store i8 1, ptr addrspace(1)
// NARROW: store i8 0, ptr addrspace(1)
// NARROW: store i8 1, ptr addrspace(1)
// NARROW: store i8 2, ptr addrspace(1)
// NARROW: store i8 2, ptr addrspace(1)
// NARROW: store i8 4, ptr addrspace(1)
// NARROW: store i8 -128, ptr addrspace(1)
// NARROW: store i8 0, ptr addrspace(1)
// NARROW: store i8 53, ptr addrspace(1)
// NARROW: store i8 -56, ptr addrspace(1)
// NARROW: store i8 75, ptr addrspace(1)
// NARROW: store i8 82, ptr addrspace(1)
// NARROW: store i8 113, ptr addrspace(1)
// NARROW: store i8 123, ptr addrspace(1)
// NARROW: store i8 110, ptr addrspace(1)
// NARROW: store i8 -10, ptr addrspace(1)
// NARROW: store i8 69, ptr addrspace(1)
// NARROW: store i8 -51, ptr addrspace(1)
// NARROW: store i8 -47, ptr addrspace(1)
// NARROW: store i8 112, ptr addrspace(1)
// NARROW-LABEL: define amdgpu_kernel void @to_e4m3fnuz(
// NARROW: store i8 0, ptr addrspace(1)
// NARROW: store i8 0, ptr addrspace(1)
// NARROW: store i8 64, ptr addrspace(1)
// NARROW: store i8 64, ptr addrspace(1)
// NARROW: store i8 66, ptr addrspace(1)
// NARROW: store i8 -62, ptr addrspace(1)
// NARROW: store i8 127, ptr addrspace(1)
// NARROW: store i8 -1, ptr addrspace(1)
// NARROW: store i8 127, ptr addrspace(1)
// NARROW: store i8 127, ptr addrspace(1)
// NARROW: store i8 127, ptr addrspace(1)
// NARROW: store i8 -1, ptr addrspace(1)
// NARROW: store i8 -128, ptr addrspace(1)
// NARROW: store i8 1, ptr addrspace(1)
// NARROW: store i8 0, ptr addrspace(1)
// NARROW: store i8 1, ptr addrspace(1)
// NARROW: store i8 2, ptr addrspace(1)
// NARROW: store i8 2, ptr addrspace(1)
// NARROW: store i8 8, ptr addrspace(1)
// NARROW: store i8 0, ptr addrspace(1)
// NARROW: store i8 0, ptr addrspace(1)
// NARROW: store i8 50, ptr addrspace(1)
// NARROW: store i8 -40, ptr addrspace(1)
// NARROW: store i8 -96, ptr addrspace(1)
// NARROW: store i8 37, ptr addrspace(1)
// NARROW: store i8 -3, ptr addrspace(1)
// NARROW: store i8 -126, ptr addrspace(1)
// NARROW: store i8 -77, ptr addrspace(1)
// NARROW: store i8 -85, ptr addrspace(1)
// NARROW: store i8 -16, ptr addrspace(1)
// NARROW: store i8 41, ptr addrspace(1)
// NARROW: store i8 120, ptr addrspace(1)
// NARROW: store i8 25, ptr addrspace(1)
// NARROW-LABEL: define amdgpu_kernel void @to_e5m2fnuz(
// NARROW: store i8 0, ptr addrspace(1)
// NARROW: store i8 0, ptr addrspace(1)
// NARROW: store i8 64, ptr addrspace(1)
// NARROW: store i8 64, ptr addrspace(1)
// NARROW: store i8 66, ptr addrspace(1)
// NARROW: store i8 -62, ptr addrspace(1)
// NARROW: store i8 127, ptr addrspace(1)
// NARROW: store i8 -1, ptr addrspace(1)
// NARROW: store i8 127, ptr addrspace(1)
// NARROW: store i8 127, ptr addrspace(1)
// NARROW: store i8 127, ptr addrspace(1)
// NARROW: store i8 -1, ptr addrspace(1)
// NARROW: store i8 -128, ptr addrspace(1)
// NARROW: store i8 1, ptr addrspace(1)
// NARROW: store i8 0, ptr addrspace(1)
// NARROW: store i8 1, ptr addrspace(1)
// NARROW: store i8 2, ptr addrspace(1)
// NARROW: store i8 2, ptr addrspace(1)
// NARROW: store i8 4, ptr addrspace(1)
// NARROW: store i8 0, ptr addrspace(1)
// NARROW: store i8 0, ptr addrspace(1)
// NARROW: store i8 57, ptr addrspace(1)
// NARROW: store i8 -52, ptr addrspace(1)
// NARROW: store i8 -54, ptr addrspace(1)
// NARROW: store i8 96, ptr addrspace(1)
// NARROW: store i8 118, ptr addrspace(1)
// NARROW: store i8 -29, ptr addrspace(1)
// NARROW: store i8 -30, ptr addrspace(1)
// NARROW: store i8 -30, ptr addrspace(1)
// NARROW: store i8 -52, ptr addrspace(1)
// NARROW: store i8 -42, ptr addrspace(1)
// NARROW: store i8 89, ptr addrspace(1)
// NARROW: store i8 -34, ptr addrspace(1)

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
func.func @to_e4m3fn(%out: !tile.ptr<f8E4M3FN>) {
  %x0 = arith.constant 0x00000000 : f32
  %y0 = tile.fp_to_fp %x0 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i0 = arith.constant 0 : i32
  %p0 = tile.addptr %out, %i0 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p0, %y0 : !tile.ptr<f8E4M3FN>
  %x1 = arith.constant 0x80000000 : f32
  %y1 = tile.fp_to_fp %x1 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i1 = arith.constant 1 : i32
  %p1 = tile.addptr %out, %i1 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p1, %y1 : !tile.ptr<f8E4M3FN>
  %x2 = arith.constant 0x3F800000 : f32
  %y2 = tile.fp_to_fp %x2 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i2 = arith.constant 2 : i32
  %p2 = tile.addptr %out, %i2 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p2, %y2 : !tile.ptr<f8E4M3FN>
  %x3 = arith.constant 0x3F880000 : f32
  %y3 = tile.fp_to_fp %x3 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i3 = arith.constant 3 : i32
  %p3 = tile.addptr %out, %i3 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p3, %y3 : !tile.ptr<f8E4M3FN>
  %x4 = arith.constant 0x3F980000 : f32
  %y4 = tile.fp_to_fp %x4 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i4 = arith.constant 4 : i32
  %p4 = tile.addptr %out, %i4 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p4, %y4 : !tile.ptr<f8E4M3FN>
  %x5 = arith.constant 0xBF980000 : f32
  %y5 = tile.fp_to_fp %x5 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i5 = arith.constant 5 : i32
  %p5 = tile.addptr %out, %i5 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p5, %y5 : !tile.ptr<f8E4M3FN>
  %x6 = arith.constant 0x43E00000 : f32
  %y6 = tile.fp_to_fp %x6 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i6 = arith.constant 6 : i32
  %p6 = tile.addptr %out, %i6 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p6, %y6 : !tile.ptr<f8E4M3FN>
  %x7 = arith.constant 0xC3E00000 : f32
  %y7 = tile.fp_to_fp %x7 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i7 = arith.constant 7 : i32
  %p7 = tile.addptr %out, %i7 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p7, %y7 : !tile.ptr<f8E4M3FN>
  %x8 = arith.constant 0x43E23D71 : f32
  %y8 = tile.fp_to_fp %x8 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i8 = arith.constant 8 : i32
  %p8 = tile.addptr %out, %i8 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p8, %y8 : !tile.ptr<f8E4M3FN>
  %x9 = arith.constant 0x7149F2CA : f32
  %y9 = tile.fp_to_fp %x9 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i9 = arith.constant 9 : i32
  %p9 = tile.addptr %out, %i9 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p9, %y9 : !tile.ptr<f8E4M3FN>
  %x10 = arith.constant 0x7F800000 : f32
  %y10 = tile.fp_to_fp %x10 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i10 = arith.constant 10 : i32
  %p10 = tile.addptr %out, %i10 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p10, %y10 : !tile.ptr<f8E4M3FN>
  %x11 = arith.constant 0xFF800000 : f32
  %y11 = tile.fp_to_fp %x11 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i11 = arith.constant 11 : i32
  %p11 = tile.addptr %out, %i11 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p11, %y11 : !tile.ptr<f8E4M3FN>
  %x12 = arith.constant 0x7FC00000 : f32
  %y12 = tile.fp_to_fp %x12 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i12 = arith.constant 12 : i32
  %p12 = tile.addptr %out, %i12 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p12, %y12 : !tile.ptr<f8E4M3FN>
  %x13 = arith.constant 0x3B000000 : f32
  %y13 = tile.fp_to_fp %x13 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i13 = arith.constant 13 : i32
  %p13 = tile.addptr %out, %i13 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p13, %y13 : !tile.ptr<f8E4M3FN>
  %x14 = arith.constant 0x3A800000 : f32
  %y14 = tile.fp_to_fp %x14 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i14 = arith.constant 14 : i32
  %p14 = tile.addptr %out, %i14 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p14, %y14 : !tile.ptr<f8E4M3FN>
  %x15 = arith.constant 0x3AC00000 : f32
  %y15 = tile.fp_to_fp %x15 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i15 = arith.constant 15 : i32
  %p15 = tile.addptr %out, %i15 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p15, %y15 : !tile.ptr<f8E4M3FN>
  %x16 = arith.constant 0x3B400000 : f32
  %y16 = tile.fp_to_fp %x16 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i16 = arith.constant 16 : i32
  %p16 = tile.addptr %out, %i16 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p16, %y16 : !tile.ptr<f8E4M3FN>
  %x17 = arith.constant 0x3BA00000 : f32
  %y17 = tile.fp_to_fp %x17 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i17 = arith.constant 17 : i32
  %p17 = tile.addptr %out, %i17 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p17, %y17 : !tile.ptr<f8E4M3FN>
  %x18 = arith.constant 0x3C700000 : f32
  %y18 = tile.fp_to_fp %x18 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i18 = arith.constant 18 : i32
  %p18 = tile.addptr %out, %i18 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p18, %y18 : !tile.ptr<f8E4M3FN>
  %x19 = arith.constant 0xBA800000 : f32
  %y19 = tile.fp_to_fp %x19 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i19 = arith.constant 19 : i32
  %p19 = tile.addptr %out, %i19 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p19, %y19 : !tile.ptr<f8E4M3FN>
  %x20 = arith.constant 0x00800000 : f32
  %y20 = tile.fp_to_fp %x20 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i20 = arith.constant 20 : i32
  %p20 = tile.addptr %out, %i20 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p20, %y20 : !tile.ptr<f8E4M3FN>
  %x21 = arith.constant 0x3E99999A : f32
  %y21 = tile.fp_to_fp %x21 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i21 = arith.constant 21 : i32
  %p21 = tile.addptr %out, %i21 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p21, %y21 : !tile.ptr<f8E4M3FN>
  %x22 = arith.constant 0xC0F8A3D7 : f32
  %y22 = tile.fp_to_fp %x22 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i22 = arith.constant 22 : i32
  %p22 = tile.addptr %out, %i22 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p22, %y22 : !tile.ptr<f8E4M3FN>
  %x23 = arith.constant 0xC31DD889 : f32
  %y23 = tile.fp_to_fp %x23 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i23 = arith.constant 23 : i32
  %p23 = tile.addptr %out, %i23 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p23, %y23 : !tile.ptr<f8E4M3FN>
  %x24 = arith.constant 0xC2BC79EE : f32
  %y24 = tile.fp_to_fp %x24 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i24 = arith.constant 24 : i32
  %p24 = tile.addptr %out, %i24 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p24, %y24 : !tile.ptr<f8E4M3FN>
  %x25 = arith.constant 0xBEC4254D : f32
  %y25 = tile.fp_to_fp %x25 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i25 = arith.constant 25 : i32
  %p25 = tile.addptr %out, %i25 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p25, %y25 : !tile.ptr<f8E4M3FN>
  %x26 = arith.constant 0xBEBA3193 : f32
  %y26 = tile.fp_to_fp %x26 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i26 = arith.constant 26 : i32
  %p26 = tile.addptr %out, %i26 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p26, %y26 : !tile.ptr<f8E4M3FN>
  %x27 = arith.constant 0xBECAC4D5 : f32
  %y27 = tile.fp_to_fp %x27 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i27 = arith.constant 27 : i32
  %p27 = tile.addptr %out, %i27 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p27, %y27 : !tile.ptr<f8E4M3FN>
  %x28 = arith.constant 0xC37FA164 : f32
  %y28 = tile.fp_to_fp %x28 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i28 = arith.constant 28 : i32
  %p28 = tile.addptr %out, %i28 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p28, %y28 : !tile.ptr<f8E4M3FN>
  %x29 = arith.constant 0xC26DD05A : f32
  %y29 = tile.fp_to_fp %x29 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i29 = arith.constant 29 : i32
  %p29 = tile.addptr %out, %i29 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p29, %y29 : !tile.ptr<f8E4M3FN>
  %x30 = arith.constant 0xBE6DF157 : f32
  %y30 = tile.fp_to_fp %x30 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i30 = arith.constant 30 : i32
  %p30 = tile.addptr %out, %i30 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p30, %y30 : !tile.ptr<f8E4M3FN>
  %x31 = arith.constant 0xBD8A8205 : f32
  %y31 = tile.fp_to_fp %x31 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i31 = arith.constant 31 : i32
  %p31 = tile.addptr %out, %i31 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p31, %y31 : !tile.ptr<f8E4M3FN>
  %x32 = arith.constant 0xC3A88967 : f32
  %y32 = tile.fp_to_fp %x32 {rounding = 0 : i32} : f32 -> f8E4M3FN
  %i32 = arith.constant 32 : i32
  %p32 = tile.addptr %out, %i32 : !tile.ptr<f8E4M3FN>, i32
  tile.store %p32, %y32 : !tile.ptr<f8E4M3FN>
  return
}

func.func @to_e5m2(%out: !tile.ptr<f8E5M2>) {
  %x0 = arith.constant 0x00000000 : f32
  %y0 = tile.fp_to_fp %x0 {rounding = 0 : i32} : f32 -> f8E5M2
  %i0 = arith.constant 0 : i32
  %p0 = tile.addptr %out, %i0 : !tile.ptr<f8E5M2>, i32
  tile.store %p0, %y0 : !tile.ptr<f8E5M2>
  %x1 = arith.constant 0x80000000 : f32
  %y1 = tile.fp_to_fp %x1 {rounding = 0 : i32} : f32 -> f8E5M2
  %i1 = arith.constant 1 : i32
  %p1 = tile.addptr %out, %i1 : !tile.ptr<f8E5M2>, i32
  tile.store %p1, %y1 : !tile.ptr<f8E5M2>
  %x2 = arith.constant 0x3F800000 : f32
  %y2 = tile.fp_to_fp %x2 {rounding = 0 : i32} : f32 -> f8E5M2
  %i2 = arith.constant 2 : i32
  %p2 = tile.addptr %out, %i2 : !tile.ptr<f8E5M2>, i32
  tile.store %p2, %y2 : !tile.ptr<f8E5M2>
  %x3 = arith.constant 0x3F900000 : f32
  %y3 = tile.fp_to_fp %x3 {rounding = 0 : i32} : f32 -> f8E5M2
  %i3 = arith.constant 3 : i32
  %p3 = tile.addptr %out, %i3 : !tile.ptr<f8E5M2>, i32
  tile.store %p3, %y3 : !tile.ptr<f8E5M2>
  %x4 = arith.constant 0x3FB00000 : f32
  %y4 = tile.fp_to_fp %x4 {rounding = 0 : i32} : f32 -> f8E5M2
  %i4 = arith.constant 4 : i32
  %p4 = tile.addptr %out, %i4 : !tile.ptr<f8E5M2>, i32
  tile.store %p4, %y4 : !tile.ptr<f8E5M2>
  %x5 = arith.constant 0xBFB00000 : f32
  %y5 = tile.fp_to_fp %x5 {rounding = 0 : i32} : f32 -> f8E5M2
  %i5 = arith.constant 5 : i32
  %p5 = tile.addptr %out, %i5 : !tile.ptr<f8E5M2>, i32
  tile.store %p5, %y5 : !tile.ptr<f8E5M2>
  %x6 = arith.constant 0x47600000 : f32
  %y6 = tile.fp_to_fp %x6 {rounding = 0 : i32} : f32 -> f8E5M2
  %i6 = arith.constant 6 : i32
  %p6 = tile.addptr %out, %i6 : !tile.ptr<f8E5M2>, i32
  tile.store %p6, %y6 : !tile.ptr<f8E5M2>
  %x7 = arith.constant 0xC7600000 : f32
  %y7 = tile.fp_to_fp %x7 {rounding = 0 : i32} : f32 -> f8E5M2
  %i7 = arith.constant 7 : i32
  %p7 = tile.addptr %out, %i7 : !tile.ptr<f8E5M2>, i32
  tile.store %p7, %y7 : !tile.ptr<f8E5M2>
  %x8 = arith.constant 0x47623D71 : f32
  %y8 = tile.fp_to_fp %x8 {rounding = 0 : i32} : f32 -> f8E5M2
  %i8 = arith.constant 8 : i32
  %p8 = tile.addptr %out, %i8 : !tile.ptr<f8E5M2>, i32
  tile.store %p8, %y8 : !tile.ptr<f8E5M2>
  %x9 = arith.constant 0x7149F2CA : f32
  %y9 = tile.fp_to_fp %x9 {rounding = 0 : i32} : f32 -> f8E5M2
  %i9 = arith.constant 9 : i32
  %p9 = tile.addptr %out, %i9 : !tile.ptr<f8E5M2>, i32
  tile.store %p9, %y9 : !tile.ptr<f8E5M2>
  %x10 = arith.constant 0x7F800000 : f32
  %y10 = tile.fp_to_fp %x10 {rounding = 0 : i32} : f32 -> f8E5M2
  %i10 = arith.constant 10 : i32
  %p10 = tile.addptr %out, %i10 : !tile.ptr<f8E5M2>, i32
  tile.store %p10, %y10 : !tile.ptr<f8E5M2>
  %x11 = arith.constant 0xFF800000 : f32
  %y11 = tile.fp_to_fp %x11 {rounding = 0 : i32} : f32 -> f8E5M2
  %i11 = arith.constant 11 : i32
  %p11 = tile.addptr %out, %i11 : !tile.ptr<f8E5M2>, i32
  tile.store %p11, %y11 : !tile.ptr<f8E5M2>
  %x12 = arith.constant 0x7FC00000 : f32
  %y12 = tile.fp_to_fp %x12 {rounding = 0 : i32} : f32 -> f8E5M2
  %i12 = arith.constant 12 : i32
  %p12 = tile.addptr %out, %i12 : !tile.ptr<f8E5M2>, i32
  tile.store %p12, %y12 : !tile.ptr<f8E5M2>
  %x13 = arith.constant 0x37800000 : f32
  %y13 = tile.fp_to_fp %x13 {rounding = 0 : i32} : f32 -> f8E5M2
  %i13 = arith.constant 13 : i32
  %p13 = tile.addptr %out, %i13 : !tile.ptr<f8E5M2>, i32
  tile.store %p13, %y13 : !tile.ptr<f8E5M2>
  %x14 = arith.constant 0x37000000 : f32
  %y14 = tile.fp_to_fp %x14 {rounding = 0 : i32} : f32 -> f8E5M2
  %i14 = arith.constant 14 : i32
  %p14 = tile.addptr %out, %i14 : !tile.ptr<f8E5M2>, i32
  tile.store %p14, %y14 : !tile.ptr<f8E5M2>
  %x15 = arith.constant 0x37400000 : f32
  %y15 = tile.fp_to_fp %x15 {rounding = 0 : i32} : f32 -> f8E5M2
  %i15 = arith.constant 15 : i32
  %p15 = tile.addptr %out, %i15 : !tile.ptr<f8E5M2>, i32
  tile.store %p15, %y15 : !tile.ptr<f8E5M2>
  %x16 = arith.constant 0x37C00000 : f32
  %y16 = tile.fp_to_fp %x16 {rounding = 0 : i32} : f32 -> f8E5M2
  %i16 = arith.constant 16 : i32
  %p16 = tile.addptr %out, %i16 : !tile.ptr<f8E5M2>, i32
  tile.store %p16, %y16 : !tile.ptr<f8E5M2>
  %x17 = arith.constant 0x38200000 : f32
  %y17 = tile.fp_to_fp %x17 {rounding = 0 : i32} : f32 -> f8E5M2
  %i17 = arith.constant 17 : i32
  %p17 = tile.addptr %out, %i17 : !tile.ptr<f8E5M2>, i32
  tile.store %p17, %y17 : !tile.ptr<f8E5M2>
  %x18 = arith.constant 0x38600000 : f32
  %y18 = tile.fp_to_fp %x18 {rounding = 0 : i32} : f32 -> f8E5M2
  %i18 = arith.constant 18 : i32
  %p18 = tile.addptr %out, %i18 : !tile.ptr<f8E5M2>, i32
  tile.store %p18, %y18 : !tile.ptr<f8E5M2>
  %x19 = arith.constant 0xB7000000 : f32
  %y19 = tile.fp_to_fp %x19 {rounding = 0 : i32} : f32 -> f8E5M2
  %i19 = arith.constant 19 : i32
  %p19 = tile.addptr %out, %i19 : !tile.ptr<f8E5M2>, i32
  tile.store %p19, %y19 : !tile.ptr<f8E5M2>
  %x20 = arith.constant 0x00800000 : f32
  %y20 = tile.fp_to_fp %x20 {rounding = 0 : i32} : f32 -> f8E5M2
  %i20 = arith.constant 20 : i32
  %p20 = tile.addptr %out, %i20 : !tile.ptr<f8E5M2>, i32
  tile.store %p20, %y20 : !tile.ptr<f8E5M2>
  %x21 = arith.constant 0x3E99999A : f32
  %y21 = tile.fp_to_fp %x21 {rounding = 0 : i32} : f32 -> f8E5M2
  %i21 = arith.constant 21 : i32
  %p21 = tile.addptr %out, %i21 : !tile.ptr<f8E5M2>, i32
  tile.store %p21, %y21 : !tile.ptr<f8E5M2>
  %x22 = arith.constant 0xC0F8A3D7 : f32
  %y22 = tile.fp_to_fp %x22 {rounding = 0 : i32} : f32 -> f8E5M2
  %i22 = arith.constant 22 : i32
  %p22 = tile.addptr %out, %i22 : !tile.ptr<f8E5M2>, i32
  tile.store %p22, %y22 : !tile.ptr<f8E5M2>
  %x23 = arith.constant 0x416FB319 : f32
  %y23 = tile.fp_to_fp %x23 {rounding = 0 : i32} : f32 -> f8E5M2
  %i23 = arith.constant 23 : i32
  %p23 = tile.addptr %out, %i23 : !tile.ptr<f8E5M2>, i32
  tile.store %p23, %y23 : !tile.ptr<f8E5M2>
  %x24 = arith.constant 0x424D632B : f32
  %y24 = tile.fp_to_fp %x24 {rounding = 0 : i32} : f32 -> f8E5M2
  %i24 = arith.constant 24 : i32
  %p24 = tile.addptr %out, %i24 : !tile.ptr<f8E5M2>, i32
  tile.store %p24, %y24 : !tile.ptr<f8E5M2>
  %x25 = arith.constant 0x46194A4C : f32
  %y25 = tile.fp_to_fp %x25 {rounding = 0 : i32} : f32 -> f8E5M2
  %i25 = arith.constant 25 : i32
  %p25 = tile.addptr %out, %i25 : !tile.ptr<f8E5M2>, i32
  tile.store %p25, %y25 : !tile.ptr<f8E5M2>
  %x26 = arith.constant 0x47555CBF : f32
  %y26 = tile.fp_to_fp %x26 {rounding = 0 : i32} : f32 -> f8E5M2
  %i26 = arith.constant 26 : i32
  %p26 = tile.addptr %out, %i26 : !tile.ptr<f8E5M2>, i32
  tile.store %p26, %y26 : !tile.ptr<f8E5M2>
  %x27 = arith.constant 0x45CB1645 : f32
  %y27 = tile.fp_to_fp %x27 {rounding = 0 : i32} : f32 -> f8E5M2
  %i27 = arith.constant 27 : i32
  %p27 = tile.addptr %out, %i27 : !tile.ptr<f8E5M2>, i32
  tile.store %p27, %y27 : !tile.ptr<f8E5M2>
  %x28 = arith.constant 0xC6BC8295 : f32
  %y28 = tile.fp_to_fp %x28 {rounding = 0 : i32} : f32 -> f8E5M2
  %i28 = arith.constant 28 : i32
  %p28 = tile.addptr %out, %i28 : !tile.ptr<f8E5M2>, i32
  tile.store %p28, %y28 : !tile.ptr<f8E5M2>
  %x29 = arith.constant 0x4095515F : f32
  %y29 = tile.fp_to_fp %x29 {rounding = 0 : i32} : f32 -> f8E5M2
  %i29 = arith.constant 29 : i32
  %p29 = tile.addptr %out, %i29 : !tile.ptr<f8E5M2>, i32
  tile.store %p29, %y29 : !tile.ptr<f8E5M2>
  %x30 = arith.constant 0xC1AFB7FC : f32
  %y30 = tile.fp_to_fp %x30 {rounding = 0 : i32} : f32 -> f8E5M2
  %i30 = arith.constant 30 : i32
  %p30 = tile.addptr %out, %i30 : !tile.ptr<f8E5M2>, i32
  tile.store %p30, %y30 : !tile.ptr<f8E5M2>
  %x31 = arith.constant 0xC21277A8 : f32
  %y31 = tile.fp_to_fp %x31 {rounding = 0 : i32} : f32 -> f8E5M2
  %i31 = arith.constant 31 : i32
  %p31 = tile.addptr %out, %i31 : !tile.ptr<f8E5M2>, i32
  tile.store %p31, %y31 : !tile.ptr<f8E5M2>
  %x32 = arith.constant 0x45FF3250 : f32
  %y32 = tile.fp_to_fp %x32 {rounding = 0 : i32} : f32 -> f8E5M2
  %i32 = arith.constant 32 : i32
  %p32 = tile.addptr %out, %i32 : !tile.ptr<f8E5M2>, i32
  tile.store %p32, %y32 : !tile.ptr<f8E5M2>
  return
}

func.func @to_e4m3fnuz(%out: !tile.ptr<f8E4M3FNUZ>) {
  %x0 = arith.constant 0x00000000 : f32
  %y0 = tile.fp_to_fp %x0 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i0 = arith.constant 0 : i32
  %p0 = tile.addptr %out, %i0 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p0, %y0 : !tile.ptr<f8E4M3FNUZ>
  %x1 = arith.constant 0x80000000 : f32
  %y1 = tile.fp_to_fp %x1 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i1 = arith.constant 1 : i32
  %p1 = tile.addptr %out, %i1 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p1, %y1 : !tile.ptr<f8E4M3FNUZ>
  %x2 = arith.constant 0x3F800000 : f32
  %y2 = tile.fp_to_fp %x2 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i2 = arith.constant 2 : i32
  %p2 = tile.addptr %out, %i2 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p2, %y2 : !tile.ptr<f8E4M3FNUZ>
  %x3 = arith.constant 0x3F880000 : f32
  %y3 = tile.fp_to_fp %x3 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i3 = arith.constant 3 : i32
  %p3 = tile.addptr %out, %i3 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p3, %y3 : !tile.ptr<f8E4M3FNUZ>
  %x4 = arith.constant 0x3F980000 : f32
  %y4 = tile.fp_to_fp %x4 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i4 = arith.constant 4 : i32
  %p4 = tile.addptr %out, %i4 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p4, %y4 : !tile.ptr<f8E4M3FNUZ>
  %x5 = arith.constant 0xBF980000 : f32
  %y5 = tile.fp_to_fp %x5 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i5 = arith.constant 5 : i32
  %p5 = tile.addptr %out, %i5 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p5, %y5 : !tile.ptr<f8E4M3FNUZ>
  %x6 = arith.constant 0x43700000 : f32
  %y6 = tile.fp_to_fp %x6 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i6 = arith.constant 6 : i32
  %p6 = tile.addptr %out, %i6 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p6, %y6 : !tile.ptr<f8E4M3FNUZ>
  %x7 = arith.constant 0xC3700000 : f32
  %y7 = tile.fp_to_fp %x7 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i7 = arith.constant 7 : i32
  %p7 = tile.addptr %out, %i7 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p7, %y7 : !tile.ptr<f8E4M3FNUZ>
  %x8 = arith.constant 0x43726666 : f32
  %y8 = tile.fp_to_fp %x8 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i8 = arith.constant 8 : i32
  %p8 = tile.addptr %out, %i8 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p8, %y8 : !tile.ptr<f8E4M3FNUZ>
  %x9 = arith.constant 0x7149F2CA : f32
  %y9 = tile.fp_to_fp %x9 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i9 = arith.constant 9 : i32
  %p9 = tile.addptr %out, %i9 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p9, %y9 : !tile.ptr<f8E4M3FNUZ>
  %x10 = arith.constant 0x7F800000 : f32
  %y10 = tile.fp_to_fp %x10 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i10 = arith.constant 10 : i32
  %p10 = tile.addptr %out, %i10 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p10, %y10 : !tile.ptr<f8E4M3FNUZ>
  %x11 = arith.constant 0xFF800000 : f32
  %y11 = tile.fp_to_fp %x11 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i11 = arith.constant 11 : i32
  %p11 = tile.addptr %out, %i11 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p11, %y11 : !tile.ptr<f8E4M3FNUZ>
  %x12 = arith.constant 0x7FC00000 : f32
  %y12 = tile.fp_to_fp %x12 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i12 = arith.constant 12 : i32
  %p12 = tile.addptr %out, %i12 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p12, %y12 : !tile.ptr<f8E4M3FNUZ>
  %x13 = arith.constant 0x3A800000 : f32
  %y13 = tile.fp_to_fp %x13 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i13 = arith.constant 13 : i32
  %p13 = tile.addptr %out, %i13 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p13, %y13 : !tile.ptr<f8E4M3FNUZ>
  %x14 = arith.constant 0x3A000000 : f32
  %y14 = tile.fp_to_fp %x14 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i14 = arith.constant 14 : i32
  %p14 = tile.addptr %out, %i14 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p14, %y14 : !tile.ptr<f8E4M3FNUZ>
  %x15 = arith.constant 0x3A400000 : f32
  %y15 = tile.fp_to_fp %x15 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i15 = arith.constant 15 : i32
  %p15 = tile.addptr %out, %i15 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p15, %y15 : !tile.ptr<f8E4M3FNUZ>
  %x16 = arith.constant 0x3AC00000 : f32
  %y16 = tile.fp_to_fp %x16 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i16 = arith.constant 16 : i32
  %p16 = tile.addptr %out, %i16 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p16, %y16 : !tile.ptr<f8E4M3FNUZ>
  %x17 = arith.constant 0x3B200000 : f32
  %y17 = tile.fp_to_fp %x17 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i17 = arith.constant 17 : i32
  %p17 = tile.addptr %out, %i17 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p17, %y17 : !tile.ptr<f8E4M3FNUZ>
  %x18 = arith.constant 0x3BF00000 : f32
  %y18 = tile.fp_to_fp %x18 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i18 = arith.constant 18 : i32
  %p18 = tile.addptr %out, %i18 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p18, %y18 : !tile.ptr<f8E4M3FNUZ>
  %x19 = arith.constant 0xBA000000 : f32
  %y19 = tile.fp_to_fp %x19 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i19 = arith.constant 19 : i32
  %p19 = tile.addptr %out, %i19 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p19, %y19 : !tile.ptr<f8E4M3FNUZ>
  %x20 = arith.constant 0x00800000 : f32
  %y20 = tile.fp_to_fp %x20 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i20 = arith.constant 20 : i32
  %p20 = tile.addptr %out, %i20 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p20, %y20 : !tile.ptr<f8E4M3FNUZ>
  %x21 = arith.constant 0x3E99999A : f32
  %y21 = tile.fp_to_fp %x21 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i21 = arith.constant 21 : i32
  %p21 = tile.addptr %out, %i21 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p21, %y21 : !tile.ptr<f8E4M3FNUZ>
  %x22 = arith.constant 0xC0F8A3D7 : f32
  %y22 = tile.fp_to_fp %x22 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i22 = arith.constant 22 : i32
  %p22 = tile.addptr %out, %i22 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p22, %y22 : !tile.ptr<f8E4M3FNUZ>
  %x23 = arith.constant 0xBD7AE06B : f32
  %y23 = tile.fp_to_fp %x23 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i23 = arith.constant 23 : i32
  %p23 = tile.addptr %out, %i23 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p23, %y23 : !tile.ptr<f8E4M3FNUZ>
  %x24 = arith.constant 0x3DD0836C : f32
  %y24 = tile.fp_to_fp %x24 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i24 = arith.constant 24 : i32
  %p24 = tile.addptr %out, %i24 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p24, %y24 : !tile.ptr<f8E4M3FNUZ>
  %x25 = arith.constant 0xC3536435 : f32
  %y25 = tile.fp_to_fp %x25 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i25 = arith.constant 25 : i32
  %p25 = tile.addptr %out, %i25 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p25, %y25 : !tile.ptr<f8E4M3FNUZ>
  %x26 = arith.constant 0xBAE19499 : f32
  %y26 = tile.fp_to_fp %x26 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i26 = arith.constant 26 : i32
  %p26 = tile.addptr %out, %i26 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p26, %y26 : !tile.ptr<f8E4M3FNUZ>
  %x27 = arith.constant 0xBEB1F2FB : f32
  %y27 = tile.fp_to_fp %x27 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i27 = arith.constant 27 : i32
  %p27 = tile.addptr %out, %i27 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p27, %y27 : !tile.ptr<f8E4M3FNUZ>
  %x28 = arith.constant 0xBE2912DF : f32
  %y28 = tile.fp_to_fp %x28 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i28 = arith.constant 28 : i32
  %p28 = tile.addptr %out, %i28 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p28, %y28 : !tile.ptr<f8E4M3FNUZ>
  %x29 = arith.constant 0xC284E185 : f32
  %y29 = tile.fp_to_fp %x29 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i29 = arith.constant 29 : i32
  %p29 = tile.addptr %out, %i29 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p29, %y29 : !tile.ptr<f8E4M3FNUZ>
  %x30 = arith.constant 0x3E10B183 : f32
  %y30 = tile.fp_to_fp %x30 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i30 = arith.constant 30 : i32
  %p30 = tile.addptr %out, %i30 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p30, %y30 : !tile.ptr<f8E4M3FNUZ>
  %x31 = arith.constant 0x43065177 : f32
  %y31 = tile.fp_to_fp %x31 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i31 = arith.constant 31 : i32
  %p31 = tile.addptr %out, %i31 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p31, %y31 : !tile.ptr<f8E4M3FNUZ>
  %x32 = arith.constant 0x3D1252AE : f32
  %y32 = tile.fp_to_fp %x32 {rounding = 0 : i32} : f32 -> f8E4M3FNUZ
  %i32 = arith.constant 32 : i32
  %p32 = tile.addptr %out, %i32 : !tile.ptr<f8E4M3FNUZ>, i32
  tile.store %p32, %y32 : !tile.ptr<f8E4M3FNUZ>
  return
}

func.func @to_e5m2fnuz(%out: !tile.ptr<f8E5M2FNUZ>) {
  %x0 = arith.constant 0x00000000 : f32
  %y0 = tile.fp_to_fp %x0 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i0 = arith.constant 0 : i32
  %p0 = tile.addptr %out, %i0 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p0, %y0 : !tile.ptr<f8E5M2FNUZ>
  %x1 = arith.constant 0x80000000 : f32
  %y1 = tile.fp_to_fp %x1 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i1 = arith.constant 1 : i32
  %p1 = tile.addptr %out, %i1 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p1, %y1 : !tile.ptr<f8E5M2FNUZ>
  %x2 = arith.constant 0x3F800000 : f32
  %y2 = tile.fp_to_fp %x2 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i2 = arith.constant 2 : i32
  %p2 = tile.addptr %out, %i2 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p2, %y2 : !tile.ptr<f8E5M2FNUZ>
  %x3 = arith.constant 0x3F900000 : f32
  %y3 = tile.fp_to_fp %x3 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i3 = arith.constant 3 : i32
  %p3 = tile.addptr %out, %i3 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p3, %y3 : !tile.ptr<f8E5M2FNUZ>
  %x4 = arith.constant 0x3FB00000 : f32
  %y4 = tile.fp_to_fp %x4 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i4 = arith.constant 4 : i32
  %p4 = tile.addptr %out, %i4 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p4, %y4 : !tile.ptr<f8E5M2FNUZ>
  %x5 = arith.constant 0xBFB00000 : f32
  %y5 = tile.fp_to_fp %x5 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i5 = arith.constant 5 : i32
  %p5 = tile.addptr %out, %i5 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p5, %y5 : !tile.ptr<f8E5M2FNUZ>
  %x6 = arith.constant 0x47600000 : f32
  %y6 = tile.fp_to_fp %x6 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i6 = arith.constant 6 : i32
  %p6 = tile.addptr %out, %i6 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p6, %y6 : !tile.ptr<f8E5M2FNUZ>
  %x7 = arith.constant 0xC7600000 : f32
  %y7 = tile.fp_to_fp %x7 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i7 = arith.constant 7 : i32
  %p7 = tile.addptr %out, %i7 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p7, %y7 : !tile.ptr<f8E5M2FNUZ>
  %x8 = arith.constant 0x47623D71 : f32
  %y8 = tile.fp_to_fp %x8 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i8 = arith.constant 8 : i32
  %p8 = tile.addptr %out, %i8 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p8, %y8 : !tile.ptr<f8E5M2FNUZ>
  %x9 = arith.constant 0x7149F2CA : f32
  %y9 = tile.fp_to_fp %x9 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i9 = arith.constant 9 : i32
  %p9 = tile.addptr %out, %i9 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p9, %y9 : !tile.ptr<f8E5M2FNUZ>
  %x10 = arith.constant 0x7F800000 : f32
  %y10 = tile.fp_to_fp %x10 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i10 = arith.constant 10 : i32
  %p10 = tile.addptr %out, %i10 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p10, %y10 : !tile.ptr<f8E5M2FNUZ>
  %x11 = arith.constant 0xFF800000 : f32
  %y11 = tile.fp_to_fp %x11 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i11 = arith.constant 11 : i32
  %p11 = tile.addptr %out, %i11 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p11, %y11 : !tile.ptr<f8E5M2FNUZ>
  %x12 = arith.constant 0x7FC00000 : f32
  %y12 = tile.fp_to_fp %x12 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i12 = arith.constant 12 : i32
  %p12 = tile.addptr %out, %i12 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p12, %y12 : !tile.ptr<f8E5M2FNUZ>
  %x13 = arith.constant 0x37000000 : f32
  %y13 = tile.fp_to_fp %x13 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i13 = arith.constant 13 : i32
  %p13 = tile.addptr %out, %i13 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p13, %y13 : !tile.ptr<f8E5M2FNUZ>
  %x14 = arith.constant 0x36800000 : f32
  %y14 = tile.fp_to_fp %x14 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i14 = arith.constant 14 : i32
  %p14 = tile.addptr %out, %i14 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p14, %y14 : !tile.ptr<f8E5M2FNUZ>
  %x15 = arith.constant 0x36C00000 : f32
  %y15 = tile.fp_to_fp %x15 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i15 = arith.constant 15 : i32
  %p15 = tile.addptr %out, %i15 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p15, %y15 : !tile.ptr<f8E5M2FNUZ>
  %x16 = arith.constant 0x37400000 : f32
  %y16 = tile.fp_to_fp %x16 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i16 = arith.constant 16 : i32
  %p16 = tile.addptr %out, %i16 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p16, %y16 : !tile.ptr<f8E5M2FNUZ>
  %x17 = arith.constant 0x37A00000 : f32
  %y17 = tile.fp_to_fp %x17 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i17 = arith.constant 17 : i32
  %p17 = tile.addptr %out, %i17 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p17, %y17 : !tile.ptr<f8E5M2FNUZ>
  %x18 = arith.constant 0x37E00000 : f32
  %y18 = tile.fp_to_fp %x18 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i18 = arith.constant 18 : i32
  %p18 = tile.addptr %out, %i18 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p18, %y18 : !tile.ptr<f8E5M2FNUZ>
  %x19 = arith.constant 0xB6800000 : f32
  %y19 = tile.fp_to_fp %x19 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i19 = arith.constant 19 : i32
  %p19 = tile.addptr %out, %i19 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p19, %y19 : !tile.ptr<f8E5M2FNUZ>
  %x20 = arith.constant 0x00800000 : f32
  %y20 = tile.fp_to_fp %x20 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i20 = arith.constant 20 : i32
  %p20 = tile.addptr %out, %i20 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p20, %y20 : !tile.ptr<f8E5M2FNUZ>
  %x21 = arith.constant 0x3E99999A : f32
  %y21 = tile.fp_to_fp %x21 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i21 = arith.constant 21 : i32
  %p21 = tile.addptr %out, %i21 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p21, %y21 : !tile.ptr<f8E5M2FNUZ>
  %x22 = arith.constant 0xC0F8A3D7 : f32
  %y22 = tile.fp_to_fp %x22 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i22 = arith.constant 22 : i32
  %p22 = tile.addptr %out, %i22 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p22, %y22 : !tile.ptr<f8E5M2FNUZ>
  %x23 = arith.constant 0xC0B33AFB : f32
  %y23 = tile.fp_to_fp %x23 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i23 = arith.constant 23 : i32
  %p23 = tile.addptr %out, %i23 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p23, %y23 : !tile.ptr<f8E5M2FNUZ>
  %x24 = arith.constant 0x438392B7 : f32
  %y24 = tile.fp_to_fp %x24 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i24 = arith.constant 24 : i32
  %p24 = tile.addptr %out, %i24 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p24, %y24 : !tile.ptr<f8E5M2FNUZ>
  %x25 = arith.constant 0x4643412B : f32
  %y25 = tile.fp_to_fp %x25 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i25 = arith.constant 25 : i32
  %p25 = tile.addptr %out, %i25 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p25, %y25 : !tile.ptr<f8E5M2FNUZ>
  %x26 = arith.constant 0xC3DB0430 : f32
  %y26 = tile.fp_to_fp %x26 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i26 = arith.constant 26 : i32
  %p26 = tile.addptr %out, %i26 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p26, %y26 : !tile.ptr<f8E5M2FNUZ>
  %x27 = arith.constant 0xC3C01FC7 : f32
  %y27 = tile.fp_to_fp %x27 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i27 = arith.constant 27 : i32
  %p27 = tile.addptr %out, %i27 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p27, %y27 : !tile.ptr<f8E5M2FNUZ>
  %x28 = arith.constant 0xC3C790E5 : f32
  %y28 = tile.fp_to_fp %x28 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i28 = arith.constant 28 : i32
  %p28 = tile.addptr %out, %i28 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p28, %y28 : !tile.ptr<f8E5M2FNUZ>
  %x29 = arith.constant 0xC10FAF24 : f32
  %y29 = tile.fp_to_fp %x29 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i29 = arith.constant 29 : i32
  %p29 = tile.addptr %out, %i29 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p29, %y29 : !tile.ptr<f8E5M2FNUZ>
  %x30 = arith.constant 0xC241C478 : f32
  %y30 = tile.fp_to_fp %x30 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i30 = arith.constant 30 : i32
  %p30 = tile.addptr %out, %i30 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p30, %y30 : !tile.ptr<f8E5M2FNUZ>
  %x31 = arith.constant 0x42A78105 : f32
  %y31 = tile.fp_to_fp %x31 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i31 = arith.constant 31 : i32
  %p31 = tile.addptr %out, %i31 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p31, %y31 : !tile.ptr<f8E5M2FNUZ>
  %x32 = arith.constant 0xC3375C47 : f32
  %y32 = tile.fp_to_fp %x32 {rounding = 0 : i32} : f32 -> f8E5M2FNUZ
  %i32 = arith.constant 32 : i32
  %p32 = tile.addptr %out, %i32 : !tile.ptr<f8E5M2FNUZ>, i32
  tile.store %p32, %y32 : !tile.ptr<f8E5M2FNUZ>
  return
}

//--- errors.mlir
// ERR: errors.mlir:[[@LINE+2]]:8: error: 'tile.fp_to_fp' op converts f64 to 'f8E4M3FN', which has no single-rounding instruction; convert to f32 first
func.func @narrow(%out: !tile.ptr<f8E4M3FN>, %x: f64) {
  %y = tile.fp_to_fp %x {rounding = 0 : i32} : f64 -> f8E4M3FN
  tile.store %out, %y : !tile.ptr<f8E4M3FN>
  return
}
// ERR: errors.mlir:[[@LINE+2]]:8: error: 'tile.fp_to_fp' op converts 'f32' to 'f8E5M2' with a rounding mode other than to-nearest-even, which the fp8 conversions do not have
func.func @rtz(%out: !tile.ptr<f8E5M2>, %x: f32) {
  %y = tile.fp_to_fp %x {rounding = 1 : i32} : f32 -> f8E5M2
  tile.store %out, %y : !tile.ptr<f8E5M2>
  return
}
