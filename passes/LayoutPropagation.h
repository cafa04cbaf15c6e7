// Forward layout propagation from anchors (see LayoutPropagation.cpp), the
// first phase of terrazzo-remove-layout-conversions.
#ifndef TERRAZZO_PASSES_LAYOUTPROPAGATION_H
#define TERRAZZO_PASSES_LAYOUTPROPAGATION_H

namespace mlir {
class Operation;
} // namespace mlir

namespace mlir::terrazzo {

/// Ops that compute each element from the same element of their operands
/// (or from nothing), so they can run in any layout as well as another.
bool isLayoutAgnosticElementwise(Operation *op);

/// Gives the values computed from each load (through elementwise ops,
/// conversions, broadcasts, reductions, loop-carried values and if results)
/// the load's layout, and puts conversions where an op still needs another
/// layout: in front of it, from the new layout to the needed one.
void propagateLayoutsFromAnchors(Operation *root);

} // namespace mlir::terrazzo

#endif // TERRAZZO_PASSES_LAYOUTPROPAGATION_H
