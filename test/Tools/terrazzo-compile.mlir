// terrazzo-compile: a tile IR kernel to a binary and the JSON metadata a
// launcher needs, or a located error and a non-zero exit. The kernels are
// the //--- parts at the end (split-file keeps their line numbers).
// RUN: rm -rf %t && split-file --leading-lines %s %t

// A cubin (or PTX, where no assembler exists) and its JSON beside it.
// RUN: terrazzo-compile %t/add.mlir --target=cuda:90 --num-warps=4 --emit=cubin -o %t/add.cubin
// RUN: FileCheck %s --check-prefixes=JSON,JSON-AUTO < %t/add.cubin.json
// JSON:      {
// JSON-NEXT:   "name": "add_kernel",
// JSON-NEXT:   "target": "cuda:90",
// JSON-NEXT:   "num_warps": 4,
// JSON-NEXT:   "warp_size": 32,
// JSON-NEXT:   "threads_per_block": 128,
// JSON-NEXT:   "shared_memory_bytes": 0,
// JSON-NEXT:   "global_scratch_bytes": 0,
// JSON-NEXT:   "host_tensormaps": [],
// JSON-AUTO-NEXT: "binary": "[[BINARY:cubin|ptx]]",
// JSON-AUTO-NEXT: "assembler": "{{ptxas|nvJitLink|driver}}",
// JSON-PTXAS-NEXT: "binary": "cubin",
// JSON-PTXAS-NEXT: "assembler": "ptxas",
// JSON-NEXT:   "arguments": [
// JSON-NEXT:     {"type": "!tile.ptr<f32>", "divisibility": 16},
// JSON-NEXT:     {"type": "!tile.ptr<f16>", "divisibility": 1},
// JSON-NEXT:     {"type": "i32", "divisibility": 16},
// JSON-NEXT:     {"type": "f32", "divisibility": 1}
// JSON-NEXT:   ]
// JSON-NEXT: }

// With ptxas forced (where there is one): a real cubin, an ELF file.
// RUN: %if ptxas %{ env TERRAZZO_ASSEMBLER=ptxas PTXAS=%ptxas terrazzo-compile %t/add.mlir --target=cuda:90 --num-warps=4 --emit=cubin -o %t/add-ptxas.cubin %}
// RUN: %if ptxas %{ FileCheck %s --check-prefixes=JSON,JSON-PTXAS < %t/add-ptxas.cubin.json %}
// RUN: %if ptxas %{ od -An -c -N4 %t/add-ptxas.cubin | FileCheck %s --check-prefix=ELF %}
// ELF: 177 E L F

// The driver (TERRAZZO_ASSEMBLER=driver): the "binary" is the PTX itself.
// RUN: env TERRAZZO_ASSEMBLER=driver terrazzo-compile %t/add.mlir --target=cuda:90 -o %t/add-driver.cubin
// RUN: FileCheck %s --check-prefix=DRIVER-JSON < %t/add-driver.cubin.json
// RUN: FileCheck %s --check-prefix=DRIVER-BIN < %t/add-driver.cubin
// DRIVER-JSON: "binary": "ptx",
// DRIVER-JSON-NEXT: "assembler": "driver",
// DRIVER-BIN: .target sm_90a
// DRIVER-BIN: .visible .entry add_kernel(

// For a hip target the binary is an hsaco by default (an ELF code object
// for AMDGPU, linked by ld.lld), with the same metadata (wavefronts of 64).
// RUN: terrazzo-compile %t/add.mlir --target=hip:gfx942 --num-warps=4 -o %t/add.hsaco
// RUN: FileCheck %s --check-prefix=HSACO-JSON < %t/add.hsaco.json
// RUN: llvm-readelf -h %t/add.hsaco | FileCheck %s --check-prefix=HSACO-ELF
// HSACO-JSON:      "target": "hip:gfx942",
// HSACO-JSON-NEXT: "num_warps": 4,
// HSACO-JSON-NEXT: "warp_size": 64,
// HSACO-JSON-NEXT: "threads_per_block": 256,
// HSACO-JSON:      "binary": "hsaco",
// HSACO-JSON-NEXT: "assembler": "ld.lld",
// HSACO-ELF: Type: DYN (Shared object file)
// HSACO-ELF: Machine: EM_AMDGPU
// An assembler hip targets do not have.
// RUN: not terrazzo-compile %t/add.mlir --target=hip:gfx942 --assembler=ptxas -o %t/bad.hsaco 2>&1 | FileCheck %s --check-prefix=HIP-ASSEMBLER
// HIP-ASSEMBLER: add.mlir: error: hsaco files are linked by ld.lld; the assembler 'ptxas' is not one of hip:gfx942's (auto, ld.lld)
// 32 wavefronts of 64 are more work-items than a workgroup has.
// RUN: not terrazzo-compile %t/add.mlir --target=hip:gfx90a --num-warps=32 -o %t/bad.hsaco 2>&1 | FileCheck %s --check-prefix=HIP-WARPS
// HIP-WARPS: add.mlir: error: num-warps 32 of 64 threads is more than the 1024 threads a program instance may have on hip:gfx90a

