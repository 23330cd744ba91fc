#include "server/query_board.hpp"

#include <algorithm>
#include <sstream>

#include "common/error.hpp"

namespace kestrel::server {

QueryBoard::QueryBoard(double timeout_s, size_t max_running)
    : timeout_s_(timeout_s), max_running_(std::max<size_t>(max_running, 1)), watchdog_([this] { watch(); }) {}

QueryBoard::~QueryBoard() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  turn_.notify_all();
  watchdog_.join();
}

uint64_t QueryBoard::add(const std::string& user, std::string_view text, std::function<void()> cancel) {
  std::lock_guard lock(mutex_);
  const uint64_t id = ++next_id_;
  Entry& e = entries_[id];
  e.id = id;
  e.user = user;
  e.text = std::string(text);
  e.submitted = Clock::now();
  e.cancel = std::move(cancel);
  return id;
}

std::string QueryBoard::start(uint64_t id) {
  std::unique_lock lock(mutex_);
  Entry& e = entries_.at(id);
  turn_.wait(lock, [&] { return !e.stop_reason.empty() || (alone_ == 0 && running_ < max_running_); });
  if (!e.stop_reason.empty()) return e.stop_reason;
  mark_running(e);
  return {};
}

bool QueryBoard::ran_beside_others(uint64_t id) const {
  std::lock_guard lock(mutex_);
  return entries_.at(id).shared;
}

std::string QueryBoard::run_alone(uint64_t id) {
  std::unique_lock lock(mutex_);
  Entry& e = entries_.at(id);
  // Give the turn back first: two statements that both ask to run alone must not wait for each other.
  if (e.running) {
    e.running = false;
    --running_;
    turn_.notify_all();
  }
  turn_.wait(lock, [&] { return !e.stop_reason.empty() || alone_ == 0; });
  if (!e.stop_reason.empty()) return e.stop_reason;
  alone_ = id;
  turn_.wait(lock, [&] { return !e.stop_reason.empty() || running_ == 0; });
  if (!e.stop_reason.empty()) {
    alone_ = 0;
    turn_.notify_all();
    return e.stop_reason;
  }
  mark_running(e);
  return {};
}

std::string QueryBoard::finish(uint64_t id) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(id);
  std::string reason = it->second.stop_reason;
  if (it->second.running) --running_;
  if (alone_ == id) alone_ = 0;
  entries_.erase(it);
  turn_.notify_all();
  return reason;
}

std::vector<QueryBoard::Entry> QueryBoard::snapshot() const {
  std::lock_guard lock(mutex_);
  std::vector<Entry> out;
  for (const auto& [id, e] : entries_) out.push_back(e);
  return out;
}

void QueryBoard::kill(uint64_t id, const std::string& user) {
  {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(id);
    if (it == entries_.end() || it->second.user != user) {
      throw InvalidInput("KILL QUERY " + std::to_string(id) + ": no such query of user '" + user + "'", "42704");
    }
    if (it->second.stop_reason.empty()) it->second.stop_reason = "query " + std::to_string(id) + " was killed (KILL QUERY)";
    // Under the lock, as the watchdog does: the statement's session may end and go away as soon as its entry is
    // removed (which takes the lock), so its cancel must not run after that. It only sets a flag.
    it->second.cancel();
  }
  wake_.notify_all();
  turn_.notify_all();
}

void QueryBoard::mark_running(Entry& e) {
  e.running = true;
  ++running_;
  if (running_ > 1) {
    for (auto& [other_id, other] : entries_) {
      if (other.running) other.shared = true;
    }
  }
}

void QueryBoard::watch() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    wake_.wait_for(lock, std::chrono::milliseconds(50));
    const auto now = Clock::now();
    for (auto& [id, e] : entries_) {
      if (e.stop_reason.empty() && timeout_s_ > 0 &&
          std::chrono::duration<double>(now - e.submitted).count() > timeout_s_) {
        std::ostringstream why;
        why << "query " << id << " passed the server's time limit of " << timeout_s_ << " s (--query-timeout)";
        e.stop_reason = why.str();
        turn_.notify_all();
      }
      if (!e.stop_reason.empty() && e.running) e.cancel();
    }
  }
}

}  // namespace kestrel::server
