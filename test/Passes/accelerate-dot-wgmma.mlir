// RUN: terrazzo-opt %s -split-input-file --terrazzo-convert-tile-to-tilegpu="target=cuda:90 num-warps=4" --terrazzo-accelerate-dot | FileCheck %s
// RUN: terrazzo-opt %s -split-input-file --terrazzo-convert-tile-to-tilegpu="target=cuda:90 num-warps=8" --terrazzo-accelerate-dot | FileCheck %s --check-prefix=W8
// RUN: terrazzo-opt %s -split-input-file --terrazzo-convert-tile-to-tilegpu="target=cuda:90 num-warps=1" --terrazzo-accelerate-dot | FileCheck %s --check-prefix=W1
// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --terrazzo-convert-tile-to-tilegpu="target=cuda:80 num-warps=4" --terrazzo-accelerate-dot | FileCheck %s --check-prefix=SM80

// On sm_90a, dots that wgmma computes (float32 results from float16,
// bfloat16, tf32 or fp8 operands; M a multiple of 64; warps a multiple of
// 4) store their operands into shared memory (local_alloc in nvmma_shared
// layouts) and accumulate in nvidia_mma version 3; warp groups go along M
// first. Elsewhere (1 warp, sm_80) mma.sync's layouts stay. fp8 dots that
// wgmma does not take are computed on float16 operands converted from fp8;
// sm_80 cannot convert fp8 (the expected-errors are the sm_80 run's).

// float16, 64 x 64 x 64: one 128-byte swizzle row per row of A (K = 64
// float16) and of B (N = 64 float16, N-major: the loads hold N
// contiguously); 4 warps: one warp group, N = 64 in one instruction. At 8
// warps the second warp group goes along N (M has one 64-row tile): two
// instructions of N = 32, B's rows narrowed to 64 bytes so that each
// starts at a swizzle row.
// CHECK: #[[S:.+]] = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: func.func @f16
// CHECK: %[[A:.+]] = tilegpu.local_alloc %arg0 {{.*}}-> !tilegpu.memdesc<64x64xf16, #[[S]]>
// CHECK: %[[B:.+]] = tilegpu.local_alloc %arg1 {{.*}}-> !tilegpu.memdesc<64x64xf16, #[[S]]>
// CHECK: %[[C:.+]] = tilegpu.convert_layout %{{.+}} -> tensor<64x64xf32, #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>>
// CHECK: %[[D:.+]] = tilegpu.warp_group_dot %[[A]], %[[B]], %[[C]]
// CHECK: tilegpu.convert_layout %[[D]]
// CHECK-NOT: tile.dot
// W8-DAG: #[[S128:.+]] = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// W8-DAG: #[[S64:.+]] = #tilegpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
// W8-LABEL: func.func @f16
// W8: tilegpu.local_alloc %arg0 {{.*}}#[[S128]]>
// W8: tilegpu.local_alloc %arg1 {{.*}}#[[S64]]>
// W8: tilegpu.warp_group_dot {{.*}} -> tensor<64x64xf32, #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 2], instrShape = [16, 32, 16]}>>
// W1-LABEL: func.func @f16
// W1-NOT: local_alloc
// W1: tile.dot {{.*}}versionMajor = 2
// SM80-LABEL: func.func @f16
// SM80-NOT: local_alloc
// SM80: tile.dot {{.*}}versionMajor = 2
func.func @f16(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %d = tile.dot %a, %b, %c : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}

// -----

// 128 x 64 x 32: K = 32 float16 fills 64-byte rows; at 8 warps the two
// warp groups take one 64-row tile each.
// CHECK: #[[S:.+]] = #tilegpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: func.func @tall
// CHECK: tilegpu.local_alloc {{.*}}-> !tilegpu.memdesc<128x32xf16, #[[S]]>
// CHECK: tilegpu.warp_group_dot {{.*}}warpsPerCTA = [4, 1], instrShape = [16, 64, 16]
// W8-LABEL: func.func @tall
// W8: tilegpu.warp_group_dot {{.*}}warpsPerCTA = [8, 1], instrShape = [16, 64, 16]
func.func @tall(%a: tensor<128x32xf16>, %b: tensor<32x64xf16>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %d = tile.dot %a, %b, %c : tensor<128x32xf16> * tensor<32x64xf16> -> tensor<128x64xf32>
  return %d : tensor<128x64xf32>
}

