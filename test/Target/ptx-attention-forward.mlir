// Attention's forward loop on sm_90a (Inputs/attention_fwd_causal.mlir,
// the tutorial-shaped kernel of python/test/test_attention.py, causal: a
// loop over the blocks left of the diagonal, then one over the diagonal
// block with its mask). In both loops the scores, the mask, the row max
// and sum, exp2 and the rescaled output stay in the wgmma accumulator
// layout, the row vectors and the loop-carried max and sum in its slice:
// the one convert_layout left in each loop is P's, from that layout to the
// register-A layout of the second wgmma of the same parent (the same
// registers relabelled, see Conversion/wgmma-register-a.mlir), and P never
// reaches shared memory (no local_alloc in the loops; Q is stored once,
// before them, and fenced for the async proxy once there: no
// fence.proxy.async in the loops). Both dots of a loop are asynchronous
// (terrazzo-pipeline's overlap of several dots): Q K^T is waited for at the
// row max, P V at the end of the iteration, after the copies for a later
// iteration are issued. In the PTX the second wgmma of each
// loop takes A as four 32-bit registers and B (V) by descriptor, and exp2
// is ex2.approx.ftz.f32. The PTX assembles.
// REQUIRES: ptxas
// RUN: terrazzo-compile %S/Inputs/attention_fwd_causal.mlir --target=cuda:90 --num-warps=4 --emit=tilegpu -o %t.tilegpu.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.tilegpu.mlir
// RUN: terrazzo-compile %S/Inputs/attention_fwd_causal.mlir --target=cuda:90 --num-warps=4 --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX --implicit-check-not=ex2.approx.f32 < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin

// IR-DAG: #[[$SLICE:.+]] = #tilegpu.slice<{dim = 1, parent = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>}>
// IR-LABEL: func.func @attn_fwd
// IR: %[[Q:.+]] = tilegpu.local_alloc {{.*}} -> !tilegpu.memdesc<128x64xf16
// IR-NEXT: tilegpu.fence_async_shared %[[Q]]
// IR-NOT: tilegpu.local_alloc {{.*}}xf16, #tilegpu.nvidia_mma
// IR: scf.for {{.*}} -> (tensor<128x64xf32, #[[$MMA:tilegpu.nvidia_mma<\{versionMajor = 3, warpsPerCTA = \[4, 1\], instrShape = \[16, 64, 16\]\}>]]>, tensor<128xf32, #[[$SLICE]]>, tensor<128xf32, #[[$SLICE]]>, i32, i32)
// IR-NOT: tilegpu.convert_layout
// IR-NOT: tilegpu.local_alloc
// IR: %[[S0:.+]] = tilegpu.warp_group_dot async %[[Q]], {{.*}} -> tensor<128x64xf32, #[[$MMA]]>
// IR: %[[S:.+]] = tilegpu.warp_group_dot_wait %[[S0]] {pendings = 0 : i32}
// IR-NOT: tilegpu.convert_layout
// IR-NOT: tilegpu.local_alloc
// IR: tile.reduce(%[[S]]) axis = 1 : (tensor<128x64xf32, #[[$MMA]]>) -> tensor<128xf32, #[[$SLICE]]>
// IR-NOT: tilegpu.convert_layout
// IR-NOT: tilegpu.local_alloc
// IR: %[[P:.+]] = math.exp2 {{.*}} : tensor<128x64xf32, #[[$MMA]]>
// IR-NOT: tilegpu.convert_layout
// IR-NOT: tilegpu.local_alloc
// IR: %[[PH:.+]] = arith.truncf %[[P]] : tensor<128x64xf32, #[[$MMA]]> to tensor<128x64xf16, #[[$MMA]]>
// IR-NOT: tilegpu.convert_layout
// IR-NOT: tilegpu.local_alloc
// IR: %[[PA:.+]] = tilegpu.convert_layout %[[PH]] : tensor<128x64xf16, #[[$MMA]]> -> tensor<128x64xf16, #tilegpu.dot_operand<{opIdx = 0, parent = #[[$MMA]], kWidth = 2}>>
// IR-NEXT: %[[O:.+]] = tilegpu.warp_group_dot async %[[PA]], {{.*}} -> tensor<128x64xf32, #[[$MMA]]>
// IR-NOT: tilegpu.convert_layout
// IR-NOT: tilegpu.local_alloc
// IR: %[[OW:.+]] = tilegpu.warp_group_dot_wait %[[O]] {pendings = 0 : i32}
// IR-NEXT: scf.yield %[[OW]], {{.*}} : tensor<128x64xf32, #[[$MMA]]>, tensor<128xf32, #[[$SLICE]]>, tensor<128xf32, #[[$SLICE]]>, i32, i32
// The diagonal block: the mask from aranges in the same layout.
// IR: scf.for {{.*}} -> (tensor<128x64xf32, #[[$MMA]]>, tensor<128xf32, #[[$SLICE]]>, tensor<128xf32, #[[$SLICE]]>, i32, i32)
// IR-NOT: tilegpu.convert_layout
// IR-NOT: tilegpu.local_alloc
// IR: %[[S2:.+]] = tilegpu.warp_group_dot async %[[Q]], {{.*}} -> tensor<128x64xf32, #[[$MMA]]>
// IR-NOT: tilegpu.convert_layout
// IR-NOT: tilegpu.local_alloc
// IR: arith.cmpi sge, {{.*}} : tensor<128x64xi32, #[[$MMA]]>
// IR-NOT: tilegpu.convert_layout
// IR-NOT: tilegpu.local_alloc
// IR: tile.reduce({{.*}}) axis = 1 : (tensor<128x64xf32, #[[$MMA]]>) -> tensor<128xf32, #[[$SLICE]]>
// IR-NOT: tilegpu.convert_layout
// IR-NOT: tilegpu.local_alloc
// IR: %[[PH2:.+]] = arith.truncf {{.*}} : tensor<128x64xf32, #[[$MMA]]> to tensor<128x64xf16, #[[$MMA]]>
// IR-NOT: tilegpu.convert_layout
// IR-NOT: tilegpu.local_alloc
// IR: %[[PA2:.+]] = tilegpu.convert_layout %[[PH2]] : tensor<128x64xf16, #[[$MMA]]> -> tensor<128x64xf16, #tilegpu.dot_operand<{opIdx = 0, parent = #[[$MMA]], kWidth = 2}>>
// IR-NEXT: tilegpu.warp_group_dot async %[[PA2]], {{.*}} -> tensor<128x64xf32, #[[$MMA]]>
// IR-NOT: tilegpu.convert_layout
// IR-NOT: tilegpu.local_alloc
// IR: scf.yield

// Q K^T: A and B by descriptor, no accumulator read on the first K step
// (use_c false); P V: A in four registers, B by descriptor (MN-major, V is
// contiguous along N). 8 instructions each per loop (two 64-row tiles,
// four K steps).
// PTX-LABEL: .entry attn_fwd(
// PTX: st.shared.v4.b32
// PTX: fence.proxy.async.shared::cta;
// PTX-NOT: fence.proxy.async
// PTX-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{{(%r[0-9]+, ){31}%r[0-9]+}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 0;
// PTX: ex2.approx.ftz.f32
// PTX-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{{(%r[0-9]+, ){31}%r[0-9]+}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;
// PTX-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{{(%r[0-9]+, ){31}%r[0-9]+}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 0;
// PTX: ex2.approx.ftz.f32
// PTX-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{{(%r[0-9]+, ){31}%r[0-9]+}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;
// PTX-NOT: wgmma.mma_async
// PTX-NOT: fence.proxy.async
