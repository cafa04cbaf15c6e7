// Inputs that crash MLIR's own parser (a SIGSEGV in parseDenseArrayAttr on a
// dense array of index, found by scripts/fuzz) are a located error before
// parsing, in terrazzo-opt and terrazzo-compile alike: exit code 1, no
// internal compiler error. The same words in a string or a comment are not.
// RUN: rm -rf %t && split-file --leading-lines %s %t

// RUN: not terrazzo-opt %t/index-array.mlir 2>&1 | FileCheck %s --check-prefix=OPT --implicit-check-not="internal compiler error"
// OPT: index-array.mlir:[[# @LINE + 15]]:54: error: dense arrays of 'index' are not supported (MLIR's parser crashes on them): use array<i64: ...>
// RUN: not terrazzo-compile %t/index-array.mlir --target=cuda:90 --emit=ptx -o %t/out 2>&1 | FileCheck %s --check-prefix=COMPILE --implicit-check-not="internal compiler error"
// COMPILE: index-array.mlir:[[# @LINE + 13]]:54: error: dense arrays of 'index' are not supported

// Spaces inside the brackets do not hide it.
// RUN: not terrazzo-opt %t/spaced.mlir 2>&1 | FileCheck %s --check-prefix=SPACED --implicit-check-not="internal compiler error"
// SPACED: spaced.mlir:[[# @LINE + 14]]:32: error: dense arrays of 'index'

// In a string, in a comment, in a longer name, or of another element type,
// it parses.
// RUN: terrazzo-opt %t/fine.mlir | FileCheck %s --check-prefix=FINE
// FINE: tile.note = "array<index: 1>"
// FINE-SAME: tile.sizes = array<i64: 4, 4>

//--- index-array.mlir
func.func @k(%x: tensor<1024xi32> {tile.contiguity = array<index: 4, 4>}) {
  return
}

//--- spaced.mlir
func.func @k() attributes {a = array <  index : 1>} {
  return
}

//--- fine.mlir
// A comment may say array<index: 1>.
func.func @k() attributes {tile.note = "array<index: 1>", tile.sizes = array<i64: 4, 4>, my.array_index = 1} {
  return
}
