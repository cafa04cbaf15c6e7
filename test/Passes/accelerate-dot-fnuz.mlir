// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --terrazzo-convert-tile-to-tilegpu="target=cuda:90 num-warps=4" --terrazzo-accelerate-dot -o /dev/null
// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --terrazzo-convert-tile-to-tilegpu="target=cuda:80 num-warps=4" --terrazzo-accelerate-dot -o /dev/null

// The FNUZ fp8 formats are gfx942's: a dot of them is an error at the dot
// on NVIDIA targets (terrazzo-accelerate-dot). AMD chips other than gfx942
// widen them to float16 exactly (accelerate-dot-mfma.mlir).

func.func @fnuz(%a: tensor<64x32xf8E4M3FNUZ>, %b: tensor<32x64xf8E4M3FNUZ>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{'tile.dot' op multiplies 'f8E4M3FNUZ' by 'f8E4M3FNUZ': the FNUZ fp8 formats are those of AMD's gfx942}}
  %d = tile.dot %a, %b, %c : tensor<64x32xf8E4M3FNUZ> * tensor<32x64xf8E4M3FNUZ> -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}
