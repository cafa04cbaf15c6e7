// tile.dot of float16 on sm_80 is mma.sync.m16n8k16 (64 x 64 x 32 at 4
// warps: 2 x 2 warps, each 32 x 32 = 2 x 4 tiles, two K steps: 16 per
// warp's code), bfloat16 likewise with bf16 operands, and float16 with a
// float16 accumulator uses the f16 form, and int8 is m16n8k32 accumulating in
// int32 with saturation (.satfinite, as Triton's int8 dots); the PTX assembles for sm_80. The
// operands reach their registers through shared memory with ldmatrix (A
// plain, B transposed: per warp 2 M tiles x 2 K steps, and 2 K steps x 2
// pairs of N tiles), not word by word.
// REQUIRES: ptxas
// RUN: terrazzo-compile %s --target=cuda:80 --num-warps=4 --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_80 %t.ptx -o %t.cubin
// CHECK-LABEL: .entry dot_f16(
// CHECK-NOT: ld.shared.b32
// CHECK-COUNT-4: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-NOT: ld.shared.b32
// CHECK-COUNT-4: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// CHECK-NOT: ld.shared.b32
// CHECK-COUNT-16: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-NOT: mma.sync
// CHECK-NOT: fma.rn
// CHECK: ret;
// CHECK-LABEL: .entry dot_bf16(
// CHECK-COUNT-16: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK-NOT: mma.sync
// CHECK: ret;
// CHECK-LABEL: .entry dot_f16_acc(
// CHECK-COUNT-16: mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16
// CHECK-NOT: mma.sync
// CHECK: ret;
// CHECK-LABEL: .entry dot_i8(
// CHECK-COUNT-8: mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32
// CHECK-NOT: mma.sync
// CHECK: ret;

func.func @dot_f16(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %0 = tile.make_range 0 to 64 : tensor<64xi32>
  %1 = tile.make_range 0 to 64 : tensor<64xi32>
  %2 = tile.make_range 0 to 32 : tensor<32xi32>
  %3 = tile.expand_dims %0 axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %4 = arith.constant dense<32> : tensor<64x1xi32>
  %5 = arith.muli %3, %4 : tensor<64x1xi32>
  %6 = tile.splat %arg0 : !tile.ptr<f16> -> tensor<64x1x!tile.ptr<f16>>
  %7 = tile.addptr %6, %5 : tensor<64x1x!tile.ptr<f16>>, tensor<64x1xi32>
  %8 = tile.expand_dims %2 axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %9 = tile.broadcast %7 : tensor<64x1x!tile.ptr<f16>> -> tensor<64x32x!tile.ptr<f16>>
  %10 = tile.broadcast %8 : tensor<1x32xi32> -> tensor<64x32xi32>
  %11 = tile.addptr %9, %10 : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
  %12 = tile.load %11 : tensor<64x32x!tile.ptr<f16>>
  %13 = tile.expand_dims %2 axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %14 = arith.constant dense<64> : tensor<32x1xi32>
  %15 = arith.muli %13, %14 : tensor<32x1xi32>
  %16 = tile.splat %arg1 : !tile.ptr<f16> -> tensor<32x1x!tile.ptr<f16>>
  %17 = tile.addptr %16, %15 : tensor<32x1x!tile.ptr<f16>>, tensor<32x1xi32>
  %18 = tile.expand_dims %1 axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %19 = tile.broadcast %17 : tensor<32x1x!tile.ptr<f16>> -> tensor<32x64x!tile.ptr<f16>>
  %20 = tile.broadcast %18 : tensor<1x64xi32> -> tensor<32x64xi32>
  %21 = tile.addptr %19, %20 : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
  %22 = tile.load %21 : tensor<32x64x!tile.ptr<f16>>
  %23 = arith.constant dense<0.0> : tensor<64x64xf32>
  %24 = tile.dot %12, %22, %23 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  %25 = tile.expand_dims %0 axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %26 = arith.constant dense<64> : tensor<64x1xi32>
  %27 = arith.muli %25, %26 : tensor<64x1xi32>
  %28 = tile.splat %arg2 : !tile.ptr<f32> -> tensor<64x1x!tile.ptr<f32>>
  %29 = tile.addptr %28, %27 : tensor<64x1x!tile.ptr<f32>>, tensor<64x1xi32>
  %30 = tile.expand_dims %1 axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %31 = tile.broadcast %29 : tensor<64x1x!tile.ptr<f32>> -> tensor<64x64x!tile.ptr<f32>>
  %32 = tile.broadcast %30 : tensor<1x64xi32> -> tensor<64x64xi32>
  %33 = tile.addptr %31, %32 : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  tile.store %33, %24 : tensor<64x64x!tile.ptr<f32>>
  return
}

