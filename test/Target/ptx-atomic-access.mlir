// tile.atomic_load, tile.atomic_store and tile.atomic_poll in PTX through
// the whole pipeline: the two sides of message passing. The producer writes
// a block and raises a flag with a release store, the consumer polls the
// flag with acquire loads and then reads the block (ld/st with .release or
// .acquire and the scope, as NVPTX prints LLVM's atomic loads and stores).
// The PTX assembles.
// REQUIRES: ptxas

// RUN: terrazzo-compile %s --target=cuda:90 --num-warps=4 --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// RUN: terrazzo-compile %s --target=cuda:80 --num-warps=1 --emit=ptx -o %t.80.ptx
// RUN: FileCheck %s --check-prefix=ONE-WARP < %t.80.ptx
// RUN: %ptxas -arch=sm_80 %t.80.ptx -o %t.80.cubin

// The producer: its threads' plain stores, a barrier, then thread 0's
// release store of the flag.
// CHECK-LABEL: .entry producer(
// CHECK: st.global.v2.b32
// CHECK-NEXT: bar.sync 0;
// CHECK-NEXT: setp.ne.b32 [[NOT0:%p[0-9]+]], %r{{[0-9]+}}, 0;
// CHECK-NEXT: @[[NOT0]] bra [[SKIP:\$L__BB[0-9_]+]];
// CHECK-NOT: {{^\$L__}}
// CHECK: st.release.gpu.global.b32 [%rd{{[0-9]+}}], 1;
// CHECK-NEXT: [[SKIP]]:

// The consumer: thread 0 polls with acquire loads while the others wait at
// the barrier, then all read the block.
// CHECK-LABEL: .entry consumer(
// CHECK: [[POLL:\$L__BB[0-9_]+]]:
// CHECK-NEXT: ld.acquire.gpu.global.b32 [[V:%r[0-9]+]], [%rd{{[0-9]+}}];
// CHECK-NEXT: setp.ne.b32 [[P:%p[0-9]+]], [[V]], 1;
// CHECK-NEXT: @[[P]] bra [[POLL]];
// CHECK: bar.sync 0;
// CHECK: ld.global.v2.b32
// The relaxed cta-scope loads of the 64-bit counter, broadcast through
// shared memory.
// CHECK: ld.relaxed.cta.global.b64 [[N:%rd[0-9]+]]
// CHECK-NEXT: st.shared.b64 [global_smem], [[N]];
// The poll with a timeout reads the global timer before and in its loop;
// its result (i1) reaches all threads as a byte in shared memory.
// CHECK: mov.u64 %rd{{[0-9]+}}, %globaltimer;
// CHECK-DAG: mov.u64 %rd{{[0-9]+}}, %globaltimer;
// CHECK-DAG: ld.acquire.sys.global.b16
// CHECK: st.shared.b8
// CHECK: bar.sync 0;
// CHECK-NEXT: ld.shared.b8

// One warp: the same instructions.
// ONE-WARP-LABEL: .entry producer(
// ONE-WARP: st.release.gpu.global.b32
// ONE-WARP-LABEL: .entry consumer(
// ONE-WARP-DAG: ld.acquire.gpu.global.b32
// ONE-WARP-DAG: ld.relaxed.cta.global.b64
// ONE-WARP-DAG: ld.acquire.sys.global.b16
// ONE-WARP-DAG: %globaltimer
func.func @producer(%data: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                    %flag: !tile.ptr<i32> {tile.divisibility = 16 : i32}) {
  %c1 = arith.constant 1 : i32
  %range = tile.make_range 0 to 256 : tensor<256xi32>
  %ds = tile.splat %data : !tile.ptr<i32> -> tensor<256x!tile.ptr<i32>>
  %dp = tile.addptr %ds, %range : tensor<256x!tile.ptr<i32>>, tensor<256xi32>
  tile.store %dp, %range : tensor<256x!tile.ptr<i32>>
  tile.atomic_store release, gpu, %flag, %c1 : !tile.ptr<i32>
  return
}

func.func @consumer(%data: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                    %flag: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                    %out: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                    %counter: !tile.ptr<i64> {tile.divisibility = 16 : i32},
                    %small: !tile.ptr<i16> {tile.divisibility = 16 : i32},
                    %timeout: i64) {
  %c1 = arith.constant 1 : i32
  %range = tile.make_range 0 to 256 : tensor<256xi32>
  %ds = tile.splat %data : !tile.ptr<i32> -> tensor<256x!tile.ptr<i32>>
  %dp = tile.addptr %ds, %range : tensor<256x!tile.ptr<i32>>, tensor<256xi32>
  %seen = tile.atomic_poll acquire, gpu, %flag, %c1 : !tile.ptr<i32>
  %v = tile.load %dp : tensor<256x!tile.ptr<i32>>
  %os = tile.splat %out : !tile.ptr<i32> -> tensor<256x!tile.ptr<i32>>
  %op = tile.addptr %os, %range : tensor<256x!tile.ptr<i32>>, tensor<256xi32>
  tile.store %op, %v : tensor<256x!tile.ptr<i32>>
  // Wait for a 64-bit counter to become nonzero with relaxed loads.
  %z = arith.constant 0 : i64
  scf.while : () -> () {
    %n = tile.atomic_load relaxed, cta, %counter : !tile.ptr<i64>
    %wait = arith.cmpi eq, %n, %z : i64
    scf.condition(%wait)
  } do {
    scf.yield
  }
  %e = arith.constant 3 : i16
  %ok = tile.atomic_poll acquire, sys, %small, %e timeout %timeout : !tile.ptr<i16>
  %okw = arith.extui %ok : i1 to i32
  tile.store %out, %okw : !tile.ptr<i32>
  return
}
