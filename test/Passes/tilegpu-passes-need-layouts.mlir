// The passes that work on layouts reject tile IR (tensors without a layout)
// with a located error instead of crashing on it; the scan kernels of
// test/GPU, tile IR with a few layouts set by hand, crashed
// terrazzo-remove-layout-conversions so.

// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --terrazzo-remove-layout-conversions
// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --terrazzo-coalesce
// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --terrazzo-pipeline
// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --terrazzo-lower-descriptors-to-tma
// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --terrazzo-amd-dot-operands-to-lds
// RUN: not terrazzo-opt %S/../GPU/kernels/scan_linear.mlir --terrazzo-remove-layout-conversions 2>&1 | FileCheck %s --check-prefix=SCAN
// RUN: not terrazzo-opt %S/../GPU/kernels/scan_layouts.mlir --terrazzo-remove-layout-conversions 2>&1 | FileCheck %s --check-prefix=SCAN

// SCAN: error: 'tile.make_range' op has a tensor without a distributed layout, 'tensor<{{.*}}>'; terrazzo-remove-layout-conversions works on tilegpu IR (run terrazzo-convert-tile-to-tilegpu first)

func.func @no_layouts(%p: !tile.ptr<f32>) {
  // expected-error-re @+1 {{'tile.make_range' op has a tensor without a distributed layout, 'tensor<16xi32>'; terrazzo-{{[a-z-]+}} works on tilegpu IR (run terrazzo-convert-tile-to-tilegpu first)}}
  %r = tile.make_range 0 to 16 : tensor<16xi32>
  return
}

// -----

#b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @some_layouts(%x: tensor<16xf32, #b1>) {
  %y = arith.negf %x : tensor<16xf32, #b1>
  // expected-error-re @+1 {{'tile.make_range' op has a tensor without a distributed layout, 'tensor<16xi32>'; terrazzo-{{[a-z-]+}} works on tilegpu IR}}
  %r = tile.make_range 0 to 16 : tensor<16xi32>
  return
}
