#ifndef TERRAZZO_PASSES
#define TERRAZZO_PASSES

include "mlir/Pass/PassBase.td"

def TerrazzoCombine : Pass<"terrazzo-combine"> {
  let summary = "Fuse tile-level idioms into single operations";
  let description = [{
    Rewrites patterns that the frontend produces naturally into the single op
    that the backend lowers better:

    * `dot(a, b, 0) + c` (and `c + dot(a, b, 0)`) into `dot(a, b, c)`, when the
      dot has no other user: the accumulator then lives in the tensor-core
      registers instead of needing a second pass over the result;
    * `addptr(addptr(p, x), y)` into `addptr(p, x + y)` when `x` and `y` have
      one type, which gives AxisInfo one offset expression to analyse;
    * `select(m, load(p, m), o)` into `load(p, m, o)` when the load has no
      `other` and no other user.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::tile::TileDialect"];
}

#endif // TERRAZZO_PASSES
