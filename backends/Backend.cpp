// The registry of backends: the one place that lists the vendors.
#include "backends/Backend.h"

#include "backends/amd/AMDBackend.h"
#include "backends/nvidia/NVIDIABackend.h"

using namespace terrazzo;

Backend::~Backend() = default;

const Backend *terrazzo::getBackend(const Target &target) {
  if (target.isCUDA())
    return &nvidia::getBackend();
  if (target.isHIP())
    return &amd::getBackend();
  return nullptr;
}

std::string terrazzo::noBackendMessage(const Target &target) {
  return "this build has no code generator for target '" + target.name + "'";
}

void terrazzo::registerBackendDialects(mlir::DialectRegistry &registry) {
  nvidia::getBackend().registerDialects(registry);
  amd::getBackend().registerDialects(registry);
}

void terrazzo::registerBackendPasses() {
  nvidia::getBackend().registerPasses();
  amd::getBackend().registerPasses();
}