// -----

// tf32 and fp8: B must be K-major (transposed = true, K contiguous).
// CHECK-DAG: #[[T0:.+]] = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
// CHECK-DAG: #[[T1:.+]] = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 32}>
// CHECK-DAG: #[[E0:.+]] = #tilegpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
// CHECK-DAG: #[[E1:.+]] = #tilegpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>
// CHECK-LABEL: func.func @tf32
// CHECK: tilegpu.local_alloc {{.*}}-> !tilegpu.memdesc<64x32xf32, #[[T0]]>
// CHECK: tilegpu.local_alloc {{.*}}-> !tilegpu.memdesc<32x64xf32, #[[T1]]>
// CHECK: tilegpu.warp_group_dot {{.*}} precision = tf32 {{.*}}instrShape = [16, 64, 8]
// CHECK-LABEL: func.func @fp8
// CHECK: tilegpu.local_alloc {{.*}}-> !tilegpu.memdesc<64x64xf8E4M3FN, #[[E0]]>
// CHECK: tilegpu.local_alloc {{.*}}-> !tilegpu.memdesc<64x64xf8E5M2, #[[E1]]>
// CHECK: tilegpu.warp_group_dot {{.*}}instrShape = [16, 64, 32]
func.func @tf32(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %d = tile.dot %a, %b, %c precision = tf32 : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}
func.func @fp8(%a: tensor<64x64xf8E4M3FN>, %b: tensor<64x64xf8E5M2>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{'tile.dot' op multiplies 'f8E4M3FN' by 'f8E5M2': fp8 dots need sm_89 or newer}}
  %d = tile.dot %a, %b, %c : tensor<64x64xf8E4M3FN> * tensor<64x64xf8E5M2> -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}

// -----

// Must not: M below 64, a float16 accumulator and float32 in ieee
// precision keep mma.sync (or FMA) layouts and no shared buffer.
// CHECK-LABEL: func.func @fallbacks
// CHECK-NOT: local_alloc
// CHECK-NOT: warp_group_dot
// CHECK: return
func.func @fallbacks(%a: tensor<32x64xf16>, %b: tensor<64x64xf16>, %c: tensor<32x64xf32>,
                     %c16: tensor<64x64xf16>, %a64: tensor<64x64xf16>,
                     %a32: tensor<64x32xf32>, %b32: tensor<32x64xf32>, %c32: tensor<64x64xf32>) {
  %d = tile.dot %a, %b, %c : tensor<32x64xf16> * tensor<64x64xf16> -> tensor<32x64xf32>
  %d16 = tile.dot %a64, %b, %c16 : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf16>
  %d32 = tile.dot %a32, %b32, %c32 : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
  return
}

// -----

