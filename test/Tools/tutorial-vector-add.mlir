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
// block's start is computed in i64 and advances each base pointer once; the
// offsets in the block stay i32, and so does the mask, compared against the
// bound less the start (clamped; terrazzo-promote-offsets).
// PROMOTED-NOT: func.func private @block_offsets
// PROMOTED-LABEL: func.func @add_kernel
// PROMOTED-NOT: func.call
// PROMOTED: %[[N64:.+]] = arith.extsi %arg3 : i32 to i64
// PROMOTED: %[[PID:.+]] = tile.program_id x : i32
// PROMOTED: %[[PID64:.+]] = arith.extsi %[[PID]] : i32 to i64
// PROMOTED: %[[START:.+]] = arith.muli %[[PID64]], %{{.+}} : i64
// PROMOTED: %[[RANGE:.+]] = tile.make_range 0 to 1024 : tensor<1024xi32>
// PROMOTED: %[[LEFT:.+]] = arith.subi %[[N64]], %[[START]] : i64
// PROMOTED: %[[LO:.+]] = arith.maxsi %[[LEFT]], %{{.+}} : i64
// PROMOTED: %[[HI:.+]] = arith.minsi %[[LO]], %{{.+}} : i64
// PROMOTED: %[[BOUND:.+]] = arith.trunci %[[HI]] : i64 to i32
// PROMOTED: %[[BOUNDS:.+]] = tile.splat %[[BOUND]] : i32 -> tensor<1024xi32>
// PROMOTED: %[[MASK:.+]] = arith.cmpi slt, %[[RANGE]], %[[BOUNDS]] : tensor<1024xi32>
// PROMOTED: %[[XB:.+]] = tile.addptr %arg0, %[[START]] : !tile.ptr<f32>, i64
// PROMOTED: %[[XS:.+]] = tile.splat %[[XB]]
// PROMOTED: %[[XP:.+]] = tile.addptr %[[XS]], %[[RANGE]] : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
// PROMOTED: tile.load %[[XP]], %[[MASK]]
// PROMOTED-NOT: tensor<1024xi64>
// PROMOTED: tile.store
