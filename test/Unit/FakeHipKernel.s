// An AMDGPU code object for the fake HIP library's tests
// (HipRuntimeTest.cpp, ElfCodeObject): one kernel, `affine`, that does
// nothing, with 4 KiB of static LDS and 20 bytes of arguments. Assembled
// with llvm-mc and linked with ld.lld into an hsaco at build time.
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text
.globl affine
.p2align 8
.type affine,@function
affine:
  s_endpgm
.rodata
.p2align 6
.amdhsa_kernel affine
  .amdhsa_group_segment_fixed_size 4096
  .amdhsa_kernarg_size 20
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 1
  .amdhsa_accum_offset 4
.end_amdhsa_kernel
