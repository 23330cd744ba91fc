// The GPU Parquet writer against its CPU twin: device batches of every writable type (nulls, plain and dictionary
// strings, row groups that span batches, many small pages) written with the device encoder read back equal to the
// source through the CPU reader, for each codec path (nvCOMP SNAPPY, host-compressed ZSTD, UNCOMPRESSED); the
// chunks' statistics equal the CPU writer's where the device path writes them (infinities included); fallbacks
// (BOOLEAN, wide DECIMAL, NULL in a NOT NULL field) behave as the CPU writer does; a dictionary of one entry.

#include <unistd.h>

#include <filesystem>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "gpu_test_env.hpp"
#include "io/parquet/parquet_dataset.hpp"
#include "io/parquet/writer/parquet_writer.hpp"
#include "test_batches.hpp"
#include "vector/gather.hpp"
#include "vector/transfer.hpp"

namespace kestrel::testing {
namespace {

namespace fs = std::filesystem;

/// make_all_types_batch without INTERVAL (Parquet cannot hold it), plus DECIMAL(7,2) (INT32 in Parquet), long and
/// empty strings, and a dictionary column whose dictionary has unused entries.
Batch writable_batch(size_t rows, uint64_t seed) {
  Batch all = make_all_types_batch(rows, seed);
  std::vector<Field> fields;
  std::vector<ColumnPtr> columns;
  for (size_t c = 0; c < all.num_columns(); ++c) {
    if (all.schema()->field(c).type.id() == TypeId::kInterval) continue;
    fields.push_back(all.schema()->field(c));
    columns.push_back(all.column(c));
  }
  std::mt19937_64 rng(seed + 1);
  std::vector<Value> small, text;
  for (size_t r = 0; r < rows; ++r) {
    small.push_back(rng() % 7 == 0 ? Value::null(LogicalType::decimal(7, 2))
                                   : Value::decimal(static_cast<int64_t>(rng() % 19999999) - 9999999, 7, 2));
    const size_t kind = rng() % 10;
    text.push_back(kind == 0 ? Value::null(TypeId::kVarchar)
                   : kind == 1 ? Value::varchar("")
                   : kind == 2 ? Value::varchar(std::string(3000 + rng() % 2000, static_cast<char>('a' + rng() % 26)))
                               : Value::varchar("v" + std::to_string(rng() % 100000)));
  }
  fields.push_back({"dec7", LogicalType::decimal(7, 2)});
  columns.push_back(Column::from_values(LogicalType::decimal(7, 2), small));
  fields.push_back({"text", TypeId::kVarchar});
  columns.push_back(Column::from_values(TypeId::kVarchar, text));
  std::vector<int> choices;
  for (size_t r = 0; r < rows; ++r) choices.push_back(rng() % 9 == 0 ? -1 : static_cast<int>(rng() % 6));
  fields.push_back({"dict_unused", TypeId::kVarchar});
  columns.push_back(rotated_dictionary_column({"a", "bb", "ccc", "dddd", "eeeee", "ffffff", "unused"}, choices, 0));
  std::vector<int> single;
  for (size_t r = 0; r < rows; ++r) single.push_back(rng() % 5 == 0 ? -1 : 0);
  fields.push_back({"dict_one_entry", TypeId::kVarchar});
  columns.push_back(rotated_dictionary_column({"only"}, single, 0));
  // Infinities: a chunk of +inf only bounds at +inf, as the CPU writer bounds it.
  std::vector<Value> infinite, mixed;
  const double inf = std::numeric_limits<double>::infinity();
  for (size_t r = 0; r < rows; ++r) {
    infinite.push_back(r % 11 == 0 ? Value::null(TypeId::kDouble) : Value::double_value(inf));
    mixed.push_back(Value::double_value(r % 3 == 0 ? -inf : r % 3 == 1 ? inf : 0.5));
  }
  fields.push_back({"plus_infinity", TypeId::kDouble});
  columns.push_back(Column::from_values(TypeId::kDouble, infinite));
  fields.push_back({"infinities", TypeId::kDouble});
  columns.push_back(Column::from_values(TypeId::kDouble, mixed));
  return Batch(std::make_shared<Schema>(fields), std::move(columns), rows, gpu::MemoryKind::kHost);
}

class ParquetDeviceWrite : public GpuTest {
 protected:
  std::string temp(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / ("kestrel-device-write-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    return (dir / name).string();
  }

  /// Writes `batches` with the device encoder (device copies) or the CPU encoder.
  void write(const std::string& path, const std::vector<Batch>& batches, const io::ParquetWriterOptions& options,
             bool device) {
    auto writer = io::ParquetWriter::open(path, *batches.front().schema(), options);
    if (device) writer->enable_device(device_mr(), &stats_);
    for (const Batch& b : batches) {
      if (device) {
        Batch d = copy_batch(b, device_mr(), stream());
        stream().synchronize();
        writer->write(d);
      } else {
        writer->write(b);
      }
    }
    writer->close();
  }

  /// The file's rows as one host batch (CPU reader).
  Batch read_back(const std::string& path) {
    auto data = io::ParquetDataset::open(path);
    std::vector<size_t> columns;
    for (size_t c = 0; c < data->schema()->size(); ++c) columns.push_back(c);
    std::vector<Batch> parts;
    for (const auto& ref : data->row_groups()) parts.push_back(data->read(ref, columns));
    return concat_batches(parts, data->project_schema(columns));
  }

  io::parquet::DeviceWriteStats stats_;
};

TEST_F(ParquetDeviceWrite, EveryWritableTypeReadsBackEqualForEachCodecPath) {
  std::vector<Batch> batches;
  for (uint64_t seed = 0; seed < 3; ++seed) batches.push_back(writable_batch(5000 + seed * 311, 100 + seed));
  const Batch source = concat_batches(batches, batches.front().schema());
  for (const char* codec : {"snappy", "zstd", "uncompressed"}) {
    io::ParquetWriterOptions options;
    options.set("compression", codec);
    options.set("row_group_size", "7000");  // row groups span batches
    options.set("page_size", "8192");       // many pages per chunk
    const std::string gpu_path = temp(std::string("gpu-") + codec + ".parquet");
    const std::string cpu_path = temp(std::string("cpu-") + codec + ".parquet");
    write(gpu_path, batches, options, true);
    write(cpu_path, batches, options, false);
    expect_same_values(source, read_back(gpu_path), std::string("device writer, ") + codec);
    // Statistics: the device path writes NULL counts everywhere and min/max for fixed-width columns, as the CPU
    // writer does.
    auto gpu_file = io::ParquetDataset::open(gpu_path);
    auto cpu_file = io::ParquetDataset::open(cpu_path);
    const auto& g = gpu_file->files().front()->metadata();
    const auto& h = cpu_file->files().front()->metadata();
    ASSERT_EQ(g.row_groups.size(), h.row_groups.size());
    for (size_t rg = 0; rg < g.row_groups.size(); ++rg) {
      for (size_t c = 0; c < source.num_columns(); ++c) {
        const auto& gs = g.row_groups[rg].columns[c].meta_data->statistics;
        const auto& hs = h.row_groups[rg].columns[c].meta_data->statistics;
        ASSERT_TRUE(gs.has_value() && hs.has_value());
        const std::string what = std::string(codec) + " row group " + std::to_string(rg) + " column " +
                                 source.schema()->field(c).name;
        EXPECT_EQ(gs->null_count, hs->null_count) << what;
        if (source.schema()->field(c).type.id() != TypeId::kVarchar) {
          EXPECT_EQ(gs->min_value, hs->min_value) << what;
          EXPECT_EQ(gs->max_value, hs->max_value) << what;
        }
      }
    }
  }
  EXPECT_GT(stats_.chunks_device.load(), 0u);
  EXPECT_GT(stats_.chunks_host.load(), 0u);  // BOOLEAN and DECIMAL(38,10)
  EXPECT_GT(stats_.pages.load(), 100u);
  std::printf("device writer: %llu chunks on the device, %llu on the host, %llu pages\n",
              static_cast<unsigned long long>(stats_.chunks_device.load()),
              static_cast<unsigned long long>(stats_.chunks_host.load()),
              static_cast<unsigned long long>(stats_.pages.load()));
}

TEST_F(ParquetDeviceWrite, DictionaryPastTheLimitIsWrittenPlainAndReadsBackEqual) {
  const Batch b = writable_batch(4000, 7);
  io::ParquetWriterOptions options;
  options.set("dictionary_size_limit", "4");
  const std::string path = temp("small-dictionary.parquet");
  write(path, {b}, options, true);
  expect_same_values(b, read_back(path), "dictionary over the limit");
}

TEST_F(ParquetDeviceWrite, NullInANotNullFieldFailsAsOnTheCpu) {
  std::vector<Value> values{Value::integer(1), Value::null(TypeId::kInteger), Value::integer(3)};
  std::vector<Field> fields{{"x", TypeId::kInteger, false}};
  Batch b(std::make_shared<Schema>(fields), {Column::from_values(TypeId::kInteger, values)}, 3, gpu::MemoryKind::kHost);
  std::string gpu_error, cpu_error;
  try {
    write(temp("notnull-gpu.parquet"), {b}, {}, true);
  } catch (const InvalidInput& e) {
    gpu_error = e.what();
  }
  try {
    write(temp("notnull-cpu.parquet"), {b}, {}, false);
  } catch (const InvalidInput& e) {
    cpu_error = e.what();
  }
  EXPECT_NE(gpu_error.find("NOT NULL but holds a NULL"), std::string::npos) << gpu_error;
  EXPECT_NE(cpu_error.find("NOT NULL but holds a NULL"), std::string::npos) << cpu_error;
}

}  // namespace
}  // namespace kestrel::testing
