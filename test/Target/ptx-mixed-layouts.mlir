// Accesses that coalescing first puts in different layouts still compile:
// a load read only to be stored in another layout is issued in the store's
// layout. The PTX assembles.
// REQUIRES: ptxas

// RUN: terrazzo-compile %S/../GPU/kernels/widen_f16.mlir --target=cuda:90 --emit=ptx -o %t.widen.ptx
// RUN: FileCheck %s --check-prefix=WIDEN < %t.widen.ptx
// RUN: %ptxas -arch=sm_90a %t.widen.ptx -o %t.widen.cubin
// Four halves per thread (8 bytes) in the layout of the 16-byte f32 stores.
// WIDEN-COUNT-2: ld.global.v4.b16
// WIDEN-NOT: ld.global
// WIDEN: cvt.f32.f16
// WIDEN-COUNT-2: st.global.v4.b32

// RUN: sed -e 's/%%x: !tile.ptr<f32> {tile.divisibility = 16 : i32, /%%x: !tile.ptr<f32> {/' %S/../../tutorials/vector-add.mlir > %t.misaligned.mlir
// RUN: terrazzo-compile %t.misaligned.mlir --target=cuda:90 --emit=ptx -o %t.misaligned.ptx
// RUN: FileCheck %s --check-prefix=MISALIGNED < %t.misaligned.ptx
// RUN: %ptxas -arch=sm_90a %t.misaligned.ptx -o %t.misaligned.cubin
// x (no alignment known) is read element by element, y in 16-byte vectors.
// MISALIGNED-COUNT-8: ld.global.b32
// MISALIGNED-COUNT-2: ld.global.v4.b32
// MISALIGNED-COUNT-2: st.global.v4.b32
