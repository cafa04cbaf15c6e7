// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --terrazzo-allocate-shared-memory --terrazzo-insert-barriers --convert-scf-to-cf --terrazzo-convert-tilegpu-to-llvm | FileCheck %s

// Each tensor becomes the struct of the values one thread holds under its
// layout; each op becomes the per-thread code that computes them.

// Grid queries read the NVVM special registers. Public functions become
// kernels launched with num-warps * threads-per-warp threads (8 * 32 here);
// a private function does not. tile.divisibility on a pointer becomes its
// LLVM alignment; on an integer it is dropped, as is tile.nonnegative (the
// passes consumed both; LLVM's translation would warn about them).

// CHECK-LABEL: llvm.func @grid
// CHECK-SAME: (%[[X:.*]]: !llvm.ptr<1> {llvm.align = 16 : i64}, %[[Y:.*]]: !llvm.ptr<1>, %[[N:.*]]: i32)
// CHECK-SAME: attributes {nvvm.kernel, nvvm.maxntid = array<i32: 256, 1, 1>}
// CHECK-NEXT: %[[PX:.*]] = nvvm.read.ptx.sreg.ctaid.x : i32
// CHECK-NEXT: %[[PY:.*]] = nvvm.read.ptx.sreg.ctaid.y : i32
// CHECK-NEXT: %[[PZ:.*]] = nvvm.read.ptx.sreg.ctaid.z : i32
// CHECK-NEXT: %[[NX:.*]] = nvvm.read.ptx.sreg.nctaid.x : i32
// CHECK-NEXT: %[[NY:.*]] = nvvm.read.ptx.sreg.nctaid.y : i32
// CHECK-NEXT: %[[NZ:.*]] = nvvm.read.ptx.sreg.nctaid.z : i32
// CHECK-NEXT: %[[S1:.*]] = llvm.add %[[PX]], %[[PY]] : i32
// CHECK-NEXT: %[[S2:.*]] = llvm.add %[[S1]], %[[PZ]] : i32
// CHECK-NEXT: %[[S3:.*]] = llvm.add %[[S2]], %[[NX]] : i32
// CHECK-NEXT: %[[S4:.*]] = llvm.add %[[S3]], %[[NY]] : i32
// CHECK-NEXT: %[[S5:.*]] = llvm.add %[[S4]], %[[NZ]] : i32
// CHECK-NEXT: %[[S6:.*]] = llvm.add %[[S5]], %[[N]] : i32
// A scalar access: one element, aligned to its size. Every thread loads it
// and takes lane 0's value (shfl.sync.idx), which ptxas knows to be the same
// in every lane; thread 0 alone stores it (a predicated st.global), so that
// no thread's store lands before another thread's load of the same address.
// CHECK-NEXT: %[[P:.*]] = llvm.getelementptr %[[X]][%[[S6]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-NEXT: %[[V:.*]] = llvm.load %[[P]] {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK-NEXT: %[[LANE0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[VI:.*]] = llvm.bitcast %[[V]] : f32 to i32
// CHECK-NEXT: %[[ALL:.*]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK-NEXT: %[[CLAMP:.*]] = llvm.mlir.constant(31 : i32) : i32
// CHECK-NEXT: %[[SH:.*]] = nvvm.shfl.sync idx %[[ALL]], %[[VI]], %[[LANE0]], %[[CLAMP]] : i32 -> i32
// CHECK-NEXT: %[[U:.*]] = llvm.bitcast %[[SH]] : i32 to f32
// CHECK-NEXT: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[FIRST:.*]] = llvm.icmp "eq" %[[TID]], %[[ZERO]] : i32
// CHECK-NEXT: %[[A:.*]] = llvm.ptrtoint %[[P]] : !llvm.ptr<1> to i64
// CHECK-NEXT: %[[B:.*]] = llvm.bitcast %[[U]] : f32 to i32
// CHECK-NEXT: llvm.inline_asm has_side_effects "@$2 st.global.b32 [$0], $1;", "l,r,b" %[[A]], %[[B]], %[[FIRST]]
// CHECK-NEXT: llvm.return
// CHECK-LABEL: llvm.func @helper
// CHECK-NOT: nvvm.kernel
// CHECK-SAME: {sym_visibility = "private"}
module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @grid(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f16>,
                  %n: i32 {tile.divisibility = 16 : i32, tile.nonnegative}) {
    %a = tile.program_id x : i32
    %b = tile.program_id y : i32
    %c = tile.program_id z : i32
    %d = tile.num_programs x : i32
    %e = tile.num_programs y : i32
    %f = tile.num_programs z : i32
    %s1 = arith.addi %a, %b : i32
    %s2 = arith.addi %s1, %c : i32
    %s3 = arith.addi %s2, %d : i32
    %s4 = arith.addi %s3, %e : i32
    %s5 = arith.addi %s4, %f : i32
    %s6 = arith.addi %s5, %n : i32
    %p = tile.addptr %x, %s6 : !tile.ptr<f32>, i32
    %v = tile.load %p : !tile.ptr<f32>
    tile.store %p, %v : !tile.ptr<f32>
    return
  }
  func.func private @helper(%x: i32) -> i32 {
    return %x : i32
  }
}

// -----

// One warp, 4 consecutive elements per thread: every tensor<128 x T> is a
// struct of 4 values. make_range adds the thread's offset (lane * 4) to the
// register offsets 0..3; splat repeats its scalar; addptr and elementwise
// ops work register by register.