// fp8 operands are read K-major whichever dimension their registers hold
// contiguously (wgmma transposes 16-bit types only). An operand that is the
// transpose of a block is not transposed in registers: the block is stored
// as it is and the dot reads it through memdesc_trans. B from a transpose
// of an N x K block (K contiguous, the column-major B of torch._scaled_mm)
// is the N x K block stored K-major (transposed = false) and read through
// the transposed view; B from the default layout (N contiguous) is stored
// transposed = true; A from a transpose of a K x M block is that block
// stored transposed = true and read as K-major A through the view. The
// buffers are stored from the operands' first layout, not from the FMA
// layouts in between.
// CHECK-DAG: #[[K0:.+]] = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
// CHECK-DAG: #[[K1:.+]] = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 8}>
// CHECK-LABEL: func.func @fp8_k_major_b
// CHECK-DAG: %[[A:.+]] = tilegpu.local_alloc %arg0 {{.*}}-> !tilegpu.memdesc<128x128xf8E4M3FN, #[[K0]]>
// CHECK-DAG: %[[S:.+]] = tilegpu.local_alloc %arg1 {{.*}}-> !tilegpu.memdesc<128x128xf8E4M3FN, #[[K0]]>
// CHECK: %[[B:.+]] = tilegpu.memdesc_trans %[[S]] {{.*}}-> !tilegpu.memdesc<128x128xf8E4M3FN, #[[K1]]>
// CHECK: tilegpu.warp_group_dot %[[A]], %[[B]], {{.*}}warpsPerCTA = [4, 1], instrShape = [16, 128, 32]
// CHECK-NOT: tile.fp_to_fp
// CHECK-LABEL: func.func @fp8_mn_major
// CHECK: %[[S:.+]] = tilegpu.local_alloc %arg0 {{.*}}-> !tilegpu.memdesc<128x128xf8E5M2, #[[K1]]>
// CHECK: %[[A:.+]] = tilegpu.memdesc_trans %[[S]] {{.*}}-> !tilegpu.memdesc<128x128xf8E5M2, #[[K0]]>
// CHECK: %[[B:.+]] = tilegpu.local_alloc %arg1 {{.*}}-> !tilegpu.memdesc<128x128xf8E5M2, #[[K1]]>
// CHECK: tilegpu.warp_group_dot %[[A]], %[[B]]
// W1-LABEL: func.func @fp8_k_major_b
// W1-NOT: local_alloc
// W1: tile.fp_to_fp %{{.+}} : tensor<128x128xf8E4M3FN, {{.+}}> -> tensor<128x128xf16,
// W1: tile.dot {{.*}}versionMajor = 2
func.func @fp8_k_major_b(%a: tensor<128x128xf8E4M3FN>, %bt: tensor<128x128xf8E4M3FN>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %b = tile.trans %bt [1, 0] : tensor<128x128xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
  // expected-error @+1 {{fp8 dots need sm_89 or newer (mma.sync on float16 converted from fp8 there, wgmma on sm_90a), the target is sm_80}}
  %d = tile.dot %a, %b, %c : tensor<128x128xf8E4M3FN> * tensor<128x128xf8E4M3FN> -> tensor<128x128xf32>
  return %d : tensor<128x128xf32>
}
func.func @fp8_mn_major(%at: tensor<128x128xf8E5M2>, %b: tensor<128x128xf8E5M2>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %a = tile.trans %at [1, 0] : tensor<128x128xf8E5M2> -> tensor<128x128xf8E5M2>
  // expected-error @+1 {{fp8 dots need sm_89 or newer}}
  %d = tile.dot %a, %b, %c : tensor<128x128xf8E5M2> * tensor<128x128xf8E5M2> -> tensor<128x128xf32>
  return %d : tensor<128x128xf32>
}

// -----

