#include "runner.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <unistd.h>

namespace kestrel::slt {
namespace {

/// Canned answers by SQL text; anything else fails like a syntax error. Records every SQL it runs.
struct FakeBackend {
  std::map<std::string, EngineResult> answers;
  std::vector<std::string> executed;
  int engines_opened = 0;
};

class FakeEngine : public Engine {
 public:
  explicit FakeEngine(FakeBackend& backend) : backend_(backend) {}
  EngineResult execute(const std::string& sql) override {
    backend_.executed.push_back(sql);
    if (sql == "THROW") throw std::runtime_error("engine blew up");
    auto it = backend_.answers.find(sql);
    if (it == backend_.answers.end()) {
      return EngineResult::failure("Syntax Error at line 1, column 1: cannot parse '" + sql + "'", "Syntax Error");
    }
    return it->second;
  }

 private:
  FakeBackend& backend_;
};

EngineResult rows(size_t columns, std::vector<std::vector<Value>> values) {
  EngineResult result;
  result.column_count = columns;
  result.rows = std::move(values);
  return result;
}

class RunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    backend_.answers["CREATE TABLE t(a INTEGER)"] = EngineResult{};
    backend_.answers["SELECT 1"] = rows(1, {{Value::integer(1)}});
    backend_.answers["SELECT a, s FROM t"] =
        rows(2, {{Value::integer(2), Value::varchar("b")}, {Value::integer(1), Value::varchar("")}});
    backend_.answers["SELECT x FROM nowhere"] =
        EngineResult::failure("Binder Error at line 1, column 15: table 'nowhere' does not exist", "Binder Error");
  }

  RunStats run(const std::string& text, RunnerOptions options = {}) {
    Runner runner(factory(), std::move(options), out_);
    runner.run_file(parse_test_file(text, "t.test"));
    return runner.stats();
  }

  EngineFactory factory() {
    return [this] {
      ++backend_.engines_opened;
      return std::make_unique<FakeEngine>(backend_);
    };
  }

  FakeBackend backend_;
  std::ostringstream out_;
};

TEST_F(RunnerTest, PassingFile) {
  RunStats stats = run(
      "statement ok\nCREATE TABLE t(a INTEGER)\n\n"
      "query I\nSELECT 1\n----\n1\n\n"
      "query IT rowsort\nSELECT a, s FROM t\n----\n1\t(empty)\n2\tb\n\n"
      "statement error\nSELECT x FROM nowhere\n----\nBinder Error\n\n"
      "statement error\nSELEC 1\n");
  EXPECT_EQ(stats.passed, 5u);
  EXPECT_EQ(stats.failed, 0u);
  EXPECT_EQ(stats.skipped, 0u);
  EXPECT_EQ(out_.str(), "");
  EXPECT_EQ(backend_.engines_opened, 1);
}

TEST_F(RunnerTest, FailuresAreReportedWithFileLineSqlExpectedAndActual) {
  RunStats stats = run(
      "query I\nSELECT 1\n----\n2\n\n"
      "statement ok\nSELECT nonsense\n\n"
      "statement error\nSELECT 1\n\n"
      "statement error\nSELECT x FROM nowhere\n----\nSyntax Error\n\n"
      "query I\nSELECT 1\n----\n1\n");
  EXPECT_EQ(stats.passed, 1u);
  EXPECT_EQ(stats.failed, 4u);
  const std::string out = out_.str();
  EXPECT_NE(out.find("FAILED t.test:1: query I nosort"), std::string::npos) << out;
  EXPECT_NE(out.find("    SELECT 1\n  expected:\n    2\n  actual:\n    1\n"), std::string::npos) << out;
  EXPECT_NE(out.find("FAILED t.test:6: statement ok: the statement failed"), std::string::npos) << out;
  EXPECT_NE(out.find("cannot parse 'SELECT nonsense'"), std::string::npos) << out;
  EXPECT_NE(out.find("FAILED t.test:9: statement error: the statement succeeded"), std::string::npos) << out;
  EXPECT_NE(out.find("FAILED t.test:12: statement error: the error message does not match"), std::string::npos)
      << out;
}

