// The tilegpu layouts that only NVIDIA targets have, included by
// TileGPUAttrs.td: the accumulators of mma.sync and wgmma, and the shared
// buffers wgmma's matrix descriptors address.
#ifndef TERRAZZO_TILEGPU_NVIDIA_ATTRS
#define TERRAZZO_TILEGPU_NVIDIA_ATTRS

def TileGPU_NvidiaMmaLayout : TileGPU_Attr<"NvidiaMmaLayout", "nvidia_mma",
    [DeclareAttrInterfaceMethods<TileGPU_DistributedLayout>,
     TileGPU_MatrixAccumulatorLayout,
     DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "Accumulators of NVIDIA tensor-core instructions";
  let description = [{
    The result layout of `mma.sync` (`versionMajor = 2`, `instrShape =
    [16, 8]`: each warp computes 16 x 8 tiles, lane l holding rows l / 4 and
    l / 4 + 8, columns 2 (l % 4) and 2 (l % 4) + 1) and of `wgmma`
    (`versionMajor = 3`, `instrShape = [16, N, K]`: four consecutive warps
    form a warp group computing 64 x N, each warp 16 rows of it laid out as
    mma.sync's tiles side by side). `warpsPerCTA = [wM, wN]` tiles the warps
    over the result, M first; the pattern repeats, N fastest, to cover the
    tensor.

        #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2],
                             instrShape = [16, 8]}>
  }];
  let parameters = (ins "unsigned":$versionMajor,
                        TileGPU_UnsignedArrayParameter<>:$warpsPerCTA,
                        TileGPU_UnsignedArrayParameter<>:$instrShape);
  let assemblyFormat = "`<` `{` struct(params) `}` `>`";
  let genVerifyDecl = 1;
}

def TileGPU_NvmmaSharedLayout : TileGPU_Attr<"NvmmaSharedLayout", "nvmma_shared",
    [DeclareAttrInterfaceMethods<TileGPU_SharedLayout>]> {
  let summary = "A 2-D shared buffer as wgmma's matrix descriptors address it";
  let description = [{
    The contiguous dimension (dim 1, or dim 0 when `transposed`) is cut into
    blocks of `swizzlingByteWidth` bytes (16 when it is 0: no swizzle);
    each block stores its rows (the other dimension) one after another, and
    the blocks follow each other. Eight consecutive rows of a block form a
    swizzle atom; within it, the 16-byte chunks of row r are XORed with
    (r / (128 / swizzlingByteWidth)) % (swizzlingByteWidth / 16), which is
    the swizzle the hardware applies to address bits 4-6 from bits 7-9
    (PTX ISA, "Shared Memory Matrix Layout"). `elementBitWidth` is the
    width of the buffer's elements.

        #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false,
                               elementBitWidth = 16}>
  }];
  let parameters = (ins "unsigned":$swizzlingByteWidth, "bool":$transposed,
                        "unsigned":$elementBitWidth);
  let assemblyFormat = "`<` `{` struct(params) `}` `>`";
  let genVerifyDecl = 1;
}

def TileGPU_HostTensormap : TileGPU_Attr<"HostTensormap", "host_tensormap"> {
  let summary = "A TMA tensor map the launcher builds from the kernel's arguments";
  let description = [{
    Kernel parameter `parameter` is a tensor map (128 bytes, passed by
    value) that the launcher encodes before each launch: the tensor whose
    address is kernel argument `base`, with elements of `elementType`, an
    extent per dimension and a stride per dimension (in elements; the last
    is 1), outermost dimension first, each kernel argument
    `shapeArguments[d]` (`strideArguments[d]`) or, where that is -1, the
    constant `shapeValues[d]` (`strideValues[d]`); copied in boxes of
    `box` elements whose rows are swizzled in `swizzleBytes` bytes (0:
    none), as a `tilegpu.tensormap_create` of the same operands would
    build it. Out-of-bounds elements read as zero. `stored`: the kernel
    stores through it (a map of an empty tensor, which TMA cannot
    describe, then points where stores may write, not where loads of other
    empty tensors read zeros). terrazzo-lower-descriptors-to-tma lists these in the module's
    `tilegpu.host_tensormap_params`.

        #tilegpu.host_tensormap<{parameter = 4, base = 0, elementType = f16,
            shapeArguments = [2, -1], shapeValues = [-1, 64],
            strideArguments = [3, -1], strideValues = [-1, 1],
            box = [128, 64], swizzleBytes = 128, stored = false}>
  }];
  let parameters = (ins "unsigned":$parameter, "unsigned":$base,
                        "::mlir::Type":$elementType,
                        "::mlir::DenseI64ArrayAttr":$shapeArguments,
                        "::mlir::DenseI64ArrayAttr":$shapeValues,
                        "::mlir::DenseI64ArrayAttr":$strideArguments,
                        "::mlir::DenseI64ArrayAttr":$strideValues,
                        "::mlir::DenseI32ArrayAttr":$box,
                        "unsigned":$swizzleBytes, "bool":$stored);
  let assemblyFormat = "`<` `{` struct(params) `}` `>`";
  let genVerifyDecl = 1;
}

#endif // TERRAZZO_TILEGPU_NVIDIA_ATTRS
