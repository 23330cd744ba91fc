#pragma once
/// CUDA streams as Kestrel passes them around. Headers here need no CUDA headers: a stream is an opaque handle.

#include <memory>

struct CUstream_st;
struct CUevent_st;

namespace kestrel::gpu {

/// A non-owning view of a CUDA stream. The null handle means "no stream": valid for host memory only. Device work
/// on the null handle (the legacy default stream) is rejected with InternalError; every device call takes its
/// stream explicitly (STYLE.md).
class Stream {
 public:
  constexpr Stream() = default;
  constexpr explicit Stream(CUstream_st* handle) : handle_(handle) {}

  /// The absence of a stream, for host-only work.
  static constexpr Stream host() { return Stream(); }

  CUstream_st* handle() const { return handle_; }
  bool is_host() const { return handle_ == nullptr; }

  /// Blocks until all work queued on the stream is done; a no-op for the host stream.
  void synchronize() const;

  friend bool operator==(Stream a, Stream b) { return a.handle_ == b.handle_; }

 private:
  CUstream_st* handle_ = nullptr;
};

/// An owned, non-blocking CUDA stream (it never synchronizes with the legacy default stream).
class OwnedStream {
 public:
  /// Creates a stream on the current device; throws CudaError when there is none.
  OwnedStream();
  ~OwnedStream();
  OwnedStream(const OwnedStream&) = delete;
  OwnedStream& operator=(const OwnedStream&) = delete;
  OwnedStream(OwnedStream&& other) noexcept : stream_(other.stream_) { other.stream_ = Stream(); }

  Stream view() const { return stream_; }
  operator Stream() const { return stream_; }  // NOLINT: an owned stream is used wherever a view is

 private:
  Stream stream_;
};

/// A CUDA event used to order work across streams and to time GPU work.
class Event {
 public:
  /// `timing` enables elapsed-time queries (slightly more expensive).
  explicit Event(bool timing = false);
  ~Event();
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  void record(Stream stream);
  /// Makes `stream` wait for this event without blocking the host.
  void wait(Stream stream) const;
  void synchronize() const;
  /// Milliseconds between `start` and this event; both must have completed.
  float elapsed_ms_since(const Event& start) const;

 private:
  CUevent_st* event_ = nullptr;
};

/// Waits for `stream` when destroyed during stack unwinding: host memory that queued copies read (pinned blocks)
/// must not be released or reused before the copies ran, also when an error leaves early. Declare it after such
/// buffers so that it is destroyed before them.
class SyncOnError {
 public:
  explicit SyncOnError(Stream stream) : stream_(stream) {}
  ~SyncOnError();
  SyncOnError(const SyncOnError&) = delete;
  SyncOnError& operator=(const SyncOnError&) = delete;

 private:
  Stream stream_;
};

/// Throws InternalError when `stream` is the null or legacy default stream: every device call checks this.
void require_explicit_stream(Stream stream, const char* what);

}  // namespace kestrel::gpu
