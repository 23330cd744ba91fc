// kestrel-gpu-scan-bench h2d GIB
//   Pinned host-to-device copy bandwidth of one cudaMemcpyAsync of GIB GiB (best of 5).
// kestrel-gpu-scan-bench kcol PATH
//   Every chunk of a kcol file copied to device memory once, then all its PACKED and DICTIONARY blocks unpacked by
//   one launch (best of 5); prints the unpacked bytes per second (the other encodings are plain copies).
// kestrel-gpu-scan-bench io PATH [GIB]
//   The first GIB GiB (default 16) of the file at PATH (read once first, so it sits in the OS page cache) moved into
//   device memory three ways: pread into pinned memory with 1 to 16 threads then one copy; the file mapped and
//   registered with cudaHostRegister (read-only), then one copy straight from the mapping; and the registration's
//   own cost. Tells which host path a warm scan should take.
// kestrel-gpu-scan-bench decode PATH [ROWS_PER_BATCH] [STREAMS] [COLUMNS]
//   Every column (or those named in the comma-separated COLUMNS) of the Parquet dataset at PATH cut into batches of whole row groups (about ROWS_PER_BATCH rows,
//   default 2^25), staged in device memory once, then decompressed and decoded on the device STREAMS batches at a
//   time (default 4), best of 3; prints the decoded column bytes per second and the compressed bytes per second.

#include <cuda_runtime.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "common/error.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/memory_resource.hpp"
#include "gpu/pinned_pool.hpp"
#include "gpu/pull_copy.hpp"
#include "gpu/stream.hpp"
#include "io/kcol/kcol_device.hpp"
#include "io/parquet/device/device_reader.hpp"

