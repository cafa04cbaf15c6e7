// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --terrazzo-convert-tile-to-tilegpu="target=cuda:90 num-warps=4" --terrazzo-accelerate-dot -o /dev/null
// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --terrazzo-convert-tile-to-tilegpu="target=cuda:80 num-warps=4" --terrazzo-accelerate-dot -o /dev/null
// RUN: not terrazzo-opt %s --terrazzo-convert-tile-to-tilegpu="target=hip:gfx950 num-warps=4" --terrazzo-accelerate-dot -o /dev/null 2>&1 | FileCheck %s --check-prefix=GFX950
// RUN: not terrazzo-opt %s --terrazzo-convert-tile-to-tilegpu="target=hip:gfx1200 num-warps=4" --terrazzo-accelerate-dot -o /dev/null 2>&1 | FileCheck %s --check-prefix=RDNA

// The FNUZ fp8 formats are gfx942's: a dot of them is an error at the dot
// on every other target (terrazzo-accelerate-dot; accelerate-dot-mfma.mlir
// has gfx942's MFMA for them).
// RDNA (no matrix cores: gfx1200's fp8 is OCP, but it has no MFMA):
// RDNA: error: 'tile.dot' op multiplies 'f8E4M3FNUZ' by 'f8E4M3FNUZ': hip:gfx1200 has no fp8 matrix instructions
// GFX950: error: 'tile.dot' op multiplies 'f8E4M3FNUZ' by 'f8E4M3FNUZ': hip:gfx950 multiplies the OCP fp8 formats (f8E4M3FN, f8E5M2)

func.func @fnuz(%a: tensor<64x32xf8E4M3FNUZ>, %b: tensor<32x64xf8E4M3FNUZ>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{'tile.dot' op multiplies 'f8E4M3FNUZ' by 'f8E4M3FNUZ': the FNUZ fp8 formats are those of AMD's gfx942}}
  %d = tile.dot %a, %b, %c : tensor<64x32xf8E4M3FNUZ> * tensor<32x64xf8E4M3FNUZ> -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}
