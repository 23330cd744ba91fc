#include "io/parquet/device/decode_plan.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>

#include "io/parquet/device/device_support.hpp"

namespace kestrel::io::decode_plan {

using parquet::device::DeviceChunk;
using parquet::device::DevicePage;
using parquet::PageLayout;
using parquet::PageType;
using parquet::PhysicalType;
namespace dev = parquet::device;
using dev::device_codec;
using dev::device_encoding;
using dev::device_type_of;
using dev::dictionary_encoding;

namespace {

/// Host memory packed into one block, sent with one transfer (page tables, nvCOMP arguments), and the places in it
/// that hold relative addresses (device_pages.hpp).
class UploadBlock {
 public:
  template <typename T>
  size_t add(const std::vector<T>& items) {
    const size_t at = align_up(bytes_.size());
    bytes_.resize(at + align_up(items.size() * sizeof(T)));
    if (!items.empty()) std::memcpy(bytes_.data() + at, items.data(), items.size() * sizeof(T));
    return at;
  }
  /// The relative address at byte `at` is rebased on the device.
  void relocate(size_t at) { slots_.push_back(at); }
  /// Appends the list of relative addresses; returns the block, its offset and its length.
  std::vector<uint8_t> finish(size_t& slot_table, size_t& slots) {
    slots = slots_.size();
    slot_table = add(slots_);
    return std::move(bytes_);
  }

