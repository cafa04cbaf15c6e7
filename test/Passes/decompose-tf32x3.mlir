// RUN: terrazzo-opt %s -split-input-file --terrazzo-convert-tile-to-tilegpu="target=cuda:80 num-warps=4" --terrazzo-decompose-tf32x3 | FileCheck %s
// RUN: terrazzo-opt %s -split-input-file --terrazzo-convert-tile-to-tilegpu="target=cuda:90 num-warps=4" --terrazzo-decompose-tf32x3 | FileCheck %s --check-prefix=SM90
// RUN: terrazzo-opt %s -split-input-file --terrazzo-convert-tile-to-tilegpu="target=cuda:75 num-warps=4" --terrazzo-decompose-tf32x3 | FileCheck %s --check-prefix=SM75
// RUN: terrazzo-opt %s -split-input-file --terrazzo-convert-tile-to-tilegpu="target=cuda:80 num-warps=4" --terrazzo-decompose-tf32x3 --terrazzo-accelerate-dot | FileCheck %s --check-prefix=MMA

// A float32 dot in tf32x3 precision that tensor cores would compute in tf32
// becomes three tf32 dots on each operand's tf32 part (low 13 mantissa
// bits cleared: the mask 0xFFFFE000 prints as -8192) and its remainder,
// computed in the operand's layout before its conversion to the dot's
// operand layout: small x big, big x small, then big x big. On sm_90a
// (wgmma) likewise; before sm_80 (no tf32 tensor cores) nothing changes.
// terrazzo-accelerate-dot then puts all three on mma.sync.

// CHECK-LABEL: func.func @tf32x3
// CHECK: %[[ABITS:.+]] = arith.bitcast %arg0 : tensor<64x32xf32, #[[$LA:.+]]> to tensor<64x32xi32, #[[$LA]]>
// CHECK: %[[AMASK:.+]] = arith.constant dense<-8192> : tensor<64x32xi32, #[[$LA]]>
// CHECK: %[[ABIGBITS:.+]] = arith.andi %[[ABITS]], %[[AMASK]]
// CHECK: %[[ABIG:.+]] = arith.bitcast %[[ABIGBITS]] : tensor<64x32xi32, #[[$LA]]> to tensor<64x32xf32, #[[$LA]]>
// CHECK: %[[ASMALL:.+]] = arith.subf %arg0, %[[ABIG]]
// CHECK: %[[ABIGOP:.+]] = tilegpu.convert_layout %[[ABIG]] : {{.*}} -> tensor<64x32xf32, #[[$OPA:.+]]>
// CHECK: %[[ASMALLOP:.+]] = tilegpu.convert_layout %[[ASMALL]] : {{.*}} -> tensor<64x32xf32, #[[$OPA]]>
// CHECK: %[[BBITS:.+]] = arith.bitcast %arg1
// CHECK: %[[BMASK:.+]] = arith.constant dense<-8192> : tensor<32x64xi32
// CHECK: %[[BBIGBITS:.+]] = arith.andi %[[BBITS]], %[[BMASK]]
// CHECK: %[[BBIG:.+]] = arith.bitcast %[[BBIGBITS]]
// CHECK: %[[BSMALL:.+]] = arith.subf %arg1, %[[BBIG]]
// CHECK: %[[BBIGOP:.+]] = tilegpu.convert_layout %[[BBIG]] : {{.*}} -> tensor<32x64xf32, #[[$OPB:.+]]>
// CHECK: %[[BSMALLOP:.+]] = tilegpu.convert_layout %[[BSMALL]] : {{.*}} -> tensor<32x64xf32, #[[$OPB]]>
// CHECK: %[[D0:.+]] = tile.dot %[[ASMALLOP]], %[[BBIGOP]], %{{[^ ]+}} precision = tf32 :
// CHECK: %[[D1:.+]] = tile.dot %[[ABIGOP]], %[[BSMALLOP]], %[[D0]] precision = tf32 :
// CHECK: %[[D2:.+]] = tile.dot %[[ABIGOP]], %[[BBIGOP]], %[[D1]] precision = tf32 :
// CHECK-NOT: tile.dot
// CHECK: %[[R:.+]] = tilegpu.convert_layout %[[D2]]
// CHECK: return %[[R]]
// SM90-LABEL: func.func @tf32x3
// SM90: arith.andi
// SM90: arith.andi
// SM90-COUNT-3: tile.dot {{.*}} precision = tf32 :
// SM90-NOT: tile.dot
// SM75-LABEL: func.func @tf32x3
// SM75-NOT: arith.andi
// SM75: tile.dot {{.*}} precision = tf32x3 :
// SM75-NOT: tile.dot
// SM75: return
// MMA-LABEL: func.func @tf32x3
// MMA-COUNT-3: tile.dot {{.*}} precision = tf32 : {{.*}} -> tensor<64x64xf32, #tilegpu.nvidia_mma<{versionMajor = 2
// MMA-NOT: tile.dot
// MMA: return
func.func @tf32x3(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %d = tile.dot %a, %b, %c precision = tf32x3 : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}

