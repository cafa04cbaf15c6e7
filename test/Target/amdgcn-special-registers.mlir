// tl.extra.cuda's registers and libdevice.fast_tanhf in AMDGCN. The global
// timer reads the 100 MHz constant counter (s_memrealtime) and scales the
// ticks to nanoseconds (times 10); the processor id is the compute unit,
// s_getreg_b32 of HW_ID's bits 15:8 (CU_ID, SH_ID, SE_ID) and, on gfx942
// and gfx950, of XCC_ID's bits 3:0 shifted above them. The grid dependency
// controls are nothing (no programmatic dependent launch). Fast tanh is
// ocml's, inlined (on v_exp_f32 and v_rcp_f32): nothing is called. The
// assembly assembles and links.

// RUN: terrazzo-compile %s --target=hip:gfx942 --num-warps=1 --emit=amdgcn -o %t.s
// RUN: FileCheck %s < %t.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t.s -o %t.o
// RUN: ld.lld -shared %t.o -o %t.hsaco
// RUN: llvm-nm -D --undefined-only %t.hsaco | count 0
// CHECK-LABEL: registers:
// CHECK-DAG: s_memrealtime s{{\[}}[[START:[0-9]+]]:{{[0-9]+}}]
// CHECK-DAG: s_getreg_b32 s[[CU:[0-9]+]], hwreg(HW_REG_HW_ID, 8, 8)
// CHECK-DAG: s_getreg_b32 s[[XCC:[0-9]+]], hwreg(HW_REG_XCC_ID, 0, 4)
// CHECK-DAG: s_lshl_b32 s[[HIGH:[0-9]+]], s[[XCC]], 8
// CHECK-DAG: s_or_b32 s{{[0-9]+}}, s[[HIGH]], s[[CU]]
// CHECK: s_memrealtime
// CHECK: s_mul_i32 s{{[0-9]+}}, s{{[0-9]+}}, 10
// CHECK: s_endpgm
// CHECK-LABEL: fast_tanh:
// CHECK-NOT: s_swappc
// CHECK: v_exp_f32
// CHECK: v_rcp_f32
// CHECK-NOT: s_swappc
// CHECK: s_endpgm

// gfx90a has one die: no XCC_ID. gfx950 reads it as gfx942 does.
// RUN: terrazzo-compile %s --target=hip:gfx90a --num-warps=1 -o %t.90a.hsaco
// RUN: llvm-nm -D --undefined-only %t.90a.hsaco | count 0
// RUN: llvm-objdump -d %t.90a.hsaco | FileCheck %s --check-prefix=GFX90A
// GFX90A-LABEL: <registers>:
// GFX90A-NOT: HW_REG_XCC_ID
// GFX90A: s_getreg_b32 s{{[0-9]+}}, hwreg(HW_REG_HW_ID, 8, 8)
// GFX90A-NOT: HW_REG_XCC_ID
// GFX90A: s_endpgm
// RUN: terrazzo-compile %s --target=hip:gfx950 --num-warps=1 -o %t.950.hsaco
// RUN: llvm-nm -D --undefined-only %t.950.hsaco | count 0
// RUN: llvm-objdump -d %t.950.hsaco | FileCheck %s --check-prefix=GFX950
// GFX950-LABEL: <registers>:
// GFX950-DAG: s_memrealtime
// GFX950-DAG: hwreg(HW_REG_HW_ID, 8, 8)
// GFX950-DAG: hwreg(HW_REG_XCC_ID, 0, 4)
// GFX950: s_endpgm

func.func @registers(%t: !tile.ptr<i64>, %p: !tile.ptr<i32>) {
  tilegpu.grid_dependency_wait
  %start = tilegpu.global_timer : i64
  %cu = tilegpu.processor_id : i32
  tile.store %p, %cu : !tile.ptr<i32>
  %end = tilegpu.global_timer : i64
  %d = arith.subi %end, %start : i64
  tile.store %t, %d : !tile.ptr<i64>
  tilegpu.grid_dependency_launch
  return
}

func.func @fast_tanh(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %px = tile.splat %x : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %ax = tile.addptr %px, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %v = tile.load %ax : tensor<64x!tile.ptr<f32>>
  %y = math.tanh %v fastmath<afn> : tensor<64xf32>
  tile.store %ax, %y : tensor<64x!tile.ptr<f32>>
  return
}
