// The GPU kcol reader against its CPU twin: every readable file of the Parquet corpus (as parquet_device_test.cpp
// finds it) written as kcol in small row groups, each row group read on the device equals the CPU reader's result;
// corrupted copies fail on the device with the CPU reader's error class and message, never a crash.

#include <unistd.h>

#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "gpu_test_env.hpp"
#include "parquet_corpus.hpp"
#include "io/kcol/kcol_device.hpp"
#include "io/parquet/parquet_dataset.hpp"
#include "vector/transfer.hpp"

namespace kestrel::testing {
namespace {

namespace fs = std::filesystem;


std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InvalidInput& e) {
    return std::string("InvalidInput: ") + e.what();
  } catch (const NotImplemented& e) {
    return std::string("NotImplemented: ") + e.what();
  }
  return "";
}

class KcolDeviceRead : public GpuTest {
 protected:
  /// Compares every row group of `file` read on the CPU and the GPU; returns the rows compared.
  size_t compare(const io::KcolFile& file, const std::string& what) {
    std::vector<size_t> columns;
    for (size_t c = 0; c < file.schema()->size(); ++c) columns.push_back(c);
    size_t rows = 0;
    for (size_t g = 0; g < file.num_row_groups(); ++g) {
      Batch cpu;
      const std::string cpu_error = error_of([&] { cpu = file.read_row_group(g, columns); });
      Batch gpu;
      const std::string gpu_error = error_of([&] {
        Batch device = io::read_kcol_row_group_to_device(file, g, columns, file.schema(), stream(), device_mr());
        gpu = copy_batch(device, gpu::host_memory_resource(), stream());
        stream().synchronize();
      });
      EXPECT_EQ(cpu_error, gpu_error) << what << " row group " << g;
      if (!cpu_error.empty() || !gpu_error.empty()) continue;
      for (size_t c = 0; c < columns.size(); ++c) {
        EXPECT_EQ(cpu.column(c)->null_count(), gpu.column(c)->null_count()) << what;
        size_t bad = 0;
        for (size_t r = 0; r < cpu.num_rows() && bad < 3; ++r) {
          const std::string x = cpu.column(c)->value_at(r).to_string(), y = gpu.column(c)->value_at(r).to_string();
          if (x != y) {
            ++bad;
            ADD_FAILURE() << what << " row group " << g << " column " << c << " row " << r << ": CPU " << x
                          << ", GPU " << y;
          }
        }
      }
      rows += cpu.num_rows();
    }
    return rows;
  }
};

TEST_F(KcolDeviceRead, CorpusAsKcolMatchesTheCpuReader) {
  const auto files = parquet_corpus_files();
  ASSERT_FALSE(files.empty()) << "no Parquet corpus found (set KESTREL_PARQUET_CORPUS)";
  const fs::path dir = fs::temp_directory_path() / ("kestrel-kcol-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  size_t written = 0, rows = 0, corrupted = 0;
  std::mt19937_64 rng(9);
  for (const std::string& path : files) {
    std::vector<Batch> batches;
    SchemaPtr schema;
    try {
      auto data = io::ParquetDataset::open(path);
      std::vector<size_t> columns;
      for (size_t c = 0; c < data->schema()->size(); ++c) columns.push_back(c);
      for (const auto& ref : data->row_groups()) batches.push_back(data->read(ref, columns));
      schema = data->schema();
    } catch (const Error&) {
      continue;  // not readable as Parquet: nothing to convert
    }
    if (schema->size() == 0) continue;
    const std::string target = (dir / (fs::path(path).stem().string() + ".kcol")).string();
    io::write_kcol_file(target, *schema, batches, {{"row_group_size", "700"}});
    ++written;
    rows += compare(*io::KcolFile::open(target), path);
    // Corrupted copies: bytes flipped in the chunks (data checks on the device) and in the footer.
    std::vector<uint8_t> bytes(fs::file_size(target));
    FILE* f = std::fopen(target.c_str(), "rb");
    ASSERT_EQ(std::fread(bytes.data(), 1, bytes.size(), f), bytes.size());
    std::fclose(f);
    for (int k = 0; k < 4; ++k) {
      auto copy = std::make_shared<std::vector<uint8_t>>(bytes);
      (*copy)[8 + rng() % (copy->size() - 20)] ^= static_cast<uint8_t>(1u << (rng() % 8));
      std::shared_ptr<const io::KcolFile> bad;
      if (!error_of([&] { bad = io::KcolFile::open_buffer(target, copy); }).empty()) continue;
      compare(*bad, path + " (corrupted)");
      ++corrupted;
    }
  }
  fs::remove_all(dir);
  std::printf("kcol device corpus: %zu files written as kcol, %zu rows compared, %zu corrupted copies\n", written, rows,
              corrupted);
  EXPECT_GT(written, 0u);
  EXPECT_GT(rows, 0u);
}

}  // namespace
}  // namespace kestrel::testing