// Must not take fp8 to wgmma: a float16 accumulator (the wgmma lowering
// keeps float32 ones only) and M = 32 go to mma.sync on float16 operands,
// converted exactly (no rounding mode); K = 16, below one fp8 wgmma's 32,
// goes to wgmma on float16 (K step 16).
// CHECK-LABEL: func.func @fp8_fallbacks
// CHECK: tile.fp_to_fp %arg0 : tensor<64x64xf8E4M3FN, #{{.+}}> -> tensor<64x64xf16, #{{.+}}>
// CHECK: tile.fp_to_fp %arg1 : tensor<64x64xf8E4M3FN, #{{.+}}> -> tensor<64x64xf16, #{{.+}}>
// CHECK: tile.dot {{.*}} -> tensor<64x64xf16, #tilegpu.nvidia_mma<{versionMajor = 2
// CHECK: tile.fp_to_fp %arg3 : tensor<32x64xf8E5M2, #{{.+}}> -> tensor<32x64xf16, #{{.+}}>
// CHECK: tile.fp_to_fp %arg4
// CHECK: tile.dot {{.*}} -> tensor<32x64xf32, #tilegpu.nvidia_mma<{versionMajor = 2
// CHECK: tile.fp_to_fp %arg6
// CHECK: tile.fp_to_fp %arg7
// CHECK: tilegpu.local_alloc {{.*}}-> !tilegpu.memdesc<64x16xf16,
// CHECK: tilegpu.local_alloc {{.*}}-> !tilegpu.memdesc<16x64xf16,
// CHECK: tilegpu.warp_group_dot {{.*}}instrShape = [16, 64, 16]
// CHECK-NOT: tile.dot
func.func @fp8_fallbacks(%a: tensor<64x64xf8E4M3FN>, %b: tensor<64x64xf8E4M3FN>, %c16: tensor<64x64xf16>,
                         %a32: tensor<32x64xf8E5M2>, %b32: tensor<64x64xf8E5M2>, %c32: tensor<32x64xf32>,
                         %ak: tensor<64x16xf8E4M3FN>, %bk: tensor<16x64xf8E5M2>, %ck: tensor<64x64xf32>) -> (tensor<64x64xf16>, tensor<32x64xf32>, tensor<64x64xf32>) {
  // expected-error @+1 {{fp8 dots need sm_89 or newer}}
  %d16 = tile.dot %a, %b, %c16 : tensor<64x64xf8E4M3FN> * tensor<64x64xf8E4M3FN> -> tensor<64x64xf16>
  // expected-error @+1 {{fp8 dots need sm_89 or newer}}
  %d32 = tile.dot %a32, %b32, %c32 : tensor<32x64xf8E5M2> * tensor<64x64xf8E5M2> -> tensor<32x64xf32>
  // expected-error @+1 {{fp8 dots need sm_89 or newer}}
  %dk = tile.dot %ak, %bk, %ck : tensor<64x16xf8E4M3FN> * tensor<16x64xf8E5M2> -> tensor<64x64xf32>
  return %d16, %d32, %dk : tensor<64x64xf16>, tensor<32x64xf32>, tensor<64x64xf32>
}

// -----

// A chain of dots (attention's P V with P = exp2(Q K^T - max)): the second
// dot's float16 A is computed from the first dot's result, so it stays in
// registers, in the dot-operand layout of A whose parent is the second
// dot's accumulator layout; B is stored into shared memory. The first
// dot's zero accumulator is not read (use_c = false, no registers to
// clear). At 8 warps with M = 64 the two warp groups would split N, each
// then needing all of P, which the first dot spread over both: P goes
// through shared memory as before.
// CHECK-LABEL: func.func @chain
// CHECK: %[[Q:.+]] = tilegpu.local_alloc %arg0
// CHECK: %[[K:.+]] = tilegpu.local_alloc %arg1
// CHECK: %[[NOC:.+]] = ub.poison : tensor<64x64xf32, #[[MMA:tilegpu.nvidia_mma<\{versionMajor = 3, warpsPerCTA = \[4, 1\], instrShape = \[16, 64, 16\]\}>]]>
// CHECK: %[[FALSE:.+]] = arith.constant false
// CHECK: %[[S:.+]] = tilegpu.warp_group_dot %[[Q]], %[[K]], %[[NOC]] use_c = %[[FALSE]]
// CHECK: %[[P:.+]] = arith.truncf
// CHECK: %[[PA:.+]] = tilegpu.convert_layout %[[P]] {{.*}} -> tensor<64x64xf16, #tilegpu.dot_operand<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>>
// CHECK-NOT: tilegpu.local_alloc %[[P]]
// CHECK: %[[V:.+]] = tilegpu.local_alloc %arg2
// CHECK: tilegpu.warp_group_dot %[[PA]], %[[V]], %{{.+}} : tensor<64x64xf16, #tilegpu.dot_operand<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>>, !tilegpu.memdesc<64x64xf16
// W8-LABEL: func.func @chain
// W8: tilegpu.warp_group_dot {{.*}}warpsPerCTA = [4, 2]
// W8: %[[P:.+]] = arith.truncf
// W8-NOT: dot_operand
// W8: tilegpu.local_alloc %[[P]]
func.func @chain(%q: tensor<64x64xf16>, %k: tensor<64x64xf16>, %v: tensor<64x64xf16>, %acc: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %s = tile.dot %q, %k, %zero : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
  %e = math.exp2 %s : tensor<64x64xf32>
  %p = arith.truncf %e : tensor<64x64xf32> to tensor<64x64xf16>
  %o = tile.dot %p, %v, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
  return %o : tensor<64x64xf32>
}

