// terrazzo-lsp-server: a language server for tile IR files (.mlir) with
// every Terrazzo dialect registered, on MLIR's LSP library: diagnostics as
// the file is edited, hover, go-to-definition and references of values and
// symbols, document symbols, code completion. Editors start it as their MLIR
// language server (DESIGN.md §9); it speaks JSON-RPC over stdin/stdout.
#include "lib/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/LogicalResult.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  terrazzo::registerDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry)) ? 1 : 0;
}
