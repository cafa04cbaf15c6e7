#ifndef TERRAZZO_BACKENDS_PASSES
#define TERRAZZO_BACKENDS_PASSES

include "mlir/Pass/PassBase.td"

def TerrazzoConvertTileGPUToLLVM
    : Pass<"terrazzo-convert-tilegpu-to-llvm", "::mlir::ModuleOp"> {
  let summary = "Lower tilegpu IR to the LLVM dialect and the target's GPU dialect";
  let description = [{
    Each tensor becomes the values one thread holds under its layout (an LLVM
    struct); each op becomes the per-thread code that computes them. The
    target comes from the module's `tilegpu.target`: the shared patterns of
    backends/common do the work, and the target's TargetInfo supplies special
    registers, kernel attributes, printing and assertions (NVVM for `cuda:*`).
    Loads and stores are vectorised from the layout and AxisInfo. A
    `convert_layout` that only relabels a thread's registers costs nothing;
    one that keeps every element in its warp, with each result register read
    from the same source register in every lane, is one warp shuffle per
    distinct (register, lane offset); any other goes through shared memory: a
    barrier, every thread storing its elements at their row-major offsets in
    the module's external `@global_smem` (address space 3), a barrier, and
    the loads of the result layout. A `tile.reduce` combines, with its
    region, first the registers of a thread that differ only along the axis,
    then across the lanes along the axis with butterfly shuffles, then, when
    warps hold different parts of the axis, through that buffer (a barrier,
    each warp's partials stored per output element, a barrier, every thread
    combining them). Every such conversion or reduction reuses that
    buffer, and the module attribute `tilegpu.shared` (i32) records the
    largest need: the dynamic shared memory the kernel must be launched
    with, checked against the target's limit. Public
    functions become kernels launched with `num-warps * threads-per-warp`
    threads; a pointer argument's `tile.divisibility` becomes its LLVM
    alignment. Transcendental math on NVIDIA calls libdevice (`__nv_*`),
    which is linked when the module is turned into PTX. The module must
    contain no `scf` ops (run `convert-scf-to-cf` first).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect"];
}

#endif // TERRAZZO_BACKENDS_PASSES