// -----

// Inline assembly and device-library calls declared pure are elementwise
// whatever the layout (the assembly's `pack` takes a thread's consecutive
// elements): the chain passes through them in the accumulator layout, P
// reaches the second dot in registers (the layouts themselves follow in
// terrazzo-remove-layout-conversions, see ptx-attention-forward.mlir's
// assembly case). Must not: assembly that is not pure
// (it may read or write memory) ends the chain, its operand converted to a
// layout of its own and P stored for the second dot.
// CHECK-LABEL: func.func @chain_through_assembly
// CHECK: tilegpu.warp_group_dot {{.*}} -> tensor<64x64xf32, #[[MMA:tilegpu.nvidia_mma<.+>]]>
// CHECK: tile.inline_asm
// CHECK: tile.extern_elementwise "__nv_fast_exp2f"
// CHECK: %[[P:.+]] = arith.truncf
// CHECK: %[[PA:.+]] = tilegpu.convert_layout %[[P]] {{.*}} -> tensor<64x64xf16, #tilegpu.dot_operand<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>>
// CHECK-NOT: tilegpu.local_alloc %[[P]]
// CHECK: tilegpu.local_alloc %arg2
// CHECK: tilegpu.warp_group_dot %[[PA]]
// CHECK-LABEL: func.func @assembly_with_effects_ends_the_chain
// CHECK-NOT: dot_operand
// CHECK: tile.inline_asm {{.*}}pure = false
// CHECK: %[[P:.+]] = arith.truncf
// CHECK: tilegpu.local_alloc %[[P]]
func.func @chain_through_assembly(%q: tensor<64x64xf16>, %k: tensor<64x64xf16>, %v: tensor<64x64xf16>, %acc: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %s = tile.dot %q, %k, %zero : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
  %a = tile.inline_asm "mul.f32 $0, $1, 0f3FB8AA3B;" constraints "=f,f" (%s) {pack = 1 : i32, pure = true} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %e = tile.extern_elementwise "__nv_fast_exp2f"(%a) {libname = "", libpath = "", pure = true} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %p = arith.truncf %e : tensor<64x64xf32> to tensor<64x64xf16>
  %o = tile.dot %p, %v, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
  return %o : tensor<64x64xf32>
}
func.func @assembly_with_effects_ends_the_chain(%q: tensor<64x64xf16>, %k: tensor<64x64xf16>, %v: tensor<64x64xf16>, %acc: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %s = tile.dot %q, %k, %zero : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
  %a = tile.inline_asm "mul.f32 $0, $1, 0f3FB8AA3B;" constraints "=f,f" (%s) {pack = 1 : i32, pure = false} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %p = arith.truncf %a : tensor<64x64xf32> to tensor<64x64xf16>
  %o = tile.dot %p, %v, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
  return %o : tensor<64x64xf32>
}

// -----

