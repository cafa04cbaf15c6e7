// The forward kernel of tutorials/06-fused-attention.py (HEAD_DIM = 128,
// BLOCK_M = 128, BLOCK_N = 64, not causal, N_CTX a multiple of BLOCK_N):
// K^T and V read through unmasked pointer loads, K^T with its contiguous
// dimension first. Tile IR as `_attn_fwd.compile(..., stage="tile")`
// gives it for 8 warps (Target/ptx-attention-tma.mlir).
module {
  func.func @_attn_fwd(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg3: f32, %arg4: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg5: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg6: i32 {tile.divisibility = 16 : i32, tile.nonnegative}, %arg7: i32 {tile.divisibility = 16 : i32, tile.nonnegative}, %arg8: i32 {tile.divisibility = 16 : i32, tile.nonnegative}, %arg9: i32 {tile.divisibility = 16 : i32, tile.nonnegative}, %arg10: i32 {tile.divisibility = 16 : i32, tile.nonnegative}, %arg11: i32 {tile.divisibility = 16 : i32, tile.nonnegative}, %arg12: i32 {tile.divisibility = 16 : i32, tile.nonnegative}, %arg13: i32 {tile.divisibility = 16 : i32, tile.nonnegative}, %arg14: i32 {tile.divisibility = 16 : i32, tile.nonnegative}, %arg15: i32 {tile.divisibility = 16 : i32, tile.nonnegative}, %arg16: i32 {tile.divisibility = 16 : i32, tile.nonnegative}, %arg17: i32 {tile.divisibility = 16 : i32, tile.nonnegative}, %arg18: i32 {tile.nonnegative}, %arg19: i32 {tile.divisibility = 16 : i32, tile.nonnegative}) {
    %c0_i32 = arith.constant 0 : i32
    %c64_i32 = arith.constant 64 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
    %cst_0 = arith.constant dense<0xFF800000> : tensor<128xf32>
    %cst_1 = arith.constant 1.44269502 : f32
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %cst_3 = arith.constant dense<0.000000e+00> : tensor<128xf32>
    %cst_4 = arith.constant dense<0.000000e+00> : tensor<128x128xf16>
    %c128_i32 = arith.constant 128 : i32
    %0 = tile.program_id x : i32
    %1 = tile.program_id y : i32
    %2 = arith.divsi %1, %arg18 : i32
    %3 = arith.remsi %1, %arg18 : i32
    %4 = arith.muli %2, %arg6 : i32
    %5 = arith.muli %3, %arg7 : i32
    %6 = arith.addi %4, %5 : i32
    %7 = tile.addptr %arg0, %6 : !tile.ptr<f16>, i32
    %8 = arith.muli %2, %arg9 : i32
    %9 = arith.muli %3, %arg10 : i32
    %10 = arith.addi %8, %9 : i32
    %11 = tile.addptr %arg1, %10 : !tile.ptr<f16>, i32
    %12 = arith.muli %2, %arg12 : i32
    %13 = arith.muli %3, %arg13 : i32
    %14 = arith.addi %12, %13 : i32
    %15 = tile.addptr %arg2, %14 : !tile.ptr<f16>, i32
    %16 = arith.muli %2, %arg15 : i32
    %17 = arith.muli %3, %arg16 : i32
    %18 = arith.addi %16, %17 : i32
    %19 = tile.addptr %arg5, %18 : !tile.ptr<f16>, i32
    %20 = arith.muli %0, %c128_i32 : i32
    %21 = tile.make_range 0 to 128 : tensor<128xi32>
    %22 = tile.splat %20 : i32 -> tensor<128xi32>
    %23 = arith.addi %22, %21 : tensor<128xi32>
    %24 = tile.splat %arg19 : i32 -> tensor<128xi32>
    %25 = arith.cmpi slt, %23, %24 : tensor<128xi32>
    %26 = tile.expand_dims %23 axis = 1 : tensor<128xi32> -> tensor<128x1xi32>
    %27 = tile.splat %arg8 : i32 -> tensor<128x1xi32>
    %28 = arith.muli %26, %27 : tensor<128x1xi32>
    %29 = tile.splat %7 : !tile.ptr<f16> -> tensor<128x1x!tile.ptr<f16>>
    %30 = tile.addptr %29, %28 : tensor<128x1x!tile.ptr<f16>>, tensor<128x1xi32>
    %31 = tile.expand_dims %21 axis = 0 : tensor<128xi32> -> tensor<1x128xi32>
    %32 = tile.broadcast %30 : tensor<128x1x!tile.ptr<f16>> -> tensor<128x128x!tile.ptr<f16>>
    %33 = tile.broadcast %31 : tensor<1x128xi32> -> tensor<128x128xi32>
    %34 = tile.addptr %32, %33 : tensor<128x128x!tile.ptr<f16>>, tensor<128x128xi32>
    %35 = tile.expand_dims %25 axis = 1 : tensor<128xi1> -> tensor<128x1xi1>
    %36 = tile.broadcast %35 : tensor<128x1xi1> -> tensor<128x128xi1>
    %37 = tile.load %34, %36, %cst_4 : tensor<128x128x!tile.ptr<f16>>
    %38 = arith.mulf %arg3, %cst_1 : f32
    %39 = tile.make_range 0 to 64 : tensor<64xi32>
    %40 = tile.splat %arg11 : i32 -> tensor<1x64xi32>
    %41 = tile.splat %11 : !tile.ptr<f16> -> tensor<1x64x!tile.ptr<f16>>
    %42 = tile.expand_dims %21 axis = 1 : tensor<128xi32> -> tensor<128x1xi32>
    %43 = tile.broadcast %42 : tensor<128x1xi32> -> tensor<128x64xi32>
    %44 = tile.splat %38 : f32 -> tensor<128x64xf32>
    %45 = tile.splat %arg14 : i32 -> tensor<64x1xi32>
    %46 = tile.splat %15 : !tile.ptr<f16> -> tensor<64x1x!tile.ptr<f16>>
    %47 = tile.broadcast %31 : tensor<1x128xi32> -> tensor<64x128xi32>
    %48:3 = scf.for %arg20 = %c0_i32 to %arg19 step %c64_i32 iter_args(%arg21 = %cst_2, %arg22 = %cst_3, %arg23 = %cst_0) -> (tensor<128x128xf32>, tensor<128xf32>, tensor<128xf32>)  : i32 {
      %65 = tile.splat %arg20 : i32 -> tensor<64xi32>
      %66 = arith.addi %65, %39 : tensor<64xi32>
      %67 = tile.expand_dims %66 axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
      %68 = arith.muli %67, %40 : tensor<1x64xi32>
      %69 = tile.addptr %41, %68 : tensor<1x64x!tile.ptr<f16>>, tensor<1x64xi32>
      %70 = tile.broadcast %69 : tensor<1x64x!tile.ptr<f16>> -> tensor<128x64x!tile.ptr<f16>>
      %71 = tile.addptr %70, %43 : tensor<128x64x!tile.ptr<f16>>, tensor<128x64xi32>
      %72 = tile.load %71 : tensor<128x64x!tile.ptr<f16>>
      %73 = tile.dot %37, %72, %cst : tensor<128x128xf16> * tensor<128x64xf16> -> tensor<128x64xf32>
      %74 = arith.mulf %73, %44 : tensor<128x64xf32>
      %75 = tile.reduce(%74) axis = 1 : (tensor<128x64xf32>) -> tensor<128xf32> {
      ^bb0(%arg24: f32, %arg25: f32):
        %97 = arith.maxnumf %arg24, %arg25 : f32
        tile.reduce.return %97 : f32
      }
      %76 = arith.maxnumf %arg23, %75 : tensor<128xf32>
      %77 = tile.expand_dims %76 axis = 1 : tensor<128xf32> -> tensor<128x1xf32>
      %78 = tile.broadcast %77 : tensor<128x1xf32> -> tensor<128x64xf32>
      %79 = arith.subf %74, %78 : tensor<128x64xf32>
      %80 = math.exp2 %79 : tensor<128x64xf32>
      %81 = arith.subf %arg23, %76 : tensor<128xf32>
      %82 = math.exp2 %81 : tensor<128xf32>
      %83 = arith.mulf %arg22, %82 : tensor<128xf32>
      %84 = tile.reduce(%80) axis = 1 : (tensor<128x64xf32>) -> tensor<128xf32> {
      ^bb0(%arg24: f32, %arg25: f32):
        %97 = arith.addf %arg24, %arg25 : f32
        tile.reduce.return %97 : f32
      }
      %85 = arith.addf %83, %84 : tensor<128xf32>
      %86 = tile.expand_dims %82 axis = 1 : tensor<128xf32> -> tensor<128x1xf32>
      %87 = tile.broadcast %86 : tensor<128x1xf32> -> tensor<128x128xf32>
      %88 = arith.mulf %arg21, %87 : tensor<128x128xf32>
      %89 = tile.expand_dims %66 axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
      %90 = arith.muli %89, %45 : tensor<64x1xi32>
      %91 = tile.addptr %46, %90 : tensor<64x1x!tile.ptr<f16>>, tensor<64x1xi32>
      %92 = tile.broadcast %91 : tensor<64x1x!tile.ptr<f16>> -> tensor<64x128x!tile.ptr<f16>>
      %93 = tile.addptr %92, %47 : tensor<64x128x!tile.ptr<f16>>, tensor<64x128xi32>
      %94 = tile.load %93 : tensor<64x128x!tile.ptr<f16>>
      %95 = arith.truncf %80 : tensor<128x64xf32> to tensor<128x64xf16>
      %96 = tile.dot %95, %94, %88 : tensor<128x64xf16> * tensor<64x128xf16> -> tensor<128x128xf32>
      scf.yield %96, %85, %76 : tensor<128x128xf32>, tensor<128xf32>, tensor<128xf32>
    }
    %49 = arith.muli %1, %arg19 : i32
    %50 = tile.addptr %arg4, %49 : !tile.ptr<f32>, i32
    %51 = tile.splat %50 : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
    %52 = tile.addptr %51, %23 : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
    %53 = math.log2 %48#1 : tensor<128xf32>
    %54 = arith.addf %48#2, %53 : tensor<128xf32>
    tile.store %52, %54, %25 : tensor<128x!tile.ptr<f32>>
    %55 = tile.expand_dims %48#1 axis = 1 : tensor<128xf32> -> tensor<128x1xf32>
    %56 = tile.broadcast %55 : tensor<128x1xf32> -> tensor<128x128xf32>
    %57 = arith.divf %48#0, %56 fastmath<afn> : tensor<128x128xf32>
    %58 = tile.splat %arg17 : i32 -> tensor<128x1xi32>
    %59 = arith.muli %26, %58 : tensor<128x1xi32>
    %60 = tile.splat %19 : !tile.ptr<f16> -> tensor<128x1x!tile.ptr<f16>>
    %61 = tile.addptr %60, %59 : tensor<128x1x!tile.ptr<f16>>, tensor<128x1xi32>
    %62 = tile.broadcast %61 : tensor<128x1x!tile.ptr<f16>> -> tensor<128x128x!tile.ptr<f16>>
    %63 = tile.addptr %62, %33 : tensor<128x128x!tile.ptr<f16>>, tensor<128x128xi32>
    %64 = arith.truncf %57 : tensor<128x128xf32> to tensor<128x128xf16>
    tile.store %63, %64, %36 : tensor<128x128x!tile.ptr<f16>>
    return
  }
}

