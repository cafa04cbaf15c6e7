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
// fence.proxy.async in the loops).
// At 8 warps (two warp groups of 64 rows, as the tutorial's forward; a
// program of one warp group keeps its chain unrotated, Passes/pipeline.mlir)
// each loop is a dot chain that terrazzo-pipeline rotates (FlashAttention-3's
// intra-warp-group overlap): under a check that the loop runs, the first
// iteration's Q K^T and softmax are peeled in front of it and the last
// iteration's P V behind it; each iteration issues this iteration's Q K^T,
// then the previous iteration's rescale and P V (P carried in the
// register-A layout), waits for Q K^T only (one group left in flight) and
// computes the softmax while P V runs, waits for P V at the end of the
// iteration, after the copies for a later iteration are issued (into
// stacks of four buffers at three stages: P V still reads the previous
// iteration's V), and only then converts P to the operand (cvt.rn.f16x2,
// pairs): those registers are the ones P V read. One barrier per
// iteration (the one in front of Q K^T, after the copies landed): P V
// reads what it published. In the PTX the P V wgmmas take A as four
// 32-bit registers and B (V) by descriptor, and exp2 is ex2.approx.ftz.f32.
// P crosses the back edge in the 32-bit registers cvt.rn.f16x2 writes
// (the code generator's packNarrowPhis): no 16-bit register anywhere, where
// P's float16 halves each took one and were packed again per iteration.
// The PTX assembles.
// REQUIRES: ptxas
// RUN: terrazzo-compile %S/Inputs/attention_fwd_causal.mlir --target=cuda:90 --num-warps=8 --emit=tilegpu -o %t.tilegpu.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.tilegpu.mlir
// RUN: terrazzo-compile %S/Inputs/attention_fwd_causal.mlir --target=cuda:90 --num-warps=8 --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX --implicit-check-not=ex2.approx.f32 --implicit-check-not=%%rs < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin

// IR-DAG: #[[$SLICE:.+]] = #tilegpu.slice<{dim = 1, parent = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>}>
// IR-LABEL: func.func @attn_fwd
// IR-NOT: tilegpu.local_alloc {{.*}}xf16, #tilegpu.nvidia_mma
// IR: tilegpu.local_alloc : () -> !tilegpu.memdesc<4x64x64xf16
// IR: tilegpu.local_alloc : () -> !tilegpu.memdesc<4x64x64xf16
// Q is written to shared memory after the copies of the first stages are
// issued, its load in flight meanwhile.
// IR: tilegpu.async_commit_group
// IR: %[[Q:.+]] = tilegpu.local_alloc {{.*}} -> !tilegpu.memdesc<128x64xf16
// IR-NEXT: tilegpu.fence_async_shared %[[Q]]
// The first iteration's Q K^T and softmax.
// IR-NEXT: scf.if
// IR-NEXT: tilegpu.async_wait {num = 2 : i32}
// IR-NEXT: tilegpu.warp_group_dot %[[Q]], {{.*}} use_c = %false
// IR: tilegpu.convert_layout {{.*}} -> tensor<128x64xf16, #tilegpu.dot_operand<{opIdx = 0, parent = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>, kWidth = 2}>>
// IR: %[[LOOP:.+]]:8 = scf.for {{.*}} -> (tensor<128x64xf32, #[[$MMA:tilegpu.nvidia_mma<\{versionMajor = 3, warpsPerCTA = \[8, 1\], instrShape = \[16, 64, 16\]\}>]]>, tensor<128xf32, #[[$SLICE]]>, tensor<128xf32, #[[$SLICE]]>, i32, i32, tensor<128xf32, #[[$SLICE]]>, i32, tensor<128x64xf16, #[[$A:tilegpu.dot_operand<\{opIdx = 0, parent = #tilegpu.nvidia_mma<\{versionMajor = 3, warpsPerCTA = \[8, 1\], instrShape = \[16, 64, 16\]\}>, kWidth = 2\}>]]>)
// IR-NOT: tilegpu.convert_layout
// IR-NOT: tilegpu.local_alloc
// IR: %[[S0:.+]] = tilegpu.warp_group_dot async %[[Q]], {{.*}} -> tensor<128x64xf32, #[[$MMA]]>
// IR-NOT: tilegpu.convert_layout
// IR: arith.mulf {{.*}} : tensor<128x64xf32, #[[$MMA]]>
// IR-NEXT: %[[O:.+]] = tilegpu.warp_group_dot async %arg{{[0-9]+}}, {{.*}} : tensor<128x64xf16, #[[$A]]>, {{.*}} -> tensor<128x64xf32, #[[$MMA]]>
// IR-NEXT: %[[S:.+]] = tilegpu.warp_group_dot_wait %[[S0]] {pendings = 1 : i32}
// IR-NOT: tilegpu.convert_layout
// IR-NOT: tilegpu.local_alloc
// IR: tile.reduce({{.*}}) axis = 1 : (tensor<128x64xf32, #[[$MMA]]>) -> tensor<128xf32, #[[$SLICE]]>
// IR-NOT: tilegpu.convert_layout
// IR-NOT: tilegpu.local_alloc
// IR: %[[P:.+]] = math.exp2 {{.*}} : tensor<128x64xf32, #[[$MMA]]>
// IR-NOT: tilegpu.convert_layout
// IR-NOT: tilegpu.local_alloc
// IR: tilegpu.async_copy_global_to_local
// IR: %[[OW:.+]] = tilegpu.warp_group_dot_wait %[[O]] {pendings = 0 : i32}
// IR-NEXT: %[[PH:.+]] = arith.truncf %[[P]] : tensor<128x64xf32, #[[$MMA]]> to tensor<128x64xf16, #[[$MMA]]>
// IR-NEXT: %[[PA:.+]] = tilegpu.convert_layout %[[PH]] : tensor<128x64xf16, #[[$MMA]]> -> tensor<128x64xf16, #[[$A]]>
// IR-NEXT: scf.yield %[[OW]], {{.*}}, %[[PA]] : tensor<128x64xf32, #[[$MMA]]>, tensor<128xf32, #[[$SLICE]]>, tensor<128xf32, #[[$SLICE]]>, i32, i32, tensor<128xf32, #[[$SLICE]]>, i32, tensor<128x64xf16, #[[$A]]>
// The last iteration's rescale and P V, then the results; the loop that
// does not run keeps the values it was given.
// IR: tilegpu.warp_group_dot %[[LOOP]]#7, {{.*}} -> tensor<128x64xf32, #[[$MMA]]>
// IR-NEXT: scf.yield
// IR-NEXT: } else {
// The diagonal block: the mask from aranges in the same layout.
// IR: scf.if
// IR-NEXT: tilegpu.async_wait {num = 2 : i32}
// IR-NEXT: tilegpu.warp_group_dot %[[Q]], {{.*}} use_c = %false
// IR: scf.for {{.*}} -> (tensor<128x64xf32, #[[$MMA]]>, tensor<128xf32, #[[$SLICE]]>, tensor<128xf32, #[[$SLICE]]>, i32, i32, tensor<128xf32, #[[$SLICE]]>, i32, tensor<128x64xf16, #[[$A]]>)
// IR-NOT: tilegpu.convert_layout
// IR-NOT: tilegpu.local_alloc
// IR: %[[S2:.+]] = tilegpu.warp_group_dot async %[[Q]], {{.*}} -> tensor<128x64xf32, #[[$MMA]]>
// IR-NOT: tilegpu.convert_layout
// IR: tilegpu.warp_group_dot async %arg{{[0-9]+}}, {{.*}} : tensor<128x64xf16, #[[$A]]>, {{.*}} -> tensor<128x64xf32, #[[$MMA]]>
// IR-NEXT: tilegpu.warp_group_dot_wait %[[S2]] {pendings = 1 : i32}
// IR-NOT: tilegpu.convert_layout
// IR-NOT: tilegpu.local_alloc
// IR: arith.cmpi sge, {{.*}} : tensor<128x64xi32, #[[$MMA]]>
// IR-NOT: tilegpu.convert_layout
// IR-NOT: tilegpu.local_alloc
// IR: tile.reduce({{.*}}) axis = 1 : (tensor<128x64xf32, #[[$MMA]]>) -> tensor<128xf32, #[[$SLICE]]>
// IR-NOT: tilegpu.convert_layout
// IR-NOT: tilegpu.local_alloc
// IR: tilegpu.warp_group_dot_wait {{.*}} {pendings = 0 : i32}
// IR-NEXT: %[[PH2:.+]] = arith.truncf {{.*}} : tensor<128x64xf32, #[[$MMA]]> to tensor<128x64xf16, #[[$MMA]]>
// IR-NEXT: tilegpu.convert_layout %[[PH2]] : tensor<128x64xf16, #[[$MMA]]> -> tensor<128x64xf16, #[[$A]]>
// IR-NEXT: scf.yield

