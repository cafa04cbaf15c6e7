// tile.scan in PTX, through the whole pipeline (test/GPU/kernels/scan_*.mlir:
// cumulative sums, products and maxima, reverse scans and a two-source
// running argmax of 1-D blocks and along both axes of 2-D blocks). The PTX
// assembles.
// REQUIRES: ptxas

// 1-D blocks of 1024 at 4 warps: the lanes scan with indexed shuffles, the
// warps' totals go through shared memory between barriers.
// RUN: terrazzo-compile %S/../GPU/kernels/scan_1d.mlir --target=cuda:90 --emit=ptx -o %t.1d.ptx
// RUN: FileCheck %s --check-prefix=ONED < %t.1d.ptx
// RUN: %ptxas -arch=sm_90a %t.1d.ptx -o %t.1d.cubin
// RUN: terrazzo-compile %S/../GPU/kernels/scan_1d.mlir --target=cuda:80 --num-warps=8 --emit=ptx -o %t.1d8.ptx
// RUN: %ptxas -arch=sm_80 %t.1d8.ptx -o %t.1d8.cubin
// RUN: terrazzo-compile %S/../GPU/kernels/scan_1d.mlir --target=cuda:90 --num-warps=1 --emit=ptx -o %t.1d1.ptx
// RUN: %ptxas -arch=sm_90a %t.1d1.ptx -o %t.1d1.cubin
// ONED: .extern .shared .align 16 .b8 global_smem[];
// ONED: .entry scan_1d(
// ONED: shfl.sync.idx.b32 {{.*}}, 31, -1;
// ONED: st.shared
// ONED: bar.sync 0;
// ONED: ld.shared
// ONED: ret;

// 32 x 64 tiles with one warp: along axis 1 the lanes and then the two
// registers of each row; along axis 0 every thread holds whole columns.
// Nothing uses shared memory.
// RUN: terrazzo-compile %S/../GPU/kernels/scan_2d.mlir --target=cuda:90 --num-warps=1 --emit=ptx -o %t.2d1.ptx
// RUN: FileCheck %s --check-prefix=TWOD1 < %t.2d1.ptx
// RUN: FileCheck %s --check-prefix=JSON1 < %t.2d1.ptx.json
// RUN: %ptxas -arch=sm_90a %t.2d1.ptx -o %t.2d1.cubin
// TWOD1-NOT: .shared
// TWOD1: .entry scan_2d(
// TWOD1-NOT: bar.sync
// TWOD1: shfl.sync.idx.b32
// TWOD1-NOT: bar.sync
// TWOD1-NOT: .shared
// TWOD1: ret;
// JSON1: "shared_memory_bytes": 0,

// At 4 and 8 warps, warps along both axes.
// RUN: terrazzo-compile %S/../GPU/kernels/scan_2d.mlir --target=cuda:90 --emit=ptx -o %t.2d4.ptx
// RUN: FileCheck %s --check-prefix=TWOD4 < %t.2d4.ptx
// RUN: %ptxas -arch=sm_90a %t.2d4.ptx -o %t.2d4.cubin
// RUN: terrazzo-compile %S/../GPU/kernels/scan_2d.mlir --target=cuda:90 --num-warps=8 --emit=ptx -o %t.2d8.ptx
// RUN: %ptxas -arch=sm_90a %t.2d8.ptx -o %t.2d8.cubin
// TWOD4: .entry scan_2d(
// TWOD4: shfl.sync.idx.b32
// TWOD4: bar.sync 0;
// TWOD4: ret;

// Explicit layouts (registers below the lanes, lanes from bit 3, copies;
// linear layouts with lanes out of order and two runs of warps).
// RUN: terrazzo-compile %S/../GPU/kernels/scan_layouts.mlir --target=cuda:90 --num-warps=4 --emit=ptx -o %t.layouts.ptx
// RUN: %ptxas -arch=sm_90a %t.layouts.ptx -o %t.layouts.cubin
// RUN: terrazzo-compile %S/../GPU/kernels/scan_linear.mlir --target=cuda:90 --num-warps=4 --emit=ptx -o %t.linear.ptx
// RUN: %ptxas -arch=sm_90a %t.linear.ptx -o %t.linear.cubin
