// Loop-carried 8- and 16-bit values kept in the 32-bit vectors they were
// computed in: an LLVM IR rewrite that every vendor's code generator runs
// inside LLVM's O3 pipeline (LLVMCodeGen.cpp).
#ifndef TERRAZZO_BACKENDS_COMMON_PACKNARROWPHIS_H
#define TERRAZZO_BACKENDS_COMMON_PACKNARROWPHIS_H

namespace llvm {
class Function;
} // namespace llvm

namespace mlir::terrazzo {

/// Rejoins phis of 8- or 16-bit scalars that are the lanes of one 32-bit
/// vector on every incoming edge (a rotated attention loop's P, converted
/// to float16 two elements at a time at the end of one iteration and
/// packed again for the next iteration's wgmma) into one phi of that
/// vector, read lane by lane where the scalars were used.
///
/// The lowering carries a tensor across a loop as a struct of scalars, so
/// after LLVM's scalar replacement each element is a phi of its own, which
/// the code generator keeps in a register of its own: on sm_90 the 32
/// float16 of a 128 x 64 P cost 16 byte permutations per iteration to pack
/// them again. A group is rejoined when every edge brings either lanes
/// 0..N-1 of one vector, each phi the same lane on every such edge, or
/// constants, and at least one edge brings a vector; the lane reads are
/// folded into the packing they feed by the InstCombine that follows.
/// Returns whether `function` changed.
bool packNarrowPhis(llvm::Function &function);

} // namespace mlir::terrazzo

#endif // TERRAZZO_BACKENDS_COMMON_PACKNARROWPHIS_H
