// The GPU kcol writer against its CPU twin: device batches of every storable type (nulls, plain and dictionary
// strings, row groups that span batches, a partial last block) written with the device encoder read back equal to
// the source through the CPU reader, and their chunks carry the CPU writer's null counts, encodings (string chunks
// aside: the device path keeps a shared dictionary and never compresses) and PACKED min/max.

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "gpu_test_env.hpp"
#include "io/kcol/kcol_file.hpp"
#include "test_batches.hpp"
#include "vector/gather.hpp"
#include "vector/transfer.hpp"

namespace kestrel::testing {
namespace {

namespace fs = std::filesystem;

class KcolDeviceWrite : public GpuTest {};

TEST_F(KcolDeviceWrite, EveryStorableTypeReadsBackEqual) {
  std::vector<Batch> host, device;
  for (uint64_t seed = 0; seed < 3; ++seed) {
    host.push_back(make_all_types_batch(3000 + seed * 517, 40 + seed));
    device.push_back(copy_batch(host.back(), device_mr(), stream()));
  }
  stream().synchronize();
  const SchemaPtr schema = host.front().schema();
  const Batch source = concat_batches(host, schema);
  const fs::path dir = fs::temp_directory_path() / ("kestrel-kcol-write-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string gpu_path = (dir / "gpu.kcol").string(), cpu_path = (dir / "cpu.kcol").string();
  const std::vector<std::pair<std::string, std::string>> options{{"row_group_size", "4000"}};
  ASSERT_EQ(io::write_kcol_file(gpu_path, *schema, device, options, &device_mr()), source.num_rows());
  ASSERT_EQ(io::write_kcol_file(cpu_path, *schema, host, options), source.num_rows());

  auto gpu = io::KcolDataset::open(gpu_path);
  auto cpu = io::KcolDataset::open(cpu_path);
  std::vector<size_t> columns;
  for (size_t c = 0; c < schema->size(); ++c) columns.push_back(c);
  std::vector<Batch> parts;
  for (const auto& ref : gpu->row_groups()) parts.push_back(gpu->read(ref, columns));
  const Batch back = concat_batches(parts, schema);
  expect_same_values(source, back, "device kcol writer");
  const auto& g = gpu->files().front()->footer();
  const auto& h = cpu->files().front()->footer();
  ASSERT_EQ(g.chunks.size(), h.chunks.size());
  for (size_t i = 0; i < g.chunks.size(); ++i) {
    const size_t c = i % schema->size();
    const std::string what = "chunk " + std::to_string(i) + " column " + schema->field(c).name;
    EXPECT_EQ(g.chunks[i].null_count, h.chunks[i].null_count) << what;
    if (schema->field(c).type.id() == TypeId::kVarchar) continue;
    EXPECT_EQ(g.chunks[i].encoding, h.chunks[i].encoding) << what;
    EXPECT_EQ(g.chunks[i].min, h.chunks[i].min) << what;
    EXPECT_EQ(g.chunks[i].max, h.chunks[i].max) << what;
    EXPECT_EQ(g.chunks[i].block_count, h.chunks[i].block_count) << what;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace kestrel::testing
