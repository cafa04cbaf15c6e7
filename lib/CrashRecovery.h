// Compiles that cannot end the process (DESIGN.md §7): an LLVM fatal error
// (report_fatal_error) or a crash (SIGSEGV, SIGABRT, SIGILL, SIGFPE, SIGBUS,
// SIGTRAP) inside a compile makes the compile fail with a message naming the
// pass that was running and the op it ran on, instead of ending the process
// with LLVM's "PLEASE submit a bug report" banner. terrazzo-opt and the core
// library (terrazzo-compile, the Python extension) both compile through it.
//
// Recovery jumps out of the crashed code: whatever that code owned (the
// MLIRContext of the compile, among others) is leaked, never freed, so that
// nothing of a half-updated state is touched again.
#ifndef TERRAZZO_LIB_CRASHRECOVERY_H
#define TERRAZZO_LIB_CRASHRECOVERY_H

#include "mlir/IR/Location.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>

namespace mlir {
class PassManager;
} // namespace mlir

namespace terrazzo {

/// What a crashed compile was doing.
struct Crash {
  /// What went wrong: the fatal error's text, or the signal's name.
  std::string reason;
  /// The step that was running ("pass 'terrazzo-coalesce'", "PTX
  /// emission"), empty when none was recorded.
  std::string step;
  /// The op that step ran on; unset when unknown.
  std::optional<mlir::Location> location;

  /// "internal compiler error in <step>: <reason>".
  std::string message() const;
};

/// Runs `body` on this thread. Returns what crashed if it crashed (the
/// steps `body` entered through CrashStep name it), nothing if it returned.
/// Several threads may run compiles through it at once.
std::optional<Crash> runRecoveringCrashes(llvm::function_ref<void()> body);

/// Marks a step of a compile for the duration of its scope, so that a crash
/// inside it names the step and the op it works on.
class CrashStep {
public:
  CrashStep(std::string step, mlir::Location location);
  ~CrashStep();
  CrashStep(const CrashStep &) = delete;
  CrashStep &operator=(const CrashStep &) = delete;
};

/// Makes every pass that `pm` runs a CrashStep ("pass '<argument>'" on the
/// op it runs on).
void recordCrashSteps(mlir::PassManager &pm);

/// --terrazzo-test-crash{kind=fatal-error|signal}: a pass that crashes on
/// purpose (report_fatal_error, or SIGSEGV), so that lit tests can show
/// what a crash inside a compile turns into.
void registerTestCrashPass();

} // namespace terrazzo

#endif // TERRAZZO_LIB_CRASHRECOVERY_H
