#include "server/query_board.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>

#include "common/error.hpp"

namespace kestrel::server {
namespace {

using namespace std::chrono_literals;

uint64_t add(QueryBoard& board, const std::string& text, std::atomic<int>* cancels = nullptr) {
  return board.add("u", text, [cancels] {
    if (cancels != nullptr) ++*cancels;
  });
}

/// Whether `f` is still waiting after a while (it would have finished by now if it were not blocked).
template <typename T>
bool still_waiting(std::future<T>& f) {
  return f.wait_for(200ms) == std::future_status::timeout;
}

TEST(QueryBoard, AtMostMaxRunningAndTheNextTakesAFreedTurn) {
  QueryBoard board(0, 2);
  const uint64_t a = add(board, "a"), b = add(board, "b"), c = add(board, "c");
  EXPECT_EQ(board.start(a), "");
  EXPECT_EQ(board.start(b), "");
  auto third = std::async(std::launch::async, [&] { return board.start(c); });
  EXPECT_TRUE(still_waiting(third));
  int running = 0;
  for (const auto& e : board.snapshot()) running += e.running ? 1 : 0;
  EXPECT_EQ(running, 2);
  EXPECT_EQ(board.finish(a), "");
  EXPECT_EQ(third.get(), "");
  EXPECT_TRUE(board.ran_beside_others(b));
  EXPECT_TRUE(board.ran_beside_others(c));
  board.finish(b);
  board.finish(c);
}

TEST(QueryBoard, AStatementAloneDidNotRunBesideOthers) {
  QueryBoard board(0, 4);
  const uint64_t a = add(board, "a");
  EXPECT_EQ(board.start(a), "");
  EXPECT_FALSE(board.ran_beside_others(a));
  board.finish(a);
}

TEST(QueryBoard, RunAloneWaitsForTheOthersAndHoldsBackNewOnes) {
  QueryBoard board(0, 4);
  const uint64_t a = add(board, "a"), b = add(board, "b"), c = add(board, "c");
  board.start(a);
  board.start(b);
  auto alone = std::async(std::launch::async, [&] { return board.run_alone(a); });
  EXPECT_TRUE(still_waiting(alone));  // b still runs
  board.finish(b);
  EXPECT_EQ(alone.get(), "");
  auto next = std::async(std::launch::async, [&] { return board.start(c); });
  EXPECT_TRUE(still_waiting(next));  // a runs alone
  board.finish(a);
  EXPECT_EQ(next.get(), "");
  board.finish(c);
}

TEST(QueryBoard, TwoStatementsAskingToRunAloneTakeTurns) {
  QueryBoard board(0, 4);
  const uint64_t a = add(board, "a"), b = add(board, "b");
  board.start(a);
  board.start(b);
  std::atomic<int> alone_now{0}, most{0};
  auto run = [&](uint64_t id) {
    if (!board.run_alone(id).empty()) return false;
    most = std::max(most.load(), ++alone_now);
    std::this_thread::sleep_for(50ms);
    --alone_now;
    board.finish(id);
    return true;
  };
  auto first = std::async(std::launch::async, run, a);
  auto second = std::async(std::launch::async, run, b);
  ASSERT_EQ(first.wait_for(5s), std::future_status::ready) << "run_alone deadlocked";
  ASSERT_EQ(second.wait_for(5s), std::future_status::ready) << "run_alone deadlocked";
  EXPECT_TRUE(first.get());
  EXPECT_TRUE(second.get());
  EXPECT_EQ(most.load(), 1);
  EXPECT_TRUE(board.snapshot().empty());
}

TEST(QueryBoard, KillingAQueuedStatementEndsItsWait) {
  QueryBoard board(0, 1);
  const uint64_t a = add(board, "a"), b = add(board, "b");
  board.start(a);
  auto queued = std::async(std::launch::async, [&] { return board.start(b); });
  EXPECT_TRUE(still_waiting(queued));
  board.kill(b, "u");
  const std::string why = queued.get();
  EXPECT_NE(why.find("was killed"), std::string::npos) << why;
  EXPECT_EQ(board.finish(b), why);
  EXPECT_THROW(board.kill(a, "someone else"), InvalidInput);
  board.finish(a);
}

TEST(QueryBoard, TheTimeLimitStopsAQueuedStatementAndCancelsARunningOne) {
  QueryBoard board(0.2, 1);
  std::atomic<int> cancels{0};
  const uint64_t a = add(board, "a", &cancels), b = add(board, "b");
  board.start(a);
  auto queued = std::async(std::launch::async, [&] { return board.start(b); });
  ASSERT_EQ(queued.wait_for(5s), std::future_status::ready);
  EXPECT_NE(queued.get().find("time limit of 0.2 s"), std::string::npos);
  // The running one is cancelled, again and again until it finishes.
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (cancels.load() < 2 && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(10ms);
  EXPECT_GE(cancels.load(), 2);
  EXPECT_NE(board.finish(a).find("time limit"), std::string::npos);
  board.finish(b);
}

}  // namespace
}  // namespace kestrel::server
