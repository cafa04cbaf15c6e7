// The README's main job: the sample kernel goes through the tile pipeline.
// RUN: terrazzo-opt %S/../../tutorials/vector-add.mlir --terrazzo-tile-pipeline | FileCheck %s

// The helper is inlined and gone; constants fold; the addptr by zero folds
// away and the pointer chains stay one addptr per access.
// CHECK-NOT: func.func private @block_offsets
// CHECK-LABEL: func.func @add_kernel
// CHECK-NOT: func.call
// CHECK: %[[PID:.+]] = tile.program_id x : i32
// CHECK: %[[START:.+]] = arith.muli %[[PID]], %{{.+}} : i32
// CHECK: %[[STARTS:.+]] = tile.splat %[[START]] : i32 -> tensor<1024xi32>
// CHECK: %[[RANGE:.+]] = tile.make_range 0 to 1024 : tensor<1024xi32>
// CHECK: %[[OFFS:.+]] = arith.addi %[[STARTS]], %[[RANGE]] : tensor<1024xi32>
// CHECK: %[[MASK:.+]] = arith.cmpi slt, %[[OFFS]], %{{.+}} : tensor<1024xi32>
// CHECK: %[[XS:.+]] = tile.splat %arg0
// CHECK: %[[XP:.+]] = tile.addptr %[[XS]], %[[OFFS]]
// CHECK: tile.load %[[XP]], %[[MASK]]
// CHECK-COUNT-2: tile.addptr
// CHECK-NOT: tile.addptr
// CHECK: tile.store
