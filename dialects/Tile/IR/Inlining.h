// The inliner interface of Terrazzo's dialects. Every op of the tile and
// tilegpu dialects may be inlined: kernels call `@jit` helpers that the
// pipeline inlines before layouts are assigned, and a helper may hold ops
// of either dialect (tl.debug_barrier's tilegpu.barrier). A dialect without
// this interface keeps any function holding one of its ops a call, whose
// tensors then cross a function boundary (a PTX .func, its arguments in
// memory).

#ifndef TERRAZZO_DIALECTS_TILE_IR_INLINING_H
#define TERRAZZO_DIALECTS_TILE_IR_INLINING_H

#include "mlir/Transforms/InliningUtils.h"

namespace mlir::tile {

/// A dialect's inliner interface under which each of its ops may be
/// inlined anywhere.
struct InlineEveryOp : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Operation *, bool) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};

} // namespace mlir::tile

#endif // TERRAZZO_DIALECTS_TILE_IR_INLINING_H
