// A float16 matmul loop (64 x 64 tiles, K in steps of 32, k masked) on CDNA:
// the MFMA operands are read from swizzled LDS buffers whose rows run along
// K (terrazzo-amd-dot-operands-to-lds: vectors of kWidth, the vector index
// XORed with the row's phase), so that A and B both take ds_read_b64 on
// gfx942 (kWidth 4) and ds_read_b128 on gfx950 (kWidth 8); and the loop is
// pipelined through registers (terrazzo-pipeline's register-prefetch form):
// the loop's header issues the global loads of the next iteration and
// branches to the body, which passes its one s_barrier, reads this
// iteration's buffers, runs the MFMAs and only then writes the loaded
// values into the other buffers. With --num-stages=1 (must not) the loads
// feed the same iteration's buffer: no stack, four barriers. The assembly
// assembles again and links.

// RUN: terrazzo-compile %s --target=hip:gfx942 --num-warps=4 --emit=tilegpu -o %t.tilegpu.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.tilegpu.mlir
// RUN: terrazzo-compile %s --target=hip:gfx942 --num-warps=4 --emit=amdgcn -o %t.942.s
// RUN: FileCheck %s --check-prefixes=CHECK,GFX942 < %t.942.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t.942.s -o %t.942.o
// RUN: ld.lld -shared %t.942.o -o %t.942.hsaco
// RUN: llvm-nm -D --undefined-only %t.942.hsaco | count 0
// RUN: terrazzo-compile %s --target=hip:gfx950 --num-warps=4 --emit=amdgcn -o %t.950.s
// RUN: FileCheck %s --check-prefixes=CHECK,GFX950 < %t.950.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx950 -filetype=obj %t.950.s -o %t.950.o
// RUN: ld.lld -shared %t.950.o -o %t.950.hsaco
// RUN: terrazzo-compile %s --target=hip:gfx942 --num-warps=4 --num-stages=1 --emit=tilegpu -o %t.off.mlir
// RUN: FileCheck %s --check-prefix=OFF < %t.off.mlir
// RUN: terrazzo-compile %s --target=hip:gfx942 --num-warps=4 --num-stages=1 --emit=amdgcn -o %t.off.s
// RUN: FileCheck %s --check-prefix=OFFASM < %t.off.s

// IR-DAG: #[[STACKA:.+]] = #tilegpu.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 8, order = [2, 1, 0]}>
// IR-DAG: #[[BUFA:.+]] = #tilegpu.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 8, order = [1, 0]}>
// IR-DAG: #[[STACKB:.+]] = #tilegpu.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 8, order = [1, 2, 0]}>
// IR-DAG: #[[BUFB:.+]] = #tilegpu.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 8, order = [0, 1]}>
// IR-LABEL: func.func @matmul
// IR: %[[SA:.+]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<2x64x32xf16, #[[STACKA]], mutable>
// IR: %[[LA:.+]] = tile.load
// IR: tilegpu.local_store %[[LA]], %{{.+}} : tensor<64x32xf16, #{{.+}}> -> !tilegpu.memdesc<64x32xf16, #[[BUFA]], mutable>
// IR: %[[SB:.+]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<2x32x64xf16, #[[STACKB]], mutable>
// IR: %[[LB:.+]] = tile.load
// IR: tilegpu.local_store %[[LB]], %{{.+}} : tensor<32x64xf16, #{{.+}}> -> !tilegpu.memdesc<32x64xf16, #[[BUFB]], mutable>
// IR: scf.for {{.+}} iter_args({{.+}}, %[[READ:.+]] = %c0_i32)
// IR: %[[NA:.+]] = tile.load
// IR: %[[NB:.+]] = tile.load
// IR: %[[RA:.+]] = tilegpu.memdesc_index %[[SA]][%[[READ]]]
// IR-NEXT: %[[A:.+]] = tilegpu.local_load %[[RA]]
// IR: %[[RB:.+]] = tilegpu.memdesc_index %[[SB]][%[[READ]]]
// IR-NEXT: %[[B:.+]] = tilegpu.local_load %[[RB]]
// IR-NEXT: tile.dot %[[A]], %[[B]]
// IR: %[[WRITE:.+]] = arith.xori %[[READ]], %c1_i32
// IR: %[[WA:.+]] = tilegpu.memdesc_index %[[SA]][%[[WRITE]]]
// IR-NEXT: tilegpu.local_store %[[NA]], %[[WA]] {tilegpu.reads_retired}
// IR: %[[WB:.+]] = tilegpu.memdesc_index %[[SB]][%[[WRITE]]]
// IR-NEXT: tilegpu.local_store %[[NB]], %[[WB]] {tilegpu.reads_retired}
// IR: scf.yield {{.+}}, %[[WRITE]] :
// IR: tilegpu.local_dealloc %[[SA]]
// IR-NEXT: tilegpu.local_dealloc %[[SB]]