TEST_F(RunnerTest, StatementErrorChecksTheMessageOnItsHeaderLine) {
  // The header-line text follows the rule of the text after `----`: a case-sensitive substring of the message
  // (no regular expression), or the error's category optionally followed by `:` and a substring.
  RunStats passing = run(
      "statement error table 'nowhere' does not exist\nSELECT x FROM nowhere\n\n"
      "statement error Binder Error\nSELECT x FROM nowhere\n\n"
      "statement error catalog error: table 'nowhere'\nSELECT x FROM nowhere\n\n"
      "statement error cannot parse 'SELEC (1)'\nSELEC (1)\n\n"
      "statement error\nSELECT x FROM nowhere\n");
  EXPECT_EQ(passing.passed, 5u);
  EXPECT_EQ(passing.failed, 0u);
  EXPECT_EQ(out_.str(), "");

  RunStats failing = run(
      "statement error table 'elsewhere' does not exist\nSELECT x FROM nowhere\n\n"
      "statement error TABLE 'nowhere' does not exist\nSELECT x FROM nowhere\n\n"
      "statement error cannot parse 'SELEC \\(1\\)'\nSELEC (1)\n\n"
      "statement error Syntax Error\nSELECT x FROM nowhere\n\n"
      "statement error division by zero\nSELECT 1\n");
  EXPECT_EQ(failing.passed, 0u);
  EXPECT_EQ(failing.failed, 5u);
  const std::string out = out_.str();
  EXPECT_NE(out.find("FAILED t.test:1: statement error: the error message does not match\n"
                     "  sql:\n    SELECT x FROM nowhere\n"
                     "  expected:\n    table 'elsewhere' does not exist\n"
                     "  actual:\n    Binder Error at line 1, column 15: table 'nowhere' does not exist\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("FAILED t.test:4: statement error: the error message does not match"), std::string::npos) << out;
  EXPECT_NE(out.find("FAILED t.test:7: statement error: the error message does not match"), std::string::npos) << out;
  EXPECT_NE(out.find("FAILED t.test:10: statement error: the error message does not match"), std::string::npos)
      << out;
  EXPECT_NE(out.find("FAILED t.test:13: statement error: the statement succeeded but an error was expected\n"
                     "  sql:\n    SELECT 1\n  expected:\n    division by zero\n"),
            std::string::npos)
      << out;
}

TEST_F(RunnerTest, ConditionsSelectPostgresql) {
  RunStats stats = run(
      "onlyif postgresql\nquery I\nSELECT 1\n----\n1\n\n"
      "skipif postgresql\nquery I\nSELECT 1\n----\nwrong\n\n"
      "onlyif sqlite\nstatement ok\nSELECT nonsense\n\n"
      "skipif mysql\nquery I\nSELECT 1\n----\n1\n");
  EXPECT_EQ(stats.passed, 2u);
  EXPECT_EQ(stats.failed, 0u);
  EXPECT_EQ(stats.skipped, 2u);
  EXPECT_EQ(backend_.executed, (std::vector<std::string>{"SELECT 1", "SELECT 1"}));
}

TEST_F(RunnerTest, HaltSkipsTheRest) {
  RunStats stats = run("query I\nSELECT 1\n----\n1\n\nhalt\n\nstatement ok\nSELECT 1\n\nstatement ok\nSELECT 1\n");
  EXPECT_EQ(stats.passed, 1u);
  EXPECT_EQ(stats.skipped, 2u);
  EXPECT_EQ(backend_.executed.size(), 1u);
}

TEST_F(RunnerTest, ModeSkipAndUnskip) {
  RunStats stats = run("mode skip\n\nstatement ok\nSELECT nonsense\n\nmode unskip\n\nstatement ok\nSELECT 1\n");
  EXPECT_EQ(stats.passed, 1u);
  EXPECT_EQ(stats.skipped, 1u);
  EXPECT_EQ(stats.failed, 0u);
}

TEST_F(RunnerTest, RequireSkipsTheFileWithAReason) {
  RunnerOptions options;
  options.features = {"cpu"};
  RunStats ok = run("require cpu\n\nstatement ok\nSELECT 1\n", options);
  EXPECT_EQ(ok.passed, 1u);
  RunStats skipped =
      run("statement ok\nSELECT 1\n\nrequire gpu\n\nstatement ok\nSELECT 1\n\nquery I\nSELECT 1\n", options);
  EXPECT_EQ(skipped.passed, 1u);
  EXPECT_EQ(skipped.skipped, 2u);
  EXPECT_NE(out_.str().find("t.test:4: require gpu: not available in this run, 2 records skipped"), std::string::npos)
      << out_.str();
}

TEST_F(RunnerTest, HashThresholdAndHashedResults) {
  // md5 of "1\n" is b026324c6904b2a9cb4b88d6d61c81d1 (Python hashlib).
  RunStats stats =
      run("hash-threshold 1\n\nquery I\nSELECT 1\n----\n1 values hashing to b026324c6904b2a9cb4b88d6d61c81d1\n");
  EXPECT_EQ(stats.passed, 1u);
  EXPECT_EQ(stats.failed, 0u);
}

TEST_F(RunnerTest, InvalidRecordsAndEngineExceptionsFail) {
  RunStats stats = run("frobnicate\n\nstatement ok\nTHROW\n\nstatement ok\nSELECT 1\n");
  EXPECT_EQ(stats.failed, 2u);
  EXPECT_EQ(stats.passed, 1u);
  EXPECT_NE(out_.str().find("unknown record type 'frobnicate'"), std::string::npos);
  EXPECT_NE(out_.str().find("engine blew up"), std::string::npos);
}

TEST_F(RunnerTest, StopOnFailure) {
  RunnerOptions options;
  options.stop_on_failure = true;
  Runner runner(factory(), options, out_);
  runner.run_file(parse_test_file("statement ok\nSELECT nonsense\n\nstatement ok\nSELECT 1\n", "a.test"));
  EXPECT_TRUE(runner.stopped());
  EXPECT_EQ(runner.stats().failed, 1u);
  EXPECT_EQ(runner.stats().passed, 0u);
}

TEST_F(RunnerTest, EachFileGetsAFreshEngineAndSkipFileCounts) {
  Runner runner(factory(), {}, out_);
  runner.run_file(parse_test_file("statement ok\nSELECT 1\n", "a.test"));
  runner.run_file(parse_test_file("statement ok\nSELECT 1\n", "b.test"));
  runner.skip_file(parse_test_file("loop i 0 3\nstatement ok\nSELECT ${i}\n\nendloop\n", "c.test"));
  EXPECT_EQ(backend_.engines_opened, 2);
  EXPECT_EQ(runner.stats().passed, 2u);
  EXPECT_EQ(runner.stats().skipped, 3u);
  EXPECT_EQ(summary_line(runner.stats()), "2 passed, 0 failed, 3 skipped");
}

TEST_F(RunnerTest, EngineThatCannotOpenFailsTheFile) {
  Runner runner([]() -> std::unique_ptr<Engine> { throw std::runtime_error("no database"); }, {}, out_);
  runner.run_file(parse_test_file("statement ok\nSELECT 1\n\nstatement ok\nSELECT 1\n", "a.test"));
  EXPECT_EQ(runner.stats().failed, 2u);
  EXPECT_NE(out_.str().find("no database"), std::string::npos);
}

TEST_F(RunnerTest, VerbosePrintsEachRecord) {
  RunnerOptions options;
  options.verbose = true;
  run("statement ok\nSELECT 1\n\nquery I\nSELECT 1\n----\n1\n", options);
  EXPECT_NE(out_.str().find("t.test:1: statement ok: SELECT 1"), std::string::npos) << out_.str();
  EXPECT_NE(out_.str().find("t.test:4: query I nosort: SELECT 1"), std::string::npos) << out_.str();
}

TEST(CollectTestFiles, FoldersAreSearchedRecursively) {
  namespace fs = std::filesystem;
  fs::path root = fs::temp_directory_path() / ("kestrel_slt_collect_" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "b" / "c");
  for (const char* name : {"a.test", "b/c/d.test", "b/e.test_slow", "b/notes.txt"}) std::ofstream(root / name) << "";
  std::vector<std::string> missing;
  auto fast = collect_test_files({root.string(), (root / "nope.test").string()}, false, &missing);
  EXPECT_EQ(fast, (std::vector<std::string>{(root / "a.test").string(), (root / "b/c/d.test").string()}));
  EXPECT_EQ(missing, std::vector<std::string>{(root / "nope.test").string()});
  auto slow = collect_test_files({root.string()}, true, nullptr);
  EXPECT_EQ(slow.size(), 3u);
  auto single = collect_test_files({(root / "b/notes.txt").string()}, false, nullptr);
  EXPECT_EQ(single.size(), 1u);
  fs::remove_all(root);
}

}  // namespace
}  // namespace kestrel::slt
