// Differential tests of GPU placement: the same SQL on a CPU database and on a GPU database (Filter and Project on
// the GPU where their expressions allow, with transfers at the boundaries) must return exactly the same rows.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "common/error.hpp"
#include "gpu/memory_resource.hpp"
#include "gpu/stream_pool.hpp"
#include "main/database.hpp"
#include "vector/transfer.hpp"

namespace kestrel {
namespace {

/// The rows of `r` as text, sorted (drivers may emit batches in any order).
std::vector<std::string> sorted_rows(const QueryResult& r) {
  std::vector<std::string> rows;
  const size_t columns = r.schema ? r.schema->size() : 0;
  for (size_t i = 0; i < r.row_count(); ++i) {
    std::string line;
    for (size_t c = 0; c < columns; ++c) {
      Value v = r.value(i, c);
      line += (v.is_null() ? std::string("NULL") : v.to_string()) + "|";
    }
    rows.push_back(line);
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

const char* const kSetup[] = {
    "CREATE TABLE t (i INTEGER, b BIGINT, d DECIMAL(12,2), x DOUBLE, dt DATE, s VARCHAR)",
    "INSERT INTO t VALUES (1, 10, 1.50, 0.5, DATE '2020-01-01', 'apple'), (2, NULL, 2.25, -1.5, DATE '2021-06-15', "
    "'banana'), (NULL, 30, NULL, NULL, NULL, NULL), (4, -40, -3.75, 2.0, DATE '1999-12-31', ''), (5, 50, 100.00, "
    "1e10, DATE '2024-02-29', 'cherry pie'), (-6, 9000000000, 0.01, -0.0, DATE '1970-01-01', 'Apple')",
    "CREATE TABLE digits (n INTEGER)",
    "INSERT INTO digits VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)",
    "CREATE TABLE big (i INTEGER, b BIGINT, d DECIMAL(12,2), x DOUBLE, dt DATE, s VARCHAR)",
    // 10,000 generated rows with NULLs in every column.
    "INSERT INTO big SELECT CASE WHEN (a.n + b.n) % 9 = 0 THEN NULL ELSE a.n * 1000 + b.n * 100 + c.n * 10 + e.n END, "
    "CAST(a.n * 1000 + b.n * 100 + c.n * 10 + e.n AS BIGINT) * 1000003, "
    "CASE WHEN c.n = 3 THEN NULL ELSE CAST(a.n * 100 + b.n * 10 + c.n AS DECIMAL(12,2)) / 4 END, "
    "CASE WHEN e.n = 7 THEN NULL ELSE (a.n - 4.5) * (b.n + 0.25) END, "
    "CASE WHEN b.n = 2 THEN NULL ELSE DATE '2000-01-01' + (a.n * 1000 + b.n * 100 + c.n * 10 + e.n) END, "
    "CASE WHEN a.n = 8 THEN NULL ELSE 'row ' || CAST(c.n * 10 + e.n AS VARCHAR) END "
    "FROM digits a CROSS JOIN digits b CROSS JOIN digits c CROSS JOIN digits e",
};

const char* const kQueries[] = {
    "SELECT i, b, d, x, dt, s FROM t WHERE i > 1",
    "SELECT i + 1, b * 2, d + d, d * 3, x * 2, dt + 1, s FROM t WHERE s LIKE '%a%'",
    "SELECT * FROM t WHERE d > 1.00 AND x < 1.0 OR s IS NULL",
    "SELECT s, i FROM t WHERE dt BETWEEN DATE '2000-01-01' AND DATE '2022-01-01'",
    "SELECT i, s FROM t WHERE i IN (1, 2, 5) OR b IS NULL",
    "SELECT CASE WHEN i > 2 THEN b ELSE -b END, substring(s, 1, 3) FROM t",
    "SELECT upper(s), lower(s), length(s), s || '!' || upper(s), abs(b), sign(d), round(d), round(d, 1), floor(x), "
    "ceil(d), sqrt(abs(x)), nullif(i, 2), greatest(i, 3, NULL), least(dt, DATE '2020-06-01') FROM big",
    "SELECT s FROM big WHERE upper(s) LIKE 'ROW 1%' AND length(s) > 5 AND abs(i - 5000) < 300",
    "SELECT trim(s, 'rw'), ltrim(s, 'ro'), rtrim(s || '  ') FROM big WHERE i < 3000",
    "SELECT position('1' IN s), starts_with(s, 'row 2'), replace(s, 'ow', 'OW') FROM big WHERE i < 3000",
    "SELECT CAST(i AS VARCHAR) || '/' || CAST(d AS VARCHAR), CAST(dt AS VARCHAR), CAST(b AS VARCHAR), "
    "CAST(i > 5 AS VARCHAR) FROM big",
    "SELECT i, s FROM t WHERE s <> 'apple' AND s >= 'b'",
    "SELECT x / 2, i % 3, b - 1 FROM t WHERE NOT (i < 2)",
    "SELECT * FROM t WHERE i > 100",
    "SELECT * FROM big WHERE i % 7 = 3",
    "SELECT i, d * 2, s FROM big WHERE s LIKE 'row 1%' AND d IS NOT NULL",
    "SELECT i, dt, x FROM big WHERE dt > DATE '2020-01-01' AND x >= 0",
    "SELECT b, d FROM big WHERE d BETWEEN 10.00 AND 20.00 OR i IS NULL",
    "SELECT count(*), sum(i), min(s), max(dt), sum(d) FROM big WHERE i % 5 = 1",
    "SELECT s, count(*) FROM big WHERE x < 0 GROUP BY s",
    "SELECT i, s FROM big WHERE i < 50 ORDER BY i LIMIT 20",
    "SELECT * FROM big WHERE s IS NULL AND i IS NOT NULL AND dt IS NULL",
    // Aggregation, joins, set operations: every operator on the GPU.
    "SELECT s, count(*), sum(d), avg(d), min(dt), max(x), count(i) FROM big GROUP BY s",
    "SELECT i % 10, s, sum(b), avg(x) FROM big GROUP BY i % 10, s HAVING count(*) > 3",
    "SELECT count(DISTINCT s), count(DISTINCT i % 7), sum(DISTINCT i % 5) FROM big",
    "SELECT dt, count(*) FROM big GROUP BY dt HAVING count(*) > 1",
    "SELECT sum(d * d), avg(d * 3), max(d * d) FROM big",
    "SELECT count(*), sum(i), min(s), max(s) FROM big WHERE i > 1000000",
    "SELECT t.i, t.s, big.b FROM t JOIN big ON t.i = big.i % 10",
    "SELECT t.s, big.s FROM t JOIN big ON t.s = big.s",
    "SELECT t.i, t.s, big.i FROM t LEFT JOIN big ON t.i = big.i AND big.b > 0",
    "SELECT t.i, big.i FROM t RIGHT JOIN (SELECT i FROM big WHERE i < 20) big ON t.i = big.i",
    "SELECT t.i, big.i FROM t FULL JOIN (SELECT i FROM big WHERE i < 20) big ON t.i = big.i",
    "SELECT i, s FROM t WHERE EXISTS (SELECT * FROM big WHERE big.i = t.i * 3)",
    "SELECT i, s FROM t WHERE NOT EXISTS (SELECT * FROM big WHERE big.i = t.i * 3)",
    "SELECT i FROM t WHERE i IN (SELECT i % 4 FROM big)",
    "SELECT i FROM t WHERE i NOT IN (SELECT i FROM big WHERE i < 3)",
    "SELECT i FROM t WHERE i NOT IN (SELECT i FROM big WHERE i < 3 AND i IS NOT NULL)",
    "SELECT i, i IN (SELECT i FROM big WHERE i < 3) FROM t",
    "SELECT i, EXISTS (SELECT 1 FROM big WHERE big.i = t.i) OR i > 4 FROM t",
    "SELECT i, (SELECT max(b) FROM big WHERE big.i % 10 = t.i) FROM t",
    "SELECT i, (SELECT b FROM big WHERE big.i = t.i + 1000) FROM t",
    "SELECT a.n, b.n FROM digits a CROSS JOIN digits b WHERE a.n + b.n = 9",
    "SELECT a.n, b.n FROM digits a JOIN digits b ON a.n < b.n",
    "SELECT t.i, big.i FROM t JOIN big ON t.i = big.i % 10 AND big.b > t.b",
    "SELECT i FROM t UNION SELECT n FROM digits",
    "SELECT i FROM t UNION ALL SELECT n FROM digits",
    "SELECT s, dt FROM big UNION SELECT s, dt FROM t",
    "SELECT i FROM t INTERSECT SELECT n FROM digits",
    "SELECT i FROM t EXCEPT SELECT n FROM digits",
    "SELECT i % 4 FROM big INTERSECT ALL SELECT n FROM digits",
    "SELECT i % 4, s FROM big EXCEPT ALL SELECT i % 3, s FROM big WHERE i < 5000",
    "SELECT s, x FROM big INTERSECT SELECT s, x FROM t",
    "SELECT s FROM big EXCEPT SELECT s FROM t",
    // Untyped NULLs: projected, filtered, carried through joins and set operations.
    "SELECT NULL",
    "SELECT NULL AS n, 'v' AS s",
    "SELECT NULL AS n, i FROM t WHERE i > 1",
    "SELECT * FROM (SELECT NULL AS n, i, s FROM big) x WHERE i % 7 = 3",
    "SELECT x.n, x.i, digits.n FROM (SELECT NULL AS n, i FROM t) x JOIN digits ON x.i = digits.n",
};

/// Queries with a part the GPU cannot run yet (here the cast of an untyped NULL to VARCHAR that the set operation
/// adds): compared with fallback on only.
const char* const kFallbackQueries[] = {
    "SELECT NULL AS n, i FROM t INTERSECT SELECT NULL, n FROM digits",
    "SELECT regexp_like(s, 'a+'), i FROM t WHERE i > 1",
    // One argument, or more than 8: GREATEST and LEAST stay on the CPU.
    "SELECT greatest(i), least(b + 1), greatest(i, i, i, i, i, i, i, i, 1) FROM big",
};

/// Queries whose row order is defined (ORDER BY): compared in order.
const char* const kOrderedQueries[] = {
    "SELECT i, s FROM big ORDER BY s DESC NULLS FIRST, i LIMIT 50",
    "SELECT i, s, x FROM big ORDER BY x, i DESC NULLS LAST LIMIT 100 OFFSET 17",
    "SELECT s, count(*) AS c FROM big GROUP BY s ORDER BY c DESC, s",
    "SELECT i, b FROM big WHERE i < 300 ORDER BY b DESC",
    "SELECT d, dt FROM big ORDER BY d NULLS FIRST, dt, i",
    "SELECT i * 2 AS k, s FROM t ORDER BY k",
    "SELECT i FROM big ORDER BY i LIMIT 0",
    "SELECT i FROM big LIMIT 5 OFFSET 9998",
    "SELECT i, s FROM t ORDER BY s, i LIMIT 3",
    "SELECT i FROM t INTERSECT SELECT n FROM digits ORDER BY 1",
    "SELECT n FROM digits EXCEPT ALL SELECT i FROM t ORDER BY 1 DESC",
};

class GpuPlacementTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DatabaseOptions gpu_options{DeviceChoice::kGpu};
    gpu_options.gpu_fallback = true;
    gpu_db_ = std::make_unique<Database>(gpu_options);
    cpu_db_ = std::make_unique<Database>(DatabaseOptions{DeviceChoice::kCpu});
    gpu_ = std::make_unique<Connection>(*gpu_db_);
    cpu_ = std::make_unique<Connection>(*cpu_db_);
    for (const char* sql : kSetup) {
      gpu_->query(sql);
      cpu_->query(sql);
    }
  }

  std::unique_ptr<Database> gpu_db_, cpu_db_;
  std::unique_ptr<Connection> gpu_, cpu_;
};

TEST_F(GpuPlacementTest, FiltersAndProjectionsMatchTheCpu) {
  EXPECT_EQ(cpu_->query("SELECT count(*) FROM big").value(0, 0).to_string(), "10000");
  std::vector<const char*> queries(std::begin(kQueries), std::end(kQueries));
  queries.insert(queries.end(), std::begin(kFallbackQueries), std::end(kFallbackQueries));
  for (const char* sql : queries) {
    SCOPED_TRACE(sql);
    QueryResult want = cpu_->query(sql);
    QueryResult got = gpu_->query(sql);
    ASSERT_TRUE(got.schema != nullptr);
    ASSERT_EQ(got.schema->size(), want.schema->size());
    for (size_t c = 0; c < want.schema->size(); ++c) EXPECT_EQ(got.schema->field(c).type, want.schema->field(c).type);
    EXPECT_EQ(sorted_rows(got), sorted_rows(want));
  }
}

TEST_F(GpuPlacementTest, OrderedResultsMatchTheCpuInOrder) {
  for (const char* sql : kOrderedQueries) {
    SCOPED_TRACE(sql);
    QueryResult want = cpu_->query(sql);
    QueryResult got = gpu_->query(sql);
    ASSERT_EQ(got.row_count(), want.row_count());
    for (size_t i = 0; i < want.row_count(); ++i) {
      for (size_t c = 0; c < want.schema->size(); ++c) {
        ASSERT_EQ(got.value(i, c).to_string(), want.value(i, c).to_string()) << "row " << i << " column " << c;
      }
    }
  }
}

TEST_F(GpuPlacementTest, EveryOperatorRunsWithFallbackOff) {
  gpu_->query("SET gpu_fallback = false");
  cpu_->query("SET gpu_fallback = false");
  for (const char* sql : kQueries) {
    SCOPED_TRACE(sql);
    EXPECT_EQ(sorted_rows(gpu_->query(sql)), sorted_rows(cpu_->query(sql)));
  }
}

std::string plan_text(const QueryResult& r) {
  std::string text;
  for (size_t i = 0; i < r.row_count(); ++i) text += r.value(i, 0).to_string() + "\n";
  return text;
}

TEST_F(GpuPlacementTest, TableCacheServesRepeatedScansAndCanBeDisabled) {
  const std::string path = ::testing::TempDir() + "kestrel_cache_test.parquet";
  cpu_->query("COPY big TO '" + path + "' (FORMAT parquet, ROW_GROUP_SIZE 1000)");
  const std::string sql = "SELECT s, count(*), sum(d) FROM read_parquet('" + path + "') WHERE i > 100 GROUP BY s";
  const auto want = sorted_rows(cpu_->query(sql));
  EXPECT_EQ(sorted_rows(gpu_->query(sql)), want);
  // The second run reads every column from the cache, and still computes the same answer.
  std::string text = plan_text(gpu_->query("EXPLAIN ANALYZE " + sql));
  EXPECT_NE(text.find("table cache"), std::string::npos) << text;
  EXPECT_EQ(text.find(" 0 hits"), std::string::npos) << text;
  EXPECT_EQ(sorted_rows(gpu_->query(sql)), want);
  gpu_->query("SET gpu_cache = false");
  text = plan_text(gpu_->query("EXPLAIN ANALYZE " + sql));
  EXPECT_EQ(text.find("table cache"), std::string::npos) << text;
  EXPECT_EQ(sorted_rows(gpu_->query(sql)), want);
  gpu_->query("SET gpu_cache = true");
  gpu_->query("SET gpu_cache_mb = 1");
  EXPECT_EQ(sorted_rows(gpu_->query(sql)), want);
  std::remove(path.c_str());
}

TEST_F(GpuPlacementTest, ScansOfOneTableShareDecodedColumnsWithinAStatement) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(::testing::TempDir()) / "kestrel_scan_reuse";
  fs::remove_all(dir);
  fs::create_directories(dir);
  cpu_->query("COPY big TO '" + (dir / "big.parquet").string() + "' (FORMAT parquet, ROW_GROUP_SIZE 1000)");
  DatabaseOptions options{DeviceChoice::kGpu};
  options.data_dirs = {dir.string()};
  options.gpu_fallback = false;
  Database db(options);
  Connection gpu(db);
  gpu.query("SET gpu_cache = false");
  // A CTE read by the query and by its scalar sub-query; a self-join whose sides read different columns (the
  // second scan reads only the column the first did not keep); a sub-query over the outer query's table.
  const std::vector<std::string> queries = {
      "WITH r AS (SELECT s, sum(d) AS total FROM big WHERE i > 100 GROUP BY s) "
      "SELECT s, total FROM r WHERE total = (SELECT max(total) FROM r)",
      "SELECT a.s, count(*), sum(b.x) FROM big a JOIN big b ON a.i = b.i WHERE b.x > 0 GROUP BY a.s",
      "SELECT count(*) FROM big o WHERE o.b > (SELECT avg(b) FROM big i WHERE i.s = o.s)",
  };
  for (const std::string& sql : queries) {
    SCOPED_TRACE(sql);
    const auto want = sorted_rows(cpu_->query(sql));
    EXPECT_EQ(sorted_rows(gpu.query(sql)), want);
    std::string text = plan_text(gpu.query("EXPLAIN ANALYZE " + sql));
    EXPECT_NE(text.find("Scans sharing decoded columns"), std::string::npos) << text;
    EXPECT_EQ(text.find(" 0 taken by later scans"), std::string::npos) << text;
    EXPECT_EQ(text.find(" 0 columns kept"), std::string::npos) << text;
    gpu.query("SET gpu_scan_reuse = false");
    EXPECT_EQ(sorted_rows(gpu.query(sql)), want);
    text = plan_text(gpu.query("EXPLAIN ANALYZE " + sql));
    EXPECT_EQ(text.find("Scans sharing decoded columns"), std::string::npos) << text;
    gpu.query("SET gpu_scan_reuse = true");
  }
  fs::remove_all(dir);
}

TEST_F(GpuPlacementTest, FileScansOfTheNextPipelineReadAheadWithTheSameAnswers) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(::testing::TempDir()) / "kestrel_scan_prefetch";
  fs::remove_all(dir);
  fs::create_directories(dir);
  cpu_->query("COPY big TO '" + (dir / "big.parquet").string() + "' (FORMAT parquet, ROW_GROUP_SIZE 700)");
  cpu_->query("COPY t TO '" + (dir / "small.parquet").string() + "' (FORMAT parquet)");
  cpu_->query("COPY (SELECT i, s, x FROM big WHERE i % 7 = 1) TO '" + (dir / "side.parquet").string() +
              "' (FORMAT parquet, ROW_GROUP_SIZE 300)");
  DatabaseOptions options{DeviceChoice::kGpu};
  options.data_dirs = {dir.string()};
  options.gpu_fallback = false;
  Database db(options);
  Connection gpu(db);
  DatabaseOptions cpu_options{DeviceChoice::kCpu};
  cpu_options.data_dirs = {dir.string()};
  Database cpu_db(cpu_options);
  Connection cpu(cpu_db);
  gpu.query("SET gpu_cache = false");
  // Several pipelines whose sources are file scans one after another (builds, then the probe), a semi join, and a
  // query that fails in its last pipeline while the read-ahead of nothing else is pending.
  const std::vector<std::string> queries = {
      "SELECT small.s, count(*), sum(big.x) FROM small JOIN big ON small.i = big.i % 10 GROUP BY small.s",
      "SELECT side.s, count(*), min(big.dt) FROM side JOIN big ON side.i = big.i JOIN small ON small.i = big.i % 5 "
      "GROUP BY side.s",
      "SELECT count(*) FROM big WHERE i IN (SELECT i FROM side WHERE x > 0)",
  };
  for (const char* prefetch : {"true", "false"}) {
    gpu.query(std::string("SET gpu_scan_prefetch = ") + prefetch);
    for (const std::string& sql : queries) {
      SCOPED_TRACE(std::string(prefetch) + ": " + sql);
      EXPECT_EQ(sorted_rows(gpu.query(sql)), sorted_rows(cpu.query(sql)));
    }
    EXPECT_THROW(gpu.query("SELECT sum(10 / (big.i - big.i)) FROM side JOIN big ON side.i = big.i"), Error);
    EXPECT_EQ(gpu.query("SELECT count(*) FROM big").value(0, 0).to_string(),
              cpu.query("SELECT count(*) FROM big").value(0, 0).to_string());
  }
  fs::remove_all(dir);
}

