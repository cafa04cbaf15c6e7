// A crash inside a pass (an LLVM fatal error, a signal) is an error located
// at the op the pass ran on, naming the pass; terrazzo-opt exits with 1
// (`not` fails on a signal) and prints no crash banner.

// RUN: not terrazzo-opt %s --pass-pipeline='builtin.module(func.func(terrazzo-test-crash{kind=fatal-error}))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FATAL --implicit-check-not=PLEASE --implicit-check-not="Stack dump"
// RUN: not terrazzo-opt %s --pass-pipeline='builtin.module(func.func(terrazzo-test-crash{kind=signal}))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SIGNAL --implicit-check-not=PLEASE --implicit-check-not="Stack dump"
// Threads, when asked for, leave the pass on another thread: still no banner
// for a fatal error there (LLVM's own report, exit code 1).
// RUN: not terrazzo-opt %s --mlir-disable-threading=false --pass-pipeline='builtin.module(func.func(terrazzo-test-crash{kind=fatal-error}))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=THREADS --implicit-check-not=PLEASE

// FATAL: crash-recovery.mlir:[[# @LINE + 3]]:1: error: internal compiler error in pass 'terrazzo-test-crash': terrazzo-test-crash was asked to fail
// SIGNAL: crash-recovery.mlir:[[# @LINE + 2]]:1: error: internal compiler error in pass 'terrazzo-test-crash': Segmentation fault (signal 11)
// THREADS: terrazzo-test-crash was asked to fail
func.func @kernel() {
  return
}