namespace kestrel {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int h2d(double gib) {
  const size_t bytes = static_cast<size_t>(gib * (1ull << 30));
  gpu::PinnedBlock host = gpu::acquire_pinned(bytes);
  std::memset(host.data(), 1, bytes);
  gpu::OwnedStream stream;
  gpu::DevicePoolMemoryResource mr(0);
  void* device = mr.allocate(bytes, stream);
  double best = 1e9;
  for (int i = 0; i < 5; ++i) {
    auto start = std::chrono::steady_clock::now();
    KESTREL_CUDA_CHECK(cudaMemcpyAsync(device, host.data(), bytes, cudaMemcpyHostToDevice, stream.view().handle()));
    stream.view().synchronize();
    best = std::min(best, seconds_since(start));
  }
  mr.deallocate(device, bytes, stream);
  std::printf("h2d: %.2f GiB pinned in %.4f s: %.1f GB/s\n", gib, best, static_cast<double>(bytes) / best / 1e9);
  return 0;
}

/// Many copies of one size from a registered page-cache mapping (as a GPU scan makes them, a column chunk each):
/// one cudaMemcpyAsync per copy, one cudaMemcpyBatchAsync for all, and the SMs pulling them in one kernel with
/// several grid sizes. Pieces are every other slice of the file, so no two are adjacent.
int copy_shapes(const std::string& path, double gib) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) throw IoError("cannot open '" + path + "'");
  struct stat st{};
  ::fstat(fd, &st);
  const size_t bytes = std::min<size_t>(static_cast<size_t>(st.st_size), static_cast<size_t>(gib * (1ull << 30))) &
                       ~size_t{(1u << 20) - 1};
  std::vector<uint8_t> sink(size_t{8} << 20);
  for (size_t at = 0; at < bytes; at += sink.size()) {
    if (::pread(fd, sink.data(), std::min(sink.size(), bytes - at), static_cast<off_t>(at)) < 0) std::abort();
  }
  void* map = ::mmap(nullptr, bytes, PROT_READ, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) throw IoError("mmap failed");
  KESTREL_CUDA_CHECK(cudaHostRegister(map, bytes, cudaHostRegisterReadOnly | cudaHostRegisterMapped));
  void* mapped_device = nullptr;
  KESTREL_CUDA_CHECK(cudaHostGetDevicePointer(&mapped_device, map, 0));
  gpu::OwnedStream stream;
  gpu::DevicePoolMemoryResource mr(0);
  auto* device = static_cast<uint8_t*>(mr.allocate(bytes, stream));
  const cudaStream_t s = stream.view().handle();
  gpu::Event begin(true), end(true);
  auto best_of = [&](auto&& body) {
    float best = 1e9f;
    for (int run = 0; run < 3; ++run) {
      begin.record(stream.view());
      body();
      end.record(stream.view());
      stream.view().synchronize();
      best = std::min(best, end.elapsed_ms_since(begin));
    }
    return best;
  };
  std::printf("copies: %s, %.2f GB registered; host pointer %s the device pointer\n", path.c_str(), bytes / 1e9,
              mapped_device == map ? "is" : "is not");
  best_of([&] { KESTREL_CUDA_CHECK(cudaMemcpyAsync(device, map, bytes, cudaMemcpyHostToDevice, s)); });
  const float whole = best_of([&] { KESTREL_CUDA_CHECK(cudaMemcpyAsync(device, map, bytes, cudaMemcpyHostToDevice, s)); });
  std::printf("copies: one copy of everything %.1f GB/s\n", bytes / (whole * 1e6));
  for (size_t piece : {size_t{256} << 10, size_t{1} << 20, size_t{4} << 20, size_t{16} << 20}) {
    std::vector<void*> dsts;
    std::vector<const void*> srcs, dev_srcs;
    std::vector<size_t> sizes;
    std::vector<gpu::PullPiece> pulls;
    for (size_t at = 0; at + piece <= bytes; at += 2 * piece) {
      dsts.push_back(device + at);
      srcs.push_back(static_cast<const uint8_t*>(map) + at);
      sizes.push_back(piece);
      pulls.push_back(gpu::PullPiece{static_cast<const uint8_t*>(mapped_device) + at, device + at, piece});
    }
    const double moved = static_cast<double>(piece) * sizes.size();
    const float each = best_of([&] {
      for (size_t i = 0; i < sizes.size(); ++i) {
        KESTREL_CUDA_CHECK(cudaMemcpyAsync(dsts[i], srcs[i], sizes[i], cudaMemcpyHostToDevice, s));
      }
    });
    cudaMemcpyAttributes attrs{};
    attrs.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    size_t attr_index = 0;
    float batch = -1;
    const cudaError_t probe = cudaMemcpyBatchAsync(dsts.data(), const_cast<const void**>(srcs.data()), sizes.data(),
                                                   sizes.size(), &attrs, &attr_index, 1, s);
    if (probe == cudaSuccess) {
      batch = best_of([&] {
        KESTREL_CUDA_CHECK(cudaMemcpyBatchAsync(dsts.data(), const_cast<const void**>(srcs.data()), sizes.data(),
                                                sizes.size(), &attrs, &attr_index, 1, s));
      });
    } else {
      std::printf("copies: cudaMemcpyBatchAsync: %s\n", cudaGetErrorString(probe));
      cudaGetLastError();
    }
    auto* table = static_cast<gpu::PullPiece*>(mr.allocate(pulls.size() * sizeof(gpu::PullPiece), stream));
    KESTREL_CUDA_CHECK(cudaMemcpyAsync(table, pulls.data(), pulls.size() * sizeof(gpu::PullPiece),
                                       cudaMemcpyHostToDevice, s));
    std::printf("copies: %zu of %zu KiB: each its own copy %.1f GB/s, one batch %.1f GB/s, pulled by",
                sizes.size(), piece >> 10, moved / (each * 1e6), batch > 0 ? moved / (batch * 1e6) : 0.0);
    for (unsigned blocks : {16u, 33u, 66u, 132u, 264u, 528u}) {
      const float pulled = best_of([&] { gpu::pull_pieces_to_device(table, pulls.size(), blocks, stream.view()); });
      std::printf(" %u blocks %.1f,", blocks, moved / (pulled * 1e6));
    }
    std::printf(" GB/s\n");
    mr.deallocate(table, pulls.size() * sizeof(gpu::PullPiece), stream);
  }
  // Check that the pulled bytes are the file's.
  std::vector<uint8_t> back(size_t{1} << 20);
  KESTREL_CUDA_CHECK(cudaMemcpyAsync(back.data(), device, back.size(), cudaMemcpyDeviceToHost, s));
  stream.view().synchronize();
  std::printf("copies: first MiB %s the file's\n", std::memcmp(back.data(), map, back.size()) == 0 ? "equals" : "DIFFERS FROM");
  mr.deallocate(device, bytes, stream);
  KESTREL_CUDA_CHECK(cudaHostUnregister(map));
  ::munmap(map, bytes);
  ::close(fd);
  return 0;
}

