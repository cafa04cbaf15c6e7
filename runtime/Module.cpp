// Modules and kernels: Module and Function over the platform's driver.
#include "Driver.h"

#include <cstdio>

namespace terrazzo::runtime {

using detail::driverFor;

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

Module::~Module() { reset(); }

Module::Module(Module &&other) noexcept
    : handle_(other.handle_), context_(other.context_),
      platform_(other.platform_) {
  other.handle_ = nullptr;
  other.context_ = nullptr;
}

Module &Module::operator=(Module &&other) noexcept {
  if (this != &other) {
    reset();
    handle_ = other.handle_;
    context_ = other.context_;
    platform_ = other.platform_;
    other.handle_ = nullptr;
    other.context_ = nullptr;
  }
  return *this;
}

void Module::reset() {
  if (!handle_)
    return;
  driverFor(platform_).unloadModule({handle_, context_});
  handle_ = nullptr;
  context_ = nullptr;
}

Result<Module> Module::load(const void *image, size_t size,
                            Platform platform) {
  using R = Result<Module>;
  detail::Driver &driver = driverFor(platform);
  if (Status status = driver.ensureContext(); !status.ok())
    return R::error(std::move(status));
  if (!image || size == 0)
    return R::error(Status::error("Module::load: the image is empty"));
  Result<detail::Driver::LoadedModule> loaded = driver.loadModule(image, size);
  if (!loaded.ok())
    return R::error(std::move(loaded.status));
  Module result;
  result.handle_ = loaded.value.handle;
  result.context_ = loaded.value.context;
  result.platform_ = platform;
  return R::success(std::move(result));
}

Result<Function> Module::getFunction(const std::string &name) const {
  using R = Result<Function>;
  if (!handle_)
    return R::error(Status::error("Module::getFunction('" + name +
                                  "'): the module is not loaded"));
  detail::Driver &driver = driverFor(platform_);
  if (Status status = driver.ensureContext(); !status.ok())
    return R::error(std::move(status));
  void *function = nullptr;
  if (detail::Call failed = driver.getFunction(handle_, name.c_str(), function))
    return R::error(driver.error(failed, "for kernel '" + name + "'"));
  return R::success(Function(function, name, platform_));
}

//===----------------------------------------------------------------------===//
// Function
//===----------------------------------------------------------------------===//

namespace {

Status checkFunction(const Function &function, const char *operation) {
  if (!function.valid())
    return Status::error(std::string("Function::") + operation +
                         ": the function handle is empty");
  return driverFor(function.platform()).ensureContext();
}

} // namespace

Status Function::setMaxDynamicSharedMemory(int bytes) const {
  if (Status status = checkFunction(*this, "setMaxDynamicSharedMemory");
      !status.ok())
    return status;
  return driverFor(platform_).setMaxDynamicSharedMemory(handle_, bytes, name_);
}

Status Function::reserveDynamicSharedMemory(int bytes) const {
  if (bytes <= driverFor(platform_).defaultDynamicSharedMemoryLimit())
    return Status::success();
  return setMaxDynamicSharedMemory(bytes);
}

Result<int> Function::numRegisters() const {
  if (Status status = checkFunction(*this, "numRegisters"); !status.ok())
    return Result<int>::error(std::move(status));
  int value = 0;
  if (Status status = driverFor(platform_).getAttribute(
          handle_, detail::FunctionAttribute::NumRegisters, name_, value);
      !status.ok())
    return Result<int>::error(std::move(status));
  return Result<int>::success(value);
}

Result<Function::Attributes> Function::attributes() const {
  using R = Result<Attributes>;
  using detail::FunctionAttribute;
  if (Status status = checkFunction(*this, "attributes"); !status.ok())
    return R::error(std::move(status));
  Attributes attrs;
  struct {
    FunctionAttribute attribute;
    int *field;
  } queries[] = {
      {FunctionAttribute::NumRegisters, &attrs.numRegisters},
      {FunctionAttribute::MaxThreadsPerBlock, &attrs.maxThreadsPerBlock},
      {FunctionAttribute::StaticSharedBytes, &attrs.staticSharedBytes},
      {FunctionAttribute::LocalBytes, &attrs.localBytes},
      {FunctionAttribute::MaxDynamicSharedBytes, &attrs.maxDynamicSharedBytes},
  };
  for (auto &query : queries)
    if (Status status = driverFor(platform_).getAttribute(
            handle_, query.attribute, name_, *query.field);
        !status.ok())
      return R::error(std::move(status));
  return R::success(attrs);
}

Status Function::launch(unsigned gridX, unsigned gridY, unsigned gridZ,
                        unsigned blockX, unsigned blockY, unsigned blockZ,
                        unsigned sharedBytes, void *stream, void **kernelParams,
                        LaunchAttributes attributes) const {
  if (Status status = checkFunction(*this, "launch"); !status.ok())
    return status;
  detail::Driver &driver = driverFor(platform_);
  detail::Call failed =
      driver.launch(handle_, gridX, gridY, gridZ, blockX, blockY, blockZ,
                    sharedBytes, stream, kernelParams, attributes);
  if (!failed)
    return Status::success();
  char streamText[32];
  std::snprintf(streamText, sizeof(streamText), "%p", stream);
  std::string what =
      "for kernel '" + name_ + "' (grid " + std::to_string(gridX) + "x" +
      std::to_string(gridY) + "x" + std::to_string(gridZ) + ", block " +
      std::to_string(blockX) + "x" + std::to_string(blockY) + "x" +
      std::to_string(blockZ) + ", " + std::to_string(sharedBytes) +
      " bytes of dynamic shared memory, stream " +
      (stream ? std::string(streamText) : "default") +
      (attributes.cooperative ? ", cooperative" : "") +
      (attributes.programmaticDependentLaunch
           ? ", programmatic dependent launch"
           : "") +
      (attributes.clustered()
           ? ", clusters " + std::to_string(attributes.clusterX) + "x" +
                 std::to_string(attributes.clusterY) + "x" +
                 std::to_string(attributes.clusterZ)
           : "") +
      ")";
  return driver.error(failed, what);
}

} // namespace terrazzo::runtime
