#pragma once
/// The statements of every session of a server, queued (waiting for a turn) or running: what SHOW QUERIES lists,
/// what KILL QUERY and the time limit cancel, and the turns that bound how many run at once.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace kestrel::server {

/// At most `max_running` statements run at once; one that ran out of memory beside others may ask to run alone (no
/// other starts until it ends). A watchdog thread cancels statements past the time limit and repeats the
/// cancellation of a killed or timed-out statement until it ends (a cancellation that reaches a statement just before
/// it starts would otherwise be lost). Thread-safe.
class QueryBoard {
 public:
  using Clock = std::chrono::steady_clock;
  struct Entry {
    uint64_t id = 0;
    std::string user;
    std::string text;
    Clock::time_point submitted;
    bool running = false;
    bool shared = false;  ///< another statement ran while this one did
    std::function<void()> cancel;
    std::string stop_reason;  ///< set when the statement is killed or past its time limit
  };

  /// `timeout_s` 0: no time limit. `max_running` at least 1.
  QueryBoard(double timeout_s, size_t max_running);
  ~QueryBoard();
  QueryBoard(const QueryBoard&) = delete;
  QueryBoard& operator=(const QueryBoard&) = delete;

  /// Lists a new statement (queued); `cancel` stops it while it runs (called with the board's lock held, so it must
  /// be quick and must not call the board). Returns its id.
  uint64_t add(const std::string& user, std::string_view text, std::function<void()> cancel);
  /// Waits for statement `id`'s turn and marks it running; returns why it must stop instead (empty: go on).
  std::string start(uint64_t id);
  /// Whether another statement ran while running statement `id` did.
  bool ran_beside_others(uint64_t id) const;
  /// Running statement `id` steps back and waits until it can run alone: no other statement runs, and none starts
  /// until it finishes. Returns why it must stop instead (empty: go on).
  std::string run_alone(uint64_t id);
  /// Removes statement `id`; returns why it was stopped (empty when it was not).
  std::string finish(uint64_t id);
  std::vector<Entry> snapshot() const;
  /// KILL QUERY `id` by `user`: a user stops only their own statements. Throws InvalidInput naming the query when it
  /// is not there (or not theirs).
  void kill(uint64_t id, const std::string& user);
  double timeout_s() const { return timeout_s_; }

 private:
  void mark_running(Entry& e);
  void watch();

  const double timeout_s_;
  const size_t max_running_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;  ///< the watchdog's
  std::condition_variable turn_;  ///< statements waiting for a turn
  std::map<uint64_t, Entry> entries_;
  uint64_t next_id_ = 0;
  size_t running_ = 0;
  uint64_t alone_ = 0;  ///< the statement running (or about to run) alone; 0: none
  bool stopping_ = false;
  std::thread watchdog_;  // last: it starts once the members above exist
};

}  // namespace kestrel::server
