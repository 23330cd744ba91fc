// The GPU kcol reader against its CPU twin: every readable file of the Parquet corpus (as parquet_device_test.cpp
// finds it) written as kcol in small row groups, each row group read on the device equals the CPU reader's result;
// corrupted copies fail on the device with the CPU reader's error class and message, never a crash.

#include <unistd.h>

#include <chrono>
#include <cstdio>
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
#include "vector/gather.hpp"
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
        Batch device = io::read_kcol_to_device({{&file, g}}, columns, file.schema(), stream(), device_mr());
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

  /// Every row group of `file` as one device batch (row groups side by side, dictionaries concatenated) against
  /// the CPU reader's row groups concatenated; both fail or neither does. Returns the rows compared.
  size_t compare_whole(const io::KcolFile& file, const std::string& what) {
    std::vector<size_t> columns;
    for (size_t c = 0; c < file.schema()->size(); ++c) columns.push_back(c);
    std::vector<io::KcolPart> parts;
    std::vector<Batch> groups;
    const std::string cpu_error = error_of([&] {
      for (size_t g = 0; g < file.num_row_groups(); ++g) {
        parts.emplace_back(&file, g);
        groups.push_back(file.read_row_group(g, columns));
      }
    });
    // Read directly, and staged ahead with the bytes copied on another stream (as a scan's read-ahead does).
    for (int ahead = 0; ahead < 2; ++ahead) {
      Batch gpu;
      const std::string gpu_error = error_of([&] {
        gpu::OwnedStream upload_stream;
        const io::StageUpload upload{upload_stream.view(), &device_mr()};
        Batch device = ahead == 0 ? io::read_kcol_to_device(parts, columns, file.schema(), stream(), device_mr())
                                  : io::decode_staged_kcol(*io::stage_kcol(parts, columns, &upload), file.schema(),
                                                           stream(), device_mr(), nullptr);
        gpu = copy_batch(device, gpu::host_memory_resource(), stream());
        stream().synchronize();
      });
      EXPECT_EQ(cpu_error.empty(), gpu_error.empty())
          << what << (ahead ? " (staged ahead)" : "") << ": CPU '" << cpu_error << "', GPU '" << gpu_error << "'";
      if (!cpu_error.empty() || !gpu_error.empty() || groups.empty()) return 0;
      compare_batches(concat_batches(groups, file.schema()), gpu, what + (ahead ? " (whole file, staged ahead)" : " (whole file)"));
    }
    return concat_rows(groups);
  }

  static size_t concat_rows(const std::vector<Batch>& groups) {
    size_t rows = 0;
    for (const Batch& b : groups) rows += b.num_rows();
    return rows;
  }

  void compare_batches(const Batch& cpu, const Batch& gpu, const std::string& what) {
    EXPECT_EQ(cpu.num_rows(), gpu.num_rows()) << what;
    ASSERT_EQ(cpu.num_columns(), gpu.num_columns()) << what;
    for (size_t c = 0; c < cpu.num_columns(); ++c) {
      EXPECT_EQ(cpu.column(c)->null_count(), gpu.column(c)->null_count()) << what << " column " << c;
      size_t bad = 0;
      for (size_t r = 0; r < cpu.num_rows() && bad < 3; ++r) {
        const std::string x = cpu.column(c)->value_at(r).to_string(), y = gpu.column(c)->value_at(r).to_string();
        if (x != y) {
          ++bad;
          ADD_FAILURE() << what << " column " << c << " row " << r << ": CPU " << x << ", GPU " << y;
        }
      }
    }
  }
};

