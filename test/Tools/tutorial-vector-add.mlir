// The README's main job: the sample kernel goes through the tile pipeline.
// RUN: terrazzo-opt %S/../../tutorials/vector-add.mlir --terrazzo-tile-pipeline | FileCheck %s

// The helper is inlined and gone; constants fold; the addptr by zero folds
// away and the pointer chains stay one addptr per access. pid * 1024 may
// pass 2^31 - 1, so the offsets and the mask are computed in i64
// (terrazzo-promote-offsets).
// CHECK-NOT: func.func private @block_offsets
// CHECK-LABEL: func.func @add_kernel
// CHECK-NOT: func.call
// CHECK: %[[PID:.+]] = tile.program_id x : i32
// CHECK: %[[PID64:.+]] = arith.extsi %[[PID]] : i32 to i64
// CHECK: %[[START:.+]] = arith.muli %[[PID64]], %{{.+}} : i64
// CHECK: %[[STARTS:.+]] = tile.splat %[[START]] : i64 -> tensor<1024xi64>
// CHECK: %[[RANGE:.+]] = tile.make_range 0 to 1024 : tensor<1024xi32>
// CHECK: %[[RANGE64:.+]] = arith.extsi %[[RANGE]] : tensor<1024xi32> to tensor<1024xi64>
// CHECK: %[[OFFS:.+]] = arith.addi %[[STARTS]], %[[RANGE64]] : tensor<1024xi64>
// CHECK: %[[MASK:.+]] = arith.cmpi slt, %[[OFFS]], %{{.+}} : tensor<1024xi64>
// CHECK: %[[XS:.+]] = tile.splat %arg0
// CHECK: %[[XP:.+]] = tile.addptr %[[XS]], %[[OFFS]]
// CHECK: tile.load %[[XP]], %[[MASK]]
// CHECK-COUNT-2: tile.addptr
// CHECK-NOT: tile.addptr
// CHECK: tile.store
