// tl.extra.cuda's registers and grid dependency controls, and
// libdevice.fast_tanhf, in PTX: the instructions that their inline
// assembly gave before they became ops (tilegpu.global_timer,
// tilegpu.processor_id, tilegpu.grid_dependency_wait/launch, math.tanh
// marked afn), now outside inline assembly (the stores' predicated
// st.global is the only inline assembly). Before sm_90 the grid
// dependency controls are nothing; before sm_75 fast tanh is libdevice's
// (whose PTX this CUDA's ptxas, which has no sm_70, does not assemble).
// REQUIRES: ptxas
// RUN: terrazzo-compile %s --target=cuda:90 --num-warps=1 --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// RUN: terrazzo-compile %s --target=cuda:80 --num-warps=1 --emit=ptx -o %t.80.ptx
// RUN: FileCheck %s --check-prefix=SM80 < %t.80.ptx
// RUN: %ptxas -arch=sm_80 %t.80.ptx -o %t.80.cubin
// RUN: terrazzo-compile %s --target=cuda:70 --num-warps=1 --emit=ptx -o %t.70.ptx
// RUN: FileCheck %s --check-prefix=SM70 < %t.70.ptx
// CHECK-LABEL: .entry registers(
// CHECK-NOT: inline asm
// CHECK: griddepcontrol.wait;
// CHECK-NOT: inline asm
// CHECK: mov.u64 %rd[[START:[0-9]+]], %globaltimer;
// CHECK-NOT: inline asm
// CHECK: mov.u32 %r{{[0-9]+}}, %smid;
// The store's (the predicated st.global of thread 0):
// CHECK: end inline asm
// CHECK-NOT: inline asm
// CHECK: mov.u64 %rd[[END:[0-9]+]], %globaltimer;
// CHECK-NOT: inline asm
// CHECK: sub.s64 %rd{{[0-9]+}}, %rd[[END]], %rd[[START]];
// CHECK: end inline asm
// CHECK-NOT: inline asm
// CHECK: griddepcontrol.launch_dependents;
// CHECK-NOT: inline asm
// CHECK: ret;
// CHECK-LABEL: .entry fast_tanh(
// CHECK-NOT: inline asm
// CHECK: tanh.approx.f32 %r{{[0-9]+}}, %r{{[0-9]+}};
// CHECK-NOT: inline asm
// CHECK: ret;
// SM80-LABEL: .entry registers(
// SM80-NOT: griddepcontrol
// SM80: %globaltimer;
// SM80: %smid;
// SM80: %globaltimer;
// SM80-NOT: griddepcontrol
// SM80: ret;
// SM80-LABEL: .entry fast_tanh(
// SM80: tanh.approx.f32
// SM70-LABEL: .entry fast_tanh(
// SM70-NOT: tanh.approx
// SM70: ex2.approx
// SM70-NOT: tanh.approx
// SM70: ret;

func.func @registers(%t: !tile.ptr<i64>, %p: !tile.ptr<i32>) {
  tilegpu.grid_dependency_wait
  %start = tilegpu.global_timer : i64
  %sm = tilegpu.processor_id : i32
  tile.store %p, %sm : !tile.ptr<i32>
  %end = tilegpu.global_timer : i64
  %d = arith.subi %end, %start : i64
  tile.store %t, %d : !tile.ptr<i64>
  tilegpu.grid_dependency_launch
  return
}

func.func @fast_tanh(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %px = tile.splat %x : !tile.ptr<f32> -> tensor<32x!tile.ptr<f32>>
  %ax = tile.addptr %px, %r : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  %v = tile.load %ax : tensor<32x!tile.ptr<f32>>
  %y = math.tanh %v fastmath<afn> : tensor<32xf32>
  tile.store %ax, %y : tensor<32x!tile.ptr<f32>>
  return
}
