// The forward kernel of python/test/test_attention.py (Triton tutorial
// 06's shape: a loop over K and V blocks, QK^T by tile.dot, an online
// softmax with exp2, the output accumulated by a second dot of P in
// float16), causal (the blocks left of the diagonal, then the diagonal
// block with its mask from aranges), HEAD_DIM = 64, BLOCK_M = 128,
// BLOCK_N = 64, N_CTX a multiple of the blocks. Tile IR as the frontend
// generates it (attn_fwd.ir(...), as TERRAZZO_DUMP_IR writes it), locations
// dropped.
func.func private @_attn_fwd_inner__128x64xfp32_128xfp32_128xfp32_12_7a591faf(%arg0: tensor<128x64xf32>, %arg1: tensor<128xf32>, %arg2: tensor<128xf32>, %arg3: tensor<128x64xf16>, %arg4: tensor<64x64x!tile.ptr<f16>>, %arg5: tensor<64x64x!tile.ptr<f16>>, %arg6: i32, %arg7: f32, %arg8: i32, %arg9: tensor<128xi32>, %arg10: tensor<64xi32>) -> (tensor<128x64xf32>, tensor<128xf32>, tensor<128xf32>) {
  %59 = arith.constant 128 : i32
  %60 = arith.muli %arg6, %59 : i32
  %61 = arith.constant 0 : i32
  %62 = arith.constant 64 : i32
  %148:3 = scf.for %104 = %61 to %60 step %62 iter_args(%105 = %arg0, %106 = %arg1, %107 = %arg2) -> (tensor<128x64xf32>, tensor<128xf32>, tensor<128xf32>) : i32 {
    %108 = tile.splat %104 : i32 -> tensor<64xi32>
    %109 = arith.addi %108, %arg10 : tensor<64xi32>
    %110 = arith.constant 64 : i32
    %111 = arith.muli %104, %110 : i32
    %112 = tile.splat %111 : i32 -> tensor<64x64xi32>
    %113 = tile.addptr %arg4, %112 : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
    %114 = tile.load %113 : tensor<64x64x!tile.ptr<f16>>
    %115 = arith.constant 64 : i32
    %116 = arith.muli %104, %115 : i32
    %117 = tile.splat %116 : i32 -> tensor<64x64xi32>
    %118 = tile.addptr %arg5, %117 : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
    %119 = tile.load %118 : tensor<64x64x!tile.ptr<f16>>
    %120 = arith.constant dense<0.0> : tensor<128x64xf32>
    %121 = tile.dot %arg3, %114, %120 : tensor<128x64xf16> * tensor<64x64xf16> -> tensor<128x64xf32>
    %125 = tile.reduce(%121) axis = 1 : (tensor<128x64xf32>) -> tensor<128xf32> {
    ^bb0(%122: f32, %123: f32):
      %124 = arith.maxnumf %122, %123 : f32
      tile.reduce.return %124 : f32
    }
    %126 = tile.splat %arg7 : f32 -> tensor<128xf32>
    %127 = arith.mulf %125, %126 : tensor<128xf32>
    %128 = arith.maxnumf %107, %127 : tensor<128xf32>
    %129 = tile.splat %arg7 : f32 -> tensor<128x64xf32>
    %130 = arith.mulf %121, %129 : tensor<128x64xf32>
    %131 = tile.expand_dims %128 axis = 1 : tensor<128xf32> -> tensor<128x1xf32>
    %132 = tile.broadcast %131 : tensor<128x1xf32> -> tensor<128x64xf32>
    %133 = arith.subf %130, %132 : tensor<128x64xf32>
    %134 = math.exp2 %133 : tensor<128x64xf32>
    %138 = tile.reduce(%134) axis = 1 : (tensor<128x64xf32>) -> tensor<128xf32> {
    ^bb0(%135: f32, %136: f32):
      %137 = arith.addf %135, %136 : f32
      tile.reduce.return %137 : f32
    }
    %139 = arith.subf %107, %128 : tensor<128xf32>
    %140 = math.exp2 %139 : tensor<128xf32>
    %141 = arith.mulf %106, %140 : tensor<128xf32>
    %142 = arith.addf %141, %138 : tensor<128xf32>
    %143 = tile.expand_dims %140 axis = 1 : tensor<128xf32> -> tensor<128x1xf32>
    %144 = tile.broadcast %143 : tensor<128x1xf32> -> tensor<128x64xf32>
    %145 = arith.mulf %105, %144 : tensor<128x64xf32>
    %146 = arith.truncf %134 : tensor<128x64xf32> to tensor<128x64xf16>
    %147 = tile.dot %146, %119, %145 : tensor<128x64xf16> * tensor<64x64xf16> -> tensor<128x64xf32>
    scf.yield %147, %142, %128 : tensor<128x64xf32>, tensor<128xf32>, tensor<128xf32>
  }
  return %148#0, %148#1, %148#2 : tensor<128x64xf32>, tensor<128xf32>, tensor<128xf32>
}
func.func private @_attn_fwd_inner__128x64xfp32_128xfp32_128xfp32_12_a22138d4(%arg0: tensor<128x64xf32>, %arg1: tensor<128xf32>, %arg2: tensor<128xf32>, %arg3: tensor<128x64xf16>, %arg4: tensor<64x64x!tile.ptr<f16>>, %arg5: tensor<64x64x!tile.ptr<f16>>, %arg6: i32, %arg7: f32, %arg8: i32, %arg9: tensor<128xi32>, %arg10: tensor<64xi32>) -> (tensor<128x64xf32>, tensor<128xf32>, tensor<128xf32>) {
  %150 = arith.constant 128 : i32
  %151 = arith.muli %arg6, %150 : i32
  %152 = arith.constant 1 : i32
  %153 = arith.addi %arg6, %152 : i32
  %154 = arith.constant 128 : i32
  %155 = arith.muli %153, %154 : i32
  %156 = arith.constant 64 : i32
  %260:3 = scf.for %207 = %151 to %155 step %156 iter_args(%208 = %arg0, %209 = %arg1, %210 = %arg2) -> (tensor<128x64xf32>, tensor<128xf32>, tensor<128xf32>) : i32 {
    %211 = tile.splat %207 : i32 -> tensor<64xi32>
    %212 = arith.addi %211, %arg10 : tensor<64xi32>
    %213 = arith.constant 64 : i32
    %214 = arith.muli %207, %213 : i32
    %215 = tile.splat %214 : i32 -> tensor<64x64xi32>
    %216 = tile.addptr %arg4, %215 : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
    %217 = tile.load %216 : tensor<64x64x!tile.ptr<f16>>
    %218 = arith.constant 64 : i32
    %219 = arith.muli %207, %218 : i32
    %220 = tile.splat %219 : i32 -> tensor<64x64xi32>
    %221 = tile.addptr %arg5, %220 : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
    %222 = tile.load %221 : tensor<64x64x!tile.ptr<f16>>
    %223 = arith.constant dense<0.0> : tensor<128x64xf32>
    %224 = tile.dot %arg3, %217, %223 : tensor<128x64xf16> * tensor<64x64xf16> -> tensor<128x64xf32>
    %225 = tile.expand_dims %arg9 axis = 1 : tensor<128xi32> -> tensor<128x1xi32>
    %226 = tile.expand_dims %212 axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
    %227 = tile.broadcast %225 : tensor<128x1xi32> -> tensor<128x64xi32>
    %228 = tile.broadcast %226 : tensor<1x64xi32> -> tensor<128x64xi32>
    %229 = arith.cmpi sge, %227, %228 : tensor<128x64xi32>
    %230 = tile.splat %arg7 : f32 -> tensor<128x64xf32>
    %231 = arith.mulf %224, %230 : tensor<128x64xf32>
    %232 = arith.constant 0.0 : f32
    %233 = arith.constant -1000000.0 : f32
    %234 = tile.splat %232 : f32 -> tensor<128x64xf32>
    %235 = tile.splat %233 : f32 -> tensor<128x64xf32>
    %236 = arith.select %229, %234, %235 : tensor<128x64xi1>, tensor<128x64xf32>
    %237 = arith.addf %231, %236 : tensor<128x64xf32>
    %241 = tile.reduce(%237) axis = 1 : (tensor<128x64xf32>) -> tensor<128xf32> {
    ^bb0(%238: f32, %239: f32):
      %240 = arith.maxnumf %238, %239 : f32
      tile.reduce.return %240 : f32
    }
    %242 = arith.maxnumf %210, %241 : tensor<128xf32>
    %243 = tile.expand_dims %242 axis = 1 : tensor<128xf32> -> tensor<128x1xf32>
    %244 = tile.broadcast %243 : tensor<128x1xf32> -> tensor<128x64xf32>
    %245 = arith.subf %237, %244 : tensor<128x64xf32>
    %246 = math.exp2 %245 : tensor<128x64xf32>
    %250 = tile.reduce(%246) axis = 1 : (tensor<128x64xf32>) -> tensor<128xf32> {
    ^bb0(%247: f32, %248: f32):
      %249 = arith.addf %247, %248 : f32
      tile.reduce.return %249 : f32
    }
    %251 = arith.subf %210, %242 : tensor<128xf32>
    %252 = math.exp2 %251 : tensor<128xf32>
    %253 = arith.mulf %209, %252 : tensor<128xf32>
    %254 = arith.addf %253, %250 : tensor<128xf32>
    %255 = tile.expand_dims %252 axis = 1 : tensor<128xf32> -> tensor<128x1xf32>
    %256 = tile.broadcast %255 : tensor<128x1xf32> -> tensor<128x64xf32>
    %257 = arith.mulf %208, %256 : tensor<128x64xf32>
    %258 = arith.truncf %246 : tensor<128x64xf32> to tensor<128x64xf16>
    %259 = tile.dot %258, %222, %257 : tensor<128x64xf16> * tensor<64x64xf16> -> tensor<128x64xf32>
    scf.yield %259, %254, %242 : tensor<128x64xf32>, tensor<128xf32>, tensor<128xf32>
  }
  return %260#0, %260#1, %260#2 : tensor<128x64xf32>, tensor<128xf32>, tensor<128xf32>
}
func.func @attn_fwd(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg3: f32, %arg4: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg5: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg6: i32 {tile.divisibility = 16 : i32, tile.nonnegative}) {
  %0 = tile.program_id x : i32
  %1 = tile.program_id y : i32
  %2 = arith.extsi %1 : i32 to i64
  %3 = arith.extsi %arg6 : i32 to i64
  %4 = arith.muli %2, %3 : i64
  %5 = arith.constant 64 : i64
  %6 = arith.muli %4, %5 : i64
  %7 = arith.constant 128 : i32
  %8 = arith.muli %0, %7 : i32
  %9 = tile.make_range 0 to 128 : tensor<128xi32>
  %10 = tile.splat %8 : i32 -> tensor<128xi32>
  %11 = arith.addi %10, %9 : tensor<128xi32>
  %12 = tile.make_range 0 to 64 : tensor<64xi32>
  %13 = tile.make_range 0 to 64 : tensor<64xi32>
  %14 = tile.addptr %arg0, %6 : !tile.ptr<f16>, i64
  %15 = tile.expand_dims %11 axis = 1 : tensor<128xi32> -> tensor<128x1xi32>
  %16 = arith.constant dense<64> : tensor<128x1xi32>
  %17 = arith.muli %15, %16 : tensor<128x1xi32>
  %18 = tile.splat %14 : !tile.ptr<f16> -> tensor<128x1x!tile.ptr<f16>>
  %19 = tile.addptr %18, %17 : tensor<128x1x!tile.ptr<f16>>, tensor<128x1xi32>
  %20 = tile.expand_dims %13 axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %21 = tile.broadcast %19 : tensor<128x1x!tile.ptr<f16>> -> tensor<128x64x!tile.ptr<f16>>
  %22 = tile.broadcast %20 : tensor<1x64xi32> -> tensor<128x64xi32>
  %23 = tile.addptr %21, %22 : tensor<128x64x!tile.ptr<f16>>, tensor<128x64xi32>
  %24 = tile.addptr %arg1, %6 : !tile.ptr<f16>, i64
  %25 = tile.expand_dims %12 axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %26 = arith.constant dense<64> : tensor<1x64xi32>
  %27 = arith.muli %25, %26 : tensor<1x64xi32>
  %28 = tile.splat %24 : !tile.ptr<f16> -> tensor<1x64x!tile.ptr<f16>>
  %29 = tile.addptr %28, %27 : tensor<1x64x!tile.ptr<f16>>, tensor<1x64xi32>
  %30 = tile.expand_dims %13 axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %31 = tile.broadcast %29 : tensor<1x64x!tile.ptr<f16>> -> tensor<64x64x!tile.ptr<f16>>
  %32 = tile.broadcast %30 : tensor<64x1xi32> -> tensor<64x64xi32>
  %33 = tile.addptr %31, %32 : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
  %34 = tile.addptr %arg2, %6 : !tile.ptr<f16>, i64
  %35 = tile.expand_dims %12 axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %36 = arith.constant dense<64> : tensor<64x1xi32>
  %37 = arith.muli %35, %36 : tensor<64x1xi32>
  %38 = tile.splat %34 : !tile.ptr<f16> -> tensor<64x1x!tile.ptr<f16>>
  %39 = tile.addptr %38, %37 : tensor<64x1x!tile.ptr<f16>>, tensor<64x1xi32>
  %40 = tile.expand_dims %13 axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %41 = tile.broadcast %39 : tensor<64x1x!tile.ptr<f16>> -> tensor<64x64x!tile.ptr<f16>>
  %42 = tile.broadcast %40 : tensor<1x64xi32> -> tensor<64x64xi32>
  %43 = tile.addptr %41, %42 : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
  %44 = arith.constant dense<0.0> : tensor<128xf32>
  %45 = arith.constant dense<0x7F800000> : tensor<128xf32>
  %46 = arith.subf %44, %45 : tensor<128xf32>
  %47 = arith.constant dense<0.0> : tensor<128xf32>
  %48 = arith.constant dense<1.0> : tensor<128xf32>
  %49 = arith.addf %47, %48 : tensor<128xf32>
  %50 = arith.constant dense<0.0> : tensor<128x64xf32>
  %51 = arith.constant 1.4426950216293335 : f32
  %52 = arith.mulf %arg3, %51 : f32
  %53 = tile.expand_dims %11 axis = 1 : tensor<128xi32> -> tensor<128x1xi32>
  %54 = tile.splat %arg6 : i32 -> tensor<128x1xi32>
  %55 = arith.cmpi slt, %53, %54 : tensor<128x1xi32>
  %56 = tile.broadcast %55 : tensor<128x1xi1> -> tensor<128x64xi1>
  %57 = arith.constant dense<0.0> : tensor<128x64xf16>
  %58 = tile.load %23, %56, %57 : tensor<128x64x!tile.ptr<f16>>
  %149:3 = func.call @_attn_fwd_inner__128x64xfp32_128xfp32_128xfp32_12_7a591faf(%50, %49, %46, %58, %33, %43, %0, %52, %arg6, %11, %12) : (tensor<128x64xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128x64xf16>, tensor<64x64x!tile.ptr<f16>>, tensor<64x64x!tile.ptr<f16>>, i32, f32, i32, tensor<128xi32>, tensor<64xi32>) -> (tensor<128x64xf32>, tensor<128xf32>, tensor<128xf32>)
  %261:3 = func.call @_attn_fwd_inner__128x64xfp32_128xfp32_128xfp32_12_a22138d4(%149#0, %149#1, %149#2, %58, %33, %43, %0, %52, %arg6, %11, %12) : (tensor<128x64xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128x64xf16>, tensor<64x64x!tile.ptr<f16>>, tensor<64x64x!tile.ptr<f16>>, i32, f32, i32, tensor<128xi32>, tensor<64xi32>) -> (tensor<128x64xf32>, tensor<128xf32>, tensor<128xf32>)
  %262 = math.log2 %261#1 : tensor<128xf32>
  %263 = arith.addf %261#2, %262 : tensor<128xf32>
  %264 = tile.expand_dims %261#1 axis = 1 : tensor<128xf32> -> tensor<128x1xf32>
  %265 = tile.broadcast %264 : tensor<128x1xf32> -> tensor<128x64xf32>
  %266 = arith.divf %261#0, %265 fastmath<afn> : tensor<128x64xf32>
  %267 = tile.splat %arg6 : i32 -> tensor<128xi32>
  %268 = arith.cmpi slt, %11, %267 : tensor<128xi32>
  %269 = arith.muli %1, %arg6 : i32
  %270 = tile.addptr %arg4, %269 : !tile.ptr<f32>, i32
  %271 = tile.splat %270 : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %272 = tile.addptr %271, %11 : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  tile.store %272, %263, %268 : tensor<128x!tile.ptr<f32>>
  %273 = tile.addptr %arg5, %6 : !tile.ptr<f16>, i64
  %274 = tile.expand_dims %11 axis = 1 : tensor<128xi32> -> tensor<128x1xi32>
  %275 = arith.constant dense<64> : tensor<128x1xi32>
  %276 = arith.muli %274, %275 : tensor<128x1xi32>
  %277 = tile.splat %273 : !tile.ptr<f16> -> tensor<128x1x!tile.ptr<f16>>
  %278 = tile.addptr %277, %276 : tensor<128x1x!tile.ptr<f16>>, tensor<128x1xi32>
  %279 = tile.expand_dims %13 axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %280 = tile.broadcast %278 : tensor<128x1x!tile.ptr<f16>> -> tensor<128x64x!tile.ptr<f16>>
  %281 = tile.broadcast %279 : tensor<1x64xi32> -> tensor<128x64xi32>
  %282 = tile.addptr %280, %281 : tensor<128x64x!tile.ptr<f16>>, tensor<128x64xi32>
  %283 = arith.truncf %266 : tensor<128x64xf32> to tensor<128x64xf16>
  %284 = tile.expand_dims %268 axis = 1 : tensor<128xi1> -> tensor<128x1xi1>
  %285 = tile.broadcast %284 : tensor<128x1xi1> -> tensor<128x64xi1>
  tile.store %282, %283, %285 : tensor<128x64x!tile.ptr<f16>>
  return
}