 private:
  std::vector<uint8_t> bytes_;
  std::vector<uint64_t> slots_;
};

/// A device address in a page table before the buffers exist (device_pages.hpp).
template <typename T = const uint8_t*>
T relative(dev::AddressBase base, uint64_t offset) {
  return reinterpret_cast<T>(dev::relative_address(base, offset));
}

}  // namespace

std::unique_ptr<DecodePlan> plan_decode(const std::vector<ChunkJob>& jobs, size_t rows, size_t column_count,
                                        std::vector<LogicalType> types) {
  using dev::AddressBase;
  auto plan = std::make_unique<DecodePlan>();
  plan->types = std::move(types);
  std::vector<ColumnWork>& work = plan->work;
  work.resize(column_count);
  // 1. The path of each column.
  for (size_t j = 0; j < jobs.size(); ++j) work[jobs[j].column].jobs.push_back(j);
  for (size_t c = 0; c < column_count; ++c) {
    ColumnWork& w = work[c];
    const parquet::ColumnDescriptor& d = *jobs[w.jobs.front()].desc;
    w.type = plan->types[c];
    w.rows = rows;
    w.device_type = device_type_of(d);
    w.nullable = false;
    bool device = true;
    bool all_dictionary = true;
    for (size_t j : w.jobs) {
      const ChunkJob& job = jobs[j];
      const parquet::ColumnDescriptor& jd = *job.desc;
      if (jd.physical_type != d.physical_type || jd.conversion != d.conversion || jd.type_length != d.type_length) {
        device = false;  // files of the dataset disagree on the physical layout: the CPU twin converts each
      }
      w.nullable = w.nullable || jd.max_definition_level > 0;
      bool has_dictionary = false;
      for (const PageLayout& p : job.pages) {
        if (p.type == PageType::kDictionaryPage) {
          has_dictionary = p.num_values > 0;
          continue;
        }
        if (!device_encoding(d.physical_type, p.encoding)) device = false;
        if (p.num_values > 0 && !dictionary_encoding(p.encoding)) all_dictionary = false;
      }
      if (!has_dictionary) all_dictionary = false;
    }
    w.device_type.nullable = w.nullable ? 1 : 0;
    const bool binary = d.physical_type == PhysicalType::kByteArray || d.physical_type == PhysicalType::kFixedLenByteArray;
    if (!device || w.type.id() == TypeId::kVarbinary) {
      // VARBINARY is CPU-only (the plan builder keeps plans with it off the GPU); should one come here, the CPU
      // twin decodes it.
      w.path = ColumnPath::kHost;
    } else if (w.type.id() == TypeId::kVarchar) {
      w.path = all_dictionary ? ColumnPath::kStringDictionary : ColumnPath::kString;
    } else {
      w.path = binary ? ColumnPath::kBinaryToFixed : ColumnPath::kFixed;
    }
  }

  // 2. Where each page body will be on the device: in place (stored uncompressed, or one snappy literal), gathered
  //    from its snappy literals, decompressed by nvCOMP, or decompressed on the host into a second staging buffer.
  std::map<gpu::DeviceCodec, std::vector<DeviceInflate>> device_inflates;
  std::vector<std::vector<const uint8_t*>> bodies(jobs.size());
  std::vector<dev::CopyPiece> pieces;
  for (size_t j = 0; j < jobs.size(); ++j) {
    const ChunkJob& job = jobs[j];
    bodies[j].resize(job.pages.size(), nullptr);
    if (work[job.column].path == ColumnPath::kHost) continue;
    const std::optional<gpu::DeviceCodec> found = device_codec(job.meta->codec);
    const bool device_inflate = found && gpu::device_codec_available(*found);
    const gpu::DeviceCodec codec = found.value_or(gpu::DeviceCodec::kSnappy);
    for (size_t p = 0; p < job.pages.size(); ++p) {
      const PageLayout& page = job.pages[p];
      ++plan->pages;
      const uint64_t stored = job.staged + page.body_offset;
      if (!page.body_compressed || page.body_size == 0) {
        bodies[j][p] = relative(AddressBase::kStaged, stored);
      } else if (p < job.literals.size() && !job.literals[p].empty()) {
        const std::vector<parquet::SnappyLiteral>& literals = job.literals[p];
        ++plan->literal_pages;
        if (literals.size() == 1) {
          bodies[j][p] = relative(AddressBase::kStaged, stored + literals.front().offset);
        } else {
          bodies[j][p] = relative(AddressBase::kInflated, plan->inflated_total);
          size_t at = plan->inflated_total;
          for (const parquet::SnappyLiteral& l : literals) {
            pieces.push_back(dev::CopyPiece{relative(AddressBase::kStaged, stored + l.offset),
                                            relative<uint8_t*>(AddressBase::kInflated, at), l.length});
            at += l.length;
          }
          plan->inflated_total += align_up(page.body_size);
        }
      } else if (device_inflate) {
        DeviceInflate d{j, p, relative(AddressBase::kStaged, stored), page.body_stored_size, plan->inflated_total,
                        page.body_size};
        if (codec != gpu::DeviceCodec::kSnappy && stored % 8 != 0) {
          // nvCOMP wants aligned inputs for these codecs (the staged bytes' buffer is aligned): the page moves to an
          // aligned place first.
          pieces.push_back(dev::CopyPiece{d.input, relative<uint8_t*>(AddressBase::kRealigned, plan->realign_total),
                                          d.input_bytes});
          d.input = relative(AddressBase::kRealigned, plan->realign_total);
          plan->realign_total += align_up(d.input_bytes);
        }
        bodies[j][p] = relative(AddressBase::kInflated, plan->inflated_total);
        plan->inflated_total += align_up(page.body_size);
        device_inflates[codec].push_back(d);
      } else {
        bodies[j][p] = relative(AddressBase::kHostInflated, plan->host_inflated_total);
        plan->host_inflates.push_back(HostInflate{j, p, plan->host_inflated_total});
        plan->host_inflated_total += align_up(page.body_size);
      }
    }
  }

  // 3. nvCOMP's arguments, one batch per codec.
  UploadBlock upload;
  auto relocate_all = [&](size_t at, size_t count, size_t stride, size_t field) {
    for (size_t i = 0; i < count; ++i) upload.relocate(at + i * stride + field);
  };
  for (auto& [codec, list] : device_inflates) {
    CodecBatch b;
    b.codec = codec;
    std::vector<const void*> inputs;
    std::vector<size_t> input_bytes, capacity;
    std::vector<void*> outputs;
    for (const DeviceInflate& d : list) {
      inputs.push_back(d.input);
      input_bytes.push_back(d.input_bytes);
      outputs.push_back(relative<void*>(AddressBase::kInflated, d.output_offset));
      capacity.push_back(d.output_bytes);
      b.max_output = std::max(b.max_output, d.output_bytes);
      b.total_output += d.output_bytes;
    }
    b.inputs = upload.add(inputs);
    relocate_all(b.inputs, inputs.size(), sizeof(void*), 0);
    b.input_bytes = upload.add(input_bytes);
    b.outputs = upload.add(outputs);
    relocate_all(b.outputs, outputs.size(), sizeof(void*), 0);
    b.capacity = upload.add(capacity);
    b.actual = upload.add(std::vector<size_t>(list.size(), 0));
    b.statuses = upload.add(std::vector<int>(list.size(), 0));
    b.pages = std::move(list);
    plan->codec_batches.push_back(std::move(b));
  }
  plan->pieces = pieces.size();
  if (!pieces.empty()) {
    plan->piece_table = upload.add(pieces);
    relocate_all(plan->piece_table, pieces.size(), sizeof(dev::CopyPiece), offsetof(dev::CopyPiece, src));
    relocate_all(plan->piece_table, pieces.size(), sizeof(dev::CopyPiece), offsetof(dev::CopyPiece, dst));
  }

  // 4. The page tables of each column.
  for (ColumnWork& w : work) {
    if (w.path == ColumnPath::kHost) continue;
    std::vector<DevicePage> data_pages, dictionary_pages;
    std::vector<DeviceChunk> chunks;
    for (size_t k = 0; k < w.jobs.size(); ++k) {
      const ChunkJob& job = jobs[w.jobs[k]];
      DeviceChunk chunk;
      chunk.dictionary_first = w.dictionary_entries;
      uint64_t row = job.first_row;
      for (size_t p = 0; p < job.pages.size(); ++p) {
        const PageLayout& layout = job.pages[p];
        DevicePage page;
        page.body = bodies[w.jobs[k]][p];
        page.body_size = static_cast<uint32_t>(layout.body_size);
        page.levels = layout.v2 ? relative(AddressBase::kStaged, job.staged + layout.levels_offset) : nullptr;
        page.levels_size = static_cast<uint32_t>(layout.levels_size);
        page.num_values = static_cast<uint32_t>(layout.num_values);
        page.num_nulls = static_cast<uint32_t>(layout.num_nulls);
        page.chunk = static_cast<uint32_t>(k);
        page.encoding = static_cast<int32_t>(layout.encoding);
        page.level_encoding = static_cast<int32_t>(layout.definition_level_encoding);
        page.v2 = layout.v2 ? 1 : 0;
        if (layout.type == PageType::kDictionaryPage) {
          chunk.has_dictionary = 1;
          chunk.dictionary_size = page.num_values;
          w.dictionary_entries += page.num_values;
          dictionary_pages.push_back(page);
        } else {
          page.first_row = row;
          row += page.num_values;
          data_pages.push_back(page);
        }
      }
      // A required column in a dataset whose other files make it nullable has no levels in this chunk.
      if (job.desc->max_definition_level == 0 && w.nullable) {
        for (size_t p = data_pages.size(); p-- > 0 && data_pages[p].chunk == k;) data_pages[p].level_encoding = -1;
      }
      chunks.push_back(chunk);
    }
    if (w.dictionary_entries >= (size_t{1} << 31)) {
      w.path = ColumnPath::kHost;
      continue;
    }
    if (!w.nullable) {
      // Without levels every value of a page is there: where its values start and go is known here.
      std::vector<uint32_t> starts(data_pages.size(), 0), counts;
      std::vector<uint64_t> dense;
      for (const DevicePage& page : data_pages) {
        counts.push_back(page.num_values);
        dense.push_back(page.first_row);
      }
      w.start_table = upload.add(starts);
      w.nonnull_table = upload.add(counts);
      w.dense_table = upload.add(dense);
    }
    for (std::vector<DevicePage>* table : {&data_pages, &dictionary_pages}) {
      const size_t at = upload.add(*table);
      relocate_all(at, table->size(), sizeof(DevicePage), offsetof(DevicePage, body));
      for (size_t i = 0; i < table->size(); ++i) {
        if ((*table)[i].v2 != 0) upload.relocate(at + i * sizeof(DevicePage) + offsetof(DevicePage, levels));
      }
      (table == &data_pages ? w.data_table : w.dictionary_table) = at;
    }
    w.data_count = data_pages.size();
    w.dictionary_count = dictionary_pages.size();
    w.chunk_table = upload.add(chunks);
  }
  plan->block = upload.finish(plan->slot_table, plan->slots);
  return plan;
}

}  // namespace kestrel::io::decode_plan
