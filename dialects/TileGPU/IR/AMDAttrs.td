// The tilegpu layouts that only AMD targets have, included by
// TileGPUAttrs.td: the accumulators of the CDNA matrix cores (MFMA).
#ifndef TERRAZZO_TILEGPU_AMD_ATTRS
#define TERRAZZO_TILEGPU_AMD_ATTRS

def TileGPU_AmdMfmaLayout : TileGPU_Attr<"AmdMfmaLayout", "amd_mfma",
    [DeclareAttrInterfaceMethods<TileGPU_DistributedLayout>,
     TileGPU_MatrixAccumulatorLayout,
     DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "Accumulators of AMD matrix-core (MFMA) instructions";
  let description = [{
    The result layout of the MFMA instructions of CDNA (gfx90a, gfx942,
    gfx950) on wavefronts of 64, for an `instrShape = [s, s]` result tile
    (32 x 32 or 16 x 16): lane l holds column l % s, its registers r the
    rows (r % 4) + 8 (r / 4) + 4 (l / s) (16 registers for 32 x 32, 4 for
    16 x 16). `warpsPerCTA = [wM, wN]` tiles the warps (wavefronts) over
    the result, one instruction tile each, M first; the pattern repeats, N
    fastest, to cover the tensor. Its operands are `#tilegpu.dot_operand`
    layouts with this parent, `kWidth` the consecutive k each lane holds.

    `isTransposed = true` is the transposed result, which the instructions
    give when A and B swap places (D^T = B^T A^T): lane l holds row l % s,
    its registers r the columns (r % 4) + 8 (r / 4) + 4 (l / s). Those are
    the k of the A operand (kWidth 4) that lane holds, so that a dot's
    result feeds the next dot's A operand from registers (attention's P).

        #tilegpu.amd_mfma<{warpsPerCTA = [2, 2], instrShape = [32, 32]}>
        #tilegpu.amd_mfma<{warpsPerCTA = [4, 1], instrShape = [32, 32], isTransposed = true}>
  }];
  let parameters = (ins TileGPU_UnsignedArrayParameter<>:$warpsPerCTA,
                        TileGPU_UnsignedArrayParameter<>:$instrShape,
                        DefaultValuedParameter<"bool", "false">:$isTransposed);
  let assemblyFormat = "`<` `{` struct(params) `}` `>`";
  let genVerifyDecl = 1;
}

#endif // TERRAZZO_TILEGPU_AMD_ATTRS