// The chain passes through an scf.if that chooses P (the probabilities
// recomputed against a new maximum only when a row's maximum moves, else
// kept): what either branch yields is computed from the first dot, so P
// reaches the second dot in registers and the first dot's warps take whole
// rows. Must not: an scf.if choosing between values no dot computed keeps
// its A in shared memory.
// CHECK-LABEL: func.func @chain_through_if
// CHECK: tilegpu.warp_group_dot {{.*}} -> tensor<64x64xf32, #[[MMA:tilegpu.nvidia_mma<\{versionMajor = 3, warpsPerCTA = \[4, 1\], instrShape = \[16, 64, 16\]\}>]]>
// CHECK: scf.if
// CHECK: %[[P:.+]] = arith.truncf
// CHECK: %[[PA:.+]] = tilegpu.convert_layout %[[P]] {{.*}} -> tensor<64x64xf16, #tilegpu.dot_operand<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>>
// CHECK-NOT: tilegpu.local_alloc %[[P]]
// CHECK: tilegpu.local_alloc %arg2
// CHECK: tilegpu.warp_group_dot %[[PA]]
// CHECK-LABEL: func.func @if_of_loaded_values_not_a_chain
// CHECK-NOT: dot_operand
// CHECK: %[[A:.+]] = scf.if
// CHECK: tilegpu.local_alloc %[[A]]
// CHECK: tilegpu.warp_group_dot
func.func @chain_through_if(%q: tensor<64x64xf16>, %k: tensor<64x64xf16>, %v: tensor<64x64xf16>, %acc: tensor<64x64xf32>, %m: tensor<64x64xf32>, %moved: i1) -> tensor<64x64xf32> {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %s = tile.dot %q, %k, %zero : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
  %e = math.exp2 %s : tensor<64x64xf32>
  %chosen = scf.if %moved -> tensor<64x64xf32> {
    %shifted = arith.subf %s, %m : tensor<64x64xf32>
    %again = math.exp2 %shifted : tensor<64x64xf32>
    scf.yield %again : tensor<64x64xf32>
  } else {
    scf.yield %e : tensor<64x64xf32>
  }
  %p = arith.truncf %chosen : tensor<64x64xf32> to tensor<64x64xf16>
  %o = tile.dot %p, %v, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
  return %o : tensor<64x64xf32>
}
func.func @if_of_loaded_values_not_a_chain(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %v: tensor<64x64xf16>, %acc: tensor<64x64xf32>, %which: i1) -> tensor<64x64xf32> {
  %chosen = scf.if %which -> tensor<64x64xf16> {
    scf.yield %a : tensor<64x64xf16>
  } else {
    scf.yield %b : tensor<64x64xf16>
  }
  %o = tile.dot %chosen, %v, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
  return %o : tensor<64x64xf32>
}

// -----

// Must not: an A that no dot computed (loaded, or computed from loads)
// goes through shared memory; so does a float32 (tf32) A computed from a
// dot, which wgmma takes from registers only in 16-bit types here.
// CHECK-LABEL: func.func @not_a_chain
// CHECK-NOT: dot_operand
// CHECK: %[[A:.+]] = arith.truncf
// CHECK: tilegpu.local_alloc %[[A]]
// CHECK: tilegpu.warp_group_dot
// CHECK-LABEL: func.func @tf32_chain
// CHECK-NOT: dot_operand
// CHECK: %[[E:.+]] = math.exp2
// CHECK: tilegpu.local_alloc %[[E]]
// CHECK: tilegpu.warp_group_dot
func.func @not_a_chain(%a: tensor<64x64xf32>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = math.exp2 %a : tensor<64x64xf32>
  %h = arith.truncf %e : tensor<64x64xf32> to tensor<64x64xf16>
  %d = tile.dot %h, %b, %c : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}
func.func @tf32_chain(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>, %v: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %s = tile.dot %a, %b, %c precision = tf32 : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
  %e = math.exp2 %s : tensor<64x64xf32>
  %d = tile.dot %e, %v, %c precision = tf32 : tensor<64x64xf32> * tensor<64x64xf32> -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}

// -----

// An operand defined outside the dot's loop (Q of attention) is stored into
// shared memory once, before the loop, fenced for the async proxy there
// (fence_async_shared naming it), and that buffer serves every dot that
// reads it in that layout (both loops here); the operands defined in the
// loop are stored in it, and fenced by the wgmma lowering.
// CHECK-LABEL: func.func @invariant_operand
// CHECK: %[[Q:.+]] = tilegpu.local_alloc %arg0
// CHECK-NEXT: tilegpu.fence_async_shared %[[Q]] : !tilegpu.memdesc<64x64xf16
// CHECK-NOT: tilegpu.local_alloc %arg0
// CHECK-NOT: tilegpu.fence_async_shared
// CHECK: scf.for
// CHECK: %[[K:.+]] = tilegpu.local_alloc
// CHECK: tilegpu.warp_group_dot %[[Q]], %[[K]]
// CHECK: scf.for
// CHECK: %[[K2:.+]] = tilegpu.local_alloc
// CHECK: tilegpu.warp_group_dot %[[Q]], %[[K2]]
func.func @invariant_operand(%q: tensor<64x64xf16>, %kp: tensor<64x64x!tile.ptr<f16>>, %n: i32) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    %k = tile.load %kp : tensor<64x64x!tile.ptr<f16>>
    %d = tile.dot %q, %k, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %r2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    %k = tile.load %kp : tensor<64x64x!tile.ptr<f16>>
    %d = tile.dot %q, %k, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  return %r, %r2 : tensor<64x64xf32>, tensor<64x64xf32>
}

