// Modules (cuModuleLoadDataEx) and kernels (cuModuleGetFunction,
// cuFuncGetAttribute/cuFuncSetAttribute, cuLaunchKernel).
#include "Driver.h"

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace terrazzo::runtime {

using namespace cuda;
using detail::driver;
using detail::driverError;

namespace {

bool startsWith(const void *image, size_t size, const unsigned char *magic,
                size_t magicSize) {
  return size >= magicSize && std::memcmp(image, magic, magicSize) == 0;
}

/// An ELF image (a cubin) or a fatbin: binary, passed to the driver as is.
bool isBinaryImage(const void *image, size_t size) {
  static const unsigned char elf[] = {0x7f, 'E', 'L', 'F'};
  // The fatbin magic 0xBA55ED50, little-endian.
  static const unsigned char fatbin[] = {0x50, 0xED, 0x55, 0xBA};
  return startsWith(image, size, elf, sizeof(elf)) ||
         startsWith(image, size, fatbin, sizeof(fatbin));
}

} // namespace

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

Module::~Module() { reset(); }

Module::Module(Module &&other) noexcept
    : handle_(other.handle_), context_(other.context_) {
  other.handle_ = nullptr;
  other.context_ = nullptr;
}

Module &Module::operator=(Module &&other) noexcept {
  if (this != &other) {
    reset();
    handle_ = other.handle_;
    context_ = other.context_;
    other.handle_ = nullptr;
    other.context_ = nullptr;
  }
  return *this;
}

void Module::reset() {
  if (!handle_)
    return;
  // A module exists only if the driver was initialized; failures (such as a
  // driver already shut down at process exit) cannot be reported here. The
  // module is unloaded in its own context, which is made current for the
  // call if another one is.
  (void)detail::ensureContext();
  CUcontext current = nullptr;
  (void)driver().cuCtxGetCurrent(&current);
  bool switched = context_ && current != context_;
  if (switched)
    (void)detail::setContext(context_);
  (void)driver().cuModuleUnload(static_cast<CUmodule>(handle_));
  if (switched)
    (void)detail::setContext(current);
  handle_ = nullptr;
  context_ = nullptr;
}

Result<Module> Module::load(const void *image, size_t size) {
  using R = Result<Module>;
  if (Status status = detail::ensureContext(); !status.ok())
    return R::error(std::move(status));
  if (!image || size == 0)
    return R::error(Status::error("Module::load: the image is empty"));

  // PTX is text the driver reads up to a NUL; a binary image has its size in
  // its headers.
  bool binary = isBinaryImage(image, size);
  std::string ptxCopy;
  const void *data = image;
  if (!binary && static_cast<const char *>(image)[size - 1] != '\0') {
    ptxCopy.assign(static_cast<const char *>(image), size);
    data = ptxCopy.c_str();
  }

  // The JIT's error log says what is wrong with PTX that fails to compile.
  std::string errorLog(16 * 1024, '\0');
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *optionValues[] = {
      errorLog.data(),
      reinterpret_cast<void *>(static_cast<uintptr_t>(errorLog.size()))};

  CUmodule module = nullptr;
  CUresult r = driver().cuModuleLoadDataEx(&module, data, 2, options,
                                           optionValues);
  if (r != CUDA_SUCCESS) {
    std::string what = "for a " + std::to_string(size) + "-byte " +
                       (binary ? "binary image" : "image read as PTX");
    Status status = driverError("cuModuleLoadDataEx", r, what);
    errorLog.resize(std::strlen(errorLog.c_str()));
    while (!errorLog.empty() &&
           (errorLog.back() == '\n' || errorLog.back() == ' '))
      errorLog.pop_back();
    if (!errorLog.empty())
      status.message += "\n" + errorLog;
    return R::error(std::move(status));
  }
  Module result;
  result.handle_ = module;
  CUcontext context = nullptr;
  (void)driver().cuCtxGetCurrent(&context);
  result.context_ = context;
  return R::success(std::move(result));
}

Result<Function> Module::getFunction(const std::string &name) const {
  using R = Result<Function>;
  if (!handle_)
    return R::error(Status::error("Module::getFunction('" + name +
                                  "'): the module is not loaded"));
  if (Status status = detail::ensureContext(); !status.ok())
    return R::error(std::move(status));
  CUfunction function = nullptr;
  if (CUresult r = driver().cuModuleGetFunction(
          &function, static_cast<CUmodule>(handle_), name.c_str());
      r != CUDA_SUCCESS)
    return R::error(
        driverError("cuModuleGetFunction", r, "for kernel '" + name + "'"));
  return R::success(Function(function, name));
}

//===----------------------------------------------------------------------===//
// Function
//===----------------------------------------------------------------------===//

namespace {

Status checkFunction(const Function &function, const char *operation) {
  if (!function.valid())
    return Status::error(std::string("Function::") + operation +
                         ": the function handle is empty");
  return detail::ensureContext();
}

Status getAttribute(const Function &function, CUfunction_attribute attribute,
                    const char *attributeName, int &value) {
  if (CUresult r = driver().cuFuncGetAttribute(
          &value, attribute, static_cast<CUfunction>(function.handle()));
      r != CUDA_SUCCESS)
    return driverError("cuFuncGetAttribute", r,
                       std::string("(") + attributeName + ") for kernel '" +
                           function.name() + "'");
  return Status::success();
}

} // namespace

Status Function::setMaxDynamicSharedMemory(int bytes) const {
  if (Status status = checkFunction(*this, "setMaxDynamicSharedMemory");
      !status.ok())
    return status;
  if (CUresult r = driver().cuFuncSetAttribute(
          static_cast<CUfunction>(handle_),
          CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes);
      r != CUDA_SUCCESS)
    return driverError("cuFuncSetAttribute", r,
                       "(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = " +
                           std::to_string(bytes) + ") for kernel '" + name_ +
                           "'");
  return Status::success();
}

Result<int> Function::numRegisters() const {
  if (Status status = checkFunction(*this, "numRegisters"); !status.ok())
    return Result<int>::error(std::move(status));
  int value = 0;
  if (Status status = getAttribute(*this, CU_FUNC_ATTRIBUTE_NUM_REGS,
                                   "CU_FUNC_ATTRIBUTE_NUM_REGS", value);
      !status.ok())
    return Result<int>::error(std::move(status));
  return Result<int>::success(value);
}

Result<Function::Attributes> Function::attributes() const {
  using R = Result<Attributes>;
  if (Status status = checkFunction(*this, "attributes"); !status.ok())
    return R::error(std::move(status));
  Attributes attrs;
  struct {
    CUfunction_attribute attribute;
    const char *attributeName;
    int *field;
  } queries[] = {
      {CU_FUNC_ATTRIBUTE_NUM_REGS, "CU_FUNC_ATTRIBUTE_NUM_REGS",
       &attrs.numRegisters},
      {CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
       "CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK", &attrs.maxThreadsPerBlock},
      {CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
       "CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES", &attrs.staticSharedBytes},
      {CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, "CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES",
       &attrs.localBytes},
      {CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
       "CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES",
       &attrs.maxDynamicSharedBytes},
  };
  for (auto &query : queries)
    if (Status status = getAttribute(*this, query.attribute,
                                     query.attributeName, *query.field);
        !status.ok())
      return R::error(std::move(status));
  return R::success(attrs);
}

Status Function::launch(unsigned gridX, unsigned gridY, unsigned gridZ,
                        unsigned blockX, unsigned blockY, unsigned blockZ,
                        unsigned sharedBytes, void *stream,
                        void **kernelParams) const {
  if (Status status = checkFunction(*this, "launch"); !status.ok())
    return status;
  CUresult r = driver().cuLaunchKernel(
      static_cast<CUfunction>(handle_), gridX, gridY, gridZ, blockX, blockY,
      blockZ, sharedBytes, static_cast<CUstream>(stream), kernelParams,
      nullptr);
  if (r == CUDA_SUCCESS)
    return Status::success();
  char streamText[32];
  std::snprintf(streamText, sizeof(streamText), "%p", stream);
  std::string what = "for kernel '" + name_ + "' (grid " +
                     std::to_string(gridX) + "x" + std::to_string(gridY) +
                     "x" + std::to_string(gridZ) + ", block " +
                     std::to_string(blockX) + "x" + std::to_string(blockY) +
                     "x" + std::to_string(blockZ) + ", " +
                     std::to_string(sharedBytes) +
                     " bytes of dynamic shared memory, stream " +
                     (stream ? std::string(streamText) : "default") + ")";
  return driverError("cuLaunchKernel", r, what);
}

} // namespace terrazzo::runtime
