// terrazzo-opt registers Terrazzo's dialects, the upstream ones its IR uses,
// and every Terrazzo pass and pipeline.
// RUN: terrazzo-opt --help | FileCheck %s
// CHECK: Available Dialects:
// CHECK-SAME: arith
// CHECK-SAME: cf
// CHECK-SAME: func
// CHECK-SAME: math
// CHECK-SAME: scf
// CHECK-SAME: tile
// CHECK-SAME: tilegpu
// CHECK-DAG: --terrazzo-combine
// CHECK-DAG: --terrazzo-tile-pipeline
// CHECK-DAG: --canonicalize
// CHECK-DAG: --cse
// CHECK-DAG: --inline