// Another launch configuration and target; --emit=ptx writes JSON too.
// RUN: terrazzo-compile %t/add.mlir --target=cuda:80 --num-warps=8 --emit=ptx -o %t/add-sm80.ptx
// RUN: FileCheck %s --check-prefix=PTX-JSON < %t/add-sm80.ptx.json
// RUN: FileCheck %s --check-prefix=SM80-PTX < %t/add-sm80.ptx
// PTX-JSON:      "target": "cuda:80",
// PTX-JSON-NEXT: "num_warps": 8,
// PTX-JSON-NEXT: "warp_size": 32,
// PTX-JSON-NEXT: "threads_per_block": 256,
// PTX-JSON:      "binary": "ptx",
// SM80-PTX: .target sm_80
// SM80-PTX: .maxntid 256, 1, 1

// tilegpu IR (--emit=tilegpu, as dumped or edited) compiles from there on
// with the warps it was made with (not --num-warps'), to the same PTX as
// the kernel compiled from tile IR; an edit there reaches the PTX.
// RUN: terrazzo-compile %t/add.mlir --target=cuda:80 --num-warps=8 --emit=tilegpu -o %t/add-sm80.tilegpu
// RUN: terrazzo-compile %t/add-sm80.tilegpu --target=cuda:80 --emit=ptx -o %t/add-sm80-again.ptx
// RUN: FileCheck %s --check-prefix=PTX-JSON < %t/add-sm80-again.ptx.json
// RUN: diff %t/add-sm80.ptx %t/add-sm80-again.ptx
// RUN: sed -e 's/arith.mulf/arith.addf/' %t/add-sm80.tilegpu > %t/add-edited.tilegpu
// RUN: terrazzo-compile %t/add-edited.tilegpu --target=cuda:80 --emit=ptx -o - | FileCheck %s --check-prefix=EDITED
// EDITED-NOT: mul.f32
// EDITED: add.f32
// EDITED-NOT: mul.f32

// Errors. An unknown target lists the accepted ones, and nothing is written.
// RUN: not terrazzo-compile %t/add.mlir --target=cuda:91 -o %t/bad.cubin 2>&1 | FileCheck %s --check-prefix=BAD-TARGET
// RUN: not ls %t/bad.cubin
// RUN: not ls %t/bad.cubin.json
// BAD-TARGET: add.mlir: error: unknown target 'cuda:91'; expected one of cuda:70, cuda:75, cuda:80, cuda:86, cuda:87, cuda:89, cuda:90, cuda:100, cuda:103, cuda:120, hip:gfx90a, hip:gfx942, hip:gfx950, hip:gfx1100, hip:gfx1200, hip:gfx1201{{$}}

// RUN: not terrazzo-compile %t/add.mlir --emit=sass -o %t/bad.sass 2>&1 | FileCheck %s --check-prefix=BAD-EMIT
// BAD-EMIT: terrazzo-compile: error: unknown --emit kind 'sass'; expected tile, tilegpu, llvm, llvmir, ptx, cubin, amdgcn or hsaco

// A vendor's stages exist for its targets only.
// RUN: not terrazzo-compile %t/add.mlir --target=hip:gfx942 --emit=ptx -o %t/bad.ptx 2>&1 | FileCheck %s --check-prefix=HIP-PTX
// HIP-PTX: add.mlir: error: stage 'ptx' does not exist for hip:gfx942, which compiles to amdgcn and hsaco
// RUN: not terrazzo-compile %t/add.mlir --target=cuda:90 --emit=hsaco -o %t/bad.hsaco 2>&1 | FileCheck %s --check-prefix=CUDA-HSACO
// CUDA-HSACO: add.mlir: error: stage 'hsaco' does not exist for cuda:90, which compiles to ptx and cubin

// RUN: not terrazzo-compile %t/missing.mlir -o %t/bad.cubin 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: terrazzo-compile: error: cannot read '{{.*}}missing.mlir'

// RUN: not terrazzo-compile --target=cuda:90 2>&1 | FileCheck %s --check-prefix=NO-INPUT
// NO-INPUT: terrazzo-compile: error: no input file
// NO-INPUT-NEXT: usage: terrazzo-compile <input.mlir>

// RUN: not terrazzo-compile %t/add.mlir --num-warps=3 -o %t/bad.cubin 2>&1 | FileCheck %s --check-prefix=BAD-WARPS
// BAD-WARPS: add.mlir: error: num-warps must be a power of two from 1 to 32, got 3