// CHECK-LABEL: matmul:
// CHECK: s_branch [[HEADER:.LBB0_[0-9]+]]
// CHECK-NEXT: [[BODY:.LBB0_[0-9]+]]:
// CHECK: s_barrier
// CHECK-NOT: s_barrier
// GFX942: ds_read_b64
// GFX942: ds_read_b64
// GFX942: v_mfma_f32_32x32x8_f16
// GFX950: ds_read_b128
// GFX950: ds_read_b128
// GFX950: v_mfma_f32_32x32x16_f16
// CHECK-NOT: s_barrier
// CHECK: ds_write
// CHECK-NOT: s_barrier
// CHECK: [[HEADER]]:
// CHECK-NOT: s_barrier
// CHECK-NOT: v_mfma
// CHECK: global_load_dwordx4
// CHECK-NOT: v_mfma
// CHECK: global_load_dwordx4
// CHECK-NOT: s_barrier
// CHECK: s_branch [[BODY]]
// CHECK: s_endpgm

// OFF-LABEL: func.func @matmul
// OFF-NOT: tilegpu.local_store
// OFF-NOT: memdesc<2x
// OFF: scf.for
// OFF: %[[X:.+]] = tile.load
// OFF: tilegpu.local_alloc %[[X]]
// OFF-NOT: tilegpu.local_store

// OFFASM-LABEL: matmul:
// OFFASM: s_branch [[HEADER:.LBB0_[0-9]+]]
// OFFASM-NEXT: [[BODY:.LBB0_[0-9]+]]:
// OFFASM-COUNT-4: s_barrier
// OFFASM: s_cbranch
// OFFASM-NEXT: [[HEADER]]:

