// A memory budget exhausted inside a pipeline step is reported with that step's name, once, so a user whose query
// runs out of (GPU) memory learns which operator's state did not fit.

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "ops_test_util.hpp"

namespace kestrel::exec::test {
namespace {

/// A streaming operator that runs out of memory on its second batch.
class GreedyOperator final : public StreamOperator {
 public:
  void execute(const Batch& input, ExecContext&, std::vector<Batch>& out) override {
    if (++calls_ == 2) throw ResourceExhausted("memory budget of 100 bytes exceeded allocating 200 bytes");
    out.push_back(input);
  }
  std::string name() const override { return "GreedyJoin [GPU]"; }

 private:
  std::atomic<int> calls_{0};
};

TEST(PipelineErrors, OutOfMemoryNamesTheOperator) {
  auto batches = make_batches({TypeId::kBigInt}, {{Value::bigint(1)}, {Value::bigint(2)}, {Value::bigint(3)}}, 1);
  auto collector = std::make_shared<BatchCollector>(make_schema({TypeId::kBigInt}));
  std::vector<Pipeline> pipelines(1);
  pipelines[0].source = std::make_shared<BatchSource>(batches);
  pipelines[0].operators.push_back(std::make_shared<GreedyOperator>());
  pipelines[0].sink = collector;
  ExecContext ctx;
  ctx.threads = 1;
  try {
    run_pipelines(pipelines, ctx);
    FAIL() << "the operator's out-of-memory error was lost";
  } catch (const ResourceExhausted& e) {
    EXPECT_EQ(e.message(), "GreedyJoin [GPU]: memory budget of 100 bytes exceeded allocating 200 bytes");
  }
}

}  // namespace
}  // namespace kestrel::exec::test
