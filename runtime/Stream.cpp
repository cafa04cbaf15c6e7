// Streams and event timing for tests and benchmarks (cuStream*, cuEvent* and
// HIP's hipStream*, hipEvent*).
#include "Driver.h"

namespace terrazzo::runtime {

using detail::driverFor;

//===----------------------------------------------------------------------===//
// Stream
//===----------------------------------------------------------------------===//

Stream::~Stream() { reset(); }

Stream::Stream(Stream &&other) noexcept
    : handle_(other.handle_), platform_(other.platform_) {
  other.handle_ = nullptr;
}

Stream &Stream::operator=(Stream &&other) noexcept {
  if (this != &other) {
    reset();
    handle_ = other.handle_;
    platform_ = other.platform_;
    other.handle_ = nullptr;
  }
  return *this;
}

void Stream::reset() {
  if (handle_) {
    detail::Driver &driver = driverFor(platform_);
    (void)driver.ensureContext();
    driver.destroyStream(handle_);
  }
  handle_ = nullptr;
}

Result<Stream> Stream::create(bool nonBlocking, Platform platform) {
  using R = Result<Stream>;
  detail::Driver &driver = driverFor(platform);
  if (Status status = driver.ensureContext(); !status.ok())
    return R::error(std::move(status));
  Stream result;
  result.platform_ = platform;
  if (detail::Call failed = driver.createStream(nonBlocking, result.handle_))
    return R::error(driver.error(failed));
  return R::success(std::move(result));
}

Status Stream::synchronize() const {
  detail::Driver &driver = driverFor(platform_);
  if (Status status = driver.ensureContext(); !status.ok())
    return status;
  if (detail::Call failed = driver.synchronizeStream(handle_))
    return driver.error(failed);
  return Status::success();
}

//===----------------------------------------------------------------------===//
// EventTimer
//===----------------------------------------------------------------------===//

EventTimer::~EventTimer() { reset(); }

EventTimer::EventTimer(EventTimer &&other) noexcept
    : start_(other.start_), stop_(other.stop_), platform_(other.platform_) {
  other.start_ = nullptr;
  other.stop_ = nullptr;
}

EventTimer &EventTimer::operator=(EventTimer &&other) noexcept {
  if (this != &other) {
    reset();
    start_ = other.start_;
    stop_ = other.stop_;
    platform_ = other.platform_;
    other.start_ = nullptr;
    other.stop_ = nullptr;
  }
  return *this;
}

void EventTimer::reset() {
  detail::Driver &driver = driverFor(platform_);
  if (start_ || stop_)
    (void)driver.ensureContext();
  if (start_)
    driver.destroyEvent(start_);
  if (stop_)
    driver.destroyEvent(stop_);
  start_ = nullptr;
  stop_ = nullptr;
}

Result<EventTimer> EventTimer::create(Platform platform) {
  using R = Result<EventTimer>;
  detail::Driver &driver = driverFor(platform);
  if (Status status = driver.ensureContext(); !status.ok())
    return R::error(std::move(status));
  EventTimer timer;
  timer.platform_ = platform;
  if (detail::Call failed = driver.createEvent(timer.start_))
    return R::error(driver.error(failed));
  if (detail::Call failed = driver.createEvent(timer.stop_))
    return R::error(driver.error(failed)); // `timer` frees start.
  return R::success(std::move(timer));
}

namespace {

Status record(Platform platform, void *event, void *stream,
              const char *which) {
  if (!event)
    return Status::error(std::string("EventTimer::") + which +
                         ": the timer was not created");
  detail::Driver &driver = driverFor(platform);
  if (Status status = driver.ensureContext(); !status.ok())
    return status;
  if (detail::Call failed = driver.recordEvent(event, stream))
    return driver.error(failed, std::string("for the ") + which + " event");
  return Status::success();
}

} // namespace

Status EventTimer::start(void *stream) {
  return record(platform_, start_, stream, "start");
}

Status EventTimer::stop(void *stream) {
  return record(platform_, stop_, stream, "stop");
}

Result<float> EventTimer::elapsedMilliseconds() const {
  using R = Result<float>;
  if (!start_ || !stop_)
    return R::error(Status::error(
        "EventTimer::elapsedMilliseconds: the timer was not created"));
  detail::Driver &driver = driverFor(platform_);
  if (Status status = driver.ensureContext(); !status.ok())
    return R::error(std::move(status));
  if (detail::Call failed = driver.synchronizeEvent(stop_))
    return R::error(driver.error(failed, "for the stop event"));
  float milliseconds = 0.0f;
  if (detail::Call failed =
          driver.elapsedMilliseconds(start_, stop_, milliseconds))
    return R::error(driver.error(failed));
  return R::success(milliseconds);
}

} // namespace terrazzo::runtime