int io_paths(const std::string& path, double gib) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) throw IoError("cannot open '" + path + "'");
  struct stat st{};
  ::fstat(fd, &st);
  const size_t bytes = std::min<size_t>(static_cast<size_t>(st.st_size), static_cast<size_t>(gib * (1ull << 30))) &
                       ~size_t{4095};
  constexpr size_t kPiece = size_t{8} << 20;
  gpu::PinnedBlock host = gpu::acquire_pinned(bytes);
  gpu::OwnedStream stream;
  gpu::DevicePoolMemoryResource mr(0);
  void* device = mr.allocate(bytes, stream);
  auto pread_all = [&](size_t threads) {
    std::atomic<size_t> next{0};
    std::vector<std::thread> pool;
    for (size_t t = 0; t < threads; ++t) {
      pool.emplace_back([&] {
        for (size_t at = next.fetch_add(kPiece); at < bytes; at = next.fetch_add(kPiece)) {
          const size_t n = std::min(kPiece, bytes - at);
          if (::pread(fd, host.data() + at, n, static_cast<off_t>(at)) != static_cast<ssize_t>(n)) std::abort();
        }
      });
    }
    for (auto& t : pool) t.join();
  };
  pread_all(16);  // into the page cache
  const auto copy = [&](const void* src) {
    auto start = std::chrono::steady_clock::now();
    KESTREL_CUDA_CHECK(cudaMemcpyAsync(device, src, bytes, cudaMemcpyHostToDevice, stream.view().handle()));
    stream.view().synchronize();
    return seconds_since(start);
  };
  const double gb = static_cast<double>(bytes) / 1e9;
  std::printf("io: %s, %.2f GB\n", path.c_str(), gb);
  std::printf("io: pinned copy %.1f GB/s\n", gb / copy(host.data()));
  for (size_t threads : {1, 2, 4, 8, 12, 16}) {
    double best = 1e9;
    for (int run = 0; run < 2; ++run) {
      auto start = std::chrono::steady_clock::now();
      pread_all(threads);
      best = std::min(best, seconds_since(start));
    }
    std::printf("io: pread into pinned, %zu threads: %.1f GB/s\n", threads, gb / best);
  }
  for (int populate = 0; populate < 2; ++populate) {
    auto start = std::chrono::steady_clock::now();
    void* map = ::mmap(nullptr, bytes, PROT_READ, MAP_SHARED | (populate ? MAP_POPULATE : 0), fd, 0);
    if (map == MAP_FAILED) throw IoError("mmap failed");
    const double map_s = seconds_since(start);
    start = std::chrono::steady_clock::now();
    cudaError_t rc = cudaHostRegister(map, bytes, cudaHostRegisterReadOnly);
    const double reg_s = seconds_since(start);
    if (rc != cudaSuccess) {
      std::printf("io: cudaHostRegister of the mapping failed: %s\n", cudaGetErrorString(rc));
      cudaGetLastError();
      ::munmap(map, bytes);
      continue;
    }
    const double first = copy(map), second = copy(map);
    std::printf("io: mapped%s in %.3f s, registered in %.3f s (%.1f GB/s), copies from the mapping %.1f then %.1f GB/s\n",
                populate ? " with MAP_POPULATE" : "", map_s, reg_s, gb / reg_s, gb / first, gb / second);
    start = std::chrono::steady_clock::now();
    KESTREL_CUDA_CHECK(cudaHostUnregister(map));
    std::printf("io: unregistered in %.3f s\n", seconds_since(start));
    ::munmap(map, bytes);
  }
  // Registration in pieces by several threads (a scan would register what it reads, in parallel).
  {
    void* map = ::mmap(nullptr, bytes, PROT_READ, MAP_SHARED, fd, 0);
    constexpr size_t kRegPiece = size_t{256} << 20;
    std::atomic<size_t> next{0};
    std::atomic<int> failed{0};
    auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> pool;
    for (int t = 0; t < 8; ++t) {
      pool.emplace_back([&] {
        for (size_t at = next.fetch_add(kRegPiece); at < bytes; at = next.fetch_add(kRegPiece)) {
          if (cudaHostRegister(static_cast<uint8_t*>(map) + at, std::min(kRegPiece, bytes - at),
                               cudaHostRegisterReadOnly) != cudaSuccess) failed.fetch_add(1);
        }
      });
    }
    for (auto& t : pool) t.join();
    const double reg_s = seconds_since(start);
    std::printf("io: registered in 256 MiB pieces by 8 threads in %.3f s (%.1f GB/s), %d failed\n", reg_s, gb / reg_s,
                failed.load());
    if (failed.load() == 0) std::printf("io: copy from the piecewise mapping %.1f GB/s\n", gb / copy(map));
    for (size_t at = 0; at < bytes; at += kRegPiece) cudaHostUnregister(static_cast<uint8_t*>(map) + at);
    cudaGetLastError();
    ::munmap(map, bytes);
  }
  mr.deallocate(device, bytes, stream);
  ::close(fd);
  return 0;
}

