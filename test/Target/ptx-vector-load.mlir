// Global accesses reach PTX as 16-byte vector instructions where the
// addresses allow, and as scalar ones where they do not; each PTX file is
// assembled with ptxas.
// REQUIRES: ptxas
// RUN: split-file %s %t

// RUN: terrazzo-compile %t/copy-f32.mlir --target=cuda:90 --num-warps=4 --emit=ptx -o %t/copy-f32.ptx
// RUN: FileCheck %s --check-prefix=F32 < %t/copy-f32.ptx
// RUN: %ptxas -arch=sm_90a %t/copy-f32.ptx -o %t/copy-f32.cubin

// RUN: terrazzo-compile %t/copy-unaligned.mlir --target=cuda:90 --num-warps=4 --emit=ptx -o %t/copy-unaligned.ptx
// RUN: FileCheck %s --check-prefix=UNALIGNED < %t/copy-unaligned.ptx
// RUN: %ptxas -arch=sm_90a %t/copy-unaligned.ptx -o %t/copy-unaligned.cubin

// RUN: terrazzo-compile %t/copy-f16.mlir --target=cuda:90 --num-warps=4 --emit=ptx -o %t/copy-f16.ptx
// RUN: FileCheck %s --check-prefix=F16 < %t/copy-f16.ptx
// RUN: %ptxas -arch=sm_90a %t/copy-f16.ptx -o %t/copy-f16.cubin

// RUN: terrazzo-compile %t/copy-f32.mlir --target=cuda:80 --num-warps=4 --emit=ptx -o %t/copy-f32-sm80.ptx
// RUN: FileCheck %s --check-prefix=SM80 < %t/copy-f32-sm80.ptx
// RUN: %ptxas -arch=sm_80 %t/copy-f32-sm80.ptx -o %t/copy-f32-sm80.cubin

// RUN: terrazzo-compile %S/../../tutorials/vector-add.mlir --target=cuda:90 --num-warps=4 --emit=ptx -o %t/vector-add.ptx
// RUN: FileCheck %s --check-prefix=MASKED < %t/vector-add.ptx
// RUN: %ptxas -arch=sm_90a %t/vector-add.ptx -o %t/vector-add.cubin

// 512 contiguous f32 from 16-byte aligned pointers over 128 threads: one
// 16-byte load and one 16-byte store per thread, nothing scalar.
// F32: .version 8.3
// F32: .target sm_90a
// F32: .visible .entry copy_f32(
// F32-NEXT: .param .u64 .ptr .global .align 16 copy_f32_param_0,
// F32-NEXT: .param .u64 .ptr .global .align 16 copy_f32_param_1
// F32: .maxntid 128, 1, 1
// F32-NOT: ld.global
// F32: ld.global.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd{{[0-9]+}}];
// F32-NOT: ld.global
// F32-NOT: st.global
// F32: st.global.v4.b32 [%rd{{[0-9]+}}], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// F32-NOT: st.global
// F32: ret;

// The same copy through pointers with no divisibility hint: only 4-byte
// alignment is known, so every element is its own scalar access.
// UNALIGNED: .visible .entry copy_unaligned(
// UNALIGNED-NOT: .align 16
// UNALIGNED-NOT: ld.global.v{{[0-9]}}
// UNALIGNED-COUNT-4: ld.global.{{b32|f32}} %r{{[0-9]+}}, [%rd{{[0-9]+}}{{(\+[0-9]+)?}}];
// UNALIGNED-NOT: ld.global
// UNALIGNED-COUNT-4: st.global.{{b32|f32}} [%rd{{[0-9]+}}{{(\+[0-9]+)?}}], %r{{[0-9]+}};
// UNALIGNED-NOT: st.global
// UNALIGNED: ret;

// 1024 f16 over 128 threads: 8 halves, 16 bytes, per access.
// F16: .visible .entry copy_f16(
// F16-NOT: ld.global
// F16: ld.global.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd{{[0-9]+}}];
// F16-NOT: ld.global
// F16: st.global.v4.b32
// F16-NOT: st.global

// sm_80: its own PTX target and ISA version, the same vector accesses.
// SM80: .version 7.0
// SM80: .target sm_80
// SM80-NOT: ld.global
// SM80: ld.global.v4.b32
// SM80-NOT: ld.global
// SM80: st.global.v4.b32
// SM80-NOT: st.global

// The tutorial's masked vector add (1024 elements, 8 per thread): the mask
// is uniform over each 4-element vector, so each vector access is one
// predicated instruction, with no branch.
// MASKED: .visible .entry add_kernel(
// MASKED-NOT: bra
// MASKED-COUNT-4: @%p{{[0-9]+}} ld.global.v4.b32
// MASKED-NOT: ld.global
// MASKED-COUNT-2: @%p{{[0-9]+}} st.global.v4.b32
// MASKED-NOT: st.global
// MASKED-NOT: bra

//--- copy-f32.mlir
func.func @copy_f32(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                    %o: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %pid = tile.program_id x : i32
  %c512 = arith.constant 512 : i32
  %start = arith.muli %pid, %c512 : i32
  %starts = tile.splat %start : i32 -> tensor<512xi32>
  %range = tile.make_range 0 to 512 : tensor<512xi32>
  %off = arith.addi %starts, %range : tensor<512xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %off : tensor<512x!tile.ptr<f32>>, tensor<512xi32>
  %v = tile.load %xp : tensor<512x!tile.ptr<f32>>
  %os = tile.splat %o : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>>
  %op = tile.addptr %os, %off : tensor<512x!tile.ptr<f32>>, tensor<512xi32>
  tile.store %op, %v : tensor<512x!tile.ptr<f32>>
  return
}

//--- copy-unaligned.mlir
func.func @copy_unaligned(%x: !tile.ptr<f32>, %o: !tile.ptr<f32>) {
  %pid = tile.program_id x : i32
  %c512 = arith.constant 512 : i32
  %start = arith.muli %pid, %c512 : i32
  %starts = tile.splat %start : i32 -> tensor<512xi32>
  %range = tile.make_range 0 to 512 : tensor<512xi32>
  %off = arith.addi %starts, %range : tensor<512xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %off : tensor<512x!tile.ptr<f32>>, tensor<512xi32>
  %v = tile.load %xp : tensor<512x!tile.ptr<f32>>
  %os = tile.splat %o : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>>
  %op = tile.addptr %os, %off : tensor<512x!tile.ptr<f32>>, tensor<512xi32>
  tile.store %op, %v : tensor<512x!tile.ptr<f32>>
  return
}

//--- copy-f16.mlir
func.func @copy_f16(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                    %o: !tile.ptr<f16> {tile.divisibility = 16 : i32}) {
  %pid = tile.program_id x : i32
  %c1024 = arith.constant 1024 : i32
  %start = arith.muli %pid, %c1024 : i32
  %starts = tile.splat %start : i32 -> tensor<1024xi32>
  %range = tile.make_range 0 to 1024 : tensor<1024xi32>
  %off = arith.addi %starts, %range : tensor<1024xi32>
  %xs = tile.splat %x : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
  %xp = tile.addptr %xs, %off : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
  %v = tile.load %xp : tensor<1024x!tile.ptr<f16>>
  %os = tile.splat %o : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
  %op = tile.addptr %os, %off : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
  tile.store %op, %v : tensor<1024x!tile.ptr<f16>>
  return
}
