// Device memory for tests and benchmarks (cuMemAlloc, cuMemcpy*, cuMemsetD8
// and HIP's hipMalloc, hipMemcpy*, hipMemsetD8).
#include "Driver.h"

namespace terrazzo::runtime {

using detail::driverFor;

namespace {

Status tooLarge(const char *operation, size_t bytes, size_t capacity) {
  return Status::error(std::string("DeviceBuffer::") + operation + ": " +
                       std::to_string(bytes) + " bytes do not fit in a " +
                       std::to_string(capacity) + "-byte buffer");
}

std::string bytesText(size_t bytes) {
  return "for " + std::to_string(bytes) + " bytes";
}

/// ensureContext(), then `copy`'s failure as an error about `bytes`.
template <typename F>
Status withDriver(Platform platform, size_t bytes, F copy) {
  detail::Driver &driver = driverFor(platform);
  if (Status status = driver.ensureContext(); !status.ok())
    return status;
  if (detail::Call failed = copy(driver))
    return driver.error(failed, bytesText(bytes));
  return Status::success();
}

} // namespace

DeviceBuffer::~DeviceBuffer() { reset(); }

DeviceBuffer::DeviceBuffer(DeviceBuffer &&other) noexcept
    : pointer_(other.pointer_), size_(other.size_), platform_(other.platform_) {
  other.pointer_ = 0;
  other.size_ = 0;
}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&other) noexcept {
  if (this != &other) {
    reset();
    pointer_ = other.pointer_;
    size_ = other.size_;
    platform_ = other.platform_;
    other.pointer_ = 0;
    other.size_ = 0;
  }
  return *this;
}

void DeviceBuffer::reset() {
  if (pointer_) {
    detail::Driver &driver = driverFor(platform_);
    (void)driver.ensureContext();
    driver.free(pointer_);
  }
  pointer_ = 0;
  size_ = 0;
}

Result<DeviceBuffer> DeviceBuffer::allocate(size_t bytes, Platform platform) {
  using R = Result<DeviceBuffer>;
  DeviceBuffer buffer;
  buffer.platform_ = platform;
  std::uint64_t pointer = 0;
  if (Status status = withDriver(platform, bytes,
                                 [&](detail::Driver &driver) {
                                   return bytes ? driver.allocate(bytes,
                                                                  pointer)
                                                : detail::Call{};
                                 });
      !status.ok())
    return R::error(std::move(status));
  buffer.pointer_ = pointer;
  buffer.size_ = pointer ? bytes : 0;
  return R::success(std::move(buffer));
}

Status DeviceBuffer::copyFromHost(const void *source, size_t bytes) {
  if (bytes > size_)
    return tooLarge("copyFromHost", bytes, size_);
  if (bytes == 0)
    return Status::success();
  return withDriver(platform_, bytes, [&](detail::Driver &driver) {
    return driver.copyHostToDevice(pointer_, source, bytes);
  });
}

Status DeviceBuffer::copyToHost(void *destination, size_t bytes) const {
  if (bytes > size_)
    return tooLarge("copyToHost", bytes, size_);
  if (bytes == 0)
    return Status::success();
  return withDriver(platform_, bytes, [&](detail::Driver &driver) {
    return driver.copyDeviceToHost(destination, pointer_, bytes);
  });
}

Status DeviceBuffer::copyFrom(const DeviceBuffer &source) {
  if (source.size_ > size_)
    return tooLarge("copyFrom", source.size_, size_);
  if (source.size_ == 0)
    return Status::success();
  return withDriver(platform_, source.size_, [&](detail::Driver &driver) {
    return driver.copyDeviceToDevice(pointer_, source.pointer_, source.size_);
  });
}

Status DeviceBuffer::fill(uint8_t value) {
  if (size_ == 0)
    return Status::success();
  return withDriver(platform_, size_, [&](detail::Driver &driver) {
    return driver.fill(pointer_, value, size_);
  });
}

} // namespace terrazzo::runtime
