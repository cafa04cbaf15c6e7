// Calls into the ROCm device libraries (Debian's rocm-device-libs): math
// through ocml (libdevice's functions by their ocml names, f64 exp and log,
// erf), the number of programs and printf through ockl. The libraries'
// control constants (__oclc_ISA_version, ...) are defined in the module
// itself and fold away; everything is inlined, so the code objects call
// nothing and have no undefined symbols, on each chip.
// RUN: rm -rf %t && split-file %s %t

// RUN: terrazzo-compile %t/math.mlir --target=hip:gfx942 --emit=llvmir -o %t/math.ll
// RUN: FileCheck %s --check-prefix=IR < %t/math.ll
// IR-LABEL: define amdgpu_kernel void @math(
// IR-NOT: call {{.*}}@__ocml
// IR-NOT: @__oclc_
// IR-NOT: declare {{.*}}@__ocml

// RUN: terrazzo-compile %t/math.mlir --target=hip:gfx90a -o %t/math.90a.hsaco
// RUN: llvm-nm -D --undefined-only %t/math.90a.hsaco | count 0
// RUN: terrazzo-compile %t/math.mlir --target=hip:gfx942 -o %t/math.942.hsaco
// RUN: llvm-nm -D --undefined-only %t/math.942.hsaco | count 0
// RUN: terrazzo-compile %t/math.mlir --target=hip:gfx950 -o %t/math.950.hsaco
// RUN: llvm-nm -D --undefined-only %t/math.950.hsaco | count 0
// RUN: llvm-objdump -d %t/math.950.hsaco | FileCheck %s --check-prefix=NOCALL
// NOCALL: <math>:
// NOCALL-NOT: s_swappc
// NOCALL: s_endpgm

// printf and a failed assertion use ockl's hostcall buffer (a hidden
// kernel argument of code object v5); the assertion traps.
// RUN: terrazzo-compile %t/debug.mlir --target=hip:gfx942 -o %t/debug.hsaco
// RUN: llvm-nm -D --undefined-only %t/debug.hsaco | count 0
// RUN: llvm-readelf --notes %t/debug.hsaco | FileCheck %s --check-prefix=HOSTCALL
// HOSTCALL: .value_kind: hidden_hostcall_buffer
// RUN: llvm-objdump -d %t/debug.hsaco | FileCheck %s --check-prefix=TRAP
// TRAP: s_trap 2

// Without the libraries the error says where to get them.
// RUN: not env TERRAZZO_ROCM_DEVICE_LIBS=%t/none terrazzo-compile %t/math.mlir --target=hip:gfx942 -o %t/bad.hsaco 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: math.mlir: error: the kernel calls the ROCm device libraries (ocml.bc, ockl.bc), which were not found; set TERRAZZO_ROCM_DEVICE_LIBS to their folder or install Debian's rocm-device-libs (or ROCm)

// A function neither the kernel nor the libraries define.
// RUN: not terrazzo-compile %t/undefined.mlir --target=hip:gfx942 -o %t/bad.hsaco 2>&1 | FileCheck %s --check-prefix=UNDEFINED
// UNDEFINED: undefined.mlir: error: the kernel calls functions that neither it nor the ROCm device libraries define: my_function

// libdevice's integer functions through ockl (leading zeros, set bits,
// high halves of products, 24-bit products): its instructions, inlined,
// nothing undefined.
// RUN: terrazzo-compile %t/int.mlir --target=hip:gfx942 --emit=amdgcn -o %t/int.s
// RUN: FileCheck %s --check-prefix=INT < %t/int.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t/int.s -o %t/int.o
// RUN: ld.lld -shared %t/int.o -o %t/int.hsaco
// RUN: llvm-nm -D --undefined-only %t/int.hsaco | count 0
// INT-LABEL: int_functions:
// INT-DAG: v_ffbh_u32
// INT-DAG: v_bcnt_u32_b32
// INT-DAG: v_mul_hi_i32
// INT-DAG: v_mul_hi_u32
// INT-DAG: v_mul_i32_i24
// INT-DAG: v_mul_u32_u24
// INT-NOT: s_swappc
// INT: s_endpgm

