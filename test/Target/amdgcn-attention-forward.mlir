// Attention's forward loop on gfx942 (Inputs/attention_fwd_causal.mlir,
// as ptx-attention-forward.mlir for sm_90a): both dots of each loop on
// MFMA (v_mfma_f32_32x32x8_f16, the warps along M so that each takes whole
// rows), in the transposed MFMA layout (isTransposed: lane l holds row
// l % 32, its registers columns), and layout propagation keeps the scores,
// the row max and sum (reductions of the MFMA layout, their results in its
// slice), exp2, the rescaled output and the loop-carried max and sum in
// that layout, as it does for NVIDIA's. P feeds the second dot from
// registers: the transposed accumulator's registers are the A operand's
// (kWidth 4), so its conversion is a relabelling, with no LDS buffer. In
// each loop the only LDS writes are K's and V's, which the pipeliner's
// register-prefetch form issues an iteration ahead, first in the loop, and
// stores into the other buffer of two last: 4 ds_write_b64 (K) and 16
// ds_write_b16 (V, written K-major) per loop, where P's buffer added 32
// more, with a second s_barrier. Per loop and warp: Q K^T is 2 tiles x 8 k
// steps, P V likewise, 64 instructions for the two loops. The assembly
// assembles again and links.

// RUN: terrazzo-compile %S/Inputs/attention_fwd_causal.mlir --target=hip:gfx942 --num-warps=4 --emit=tilegpu -o %t.tilegpu.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.tilegpu.mlir
// RUN: terrazzo-compile %S/Inputs/attention_fwd_causal.mlir --target=hip:gfx942 --num-warps=4 --emit=amdgcn -o %t.s
// RUN: FileCheck %s < %t.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t.s -o %t.o
// RUN: ld.lld -shared %t.o -o %t.hsaco
// RUN: llvm-nm -D --undefined-only %t.hsaco | count 0

// IR: #[[$SLICE:.+]] = #tilegpu.slice<{dim = 1, parent = #tilegpu.amd_mfma<{warpsPerCTA = [4, 1], instrShape = [32, 32], isTransposed = true}>}>
// IR-LABEL: func.func @attn_fwd
// IR: scf.for {{.*}} -> (tensor<128x64xf32, #[[$MFMA:tilegpu.amd_mfma<\{warpsPerCTA = \[4, 1\], instrShape = \[32, 32\], isTransposed = true\}>]]>, tensor<128xf32, #[[$SLICE]]>, tensor<128xf32, #[[$SLICE]]>, i32)
// IR-NOT: tilegpu.convert_layout
// IR: %[[KNEXT:.+]] = tile.load
// IR: %[[VNEXT:.+]] = tile.load
// IR-NEXT: %[[KBUF:.+]] = tilegpu.memdesc_index %[[KSTACK:.+]][%[[READ:.+]]] :
// IR-NEXT: tilegpu.local_load %[[KBUF]] : {{.*}} -> tensor<64x64xf16, #tilegpu.dot_operand<{opIdx = 1, parent = #[[$MFMA]], kWidth = 4}>>
// IR-NEXT: %[[S:.+]] = tile.dot {{.*}} -> tensor<128x64xf32, #[[$MFMA]]>
// IR-NEXT: tile.reduce(%[[S]]) axis = 1 : (tensor<128x64xf32, #[[$MFMA]]>) -> tensor<128xf32, #[[$SLICE]]>
// IR-NOT: tilegpu.convert_layout
// IR: math.exp2 {{.*}} : tensor<128x64xf32, #[[$MFMA]]>
// IR-NOT: tilegpu.convert_layout
// IR: %[[P:.+]] = arith.truncf {{.*}} : tensor<128x64xf32, #[[$MFMA]]> to tensor<128x64xf16, #[[$MFMA]]>
// IR-NEXT: tilegpu.convert_layout %[[P]] : tensor<128x64xf16, #[[$MFMA]]> -> tensor<128x64xf16, #tilegpu.dot_operand<{opIdx = 0, parent = #[[$MFMA]], kWidth = 4}>>
// IR-NEXT: %[[VBUF:.+]] = tilegpu.memdesc_index %[[VSTACK:.+]][%[[READ]]] :
// IR-NEXT: tilegpu.local_load %[[VBUF]] : {{.*}} -> tensor<64x64xf16, #tilegpu.dot_operand<{opIdx = 1, parent = #[[$MFMA]], kWidth = 4}>>
// IR-NEXT: tile.dot {{.*}} -> tensor<128x64xf32, #[[$MFMA]]>
// IR-NEXT: %[[WRITE:.+]] = arith.xori %[[READ]]
// IR-NEXT: %[[KW:.+]] = tilegpu.memdesc_index %[[KSTACK]][%[[WRITE]]]
// IR-NEXT: tilegpu.local_store %[[KNEXT]], %[[KW]] {tilegpu.reads_retired}
// IR-NEXT: %[[VW:.+]] = tilegpu.memdesc_index %[[VSTACK]][%[[WRITE]]]
// IR-NEXT: tilegpu.local_store %[[VNEXT]], %[[VW]] {tilegpu.reads_retired}
// IR-NEXT: scf.yield
// IR: scf.for {{.*}} -> (tensor<128x64xf32, #[[$MFMA]]>, tensor<128xf32, #[[$SLICE]]>, tensor<128xf32, #[[$SLICE]]>, i32)
// IR-NOT: tilegpu.convert_layout {{.*}}xf32
// IR: tile.dot {{.*}} -> tensor<128x64xf32, #[[$MFMA]]>
// IR-NOT: tilegpu.convert_layout {{.*}}xf32
// IR: tile.dot {{.*}} -> tensor<128x64xf32, #[[$MFMA]]>
// IR-COUNT-2: tilegpu.local_store {{.*}} {tilegpu.reads_retired}
// IR-NEXT: scf.yield

