// RUN: terrazzo-opt %s | terrazzo-opt | FileCheck %s

// #tilegpu.nvmma_shared and tilegpu.warp_group_dot round-trip.

#a = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#b = #tilegpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 16}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#mma8 = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>

// CHECK-DAG: #[[A:.+]] = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[B:.+]] = #tilegpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 16}>
// CHECK-LABEL: func.func @wgmma
// CHECK: tilegpu.warp_group_dot %{{.+}}, %{{.+}}, %{{.+}} : !tilegpu.memdesc<64x64xf16, #[[A]]>, !tilegpu.memdesc<64x64xf16, #[[B]]> -> tensor<64x64xf32, #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>>
// CHECK: tilegpu.warp_group_dot {{.+}} precision = tf32 :
func.func @wgmma(%a: !tilegpu.memdesc<64x64xf16, #a>, %b: !tilegpu.memdesc<64x64xf16, #b>,
                 %c: tensor<64x64xf32, #mma>, %c8: tensor<64x64xf32, #mma8>,
                 %a32: !tilegpu.memdesc<64x32xf32, #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>>,
                 %b32: !tilegpu.memdesc<32x64xf32, #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 32}>>) {
  %d = tilegpu.warp_group_dot %a, %b, %c : !tilegpu.memdesc<64x64xf16, #a>, !tilegpu.memdesc<64x64xf16, #b> -> tensor<64x64xf32, #mma>
  %e = tilegpu.warp_group_dot %a32, %b32, %c8 precision = tf32 : !tilegpu.memdesc<64x32xf32, #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>>, !tilegpu.memdesc<32x64xf32, #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 32}>> -> tensor<64x64xf32, #mma8>
  return
}

// A fence for the async proxy naming the buffer whose stores it publishes.
// CHECK-LABEL: func.func @fenced
// CHECK: %[[Q:.+]] = tilegpu.local_alloc
// CHECK-NEXT: tilegpu.fence_async_shared %[[Q]] : !tilegpu.memdesc<64x64xf16, #[[A]]>
func.func @fenced(%x: tensor<64x64xf16>) {
  %q = tilegpu.local_alloc %x : (tensor<64x64xf16>) -> !tilegpu.memdesc<64x64xf16, #a>
  tilegpu.fence_async_shared %q : !tilegpu.memdesc<64x64xf16, #a>
  return
}

// A in registers, in the dot-operand layout of A of the result's layout.
// CHECK-LABEL: func.func @register_a
// CHECK: tilegpu.warp_group_dot %{{.+}}, %{{.+}}, %{{.+}} : tensor<64x64xf16, #tilegpu.dot_operand<{opIdx = 0, parent = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>, kWidth = 2}>>, !tilegpu.memdesc<64x64xf16, #[[B]]> -> tensor<64x64xf32,
func.func @register_a(%a: tensor<64x64xf16, #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>>,
                      %b: !tilegpu.memdesc<64x64xf16, #b>, %c: tensor<64x64xf32, #mma>) {
  %d = tilegpu.warp_group_dot %a, %b, %c : tensor<64x64xf16, #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>>, !tilegpu.memdesc<64x64xf16, #b> -> tensor<64x64xf32, #mma>
  return
}

// A stack of nvmma_shared buffers (leading buffer dimension) and one of its
// buffers, in the stack's layout, read by warp_group_dot.
// CHECK-LABEL: func.func @stack
// CHECK: %[[S:.+]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x64xf16, #[[A]], mutable>
// CHECK: %[[X:.+]] = tilegpu.memdesc_index %[[S]][%{{.+}}] : !tilegpu.memdesc<3x64x64xf16, #[[A]], mutable> -> !tilegpu.memdesc<64x64xf16, #[[A]], mutable>
// CHECK: tilegpu.warp_group_dot %[[X]], %{{.+}}, %{{.+}} : !tilegpu.memdesc<64x64xf16, #[[A]], mutable>
func.func @stack(%i: i32, %b: !tilegpu.memdesc<64x64xf16, #b>, %c: tensor<64x64xf32, #mma>) {
  %s = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x64xf16, #a, mutable>
  %x = tilegpu.memdesc_index %s[%i] : !tilegpu.memdesc<3x64x64xf16, #a, mutable> -> !tilegpu.memdesc<64x64xf16, #a, mutable>
  %d = tilegpu.warp_group_dot %x, %b, %c : !tilegpu.memdesc<64x64xf16, #a, mutable>, !tilegpu.memdesc<64x64xf16, #b> -> tensor<64x64xf32, #mma>
  return
}

// An async warp_group_dot and the waits for it: one group may stay in
// flight inside the loop, none after it.
// CHECK-LABEL: func.func @async
// CHECK: %[[D:.+]] = tilegpu.warp_group_dot async %{{.+}}, %{{.+}}, %{{.+}} :
// CHECK: %[[W:.+]] = tilegpu.warp_group_dot_wait %[[D]] {pendings = 1 : i32} : tensor<64x64xf32, #{{.+}}>
// CHECK: tilegpu.warp_group_dot_wait %[[W]], %[[W]] {pendings = 0 : i32} : tensor<64x64xf32, #{{.+}}>, tensor<64x64xf32, #{{.+}}>
func.func @async(%a: !tilegpu.memdesc<64x64xf16, #a>, %b: !tilegpu.memdesc<64x64xf16, #b>,
                 %c: tensor<64x64xf32, #mma>) {
  %d = tilegpu.warp_group_dot async %a, %b, %c : !tilegpu.memdesc<64x64xf16, #a>, !tilegpu.memdesc<64x64xf16, #b> -> tensor<64x64xf32, #mma>
  %w = tilegpu.warp_group_dot_wait %d {pendings = 1 : i32} : tensor<64x64xf32, #mma>
  %x:2 = tilegpu.warp_group_dot_wait %w, %w {pendings = 0 : i32} : tensor<64x64xf32, #mma>, tensor<64x64xf32, #mma>
  return
}