//--- math.mlir
func.func @math(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                %d: !tile.ptr<f64> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range 0 to 256 : tensor<256xi32>
  %xp = tile.splat %x : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %xa = tile.addptr %xp, %r : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %xv = tile.load %xa : tensor<256x!tile.ptr<f32>>
  %e = math.exp %xv : tensor<256xf32>
  %s = math.sin %e : tensor<256xf32>
  %f = math.erf %s : tensor<256xf32>
  %a = tile.extern_elementwise "__nv_asinf"(%f) {libname = "libdevice", libpath = "", pure = true} : (tensor<256xf32>) -> tensor<256xf32>
  tile.store %xa, %a : tensor<256x!tile.ptr<f32>>
  %dp = tile.splat %d : !tile.ptr<f64> -> tensor<256x!tile.ptr<f64>>
  %da = tile.addptr %dp, %r : tensor<256x!tile.ptr<f64>>, tensor<256xi32>
  %dv = tile.load %da : tensor<256x!tile.ptr<f64>>
  %de = math.exp %dv : tensor<256xf64>
  %dl = math.log %de : tensor<256xf64>
  tile.store %da, %dl : tensor<256x!tile.ptr<f64>>
  return
}

//--- int.mlir
func.func @int_functions(%x: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                         %y: !tile.ptr<i32> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range 0 to 256 : tensor<256xi32>
  %xp = tile.splat %x : !tile.ptr<i32> -> tensor<256x!tile.ptr<i32>>
  %xa = tile.addptr %xp, %r : tensor<256x!tile.ptr<i32>>, tensor<256xi32>
  %u = tile.load %xa : tensor<256x!tile.ptr<i32>>
  %yp = tile.splat %y : !tile.ptr<i32> -> tensor<256x!tile.ptr<i32>>
  %ya = tile.addptr %yp, %r : tensor<256x!tile.ptr<i32>>, tensor<256xi32>
  %v = tile.load %ya : tensor<256x!tile.ptr<i32>>
  %a = tile.extern_elementwise "__nv_clz"(%u) {libname = "libdevice", libpath = "", pure = true} : (tensor<256xi32>) -> tensor<256xi32>
  %b = tile.extern_elementwise "__nv_popc"(%v) {libname = "libdevice", libpath = "", pure = true} : (tensor<256xi32>) -> tensor<256xi32>
  %c = tile.extern_elementwise "__nv_mulhi"(%u, %v) {libname = "libdevice", libpath = "", pure = true} : (tensor<256xi32>, tensor<256xi32>) -> tensor<256xi32>
  %d = tile.extern_elementwise "__nv_umulhi"(%u, %v) {libname = "libdevice", libpath = "", pure = true} : (tensor<256xi32>, tensor<256xi32>) -> tensor<256xi32>
  %e = tile.extern_elementwise "__nv_mul24"(%u, %v) {libname = "libdevice", libpath = "", pure = true} : (tensor<256xi32>, tensor<256xi32>) -> tensor<256xi32>
  %f = tile.extern_elementwise "__nv_umul24"(%u, %v) {libname = "libdevice", libpath = "", pure = true} : (tensor<256xi32>, tensor<256xi32>) -> tensor<256xi32>
  %s1 = arith.addi %a, %b : tensor<256xi32>
  %s2 = arith.addi %s1, %c : tensor<256xi32>
  %s3 = arith.addi %s2, %d : tensor<256xi32>
  %s4 = arith.addi %s3, %e : tensor<256xi32>
  %s5 = arith.addi %s4, %f : tensor<256xi32>
  tile.store %xa, %s5 : tensor<256x!tile.ptr<i32>>
  return
}

//--- debug.mlir
func.func @debug(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) {
  %grid = tile.num_programs x : i32
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %xp = tile.splat %x : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %xa = tile.addptr %xp, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %xv = tile.load %xa : tensor<128x!tile.ptr<f32>>
  tile.print "x = " : %xv, %grid : tensor<128xf32>, i32
  %ns = tile.splat %n : i32 -> tensor<128xi32>
  %ok = arith.cmpi slt, %r, %ns : tensor<128xi32>
  tile.assert %ok, "r < n" : tensor<128xi1>
  return
}

//--- undefined.mlir
func.func @undefined(%x: !tile.ptr<f32>) {
  %v = tile.load %x : !tile.ptr<f32>
  %a = tile.extern_elementwise "my_function"(%v) {libname = "", libpath = "", pure = true} : (f32) -> f32
  tile.store %x, %a : !tile.ptr<f32>
  return
}
