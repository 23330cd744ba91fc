#pragma once
/// Helpers for the Parquet unit tests: a Thrift compact-protocol writer and a builder of small hand-made Parquet
/// files (one required or optional column, pages given as raw bytes), so decoders and error paths can be driven
/// with exactly the bytes a test wants.

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

namespace kestrel::io::testing {

/// Writes Thrift compact-protocol structs field by field.
class ThriftWriter {
 public:
  std::vector<uint8_t> bytes;

  void varint(uint64_t v) {
    while (v >= 0x80) {
      bytes.push_back(static_cast<uint8_t>(v | 0x80));
      v >>= 7;
    }
    bytes.push_back(static_cast<uint8_t>(v));
  }
  static uint64_t zigzag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }

  void field(int16_t id, uint8_t type) {
    int delta = id - last_.back();
    if (delta > 0 && delta <= 15) {
      bytes.push_back(static_cast<uint8_t>((delta << 4) | type));
    } else {
      bytes.push_back(type);
      varint(zigzag(id));
    }
    last_.back() = id;
  }
  void i32(int16_t id, int64_t v) {
    field(id, 5);
    varint(zigzag(v));
  }
  void i64(int16_t id, int64_t v) {
    field(id, 6);
    varint(zigzag(v));
  }
  void boolean(int16_t id, bool v) { field(id, v ? 1 : 2); }
  void binary(int16_t id, const std::string& s) {
    field(id, 8);
    varint(s.size());
    bytes.insert(bytes.end(), s.begin(), s.end());
  }
  void begin_struct(int16_t id) {
    field(id, 12);
    last_.push_back(0);
  }
  void begin_list(int16_t id, uint8_t element_type, size_t size) {
    field(id, 9);
    if (size < 15) {
      bytes.push_back(static_cast<uint8_t>((size << 4) | element_type));
    } else {
      bytes.push_back(static_cast<uint8_t>(0xf0 | element_type));
      varint(size);
    }
  }
  /// A struct element of a list.
  void begin_element() { last_.push_back(0); }
  void list_i32(int64_t v) { varint(zigzag(v)); }
  void list_binary(const std::string& s) {
    varint(s.size());
    bytes.insert(bytes.end(), s.begin(), s.end());
  }
  void end_struct() {
    bytes.push_back(0);
    last_.pop_back();
  }

 private:
  std::vector<int16_t> last_{0};
};

/// One page of a hand-made column chunk.
struct TestPage {
  int page_type = 0;  ///< 0 data v1, 2 dictionary, 3 data v2
  int32_t num_values = 0;
  int32_t encoding = 0;
  std::vector<uint8_t> body;  ///< as stored (uncompressed)
  int32_t num_nulls = 0;      ///< v2
  int32_t def_levels_bytes = 0;  ///< v2: the first bytes of `body` that are definition levels
  int32_t uncompressed_size = -1;  ///< -1: body size
};

/// A hand-made file with a single column `x` of `physical_type` in one row group of `rows` rows.
struct TestFileSpec {
  int32_t physical_type = 1;  ///< INT32
  bool optional = false;
  int64_t rows = 0;
  std::vector<TestPage> pages;
  int32_t converted_type = -1;
  int32_t type_length = 0;
};

inline std::vector<uint8_t> page_header(const TestPage& p) {
  ThriftWriter w;
  w.i32(1, p.page_type);
  w.i32(2, p.uncompressed_size >= 0 ? p.uncompressed_size : static_cast<int64_t>(p.body.size()));
  w.i32(3, static_cast<int64_t>(p.body.size()));
  if (p.page_type == 0) {
    w.begin_struct(5);
    w.i32(1, p.num_values);
    w.i32(2, p.encoding);
    w.i32(3, 3);
    w.i32(4, 3);
    w.end_struct();
  } else if (p.page_type == 2) {
    w.begin_struct(7);
    w.i32(1, p.num_values);
    w.i32(2, p.encoding);
    w.end_struct();
  } else if (p.page_type == 3) {
    w.begin_struct(8);
    w.i32(1, p.num_values);
    w.i32(2, p.num_nulls);
    w.i32(3, p.num_values);
    w.i32(4, p.encoding);
    w.i32(5, p.def_levels_bytes);
    w.i32(6, 0);
    w.end_struct();
  }
  w.bytes.push_back(0);
  return w.bytes;
}

inline std::vector<uint8_t> build_file(const TestFileSpec& spec) {
  std::vector<uint8_t> file = {'P', 'A', 'R', '1'};
  int64_t chunk_start = static_cast<int64_t>(file.size());
  int64_t data_page_offset = -1;
  for (const TestPage& p : spec.pages) {
    if (p.page_type != 2 && data_page_offset < 0) data_page_offset = static_cast<int64_t>(file.size());
    auto h = page_header(p);
    file.insert(file.end(), h.begin(), h.end());
    file.insert(file.end(), p.body.begin(), p.body.end());
  }
  if (data_page_offset < 0) data_page_offset = chunk_start;
  int64_t chunk_size = static_cast<int64_t>(file.size()) - chunk_start;

  ThriftWriter w;
  w.i32(1, 1);
  w.begin_list(2, 12, 2);
  w.begin_element();
  w.binary(4, "schema");
  w.i32(5, 1);
  w.end_struct();
  w.begin_element();
  w.i32(1, spec.physical_type);
  if (spec.type_length > 0) w.i32(2, spec.type_length);
  w.i32(3, spec.optional ? 1 : 0);
  w.binary(4, "x");
  if (spec.converted_type >= 0) w.i32(6, spec.converted_type);
  w.end_struct();
  w.i64(3, spec.rows);
  w.begin_list(4, 12, 1);
  w.begin_element();
  w.begin_list(1, 12, 1);
  w.begin_element();
  w.i64(2, chunk_start);
  w.begin_struct(3);
  w.i32(1, spec.physical_type);
  w.begin_list(2, 5, 1);
  w.list_i32(0);
  w.begin_list(3, 8, 1);
  w.list_binary("x");
  w.i32(4, 0);
  w.i64(5, spec.rows);
  w.i64(6, chunk_size);
  w.i64(7, chunk_size);
  w.i64(9, data_page_offset);
  if (data_page_offset != chunk_start) w.i64(11, chunk_start);
  w.end_struct();
  w.end_struct();
  w.i64(2, chunk_size);
  w.i64(3, spec.rows);
  w.end_struct();
  w.bytes.push_back(0);

  file.insert(file.end(), w.bytes.begin(), w.bytes.end());
  uint32_t footer = static_cast<uint32_t>(w.bytes.size());
  for (int i = 0; i < 4; ++i) file.push_back(static_cast<uint8_t>(footer >> (8 * i)));
  for (char c : std::string("PAR1")) file.push_back(static_cast<uint8_t>(c));
  return file;
}

/// A file in the test's temporary folder, removed on destruction.
class TempFile {
 public:
  TempFile(const std::string& name, const std::vector<uint8_t>& content)
      : path_((std::filesystem::temp_directory_path() / ("kestrel_pq_" + std::to_string(::getpid()) + "_" + name))
                  .string()) {
    FILE* f = std::fopen(path_.c_str(), "wb");
    if (!content.empty()) std::fwrite(content.data(), 1, content.size(), f);
    std::fclose(f);
  }
  ~TempFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// Little-endian bytes of fixed-width values.
template <typename T>
std::vector<uint8_t> le_bytes(const std::vector<T>& values) {
  std::vector<uint8_t> out(values.size() * sizeof(T));
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

inline std::vector<uint8_t> concat(std::vector<uint8_t> a, const std::vector<uint8_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace kestrel::io::testing