// CHECK-LABEL: llvm.func @blocks
// CHECK-SAME: (%[[X:.*]]: !llvm.ptr<1> {llvm.align = 16 : i64}, %[[S:.*]]: f32)
// CHECK-SAME: attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32, 1, 1>}
// make_range: lane bit i contributes 4 << i.
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[LANE:.*]] = llvm.and %[[TID]], %{{.*}} : i32
// CHECK: llvm.lshr %[[LANE]]
// CHECK: %[[C4:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-NEXT: llvm.mul %{{.*}}, %[[C4]] : i32
// CHECK: %[[C64:.*]] = llvm.mlir.constant(64 : i32) : i32
// CHECK-NEXT: %[[LAST:.*]] = llvm.mul %{{.*}}, %[[C64]] : i32
// CHECK-NEXT: %[[OFF:.*]] = llvm.xor %{{.*}}, %[[LAST]] : i32
// CHECK: %[[R3C:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-NEXT: %[[R3:.*]] = llvm.add %[[OFF]], %[[R3C]] : i32
// CHECK: %[[RANGE:.*]] = llvm.insertvalue %{{.*}}[3] : !llvm.struct<(i32, i32, i32, i32)>
// splat of the pointer: the same value in all 4 registers.
// CHECK: %[[PS0:.*]] = llvm.insertvalue %[[X]], %{{.*}}[0] : !llvm.struct<(ptr<1>, ptr<1>, ptr<1>, ptr<1>)>
// CHECK-NEXT: %[[PS1:.*]] = llvm.insertvalue %[[X]], %[[PS0]][1]
// CHECK-NEXT: %[[PS2:.*]] = llvm.insertvalue %[[X]], %[[PS1]][2]
// CHECK-NEXT: %[[PS3:.*]] = llvm.insertvalue %[[X]], %[[PS2]][3]
// addptr: one getelementptr per register.
// CHECK-COUNT-4: llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-NOT: llvm.getelementptr
// The unmasked load from 16-byte aligned, contiguous addresses: one
// vector<4xf32> load, no branch.
// CHECK-NOT: llvm.cond_br
// CHECK: %[[V:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NOT: llvm.load
// CHECK-COUNT-4: llvm.extractelement %[[V]]
// CHECK-NOT: llvm.load
// The elementwise multiply by the splat scalar: 4 fmul.
// CHECK-NOT: llvm.fmul
// CHECK-COUNT-4: llvm.fmul %{{.*}}, %{{.*}} : f32
// CHECK-NOT: llvm.fmul
// The store: one vector<4xf32> store.
// CHECK-COUNT-4: llvm.insertelement
// CHECK-NEXT: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK-NOT: llvm.cond_br
// CHECK: llvm.return
#blocked = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @blocks(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %s: f32) {
    %r = tile.make_range 0 to 128 : tensor<128xi32, #blocked>
    %xs = tile.splat %x : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>, #blocked>
    %xp = tile.addptr %xs, %r : tensor<128x!tile.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %v = tile.load %xp : tensor<128x!tile.ptr<f32>, #blocked>
    %ss = tile.splat %s : f32 -> tensor<128xf32, #blocked>
    %w = arith.mulf %v, %ss : tensor<128xf32, #blocked>
    tile.store %xp, %w : tensor<128x!tile.ptr<f32>, #blocked>
    return
  }
}

// -----

// A masked load: the mask (offsets < n, with n divisible by 16) is constant
// over each thread's 4 elements, so one predicated instruction loads one
// vector (on NVIDIA, inline PTX `@p ld.global.v4`: the outputs start as
// `other`, here zero, through tied operands); no branch, no merge. The
// masked store is one predicated `st.global.v4`.

// CHECK-LABEL: llvm.func @masked
// CHECK-NOT: llvm.cond_br
// The predicate is the first register's mask, taken from the comparison that
// made it (not extracted from the mask's struct).
// CHECK: %[[M0:.*]] = llvm.icmp "slt"
// CHECK: llvm.mlir.zero : vector<4xf32>
// CHECK: llvm.inline_asm has_side_effects "@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b,0,1,2,3" %{{.*}}, %[[M0]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (i64, i1, i32, i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NOT: llvm.load
// CHECK: llvm.inline_asm has_side_effects "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"
// CHECK-NOT: llvm.store
// CHECK-NOT: llvm.cond_br
#blocked = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @masked(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) {
    %r = tile.make_range 0 to 128 : tensor<128xi32, #blocked>
    %ns = tile.splat %n : i32 -> tensor<128xi32, #blocked>
    %m = arith.cmpi slt, %r, %ns : tensor<128xi32, #blocked>
    %xs = tile.splat %x : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>, #blocked>
    %xp = tile.addptr %xs, %r : tensor<128x!tile.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %v = tile.load %xp, %m : tensor<128x!tile.ptr<f32>, #blocked>
    tile.store %xp, %v, %m : tensor<128x!tile.ptr<f32>, #blocked>
    return
  }
}

// -----

// A masked load with an explicit `other` packs it as the fallback vector.

// CHECK-LABEL: llvm.func @masked_other
// CHECK: llvm.mlir.constant(-1.000000e+00 : f32) : f32
// CHECK-NOT: llvm.mlir.zero
// CHECK-COUNT-4: llvm.insertelement
// CHECK: llvm.bitcast %{{.*}} : vector<4xf32> to vector<4xi32>
// CHECK: llvm.inline_asm has_side_effects "@$5 ld.global.v4.b32
#blocked = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @masked_other(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) {
    %r = tile.make_range 0 to 128 : tensor<128xi32, #blocked>
    %ns = tile.splat %n : i32 -> tensor<128xi32, #blocked>
    %m = arith.cmpi slt, %r, %ns : tensor<128xi32, #blocked>
    %xs = tile.splat %x : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>, #blocked>
    %xp = tile.addptr %xs, %r : tensor<128x!tile.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %other = arith.constant dense<-1.0> : tensor<128xf32, #blocked>
    %v = tile.load %xp, %m, %other : tensor<128x!tile.ptr<f32>, #blocked>
    tile.store %xp, %v : tensor<128x!tile.ptr<f32>, #blocked>
    return
  }
}

// -----

// The vector width comes from the addresses, not only the layout: with no
// divisibility hint the 4 registers are 4 scalar loads aligned to 4 bytes;
// with a mask constant in runs of 2 only (n divisible by 2), 2-wide vectors
// each under its own predicate.