int decode(const std::string& path, size_t rows_per_batch, size_t streams, const std::string& names) {
  auto data = io::ParquetDataset::open(path);
  std::vector<size_t> columns;
  for (size_t c = 0; c < data->schema()->size(); ++c) {
    const std::string& name = data->schema()->field(c).name;
    if (names.empty() || ("," + names + ",").find("," + name + ",") != std::string::npos) columns.push_back(c);
  }
  if (columns.empty()) throw InvalidInput("decode: no column of '" + path + "' is named in '" + names + "'");
  SchemaPtr schema = data->project_schema(columns);
  std::vector<std::vector<io::RowGroupRef>> batches;
  size_t rows = 0;
  for (const auto& ref : data->row_groups()) {
    if (batches.empty() || rows >= rows_per_batch) {
      batches.emplace_back();
      rows = 0;
    }
    batches.back().push_back(ref);
    rows += static_cast<size_t>(data->files()[ref.file]->row_group_num_rows(ref.row_group));
  }
  gpu::DevicePoolMemoryResource mr(0);
  gpu::OwnedStream setup;
  std::vector<std::shared_ptr<io::StagedParquet>> staged;
  std::vector<void*> resident;
  size_t compressed = 0;
  auto start = std::chrono::steady_clock::now();
  for (const auto& refs : batches) {
    staged.push_back(io::stage_parquet(*data, refs, columns));
    const size_t bytes = io::staged_bytes(*staged.back());
    void* d = mr.allocate(std::max<size_t>(bytes, 8), setup);
    io::copy_staged_to_device(*staged.back(), static_cast<uint8_t*>(d), setup.view());
    resident.push_back(d);
    compressed += bytes;
  }
  setup.view().synchronize();
  std::printf("decode: %s, %zu batches, %.2f GiB staged in %.2f s\n", path.c_str(), batches.size(),
              static_cast<double>(compressed) / (1ull << 30), seconds_since(start));
  std::vector<std::unique_ptr<gpu::OwnedStream>> owned;
  for (size_t s = 0; s < streams; ++s) owned.push_back(std::make_unique<gpu::OwnedStream>());
  double best = 1e9;
  size_t decoded = 0;
  for (int run = 0; run < 3; ++run) {
    std::atomic<size_t> next{0}, out_bytes{0};
    io::DeviceScanStats stats;
    start = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    for (size_t s = 0; s < streams; ++s) {
      threads.emplace_back([&, s] {
        gpu::Stream stream = owned[s]->view();
        try {
        for (size_t b = next++; b < batches.size(); b = next++) {
          Batch out = io::decode_staged_parquet(*staged[b], schema, stream, mr, &stats,
                                                static_cast<const uint8_t*>(resident[b]));
          size_t bytes = 0;
          for (size_t c = 0; c < out.num_columns(); ++c) bytes += out.column(c)->byte_size();
          out_bytes += bytes;
          stream.synchronize();
        }
        } catch (const std::exception& e) {
          std::fprintf(stderr, "decode failed: %s\n", e.what());
          std::fflush(stderr);
          std::_Exit(1);
        }
      });
    }
    for (auto& t : threads) t.join();
    const double t = seconds_since(start);
    best = std::min(best, t);
    decoded = out_bytes;
    std::printf("  run %d: %.3f s (%s)\n", run, t, stats.describe().c_str());
  }
  std::printf("decode: %.2f GiB of columns from %.2f GiB of pages in %.3f s: %.1f GB/s decoded, %.1f GB/s compressed\n",
              static_cast<double>(decoded) / (1ull << 30), static_cast<double>(compressed) / (1ull << 30), best,
              static_cast<double>(decoded) / best / 1e9, static_cast<double>(compressed) / best / 1e9);
  for (size_t b = 0; b < resident.size(); ++b) mr.deallocate(resident[b], std::max<size_t>(io::staged_bytes(*staged[b]), 8), setup);
  return 0;
}

