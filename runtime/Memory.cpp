// Device memory for tests and benchmarks (cuMemAlloc, cuMemcpy*, cuMemsetD8).
#include "Driver.h"

namespace terrazzo::runtime {

using namespace cuda;
using detail::driver;
using detail::driverError;

namespace {

Status tooLarge(const char *operation, size_t bytes, size_t capacity) {
  return Status::error(std::string("DeviceBuffer::") + operation + ": " +
                       std::to_string(bytes) + " bytes do not fit in a " +
                       std::to_string(capacity) + "-byte buffer");
}

std::string bytesText(size_t bytes) {
  return "for " + std::to_string(bytes) + " bytes";
}

} // namespace

DeviceBuffer::~DeviceBuffer() { reset(); }

DeviceBuffer::DeviceBuffer(DeviceBuffer &&other) noexcept
    : pointer_(other.pointer_), size_(other.size_) {
  other.pointer_ = 0;
  other.size_ = 0;
}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&other) noexcept {
  if (this != &other) {
    reset();
    pointer_ = other.pointer_;
    size_ = other.size_;
    other.pointer_ = 0;
    other.size_ = 0;
  }
  return *this;
}

void DeviceBuffer::reset() {
  if (pointer_) {
    (void)detail::ensureContext();
    (void)driver().cuMemFree(pointer_);
  }
  pointer_ = 0;
  size_ = 0;
}

Result<DeviceBuffer> DeviceBuffer::allocate(size_t bytes) {
  using R = Result<DeviceBuffer>;
  if (Status status = detail::ensureContext(); !status.ok())
    return R::error(std::move(status));
  DeviceBuffer buffer;
  if (bytes == 0)
    return R::success(std::move(buffer));
  CUdeviceptr pointer = 0;
  if (CUresult r = driver().cuMemAlloc(&pointer, bytes); r != CUDA_SUCCESS)
    return R::error(driverError("cuMemAlloc", r, bytesText(bytes)));
  buffer.pointer_ = pointer;
  buffer.size_ = bytes;
  return R::success(std::move(buffer));
}

Status DeviceBuffer::copyFromHost(const void *source, size_t bytes) {
  if (bytes > size_)
    return tooLarge("copyFromHost", bytes, size_);
  if (bytes == 0)
    return Status::success();
  if (Status status = detail::ensureContext(); !status.ok())
    return status;
  if (CUresult r = driver().cuMemcpyHtoD(pointer_, source, bytes);
      r != CUDA_SUCCESS)
    return driverError("cuMemcpyHtoD", r, bytesText(bytes));
  return Status::success();
}

Status DeviceBuffer::copyToHost(void *destination, size_t bytes) const {
  if (bytes > size_)
    return tooLarge("copyToHost", bytes, size_);
  if (bytes == 0)
    return Status::success();
  if (Status status = detail::ensureContext(); !status.ok())
    return status;
  if (CUresult r = driver().cuMemcpyDtoH(destination, pointer_, bytes);
      r != CUDA_SUCCESS)
    return driverError("cuMemcpyDtoH", r, bytesText(bytes));
  return Status::success();
}

Status DeviceBuffer::copyFrom(const DeviceBuffer &source) {
  if (source.size_ > size_)
    return tooLarge("copyFrom", source.size_, size_);
  if (source.size_ == 0)
    return Status::success();
  if (Status status = detail::ensureContext(); !status.ok())
    return status;
  if (CUresult r = driver().cuMemcpyDtoD(pointer_, source.pointer_,
                                         source.size_);
      r != CUDA_SUCCESS)
    return driverError("cuMemcpyDtoD", r, bytesText(source.size_));
  return Status::success();
}

Status DeviceBuffer::fill(uint8_t value) {
  if (size_ == 0)
    return Status::success();
  if (Status status = detail::ensureContext(); !status.ok())
    return status;
  if (CUresult r = driver().cuMemsetD8(pointer_, value, size_);
      r != CUDA_SUCCESS)
    return driverError("cuMemsetD8", r, bytesText(size_));
  return Status::success();
}

} // namespace terrazzo::runtime
