#ifndef TERRAZZO_TILE_ATTRS
#define TERRAZZO_TILE_ATTRS

include "mlir/IR/EnumAttr.td"

def Tile_ProgramDim : I32EnumAttr<"ProgramDim", "grid dimension", [
    I32EnumAttrCase<"X", 0, "x">, I32EnumAttrCase<"Y", 1, "y">,
    I32EnumAttrCase<"Z", 2, "z">]> {
  let cppNamespace = "::mlir::tile";
}

def Tile_CacheModifier : I32EnumAttr<"CacheModifier", "cache modifier of a global access", [
    I32EnumAttrCase<"CA", 0, "ca">, I32EnumAttrCase<"CG", 1, "cg">,
    I32EnumAttrCase<"CS", 2, "cs">, I32EnumAttrCase<"CV", 3, "cv">,
    I32EnumAttrCase<"WB", 4, "wb">, I32EnumAttrCase<"WT", 5, "wt">]> {
  let cppNamespace = "::mlir::tile";
}

def Tile_EvictionPolicy : I32EnumAttr<"EvictionPolicy", "cache eviction hint", [
    I32EnumAttrCase<"Normal", 0, "evict_normal">,
    I32EnumAttrCase<"First", 1, "evict_first">,
    I32EnumAttrCase<"Last", 2, "evict_last">]> {
  let cppNamespace = "::mlir::tile";
}

def Tile_RMWOp : I32EnumAttr<"RMWOp", "read-modify-write operation", [
    I32EnumAttrCase<"And", 0, "and">, I32EnumAttrCase<"Or", 1, "or">,
    I32EnumAttrCase<"Xor", 2, "xor">, I32EnumAttrCase<"Add", 3, "add">,
    I32EnumAttrCase<"FAdd", 4, "fadd">, I32EnumAttrCase<"Max", 5, "max">,
    I32EnumAttrCase<"Min", 6, "min">, I32EnumAttrCase<"UMax", 7, "umax">,
    I32EnumAttrCase<"UMin", 8, "umin">, I32EnumAttrCase<"Xchg", 9, "xchg">]> {
  let cppNamespace = "::mlir::tile";
}

def Tile_MemSemantic : I32EnumAttr<"MemSemantic", "memory ordering of an atomic", [
    I32EnumAttrCase<"Relaxed", 0, "relaxed">,
    I32EnumAttrCase<"Acquire", 1, "acquire">,
    I32EnumAttrCase<"Release", 2, "release">,
    I32EnumAttrCase<"AcqRel", 3, "acq_rel">]> {
  let cppNamespace = "::mlir::tile";
}

def Tile_MemScope : I32EnumAttr<"MemScope", "scope of an atomic", [
    I32EnumAttrCase<"GPU", 0, "gpu">, I32EnumAttrCase<"CTA", 1, "cta">,
    I32EnumAttrCase<"System", 2, "sys">]> {
  let cppNamespace = "::mlir::tile";
}

def Tile_RoundingMode : I32EnumAttr<"RoundingMode", "float rounding mode", [
    I32EnumAttrCase<"RTNE", 0, "rtne">, I32EnumAttrCase<"RTZ", 1, "rtz">]> {
  let cppNamespace = "::mlir::tile";
}

def Tile_InputPrecision : I32EnumAttr<"InputPrecision", "precision of float32 dot inputs", [
    I32EnumAttrCase<"TF32", 0, "tf32">, I32EnumAttrCase<"TF32x3", 1, "tf32x3">,
    I32EnumAttrCase<"IEEE", 2, "ieee">]> {
  let cppNamespace = "::mlir::tile";
}

#endif // TERRAZZO_TILE_ATTRS
