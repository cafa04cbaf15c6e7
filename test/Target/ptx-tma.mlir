// Tensor descriptors on sm_90a lower to TMA (TERRAZZO_TMA=0 turns it
// off): each program builds its tensor
// maps in its slot of the global scratch (the trailing kernel parameter):
// the two maps built one after the other are a group, built at the same
// time by warps 0 and 1: each warp zeroes 128 bytes of shared memory, its
// lane 0 sets every field with tensormap.replace (dimensions innermost
// first, strides in bytes), the warp copies the map to global memory with
// tensormap.cp_fenceproxy and waits for the copy (a bulk group); then one
// barrier, after which thread 0 (which issues every copy) acquires both
// maps for the tensor-map proxy. The third map, built after the first
// copies, is a group of its own (warp 0). A load is one
// mbarrier (init by thread 0, arrive.expect_tx of the block's 8192 bytes),
// a cp.async.bulk.tensor completing on it, a try_wait.parity loop of every
// thread and an inval; a store is a fence for the async proxy, a barrier,
// the TMA store by thread 0, its commit and wait_group.read. The 64 x 64
// f16 blocks use the 128-byte swizzle (mode 3).
// The PTX assembles for sm_90a.
// REQUIRES: ptxas
// RUN: terrazzo-compile %s --target=cuda:90 --num-warps=4 --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// RUN: terrazzo-compile %s --target=cuda:90 --num-warps=8 --emit=ptx -o %t.8.ptx
// RUN: %ptxas -arch=sm_90a %t.8.ptx -o %t.8.cubin
// RUN: env TERRAZZO_TMA=0 terrazzo-compile %s --target=cuda:90 --emit=ptx -o %t.off.ptx
// RUN: FileCheck %s --check-prefix=OFF < %t.off.ptx
// RUN: terrazzo-compile %s --target=cuda:80 --emit=ptx -o %t.80.ptx
// RUN: FileCheck %s --check-prefix=SM80 < %t.80.ptx
// RUN: terrazzo-compile %s --target=cuda:90 --num-warps=4 --emit=ptx --host-tensormaps -o %t.host.ptx
// RUN: FileCheck %s --check-prefix=HOST < %t.host.ptx
// RUN: FileCheck %s --check-prefix=HOSTJSON < %t.host.ptx.json
// RUN: %ptxas -arch=sm_90a %t.host.ptx -o %t.host.cubin
// With --host-tensormaps the three maps, of arguments alone, are built by
// the launcher and passed after the arguments as CUDA passes a
// CUtensorMap (128 bytes by value, grid constant: the TMA copies read
// them at their generic address, cvta.param; aligned to 128, a line each,
// and prefetched by thread 0 on entry); nothing is
// built in the kernel and it takes no global scratch. The metadata says
// which argument each extent and stride is.
// HOST-LABEL: .entry tma_copy(
// HOST: .param .u32 tma_copy_param_5,
// HOST-NEXT: .param .align 128 .b8 tma_copy_param_6[128],
// HOST-NEXT: .param .align 128 .b8 tma_copy_param_7[128],
// HOST-NEXT: .param .align 128 .b8 tma_copy_param_8[128]
// HOST-NEXT: )
// HOST-DAG: mov.b64 %[[P6:rd[0-9]+]], tma_copy_param_6;
// HOST-DAG: cvta.param.u64 %[[X:rd[0-9]+]], %[[P6]];
// HOST-DAG: mov.b64 %[[P7:rd[0-9]+]], tma_copy_param_7;
// HOST-DAG: cvta.param.u64 %[[Y:rd[0-9]+]], %[[P7]];
// HOST: @p prefetch.tensormap
// HOST: @p prefetch.tensormap
// HOST: @p prefetch.tensormap
// HOST-NOT: tensormap.replace
// HOST-NOT: fence.proxy.tensormap
// HOST: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{{.*}}], [%[[X]], {{{.*}}}]
// HOST: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%[[Y]], {{{.*}}}]
// HOSTJSON: "global_scratch_bytes": 0,
// HOSTJSON: "host_tensormaps": [
// HOSTJSON-NEXT: {"parameter": 6, "base": 0, "element_bytes": 2, "shape": [{"argument": 4}, {"argument": 5}], "strides": [{"argument": 5}, {"value": 1}], "box": [64, 64], "swizzle_bytes": 128, "stored": false},
// HOSTJSON-NEXT: {"parameter": 7, "base": 1, "element_bytes": 2, "shape": [{"argument": 4}, {"argument": 5}], "strides": [{"argument": 5}, {"value": 1}], "box": [64, 64], "swizzle_bytes": 128, "stored": true},
// HOSTJSON-NEXT: {"parameter": 8, "base": 2, "element_bytes": 4, "shape": [{"argument": 4}], "strides": [{"value": 1}], "box": [128], "swizzle_bytes": 0, "stored": false}
// HOSTJSON-NEXT: ],
// With TERRAZZO_TMA=0, pointer accesses on sm_90 too.
// OFF-LABEL: .entry tma_copy(
// OFF-NOT: cp.async.bulk.tensor
// OFF: ld.global
// CHECK-LABEL: .entry tma_copy(
// CHECK: %[[TID:r[0-9]+]], %tid.x;
// CHECK: setp.gt.u32 %{{p[0-9]+}}, %[[TID]], 31;
// CHECK: setp.ne.b32 %{{p[0-9]+}}, %[[TID]], 0;
// CHECK: tensormap.replace.tile.global_address.shared::cta.b1024.b64
// CHECK: tensormap.replace.tile.rank.shared::cta.b1024.b32 [{{.*}}], 1;
// CHECK: tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [{{.*}}], 0,
// CHECK: tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [{{.*}}], 0,
// CHECK: tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [{{.*}}], 3;
// CHECK: tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned
// CHECK-NEXT: // end inline asm
// CHECK-NEXT: cp.async.bulk.commit_group;
// CHECK-NEXT: cp.async.bulk.wait_group.read 0;
// CHECK-NOT: bar.sync
// CHECK-NOT: fence.proxy.tensormap
// CHECK: add.s32 %[[LANE1:r[0-9]+]], %[[TID]], -32;
// CHECK: setp.gt.u32 %{{p[0-9]+}}, %[[LANE1]], 31;
// CHECK: setp.ne.b32 %{{p[0-9]+}}, %[[LANE1]], 0;
// CHECK: tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned
// CHECK-NOT: fence.proxy.tensormap
// CHECK: bar.sync 0;
// CHECK: fence.proxy.tensormap::generic.acquire.gpu
// CHECK: fence.proxy.tensormap::generic.acquire.gpu
// CHECK: mbarrier.init.shared.b64 [global_smem+{{[0-9]+}}], %r{{[0-9]+}};
// CHECK-NEXT: fence.mbarrier_init.release.cluster;
// CHECK: bar.sync 0;
// CHECK: mov.b32 %[[TX:r[0-9]+]], 8192;
// CHECK: mbarrier.arrive.expect_tx.shared::cta.b64 _, [{{.*}}], %[[TX]];
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{{.*}}], [{{.*}}, {{{.*}}}], [global_smem+{{[0-9]+}}];
// CHECK: mbarrier.try_wait.parity.shared::cta.b64
// CHECK: bar.sync 0;
// CHECK: mbarrier.inval.shared.b64
// CHECK: fence.proxy.async.shared::cta;
// CHECK: bar.sync 0;
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [{{.*}}, {{{.*}}}], [{{.*}}];
// CHECK: cp.async.bulk.commit_group;
// CHECK: cp.async.bulk.wait_group.read 0;
// The 1-D f32 block is loaded by TMA too; its store, of an extent not
// known to be a multiple of 16 bytes (a TMA store would write past it),
// is pointer accesses.
// CHECK: cp.async.bulk.tensor.1d.shared::cluster.global
// CHECK-NOT: cp.async.bulk.tensor.1d.global
// CHECK: st.global
// SM80-LABEL: .entry tma_copy(
// SM80-NOT: cp.async.bulk
// SM80-NOT: tensormap
// SM80: ld.global
func.func @tma_copy(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %v: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %w: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i32, %n: i32 {tile.divisibility = 16 : i32}) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %c1 = arith.constant 1 : i64
  %pid = tile.program_id x : i32
  %row = arith.muli %pid, %c64 : i32
  %s = arith.extsi %n : i32 to i64
  %xd = tile.make_tensor_desc %x, [%m, %n], [%s, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
  %yd = tile.make_tensor_desc %y, [%m, %n], [%s, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
  %block = tile.desc_load %xd[%row, %c0] : !tile.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
  tile.desc_store %yd[%row, %c0], %block : !tile.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16>
  %vd = tile.make_tensor_desc %v, [%m], [%c1] : !tile.ptr<f32> -> !tile.tensordesc<tensor<128xf32>>
  %wd = tile.make_tensor_desc %w, [%m], [%c1] : !tile.ptr<f32> -> !tile.tensordesc<tensor<128xf32>>
  %off = arith.muli %pid, %c128 : i32
  %vec = tile.desc_load %vd[%off] : !tile.tensordesc<tensor<128xf32>> -> tensor<128xf32>
  tile.desc_store %wd[%off], %vec : !tile.tensordesc<tensor<128xf32>>, tensor<128xf32>
  return
}
