// The pass pipeline schedules the NVIDIA backend's passes (tf32x3
// decomposition, cp.async/TMA pipelining, loads to tensor descriptors) for
// cuda targets only; hip targets get the common passes and AMD's hooks:
// MFMA operands through swizzled LDS, then the pipeliner's register-prefetch
// form.
// RUN: terrazzo-opt %s --terrazzo-tile-pipeline=target=hip:gfx942 --terrazzo-tilegpu-pipeline=target=hip:gfx942 --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=HIP
// RUN: terrazzo-opt %s --terrazzo-tile-pipeline=target=cuda:90 --terrazzo-tilegpu-pipeline=target=cuda:90 --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=CUDA
// HIP: terrazzo-convert-tile-to-tilegpu{num-warps=4 target=hip:gfx942 threads-per-warp=0}
// HIP-NOT: terrazzo-decompose-tf32x3
// HIP-NOT: terrazzo-loads-to-descriptors
// HIP-NOT: terrazzo-lower-descriptors-to-tma
// HIP: terrazzo-accelerate-dot
// HIP: terrazzo-amd-dot-operands-to-lds
// HIP-NEXT: terrazzo-pipeline{num-stages=3 ping-pong=auto registers=true rotate-one-warp-group=false}
// CUDA: terrazzo-loads-to-descriptors
// CUDA: terrazzo-decompose-tf32x3
// CUDA: terrazzo-accelerate-dot
// CUDA-NOT: terrazzo-amd-dot-operands-to-lds
// CUDA: terrazzo-pipeline{num-stages=3 ping-pong=auto registers=false rotate-one-warp-group=false}
func.func @empty() {
  return
}
