// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --terrazzo-allocate-shared-memory --terrazzo-insert-barriers --convert-scf-to-cf --terrazzo-convert-tilegpu-to-llvm | FileCheck %s

// The AMD conversion (backends/amd): the common lowering on ROCDL.

// Grid queries read the work-group id registers; the number of programs
// calls ockl's __ockl_get_num_groups (a size_t, narrowed). A public
// function is a kernel (rocdl.kernel) with exactly num-warps wavefronts of
// 64 work-items (4 x 64 here), a private one is not.
// CHECK-LABEL: llvm.func @grid
// CHECK-SAME: rocdl.flat_work_group_size = "256,256"
// CHECK-SAME: rocdl.kernel
// CHECK-SAME: rocdl.reqd_work_group_size = array<i32: 256, 1, 1>
// CHECK: rocdl.workgroup.id.x : i32
// CHECK: rocdl.workgroup.id.y : i32
// CHECK: %[[N:.*]] = rocdl.grid.dim.x : i64
// CHECK: llvm.trunc %[[N]] : i64 to i32
// CHECK-LABEL: llvm.func @helper
// CHECK-NOT: rocdl.kernel
// CHECK-SAME: {sym_visibility = "private"}
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "hip:gfx942", "tilegpu.threads-per-warp" = 64 : i32} {
  func.func @grid(%x: !tile.ptr<i32> {tile.divisibility = 16 : i32}) {
    %a = tile.program_id x : i32
    %b = tile.program_id y : i32
    %n = tile.num_programs x : i32
    %s = arith.addi %a, %b : i32
    %t = arith.addi %s, %n : i32
    tile.store %x, %t : !tile.ptr<i32>
    return
  }
  func.func private @helper() {
    return
  }
}

// -----

// A reduction across the 64 lanes of a wavefront: DPP quad permutations
// for lane masks 1 and 2, ds_swizzle's bit mode for 4, 8 and 16
// (offset = xor << 10 | 0x1f), ds_bpermute for 32 (a byte address: the
// source lane times 4).
// CHECK-LABEL: llvm.func @wave_sum
// CHECK: rocdl.update.dpp %{{.*}}, %{{.*}} with 177, 15, 15, false : i32
// CHECK: rocdl.update.dpp %{{.*}}, %{{.*}} with 78, 15, 15, false : i32
// CHECK: %[[C4:.*]] = llvm.mlir.constant(4127 : i32) : i32
// CHECK-NEXT: rocdl.ds_swizzle %{{.*}}, %[[C4]]
// CHECK: %[[C8:.*]] = llvm.mlir.constant(8223 : i32) : i32
// CHECK-NEXT: rocdl.ds_swizzle %{{.*}}, %[[C8]]
// CHECK: %[[C16:.*]] = llvm.mlir.constant(16415 : i32) : i32
// CHECK-NEXT: rocdl.ds_swizzle %{{.*}}, %[[C16]]
// CHECK: rocdl.ds_bpermute
// CHECK-NOT: rocdl.s.barrier
// CHECK: llvm.return
#l = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [1], order = [0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, tilegpu.target = "hip:gfx942", "tilegpu.threads-per-warp" = 64 : i32} {
  func.func @wave_sum(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
    %r = tile.make_range 0 to 64 : tensor<64xi32, #l>
    %p = tile.splat %x : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>, #l>
    %a = tile.addptr %p, %r : tensor<64x!tile.ptr<f32>, #l>, tensor<64xi32, #l>
    %v = tile.load %a : tensor<64x!tile.ptr<f32>, #l>
    %s = tile.reduce (%v) axis = 0 : (tensor<64xf32, #l>) -> f32 {
    ^bb0(%l: f32, %rr: f32):
      %sum = arith.addf %l, %rr : f32
      tile.reduce.return %sum : f32
    }
    tile.store %x, %s : !tile.ptr<f32>
    return
  }
}

// -----

// Across wavefronts the partial results meet in LDS (address space 3),
// between a workgroup release fence, s_barrier and a workgroup acquire
// fence.
// CHECK-LABEL: llvm.func @block_sum
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK: llvm.fence syncscope("workgroup") release
// CHECK-NEXT: rocdl.s.barrier
// CHECK-NEXT: llvm.fence syncscope("workgroup") acquire
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
#l = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "hip:gfx90a", "tilegpu.threads-per-warp" = 64 : i32} {
  func.func @block_sum(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
    %r = tile.make_range 0 to 256 : tensor<256xi32, #l>
    %p = tile.splat %x : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>, #l>
    %a = tile.addptr %p, %r : tensor<256x!tile.ptr<f32>, #l>, tensor<256xi32, #l>
    %v = tile.load %a : tensor<256x!tile.ptr<f32>, #l>
    %s = tile.reduce (%v) axis = 0 : (tensor<256xf32, #l>) -> f32 {
    ^bb0(%l: f32, %rr: f32):
      %sum = arith.addf %l, %rr : f32
      tile.reduce.return %sum : f32
    }
    tile.store %x, %s : !tile.ptr<f32>
    return
  }
}