func.func @dot_bf16(%arg0: !tile.ptr<bf16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<bf16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %0 = tile.make_range 0 to 64 : tensor<64xi32>
  %1 = tile.make_range 0 to 64 : tensor<64xi32>
  %2 = tile.make_range 0 to 32 : tensor<32xi32>
  %3 = tile.expand_dims %0 axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %4 = arith.constant dense<32> : tensor<64x1xi32>
  %5 = arith.muli %3, %4 : tensor<64x1xi32>
  %6 = tile.splat %arg0 : !tile.ptr<bf16> -> tensor<64x1x!tile.ptr<bf16>>
  %7 = tile.addptr %6, %5 : tensor<64x1x!tile.ptr<bf16>>, tensor<64x1xi32>
  %8 = tile.expand_dims %2 axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %9 = tile.broadcast %7 : tensor<64x1x!tile.ptr<bf16>> -> tensor<64x32x!tile.ptr<bf16>>
  %10 = tile.broadcast %8 : tensor<1x32xi32> -> tensor<64x32xi32>
  %11 = tile.addptr %9, %10 : tensor<64x32x!tile.ptr<bf16>>, tensor<64x32xi32>
  %12 = tile.load %11 : tensor<64x32x!tile.ptr<bf16>>
  %13 = tile.expand_dims %2 axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %14 = arith.constant dense<64> : tensor<32x1xi32>
  %15 = arith.muli %13, %14 : tensor<32x1xi32>
  %16 = tile.splat %arg1 : !tile.ptr<bf16> -> tensor<32x1x!tile.ptr<bf16>>
  %17 = tile.addptr %16, %15 : tensor<32x1x!tile.ptr<bf16>>, tensor<32x1xi32>
  %18 = tile.expand_dims %1 axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %19 = tile.broadcast %17 : tensor<32x1x!tile.ptr<bf16>> -> tensor<32x64x!tile.ptr<bf16>>
  %20 = tile.broadcast %18 : tensor<1x64xi32> -> tensor<32x64xi32>
  %21 = tile.addptr %19, %20 : tensor<32x64x!tile.ptr<bf16>>, tensor<32x64xi32>
  %22 = tile.load %21 : tensor<32x64x!tile.ptr<bf16>>
  %23 = arith.constant dense<0.0> : tensor<64x64xf32>
  %24 = tile.dot %12, %22, %23 : tensor<64x32xbf16> * tensor<32x64xbf16> -> tensor<64x64xf32>
  %25 = tile.expand_dims %0 axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %26 = arith.constant dense<64> : tensor<64x1xi32>
  %27 = arith.muli %25, %26 : tensor<64x1xi32>
  %28 = tile.splat %arg2 : !tile.ptr<f32> -> tensor<64x1x!tile.ptr<f32>>
  %29 = tile.addptr %28, %27 : tensor<64x1x!tile.ptr<f32>>, tensor<64x1xi32>
  %30 = tile.expand_dims %1 axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %31 = tile.broadcast %29 : tensor<64x1x!tile.ptr<f32>> -> tensor<64x64x!tile.ptr<f32>>
  %32 = tile.broadcast %30 : tensor<1x64xi32> -> tensor<64x64xi32>
  %33 = tile.addptr %31, %32 : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  tile.store %33, %24 : tensor<64x64x!tile.ptr<f32>>
  return
}

func.func @dot_f16_acc(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f16> {tile.divisibility = 16 : i32}) {
  %0 = tile.make_range 0 to 64 : tensor<64xi32>
  %1 = tile.make_range 0 to 64 : tensor<64xi32>
  %2 = tile.make_range 0 to 32 : tensor<32xi32>
  %3 = tile.expand_dims %0 axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %4 = arith.constant dense<32> : tensor<64x1xi32>
  %5 = arith.muli %3, %4 : tensor<64x1xi32>
  %6 = tile.splat %arg0 : !tile.ptr<f16> -> tensor<64x1x!tile.ptr<f16>>
  %7 = tile.addptr %6, %5 : tensor<64x1x!tile.ptr<f16>>, tensor<64x1xi32>
  %8 = tile.expand_dims %2 axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %9 = tile.broadcast %7 : tensor<64x1x!tile.ptr<f16>> -> tensor<64x32x!tile.ptr<f16>>
  %10 = tile.broadcast %8 : tensor<1x32xi32> -> tensor<64x32xi32>
  %11 = tile.addptr %9, %10 : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
  %12 = tile.load %11 : tensor<64x32x!tile.ptr<f16>>
  %13 = tile.expand_dims %2 axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %14 = arith.constant dense<64> : tensor<32x1xi32>
  %15 = arith.muli %13, %14 : tensor<32x1xi32>
  %16 = tile.splat %arg1 : !tile.ptr<f16> -> tensor<32x1x!tile.ptr<f16>>
  %17 = tile.addptr %16, %15 : tensor<32x1x!tile.ptr<f16>>, tensor<32x1xi32>
  %18 = tile.expand_dims %1 axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %19 = tile.broadcast %17 : tensor<32x1x!tile.ptr<f16>> -> tensor<32x64x!tile.ptr<f16>>
  %20 = tile.broadcast %18 : tensor<1x64xi32> -> tensor<32x64xi32>
  %21 = tile.addptr %19, %20 : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
  %22 = tile.load %21 : tensor<32x64x!tile.ptr<f16>>
  %23 = arith.constant dense<0.0> : tensor<64x64xf16>
  %24 = tile.dot %12, %22, %23 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf16>
  %25 = tile.expand_dims %0 axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %26 = arith.constant dense<64> : tensor<64x1xi32>
  %27 = arith.muli %25, %26 : tensor<64x1xi32>
  %28 = tile.splat %arg2 : !tile.ptr<f16> -> tensor<64x1x!tile.ptr<f16>>
  %29 = tile.addptr %28, %27 : tensor<64x1x!tile.ptr<f16>>, tensor<64x1xi32>
  %30 = tile.expand_dims %1 axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %31 = tile.broadcast %29 : tensor<64x1x!tile.ptr<f16>> -> tensor<64x64x!tile.ptr<f16>>
  %32 = tile.broadcast %30 : tensor<1x64xi32> -> tensor<64x64xi32>
  %33 = tile.addptr %31, %32 : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
  tile.store %33, %24 : tensor<64x64x!tile.ptr<f16>>
  return
}

