// terrazzo-pipeline's TMA form: a descriptor load in a loop (as
// terrazzo-lower-descriptors-to-tma leaves it: a fresh buffer and mbarrier
// per iteration, the copy waited for at once) becomes a ring of
// num-stages buffers and mbarriers filled ahead of their iteration.
#ifndef TERRAZZO_PASSES_PIPELINETMA_H
#define TERRAZZO_PASSES_PIPELINETMA_H

#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::terrazzo {

/// One TMA copy of the loop body to pipeline.
struct TmaCandidate {
  tilegpu::AsyncTMACopyGlobalToLocalOp copy;
  tilegpu::LocalAllocOp buffer;  // in the body, no value: nvmma_shared
  tilegpu::LocalAllocOp barrier; // in the body, the copy's alone
  /// The barrier's init, expect_tx, wait and inval.
  SmallVector<Operation *> barrierOps;
  tilegpu::MBarrierWaitOp wait;
  /// Ops computing the coordinates in the loop from the induction
  /// variable and loop invariants, recomputed per iteration copied.
  SmallVector<Operation *> coordSlice;
  /// Whether every reader of the buffer is a warp_group_dot (else some are
  /// local_loads into dot operands).
  bool onlyWgmmaReaders = true;
  /// Filled in by TmaRing::allocate.
  Value stack;
};

/// A candidate when `copy` (in `loop`'s body) is a copy to pipeline: its
/// tensor map loop-invariant, its coordinates cloneable, its buffer and
/// mbarrier created in the body for it alone, the buffer (nvmma_shared,
/// a multiple of 1024 bytes) read only after the wait, by dots in the
/// body: as a warp_group_dot operand (maybe through a memdesc_trans), or
/// through local_loads whose values only feed dot operands.
std::optional<TmaCandidate> matchTmaCandidate(
    tilegpu::AsyncTMACopyGlobalToLocalOp copy, scf::ForOp loop);

/// A ring's memory and its shape, which outlive the loop that allocated
/// it: a stack of buffers per candidate (in the candidates' order), the
/// stacks of full and (with releases) empty mbarriers.
struct TmaRingStorage {
  SmallVector<Value> stacks;
  Value barriers, emptyBarriers;
  int64_t stages = 0;
  int64_t releaseArrivals = 0;
  SmallVector<Type> bufferTypes; // one stage's buffer, per candidate
};

/// The buffers and mbarriers of the TMA candidates of one loop: a stack of
/// `stages` buffers per candidate and one mbarrier per stage, which all
/// copies of that stage signal (full). With releases, a second mbarrier per
/// stage (empty) that every warp arrives on once its reads of the stage
/// are complete, and that a refill of the stage waits for, instead of a
/// barrier of the whole program in front of it.
class TmaRing {
public:
  TmaRing(scf::ForOp loop, int64_t stages,
          MutableArrayRef<TmaCandidate> candidates)
      : loop(loop), stages(stages), candidates(candidates) {}

  /// Stages are released through empty mbarriers of `arrivals` arrivals
  /// (one per warp); call before allocate.
  void enableReleases(int64_t arrivals) { releaseArrivals = arrivals; }
  bool hasReleases() const { return releaseArrivals != 0; }

  /// Creates the stacks and initialises the mbarriers (before the loop),
  /// then passes a barrier of the program unless `publish` is false (a
  /// tilegpu.warp_specialize right after them opens with one).
  void allocate(OpBuilder &b, Location loc, bool publish = true);
  /// The memory allocate (or adopt) gave the ring.
  TmaRingStorage storage() const;
  /// Whether this ring could use `other`'s memory instead of its own: as
  /// many stages and arrivals, and the same buffer types in the same order.
  bool canAdopt(const TmaRingStorage &other) const;
  /// Uses `other`'s memory (canAdopt; initialised already) instead of
  /// allocating: another loop's, done with it when this one's copies first
  /// wait for a release (a warp-specialized producer runs the loops of its
  /// function one after the other, continuing the ring's stage and
  /// parities where the previous loop left them).
  void adopt(const TmaRingStorage &other);
  /// Copies of iteration `iv` (if below the loop's upper bound) into the
  /// buffers of stage `index`, signalling that stage's mbarrier. With
  /// releases and an `emptyPhase` (the parity of the empty mbarrier's
  /// phase that the stage's last release completes; 1 for a stage never
  /// filled), the copies wait for that phase first and are marked
  /// tilegpu.reads_retired.
  /// With `outside` (a warp-specialized producer, whose loop runs exactly
  /// the loop's iterations), no bound check, and the values the copies
  /// take from outside the loop (tensor maps, the coordinates' inputs) are
  /// mapped through it.
  void issue(OpBuilder &b, Location loc, Value iv, Value index,
             Value emptyPhase = Value(),
             const IRMapping *outside = nullptr);
  /// The candidates (for a producer's slice).
  ArrayRef<TmaCandidate> getCandidates() const { return candidates; }
  /// Every warp's reads of stage `index` are complete: one arrival per
  /// warp on its empty mbarrier.
  void releaseStage(OpBuilder &b, Location loc, Value index);
  /// Whether `buffer` is a view of one of the ring's stacks (the index
  /// giving the stage in `index`).
  bool isStageOf(Value buffer, Value &index) const;
  /// What readStage built and found: the wait for the stage's copies and
  /// the last op of the body that reads the stage's buffers.
  struct StageRead {
    Operation *wait = nullptr;
    Operation *lastRead = nullptr;
  };
  /// In the loop (`loop` given again: the pipeliner rebuilt it), waits for
  /// stage `index`'s mbarrier phase of parity `phase`, before the first
  /// original wait, and gives the readers that stage's buffers.
  StageRead readStage(scf::ForOp newLoop, Value index, Value phase);
  /// Removes the original per-iteration copies, buffers and mbarriers.
  void eraseOriginals();
  /// After the loop: invalidates the mbarriers, frees the memory.
  void release(OpBuilder &b, Location loc);

private:
  Value barrierAt(OpBuilder &b, Location loc, Value stack, Value index);

  scf::ForOp loop;
  int64_t stages;
  MutableArrayRef<TmaCandidate> candidates;
  int64_t releaseArrivals = 0;
  Value barriers;      // full
  Value emptyBarriers; // with releases
};

} // namespace mlir::terrazzo

#endif // TERRAZZO_PASSES_PIPELINETMA_H
