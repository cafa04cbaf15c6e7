// Streams and event timing for tests and benchmarks (cuStream*, cuEvent*).
#include "Driver.h"

namespace terrazzo::runtime {

using namespace cuda;
using detail::driver;
using detail::driverError;

//===----------------------------------------------------------------------===//
// Stream
//===----------------------------------------------------------------------===//

Stream::~Stream() { reset(); }

Stream::Stream(Stream &&other) noexcept : handle_(other.handle_) {
  other.handle_ = nullptr;
}

Stream &Stream::operator=(Stream &&other) noexcept {
  if (this != &other) {
    reset();
    handle_ = other.handle_;
    other.handle_ = nullptr;
  }
  return *this;
}

void Stream::reset() {
  if (handle_) {
    (void)detail::ensureContext();
    (void)driver().cuStreamDestroy(static_cast<CUstream>(handle_));
  }
  handle_ = nullptr;
}

Result<Stream> Stream::create(bool nonBlocking) {
  using R = Result<Stream>;
  if (Status status = detail::ensureContext(); !status.ok())
    return R::error(std::move(status));
  CUstream stream = nullptr;
  if (CUresult r = driver().cuStreamCreate(
          &stream, nonBlocking ? CU_STREAM_NON_BLOCKING : CU_STREAM_DEFAULT);
      r != CUDA_SUCCESS)
    return R::error(driverError("cuStreamCreate", r));
  Stream result;
  result.handle_ = stream;
  return R::success(std::move(result));
}

Status Stream::synchronize() const {
  if (Status status = detail::ensureContext(); !status.ok())
    return status;
  if (CUresult r = driver().cuStreamSynchronize(static_cast<CUstream>(handle_));
      r != CUDA_SUCCESS)
    return driverError("cuStreamSynchronize", r);
  return Status::success();
}

//===----------------------------------------------------------------------===//
// EventTimer
//===----------------------------------------------------------------------===//

EventTimer::~EventTimer() { reset(); }

EventTimer::EventTimer(EventTimer &&other) noexcept
    : start_(other.start_), stop_(other.stop_) {
  other.start_ = nullptr;
  other.stop_ = nullptr;
}

EventTimer &EventTimer::operator=(EventTimer &&other) noexcept {
  if (this != &other) {
    reset();
    start_ = other.start_;
    stop_ = other.stop_;
    other.start_ = nullptr;
    other.stop_ = nullptr;
  }
  return *this;
}

void EventTimer::reset() {
  if (start_ || stop_)
    (void)detail::ensureContext();
  if (start_)
    (void)driver().cuEventDestroy(static_cast<CUevent>(start_));
  if (stop_)
    (void)driver().cuEventDestroy(static_cast<CUevent>(stop_));
  start_ = nullptr;
  stop_ = nullptr;
}

Result<EventTimer> EventTimer::create() {
  using R = Result<EventTimer>;
  if (Status status = detail::ensureContext(); !status.ok())
    return R::error(std::move(status));
  EventTimer timer;
  CUevent start = nullptr, stop = nullptr;
  if (CUresult r = driver().cuEventCreate(&start, CU_EVENT_DEFAULT);
      r != CUDA_SUCCESS)
    return R::error(driverError("cuEventCreate", r));
  timer.start_ = start;
  if (CUresult r = driver().cuEventCreate(&stop, CU_EVENT_DEFAULT);
      r != CUDA_SUCCESS)
    return R::error(driverError("cuEventCreate", r)); // `timer` frees start.
  timer.stop_ = stop;
  return R::success(std::move(timer));
}

namespace {

Status record(void *event, void *stream, const char *which) {
  if (!event)
    return Status::error(std::string("EventTimer::") + which +
                         ": the timer was not created");
  if (Status status = detail::ensureContext(); !status.ok())
    return status;
  if (CUresult r = driver().cuEventRecord(static_cast<CUevent>(event),
                                          static_cast<CUstream>(stream));
      r != CUDA_SUCCESS)
    return driverError("cuEventRecord", r,
                       std::string("for the ") + which + " event");
  return Status::success();
}

} // namespace

Status EventTimer::start(void *stream) { return record(start_, stream, "start"); }

Status EventTimer::stop(void *stream) { return record(stop_, stream, "stop"); }

Result<float> EventTimer::elapsedMilliseconds() const {
  using R = Result<float>;
  if (!start_ || !stop_)
    return R::error(Status::error(
        "EventTimer::elapsedMilliseconds: the timer was not created"));
  if (Status status = detail::ensureContext(); !status.ok())
    return R::error(std::move(status));
  if (CUresult r = driver().cuEventSynchronize(static_cast<CUevent>(stop_));
      r != CUDA_SUCCESS)
    return R::error(driverError("cuEventSynchronize", r, "for the stop event"));
  float milliseconds = 0.0f;
  if (CUresult r = driver().cuEventElapsedTime(&milliseconds,
                                               static_cast<CUevent>(start_),
                                               static_cast<CUevent>(stop_));
      r != CUDA_SUCCESS)
    return R::error(driverError("cuEventElapsedTime", r));
  return R::success(milliseconds);
}

} // namespace terrazzo::runtime