// CHECK-LABEL: attn_fwd:
// CHECK-COUNT-64: v_mfma_f32_32x32x8_f16
// CHECK-NOT: v_mfma
// CHECK: s_endpgm

// Each loop: a header issuing the next iteration's K and V loads (global
// loads here: the input's pointers have no tile.pointer_range) and a body
// with one s_barrier, K's and V's LDS writes and no others.
// RUN: FileCheck %s --check-prefix=LOOP < %t.s
// LOOP-LABEL: attn_fwd:
// LOOP: s_branch [[HEADER1:.LBB0_[0-9]+]]
// LOOP-NEXT: [[BODY1:.LBB0_[0-9]+]]:
// LOOP-NOT: ds_write
// LOOP: s_barrier
// LOOP-NOT: s_barrier
// LOOP-NOT: ds_write
// LOOP: v_mfma_f32_32x32x8_f16
// LOOP-NOT: s_barrier
// LOOP-COUNT-4: ds_write_b64
// LOOP-COUNT-16: ds_write_b16
// LOOP-NOT: ds_write
// LOOP-NOT: s_barrier
// LOOP: [[HEADER1]]:
// LOOP-NOT: ds_write
// LOOP-NOT: s_barrier
// LOOP: s_branch [[BODY1]]
// LOOP: s_branch [[HEADER2:.LBB0_[0-9]+]]
// LOOP-NEXT: [[BODY2:.LBB0_[0-9]+]]:
// LOOP-NOT: ds_write
// LOOP: s_barrier
// LOOP-NOT: s_barrier
// LOOP-NOT: ds_write
// LOOP: v_mfma_f32_32x32x8_f16
// LOOP-NOT: s_barrier
// LOOP-COUNT-4: ds_write_b64
// LOOP-COUNT-16: ds_write_b16
// LOOP-NOT: ds_write
// LOOP-NOT: s_barrier
// LOOP: [[HEADER2]]:
// LOOP-NOT: ds_write
// LOOP-NOT: s_barrier
// LOOP: s_branch [[BODY2]]