// -----

// In a warp-specialized loop, a 16-bit A defined outside it (attention's
// Q) stays in registers: converted to the dot-operand layout once, where
// it is defined, instead of read from shared memory by every iteration's
// wgmma; the loop's dots with it hold 32 + 16 registers a thread at 4
// warps. Must not: the same loop without warp_specialize (its
// registers could halve the programs that fit on a multiprocessor), an
// A whose registers with the loop's accumulators exceed 160 a thread (two
// 64 x 256 accumulators and A: 2 x 128 + 16 at 4 warps), and an A defined in the
// loop. (At 8 warps the two warp groups split N here: A goes through
// shared memory, as for a chain.)
// CHECK-LABEL: func.func @invariant_a_in_registers
// CHECK: %[[QA:.+]] = tilegpu.convert_layout %arg0 {{.*}} -> tensor<64x64xf16, #tilegpu.dot_operand<{opIdx = 0, parent = #[[MMA:tilegpu.nvidia_mma<.+>]], kWidth = 2}>>
// CHECK: scf.for
// CHECK-NOT: tilegpu.local_alloc %arg0
// CHECK: tilegpu.warp_group_dot %[[QA]], %{{.+}} : tensor<64x64xf16, #tilegpu.dot_operand<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>>, !tilegpu.memdesc<64x64xf16
// CHECK: } {tile.warp_specialize}
// CHECK-LABEL: func.func @invariant_a_not_specialized
// CHECK: %[[Q:.+]] = tilegpu.local_alloc %arg0
// CHECK: tilegpu.warp_group_dot %[[Q]]
// CHECK-LABEL: func.func @invariant_a_over_budget
// CHECK: %[[Q:.+]] = tilegpu.local_alloc %arg0
// CHECK: tilegpu.warp_group_dot %[[Q]]
// CHECK-LABEL: func.func @variant_a
// CHECK-NOT: dot_operand
// CHECK: tilegpu.local_alloc
// CHECK: tilegpu.warp_group_dot
// W8-LABEL: func.func @invariant_a_in_registers
// W8-NOT: dot_operand
// W8: tilegpu.local_alloc %arg0
func.func @invariant_a_in_registers(%q: tensor<64x64xf16>, %kp: tensor<64x64x!tile.ptr<f16>>, %n: i32) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    %k = tile.load %kp : tensor<64x64x!tile.ptr<f16>>
    %d = tile.dot %q, %k, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  } {tile.warp_specialize}
  return %r : tensor<64x64xf32>
}
func.func @invariant_a_not_specialized(%q: tensor<64x64xf16>, %kp: tensor<64x64x!tile.ptr<f16>>, %n: i32) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    %k = tile.load %kp : tensor<64x64x!tile.ptr<f16>>
    %d = tile.dot %q, %k, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  return %r : tensor<64x64xf32>
}
func.func @invariant_a_over_budget(%q: tensor<64x64xf16>, %kp: tensor<64x256x!tile.ptr<f16>>, %n: i32) -> tensor<64x256xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x256xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x256xf32>) : i32 {
    %k = tile.load %kp : tensor<64x256x!tile.ptr<f16>>
    %d = tile.dot %q, %k, %acc : tensor<64x64xf16> * tensor<64x256xf16> -> tensor<64x256xf32>
    %e = tile.dot %q, %k, %d : tensor<64x64xf16> * tensor<64x256xf16> -> tensor<64x256xf32>
    scf.yield %e : tensor<64x256xf32>
  } {tile.warp_specialize}
  return %r : tensor<64x256xf32>
}
func.func @variant_a(%qp: tensor<64x64x!tile.ptr<f16>>, %kp: tensor<64x64x!tile.ptr<f16>>, %n: i32) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    %q = tile.load %qp : tensor<64x64x!tile.ptr<f16>>
    %k = tile.load %kp : tensor<64x64x!tile.ptr<f16>>
    %d = tile.dot %q, %k, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  } {tile.warp_specialize}
  return %r : tensor<64x64xf32>
}

