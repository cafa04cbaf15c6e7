#ifndef TERRAZZO_TILEGPU_TYPES
#define TERRAZZO_TILEGPU_TYPES

include "dialects/TileGPU/IR/TileGPUAttrs.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

def TileGPU_MemDescType : TypeDef<TileGPU_Dialect, "MemDesc", [ShapedTypeInterface]> {
  let mnemonic = "memdesc";
  let summary = "A buffer in shared memory, with its layout";
  let description = [{
    `!tilegpu.memdesc<64x64xf16, #shared, mutable>`: shape, element type,
    shared layout, and whether the buffer may be written after allocation
    (a buffer allocated from a value without `mutable` is read-only).
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "Type":$elementType,
                        "SharedLayoutAttr":$encoding,
                        "bool":$mutableMemory);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool hasRank() const { return true; }
    MemDescType cloneWith(std::optional<ArrayRef<int64_t>> shape,
                          Type elementType) const {
      return MemDescType::get(getContext(), shape.value_or(getShape()),
                              elementType, getEncoding(), getMutableMemory());
    }
  }];
}

def TileGPU_AsyncTokenType : TypeDef<TileGPU_Dialect, "AsyncToken"> {
  let mnemonic = "async_token";
  let summary = "Stands for asynchronous copies in flight";
  let description = [{
    The result of `tilegpu.async_copy_global_to_local`,
    `tilegpu.async_commit_group` and `tilegpu.async_wait`. It carries no
    data (it lowers to a constant); it only lets the IR say which copies a
    group or a wait is about.
  }];
}

#endif // TERRAZZO_TILEGPU_TYPES
