// Global memory in AMDGCN (hip targets, compile-only: no AMD GPU here).
// The vector add of the tutorials: 1024 elements over 4 wavefronts of 64,
// four consecutive floats per work-item, so every access is one 128-bit
// load or store (the mask is uniform over each work-item's four elements:
// n is a multiple of 16): buffer_load_dwordx4 (the offsets, pid * 1024
// plus a range, are i32 and not negative: amdgcn-buffer-loads.mlir) and
// buffer_store_dwordx4 (amdgcn-buffer-stores.mlir). The assembly is
// assembled again by llvm-mc and linked by ld.lld into a code object with
// no undefined symbols.

// RUN: terrazzo-compile %S/../../tutorials/vector-add.mlir --target=hip:gfx942 --emit=amdgcn -o %t.s
// RUN: FileCheck %s < %t.s
// RUN: FileCheck %s --check-prefix=JSON < %t.s.json
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t.s -o %t.o
// RUN: ld.lld -shared %t.o -o %t.relinked.hsaco
// RUN: llvm-nm -D --undefined-only %t.relinked.hsaco | count 0
// CHECK: .amdgcn_target "amdgcn-amd-amdhsa--gfx942"
// CHECK: .amdhsa_code_object_version 5
// CHECK-LABEL: add_kernel:
// CHECK-COUNT-2: buffer_load_dwordx4
// CHECK-NOT: global_load
// CHECK: buffer_store_dwordx4
// CHECK-NOT: global_store
// CHECK: s_endpgm
// CHECK: .amdhsa_kernel add_kernel
// CHECK: .amdhsa_kernarg_size 28
// CHECK: .wavefront_size: 64
// JSON: "target": "hip:gfx942",
// JSON: "warp_size": 64,
// JSON: "threads_per_block": 256,
// JSON: "shared_memory_bytes": 0,
// JSON: "binary": "amdgcn",

// The compiler's own hsaco for each CDNA chip: an AMDGPU shared object for
// that processor whose kernel runs 256 work-items in wavefronts of 64 and
// takes its four arguments (three pointers, an i32) in a 28-byte kernarg
// segment; nothing undefined.
// RUN: terrazzo-compile %S/../../tutorials/vector-add.mlir --target=hip:gfx90a -o %t.90a.hsaco
// RUN: llvm-readelf --notes %t.90a.hsaco | FileCheck %s --check-prefixes=NOTES,GFX90A
// RUN: llvm-nm -D --undefined-only %t.90a.hsaco | count 0
// RUN: terrazzo-compile %S/../../tutorials/vector-add.mlir --target=hip:gfx942 -o %t.942.hsaco
// RUN: llvm-readelf --notes %t.942.hsaco | FileCheck %s --check-prefixes=NOTES,GFX942
// RUN: llvm-nm -D --undefined-only %t.942.hsaco | count 0
// RUN: terrazzo-compile %S/../../tutorials/vector-add.mlir --target=hip:gfx950 -o %t.950.hsaco
// RUN: llvm-readelf --notes %t.950.hsaco | FileCheck %s --check-prefixes=NOTES,GFX950
// RUN: llvm-nm -D --undefined-only %t.950.hsaco | count 0
// NOTES: .value_kind: global_buffer
// NOTES: .value_kind: global_buffer
// NOTES: .value_kind: global_buffer
// NOTES: .value_kind: by_value
// NOTES: .group_segment_fixed_size: 0
// NOTES: .kernarg_segment_size: 28
// NOTES: .max_flat_workgroup_size: 256
// NOTES: .name: add_kernel
// NOTES: .wavefront_size: 64
// GFX90A: amdhsa.target: amdgcn-amd-amdhsa--gfx90a
// GFX942: amdhsa.target: amdgcn-amd-amdhsa--gfx942
// GFX950: amdhsa.target: amdgcn-amd-amdhsa--gfx950
