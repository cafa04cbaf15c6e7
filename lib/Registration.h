// One place that knows which dialects and passes make up Terrazzo, shared by
// terrazzo-opt and the core library.
#ifndef TERRAZZO_LIB_REGISTRATION_H
#define TERRAZZO_LIB_REGISTRATION_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace terrazzo {

/// Terrazzo's dialects and the upstream ones its IR uses.
void registerDialects(mlir::DialectRegistry &registry);

/// Terrazzo's passes and the upstream passes its pipelines use, for
/// command-line pipelines (terrazzo-opt, TERRAZZO pass pipelines).
void registerPasses();

} // namespace terrazzo

#endif // TERRAZZO_LIB_REGISTRATION_H
