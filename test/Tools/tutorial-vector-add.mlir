// The README's main job: the sample kernel goes through the tile pipeline.
// RUN: terrazzo-opt %S/../../tutorials/vector-add.mlir --terrazzo-tile-pipeline | FileCheck %s
// RUN: env TERRAZZO_PROMOTE_OFFSETS=1 terrazzo-opt %S/../../tutorials/vector-add.mlir --terrazzo-tile-pipeline | FileCheck %s --check-prefix=PROMOTED

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

// With TERRAZZO_PROMOTE_OFFSETS=1: pid * 1024 may pass 2^31 - 1, so the
// offsets and the mask are computed in i64 (terrazzo-promote-offsets).
// PROMOTED-NOT: func.func private @block_offsets
// PROMOTED-LABEL: func.func @add_kernel
// PROMOTED-NOT: func.call
// PROMOTED: %[[PID:.+]] = tile.program_id x : i32
// PROMOTED: %[[PID64:.+]] = arith.extsi %[[PID]] : i32 to i64
// PROMOTED: %[[START:.+]] = arith.muli %[[PID64]], %{{.+}} : i64
// PROMOTED: %[[STARTS:.+]] = tile.splat %[[START]] : i64 -> tensor<1024xi64>
// PROMOTED: %[[RANGE:.+]] = tile.make_range 0 to 1024 : tensor<1024xi32>
// PROMOTED: %[[RANGE64:.+]] = arith.extsi %[[RANGE]] : tensor<1024xi32> to tensor<1024xi64>
// PROMOTED: %[[OFFS:.+]] = arith.addi %[[STARTS]], %[[RANGE64]] : tensor<1024xi64>
// PROMOTED: %[[MASK:.+]] = arith.cmpi slt, %[[OFFS]], %{{.+}} : tensor<1024xi64>
// PROMOTED: %[[XS:.+]] = tile.splat %arg0
// PROMOTED: %[[XP:.+]] = tile.addptr %[[XS]], %[[OFFS]]
// PROMOTED: tile.load %[[XP]], %[[MASK]]
// PROMOTED-COUNT-2: tile.addptr
// PROMOTED-NOT: tile.addptr
// PROMOTED: tile.store