// CHECK-LABEL: llvm.func @narrow
// CHECK-NOT: vector<4xf32>
// CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK-NOT: vector<4xf32>
// CHECK: llvm.inline_asm has_side_effects "@$3 ld.global.v2.b32 {$0, $1}, [$2];", "=r,=r,l,b,0,1"
// CHECK: llvm.inline_asm has_side_effects "@$3 ld.global.v2.b32 {$0, $1}, [$2];", "=r,=r,l,b,0,1"
// CHECK-NOT: llvm.load
// CHECK-NOT: ld.global
#blocked = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @narrow(%x: !tile.ptr<f32>, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 2 : i32}) {
    %r = tile.make_range 0 to 128 : tensor<128xi32, #blocked>
    %xs = tile.splat %x : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>, #blocked>
    %xp = tile.addptr %xs, %r : tensor<128x!tile.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %v = tile.load %xp : tensor<128x!tile.ptr<f32>, #blocked>
    %ns = tile.splat %n : i32 -> tensor<128xi32, #blocked>
    %m = arith.cmpi slt, %r, %ns : tensor<128xi32, #blocked>
    %ys = tile.splat %y : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>, #blocked>
    %yp = tile.addptr %ys, %r : tensor<128x!tile.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %w = tile.load %yp, %m : tensor<128x!tile.ptr<f32>, #blocked>
    %sum = arith.addf %v, %w : tensor<128xf32, #blocked>
    tile.store %yp, %sum : tensor<128x!tile.ptr<f32>, #blocked>
    return
  }
}

// -----

// tile.print: vprintf with a format string per kind of line, the program
// id first, then (for a tensor) the element's index and value; the
// arguments travel in a stack buffer. A scalar prints once.

// CHECK-DAG: llvm.mlir.global internal constant @[[FMT_T:printfFormat_[0-9]+]]("pid (%u, %u, %u) idx (%u) r = %d\0A\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[FMT_S:printfFormat_[0-9]+]]("pid (%u, %u, %u) n = %d\0A\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[FMT_F:printfFormat_[0-9]+]]("pid (%u, %u, %u) x = %f\0A\00")
// CHECK-DAG: llvm.func @vprintf(!llvm.ptr, !llvm.ptr) -> i32
// CHECK-LABEL: llvm.func @print
// CHECK: %[[F1:.*]] = llvm.mlir.addressof @[[FMT_S]] : !llvm.ptr
// CHECK: %[[B1:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(i32, i32, i32, i32)>
// CHECK: llvm.call @vprintf(%[[F1]], %[[B1]]) : (!llvm.ptr, !llvm.ptr) -> i32
// A float is promoted to double, as C varargs require.
// CHECK: %[[D:.*]] = llvm.fpext %{{.*}} : f32 to f64
// CHECK: %[[F3:.*]] = llvm.mlir.addressof @[[FMT_F]] : !llvm.ptr
// CHECK: %[[B3:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(i32, i32, i32, f64)>
// CHECK: llvm.store %[[D]], %{{.*}} : f64, !llvm.ptr
// CHECK: llvm.call @vprintf(%[[F3]], %[[B3]])
// Two registers per thread: two lines.
// CHECK-COUNT-2: llvm.call @vprintf(%{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr) -> i32
// CHECK-NOT: llvm.call
#blocked = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @print(%n: i32, %x: f32) {
    tile.print "n = " : %n : i32
    tile.print "x = " : %x : f32
    %r = tile.make_range 0 to 64 : tensor<64xi32, #blocked>
    tile.print "r = " : %r : tensor<64xi32, #blocked>
    return
  }
}

// -----

// tile.assert: each thread ANDs its conditions and calls __assertfail with
// the message, file, line and function when one is false.

// CHECK-DAG: llvm.mlir.global internal constant @[[MSG:assertMessage_[0-9]+]]("r < n\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[FILE:assertFile_[0-9]+]]("{{.*}}tilegpu-to-llvm.mlir\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[FUNC:assertFunction_[0-9]+]]("check\00")
// CHECK-DAG: llvm.func @__assertfail(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64)
// CHECK-LABEL: llvm.func @check
// CHECK: %[[C0:.*]] = llvm.icmp "slt"
// CHECK: %[[C1:.*]] = llvm.icmp "slt"
// CHECK: %[[ALL:.*]] = llvm.and %{{.*}}, %{{.*}} : i1
// CHECK: %[[TRUE:.*]] = llvm.mlir.constant(true) : i1
// CHECK-NEXT: %[[FAILED:.*]] = llvm.xor %[[ALL]], %[[TRUE]] : i1
// CHECK-NEXT: llvm.cond_br %[[FAILED]], ^[[FAIL:.*]], ^
// CHECK-NEXT: ^[[FAIL]]:
// CHECK-DAG: %[[M:.*]] = llvm.mlir.addressof @[[MSG]]
// CHECK-DAG: %[[F:.*]] = llvm.mlir.addressof @[[FILE]]
// CHECK-DAG: %[[FN:.*]] = llvm.mlir.addressof @[[FUNC]]
// CHECK-DAG: %[[LINE:.*]] = llvm.mlir.constant([[# @LINE + 8]] : i32) : i32
// CHECK: llvm.call @__assertfail(%[[M]], %[[F]], %[[LINE]], %[[FN]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64) -> ()
#blocked = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @check(%n: i32) {
    %r = tile.make_range 0 to 64 : tensor<64xi32, #blocked>
    %ns = tile.splat %n : i32 -> tensor<64xi32, #blocked>
    %m = arith.cmpi slt, %r, %ns : tensor<64xi32, #blocked>
    tile.assert %m, "r < n" : tensor<64xi1, #blocked>
    return
  }
}

// -----

// Layout conversions that only relabel a thread's registers are free;
// broadcast and expand_dims are too when the layouts agree on the threads.
// (Here and below, functions that return tensors are private: a kernel
// returns nothing.)