// -----

// Atomics are LLVM atomicrmw / cmpxchg at AMDGPU's sync scopes (gpu:
// "agent", cta: "workgroup", sys: the default), on device memory (neither
// fine-grained nor remote, as HIP's compiler assumes).
// CHECK-LABEL: llvm.func @atomics
// CHECK: llvm.atomicrmw fadd %{{.*}}, %{{.*}} syncscope("agent") monotonic {alignment = 4 : i64, rocdl.no_fine_grained_memory, rocdl.no_remote_memory}
// CHECK: llvm.atomicrmw max %{{.*}}, %{{.*}} syncscope("workgroup") acq_rel
// CHECK: llvm.atomicrmw xchg %{{.*}}, %{{.*}} release
// CHECK: llvm.cmpxchg %{{.*}}, %{{.*}}, %{{.*}} syncscope("agent") acquire acquire
module attributes {"tilegpu.num-warps" = 1 : i32, tilegpu.target = "hip:gfx942", "tilegpu.threads-per-warp" = 64 : i32} {
  func.func @atomics(%f: !tile.ptr<f32>, %i: !tile.ptr<i32>) {
    %one = arith.constant 1.0 : f32
    %k = arith.constant 7 : i32
    %a = tile.atomic_rmw fadd, relaxed, gpu, %f, %one : !tile.ptr<f32>
    %b = tile.atomic_rmw max, acq_rel, cta, %i, %k : !tile.ptr<i32>
    %c = tile.atomic_rmw xchg, release, sys, %i, %k : !tile.ptr<i32>
    %d = tile.atomic_cas acquire, gpu, %i, %k, %b : !tile.ptr<i32>
    %s = arith.addi %c, %d : i32
    tile.store %i, %s : !tile.ptr<i32>
    tile.store %f, %a : !tile.ptr<f32>
    return
  }
}

// -----

// libdevice's functions (tl.extra.libdevice) call their ocml counterparts;
// math ops that the AMDGPU back end expands less accurately (or not at
// all, in f64) do too.
// CHECK-LABEL: llvm.func @math
// CHECK: llvm.call @__ocml_asin_f32
// CHECK: llvm.call @__ocml_exp_f64
module attributes {"tilegpu.num-warps" = 1 : i32, tilegpu.target = "hip:gfx950", "tilegpu.threads-per-warp" = 64 : i32} {
  func.func @math(%x: !tile.ptr<f32>, %y: !tile.ptr<f64>) {
    %v = tile.load %x : !tile.ptr<f32>
    %a = tile.extern_elementwise "__nv_asinf"(%v) {libname = "libdevice", libpath = "", pure = true} : (f32) -> f32
    tile.store %x, %a : !tile.ptr<f32>
    %w = tile.load %y : !tile.ptr<f64>
    %e = math.exp %w : f64
    tile.store %y, %e : !tile.ptr<f64>
    return
  }
}

// -----

// A __nv_ function with no AMD counterpart (neither ocml's nor one the
// module defines: not one of libdevice's) is an error at the call.
module attributes {"tilegpu.num-warps" = 1 : i32, tilegpu.target = "hip:gfx942", "tilegpu.threads-per-warp" = 64 : i32} {
  func.func @no_counterpart(%x: !tile.ptr<f32>, %n: !tile.ptr<i32>) {
    %v = tile.load %x : !tile.ptr<f32>
    %k = tile.load %n : !tile.ptr<i32>
    // expected-error @below {{'tile.extern_elementwise' op calls libdevice's '__nv_knf', which the ROCm device libraries have no counterpart of for hip:gfx942}}
    %a = tile.extern_elementwise "__nv_knf"(%k, %v) {libname = "libdevice", libpath = "", pure = true} : (i32, f32) -> f32
    tile.store %x, %a : !tile.ptr<f32>
    return
  }
}

// -----