TEST_F(GpuPlacementTest, ExplainShowsPlacementWithoutRunning) {
  std::string text = plan_text(gpu_->query(
      "EXPLAIN SELECT t.s, count(*) FROM t JOIN big ON t.i = big.i GROUP BY t.s ORDER BY 2 DESC LIMIT 3"));
  for (const char* step : {"Scan t [GPU]", "HashJoinBuild [GPU]", "[GPU]", "Sort", "ToHost"}) {
    EXPECT_NE(text.find(step), std::string::npos) << step << "\n" << text;
  }
}

TEST_F(GpuPlacementTest, ExplainAnalyzeShowsGpuOperatorsAndTransfers) {
  QueryResult r = gpu_->query("EXPLAIN ANALYZE SELECT i + 1, s FROM big WHERE i > 10");
  std::string text;
  for (size_t i = 0; i < r.row_count(); ++i) text += r.value(i, 0).to_string() + "\n";
  EXPECT_NE(text.find("Scan big [GPU]"), std::string::npos) << text;
  EXPECT_NE(text.find("Filter [GPU]"), std::string::npos) << text;
  EXPECT_NE(text.find("Project [GPU]"), std::string::npos) << text;
  // GPU steps carry their GPU time, measured with CUDA events.
  EXPECT_NE(text.find("   gpu "), std::string::npos) << text;
  EXPECT_NE(text.find("ToHost"), std::string::npos) << text;
}