// CHECK-LABEL: llvm.func @relabel
// CHECK-NOT: llvm.call
// CHECK-NOT: llvm.load
// CHECK: llvm.return
#blocked = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#slice = #tilegpu.slice<{dim = 0, parent = #blocked}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @relabel() -> tensor<64x64xi32, #blocked> {
    %r = tile.make_range 0 to 64 : tensor<64xi32, #slice>
    %e = tile.expand_dims %r axis = 0 : tensor<64xi32, #slice> -> tensor<1x64xi32, #blocked>
    %b = tile.broadcast %e : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    return %b : tensor<64x64xi32, #blocked>
  }
}

// -----

// A conversion between layouts that hold the same elements in the same
// thread only reorders registers: no shared memory, no barrier.

// CHECK-NOT: @global_smem
// CHECK-LABEL: llvm.func @permute
// CHECK-NOT: nvvm.barrier0
// CHECK-NOT: llvm.store
// CHECK-NOT: llvm.load
// CHECK: llvm.return
#a = #tilegpu.blocked<{sizePerThread = [2, 2], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>
#b = #tilegpu.blocked<{sizePerThread = [2, 2], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [0, 1]}>
module attributes {"tilegpu.num-warps" = 1 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @permute(%x: tensor<2x64xf32, #a>) -> tensor<2x64xf32, #b> {
    %y = tilegpu.convert_layout %x : tensor<2x64xf32, #a> -> tensor<2x64xf32, #b>
    return %y : tensor<2x64xf32, #b>
  }
}

// -----

// A conversion that keeps every element in its warp, where each result
// register reads the same source register in every lane, uses warp
// shuffles: no shared memory, no barrier. Here the lanes and the registers
// are transposed: lane bits 0-4 of the result read source lanes
// 8, 16, 1, 2, 4; result registers 1 and 2 read source registers 2 and 1.
// Values narrower than 32 bits are widened, 64-bit ones (and pointers) move
// in two halves.

// CHECK-NOT: @global_smem
// CHECK-LABEL: llvm.func @lanes
// CHECK-NOT: nvvm.barrier0
// CHECK: %[[L8:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK-NEXT: llvm.mul %{{.*}}, %[[L8]] : i32
// CHECK: %[[L16:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-NEXT: llvm.mul %{{.*}}, %[[L16]] : i32
// CHECK-NOT: llvm.store
// CHECK: %[[R0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[R1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[R2:.*]] = llvm.extractvalue %arg0[2]
// CHECK: llvm.bitcast %[[R0]] : f16 to i16
// CHECK: nvvm.shfl.sync idx %{{.*}}, %{{.*}}, %[[SRC:.*]], %{{.*}} : i32 -> i32
// CHECK: llvm.bitcast %[[R2]] : f16 to i16
// CHECK: nvvm.shfl.sync idx %{{.*}}, %{{.*}}, %[[SRC]], %{{.*}}
// CHECK: llvm.bitcast %[[R1]] : f16 to i16
// CHECK: nvvm.shfl.sync idx %{{.*}}, %{{.*}}, %[[SRC]], %{{.*}}
// CHECK: nvvm.shfl.sync idx %{{.*}}, %{{.*}}, %[[SRC]], %{{.*}}
// CHECK-NOT: nvvm.shfl.sync
// CHECK: llvm.return
// CHECK-LABEL: llvm.func @lanes_ptr
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.ptrtoint %{{.*}} : !llvm.ptr<1> to i64
// CHECK-COUNT-2: nvvm.shfl.sync idx
// CHECK: llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<1>
#a = #tilegpu.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
#b = #tilegpu.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [0, 1]}>
module attributes {"tilegpu.num-warps" = 2 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @lanes(%x: tensor<16x16xf16, #a>) -> tensor<16x16xf16, #b> {
    %y = tilegpu.convert_layout %x : tensor<16x16xf16, #a> -> tensor<16x16xf16, #b>
    return %y : tensor<16x16xf16, #b>
  }
  func.func private @lanes_ptr(%x: tensor<16x16x!tile.ptr<f32>, #a>) -> tensor<16x16x!tile.ptr<f32>, #b> {
    %y = tilegpu.convert_layout %x : tensor<16x16x!tile.ptr<f32>, #a> -> tensor<16x16x!tile.ptr<f32>, #b>
    return %y : tensor<16x16x!tile.ptr<f32>, #b>
  }
}

// -----

// A conversion that moves data between threads goes through shared memory:
// each thread's stores at the elements' row-major offsets, a barrier, the
// loads of the result layout (no barrier before the stores: nothing used
// shared memory before). One scalar store per element here (consecutive
// registers are not consecutive elements), one 16-byte load per thread.
// The module records the bytes it needs (512 x 4).

// CHECK: module attributes {{{.*}}tilegpu.shared = 2048 : i32
// CHECK: llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: llvm.func @shared
// CHECK-NOT: nvvm.barrier0
// CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK-NOT: llvm.store
// CHECK: nvvm.barrier0
// CHECK: %[[V:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-NOT: llvm.load
// CHECK: llvm.extractelement %[[V]]
// CHECK: llvm.return
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @shared(%x: tensor<512xf32, #a>) -> tensor<512xf32, #b> {
    %y = tilegpu.convert_layout %x : tensor<512xf32, #a> -> tensor<512xf32, #b>
    return %y : tensor<512xf32, #b>
  }
}

// -----

// A transposing conversion (rows of 4 contiguous elements per thread to
// columns) swizzles the scratch: the 16-byte chunks of each 256-byte row
// are permuted by XOR with the row's phase (row mod 8), so that the
// column reads of a warp spread over the banks; vectors stay whole. A 1-D
// conversion has nothing to swizzle.