// One the module defines (__nv_brev: llvm.bitreverse, when the module is
// translated) keeps its name through the conversion: a call of a declared
// function.
module attributes {"tilegpu.num-warps" = 1 : i32, tilegpu.target = "hip:gfx942", "tilegpu.threads-per-warp" = 64 : i32} {
  // CHECK-LABEL: llvm.func @defined_later(
  func.func @defined_later(%x: !tile.ptr<i32>) {
    %v = tile.load %x : !tile.ptr<i32>
    // CHECK: llvm.call @__nv_brev(
    %a = tile.extern_elementwise "__nv_brev"(%v) {libname = "libdevice", libpath = "", pure = true} : (i32) -> i32
    tile.store %x, %a : !tile.ptr<i32>
    return
  }
}

// -----

// cp.async's ops (hand-written tilegpu IR; the AMD pipeline prefetches
// through registers) as a synchronous copy: a global load of the pointers,
// masked elements zero, stored into the LDS buffer; the commit and the
// wait are left with nothing to do.
#row = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [64], warpsPerCTA = [1], order = [0]}>
#s1 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, "tilegpu.threads-per-warp" = 64 : i32, tilegpu.target = "hip:gfx942"} {
  // CHECK-LABEL: llvm.func @cp_async
  // CHECK: llvm.cond_br
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<1> -> f32
  // CHECK: llvm.cond_br
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<1> -> f32
  // CHECK: llvm.store %{{.*}}, %{{.*}} : vector<2xf32>, !llvm.ptr<3>
  // CHECK-NOT: llvm.inline_asm
  // CHECK: llvm.return
  func.func @cp_async(%src: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) {
    %r = tile.make_range 0 to 128 : tensor<128xi32, #row>
    %sp = tile.splat %src : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>, #row>
    %p = tile.addptr %sp, %r : tensor<128x!tile.ptr<f32>, #row>, tensor<128xi32, #row>
    %ns = tile.splat %n : i32 -> tensor<128xi32, #row>
    %m = arith.cmpi slt, %r, %ns : tensor<128xi32, #row>
    %b = tilegpu.local_alloc : () -> !tilegpu.memdesc<128xf32, #s1, mutable>
    %t = tilegpu.async_copy_global_to_local %p, %b mask %m : tensor<128x!tile.ptr<f32>, #row>, tensor<128xi1, #row> -> !tilegpu.memdesc<128xf32, #s1, mutable>
    %g = tilegpu.async_commit_group tokens %t
    %w = tilegpu.async_wait tokens %g {num = 0 : i32}
    return
  }
}

// -----

// Inline PTX (register constraints only PTX has: h, l, f, d) is a located
// error, not the AMDGPU back end's failure to allocate the register.
#l1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [1], order = [0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, "tilegpu.threads-per-warp" = 64 : i32, tilegpu.target = "hip:gfx942"} {
  func.func @ptx_asm(%x: tensor<64xf32, #l1>) {
    // expected-error @below {{'tile.inline_asm' op has the register constraint 'f', one of NVIDIA PTX's (h, l, f, d): inline PTX has no lowering for hip:gfx942}}
    %0 = tile.inline_asm "tanh.approx.f32 $0, $1;" constraints "=f,f" (%x) {pack = 1 : i32, pure = true} : (tensor<64xf32, #l1>) -> tensor<64xf32, #l1>
    return
  }
}

// -----

// NVIDIA-only ops (wgmma, TMA, mbarrier, setmaxnreg) are located errors.
#s1 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, "tilegpu.threads-per-warp" = 64 : i32, tilegpu.target = "hip:gfx90a"} {
  func.func @mbarrier() {
    %b = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #s1, mutable>
    // expected-error @below {{'tilegpu.mbarrier_init' op is NVIDIA-only (wgmma, TMA, mbarrier, setmaxnreg); it has no lowering for hip:gfx90a}}
    tilegpu.mbarrier_init %b, 1 : !tilegpu.memdesc<1xi64, #s1, mutable>
    return
  }
}

// -----

module attributes {"tilegpu.num-warps" = 8 : i32, "tilegpu.total-num-warps" = 12 : i32, "tilegpu.threads-per-warp" = 64 : i32, tilegpu.target = "hip:gfx942"} {
  func.func @warp_specialize() {
    // expected-error @below {{'tilegpu.warp_specialize' op is NVIDIA-only (wgmma, TMA, mbarrier, setmaxnreg); it has no lowering for hip:gfx942}}
    tilegpu.warp_specialize producer_warps = 4 registers = 40, 232 {
      tilegpu.partition_end
    } producer {
      tilegpu.partition_end
    }
    return
  }
}

