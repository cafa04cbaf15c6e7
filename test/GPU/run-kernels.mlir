// Compiles the GPU test kernels for the GPU present and checks their results
// (test/GPU/RunKernels.cpp); needs a CUDA GPU.
// REQUIRES: cuda-gpu
// RUN: run-gpu-kernels %S/../.. | FileCheck %s
// CHECK: {{^[0-9]+}} passed, 0 failed
