// The CPU kcol reader on corrupted files: every readable file of the Parquet corpus (test/gpu/parquet_corpus.hpp:
// $KESTREL_PARQUET_CORPUS, else the shared parquet-testing files) written as kcol in small row groups, read whole,
// then copies with one bit flipped at seeded random places read the same way. Each read either succeeds or fails
// with InvalidInput or NotImplemented naming the file: never another error class, never a crash (an all-NULL
// dictionary column once sent the concatenation past its offsets, asking the host for 8 EiB). The GPU reader's twin
// test (test/gpu/kcol_device_test.cpp) flips the same way.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "../../gpu/parquet_corpus.hpp"
#include "common/error.hpp"
#include "io/kcol/kcol_file.hpp"
#include "io/parquet/parquet_dataset.hpp"
#include "vector/gather.hpp"

namespace kestrel::io {
namespace {

namespace fs = std::filesystem;

/// Reads every row group of `file` with all columns; the error's class and text, or "" when all reads succeed.
std::string read_all(const KcolFile& file) {
  std::vector<size_t> columns;
  for (size_t c = 0; c < file.schema()->size(); ++c) columns.push_back(c);
  try {
    std::vector<Batch> groups;
    for (size_t g = 0; g < file.num_row_groups(); ++g) groups.push_back(file.read_row_group(g, columns));
    if (!groups.empty()) (void)concat_batches(groups, file.schema());  // as a whole-file read does
  } catch (const InvalidInput& e) {
    return std::string("InvalidInput: ") + e.what();
  } catch (const NotImplemented& e) {
    return std::string("NotImplemented: ") + e.what();
  }
  return "";
}

TEST(KcolCorrupt, FlippedBitsFailCleanlyOnTheCpu) {
  const auto files = testing::parquet_corpus_files();
  ASSERT_FALSE(files.empty()) << "no Parquet corpus found";
  const fs::path dir = fs::temp_directory_path() / ("kestrel-kcol-corrupt-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  size_t written = 0, corrupted = 0, failed_cleanly = 0;
  std::mt19937_64 rng(9);
  for (const std::string& path : files) {
    std::vector<Batch> batches;
    SchemaPtr schema;
    try {
      auto data = ParquetDataset::open(path);
      std::vector<size_t> columns;  // kcol holds flat columns only
      for (size_t c = 0; c < data->schema()->size(); ++c) {
        if (!data->schema()->field(c).type.is_nested()) columns.push_back(c);
      }
      for (const auto& ref : data->row_groups()) batches.push_back(data->read(ref, columns));
      schema = data->project_schema(columns);
    } catch (const Error&) {
      continue;  // not readable as Parquet: nothing to convert
    }
    if (schema->size() == 0) continue;
    const std::string target = (dir / (fs::path(path).stem().string() + ".kcol")).string();
    write_kcol_file(target, *schema, batches, {{"row_group_size", "700"}});
    ++written;
    EXPECT_EQ(read_all(*KcolFile::open(target)), "") << path;
    std::vector<uint8_t> bytes(fs::file_size(target));
    FILE* f = std::fopen(target.c_str(), "rb");
    ASSERT_EQ(std::fread(bytes.data(), 1, bytes.size(), f), bytes.size());
    std::fclose(f);
    for (int k = 0; k < 16; ++k) {
      auto copy = std::make_shared<std::vector<uint8_t>>(bytes);
      const size_t at = 8 + rng() % (copy->size() - 20);
      const int bit = static_cast<int>(rng() % 8);
      (*copy)[at] ^= static_cast<uint8_t>(1u << bit);
      std::shared_ptr<const KcolFile> bad;
      try {
        bad = KcolFile::open_buffer(target, copy);
      } catch (const InvalidInput&) {
        ++failed_cleanly;
        continue;
      } catch (const Error& e) {
        ADD_FAILURE() << path << ": byte " << at << " bit " << bit << ": opening gave " << e.what();
        continue;
      }
      ++corrupted;
      try {
        if (!read_all(*bad).empty()) ++failed_cleanly;
      } catch (const std::exception& e) {
        ADD_FAILURE() << path << ": byte " << at << " bit " << bit << ": reading gave " << e.what();
      }
    }
  }
  fs::remove_all(dir);
  EXPECT_GT(written, 10u);
  EXPECT_GT(corrupted, 0u);
  EXPECT_GT(failed_cleanly, 0u);
}

}  // namespace
}  // namespace kestrel::io
