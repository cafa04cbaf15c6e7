// Which tensor descriptors TMA can serve on sm_90: terrazzo-lower-tensor-
// descriptors keeps those (with keep-tma) and lowers the rest to pointer
// accesses; terrazzo-lower-descriptors-to-tma then turns what is left into
// TMA copies.
#ifndef TERRAZZO_PASSES_TMADESCRIPTORS_H
#define TERRAZZO_PASSES_TMADESCRIPTORS_H

#include "dialects/Tile/IR/Tile.h"
#include "passes/Analysis/NonNegative.h"

#include "llvm/ADT/DenseSet.h"

namespace mlir::terrazzo {

class ModuleAxisInfoAnalysis;

/// The kernel (a public function) that holds `op` in its body directly or
/// in a nest of scf.for loops and scf.if branches only, else null. Their
/// bounds and conditions are scalars, the same for every thread of the
/// program, so every thread reaches what the nest reaches: a tensor map
/// built there (with a barrier of the program) is built by all.
Operation *kernelOfStraightNest(Operation *op);

/// Whether `desc` can be lowered to TMA: created in a kernel's body or in a
/// straight nest of loops and branches there (kernelOfStraightNest: a
/// descriptor made per tile of a persistent loop, or per problem of a
/// grouped GEMM), used only by desc_load and desc_store, its
/// block one TMA can copy (tilegpu::getTmaSharedLayout), its base known
/// aligned to 16 bytes, its innermost stride the constant 1 and its other
/// strides known multiples of 16 bytes (AxisInfo: divisibility hints of the
/// kernel's arguments), and the innermost block coordinate of every load
/// and store a known multiple of 16 bytes (TMA faults on the others).
bool canLowerToTma(tile::MakeTensorDescOp desc,
                   const ModuleAxisInfoAnalysis &axisInfo);

/// Whether `value` is, through integer casts, an argument of the kernel.
/// The launcher specialises those on their alignment (tile.divisibility)
/// and sign (tile.nonnegative), so one that AxisInfo does not know to be
/// aligned, or not negative, is not, at this launch: a check at run time
/// would always fail.
bool isSpecializedArgument(Value value);

/// A fact TMA needs of a descriptor that AxisInfo does not know, to be
/// checked at run time: `value` (an integer, or a pointer's address in
/// bytes) is a multiple of `multiple`, or, where `multiple` is 0, equals 1
/// (an innermost stride).
struct TmaRuntimeCheck {
  Value value;
  int64_t multiple;
};

/// The facts of canLowerToTma about `desc`'s base and strides that
/// AxisInfo does not know (a base and strides loaded from memory, say),
/// or nullopt where its other conditions fail, which are known at compile
/// time. canLowerToTma holds where the list is empty;
/// terrazzo-lower-tensor-descriptors versions the code using a descriptor
/// on the others.
std::optional<SmallVector<TmaRuntimeCheck>>
getTmaRuntimeChecks(tile::MakeTensorDescOp desc,
                    const ModuleAxisInfoAnalysis &axisInfo);

/// A descriptor canLowerToTma would accept if `checks` (not empty) held.
struct CheckedDescriptor {
  tile::MakeTensorDescOp desc;
  SmallVector<TmaRuntimeCheck> checks;
};

/// Versions the code that uses the `candidates` (in the order of a walk)
/// on their checks, for terrazzo-lower-tensor-descriptors: the ops of a
/// block from its candidates' first make_tensor_desc through the last op
/// holding a use of one move into the then branch of an `scf.if` on all
/// their checks, where their descriptors go into `kept` (for TMA), and a
/// copy into its else branch, where they do not (pointer accesses); the
/// range's values used after it are the scf.if's results. Left out, and
/// left to the pointer lowering in both branches: a descriptor checked on
/// a kernel argument (the launcher specialised the kernel on its
/// alignment, so it is not aligned), or on a value the range defines, and
/// the descriptors of a range with a warp-specialized loop (which is not
/// duplicated) or nested in another's range. Descriptors of `kept` in a
/// range are kept in both branches.
void versionForTma(ArrayRef<CheckedDescriptor> candidates,
                   DenseSet<Operation *> &kept);

/// The stores through `desc` at coordinates not known to be non-negative
/// (a TMA store at a negative coordinate faults on the H100; loads there
/// are right).
SmallVector<tile::DescStoreOp> getUnguardedStores(tile::MakeTensorDescOp desc);

/// Where `desc` is stored through and AxisInfo does not know its innermost
/// extent a whole number of 16 bytes, the check that it is (a TMA store
/// writes past an extent that is not, up to the next 16 bytes).
std::optional<TmaRuntimeCheck>
getStoreExtentCheck(tile::MakeTensorDescOp desc,
                    const ModuleAxisInfoAnalysis &axisInfo);

/// Whether `desc` (one canLowerToTma accepts) is of the kind that runs
/// correctly under TMA on the H100 as it is: loads always; for descriptors
/// that are stored through, no unguarded store and no extent check
/// (getUnguardedStores, getStoreExtentCheck). LoadsToDescriptors makes
/// only these; terrazzo-lower-tensor-descriptors checks and guards the
/// others at run time.
bool isTmaValidated(tile::MakeTensorDescOp desc,
                    const ModuleAxisInfoAnalysis &axisInfo);

/// Each of `stores` (through descriptors left for TMA) guarded by a check
/// that its coordinates are not negative: the store in the then branch of
/// an scf.if on it, and in the else branch the same store through a copy of
/// its make_tensor_desc, which the pointer lowering then rewrites.
void guardStoreCoordinates(ArrayRef<tile::DescStoreOp> stores);

} // namespace mlir::terrazzo

#endif // TERRAZZO_PASSES_TMADESCRIPTORS_H
