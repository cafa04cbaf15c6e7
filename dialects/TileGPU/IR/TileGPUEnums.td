#ifndef TERRAZZO_TILEGPU_ENUMS
#define TERRAZZO_TILEGPU_ENUMS

include "mlir/IR/EnumAttr.td"

def TileGPU_BarrierScope : I32EnumAttr<"BarrierScope",
    "the threads a tilegpu.barrier waits for", [
    I32EnumAttrCase<"Program", 0, "program">,
    I32EnumAttrCase<"WarpGroup", 1, "warp_group">,
    I32EnumAttrCase<"Warp", 2, "warp">]> {
  let cppNamespace = "::mlir::tilegpu";
}

#endif // TERRAZZO_TILEGPU_ENUMS