// -----

// fp8 conversions are integer arithmetic on AMD (the values are
// amdgcn-fp8-conversions.mlir's): from fp8 exactly; to fp8 from float32
// (float16 widened first), the subnormals through llvm.roundeven.
#l = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [1], order = [0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, "tilegpu.threads-per-warp" = 64 : i32, tilegpu.target = "hip:gfx950"} {
  // CHECK-LABEL: llvm.func @fp8
  // CHECK: llvm.zext %{{.*}} : i8 to i32
  // CHECK: llvm.fmul
  // CHECK: llvm.fptrunc %{{.*}} : f32 to f16
  // CHECK-NOT: llvm.call
  func.func @fp8(%x: tensor<64xf8E4M3FN, #l>, %y: !tile.ptr<f16>) {
    %h = tile.fp_to_fp %x : tensor<64xf8E4M3FN, #l> -> tensor<64xf16, #l>
    return
  }
}

// -----

#l = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [1], order = [0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, "tilegpu.threads-per-warp" = 64 : i32, tilegpu.target = "hip:gfx950"} {
  // CHECK-LABEL: llvm.func @to_fp8
  // CHECK: llvm.fpext %{{.*}} : f16 to f32
  // CHECK: llvm.intr.roundeven
  // CHECK: llvm.trunc %{{.*}} : i32 to i8
  // CHECK-NOT: llvm.call
  func.func @to_fp8(%x: tensor<64xf16, #l>) {
    %h = tile.fp_to_fp %x {rounding = 0 : i32} : tensor<64xf16, #l> -> tensor<64xf8E4M3FN, #l>
    return
  }
}

// -----

// wgmma's accumulator layout is NVIDIA's warps of 32: the verifier rejects
// it in a module of wavefronts of 64, at the op.
#a = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#b = #tilegpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 16}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 64 : i32, tilegpu.target = "hip:gfx942"} {
  func.func @wgmma(%a: !tilegpu.memdesc<64x64xf16, #a>, %b: !tilegpu.memdesc<64x64xf16, #b>,
                   %c: tensor<64x64xf32, #mma>) {
    // expected-error @below {{'tilegpu.warp_group_dot' op layout #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}> disagrees with the module's tilegpu.threads-per-warp = 64}}
    %d = tilegpu.warp_group_dot %a, %b, %c : !tilegpu.memdesc<64x64xf16, #a>, !tilegpu.memdesc<64x64xf16, #b> -> tensor<64x64xf32, #mma>
    return
  }
}

// -----

// NVIDIA's swizzled shared layout (wgmma's operands) has no AMD meaning.
#a = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#l = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 64], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, "tilegpu.threads-per-warp" = 64 : i32, tilegpu.target = "hip:gfx942"} {
  func.func @nvmma_shared(%x: tensor<64x64xf16, #l>) {
    // expected-error @below {{'tilegpu.local_alloc' op has a result in an NVIDIA tensor-core layout (mma.sync, wgmma), which hip:gfx942 does not have: '!tilegpu.memdesc<64x64xf16, #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>>'}}
    %q = tilegpu.local_alloc %x : (tensor<64x64xf16, #l>) -> !tilegpu.memdesc<64x64xf16, #a>
    return
  }
}

// -----

// A conversion through LDS of a tensor larger than the chip's (128 KiB of
// i64 on gfx942's 64 KiB) goes in rounds: the rows' slab bits come from
// registers only in both layouts, so each round stores and loads fixed
// registers of one half of the rows, in 64 KiB.
#rows = #tilegpu.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 64], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [64, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK: module attributes {{.*}}tilegpu.shared = 65536 : i32, tilegpu.target = "hip:gfx942"
// CHECK-LABEL: llvm.func @two_rounds(
// CHECK-COUNT-16: llvm.store {{.*}} : vector<2xi64>, !llvm.ptr<3>
// CHECK-NOT: !llvm.ptr<3>
// CHECK: rocdl.s.barrier
// CHECK-COUNT-32: llvm.load {{.*}} : !llvm.ptr<3> -> i64
// CHECK-NOT: !llvm.ptr<3>
// CHECK: rocdl.s.barrier
// CHECK-COUNT-16: llvm.store {{.*}} : vector<2xi64>, !llvm.ptr<3>
// CHECK-NOT: !llvm.ptr<3>
// CHECK: rocdl.s.barrier
// CHECK-COUNT-32: llvm.load {{.*}} : !llvm.ptr<3> -> i64
// CHECK-NOT: rocdl.s.barrier
// CHECK-NOT: !llvm.ptr<3>
// CHECK: llvm.return
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "hip:gfx942", "tilegpu.threads-per-warp" = 64 : i32} {
  func.func @two_rounds(%v: tensor<128x128xi64, #rows>, %y: tensor<128x128x!tile.ptr<i64>, #cols>) {
    %w = tilegpu.convert_layout %v : tensor<128x128xi64, #rows> -> tensor<128x128xi64, #cols>
    tile.store %y, %w : tensor<128x128x!tile.ptr<i64>, #cols>
    return
  }
}