// CHECK-LABEL: llvm.func @transpose
// CHECK: %[[ROW:.*]] = llvm.udiv %{{.*}}, %{{.*}} : i32
// CHECK: %[[PHASE:.*]] = llvm.and %[[ROW]], %{{.*}} : i32
// CHECK: %[[SHIFT:.*]] = llvm.mul %[[PHASE]], %{{.*}} : i32
// CHECK: llvm.xor %{{.*}}, %[[SHIFT]] : i32
// CHECK: llvm.store %{{.*}} : vector<4xf32>, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.udiv
// CHECK: llvm.xor
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-LABEL: llvm.func @flat
// CHECK-NOT: llvm.udiv
// CHECK: llvm.return
#row = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @transpose(%x: tensor<64x64xf32, #row>) -> tensor<64x64xf32, #col> {
    %y = tilegpu.convert_layout %x : tensor<64x64xf32, #row> -> tensor<64x64xf32, #col>
    return %y : tensor<64x64xf32, #col>
  }
  func.func private @flat(%x: tensor<512xf32, #a>) -> tensor<512xf32, #b> {
    %y = tilegpu.convert_layout %x : tensor<512xf32, #a> -> tensor<512xf32, #b>
    return %y : tensor<512xf32, #b>
  }
}

// -----

// Two conversions reuse one buffer, sized for the larger (64 x 64 x 2
// bytes; placing the second apart would need 12 KiB); i1 travels as i8.
// Addresses are row-major offsets into @global_smem. Three barriers: one
// inside each conversion, and one before the second's stores, which
// overwrite what the first's loads read.

// CHECK: module attributes {{{.*}}tilegpu.shared = 8192 : i32
// CHECK-LABEL: llvm.func @two
// CHECK: %[[BASE:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.getelementptr %[[BASE]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
// CHECK: llvm.store %{{.*}} : vector<4xf16>, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f16
// CHECK: nvvm.barrier0
// CHECK: llvm.zext %{{.*}} : i1 to i8
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i8
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.trunc %{{.*}} : i8 to i1
#row = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @two(%x: tensor<64x64xf16, #row>, %m: tensor<64xi1, #tilegpu.slice<{dim = 1, parent = #row}>>) -> (tensor<64x64xf16, #col>, tensor<64xi1, #tilegpu.slice<{dim = 1, parent = #col}>>) {
    %y = tilegpu.convert_layout %x : tensor<64x64xf16, #row> -> tensor<64x64xf16, #col>
    %n = tilegpu.convert_layout %m : tensor<64xi1, #tilegpu.slice<{dim = 1, parent = #row}>> -> tensor<64xi1, #tilegpu.slice<{dim = 1, parent = #col}>>
    return %y, %n : tensor<64x64xf16, #col>, tensor<64xi1, #tilegpu.slice<{dim = 1, parent = #col}>>
  }
}

// -----

// A reduction along the fast axis within a warp: each thread adds its 4
// registers along the axis, then 3 butterfly shuffles over the lane bits
// that move along the axis (1, 2, 4). No shared memory (the module has no
// tilegpu.shared), no barrier.

// CHECK: module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90"
// CHECK-NOT: @global_smem
// CHECK-LABEL: llvm.func @in_warp
// CHECK-NOT: nvvm.barrier0
// CHECK-NOT: !llvm.ptr<3>
// CHECK: %[[A:.*]] = llvm.fadd %{{.*}}, %{{.*}} : f32
// CHECK: %[[B:.*]] = llvm.fadd %[[A]], %{{.*}} : f32
// CHECK: %[[C:.*]] = llvm.fadd %[[B]], %{{.*}} : f32
// CHECK: %[[W:.*]] = llvm.bitcast %[[C]] : f32 to i32
// CHECK: %[[M1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %[[W]], %[[M1]], %{{.*}} : i32 -> i32
// CHECK: llvm.fadd %[[C]], %{{.*}} : f32
// CHECK: %[[M2:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[M2]], %{{.*}} : i32 -> i32
// CHECK: %[[M4:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[M4]], %{{.*}} : i32 -> i32
// CHECK: %[[S:.*]] = llvm.fadd
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: nvvm.barrier0
// CHECK-NOT: !llvm.ptr<3>
// CHECK: llvm.insertvalue %[[S]], %{{.*}}[0] : !llvm.struct<(f32)>
// CHECK: llvm.return
#row = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @in_warp(%x: tensor<16x32xf32, #row>) -> tensor<16xf32, #tilegpu.slice<{dim = 1, parent = #row}>> {
    %r = tile.reduce (%x) axis = 1 : (tensor<16x32xf32, #row>) -> tensor<16xf32, #tilegpu.slice<{dim = 1, parent = #row}>> {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tile.reduce.return %s : f32
    }
    return %r : tensor<16xf32, #tilegpu.slice<{dim = 1, parent = #row}>>
  }
}

// -----

// Across warps: after the in-thread and lane steps (5 butterflies per
// output row here), each warp writes its partials to shared memory at
// (row, warp along the axis), a barrier, every thread reads the 4 partials
// of each of its rows and combines them: one barrier, none before the
// stores as nothing used shared memory before. Two sources reduced together (argmax with the
// lower index on ties) each get an area: 16 rows x 4 warps x 4 bytes each.
// The 1-D f16 max ends with a scalar in every thread.

