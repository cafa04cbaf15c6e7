#include "lib/CrashRecovery.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ErrorHandling.h"

#include <csignal>
#include <cstring>
#include <mutex>
#include <unistd.h>
#include <vector>

using namespace terrazzo;

namespace {

struct Step {
  std::string step;
  mlir::Location location;
};

/// The compile running on this thread, if it runs through
/// runRecoveringCrashes.
struct Recovery {
  std::string fatalError;
  bool hadFatalError = false;
};

thread_local Recovery *currentRecovery = nullptr;
thread_local std::vector<Step> steps;

/// LLVM's fatal-error and out-of-memory handler, process-wide: inside a
/// recovered compile, it records the message and jumps back to
/// runRecoveringCrashes; elsewhere it reports as LLVM does, and LLVM then
/// ends the process.
void onFatalError(void *, const char *reason, bool) {
  if (Recovery *recovery = currentRecovery)
    if (llvm::CrashRecoveryContext *context =
            llvm::CrashRecoveryContext::GetCurrent()) {
      recovery->fatalError = reason;
      recovery->hadFatalError = true;
      context->HandleExit(1);
    }
  std::string text = std::string("LLVM ERROR: ") + reason + "\n";
  ssize_t written = ::write(2, text.data(), text.size());
  (void)written;
}

void installHandlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::install_fatal_error_handler(onFatalError);
    llvm::install_bad_alloc_error_handler(onFatalError);
  });
  // Installs the signal handlers unless they are (LLVM takes them down
  // again when a signal arrives outside any recovery context).
  llvm::CrashRecoveryContext::Enable();
}

std::string describeSignal(int signal) {
  const char *name = strsignal(signal);
  return std::string(name ? name : "signal") + " (signal " +
         std::to_string(signal) + ")";
}

struct StepInstrumentation : public mlir::PassInstrumentation {
  // One step per pass run, popped when it ends; pushed and popped on the
  // thread that runs the pass.
  void runBeforePass(mlir::Pass *pass, mlir::Operation *op) override {
    std::string name = pass->getArgument().str();
    if (name.empty())
      name = pass->getName().str();
    steps.push_back({"pass '" + name + "'", op->getLoc()});
  }
  void runAfterPass(mlir::Pass *, mlir::Operation *) override { pop(); }
  void runAfterPassFailed(mlir::Pass *, mlir::Operation *) override { pop(); }

  static void pop() {
    if (!steps.empty())
      steps.pop_back();
  }
};

struct TestCrashPass
    : public mlir::PassWrapper<TestCrashPass, mlir::OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestCrashPass)

  TestCrashPass() = default;
  TestCrashPass(const TestCrashPass &other) : PassWrapper(other) {}

  llvm::StringRef getArgument() const override {
    return "terrazzo-test-crash";
  }
  llvm::StringRef getDescription() const override {
    return "Crash on purpose (test of the crash recovery)";
  }

  void runOnOperation() override {
    if (kind == "fatal-error")
      llvm::report_fatal_error("terrazzo-test-crash was asked to fail");
    if (kind == "signal")
      std::raise(SIGSEGV);
    getOperation()->emitError("terrazzo-test-crash: unknown kind '")
        << kind << "'; expected fatal-error or signal";
    signalPassFailure();
  }

  Option<std::string> kind{*this, "kind",
                           llvm::cl::desc("fatal-error or signal"),
                           llvm::cl::init("fatal-error")};
};

} // namespace

void terrazzo::registerTestCrashPass() {
  mlir::PassRegistration<TestCrashPass>();
}

std::string Crash::message() const {
  std::string text = "internal compiler error";
  if (!step.empty())
    text += " in " + step;
  return text + ": " + reason;
}

CrashStep::CrashStep(std::string step, mlir::Location location) {
  steps.push_back({std::move(step), location});
}

CrashStep::~CrashStep() {
  if (!steps.empty())
    steps.pop_back();
}

void terrazzo::recordCrashSteps(mlir::PassManager &pm) {
  pm.addInstrumentation(std::make_unique<StepInstrumentation>());
}

std::optional<Crash> terrazzo::runRecoveringCrashes(
    llvm::function_ref<void()> body) {
  installHandlers();
  Recovery recovery;
  Recovery *outer = currentRecovery;
  size_t depth = steps.size();
  currentRecovery = &recovery;
  llvm::CrashRecoveryContext context;
  bool finished = context.RunSafely(body);
  currentRecovery = outer;
  if (finished)
    return std::nullopt;

  Crash crash;
  if (recovery.hadFatalError)
    crash.reason = recovery.fatalError;
  else if (context.RetCode > 128)
    crash.reason = describeSignal(context.RetCode - 128);
  else
    crash.reason = "the compiler stopped with code " +
                   std::to_string(context.RetCode);
  if (steps.size() > depth) {
    crash.step = steps.back().step;
    crash.location = steps.back().location;
  }
  // The crashed steps never ended.
  steps.erase(steps.begin() + depth, steps.end());
  return crash;
}