// -----

// The same on gfx950, whose 160 KiB hold the whole tensor: one round.
#rows = #tilegpu.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 64], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [64, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK: module attributes {{.*}}tilegpu.shared = 131072 : i32, tilegpu.target = "hip:gfx950"
// CHECK-LABEL: llvm.func @one_round(
// CHECK-COUNT-32: llvm.store {{.*}} : vector<2xi64>, !llvm.ptr<3>
// CHECK-NOT: !llvm.ptr<3>
// CHECK: rocdl.s.barrier
// CHECK-COUNT-64: llvm.load {{.*}} : !llvm.ptr<3> -> i64
// CHECK-NOT: rocdl.s.barrier
// CHECK-NOT: !llvm.ptr<3>
// CHECK: llvm.return
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "hip:gfx950", "tilegpu.threads-per-warp" = 64 : i32} {
  func.func @one_round(%v: tensor<128x128xi64, #rows>, %y: tensor<128x128x!tile.ptr<i64>, #cols>) {
    %w = tilegpu.convert_layout %v : tensor<128x128xi64, #rows> -> tensor<128x128xi64, #cols>
    tile.store %y, %w : tensor<128x128x!tile.ptr<i64>, #cols>
    return
  }
}

// -----

// Where a round's rows would depend on the thread (lanes along all 128
// rows, 2 per lane) no split exists: the allocation's located error stays.
#rows = #tilegpu.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 64], warpsPerCTA = [4, 1], order = [1, 0]}>
#spread = #tilegpu.blocked<{sizePerThread = [2, 1], threadsPerWarp = [64, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "hip:gfx942", "tilegpu.threads-per-warp" = 64 : i32} {
  func.func @no_rounds(%v: tensor<128x128xi64, #rows>, %y: tensor<128x128x!tile.ptr<i64>, #spread>) {
    // expected-error @below {{'tilegpu.convert_layout' op needs 131072 bytes of shared memory to move its data between threads, more than target 'hip:gfx942' allows in one program instance (65536 bytes); use smaller blocks}}
    %w = tilegpu.convert_layout %v : tensor<128x128xi64, #rows> -> tensor<128x128xi64, #spread>
    tile.store %y, %w : tensor<128x128x!tile.ptr<i64>, #spread>
    return
  }
}

// -----

// The global timer is the 100 MHz constant counter (llvm.readsteadycounter,
// s_memrealtime) times 10: nanoseconds. The processor id is the compute
// unit: bits 15:8 of HW_ID (s_getreg_b32's field 4 | 8 << 6 | (8 - 1) << 11
// = 14852: CU_ID, SH_ID, SE_ID) and, on gfx942, XCC_ID's bits 3:0
// (20 | (4 - 1) << 11 = 6164) above them. There is no programmatic
// dependent launch: the grid dependency controls are nothing. A float32
// tanh marked afn (libdevice.fast_tanhf) is ocml's tanh.
// CHECK-LABEL: llvm.func @registers
// CHECK-NOT: griddepcontrol
// CHECK: %[[TICKS:.*]] = llvm.call_intrinsic "llvm.readsteadycounter"() : () -> i64
// CHECK: %[[TEN:.*]] = llvm.mlir.constant(10 : i64) : i64
// CHECK: llvm.mul %[[TICKS]], %[[TEN]] : i64
// CHECK: llvm.call_intrinsic "llvm.readsteadycounter"() : () -> i64
// CHECK: %[[CU_FIELD:.*]] = llvm.mlir.constant(14852 : i32) : i32
// CHECK: %[[CU:.*]] = llvm.call_intrinsic "llvm.amdgcn.s.getreg"(%[[CU_FIELD]]) : (i32) -> i32
// CHECK: %[[XCC_FIELD:.*]] = llvm.mlir.constant(6164 : i32) : i32
// CHECK: %[[XCC:.*]] = llvm.call_intrinsic "llvm.amdgcn.s.getreg"(%[[XCC_FIELD]]) : (i32) -> i32
// CHECK: %[[EIGHT:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK: %[[HIGH:.*]] = llvm.shl %[[XCC]], %[[EIGHT]] : i32
// CHECK: llvm.or %[[HIGH]], %[[CU]] : i32
// CHECK: llvm.call @__ocml_tanh_f32(
// CHECK-NOT: griddepcontrol
// CHECK: llvm.return
module attributes {"tilegpu.num-warps" = 1 : i32, tilegpu.target = "hip:gfx942", "tilegpu.threads-per-warp" = 64 : i32} {
  func.func @registers(%t: !tile.ptr<i64>, %p: !tile.ptr<i32>, %x: !tile.ptr<f32>) {
    tilegpu.grid_dependency_wait
    %start = tilegpu.global_timer : i64
    %end = tilegpu.global_timer : i64
    %d = arith.subi %end, %start : i64
    tile.store %t, %d : !tile.ptr<i64>
    %cu = tilegpu.processor_id : i32
    tile.store %p, %cu : !tile.ptr<i32>
    %v = tile.load %x : !tile.ptr<f32>
    %fast = math.tanh %v fastmath<afn> : f32
    tile.store %x, %fast : !tile.ptr<f32>
    tilegpu.grid_dependency_launch
    return
  }
}