// CHECK: module attributes {{{.*}}tilegpu.shared = 512 : i32
// CHECK: llvm.mlir.global external @global_smem()
// CHECK-LABEL: llvm.func @argmax
// CHECK-COUNT-5: nvvm.shfl.sync bfly %{{.*}} : i32 -> i32
// CHECK: %[[BASE:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK: %[[BASE1:.*]] = llvm.getelementptr %{{.*}}[256] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NOT: nvvm.barrier0
// CHECK-NOT: llvm.load
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<3>
// CHECK-NOT: llvm.load
// CHECK: nvvm.barrier0
// CHECK-NOT: llvm.store
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// CHECK: llvm.fcmp "ogt"
// CHECK-NOT: nvvm.barrier0
// CHECK-NOT: llvm.store
// CHECK: llvm.return %{{.*}} : !llvm.struct<(struct<(f32, f32, f32, f32)>, struct<(i32, i32, i32, i32)>)>
// CHECK-LABEL: llvm.func @scalar
// CHECK: llvm.intr.maximum(%{{.*}}, %{{.*}}) : (f16, f16) -> f16
// CHECK: llvm.zext %{{.*}} : i16 to i32
// CHECK: nvvm.shfl.sync bfly
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.store %{{.*}} : f16, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f16
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return %{{.*}} : f16
#col = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [1, 0]}>
#flat = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @argmax(%x: tensor<16x128xf32, #col>, %i: tensor<16x128xi32, #col>) -> (tensor<16xf32, #tilegpu.slice<{dim = 1, parent = #col}>>, tensor<16xi32, #tilegpu.slice<{dim = 1, parent = #col}>>) {
    %r:2 = tile.reduce (%x, %i) axis = 1 : (tensor<16x128xf32, #col>, tensor<16x128xi32, #col>) -> (tensor<16xf32, #tilegpu.slice<{dim = 1, parent = #col}>>, tensor<16xi32, #tilegpu.slice<{dim = 1, parent = #col}>>) {
    ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
      %gt = arith.cmpf ogt, %b, %a : f32
      %eq = arith.cmpf oeq, %b, %a : f32
      %lt = arith.cmpi slt, %bi, %ai : i32
      %tie = arith.andi %eq, %lt : i1
      %take = arith.ori %gt, %tie : i1
      %v = arith.select %take, %b, %a : f32
      %vi = arith.select %take, %bi, %ai : i32
      tile.reduce.return %v, %vi : f32, i32
    }
    return %r#0, %r#1 : tensor<16xf32, #tilegpu.slice<{dim = 1, parent = #col}>>, tensor<16xi32, #tilegpu.slice<{dim = 1, parent = #col}>>
  }
  func.func private @scalar(%x: tensor<256xf16, #flat>) -> f16 {
    %r = tile.reduce (%x) axis = 0 : (tensor<256xf16, #flat>) -> f16 {
    ^bb0(%a: f16, %b: f16):
      %s = arith.maximumf %a, %b : f16
      tile.reduce.return %s : f16
    }
    return %r : f16
  }
}

// -----

// A non-uniform tensor constant: one clear error, before the conversion.
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @iota() -> tensor<4xi32, #a> {
    // expected-error @below {{'arith.constant' op non-uniform tensor constants cannot be lowered yet; build the values with make_range and arithmetic instead}}
    %c = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32, #a>
    return %c : tensor<4xi32, #a>
  }
}

// -----

// The module must have been through terrazzo-convert-tile-to-tilegpu.
// expected-error @below {{module has no 'tilegpu.target'; run terrazzo-convert-tile-to-tilegpu first}}
module {
  func.func @no_target() {
    return
  }
}

// -----

// A public function is a kernel, and a kernel cannot return values.
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  // expected-error @below {{kernel 'returns' returns values; a kernel (a public function) must return nothing: store results through pointer arguments, or make it private to call it from a kernel}}
  func.func @returns(%x: !tile.ptr<f32>) -> f32 {
    %v = tile.load %x : !tile.ptr<f32>
    return %v : f32
  }
}

// -----

// A dot whose operands are not in the FMA layouts of its result's layout:
// a located error, not wrong code.
#a = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @dot_layouts(%x: tensor<16x16xf16, #a>, %c: tensor<16x16xf32, #a>) -> tensor<16x16xf32, #a> {
    // expected-error @below {{'tile.dot' op operands must be in the FMA dot layouts of the result's layout}}
    %d = tile.dot %x, %x, %c : tensor<16x16xf16, #a> * tensor<16x16xf16, #a> -> tensor<16x16xf32, #a>
    return %d : tensor<16x16xf32, #a>
  }
}

// -----

// Target legality before lowering: tensor-core instructions the target
// lacks are located errors, never a selection failure in LLVM's NVPTX
// backend ("Cannot select: intrinsic llvm.nvvm.wgmma...").
#s = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#a = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:80", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @wgmma_on_sm80(%a: tensor<64x64xf16, #a>, %v: !tilegpu.memdesc<64x64xf16, #s>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    // expected-error @below {{'tilegpu.warp_group_dot' op needs wgmma, which sm_80 does not have (sm_90 only)}}
    %d = tilegpu.warp_group_dot %a, %v, %c : tensor<64x64xf16, #a>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xf32, #mma>
    return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// A warp_specialize moves register budgets with setmaxnreg (sm_90 and
// newer): below that, a located error rather than NVPTX's "Cannot select:
// intrinsic llvm.nvvm.setmaxnreg...".
module attributes {"tilegpu.num-warps" = 8 : i32, "tilegpu.total-num-warps" = 12 : i32, tilegpu.target = "cuda:80", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @warp_specialize_on_sm80() {
    // expected-error @below {{'tilegpu.warp_specialize' op moves register budgets with setmaxnreg, which sm_80 does not have (sm_90 or newer)}}
    tilegpu.warp_specialize producer_warps = 4 registers = 40, 232 {
      tilegpu.partition_end
    } producer {
      tilegpu.partition_end
    }
    return
  }
}

// -----

#mma = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#b = #tilegpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:75", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @mma_on_sm75(%x: tensor<32x32xf16, #a>, %y: tensor<32x32xf16, #b>, %c: tensor<32x32xf32, #mma>) -> tensor<32x32xf32, #mma> {
    // expected-error @below {{'tile.dot' op computes with mma.sync.m16n8k16, which sm_75 does not have (sm_80 or newer)}}
    %d = tile.dot %x, %y, %c : tensor<32x32xf16, #a> * tensor<32x32xf16, #b> -> tensor<32x32xf32, #mma>
    return %d : tensor<32x32xf32, #mma>
  }
}

// -----

