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

/// Gives the values computed from each tensor-core dot result, then from
/// each load (through elementwise ops, conversions, broadcasts, reductions,
/// trans/reshape/join/split as relabellings, loop-carried values and if
/// results) the dot's or load's layout, and puts conversions where an op
/// still needs another layout: in front of it, from the new layout to the
/// needed one.
/// Through a reshape only with `throughReshapes`: whether relabelling there
/// beats issuing the load in its users' layout depends on the whole kernel
/// (the pass tries both).
void propagateLayoutsFromAnchors(Operation *root, bool throughReshapes);

} // namespace mlir::terrazzo

#endif // TERRAZZO_PASSES_LAYOUTPROPAGATION_H