// RUN: not env TERRAZZO_ASSEMBLER=bogus terrazzo-compile %t/add.mlir -o %t/bad.cubin 2>&1 | FileCheck %s --check-prefix=BAD-ASSEMBLER
// BAD-ASSEMBLER: add.mlir: error: unknown assembler 'bogus'; expected auto, ptxas, nvJitLink or driver

// An op the backend cannot lower yet (a load through a tensor descriptor
// passed as an argument), reported at its line and column.
// RUN: not terrazzo-compile %t/desc.mlir -o %t/bad.cubin 2>&1 | FileCheck %s --check-prefix=DESC
// (the DESC check sits next to the op, in desc.mlir)

// A layout conversion that moves data between threads goes through shared
// memory; the JSON has the bytes the kernel must be launched with (16
// floats). A kernel without one needs none (add.mlir, above).
// RUN: terrazzo-compile %t/outer.mlir --target=cuda:90 --emit=ptx -o %t/outer.ptx
// RUN: FileCheck %s --check-prefix=SHARED-JSON < %t/outer.ptx.json
// SHARED-JSON:      "threads_per_block": 128,
// SHARED-JSON-NEXT: "shared_memory_bytes": 64,

// A conversion larger than the target's shared memory (256 KiB on the
// H100's 227 KiB) goes in two rounds, one half of the rows at a time in
// 128 KiB: stores, a barrier, loads, a barrier before the second half's
// stores overwrite the first's, a barrier, loads (where no split exists,
// the allocation's located error: allocate-shared-memory.mlir).
// RUN: terrazzo-compile %t/outer-huge.mlir --target=cuda:90 --emit=ptx -o %t/outer-huge.ptx
// RUN: FileCheck %s --check-prefix=HUGE-JSON < %t/outer-huge.ptx.json
// RUN: FileCheck %s --check-prefix=HUGE < %t/outer-huge.ptx
// HUGE-JSON: "shared_memory_bytes": 131072,
// HUGE-COUNT-256: st.shared.b32
// HUGE-NOT: ld.shared
// HUGE:           bar.sync
// HUGE-NOT: st.shared
// HUGE-COUNT-512: ld.shared.b32
// HUGE-NOT: st.shared
// HUGE:           bar.sync
// HUGE-NOT: ld.shared
// HUGE-COUNT-256: st.shared.b32
// HUGE-NOT: ld.shared
// HUGE:           bar.sync
// HUGE-NOT: st.shared
// HUGE-COUNT-512: ld.shared.b32
// HUGE-NOT: {{st.shared|ld.shared|bar.sync}}
// HUGE:           ret;

// A module without a kernel.
// RUN: not terrazzo-compile %t/no-kernel.mlir -o %t/bad.cubin 2>&1 | FileCheck %s --check-prefix=NO-KERNEL
// NO-KERNEL: no-kernel.mlir: error: the module has no kernel: a public func.func with a body

// A kernel that returns a value (PTX kernels cannot), at its line.
// RUN: not terrazzo-compile %t/returns.mlir -o %t/bad.cubin 2>&1 | FileCheck %s --check-prefix=RETURNS
// (the RETURNS check sits next to the function, in returns.mlir)

// ptxas rejecting the PTX: the error names ptxas and carries its output.
// RUN: not env TERRAZZO_ASSEMBLER=ptxas PTXAS=%S/Inputs/failing-ptxas.sh terrazzo-compile %t/add.mlir --target=cuda:90 -o %t/bad.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS-FAIL
// RUN: not ls %t/bad.cubin
// PTXAS-FAIL: add.mlir: error: ptxas ({{.*}}Inputs/failing-ptxas.sh) failed:
// PTXAS-FAIL-NEXT: ptxas fatal   : fake failure for -arch=sm_90a

//--- add.mlir
// Scales x[i] in place for i < n; y is unused but still part of the
// signature the JSON describes.
func.func @add_kernel(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                      %y: !tile.ptr<f16>,
                      %n: i32 {tile.divisibility = 16 : i32},
                      %scale: f32) {
  %pid = tile.program_id x : i32
  %c1024 = arith.constant 1024 : i32
  %start = arith.muli %pid, %c1024 : i32
  %starts = tile.splat %start : i32 -> tensor<1024xi32>
  %range = tile.make_range 0 to 1024 : tensor<1024xi32>
  %off = arith.addi %starts, %range : tensor<1024xi32>
  %ns = tile.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %off, %ns : tensor<1024xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %off : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %xv = tile.load %xp, %mask : tensor<1024x!tile.ptr<f32>>
  %scales = tile.splat %scale : f32 -> tensor<1024xf32>
  %v = arith.mulf %xv, %scales : tensor<1024xf32>
  tile.store %xp, %v, %mask : tensor<1024x!tile.ptr<f32>>
  return
}

