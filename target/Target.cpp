#include "target/Target.h"

#include <array>
#include <cstring>

namespace terrazzo {
namespace {

struct CudaArch {
  unsigned capability;
  const char *processor;
  const char *ptxFeature;
  unsigned sharedMemory;
};

// Architectures with arch-specific features (wgmma, setmaxnreg, tcgen05)
// compile for their "a" variant so those instructions are available.
constexpr std::array<CudaArch, 10> kCudaArchs = {{
    {70, "sm_70", "+ptx70", 96 * 1024},
    {75, "sm_75", "+ptx70", 64 * 1024},
    {80, "sm_80", "+ptx70", 163 * 1024},
    {86, "sm_86", "+ptx71", 99 * 1024},
    {87, "sm_87", "+ptx74", 163 * 1024},
    // PTX 8.1: the fp8 conversions (cvt ... e4m3x2/e5m2x2) exist on sm_89
    // from that version on (7.8 has them on sm_90 only).
    {89, "sm_89", "+ptx81", 99 * 1024},
    // PTX 8.3: tensormap.replace and the tensor-map proxy fences, with
    // which TMA descriptors are built on the device.
    {90, "sm_90a", "+ptx83", 227 * 1024},
    {100, "sm_100a", "+ptx86", 227 * 1024},
    {103, "sm_103a", "+ptx88", 227 * 1024},
    {120, "sm_120a", "+ptx87", 99 * 1024},
}};

struct HipArch {
  const char *processor;
  unsigned warpSize;
  unsigned sharedMemory;
  unsigned mfmaVersion;
  Target::Fp8 fp8;
};

// CDNA runs wavefronts of 64 (wave64); RDNA's are 32 wide.
constexpr std::array<HipArch, 6> kHipArchs = {{
    {"gfx90a", 64, 64 * 1024, 2, Target::Fp8::None},
    {"gfx942", 64, 64 * 1024, 3, Target::Fp8::FNUZ},
    {"gfx950", 64, 160 * 1024, 4, Target::Fp8::OCP},
    {"gfx1100", 32, 64 * 1024, 0, Target::Fp8::None},
    {"gfx1200", 32, 64 * 1024, 0, Target::Fp8::OCP},
    {"gfx1201", 32, 64 * 1024, 0, Target::Fp8::OCP},
}};

std::string acceptedTargets() {
  std::string text;
  for (const CudaArch &arch : kCudaArchs)
    text += "cuda:" + std::to_string(arch.capability) + ", ";
  for (const HipArch &arch : kHipArchs)
    text += std::string("hip:") + arch.processor + ", ";
  return text.substr(0, text.size() - 2);
}

} // namespace

std::vector<MatrixInstruction> Target::matrixInstructions() const {
  std::vector<MatrixInstruction> result;
  if (!isHIP() || mfmaVersion < 2)
    return result;
  using M = MatrixOperand;
  // Both sizes of each: 32 x 32 and 16 x 16 accumulators, the 16 x 16 one
  // with twice the k.
  auto add = [&](M a, M b, unsigned k32) {
    result.push_back({a, b, 32, 32, k32, warpSize});
    result.push_back({a, b, 16, 16, 2 * k32, warpSize});
  };
  add(M::F32, M::F32, 2);
  if (mfmaVersion == 3)
    add(M::XF32, M::XF32, 4); // CDNA3 only: CDNA4 dropped xf32
  if (mfmaVersion >= 4) {
    add(M::F16, M::F16, 16);
    add(M::BF16, M::BF16, 16);
  }
  add(M::F16, M::F16, 8);
  add(M::BF16, M::BF16, 8);
  // CDNA3 replaced CDNA2's 4-byte int8 instructions with 8-byte ones.
  if (mfmaVersion >= 4)
    add(M::I8, M::I8, 32);
  if (mfmaVersion >= 3)
    add(M::I8, M::I8, 16);
  else
    add(M::I8, M::I8, 8);
  if (fp8 != Fp8::None && mfmaVersion >= 3)
    for (M a : {M::F8E4M3, M::F8E5M2})
      for (M b : {M::F8E4M3, M::F8E5M2})
        add(a, b, 16);
  return result;
}

std::string Target::llvmTriple() const {
  return isCUDA() ? "nvptx64-nvidia-cuda" : "amdgcn-amd-amdhsa";
}

std::optional<Target> Target::parse(std::string_view text, std::string &error) {
  constexpr std::string_view cudaPrefix = "cuda:", hipPrefix = "hip:";
  if (text.substr(0, cudaPrefix.size()) == cudaPrefix) {
    std::string_view number = text.substr(cudaPrefix.size());
    unsigned capability = 0;
    bool digits = !number.empty() && number.size() <= 4;
    for (char c : number) {
      digits = digits && c >= '0' && c <= '9';
      capability = capability * 10 + unsigned(c - '0');
    }
    if (digits)
      for (const CudaArch &arch : kCudaArchs)
        if (arch.capability == capability) {
          Target target;
          target.kind = Kind::CUDA;
          target.name = "cuda:" + std::to_string(capability);
          target.capability = capability;
          target.processor = arch.processor;
          target.features = arch.ptxFeature;
          target.warpSize = 32;
          target.maxSharedMemoryBytes = arch.sharedMemory;
          return target;
        }
  } else if (text.substr(0, hipPrefix.size()) == hipPrefix) {
    std::string_view processor = text.substr(hipPrefix.size());
    for (const HipArch &arch : kHipArchs)
      if (processor == arch.processor) {
        Target target;
        target.kind = Kind::HIP;
        target.name = "hip:" + std::string(processor);
        target.processor = arch.processor;
        target.features =
            arch.warpSize == 64 ? "+wavefrontsize64" : "+wavefrontsize32";
        target.warpSize = arch.warpSize;
        target.maxSharedMemoryBytes = arch.sharedMemory;
        target.mfmaVersion = arch.mfmaVersion;
        target.fp8 = arch.fp8;
        return target;
      }
  }
  error = "unknown target '" + std::string(text) + "'; expected one of " +
          acceptedTargets();
  return std::nullopt;
}

} // namespace terrazzo