// -----

// A 16-bit block read by one dot as it is and by another as its transpose
// (dO for dV, tl.trans(dO) for dP^T in attention's backward) is stored once:
// the second dot reads the same buffer through memdesc_trans, with no
// transpose in registers and no second store. An fp8 block cannot be shared
// so (B must be K-major: the block as it is and its transpose need the two
// K-major layouts): it is stored twice, each time K-major, the transpose
// still read through memdesc_trans.
// CHECK-LABEL: func.func @block_and_its_transpose
// CHECK: %[[Y:.+]] = tilegpu.local_alloc %arg1 {{.*}}-> !tilegpu.memdesc<64x64xf16, #[[NV:[a-z0-9_]+]]>
// CHECK: tilegpu.warp_group_dot %{{.+}}, %[[Y]]
// CHECK-NOT: tilegpu.local_alloc %arg1
// CHECK: %[[YT:.+]] = tilegpu.memdesc_trans %[[Y]] : !tilegpu.memdesc<64x64xf16, #[[NV]]> -> !tilegpu.memdesc<64x64xf16, #[[NVT:[a-z0-9_]+]]>
// CHECK: tilegpu.warp_group_dot %{{.+}}, %[[YT]]
// CHECK-LABEL: func.func @fp8_block_and_its_transpose
// CHECK: %[[Y:.+]] = tilegpu.local_alloc %arg1 {{.*}}-> !tilegpu.memdesc<64x64xf8E4M3FN, #[[T:[a-z0-9_]+]]>
// CHECK: tilegpu.warp_group_dot %{{.+}}, %[[Y]]
// CHECK: %[[S:.+]] = tilegpu.local_alloc %arg1 {{.*}}-> !tilegpu.memdesc<64x64xf8E4M3FN, #[[F:[a-z0-9_]+]]>
// CHECK: %[[YT:.+]] = tilegpu.memdesc_trans %[[S]] : !tilegpu.memdesc<64x64xf8E4M3FN, #[[F]]> -> !tilegpu.memdesc<64x64xf8E4M3FN, #[[T]]>
// CHECK: tilegpu.warp_group_dot %{{.+}}, %[[YT]]
func.func @block_and_its_transpose(%x: tensor<64x64xf16>, %y: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %d = tile.dot %x, %y, %c : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
  %yt = tile.trans %y [1, 0] : tensor<64x64xf16> -> tensor<64x64xf16>
  %dt = tile.dot %x, %yt, %c : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
  return %d, %dt : tensor<64x64xf32>, tensor<64x64xf32>
}
func.func @fp8_block_and_its_transpose(%x: tensor<64x64xf8E4M3FN>, %y: tensor<64x64xf8E4M3FN>, %c: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  // expected-error @+1 {{fp8 dots need sm_89 or newer}}
  %d = tile.dot %x, %y, %c : tensor<64x64xf8E4M3FN> * tensor<64x64xf8E4M3FN> -> tensor<64x64xf32>
  %yt = tile.trans %y [1, 0] : tensor<64x64xf8E4M3FN> -> tensor<64x64xf8E4M3FN>
  // expected-error @+1 {{fp8 dots need sm_89 or newer}}
  %dt = tile.dot %x, %yt, %c : tensor<64x64xf8E4M3FN> * tensor<64x64xf8E4M3FN> -> tensor<64x64xf32>
  return %d, %dt : tensor<64x64xf32>, tensor<64x64xf32>
}
