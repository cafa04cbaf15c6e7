// lib/CrashRecovery: a crash inside runRecoveringCrashes comes back as a
// Crash naming its step, and the process carries on.
#include "lib/CrashRecovery.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/ErrorHandling.h"

#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <thread>
#include <vector>

using terrazzo::Crash;
using terrazzo::CrashStep;
using terrazzo::runRecoveringCrashes;

namespace {

TEST(CrashRecovery, NothingWhenTheBodyReturns) {
  int runs = 0;
  EXPECT_FALSE(runRecoveringCrashes([&] { ++runs; }));
  EXPECT_EQ(runs, 1);
}

TEST(CrashRecovery, FatalErrorComesBack) {
  std::optional<Crash> crash = runRecoveringCrashes(
      [] { llvm::report_fatal_error("the layout is not a layout"); });
  ASSERT_TRUE(crash);
  EXPECT_EQ(crash->reason, "the layout is not a layout");
  EXPECT_EQ(crash->step, "");
  EXPECT_FALSE(crash->location);
  EXPECT_EQ(crash->message(),
            "internal compiler error: the layout is not a layout");
}

TEST(CrashRecovery, InternalFatalErrorComesBack) {
  // reportFatalInternalError would abort (a crash report) after the handler.
  std::optional<Crash> crash = runRecoveringCrashes(
      [] { llvm::reportFatalInternalError("broken invariant"); });
  ASSERT_TRUE(crash);
  EXPECT_EQ(crash->reason, "broken invariant");
}

TEST(CrashRecovery, SignalComesBack) {
  std::optional<Crash> crash =
      runRecoveringCrashes([] { std::raise(SIGSEGV); });
  ASSERT_TRUE(crash);
  EXPECT_NE(crash->reason.find("(signal 11)"), std::string::npos)
      << crash->reason;
  crash = runRecoveringCrashes([] { std::raise(SIGTRAP); });
  ASSERT_TRUE(crash);
  EXPECT_NE(crash->reason.find("(signal 5)"), std::string::npos)
      << crash->reason;
}

TEST(CrashRecovery, TheInnermostStepIsNamed) {
  mlir::MLIRContext context;
  mlir::Location outer = mlir::FileLineColLoc::get(&context, "k.mlir", 1, 1);
  mlir::Location inner = mlir::FileLineColLoc::get(&context, "k.mlir", 7, 3);
  std::optional<Crash> crash = runRecoveringCrashes([&] {
    CrashStep pipeline("the pipeline", outer);
    {
      CrashStep done("pass 'a'", outer);
    }
    CrashStep pass("pass 'b'", inner);
    llvm::report_fatal_error("no");
  });
  ASSERT_TRUE(crash);
  EXPECT_EQ(crash->step, "pass 'b'");
  ASSERT_TRUE(crash->location);
  EXPECT_EQ(*crash->location, inner);
  EXPECT_EQ(crash->message(), "internal compiler error in pass 'b': no");
  // The steps of the crashed body never ended; they do not linger.
  crash = runRecoveringCrashes([] { llvm::report_fatal_error("again"); });
  ASSERT_TRUE(crash);
  EXPECT_EQ(crash->step, "");
}

TEST(CrashRecovery, ThreadsRecoverTheirOwnCrashes) {
  std::atomic<int> recovered{0}, returned{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        bool crash = (i + t) % 2 == 0;
        std::optional<Crash> result = runRecoveringCrashes([&] {
          if (crash)
            llvm::report_fatal_error("thread " + llvm::Twine(t));
        });
        if (result && result->reason == "thread " + std::to_string(t))
          ++recovered;
        else if (!result && !crash)
          ++returned;
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(recovered, 200);
  EXPECT_EQ(returned, 200);
}

} // namespace