// Floats the code generator has nothing for (f80 trapped in NVPTX, f128
// called a library that does not exist) are rejected where they appear.
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  // expected-error @below {{argument 1 of 'func.func' has type 'f80', which has no lowering to the GPU (its floats are f16, bf16, f32, f64, f8E4M3FN and f8E5M2)}}
  func.func @f80_argument(%p: !tile.ptr<f32>, %x: f80) {
    return
  }
}

// -----

module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @f128_value(%x: f32) {
    // expected-error @below {{a result of 'arith.extf' has type 'f128', which has no lowering to the GPU}}
    %y = arith.extf %x : f32 to f128
    return
  }
}

// -----

// Code outside any function has nowhere to run.
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  // expected-error @below {{'tilegpu.barrier' op is outside any function; a module compiled for a target holds functions (and globals) only}}
  tilegpu.barrier
  func.func @kernel() {
    return
  }
}

// -----

// A 16-bit result leaving a tensor-core accumulator layout for the stores'
// goes through shared memory with stmatrix on sm_90: four 8 x 8 matrices
// (16 bytes of a row per lane) per instruction instead of a 4-byte store
// per register pair; 32 elements per thread are four stmatrix.x4. The
// reads stay 16-byte vectors.

// CHECK-LABEL: llvm.func @mma_result_stmatrix
// CHECK-COUNT-4: nvvm.stmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : !llvm.ptr<3>, i32, i32, i32, i32
// CHECK-NOT: nvvm.stmatrix
// CHECK-NOT: llvm.store {{.*}} : vector<2xf16>, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> vector<8xf16>
// CHECK: llvm.return
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#rows = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:90"} {
  func.func private @mma_result_stmatrix(%x: tensor<64x64xf16, #mma>) -> tensor<64x64xf16, #rows> {
    %y = tilegpu.convert_layout %x : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #rows>
    return %y : tensor<64x64xf16, #rows>
  }
}

// -----

// Must not: use stmatrix before sm_90 (it does not exist there), or for
// 32-bit elements (matrices of 16-bit halves).

// CHECK-LABEL: llvm.func @mma_result_sm80
// CHECK-NOT: nvvm.stmatrix
// CHECK: llvm.store {{.*}} : vector<2xf16>, !llvm.ptr<3>
// CHECK: llvm.return
#mma = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#rows = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:80"} {
  func.func private @mma_result_sm80(%x: tensor<64x64xf16, #mma>) -> tensor<64x64xf16, #rows> {
    %y = tilegpu.convert_layout %x : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #rows>
    return %y : tensor<64x64xf16, #rows>
  }
}

// -----

// CHECK-LABEL: llvm.func @mma_result_f32
// CHECK-NOT: nvvm.stmatrix
// CHECK: llvm.store {{.*}} : vector<2xf32>, !llvm.ptr<3>
// CHECK: llvm.return
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#rows = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:90"} {
  func.func private @mma_result_f32(%x: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #rows> {
    %y = tilegpu.convert_layout %x : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #rows>
    return %y : tensor<64x64xf32, #rows>
  }
}

// -----

// In-thread combining: a combiner whose result does not depend on the order
// (max) goes as a balanced tree over the thread's four registers of a row
// (two independent steps, then one), a float sum in register order.
// CHECK-LABEL: llvm.func @in_thread_orders
// CHECK: %[[X0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[X1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[X2:.*]] = llvm.extractvalue %arg0[2]
// CHECK: %[[X3:.*]] = llvm.extractvalue %arg0[3]
// CHECK: %[[A:.*]] = llvm.call @__nv_fmaxf(%[[X0]], %[[X1]])
// CHECK-NEXT: %[[B:.*]] = llvm.call @__nv_fmaxf(%[[X2]], %[[X3]])
// CHECK-NEXT: llvm.call @__nv_fmaxf(%[[A]], %[[B]])
// CHECK: %[[Y0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[Y1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[Y2:.*]] = llvm.extractvalue %arg0[2]
// CHECK: %[[Y3:.*]] = llvm.extractvalue %arg0[3]
// CHECK: %[[S1:.*]] = llvm.fadd %[[Y0]], %[[Y1]]
// CHECK-NEXT: %[[S2:.*]] = llvm.fadd %[[S1]], %[[Y2]]
// CHECK-NEXT: llvm.fadd %[[S2]], %[[Y3]]
#rows = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @in_thread_orders(%x: tensor<128x4xf32, #rows>) -> (tensor<128xf32, #tilegpu.slice<{dim = 1, parent = #rows}>>, tensor<128xf32, #tilegpu.slice<{dim = 1, parent = #rows}>>) {
    %m = tile.reduce (%x) axis = 1 : (tensor<128x4xf32, #rows>) -> tensor<128xf32, #tilegpu.slice<{dim = 1, parent = #rows}>> {
    ^bb0(%a: f32, %b: f32):
      %t = arith.maxnumf %a, %b : f32
      tile.reduce.return %t : f32
    }
    %s = tile.reduce (%x) axis = 1 : (tensor<128x4xf32, #rows>) -> tensor<128xf32, #tilegpu.slice<{dim = 1, parent = #rows}>> {
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tile.reduce.return %t : f32
    }
    return %m, %s : tensor<128xf32, #tilegpu.slice<{dim = 1, parent = #rows}>>, tensor<128xf32, #tilegpu.slice<{dim = 1, parent = #rows}>>
  }
}

// -----

// In a loop, a masked access branches around a plain load or store (the
// branches let LLVM keep one base address and rotate the loop), up to 64
// accesses per op: here 2048 elements over 32 threads, one per access.

