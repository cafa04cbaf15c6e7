// The AMD side of the shared lowering: ROCDL work-item registers, LDS
// barriers, cross-lane moves (DPP, ds_swizzle, ds_bpermute, readlane),
// LLVM atomics at AMDGPU's sync scopes, and printf through the ROCm device
// library's hostcall buffer (ockl).
#ifndef TERRAZZO_BACKENDS_AMD_AMDTARGETINFO_H
#define TERRAZZO_BACKENDS_AMD_AMDTARGETINFO_H

#include "backends/amd/AMDPatterns.h"
#include "backends/common/TargetInfo.h"

#include "mlir/Dialect/AMDGPU/Utils/Chipset.h"

namespace mlir::terrazzo {

class AMDTargetInfo : public TargetInfo {
public:
  /// `warpSize`: the wavefront size (64 on CDNA, 32 on RDNA); `chipset`:
  /// the processor (its hardware registers differ); `bufferAccesses`: the
  /// module's accesses that use buffer resources (findBufferAccesses), or
  /// null for none.
  AMDTargetInfo(unsigned warpSize, amdgpu::Chipset chipset,
                const BufferAccesses *bufferAccesses = nullptr)
      : warpSize(warpSize), chipset(chipset), bufferAccesses(bufferAccesses) {}

  Value programId(RewriterBase &rewriter, Location loc,
                  unsigned dim) const override;
  /// __ockl_get_num_groups (ockl.bc, linked by the binary step).
  Value numPrograms(RewriterBase &rewriter, Location loc,
                    unsigned dim) const override;
  Value threadId(RewriterBase &rewriter, Location loc) const override;
  /// The constant 100 MHz counter (llvm.readsteadycounter: s_memrealtime
  /// on CDNA) times 10: nanoseconds, in steps of 10.
  Value globalTimer(RewriterBase &rewriter, Location loc) const override;
  /// The compute unit from s_getreg_b32: on gfx9 (CDNA), HW_ID bits 15:8
  /// (CU_ID 11:8, SH_ID 12, SE_ID 15:13), with XCC_ID 3:0 above them (bits
  /// 11:8) on gfx942 and gfx950, whose dies (XCCs) each have such CUs; on
  /// gfx10 and later (RDNA), the work-group processor of HW_ID1 (WGP_ID
  /// 13:10, SA_ID 16, SE_ID 20:18) as SE_ID << 5 | SA_ID << 4 | WGP_ID.
  Value processorId(RewriterBase &rewriter, Location loc) const override;
  /// A workgroup release fence, s_barrier, a workgroup acquire fence.
  void barrier(RewriterBase &rewriter, Location loc) const override;
  /// v_readlane for a constant lane (the result is uniform), ds_bpermute
  /// otherwise.
  Value shuffleIdx(RewriterBase &rewriter, Location loc, Value value,
                   Value lane, unsigned warpSize) const override;
  /// DPP quad permutations for masks 1 and 2, ds_swizzle's bit mode for 4,
  /// 8 and 16, ds_bpermute for wider masks.
  Value shuffleXor(RewriterBase &rewriter, Location loc, Value value,
                   unsigned mask, unsigned warpSize) const override;
  /// amdgpu_kernel with exactly `numThreads` work-items per workgroup.
  void markKernel(LLVM::LLVMFuncOp func, unsigned numThreads) const override;
  LogicalResult printf(RewriterBase &rewriter, Location loc, StringRef format,
                       ValueRange values) const override;
  Value loadWithHints(RewriterBase &rewriter, Location loc, Type type,
                      Value ptr, std::optional<tile::CacheModifier> cache,
                      std::optional<tile::EvictionPolicy> evict) const override;
  void storeWithHints(RewriterBase &rewriter, Location loc, Value value,
                      Value ptr, std::optional<tile::CacheModifier> cache,
                      std::optional<tile::EvictionPolicy> evict) const override;
  /// Prints the failed assertion (printf) and traps.
  LogicalResult assertFail(RewriterBase &rewriter, Location loc, Value failed,
                           StringRef message, StringRef file, unsigned line,
                           StringRef function) const override;
  /// AMDGPU's names: "workgroup", "agent".
  StringRef syncScope(tile::MemScope scope) const override;
  /// Every operation and type the interface names is an LLVM atomicrmw;
  /// the AMDGPU back end expands what the chip has no instruction for into
  /// a compare-and-swap loop.
  bool hasAtomicRMW(tile::RMWOp op, Type type) const override;
  Value atomicRMW(RewriterBase &rewriter, Location loc, tile::RMWOp op,
                  Value ptr, Value val, tile::MemSemantic sem,
                  tile::MemScope scope, bool needOld) const override;
  Value atomicCAS(RewriterBase &rewriter, Location loc, Value ptr, Value cmp,
                  Value val, tile::MemSemantic sem,
                  tile::MemScope scope) const override;

  /// Buffer pointers for the stores and atomics of bufferAccesses
  /// (bufferAddresses).
  MaskedAddresses maskedAddresses(ConversionPatternRewriter &rewriter,
                                  const TypeConverter &converter,
                                  Operation *op) const override;

private:
  unsigned warpSize;
  amdgpu::Chipset chipset;
  const BufferAccesses *bufferAccesses;
};

} // namespace mlir::terrazzo

#endif // TERRAZZO_BACKENDS_AMD_AMDTARGETINFO_H