func.func @matmul(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i32, %n: i32 {tile.divisibility = 16 : i32}, %k: i32 {tile.divisibility = 16 : i32}) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %rm = tile.make_range 0 to 64 : tensor<64xi32>
  %rn = tile.make_range 0 to 64 : tensor<64xi32>
  %rk = tile.make_range 0 to 32 : tensor<32xi32>
  // a's pointers and row mask.
  %am = tile.expand_dims %rm axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %ks = tile.splat %k : i32 -> tensor<64x1xi32>
  %amk = arith.muli %am, %ks : tensor<64x1xi32>
  %as = tile.splat %a : !tile.ptr<f16> -> tensor<64x1x!tile.ptr<f16>>
  %ap0 = tile.addptr %as, %amk : tensor<64x1x!tile.ptr<f16>>, tensor<64x1xi32>
  %ak = tile.expand_dims %rk axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %ap1 = tile.broadcast %ap0 : tensor<64x1x!tile.ptr<f16>> -> tensor<64x32x!tile.ptr<f16>>
  %ak1 = tile.broadcast %ak : tensor<1x32xi32> -> tensor<64x32xi32>
  %ap = tile.addptr %ap1, %ak1 : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
  %ms = tile.splat %m : i32 -> tensor<64x1xi32>
  %arow = arith.cmpi slt, %am, %ms : tensor<64x1xi32>
  %arowb = tile.broadcast %arow : tensor<64x1xi1> -> tensor<64x32xi1>
  // b's pointers and column mask.
  %bk = tile.expand_dims %rk axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %ns = tile.splat %n : i32 -> tensor<32x1xi32>
  %bkn = arith.muli %bk, %ns : tensor<32x1xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<32x1x!tile.ptr<f16>>
  %bp0 = tile.addptr %bs, %bkn : tensor<32x1x!tile.ptr<f16>>, tensor<32x1xi32>
  %bn = tile.expand_dims %rn axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %bp1 = tile.broadcast %bp0 : tensor<32x1x!tile.ptr<f16>> -> tensor<32x64x!tile.ptr<f16>>
  %bn1 = tile.broadcast %bn : tensor<1x64xi32> -> tensor<32x64xi32>
  %bp = tile.addptr %bp1, %bn1 : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
  %nsr = tile.splat %n : i32 -> tensor<1x64xi32>
  %bcol = arith.cmpi slt, %bn, %nsr : tensor<1x64xi32>
  %bcolb = tile.broadcast %bcol : tensor<1x64xi1> -> tensor<32x64xi1>
  // The steps: 32 columns of a, 32 rows of b.
  %astep = arith.constant dense<32> : tensor<64x32xi32>
  %n32 = arith.muli %n, %c32 : i32
  %bstep = tile.splat %n32 : i32 -> tensor<32x64xi32>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %r:3 = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %zero, %pa = %ap, %pb = %bp) -> (tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>) : i32 {
    // k + i < K, along a's columns and b's rows.
    %left = arith.subi %k, %i : i32
    %lefta = tile.splat %left : i32 -> tensor<1x32xi32>
    %ina = arith.cmpi slt, %ak, %lefta : tensor<1x32xi32>
    %inab = tile.broadcast %ina : tensor<1x32xi1> -> tensor<64x32xi1>
    %maska = arith.andi %arowb, %inab : tensor<64x32xi1>
    %leftb = tile.splat %left : i32 -> tensor<32x1xi32>
    %inb = arith.cmpi slt, %bk, %leftb : tensor<32x1xi32>
    %inbb = tile.broadcast %inb : tensor<32x1xi1> -> tensor<32x64xi1>
    %maskb = arith.andi %inbb, %bcolb : tensor<32x64xi1>
    %za = arith.constant dense<0.0> : tensor<64x32xf16>
    %zb = arith.constant dense<0.0> : tensor<32x64xf16>
    %x = tile.load %pa, %maska, %za : tensor<64x32x!tile.ptr<f16>>
    %y = tile.load %pb, %maskb, %zb : tensor<32x64x!tile.ptr<f16>>
    %d = tile.dot %x, %y, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %pa2 = tile.addptr %pa, %astep : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %pb2 = tile.addptr %pb, %bstep : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
    scf.yield %d, %pa2, %pb2 : tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>
  }
  // c under the M and N masks.
  %cns = tile.splat %n : i32 -> tensor<64x1xi32>
  %cmn = arith.muli %am, %cns : tensor<64x1xi32>
  %cs = tile.splat %c : !tile.ptr<f32> -> tensor<64x1x!tile.ptr<f32>>
  %cp0 = tile.addptr %cs, %cmn : tensor<64x1x!tile.ptr<f32>>, tensor<64x1xi32>
  %cp1 = tile.broadcast %cp0 : tensor<64x1x!tile.ptr<f32>> -> tensor<64x64x!tile.ptr<f32>>
  %cn1 = tile.broadcast %bn : tensor<1x64xi32> -> tensor<64x64xi32>
  %cp = tile.addptr %cp1, %cn1 : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  %crow = tile.broadcast %arow : tensor<64x1xi1> -> tensor<64x64xi1>
  %ccol = tile.broadcast %bcol : tensor<1x64xi1> -> tensor<64x64xi1>
  %cmask = arith.andi %crow, %ccol : tensor<64x64xi1>
  tile.store %cp, %r#0, %cmask : tensor<64x64x!tile.ptr<f32>>
  return
}
