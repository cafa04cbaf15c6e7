// Tutorial 06's forward kernel (Inputs/attention_fwd_tutorial.mlir, 8 warps:
// two warp groups of 64 rows each) on sm_90a. Its K^T and V loads become
// TMA copies (unmasked: the pointers promise every element exists; K^T
// loaded as stored and transposed) into rings of 4 stages at 3 (the dot
// chain is rotated), with full mbarriers the consumers wait on and empty
// ones every warp arrives on after the wait for the second dot; refills
// wait for their stage's empty phase, so the loop has no barrier of the
// whole program, and the two warp groups run apart (they take no turns:
// terrazzo-pipeline's ping-pong applies by default to warp-specialized
// chains alone). The PTX assembles.
// REQUIRES: ptxas
// RUN: terrazzo-compile %S/Inputs/attention_fwd_tutorial.mlir --target=cuda:90 --num-warps=8 --emit=tilegpu -o %t.tilegpu.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.tilegpu.mlir
// RUN: terrazzo-compile %S/Inputs/attention_fwd_tutorial.mlir --target=cuda:90 --num-warps=8 --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin

// IR: tilegpu.tensormap_create
// IR: tilegpu.tensormap_create
// IR-NOT: tile.load {{.*}}tensor<64x128x!tile.ptr
// IR: tilegpu.local_alloc : () -> !tilegpu.memdesc<4x64x128xf16
// IR: tilegpu.local_alloc : () -> !tilegpu.memdesc<4x64x128xf16
// IR-NOT: tilegpu.warp_group_turn
// IR: scf.for
// IR-NOT: tilegpu.barrier
// IR-NOT: async_copy_global_to_local
// IR: tilegpu.mbarrier_wait
// IR-NEXT: tilegpu.memdesc_index
// IR-NEXT: tilegpu.memdesc_trans
// IR-NEXT: tilegpu.warp_group_dot async {{.*}} -> tensor<128x64xf32
// IR-NOT: tilegpu.barrier
// IR: tilegpu.warp_group_dot async %arg
// IR-NOT: tilegpu.barrier
// IR: tilegpu.async_tma_copy_global_to_local {{.*}} {tilegpu.reads_retired}
// IR-NOT: tilegpu.barrier
// IR: tilegpu.warp_group_dot_wait {{.*}} {pendings = 0 : i32}
// IR-NEXT: tilegpu.memdesc_index
// IR-NEXT: tilegpu.mbarrier_arrive
// IR-NOT: tilegpu.barrier
// IR: scf.yield
// IR-NOT: tilegpu.warp_group_turn

// PTX-NOT: cp.async.cg
// PTX-NOT: cp.async.ca
// PTX-NOT: bar.arrive
// PTX-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd
// PTX-DAG: wgmma.wait_group.sync.aligned 1;
// PTX-DAG: mbarrier.try_wait.parity.shared::cta.b64
// PTX-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX-DAG: mbarrier.arrive.shared::cta.b64
