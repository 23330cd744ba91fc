#include <cstring>

#include "common/error.hpp"
#include "io/compression/codec.hpp"
#include "io/file_list.hpp"
#include "io/kcol/kcol_file.hpp"
#include "io/parquet/parallel_decode.hpp"

namespace kestrel::io {

using kcol::ChunkMeta;
using kcol::Encoding;

namespace {

constexpr size_t kHeadBytes = 8;   // magic + version
constexpr size_t kTailBytes = 12;  // footer size + magic

[[noreturn]] void fail(const std::string& what) { throw InvalidInput(what); }

/// A section [offset, offset + size) of a chunk, checked to lie inside it.
const uint8_t* section(const std::vector<uint8_t>& chunk, uint64_t offset, uint64_t size, const char* what) {
  if (offset > chunk.size() || size > chunk.size() - offset) {
    fail(std::string(what) + " of " + std::to_string(size) + " bytes at " + std::to_string(offset) +
         " lies outside the chunk of " + std::to_string(chunk.size()));
  }
  return chunk.data() + offset;
}

/// Stores an i64 as a Kestrel value of `type` (its physical width).
void store(const LogicalType& type, int64_t v, uint8_t* out) {
  switch (type.physical_width()) {
    case 1: {
      auto x = static_cast<int8_t>(v);
      std::memcpy(out, &x, 1);
      return;
    }
    case 2: {
      auto x = static_cast<int16_t>(v);
      std::memcpy(out, &x, 2);
      return;
    }
    case 4: {
      auto x = static_cast<int32_t>(v);
      std::memcpy(out, &x, 4);
      return;
    }
    default: std::memcpy(out, &v, 8);
  }
}

/// The packed values of a PACKED or DICTIONARY chunk as i64, block by block.
std::vector<int64_t> unpack_values(const std::vector<uint8_t>& chunk, const ChunkMeta& m, size_t rows) {
  const size_t blocks = (rows + kcol::kBlockValues - 1) / kcol::kBlockValues;
  if (m.block_count != blocks) {
    fail(std::to_string(m.block_count) + " blocks for " + std::to_string(rows) + " rows");
  }
  if (m.block_count > chunk.size() / sizeof(kcol::BlockHeader)) fail("block table larger than the chunk");
  const uint8_t* table = section(chunk, m.blocks_offset, m.block_count * sizeof(kcol::BlockHeader), "block table");
  if (m.data_offset % 4 != 0) fail("misaligned data");
  if (m.blocks_offset % 8 != 0) fail("misaligned block table");
  const uint8_t* data = section(chunk, m.data_offset, m.data_size, "data");
  const size_t words = static_cast<size_t>(m.data_size / 4);
  std::vector<int64_t> out(rows);
  for (size_t b = 0; b < blocks; ++b) {
    kcol::BlockHeader h;
    std::memcpy(&h, table + b * sizeof(h), sizeof(h));
    if (h.width > 64) fail("block " + std::to_string(b) + " has width " + std::to_string(h.width));
    const size_t need = kcol::kLanes * static_cast<size_t>(h.width);
    if (h.word > words || need > words - h.word) fail("block " + std::to_string(b) + " lies outside the data");
    const size_t count = std::min(kcol::kBlockValues, rows - b * kcol::kBlockValues);
    std::vector<uint32_t> block(need);
    if (need > 0) std::memcpy(block.data(), data + h.word * 4, need * 4);
    kcol::unpack_block(block.data(), count, h.base, static_cast<int>(h.width), out.data() + b * kcol::kBlockValues);
  }
  return out;
}

/// A plain VARCHAR column over u64 `offsets` (count + 1) and `bytes`, checked.
ColumnPtr string_column(const uint8_t* offsets_bytes, size_t count, const uint8_t* bytes, uint64_t bytes_size,
                        const char* what) {
  ColumnPtr column = Column::make_string(count, static_cast<size_t>(bytes_size), false, gpu::host_memory_resource(),
                                         gpu::Stream::host());
  int64_t* offsets = column->mutable_offsets();
  std::memcpy(offsets, offsets_bytes, (count + 1) * 8);
  if (offsets[0] != 0) fail(std::string(what) + " offsets do not start at 0");
  for (size_t i = 0; i < count; ++i) {
    if (offsets[i + 1] < offsets[i]) fail(std::string(what) + " offsets decrease at " + std::to_string(i));
  }
  if (static_cast<uint64_t>(offsets[count]) != bytes_size) {
    fail(std::string(what) + " offsets end at " + std::to_string(offsets[count]) + ", the bytes are " +
         std::to_string(bytes_size));
  }
  if (bytes_size > 0) std::memcpy(column->values()->data(), bytes, static_cast<size_t>(bytes_size));
  return column;
}

/// The string bytes of a section: as they lie, or zstd-decompressed to the `plain_size` the offsets end at.
std::vector<uint8_t> section_bytes(const uint8_t* data, uint64_t size, kcol::BytesCodec codec, uint64_t plain_size) {
  if (codec == kcol::BytesCodec::kNone) return std::vector<uint8_t>(data, data + size);
  if (plain_size > kcol::plausible_string_bytes(size)) {
    fail("compressed strings of " + std::to_string(size) + " bytes claim " + std::to_string(plain_size));
  }
  std::vector<kcol::BytesFrame> frames;
  if (!kcol::bytes_frames(data, size, plain_size, frames)) {
    fail("the frame table of compressed strings (" + std::to_string(size) + " bytes holding " +
         std::to_string(plain_size) + ") does not fit");
  }
  std::vector<uint8_t> plain(static_cast<size_t>(plain_size));
  for (const kcol::BytesFrame& f : frames) {
    decompress(codec == kcol::BytesCodec::kZstd ? CompressionCodec::kZstd : CompressionCodec::kLz4Raw,
               {data + f.offset, static_cast<size_t>(f.size)},
               {plain.data() + f.plain_offset, static_cast<size_t>(f.plain_size)});
  }
  return plain;
}

/// The last of `count + 1` u64 offsets: where the strings' bytes end.
uint64_t last_offset(const uint8_t* offsets, size_t count) {
  uint64_t v;
  std::memcpy(&v, offsets + count * 8, 8);
  return v;
}

ColumnPtr decode_chunk(const std::vector<uint8_t>& chunk, const ChunkMeta& m, const kcol::ColumnInfo& info,
                       size_t rows) {
  gpu::MemoryResource& mr = gpu::host_memory_resource();
  const LogicalType& type = info.type;
  BufferPtr validity;
  if (m.null_count > rows) fail("null count " + std::to_string(m.null_count) + " above the rows");
  if (m.null_count > 0) {
    if (m.validity_size < (rows + 7) / 8) fail("validity bitmap too short");
    const uint8_t* bits = section(chunk, m.validity_offset, m.validity_size, "validity");
    validity = Buffer::allocate((rows + 7) / 8, mr, gpu::Stream::host());
    std::memcpy(validity->data(), bits, (rows + 7) / 8);
  }
  auto with_validity = [&](ColumnPtr c) {
    if (!validity) return c;
    auto out = Column::from_buffers(c->type(), c->encoding(), rows, 0, validity, c->values(), c->offsets(),
                                    c->dictionary());
    out->recount_nulls();
    if (out->null_count() != m.null_count) fail("the validity bitmap disagrees with the null count");
    return out;
  };
  const bool is_string = type.is_variable_width();
  // VARBINARY and JSON chunks are read as the VARCHAR buffers they share and relabelled.
  const auto as_type = [&](ColumnPtr c) { return type.id() != TypeId::kVarchar ? Column::retyped(c, type) : c; };
  switch (m.encoding) {
    case Encoding::kPlain: {
      if (is_string || kcol::packed_type(type)) fail("PLAIN encoding for " + type.to_string());
      const size_t width = type.physical_width();
      if (m.data_size != rows * width) fail("PLAIN data of " + std::to_string(m.data_size) + " bytes");
      const uint8_t* data = section(chunk, m.data_offset, m.data_size, "data");
      ColumnPtr c = Column::make_fixed(type, rows, false, mr, gpu::Stream::host());
      if (rows > 0) std::memcpy(c->mutable_data<uint8_t>(), data, rows * width);
      return with_validity(c);
    }
    case Encoding::kPacked: {
      if (!kcol::packed_type(type)) fail("PACKED encoding for " + type.to_string());
      std::vector<int64_t> values = unpack_values(chunk, m, rows);
      ColumnPtr c = Column::make_fixed(type, rows, false, mr, gpu::Stream::host());
      const size_t width = type.physical_width();
      uint8_t* out = c->mutable_data<uint8_t>();
      for (size_t i = 0; i < rows; ++i) store(type, values[i], out + i * width);
      if (type.id() == TypeId::kBoolean) {
        for (size_t i = 0; i < rows; ++i) {
          if (values[i] != 0 && values[i] != 1) fail("BOOLEAN value " + std::to_string(values[i]));
        }
      }
      return with_validity(c);
    }
    case Encoding::kDictionary: {
      if (!is_string) fail("DICTIONARY encoding for " + type.to_string());
      const uint64_t entries = m.dictionary_entries;
      if (entries >= (uint64_t{1} << 31) || m.aux_size != (entries + 1) * 8) fail("dictionary offsets of the wrong size");
      if (m.aux_offset % 8 != 0) fail("misaligned dictionary offsets");
      const uint8_t* offsets = section(chunk, m.aux_offset, m.aux_size, "dictionary offsets");
      const uint8_t* stored = section(chunk, m.aux2_offset, m.aux2_size, "dictionary bytes");
      const std::vector<uint8_t> plain = section_bytes(stored, m.aux2_size, m.bytes_codec,
                                                       last_offset(offsets, static_cast<size_t>(entries)));
      const uint8_t* bytes = plain.data();
      ColumnPtr dictionary = string_column(offsets, static_cast<size_t>(entries), bytes, plain.size(), "dictionary");
      std::vector<int64_t> codes = unpack_values(chunk, m, rows);
      BufferPtr indices = Buffer::allocate(std::max<size_t>(rows, 1) * 4, mr, gpu::Stream::host());
      int32_t* idx = indices->as<int32_t>();
      for (size_t i = 0; i < rows; ++i) {
        if (codes[i] < 0 || static_cast<uint64_t>(codes[i]) >= std::max<uint64_t>(entries, 1)) {
          fail("row " + std::to_string(i) + " names dictionary entry " + std::to_string(codes[i]) + " of " +
               std::to_string(entries));
        }
        idx[i] = static_cast<int32_t>(codes[i]);
      }
      if (entries == 0 && rows > 0 && m.null_count != rows) fail("an empty dictionary for non-NULL rows");
      if (entries == 0) dictionary = string_column(offsets, 0, bytes, 0, "dictionary");
      auto c = Column::make_dictionary(TypeId::kVarchar, rows, indices, validity, 0, dictionary);
      if (validity) {
        c->recount_nulls();
        if (c->null_count() != m.null_count) fail("the validity bitmap disagrees with the null count");
      }
      return as_type(c);
    }
    case Encoding::kStrings: {
      if (!is_string) fail("STRINGS encoding for " + type.to_string());
      if (m.aux_size != (static_cast<uint64_t>(rows) + 1) * 8) fail("string offsets of the wrong size");
      if (m.aux_offset % 8 != 0) fail("misaligned string offsets");
      const uint8_t* offsets = section(chunk, m.aux_offset, m.aux_size, "string offsets");
      const uint8_t* stored = section(chunk, m.data_offset, m.data_size, "string bytes");
      const std::vector<uint8_t> plain = section_bytes(stored, m.data_size, m.bytes_codec, last_offset(offsets, rows));
      return as_type(with_validity(string_column(offsets, rows, plain.data(), plain.size(), "string")));
    }
  }
  fail("unknown encoding");
}

}  // namespace

std::shared_ptr<const KcolFile> KcolFile::open(const std::string& path) {
  return open_source(path, parquet::RandomAccessFile::open(path));
}

std::shared_ptr<const KcolFile> KcolFile::open_buffer(const std::string& name,
                                                      std::shared_ptr<const std::vector<uint8_t>> bytes) {
  return open_source(name, parquet::RandomAccessFile::from_memory(name, std::move(bytes)));
}

std::shared_ptr<const KcolFile> KcolFile::open_source(const std::string& path,
                                                      std::shared_ptr<parquet::RandomAccessFile> source) {
  std::shared_ptr<KcolFile> f(new KcolFile());
  f->path_ = path;
  f->file_ = std::move(source);
  const std::string prefix = "kcol file '" + path + "': ";
  const uint64_t size = f->file_->size();
  if (size < kHeadBytes + kTailBytes) throw InvalidInput(prefix + "too small to be a kcol file");
  uint8_t head[kHeadBytes], tail[kTailBytes];
  f->file_->read(0, kHeadBytes, head);
  f->file_->read(size - kTailBytes, kTailBytes, tail);
  if (std::memcmp(head, kcol::kMagic, 4) != 0 || std::memcmp(tail + 8, kcol::kMagic, 4) != 0) {
    throw InvalidInput(prefix + "not a kcol file (no KCOL magic)");
  }
  uint32_t version;
  std::memcpy(&version, head + 4, 4);
  if (version != kcol::kVersion) throw NotImplemented(prefix + "kcol version " + std::to_string(version) + " is not supported");
  uint64_t footer_size;
  std::memcpy(&footer_size, tail, 8);
  if (footer_size > size - kHeadBytes - kTailBytes) throw InvalidInput(prefix + "footer larger than the file");
  const uint64_t footer_start = size - kTailBytes - footer_size;
  std::vector<uint8_t> footer(static_cast<size_t>(footer_size));
  f->file_->read(footer_start, footer.size(), footer.data());
  try {
    f->footer_ = kcol::decode_footer(footer.data(), footer.size());
  } catch (const InvalidInput& e) {
    throw InvalidInput(prefix + "footer: " + e.message());
  }
  for (const ChunkMeta& m : f->footer_.chunks) {
    if (m.offset < kHeadBytes || m.offset > footer_start || m.size > footer_start - m.offset) {
      throw InvalidInput(prefix + "a column chunk of " + std::to_string(m.size) + " bytes at " +
                         std::to_string(m.offset) + " lies outside the data of the file");
    }
  }
  std::vector<Field> fields;
  for (const auto& c : f->footer_.columns) fields.push_back(Field{c.name, c.type, c.nullable});
  f->schema_ = std::make_shared<const Schema>(std::move(fields));
  return f;
}

ColumnPtr KcolFile::read_chunk(size_t row_group, size_t column) const {
  if (row_group >= num_row_groups() || column >= footer_.columns.size()) {
    throw InvalidInput("kcol file '" + path_ + "': no column " + std::to_string(column) + " in row group " +
                       std::to_string(row_group));
  }
  const ChunkMeta& m = footer_.chunk(row_group, column);
  const auto& info = footer_.columns[column];
  try {
    std::vector<uint8_t> chunk(static_cast<size_t>(m.size));
    file_->read(m.offset, chunk.size(), chunk.data());
    return decode_chunk(chunk, m, info, static_cast<size_t>(row_group_rows(row_group)));
  } catch (const InvalidInput& e) {
    throw InvalidInput("kcol file '" + path_ + "': column '" + info.name + "' of row group " +
                       std::to_string(row_group) + ": " + e.message());
  } catch (const std::bad_alloc&) {
    throw ResourceExhausted("kcol file '" + path_ + "': column '" + info.name + "' of row group " +
                            std::to_string(row_group) + ": out of memory");
  }
}

namespace {

SchemaPtr select_fields(const Schema& schema, const std::vector<size_t>& columns) {
  std::vector<Field> fields;
  for (size_t c : columns) fields.push_back(schema.field(c));
  return std::make_shared<const Schema>(std::move(fields));
}

}  // namespace

Batch KcolFile::read_row_group(size_t row_group, const std::vector<size_t>& columns) const {
  std::vector<ColumnPtr> out(columns.size());
  parallel_for(columns.size(), 0, [&](size_t i) { out[i] = read_chunk(row_group, columns[i]); });
  return Batch(select_fields(*schema_, columns), std::move(out), static_cast<size_t>(row_group_rows(row_group)),
               gpu::MemoryKind::kHost);
}

SchemaPtr KcolDataset::project_schema(const std::vector<size_t>& columns) const {
  return select_fields(*schema(), columns);
}

std::shared_ptr<const KcolDataset> KcolDataset::open(const std::string& location) {
  std::shared_ptr<KcolDataset> d(new KcolDataset());
  for (const std::string& path : list_table_files(location, ".kcol", "kcol")) d->files_.push_back(KcolFile::open(path));
  const Schema& first = *d->files_.front()->schema();
  for (const auto& f : d->files_) {
    const Schema& s = *f->schema();
    bool same = s.size() == first.size();
    for (size_t c = 0; same && c < s.size(); ++c) {
      same = s.field(c).name == first.field(c).name && s.field(c).type == first.field(c).type;
    }
    if (!same) {
      throw InvalidInput("kcol file '" + f->path() + "': its columns differ from those of '" +
                         d->files_.front()->path() + "'");
    }
  }
  return d;
}

std::vector<KcolRowGroup> KcolDataset::row_groups() const {
  std::vector<KcolRowGroup> out;
  for (size_t f = 0; f < files_.size(); ++f) {
    for (size_t g = 0; g < files_[f]->num_row_groups(); ++g) {
      if (files_[f]->row_group_rows(g) > 0) out.push_back({f, g});
    }
  }
  return out;
}

uint64_t KcolDataset::num_rows() const {
  uint64_t rows = 0;
  for (const auto& f : files_) rows += f->footer().num_rows;
  return rows;
}

Batch KcolDataset::read(const KcolRowGroup& ref, const std::vector<size_t>& columns) const {
  return files_.at(ref.file)->read_row_group(ref.row_group, columns);
}

}  // namespace kestrel::io
