// Terrazzo's public compiler API (DESIGN.md §7).
//
// This header is all a client (the Python extension, another language's
// bindings, a build of the core on another machine) needs: it includes no
// LLVM or MLIR header, so the core library can link LLVM/MLIR statically
// with hidden symbols and still be used from code built elsewhere.
#ifndef TERRAZZO_COMPILER_H
#define TERRAZZO_COMPILER_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#define TERRAZZO_API __attribute__((visibility("default")))

namespace terrazzo {

/// One message from the compiler, with the source position it points at
/// (`line` and `column` are 1-based; 0 when the message has no position).
struct Diagnostic {
  enum class Severity { Error, Warning, Note, Remark };
  Severity severity = Severity::Error;
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
  std::string message;

  /// "file:line:col: error: message", the form compilers print.
  TERRAZZO_API std::string str() const;
};

/// "error", "warning", "note" or "remark".
TERRAZZO_API const char *severityName(Diagnostic::Severity severity);

/// How far compilation goes, and what `CompileResult::output` holds. PTX
/// and Cubin are cuda targets' last stages, AMDGCN and HSACO hip targets'.
enum class Stage {
  Tile,    ///< tile IR after the tile pipeline (text)
  TileGPU, ///< tilegpu IR: layouts, coalescing (text)
  LLVM,    ///< the LLVM dialect and the vendor's (NVVM, ROCDL) (text)
  LLVMIR,  ///< optimized LLVM IR (text)
  PTX,     ///< PTX assembly (text)
  Cubin,   ///< the loadable binary: a cubin, or PTX when no assembler exists
  AMDGCN,  ///< AMDGCN assembly (text)
  HSACO,   ///< the loadable binary: an hsaco (AMD code object v5)
};

/// Parses "tile", "tilegpu", "llvm", "llvmir", "ptx", "cubin", "amdgcn" or
/// "hsaco"; false for anything else.
TERRAZZO_API bool parseStage(std::string_view name, Stage &stage);

/// The stages' names as an error message lists them ("tile, tilegpu, ...
/// or hsaco").
TERRAZZO_API const char *stageNames();

/// Warps per program instance when a launch names none.
TERRAZZO_API int defaultNumWarps();

/// The most warps per program instance (num_warps is a power of two from 1
/// to this).
TERRAZZO_API int maxNumWarps();

/// The range of CompileOptions::maxnreg (registers per thread).
TERRAZZO_API int minMaxnreg();
TERRAZZO_API int maxMaxnreg();

/// What the compiler knows of a target.
struct TargetDescription {
  /// The canonical spelling: "cuda:90", "hip:gfx942".
  std::string name;
  /// "cuda" or "hip".
  std::string vendor;
  /// The processor code is generated for: "sm_90a", "gfx942".
  std::string processor;
  /// Threads per warp (wavefront).
  int warpSize = 0;
  /// Shared memory one program instance may use (the opt-in maximum).
  int maxSharedMemoryBytes = 0;
  /// The target's own stages: its assembly ("ptx", "amdgcn") and its
  /// loadable binary ("cubin", "hsaco").
  std::string assemblyStage;
  std::string binaryStage;
};

/// Describes the target `name` ("cuda:90", "hip:gfx942", ...); false with
/// `error` set (listing the accepted targets) when there is no such target.
TERRAZZO_API bool describeTarget(std::string_view name,
                                 TargetDescription &description,
                                 std::string &error);

struct CompileOptions {
  /// Run the tile-level pipeline (inline, canonicalize, combine, CSE, symbol
  /// DCE) after parsing and verifying; otherwise only parse and verify
  /// (stage Tile only).
  bool optimize = true;
  /// "cuda:80", "cuda:90", "hip:gfx942", ...; ignored for stage Tile.
  std::string target = "cuda:90";
  /// Warps per program instance (a power of two from 1 to 32).
  int numWarps = defaultNumWarps();
  /// Shared buffers per software-pipelined dot operand in loops (cuda:80
  /// and newer; below 2, no pipelining).
  int numStages = 3;
  /// Let the code generator contract a float multiply and a dependent add
  /// into one fma (Triton's enable_fp_fusion); off, each rounds apart.
  bool fpFusion = true;
  /// Registers per thread the kernel may use (Triton's maxnreg: fewer
  /// registers, more programs per multiprocessor), from minMaxnreg() to
  /// maxMaxnreg(); 0 leaves it to the code generator. NVIDIA targets only
  /// (the kernel's .maxnreg; a warp-specialized kernel's launch budget);
  /// ignored for AMD, as Triton does.
  int maxnreg = 0;
  Stage stage = Stage::Tile;
  /// For stage Cubin: "auto" (ptxas, else nvJitLink, else leave PTX for the
  /// driver), "ptxas", "nvJitLink" or "driver"; for stage HSACO: "auto" or
  /// "ld.lld".
  std::string assembler = "auto";
  /// Let the launcher build the TMA tensor maps whose tensor is given by
  /// the kernel's arguments alone (base, extents and strides each an
  /// argument or a constant): the kernel takes each as a 128-byte
  /// parameter (KernelMetadata::hostTensorMaps) instead of building it in
  /// global scratch per program instance. cuda:90 only. The Python
  /// launcher sets it; a launcher that passes arguments as they are (AOT.h)
  /// leaves it off.
  bool hostTensorMaps = false;
};

struct KernelArgument {
  /// The argument's type in tile IR, e.g. "!tile.ptr<f32>" or "i32".
  std::string type;
  /// Known divisibility (tile.divisibility), 1 when none.
  int divisibility = 1;
};

/// An extent or stride of a host tensor map: kernel argument `argument`
/// (an index into KernelMetadata::arguments), or `value` when `argument`
/// is negative.
struct TensorMapOperand {
  int argument = -1;
  std::int64_t value = 0;
};

/// A TMA tensor map the launcher encodes (cuTensorMapEncodeTiled) and
/// passes by value as kernel parameter `parameter` (128 bytes, after
/// `arguments`): the tensor at the address in argument `base`, of
/// `shape` elements with row strides `strides` (in elements; the last is
/// 1), outermost dimension first, copied in boxes of `box` elements
/// swizzled in `swizzleBytes`-byte rows (0: none); out-of-bounds elements
/// read as zero. `stored`: the kernel stores through it.
struct HostTensorMap {
  int parameter = 0;
  int base = 0;
  int elementBytes = 0;
  std::vector<TensorMapOperand> shape;
  std::vector<TensorMapOperand> strides;
  std::vector<int> box;
  int swizzleBytes = 0;
  bool stored = false;
};

/// What a launcher needs besides the binary (written beside it as JSON).
struct KernelMetadata {
  std::string name;
  std::string target;
  std::vector<KernelArgument> arguments;
  int numWarps = 0;
  /// Threads per warp (wavefront): 32, or 64 on CDNA (hip:gfx9*).
  int warpSize = 0;
  int threadsPerBlock = 0;
  int sharedMemoryBytes = 0;
  /// Bytes of global scratch each program instance needs (tensor maps of
  /// TMA descriptors); when nonzero the kernel takes one more argument
  /// after `arguments` and `hostTensorMaps`, a pointer to (number of
  /// program instances) times this many bytes, aligned to 128.
  int globalScratchBytes = 0;
  /// Tensor maps the launcher builds and passes after `arguments` (and
  /// before the global scratch), in parameter order; see
  /// CompileOptions::hostTensorMaps.
  std::vector<HostTensorMap> hostTensorMaps;
  /// "cubin" or "ptx" for stage Cubin, "hsaco" for stage HSACO; the
  /// stage's name otherwise.
  std::string binaryKind;
  /// What produced the binary: "nvJitLink", "ptxas", "driver" or "ld.lld".
  std::string assembler;

  TERRAZZO_API std::string toJSON() const;
};

struct CompileResult {
  bool success = false;
  /// The module after the last stage that ran: text, or the binary for
  /// stages Cubin and HSACO.
  std::string output;
  std::vector<Diagnostic> diagnostics;
  KernelMetadata metadata;

  /// All diagnostics, one per line, in the order they were reported.
  TERRAZZO_API std::string formatDiagnostics() const;
};

/// Parses tile IR from `source` (named `sourceName` in diagnostics), verifies
/// it and runs the stages selected by `options`. Never throws or aborts on bad
/// input: failures come back as `success == false` with diagnostics.
/// `source` may also be tilegpu IR (what stage TileGPU printed, edited or
/// not): it then compiles from the tilegpu stage on, with the warps and
/// stages it was made with (options.numWarps and numStages do not apply),
/// and only for the target it names (one that names none: for
/// options.target).
TERRAZZO_API CompileResult compileTileIR(std::string_view source,
                                         std::string_view sourceName,
                                         const CompileOptions &options = {});

/// The compiler's version, including the LLVM it was built with; part of
/// every cache key.
TERRAZZO_API const char *version();

} // namespace terrazzo

#endif // TERRAZZO_COMPILER_H
