#include "gpu/stream.hpp"

#include <exception>

#include "gpu/cuda_check.hpp"

namespace kestrel::gpu {

void require_explicit_stream(Stream stream, const char* what) {
#if KESTREL_WITH_CUDA
  if (stream.handle() == nullptr || stream.handle() == cudaStreamLegacy || stream.handle() == cudaStreamPerThread) {
    throw InternalError(std::string(what) + " was given the default CUDA stream; device work needs an explicit stream");
  }
#else
  (void)stream;
  throw NotImplemented(std::string(what) + ": this build of Kestrel has no GPU support");
#endif
}

#if KESTREL_WITH_CUDA

void Stream::synchronize() const {
  if (handle_ == nullptr) return;
  KESTREL_CUDA_CHECK(cudaStreamSynchronize(handle_));
}

OwnedStream::OwnedStream() {
  cudaStream_t s;
  KESTREL_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  stream_ = Stream(s);
}

OwnedStream::~OwnedStream() {
  if (stream_.handle() != nullptr) cudaStreamDestroy(stream_.handle());
}

Event::Event(bool timing) {
  KESTREL_CUDA_CHECK(cudaEventCreateWithFlags(&event_, timing ? cudaEventDefault : cudaEventDisableTiming));
}

Event::~Event() {
  if (event_ != nullptr) cudaEventDestroy(event_);
}

void Event::record(Stream stream) {
  require_explicit_stream(stream, "Event::record");
  KESTREL_CUDA_CHECK(cudaEventRecord(event_, stream.handle()));
}

void Event::wait(Stream stream) const {
  require_explicit_stream(stream, "Event::wait");
  KESTREL_CUDA_CHECK(cudaStreamWaitEvent(stream.handle(), event_, 0));
}

void Event::synchronize() const { KESTREL_CUDA_CHECK(cudaEventSynchronize(event_)); }

float Event::elapsed_ms_since(const Event& start) const {
  float ms = 0;
  KESTREL_CUDA_CHECK(cudaEventElapsedTime(&ms, start.event_, event_));
  return ms;
}

#else

void Stream::synchronize() const {}
OwnedStream::OwnedStream() { throw NotImplemented("this build of Kestrel has no GPU support"); }
OwnedStream::~OwnedStream() = default;
Event::Event(bool) { throw NotImplemented("this build of Kestrel has no GPU support"); }
Event::~Event() = default;
void Event::record(Stream) {}
void Event::wait(Stream) const {}
void Event::synchronize() const {}
float Event::elapsed_ms_since(const Event&) const { return 0; }

#endif

SyncOnError::~SyncOnError() {
  if (std::uncaught_exceptions() == 0) return;
  try {
    stream_.synchronize();
  } catch (...) {  // the error being thrown is the one to report
  }
}

}  // namespace kestrel::gpu