// CHECK-LABEL: llvm.func @masked_in_loop_guarded
// CHECK-NOT: ld.global
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK: llvm.store %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK-NOT: ld.global
// CHECK-NOT: st.global
// CHECK: llvm.return
#blocked = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @masked_in_loop_guarded(%x: !tile.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = tile.make_range 0 to 2048 : tensor<2048xi32, #blocked>
    %xs = tile.splat %x : !tile.ptr<f32> -> tensor<2048x!tile.ptr<f32>, #blocked>
    %xp = tile.addptr %xs, %r : tensor<2048x!tile.ptr<f32>, #blocked>, tensor<2048xi32, #blocked>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %ns = tile.splat %i : i32 -> tensor<2048xi32, #blocked>
      %m = arith.cmpi slt, %r, %ns : tensor<2048xi32, #blocked>
      %v = tile.load %xp, %m : tensor<2048x!tile.ptr<f32>, #blocked>
      tile.store %xp, %v, %m : tensor<2048x!tile.ptr<f32>, #blocked>
    }
    return
  }
}

// -----

// Over 64 accesses per op, a masked access in a loop is predicated as
// outside loops: a branch per access made a block per access, with every
// value the thread holds live across all of them, and LLVM's register
// allocation quadratic in the accesses (minutes for 8192 per thread). Here
// 4096 elements over 32 threads: 128 accesses.

// CHECK-LABEL: llvm.func @masked_in_loop_predicated
// CHECK-NOT: llvm.load
// CHECK: llvm.inline_asm has_side_effects "@$2 ld.global.b32 $0, [$1];"
// CHECK-NOT: llvm.load
// CHECK: llvm.inline_asm has_side_effects "@$2 st.global.b32 [$0], $1;"
// CHECK-NOT: llvm.load
// CHECK-NOT: llvm.store
// CHECK: llvm.return
#blocked = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @masked_in_loop_predicated(%x: !tile.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = tile.make_range 0 to 4096 : tensor<4096xi32, #blocked>
    %xs = tile.splat %x : !tile.ptr<f32> -> tensor<4096x!tile.ptr<f32>, #blocked>
    %xp = tile.addptr %xs, %r : tensor<4096x!tile.ptr<f32>, #blocked>, tensor<4096xi32, #blocked>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %ns = tile.splat %i : i32 -> tensor<4096xi32, #blocked>
      %m = arith.cmpi slt, %r, %ns : tensor<4096xi32, #blocked>
      %v = tile.load %xp, %m : tensor<4096x!tile.ptr<f32>, #blocked>
      tile.store %xp, %v, %m : tensor<4096x!tile.ptr<f32>, #blocked>
    }
    return
  }
}

// -----

// The hardware registers are NVVM's special registers (%globaltimer,
// %smid), the grid dependency controls griddepcontrol (sm_90 and later).
// A float32 tanh marked afn (libdevice.fast_tanhf) is LLVM's tanh with
// that flag, which NVPTX selects as tanh.approx.f32; unmarked, it is
// libdevice's tanhf.
// CHECK-LABEL: llvm.func @registers
// CHECK: nvvm.griddepcontrol wait
// CHECK: %[[T0:.*]] = nvvm.read.ptx.sreg.globaltimer : i64
// CHECK: %[[T1:.*]] = nvvm.read.ptx.sreg.globaltimer : i64
// CHECK: llvm.sub %[[T1]], %[[T0]] : i64
// CHECK: nvvm.read.ptx.sreg.smid : i32
// CHECK: llvm.intr.tanh(%{{.*}}) {fastmathFlags = #llvm.fastmath<afn>} : (f32) -> f32
// CHECK: llvm.call @__nv_tanhf(
// CHECK: nvvm.griddepcontrol launch_dependents
module attributes {"tilegpu.num-warps" = 1 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @registers(%t: !tile.ptr<i64>, %p: !tile.ptr<i32>, %x: !tile.ptr<f32>) {
    tilegpu.grid_dependency_wait
    %start = tilegpu.global_timer : i64
    %end = tilegpu.global_timer : i64
    %d = arith.subi %end, %start : i64
    tile.store %t, %d : !tile.ptr<i64>
    %sm = tilegpu.processor_id : i32
    tile.store %p, %sm : !tile.ptr<i32>
    %v = tile.load %x : !tile.ptr<f32>
    %fast = math.tanh %v fastmath<afn> : f32
    %precise = math.tanh %fast : f32
    tile.store %x, %precise : !tile.ptr<f32>
    tilegpu.grid_dependency_launch
    return
  }
}

// -----

// Before sm_90 there is no programmatic dependent launch: the grid
// dependency controls are nothing. Before sm_75 there is no
// tanh.approx.f32: a tanh marked afn is libdevice's tanhf.
// CHECK-LABEL: llvm.func @before_hopper
// CHECK-NOT: griddepcontrol
// CHECK: nvvm.read.ptx.sreg.globaltimer : i64
// CHECK-NOT: griddepcontrol
// CHECK: llvm.return
// CHECK-LABEL: llvm.func @before_turing
// CHECK-NOT: llvm.intr.tanh
// CHECK: llvm.call @__nv_tanhf(
module attributes {"tilegpu.num-warps" = 1 : i32, tilegpu.target = "cuda:80", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @before_hopper(%t: !tile.ptr<i64>) {
    tilegpu.grid_dependency_wait
    %now = tilegpu.global_timer : i64
    tile.store %t, %now : !tile.ptr<i64>
    tilegpu.grid_dependency_launch
    return
  }
}

// -----

module attributes {"tilegpu.num-warps" = 1 : i32, tilegpu.target = "cuda:70", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @before_turing(%x: !tile.ptr<f32>) {
    %v = tile.load %x : !tile.ptr<f32>
    %fast = math.tanh %v fastmath<afn> : f32
    tile.store %x, %fast : !tile.ptr<f32>
    return
  }
}

// -----

// A kernel taking a tensor by value passes one thread's registers of it as
// a parameter: 2^19 pointers over 128 threads are 32768 bytes, past the
// 32764 a launch passes (the IR fuzzer's 2^20 such argument took 11 GB to
// compile).
#big = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  // expected-error @+1 {{the kernel's parameters take 32768 bytes, more than the 32764 a launch can pass (a tensor argument is passed by value: pass a pointer to it instead)}}
  func.func @tensor_argument(%p: tensor<524288x!tile.ptr<f32>, #big>) {
    return
  }
}