// -----

// gfx90a has one die: the processor id is HW_ID's bits 15:8 alone. RDNA
// (gfx1100) has HW_ID1 instead: its work-group processor, WGP_ID 13:10
// (23 | 10 << 6 | (4 - 1) << 11 = 6807), SA_ID 16 (23 | 16 << 6 = 1047) and
// SE_ID 20:18 (23 | 18 << 6 | (3 - 1) << 11 = 5271), as
// SE_ID << 5 | SA_ID << 4 | WGP_ID.
// CHECK-LABEL: llvm.func @one_die
// CHECK: %[[CU_FIELD:.*]] = llvm.mlir.constant(14852 : i32) : i32
// CHECK: %[[CU:.*]] = llvm.call_intrinsic "llvm.amdgcn.s.getreg"(%[[CU_FIELD]]) : (i32) -> i32
// CHECK-NOT: llvm.amdgcn.s.getreg
// CHECK: llvm.store %[[CU]]
// CHECK: llvm.return
// CHECK-LABEL: llvm.func @rdna
// CHECK: %[[WGP_FIELD:.*]] = llvm.mlir.constant(6807 : i32) : i32
// CHECK: %[[WGP:.*]] = llvm.call_intrinsic "llvm.amdgcn.s.getreg"(%[[WGP_FIELD]]) : (i32) -> i32
// CHECK: %[[SA_FIELD:.*]] = llvm.mlir.constant(1047 : i32) : i32
// CHECK: %[[SA:.*]] = llvm.call_intrinsic "llvm.amdgcn.s.getreg"(%[[SA_FIELD]]) : (i32) -> i32
// CHECK: %[[SE_FIELD:.*]] = llvm.mlir.constant(5271 : i32) : i32
// CHECK: %[[SE:.*]] = llvm.call_intrinsic "llvm.amdgcn.s.getreg"(%[[SE_FIELD]]) : (i32) -> i32
// CHECK: %[[FIVE:.*]] = llvm.mlir.constant(5 : i32) : i32
// CHECK: %[[SE_HIGH:.*]] = llvm.shl %[[SE]], %[[FIVE]] : i32
// CHECK: %[[FOUR:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK: %[[SA_HIGH:.*]] = llvm.shl %[[SA]], %[[FOUR]] : i32
// CHECK: %[[HIGH:.*]] = llvm.or %[[SE_HIGH]], %[[SA_HIGH]] : i32
// CHECK: llvm.or %[[HIGH]], %[[WGP]] : i32
module attributes {"tilegpu.num-warps" = 1 : i32, tilegpu.target = "hip:gfx90a", "tilegpu.threads-per-warp" = 64 : i32} {
  func.func @one_die(%p: !tile.ptr<i32>) {
    %cu = tilegpu.processor_id : i32
    tile.store %p, %cu : !tile.ptr<i32>
    return
  }
}

// -----

module attributes {"tilegpu.num-warps" = 1 : i32, tilegpu.target = "hip:gfx1100", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @rdna(%p: !tile.ptr<i32>) {
    %wgp = tilegpu.processor_id : i32
    tile.store %p, %wgp : !tile.ptr<i32>
    return
  }
}