// Long, compressible strings: sections big enough for compressed frames (LZ4, the default, and zstd), as plain
// strings and as dictionaries, with NULLs, read row group by row group and as one batch, and row groups of both
// codecs in one batch; a flipped byte inside a frame fails like the CPU reader.
TEST_F(KcolDeviceRead, CompressedStringFramesMatchTheCpuReader) {
  const size_t rows = 120000;
  std::vector<Value> text, words, ids;
  std::mt19937_64 rng(4);
  const char* vocabulary[] = {"quick", "furious", "pending", "deposits", "sleep", "carefully", "final", "ideas"};
  for (size_t r = 0; r < rows; ++r) {
    std::string t;
    for (int w = 0; w < 6; ++w) t += std::string(vocabulary[rng() % 8]) + (w < 5 ? " " : "");
    text.push_back(r % 97 == 0 ? Value::null(TypeId::kVarchar) : Value::varchar(t + " #" + std::to_string(r)));
    words.push_back(Value::varchar(std::string(vocabulary[rng() % 8]) + "-" + std::to_string(rng() % 3000) +
                                   std::string(40, 'x')));
    ids.push_back(Value::bigint(static_cast<int64_t>(r * 7)));
  }
  auto schema = std::make_shared<const Schema>(std::vector<Field>{
      Field{"text", TypeId::kVarchar, true}, Field{"word", TypeId::kVarchar, true}, Field{"id", TypeId::kBigInt, true}});
  std::vector<Batch> batches{Batch(schema,
                                   {Column::from_values(TypeId::kVarchar, text), Column::from_values(TypeId::kVarchar, words),
                                    Column::from_values(TypeId::kBigInt, ids)},
                                   rows, gpu::MemoryKind::kHost)};
  std::vector<std::shared_ptr<const io::KcolFile>> opened;
  for (const std::string codec : {"lz4", "zstd"}) {
  SCOPED_TRACE(codec);
  const fs::path path =
      fs::temp_directory_path() / ("kestrel-kcol-frames-" + codec + std::to_string(::getpid()) + ".kcol");
  io::write_kcol_file(path.string(), *schema, batches, {{"row_group_size", "50000"}, {"string_compression", codec}});
  auto file = io::KcolFile::open(path.string());
  opened.push_back(file);
  size_t compressed = 0, dictionaries = 0;
  for (size_t g = 0; g < file->num_row_groups(); ++g) {
    for (size_t c = 0; c < 2; ++c) {
      compressed += file->footer().chunk(g, c).bytes_codec != io::kcol::BytesCodec::kNone ? 1 : 0;
      dictionaries += file->footer().chunk(g, c).encoding == io::kcol::Encoding::kDictionary ? 1 : 0;
    }
  }
  EXPECT_GE(compressed, 3u) << "the test needs compressed string sections";
  EXPECT_GE(dictionaries, 1u) << "the test needs dictionary chunks";
  EXPECT_EQ(compare(*file, "frames"), rows);
  EXPECT_EQ(compare_whole(*file, "frames"), rows);
  // A byte flipped in the middle of the first compressed section.
  std::vector<uint8_t> bytes(fs::file_size(path));
  FILE* f = std::fopen(path.c_str(), "rb");
  ASSERT_EQ(std::fread(bytes.data(), 1, bytes.size(), f), bytes.size());
  std::fclose(f);
  fs::remove(path);
  for (size_t g = 0; g < file->num_row_groups(); ++g) {
    const auto& m = file->footer().chunk(g, 0);
    if (m.bytes_codec == io::kcol::BytesCodec::kNone) continue;
    auto copy = std::make_shared<std::vector<uint8_t>>(bytes);
    (*copy)[m.offset + m.data_offset + m.data_size / 2] ^= 0x5a;
    auto bad = io::KcolFile::open_buffer(path.string(), copy);
    compare(*bad, "frames (corrupted)");
    compare_whole(*bad, "frames (corrupted)");
    break;
  }
  }
  // Row groups of both files in one batch: a zstd batch and an LZ4 batch of nvCOMP.
  std::vector<io::KcolPart> parts;
  std::vector<Batch> groups;
  for (size_t g = 0; g < opened[0]->num_row_groups(); ++g) {
    for (const auto& file : opened) {
      parts.emplace_back(file.get(), g);
      groups.push_back(file->read_row_group(g, {0, 1, 2}));
    }
  }
  Batch device = io::read_kcol_to_device(parts, {0, 1, 2}, opened[0]->schema(), stream(), device_mr());
  Batch gpu = copy_batch(device, gpu::host_memory_resource(), stream());
  stream().synchronize();
  EXPECT_EQ(gpu.num_rows(), 2 * rows);
  compare_batches(concat_batches(groups, opened[0]->schema()), gpu, "lz4 and zstd row groups in one batch");
}

TEST_F(KcolDeviceRead, CorpusAsKcolMatchesTheCpuReader) {
  const auto files = parquet_corpus_files();
  ASSERT_FALSE(files.empty()) << "no Parquet corpus found (set KESTREL_PARQUET_CORPUS)";
  const fs::path dir = fs::temp_directory_path() / ("kestrel-kcol-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  size_t written = 0, rows = 0, corrupted = 0;
  std::mt19937_64 rng(9);
  for (const std::string& path : files) {
    const auto started = std::chrono::steady_clock::now();
    struct SlowFile {  // a file that takes long says so, whatever ends its turn
      const std::string& path;
      std::chrono::steady_clock::time_point started;
      ~SlowFile() {
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        if (s > 2.0) std::printf("kcol device corpus: %s took %.1f s\n", path.c_str(), s);
      }
    } slow{path, started};
    std::vector<Batch> batches;
    SchemaPtr schema;
    try {
      auto data = io::ParquetDataset::open(path);
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
    relabel_varbinary_as_varchar(schema, batches);
    const std::string target = (dir / (fs::path(path).stem().string() + ".kcol")).string();
    io::write_kcol_file(target, *schema, batches, {{"row_group_size", "700"}});
    ++written;
    rows += compare(*io::KcolFile::open(target), path);
    compare_whole(*io::KcolFile::open(target), path);
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
      compare_whole(*bad, path + " (corrupted)");
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
