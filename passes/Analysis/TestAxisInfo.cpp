// --terrazzo-test-print-axis-info: reports the AxisInfo lattice of every
// integer, index and pointer value as a remark, for lit tests with
// -verify-diagnostics:
//
//   op results:           "result #i: contiguity = [..], ..."
//   block arguments of regions other than a function's entry block (loop
//   induction variables, iter_args, ...), on the op owning the region:
//                         "region #r arg #i: ..." (entry blocks) or
//                         "region #r block #b arg #i: ..." (other blocks)
//
// Function arguments are not reported: their lattices are the seeds and show
// up in every use. Values the analysis has nothing for (dead code) report
// "<unknown>".
#include "passes/Analysis/AxisInfo.h"

#include "dialects/Tile/IR/Tile.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

bool isTracked(Type type) {
  return isa<IntegerType, IndexType, tile::PointerType>(
      getElementTypeOrSelf(type));
}

struct TestAxisInfoPass
    : public PassWrapper<TestAxisInfoPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestAxisInfoPass)

  StringRef getArgument() const final {
    return "terrazzo-test-print-axis-info";
  }
  StringRef getDescription() const final {
    return "Report the AxisInfo lattice of every integer and pointer value "
           "as a remark";
  }

  void runOnOperation() override {
    ModuleAxisInfoAnalysis analysis(getOperation());
    auto report = [&](InFlightDiagnostic diag, Value value) {
      std::string text = "<unknown>";
      if (const AxisInfo *info = analysis.getAxisInfo(value)) {
        text.clear();
        llvm::raw_string_ostream os(text);
        info->print(os);
      }
      diag << text;
    };
    getOperation()->walk([&](Operation *op) {
      bool isFunction = isa<FunctionOpInterface>(op);
      for (auto [r, region] : llvm::enumerate(op->getRegions())) {
        for (auto [b, block] : llvm::enumerate(region)) {
          if (isFunction && b == 0)
            continue;
          for (BlockArgument arg : block.getArguments()) {
            if (!isTracked(arg.getType()))
              continue;
            InFlightDiagnostic diag = op->emitRemark();
            diag << "region #" << r;
            if (b != 0)
              diag << " block #" << b;
            diag << " arg #" << arg.getArgNumber() << ": ";
            report(std::move(diag), arg);
          }
        }
      }
      for (OpResult result : op->getResults()) {
        if (!isTracked(result.getType()))
          continue;
        InFlightDiagnostic diag = op->emitRemark();
        diag << "result #" << result.getResultNumber() << ": ";
        report(std::move(diag), result);
      }
    });
  }
};

} // namespace

void mlir::terrazzo::registerTestAxisInfoPass() {
  PassRegistration<TestAxisInfoPass>();
}
