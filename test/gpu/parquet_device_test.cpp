// The GPU Parquet decoder against its CPU twin: the flat columns of every Parquet file of the corpus folders, read
// row group by row group and as a whole (dictionaries of several row groups concatenated), decoded on the device equal
// the CPU reader's result value for value (nested columns are refused by the device path, cleanly); a file the CPU reader rejects is rejected by the device path with the same error class
// and message. Corpus folders: $KESTREL_PARQUET_CORPUS (':'-separated), else ../shared/parquet-testing and
// .device/parquet-corpus (scripts/make-parquet-corpus.py) where they exist. Finding no file fails the test.

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "gpu_test_env.hpp"
#include "parquet_corpus.hpp"
#include "io/parquet/device/device_reader.hpp"
#include "io/parquet/parquet_dataset.hpp"
#include "vector/gather.hpp"
#include "vector/transfer.hpp"

namespace kestrel::testing {
namespace {

namespace fs = std::filesystem;


/// The outcome of one read: the batch on the host, or the error's class and message.
struct Outcome {
  Batch batch;
  std::string error;
};

template <typename F>
Outcome attempt(F read) {
  Outcome o;
  try {
    o.batch = read();
  } catch (const InvalidInput& e) {
    o.error = std::string("InvalidInput: ") + e.what();
  } catch (const NotImplemented& e) {
    o.error = std::string("NotImplemented: ") + e.what();
  } catch (const ResourceExhausted& e) {
    o.error = std::string("ResourceExhausted: ") + e.what();
  }
  return o;
}

class ParquetDeviceDecode : public GpuTest {
 protected:
  /// Compares the CPU and GPU reads of row groups `refs` of `data`; returns the rows compared.
  size_t compare(const io::ParquetDataset& data, const std::vector<io::RowGroupRef>& refs, const std::string& what) {
    std::vector<size_t> columns;  // the flat ones: nested columns are read on the CPU only (NestedColumnsAreRefused)
    for (size_t c = 0; c < data.schema()->size(); ++c) {
      if (!data.schema()->field(c).type.is_nested()) columns.push_back(c);
    }
    SchemaPtr schema = data.project_schema(columns);
    Outcome cpu = attempt([&] {
      std::vector<Batch> parts;
      for (const auto& ref : refs) parts.push_back(data.read(ref, columns));
      return parts.size() == 1 ? parts.front() : concat_batches(parts, schema);
    });
    Outcome gpu = attempt([&] {
      Batch device = io::read_parquet_to_device(data, refs, columns, schema, stream(), device_mr(), &stats_);
      EXPECT_TRUE(device.on_device() || device.num_columns() == 0) << what;
      Batch host = copy_batch(device, gpu::host_memory_resource(), stream());
      stream().synchronize();
      return host;
    });
    EXPECT_EQ(cpu.error, gpu.error) << what;
    if (!cpu.error.empty() || !gpu.error.empty()) return 0;
    EXPECT_EQ(cpu.batch.num_rows(), gpu.batch.num_rows()) << what;
    EXPECT_EQ(cpu.batch.num_columns(), gpu.batch.num_columns()) << what;
    if (cpu.batch.num_rows() != gpu.batch.num_rows() || cpu.batch.num_columns() != gpu.batch.num_columns()) return 0;
    for (size_t c = 0; c < cpu.batch.num_columns(); ++c) {
      const Column& a = *cpu.batch.column(c);
      const Column& b = *gpu.batch.column(c);
      EXPECT_EQ(a.null_count(), b.null_count()) << what << " column " << schema->field(c).name;
      size_t mismatches = 0;
      for (size_t r = 0; r < a.length() && mismatches < 3; ++r) {
        const std::string x = a.value_at(r).to_string();
        const std::string y = b.value_at(r).to_string();
        if (x != y) {
          ++mismatches;
          ADD_FAILURE() << what << " column " << schema->field(c).name << " row " << r << ": CPU " << x << ", GPU " << y;
        }
      }
    }
    return cpu.batch.num_rows();
  }

  io::DeviceScanStats stats_;
};

TEST_F(ParquetDeviceDecode, EveryCorpusFileMatchesTheCpuReader) {
  const std::vector<std::string> files = parquet_corpus_files();
  ASSERT_FALSE(files.empty()) << "no Parquet corpus found (set KESTREL_PARQUET_CORPUS)";
  size_t opened = 0, rows = 0, rejected = 0;
  for (const std::string& path : files) {
    io::ParquetDatasetPtr data;
    try {
      data = io::ParquetDataset::open(path);
    } catch (const Error&) {
      ++rejected;  // the footer itself is refused: the same code serves both paths
      continue;
    }
    ++opened;
    const std::vector<io::RowGroupRef> all = data->row_groups();
    for (const auto& ref : all) rows += compare(*data, {ref}, path + " row group " + std::to_string(ref.row_group));
    if (all.size() > 1) rows += compare(*data, all, path + " (all row groups)");
  }
  std::printf("device Parquet corpus: %zu files (%zu opened, %zu refused at open), %zu rows compared; %s\n",
              files.size(), opened, rejected, rows, stats_.describe().c_str());
  EXPECT_GT(opened, 0u);
  EXPECT_GT(rows, 0u);
}

TEST_F(ParquetDeviceDecode, NestedColumnsAreRefusedCleanly) {
  // datapage_v2.snappy.parquet: flat a..d and e, an ARRAY(INTEGER). The GPU reader takes the flat columns beside it
  // and refuses the nested one, naming the file and the column.
  const std::vector<std::string> files = parquet_corpus_files();
  auto it = std::find_if(files.begin(), files.end(),
                         [](const std::string& f) { return f.find("datapage_v2.snappy.parquet") != std::string::npos; });
  if (it == files.end()) GTEST_SKIP() << "datapage_v2.snappy.parquet not in the corpus";
  auto data = io::ParquetDataset::open(*it);
  const size_t e = data->column_index("e");
  ASSERT_TRUE(data->schema()->field(e).type.is_nested());
  const std::vector<io::RowGroupRef> refs = data->row_groups();
  Outcome gpu = attempt([&] {
    return io::read_parquet_to_device(*data, refs, {0, e}, data->project_schema({0, e}), stream(), device_mr(), &stats_);
  });
  EXPECT_NE(gpu.error.find("NotImplemented"), std::string::npos) << gpu.error;
  EXPECT_NE(gpu.error.find("column 'e' is ARRAY(INTEGER): nested columns are read by the CPU reader only"),
            std::string::npos)
      << gpu.error;
  EXPECT_GT(compare(*data, refs, *it), 0u);
}

TEST_F(ParquetDeviceDecode, NoColumnsGivesTheRowCount) {
  const std::vector<std::string> files = parquet_corpus_files();
  ASSERT_FALSE(files.empty());
  for (const std::string& path : files) {
    io::ParquetDatasetPtr data;
    try {
      data = io::ParquetDataset::open(path);
    } catch (const Error&) {
      continue;
    }
    const auto refs = data->row_groups();
    if (refs.empty()) continue;
    Batch b = io::read_parquet_to_device(*data, refs, {}, std::make_shared<const Schema>(), stream(), device_mr(),
                                         nullptr);
    EXPECT_EQ(static_cast<int64_t>(b.num_rows()), data->num_rows()) << path;
    return;
  }
  FAIL() << "no readable corpus file";
}

}  // namespace
}  // namespace kestrel::testing