int kcol_unpack(const std::string& path) {
  auto file = io::KcolFile::open(path);
  const auto& footer = file->footer();
  gpu::DevicePoolMemoryResource mr(0);
  gpu::OwnedStream stream;
  std::vector<io::kcol::UnpackJob> jobs;
  std::vector<uint64_t> starts{0};
  std::vector<void*> held;
  size_t staged = 0, out_bytes = 0;
  for (size_t g = 0; g < file->num_row_groups(); ++g) {
    const size_t rows = static_cast<size_t>(file->row_group_rows(g));
    for (size_t c = 0; c < footer.columns.size(); ++c) {
      const auto& m = footer.chunk(g, c);
      if (m.encoding != io::kcol::Encoding::kPacked && m.encoding != io::kcol::Encoding::kDictionary) continue;
      std::vector<uint8_t> bytes(static_cast<size_t>(m.size));
      file->read_bytes(m.offset, bytes.size(), bytes.data());
      auto* d = static_cast<uint8_t*>(mr.allocate(std::max<size_t>(bytes.size(), 8), stream));
      KESTREL_CUDA_CHECK(cudaMemcpyAsync(d, bytes.data(), bytes.size(), cudaMemcpyHostToDevice, stream.view().handle()));
      stream.view().synchronize();
      const bool dictionary = m.encoding == io::kcol::Encoding::kDictionary;
      const int width = dictionary ? 4 : static_cast<int>(footer.columns[c].type.physical_width());
      void* out = mr.allocate(std::max<size_t>(rows * static_cast<size_t>(width), 8), stream);
      held.push_back(d);
      held.push_back(out);
      io::kcol::UnpackJob job;
      job.blocks = reinterpret_cast<const io::kcol::BlockHeader*>(d + m.blocks_offset);
      job.words = reinterpret_cast<const uint32_t*>(d + m.data_offset);
      job.out = out;
      job.block_count = m.block_count;
      job.word_count = m.data_size / 4;
      job.rows = rows;
      job.limit = dictionary ? std::max<uint64_t>(m.dictionary_entries, 1) : 0;
      job.out_width = width;
      job.boolean = footer.columns[c].type.id() == TypeId::kBoolean ? 1 : 0;
      jobs.push_back(job);
      starts.push_back(starts.back() + m.block_count);
      staged += bytes.size();
      out_bytes += rows * static_cast<size_t>(width);
    }
  }
  const size_t table_bytes = jobs.size() * sizeof(io::kcol::UnpackJob) + starts.size() * 8;
  auto* table = static_cast<uint8_t*>(mr.allocate(table_bytes + 8, stream));
  std::vector<uint8_t> host(table_bytes);
  std::memcpy(host.data(), jobs.data(), jobs.size() * sizeof(io::kcol::UnpackJob));
  std::memcpy(host.data() + jobs.size() * sizeof(io::kcol::UnpackJob), starts.data(), starts.size() * 8);
  KESTREL_CUDA_CHECK(cudaMemcpyAsync(table, host.data(), table_bytes, cudaMemcpyHostToDevice, stream.view().handle()));
  uint32_t* error = static_cast<uint32_t*>(mr.allocate(8, stream));
  KESTREL_CUDA_CHECK(cudaMemsetAsync(error, 0, 4, stream.view().handle()));
  double best = 1e9;
  for (int run = 0; run < 5; ++run) {
    stream.view().synchronize();
    auto start = std::chrono::steady_clock::now();
    io::kcol::unpack_jobs_gpu(reinterpret_cast<const io::kcol::UnpackJob*>(table),
                              reinterpret_cast<const uint64_t*>(table + jobs.size() * sizeof(io::kcol::UnpackJob)),
                              jobs.size(), starts.back(), error, stream);
    stream.view().synchronize();
    best = std::min(best, seconds_since(start));
  }
  uint32_t flagged = 0;
  KESTREL_CUDA_CHECK(cudaMemcpy(&flagged, error, 4, cudaMemcpyDeviceToHost));
  std::printf("kcol unpack: %s, %zu chunks in one launch, %.2f GiB packed -> %.2f GiB of values in %.4f s: %.1f GB/s%s\n",
              path.c_str(), jobs.size(), static_cast<double>(staged) / (1ull << 30),
              static_cast<double>(out_bytes) / (1ull << 30), best, static_cast<double>(out_bytes) / best / 1e9,
              flagged != 0 ? " (the checks flagged an error)" : "");
  return 0;
}

}  // namespace
}  // namespace kestrel

int main(int argc, char** argv) {
  try {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "h2d" && argc > 2) return kestrel::h2d(std::atof(argv[2]));
    if (mode == "io" && argc > 2) return kestrel::io_paths(argv[2], argc > 3 ? std::atof(argv[3]) : 16.0);
    if (mode == "copies" && argc > 2) return kestrel::copy_shapes(argv[2], argc > 3 ? std::atof(argv[3]) : 4.0);
    if (mode == "kcol" && argc > 2) return kestrel::kcol_unpack(argv[2]);
    if (mode == "decode" && argc > 2) {
      const size_t rows = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : (size_t{1} << 25);
      const size_t streams = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 4;
      return kestrel::decode(argv[2], rows, streams, argc > 5 ? argv[5] : "");
    }
    std::fprintf(stderr, "usage: kestrel-gpu-scan-bench h2d GIB | io PATH [GIB] | copies PATH [GIB] | decode PATH [ROWS_PER_BATCH] [STREAMS] [COLUMNS] | kcol PATH\n");
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
