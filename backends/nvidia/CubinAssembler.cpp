#include "backends/nvidia/CubinAssembler.h"

#include "backends/common/ExternalTool.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>
#include <vector>

namespace terrazzo::nvidia {
namespace {

// The part of nvJitLink's C API we use, declared here so that building needs
// no CUDA toolkit (the library is opened at run time).
using Handle = struct nvJitLink *;
using Result = int;
constexpr Result kSuccess = 0;
constexpr int kInputPTX = 2;

struct NvJitLink {
  Result (*create)(Handle *, uint32_t, const char **) = nullptr;
  Result (*addData)(Handle, int, const void *, size_t, const char *) = nullptr;
  Result (*complete)(Handle) = nullptr;
  Result (*cubinSize)(Handle, size_t *) = nullptr;
  Result (*cubin)(Handle, void *) = nullptr;
  Result (*errorLogSize)(Handle, size_t *) = nullptr;
  Result (*errorLog)(Handle, char *) = nullptr;
  Result (*destroy)(Handle *) = nullptr;
  bool loaded = false;
};

std::vector<std::string> cudaRoots() {
  std::vector<std::string> roots;
  for (const char *variable : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *root = std::getenv(variable))
      roots.push_back(root);
  roots.push_back("/usr/local/cuda");
  return roots;
}

const NvJitLink &nvJitLink() {
  static NvJitLink api;
  static std::once_flag once;
  std::call_once(once, [] {
    std::vector<std::string> candidates;
    if (const char *path = std::getenv("TERRAZZO_NVJITLINK"))
      candidates.push_back(path);
    for (const std::string &root : cudaRoots())
      candidates.push_back(root + "/lib64/libnvJitLink.so.13");
    candidates.push_back("libnvJitLink.so.13");
    void *library = nullptr;
    for (const std::string &candidate : candidates)
      if ((library = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL)))
        break;
    if (!library)
      return;
    auto bind = [&](auto &slot, const char *name) {
      slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(
          dlsym(library, name));
      return slot != nullptr;
    };
    api.loaded = bind(api.create, "nvJitLinkCreate") &&
                 bind(api.addData, "nvJitLinkAddData") &&
                 bind(api.complete, "nvJitLinkComplete") &&
                 bind(api.cubinSize, "nvJitLinkGetLinkedCubinSize") &&
                 bind(api.cubin, "nvJitLinkGetLinkedCubin") &&
                 bind(api.errorLogSize, "nvJitLinkGetErrorLogSize") &&
                 bind(api.errorLog, "nvJitLinkGetErrorLog") &&
                 bind(api.destroy, "nvJitLinkDestroy");
  });
  return api;
}

std::string findPtxas() {
  if (const char *path = std::getenv("PTXAS"))
    return llvm::sys::fs::can_execute(path) ? path : "";
  if (auto found = llvm::sys::findProgramByName("ptxas"))
    return *found;
  for (const std::string &root : cudaRoots()) {
    std::string path = root + "/bin/ptxas";
    if (llvm::sys::fs::can_execute(path))
      return path;
  }
  return "";
}

std::string archFlag(const Target &target) { return "-arch=" + target.processor; }

bool assembleWithNvJitLink(const NvJitLink &api, const std::string &ptx,
                           const Target &target, std::string &cubin,
                           std::string &error) {
  std::string arch = archFlag(target);
  const char *options[] = {arch.c_str(), "-O3"};
  Handle handle = nullptr;
  if (api.create(&handle, 2, options) != kSuccess) {
    error = "nvJitLinkCreate failed for " + arch;
    return false;
  }
  bool ok = api.addData(handle, kInputPTX, ptx.data(), ptx.size(),
                        "kernel.ptx") == kSuccess &&
            api.complete(handle) == kSuccess;
  if (ok) {
    size_t size = 0;
    ok = api.cubinSize(handle, &size) == kSuccess;
    cubin.resize(size);
    ok = ok && api.cubin(handle, cubin.data()) == kSuccess;
  }
  if (!ok) {
    size_t size = 0;
    std::string log;
    if (api.errorLogSize(handle, &size) == kSuccess && size > 1) {
      log.resize(size);
      api.errorLog(handle, log.data());
      log.resize(size - 1);
    }
    error = "nvJitLink rejected the PTX: " + log;
  }
  api.destroy(&handle);
  return ok;
}

bool assembleWithPtxas(const std::string &ptxas, const std::string &ptx,
                       const Target &target, std::string &cubin,
                       std::string &error) {
  std::string arch = archFlag(target);
  return mlir::terrazzo::runExternalTool(
      ptxas, "ptxas", ptx, "ptx", "cubin",
      [&](llvm::StringRef input, llvm::StringRef output) {
        return std::vector<std::string>{arch, "-O3", "-o", output.str(),
                                        input.str()};
      },
      cubin, error);
}

} // namespace

std::string findAssembler() {
  if (const char *forced = std::getenv("TERRAZZO_ASSEMBLER"))
    return forced;
  if (!findPtxas().empty())
    return "ptxas";
  if (nvJitLink().loaded)
    return "nvJitLink";
  return "driver";
}

bool assembleCubin(const std::string &ptx, const Target &target,
                   const std::string &requested, AssembledBinary &result,
                   std::string &error) {
  std::string assembler =
      requested.empty() || requested == "auto" ? findAssembler() : requested;
  result.assembler = assembler;
  if (assembler == "nvJitLink") {
    if (!nvJitLink().loaded) {
      error = "nvJitLink was asked for but libnvJitLink.so.13 was not found "
              "(set TERRAZZO_NVJITLINK to its path)";
      return false;
    }
    result.kind = AssembledBinary::Kind::Cubin;
    return assembleWithNvJitLink(nvJitLink(), ptx, target, result.bytes, error);
  }
  if (assembler == "ptxas") {
    std::string ptxas = findPtxas();
    if (ptxas.empty()) {
      error = "ptxas was asked for but was not found (set PTXAS to its path)";
      return false;
    }
    result.kind = AssembledBinary::Kind::Cubin;
    return assembleWithPtxas(ptxas, ptx, target, result.bytes, error);
  }
  if (assembler == "driver") {
    result.kind = AssembledBinary::Kind::PTX;
    result.bytes = ptx;
    return true;
  }
  error = "unknown assembler '" + assembler +
          "'; expected auto, ptxas, nvJitLink or driver";
  return false;
}

} // namespace terrazzo::nvidia
