// terrazzo-opt: every Terrazzo dialect and pass behind MLIR's opt driver; the
// lit suite's workhorse.
#include "lib/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  terrazzo::registerDialects(registry);
  terrazzo::registerPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "Terrazzo IR optimizer and verifier\n", registry));
}