func.func @dot_i8(%arg0: !tile.ptr<i8> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<i8> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<i32> {tile.divisibility = 16 : i32}) {
  %0 = tile.make_range 0 to 64 : tensor<64xi32>
  %1 = tile.make_range 0 to 64 : tensor<64xi32>
  %2 = tile.make_range 0 to 32 : tensor<32xi32>
  %3 = tile.expand_dims %0 axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %4 = arith.constant dense<32> : tensor<64x1xi32>
  %5 = arith.muli %3, %4 : tensor<64x1xi32>
  %6 = tile.splat %arg0 : !tile.ptr<i8> -> tensor<64x1x!tile.ptr<i8>>
  %7 = tile.addptr %6, %5 : tensor<64x1x!tile.ptr<i8>>, tensor<64x1xi32>
  %8 = tile.expand_dims %2 axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %9 = tile.broadcast %7 : tensor<64x1x!tile.ptr<i8>> -> tensor<64x32x!tile.ptr<i8>>
  %10 = tile.broadcast %8 : tensor<1x32xi32> -> tensor<64x32xi32>
  %11 = tile.addptr %9, %10 : tensor<64x32x!tile.ptr<i8>>, tensor<64x32xi32>
  %12 = tile.load %11 : tensor<64x32x!tile.ptr<i8>>
  %13 = tile.expand_dims %2 axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %14 = arith.constant dense<64> : tensor<32x1xi32>
  %15 = arith.muli %13, %14 : tensor<32x1xi32>
  %16 = tile.splat %arg1 : !tile.ptr<i8> -> tensor<32x1x!tile.ptr<i8>>
  %17 = tile.addptr %16, %15 : tensor<32x1x!tile.ptr<i8>>, tensor<32x1xi32>
  %18 = tile.expand_dims %1 axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %19 = tile.broadcast %17 : tensor<32x1x!tile.ptr<i8>> -> tensor<32x64x!tile.ptr<i8>>
  %20 = tile.broadcast %18 : tensor<1x64xi32> -> tensor<32x64xi32>
  %21 = tile.addptr %19, %20 : tensor<32x64x!tile.ptr<i8>>, tensor<32x64xi32>
  %22 = tile.load %21 : tensor<32x64x!tile.ptr<i8>>
  %23 = arith.constant dense<0> : tensor<64x64xi32>
  %24 = tile.dot %12, %22, %23 : tensor<64x32xi8> * tensor<32x64xi8> -> tensor<64x64xi32>
  %25 = tile.expand_dims %0 axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %26 = arith.constant dense<64> : tensor<64x1xi32>
  %27 = arith.muli %25, %26 : tensor<64x1xi32>
  %28 = tile.splat %arg2 : !tile.ptr<i32> -> tensor<64x1x!tile.ptr<i32>>
  %29 = tile.addptr %28, %27 : tensor<64x1x!tile.ptr<i32>>, tensor<64x1xi32>
  %30 = tile.expand_dims %1 axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %31 = tile.broadcast %29 : tensor<64x1x!tile.ptr<i32>> -> tensor<64x64x!tile.ptr<i32>>
  %32 = tile.broadcast %30 : tensor<1x64xi32> -> tensor<64x64xi32>
  %33 = tile.addptr %31, %32 : tensor<64x64x!tile.ptr<i32>>, tensor<64x64xi32>
  tile.store %33, %24 : tensor<64x64x!tile.ptr<i32>>
  return
}
