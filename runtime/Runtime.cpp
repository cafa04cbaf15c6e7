// Platforms, loading a driver library, error messages, and the device
// functions of include/terrazzo/Runtime.h, each passed on to its platform's
// driver.
#include "Driver.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

namespace terrazzo::runtime {
namespace detail {

Driver &driverFor(Platform platform) {
  return platform == Platform::Hip ? hipDriver() : cudaDriver();
}

Status Driver::error(const Call &failed, const std::string &what) const {
  std::string message = failed.call;
  message += " failed";
  if (!what.empty()) {
    message += ' ';
    message += what;
  }
  message += ": ";
  message += describe(failed.code);
  return Status::error(std::move(message));
}

Status openLibrary(const char *variable,
                   std::initializer_list<const char *> names, const char *hint,
                   void *&library, std::string &path) {
  const char *fromEnvironment = std::getenv(variable);
  bool overridden = fromEnvironment && *fromEnvironment;
  std::string tried;
  const char *firstReason = nullptr;
  std::string reasonText;
  auto attempt = [&](const char *name) {
    dlerror(); // Clear any earlier error.
    library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (library) {
      path = name;
      return true;
    }
    const char *reason = dlerror();
    if (!firstReason) {
      reasonText = reason ? reason : "unknown error";
      firstReason = reasonText.c_str();
    }
    tried += std::string(tried.empty() ? "" : ", ") + "\"" + name + "\"";
    return false;
  };
  if (overridden) {
    if (attempt(fromEnvironment))
      return Status::success();
  } else {
    for (const char *name : names)
      if (attempt(name))
        return Status::success();
  }
  path = overridden ? fromEnvironment : *names.begin();
  return Status::error("dlopen(" + tried + ") failed: " + reasonText + " (" +
                       (overridden ? std::string("path from ") + variable
                                   : std::string(hint)) +
                       ")");
}

bool resolveSymbol(void *library, void *&slot,
                   std::initializer_list<const char *> names,
                   std::string &missing) {
  for (const char *name : names) {
    if (void *symbol = dlsym(library, name)) {
      slot = symbol;
      return true;
    }
  }
  slot = nullptr;
  if (!missing.empty())
    missing += ", ";
  bool first = true;
  for (const char *name : names) {
    if (!first)
      missing += " or ";
    missing += name;
    first = false;
  }
  return false;
}

Status missingSymbols(const char *vendor, const std::string &path,
                      const std::string &missing) {
  return Status::error(std::string("dlsym failed: the ") + vendor +
                       " driver library '" + path + "' has no symbol " +
                       missing);
}

std::string hexAddress(std::uint64_t address) {
  char text[32];
  std::snprintf(text, sizeof(text), "0x%llx",
                static_cast<unsigned long long>(address));
  return text;
}

} // namespace detail

using detail::driverFor;

//===----------------------------------------------------------------------===//
// Platforms
//===----------------------------------------------------------------------===//

const char *platformName(Platform platform) {
  return platform == Platform::Hip ? "hip" : "cuda";
}

Result<Platform> platformOfTarget(const std::string &target) {
  for (Platform platform : {Platform::Cuda, Platform::Hip}) {
    std::string prefix = std::string(platformName(platform)) + ":";
    if (target.size() > prefix.size() && target.rfind(prefix, 0) == 0)
      return Result<Platform>::success(platform);
  }
  return Result<Platform>::error(Status::error(
      "target '" + target +
      "' names no GPU platform: expected cuda:<capability> (e.g. cuda:90) or "
      "hip:<processor> (e.g. hip:gfx942)"));
}

Platform defaultPlatform() {
  static const Platform platform = [] {
    if (isAvailable(Platform::Cuda))
      return Platform::Cuda;
    return isAvailable(Platform::Hip) ? Platform::Hip : Platform::Cuda;
  }();
  return platform;
}

//===----------------------------------------------------------------------===//
// Driver loading and devices
//===----------------------------------------------------------------------===//

Status initialize(Platform platform) {
  return driverFor(platform).initialize();
}

bool isAvailable(Platform platform) {
  Result<int> count = deviceCount(platform);
  return count.ok() && count.value > 0;
}

Result<int> driverVersion(Platform platform) {
  return driverFor(platform).driverVersion();
}

Result<int> deviceCount(Platform platform) {
  return driverFor(platform).deviceCount();
}

Result<int> currentDevice(Platform platform) {
  return driverFor(platform).currentDevice();
}

Status setCurrentDevice(int ordinal, Platform platform) {
  return driverFor(platform).setCurrentDevice(ordinal);
}

Result<int> pointerDevice(std::uint64_t address, Platform platform) {
  return driverFor(platform).pointerDevice(address);
}

Result<bool> deviceCanAccess(std::uint64_t address, Platform platform) {
  return driverFor(platform).deviceCanAccess(address);
}

Result<DeviceProperties> getDeviceProperties(int ordinal, Platform platform) {
  return driverFor(platform).deviceProperties(ordinal);
}

Status synchronize(Platform platform) {
  return driverFor(platform).synchronize();
}

Status encodeTensorMap(const TensorMapDescription &map, void *out,
                       Platform platform) {
  if (map.rank < 1 || map.rank > 5)
    return Status::error("a tensor map has 1 to 5 dimensions, not " +
                         std::to_string(map.rank));
  if (reinterpret_cast<std::uintptr_t>(out) % kTensorMapAlignment)
    return Status::error("a tensor map must be encoded at an address aligned "
                         "to " +
                         std::to_string(kTensorMapAlignment) + " bytes");
  detail::Driver &driver = driverFor(platform);
  if (Status status = driver.initialize(); !status.ok())
    return status;
  return driver.encodeTensorMap(map, out);
}

//===----------------------------------------------------------------------===//
// DeviceScope
//===----------------------------------------------------------------------===//

Status DeviceScope::enter(int ordinal, Platform platform) {
  platform_ = platform;
  detail::Driver::Scope scope;
  if (Status status = driverFor(platform).enterDevice(ordinal, scope);
      !status.ok())
    return status;
  context_ = scope.context;
  previous_ = scope.previous;
  switched_ = scope.switched;
  return Status::success();
}

DeviceScope::~DeviceScope() {
  if (switched_)
    driverFor(platform_).leaveDevice(previous_);
}

} // namespace terrazzo::runtime