// Q K^T: A and B by descriptor, no accumulator read on the first K step
// (use_c false); P V: A in four registers, B by descriptor (MN-major, V is
// contiguous along N). 4 instructions each (a 64-row tile per warp group,
// four K steps): the peeled Q K^T, then in the loop Q K^T and P V issued together
// after the iteration's one barrier, waited for with one group in flight
// (Q K^T) and none (P V, after the softmax), then the last P V.
// PTX-LABEL: .entry attn_fwd(
// PTX: st.shared.v4.b32
// PTX: fence.proxy.async.shared::cta;
// PTX-NOT: fence.proxy.async
// PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{{(%r[0-9]+, ){31}%r[0-9]+}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 0;
// PTX: wgmma.wait_group.sync.aligned 0;
// PTX: ex2.approx.ftz.f32
// PTX: bar.sync 0;
// PTX-NOT: bar.sync
// PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{{(%r[0-9]+, ){31}%r[0-9]+}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 0;
// PTX-NOT: bar.sync
// PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{{(%r[0-9]+, ){31}%r[0-9]+}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;
// PTX: wgmma.wait_group.sync.aligned 1;
// PTX: ex2.approx.ftz.f32
// PTX: wgmma.wait_group.sync.aligned 0;
// PTX-NOT: ex2.approx
// PTX: cvt.rn.f16x2.f32
// PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{{(%r[0-9]+, ){31}%r[0-9]+}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;
// PTX: wgmma.wait_group.sync.aligned 0;
// The diagonal loop: the same.
// PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{{(%r[0-9]+, ){31}%r[0-9]+}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 0;
// PTX: bar.sync 0;
// PTX-NOT: bar.sync
// PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{{(%r[0-9]+, ){31}%r[0-9]+}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 0;
// PTX-NOT: bar.sync
// PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{{(%r[0-9]+, ){31}%r[0-9]+}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;
// PTX: wgmma.wait_group.sync.aligned 1;
// PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{{(%r[0-9]+, ){31}%r[0-9]+}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;
// PTX-NOT: wgmma.mma_async
// PTX-NOT: fence.proxy.async
