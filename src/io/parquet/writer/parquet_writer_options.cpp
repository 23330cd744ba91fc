#include "io/parquet/writer/parquet_writer_options.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string>

#include "common/error.hpp"

namespace kestrel::io {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

[[noreturn]] void bad_value(std::string_view name, std::string_view value, std::string_view expected) {
  throw InvalidInput("Parquet write option '" + std::string(name) + "': invalid value '" + std::string(value) +
                     "' (expected " + std::string(expected) + ")");
}

int64_t parse_integer(std::string_view name, std::string_view value, int64_t min, int64_t max) {
  std::string text = lower(value);
  int64_t out = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || out < min || out > max) {
    bad_value(name, value, "an integer from " + std::to_string(min) + " to " + std::to_string(max));
  }
  return out;
}

bool parse_bool(std::string_view name, std::string_view value) {
  std::string text = lower(value);
  if (text == "true" || text == "1" || text == "on") return true;
  if (text == "false" || text == "0" || text == "off") return false;
  bad_value(name, value, "true or false");
}

CompressionCodec parse_codec(std::string_view name, std::string_view value) {
  std::string text = lower(value);
  if (text == "uncompressed" || text == "none") return CompressionCodec::kUncompressed;
  if (text == "snappy") return CompressionCodec::kSnappy;
  if (text == "zstd") return CompressionCodec::kZstd;
  if (text == "gzip") return CompressionCodec::kGzip;
  if (text == "lz4_raw" || text == "lz4") return CompressionCodec::kLz4Raw;
  if (text == "brotli") return CompressionCodec::kBrotli;
  bad_value(name, value, "uncompressed, snappy, zstd, gzip, lz4_raw or brotli");
}

constexpr int64_t kMaxSize = int64_t{1} << 40;
/// A page's bytes are counted in int32 fields of the page header.
constexpr int64_t kMaxPageSize = int64_t{1} << 30;

}  // namespace

void ParquetWriterOptions::set(std::string_view name, std::string_view value) {
  std::string key = lower(name);
  if (key == "compression" || key == "codec") {
    compression = parse_codec(name, value);
  } else if (key == "compression_level") {
    compression_level = static_cast<int>(parse_integer(name, value, -131072, 22));
  } else if (key == "row_group_size") {
    row_group_size = static_cast<size_t>(parse_integer(name, value, 1, kMaxSize));
  } else if (key == "dictionary") {
    dictionary = parse_bool(name, value);
  } else if (key == "dictionary_size_limit") {
    dictionary_size_limit = static_cast<size_t>(parse_integer(name, value, 1, kMaxPageSize));
  } else if (key == "page_size" || key == "data_page_size") {
    data_page_size = static_cast<size_t>(parse_integer(name, value, 1, kMaxPageSize));
  } else if (key == "statistics") {
    statistics = parse_bool(name, value);
  } else if (key == "page_checksum") {
    page_checksum = parse_bool(name, value);
  } else {
    throw InvalidInput("unknown Parquet write option '" + std::string(name) +
                       "' (known: compression, compression_level, row_group_size, dictionary, dictionary_size_limit, "
                       "page_size, statistics, page_checksum)");
  }
}

}  // namespace kestrel::io