//--- desc.mlir
func.func @desc_kernel(%d: !tile.tensordesc<tensor<64x32xf16>>, %m: i32, %i: i32) {
  // DESC: desc.mlir:[[# @LINE + 1]]:8: error: 'tile.desc_load' op reads a tensor descriptor that does not come from a tile.make_tensor_desc in the same function
  %v = tile.desc_load %d[%i, %i] : !tile.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
  tile.desc_store %d[%i, %m], %v : !tile.tensordesc<tensor<64x32xf16>>, tensor<64x32xf16>
  return
}

//--- no-kernel.mlir
func.func private @helper(%x: i32) -> i32 {
  return %x : i32
}

//--- returns.mlir
// RETURNS: returns.mlir:[[# @LINE + 1]]:1: error: kernel 'first_element' returns values; a kernel (a public function) must return nothing
func.func @first_element(%x: !tile.ptr<f32>) -> f32 {
  %v = tile.load %x : !tile.ptr<f32>
  return %v : f32
}

//--- outer.mlir
// out[i, j] = x[i] * y[j], and x stored back in place: x, used in its own
// layout and broadcast along the columns, changes threads.
func.func @outer(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %out: !tile.ptr<f32>) {
  %r16 = tile.make_range 0 to 16 : tensor<16xi32>
  %r32 = tile.make_range 0 to 32 : tensor<32xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %r16 : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  %xv = tile.load %xp : tensor<16x!tile.ptr<f32>>
  tile.store %xp, %xv : tensor<16x!tile.ptr<f32>>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<32x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %r32 : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  %yv = tile.load %yp : tensor<32x!tile.ptr<f32>>
  %xc = tile.expand_dims %xv axis = 1 : tensor<16xf32> -> tensor<16x1xf32>
  %xb = tile.broadcast %xc : tensor<16x1xf32> -> tensor<16x32xf32>
  %yr = tile.expand_dims %yv axis = 0 : tensor<32xf32> -> tensor<1x32xf32>
  %yb = tile.broadcast %yr : tensor<1x32xf32> -> tensor<16x32xf32>
  %v = arith.mulf %xb, %yb : tensor<16x32xf32>
  %rows = tile.expand_dims %r16 axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %c32 = arith.constant dense<32> : tensor<16x1xi32>
  %rowoff = arith.muli %rows, %c32 : tensor<16x1xi32>
  %rowb = tile.broadcast %rowoff : tensor<16x1xi32> -> tensor<16x32xi32>
  %cols = tile.expand_dims %r32 axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %colb = tile.broadcast %cols : tensor<1x32xi32> -> tensor<16x32xi32>
  %off = arith.addi %rowb, %colb : tensor<16x32xi32>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<16x32x!tile.ptr<f32>>
  %op = tile.addptr %os, %off : tensor<16x32x!tile.ptr<f32>>, tensor<16x32xi32>
  tile.store %op, %v : tensor<16x32x!tile.ptr<f32>>
  return
}

//--- outer-huge.mlir
// The same with 65536 rows: 256 KiB of x to move, more than an H100 has.
func.func @outer_huge(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>) {
  %r = tile.make_range 0 to 65536 : tensor<65536xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<65536x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %r : tensor<65536x!tile.ptr<f32>>, tensor<65536xi32>
  %xv = tile.load %xp : tensor<65536x!tile.ptr<f32>>
  tile.store %xp, %xv : tensor<65536x!tile.ptr<f32>>
  %xc = tile.expand_dims %xv axis = 1 : tensor<65536xf32> -> tensor<65536x1xf32>
  %xb = tile.broadcast %xc : tensor<65536x1xf32> -> tensor<65536x2xf32>
  %rows = tile.expand_dims %r axis = 1 : tensor<65536xi32> -> tensor<65536x1xi32>
  %c2 = arith.constant dense<2> : tensor<65536x1xi32>
  %rowoff = arith.muli %rows, %c2 : tensor<65536x1xi32>
  %rowb = tile.broadcast %rowoff : tensor<65536x1xi32> -> tensor<65536x2xi32>
  %c = tile.make_range 0 to 2 : tensor<2xi32>
  %cols = tile.expand_dims %c axis = 0 : tensor<2xi32> -> tensor<1x2xi32>
  %colb = tile.broadcast %cols : tensor<1x2xi32> -> tensor<65536x2xi32>
  %off = arith.addi %rowb, %colb : tensor<65536x2xi32>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<65536x2x!tile.ptr<f32>>
  %op = tile.addptr %os, %off : tensor<65536x2x!tile.ptr<f32>>, tensor<65536x2xi32>
  tile.store %op, %xb : tensor<65536x2x!tile.ptr<f32>>
  return
}
