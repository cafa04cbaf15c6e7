#ifndef TERRAZZO_TILEGPU_OPS
#define TERRAZZO_TILEGPU_OPS

include "dialects/TileGPU/IR/TileGPUTypes.td"
include "dialects/Tile/IR/TileTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def SharedMemory : Resource<"::mlir::tilegpu::SharedMemory">;

def TileGPU_ConvertLayoutOp : TileGPU_Op<"convert_layout", [Pure]> {
  let summary = "Move a tensor's elements to another layout";
  let description = [{
    Same shape and element type, another encoding. Lowered to in-thread
    permutation, warp shuffles or a trip through shared memory, depending on
    which hardware bits the two layouts disagree on.
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizeMethod = 1;
}

def TileGPU_LocalAllocOp : TileGPU_Op<"local_alloc"> {
  let summary = "Allocate a shared-memory buffer, optionally initialised from a tensor";
  let arguments = (ins Optional<Tile_Tensor>:$src);
  let results = (outs Res<TileGPU_MemDescType, "new buffer",
                          [MemAlloc<SharedMemory>]>:$result);
  let assemblyFormat = "($src^)? attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def TileGPU_LocalDeallocOp : TileGPU_Op<"local_dealloc"> {
  let summary = "End the lifetime of a shared-memory buffer";
  let arguments = (ins Arg<TileGPU_MemDescType, "buffer",
                           [MemFree<SharedMemory>]>:$buffer);
  let assemblyFormat = "$buffer attr-dict `:` qualified(type($buffer))";
}

def TileGPU_LocalLoadOp : TileGPU_Op<"local_load"> {
  let summary = "Read a shared-memory buffer into a distributed tensor";
  let arguments = (ins Arg<TileGPU_MemDescType, "buffer",
                           [MemRead<SharedMemory>]>:$buffer);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$buffer attr-dict `:` qualified(type($buffer)) `->` type($result)";
  let hasVerifier = 1;
}

def TileGPU_LocalStoreOp : TileGPU_Op<"local_store"> {
  let summary = "Write a distributed tensor into a mutable shared-memory buffer";
  let arguments = (ins Tile_Tensor:$src,
                       Arg<TileGPU_MemDescType, "buffer",
                           [MemWrite<SharedMemory>]>:$buffer);
  let assemblyFormat = "$src `,` $buffer attr-dict `:` type($src) `->` qualified(type($buffer))";
  let hasVerifier = 1;
}

def TileGPU_BarrierOp : TileGPU_Op<"barrier"> {
  let summary = "Wait for every thread of the program instance";
  let description = [{
    Every thread of the program instance reaches this point before any goes
    on, and shared-memory accesses before it are visible to all threads
    after it. Inserted by terrazzo-insert-barriers where shared-memory
    accesses of different threads could otherwise conflict.
  }];
  let assemblyFormat = "attr-dict";
}

#endif // TERRAZZO_TILEGPU_OPS