// -----

// M = 32 is below wgmma's 64 but mma.sync takes it, on sm_90a too.
// CHECK-LABEL: func.func @mma_sync_on_sm90
// CHECK-COUNT-3: tile.dot {{.*}} precision = tf32 :
// SM90-LABEL: func.func @mma_sync_on_sm90
// SM90-COUNT-3: tile.dot {{.*}} precision = tf32 :
func.func @mma_sync_on_sm90(%a: tensor<32x16xf32>, %b: tensor<16x32xf32>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %d = tile.dot %a, %b, %c precision = tf32x3 : tensor<32x16xf32> * tensor<16x32xf32> -> tensor<32x32xf32>
  return %d : tensor<32x32xf32>
}

// -----

// Must not: tf32, ieee (the default, not printed) and float16 dots are
// not tf32x3; tf32x3 dots that tensor cores would not take in tf32 (K = 4
// below mma.sync's 8, batched) stay tf32x3 for the FMA lowering, which
// computes them in float32.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: arith.andi
// CHECK: tile.dot {{.*}} precision = tf32 : tensor<32x16xf32
// CHECK-NOT: arith.andi
// CHECK: tile.dot {{[^=]*}} : tensor<32x16xf32
// CHECK-NOT: arith.andi
// CHECK: tile.dot {{.*}} : tensor<32x16xf16
// CHECK-NOT: arith.andi
// CHECK: tile.dot {{.*}} precision = tf32x3 : tensor<32x4xf32
// CHECK-NOT: arith.andi
// CHECK: tile.dot {{.*}} precision = tf32x3 : tensor<2x16x16xf32
// CHECK-NOT: arith.andi
// CHECK: return
func.func @left_alone(%a: tensor<32x16xf32>, %b: tensor<16x32xf32>, %c: tensor<32x32xf32>,
                      %a16: tensor<32x16xf16>, %b16: tensor<16x32xf16>,
                      %ak: tensor<32x4xf32>, %bk: tensor<4x32xf32>,
                      %ab: tensor<2x16x16xf32>, %bb: tensor<2x16x16xf32>, %cb: tensor<2x16x16xf32>)
    -> (tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<2x16x16xf32>) {
  %tf32 = tile.dot %a, %b, %c precision = tf32 : tensor<32x16xf32> * tensor<16x32xf32> -> tensor<32x32xf32>
  %ieee = tile.dot %a, %b, %c : tensor<32x16xf32> * tensor<16x32xf32> -> tensor<32x32xf32>
  %f16 = tile.dot %a16, %b16, %c : tensor<32x16xf16> * tensor<16x32xf16> -> tensor<32x32xf32>
  %small = tile.dot %ak, %bk, %c precision = tf32x3 : tensor<32x4xf32> * tensor<4x32xf32> -> tensor<32x32xf32>
  %batched = tile.dot %ab, %bb, %cb precision = tf32x3 : tensor<2x16x16xf32> * tensor<2x16x16xf32> -> tensor<2x16x16xf32>
  return %tf32, %ieee, %f16, %small, %batched : tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<2x16x16xf32>
}