TEST_F(GpuPlacementTest, FallbackOffRefusesOnlyPlansWithCpuOperators) {
  gpu_->query("SET gpu_fallback = false");
  QueryResult r = gpu_->query("SELECT i * 2, s FROM big WHERE i > 9880 AND i < 9890");
  EXPECT_EQ(r.row_count(), 9u);
  EXPECT_EQ(gpu_->query("SELECT count(*) FROM big WHERE i > 10").row_count(), 1u);
  try {
    gpu_->query("SELECT regexp_like(s, 'a+') FROM t");
    ADD_FAILURE() << "regexp_like() (CPU only) ran with gpu_fallback off";
  } catch (const NotImplemented& e) {
    EXPECT_NE(std::string(e.what()).find("gpu_fallback"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace kestrel

namespace kestrel {
namespace {

TEST_F(GpuPlacementTest, DeviceRowsStayOnTheDeviceAndEqualTheHostRows) {
  size_t device_results = 0;
  for (const char* sql : kQueries) {
    SCOPED_TRACE(sql);
    QueryResult host = gpu_->query(sql);
    QueryResult device = gpu_->query(sql, /*device_rows=*/true);
    bool any_device = false;
    QueryResult copied;
    copied.schema = device.schema;
    for (const Batch& b : device.batches) {
      if (b.residency() == gpu::MemoryKind::kDevice) {
        any_device = true;
        copied.batches.push_back(copy_batch(b, gpu::host_memory_resource(), gpu::driver_stream()));
      } else {
        copied.batches.push_back(b);
      }
    }
    device_results += any_device ? 1 : 0;
    EXPECT_EQ(sorted_rows(copied), sorted_rows(host));
  }
  // Most of these plans end on the GPU: their rows must have stayed there.
  EXPECT_GT(device_results, std::size(kQueries) / 2);
}

TEST_F(GpuPlacementTest, ConnectionsOnOneDatabaseRunQueriesFromSeveralThreads) {
  std::vector<std::vector<std::string>> expected;
  for (const char* sql : kQueries) expected.push_back(sorted_rows(cpu_->query(sql)));
  constexpr int kThreads = 4;
  std::vector<std::string> failures(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Connection connection(*gpu_db_);
      for (int round = 0; round < 3; ++round) {
        for (size_t q = 0; q < std::size(kQueries); ++q) {
          const size_t k = (q + static_cast<size_t>(t) * 7) % std::size(kQueries);
          try {
            if (sorted_rows(connection.query(kQueries[k])) != expected[k]) {
              failures[t] = std::string("wrong rows: ") + kQueries[k];
              return;
            }
          } catch (const std::exception& e) {
            failures[t] = std::string(kQueries[k]) + ": " + e.what();
            return;
          }
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[t], "") << "thread " << t;
}

}  // namespace
}  // namespace kestrel
