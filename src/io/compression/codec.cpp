#include "io/compression/codec.hpp"

#include <brotli/decode.h>
#include <brotli/encode.h>
#include <lz4.h>
#include <lz4frame.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include <climits>
#include <cstring>
#include <memory>
#include <string>

#include "common/error.hpp"

namespace kestrel::io {

namespace {

[[noreturn]] void corrupt(CompressionCodec codec, const std::string& what) {
  throw InvalidInput(std::string(codec_name(codec)) + " decompression failed: " + what);
}

void require_size(CompressionCodec codec, size_t produced, size_t expected) {
  if (produced != expected) {
    corrupt(codec, "decompressed to " + std::to_string(produced) + " bytes, expected " + std::to_string(expected));
  }
}

uint32_t load_be32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

void store_be32(uint8_t* p, uint32_t v) {
  p[0] = static_cast<uint8_t>(v >> 24);
  p[1] = static_cast<uint8_t>(v >> 16);
  p[2] = static_cast<uint8_t>(v >> 8);
  p[3] = static_cast<uint8_t>(v);
}

void decompress_snappy(std::span<const uint8_t> in, std::span<uint8_t> out) {
  size_t length = 0;
  auto src = reinterpret_cast<const char*>(in.data());
  if (snappy_uncompressed_length(src, in.size(), &length) != SNAPPY_OK) {
    corrupt(CompressionCodec::kSnappy, "bad length header");
  }
  require_size(CompressionCodec::kSnappy, length, out.size());
  size_t out_length = out.size();
  if (snappy_uncompress(src, in.size(), reinterpret_cast<char*>(out.data()), &out_length) != SNAPPY_OK) {
    corrupt(CompressionCodec::kSnappy, "corrupt input");
  }
  require_size(CompressionCodec::kSnappy, out_length, out.size());
}

/// gzip (possibly several members, as concatenating writers produce) or zlib streams.
void decompress_gzip(std::span<const uint8_t> in, std::span<uint8_t> out) {
  z_stream stream{};
  if (inflateInit2(&stream, 15 + 32) != Z_OK) corrupt(CompressionCodec::kGzip, "cannot initialize zlib");
  std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&stream, inflateEnd);
  size_t in_pos = 0;
  size_t out_pos = 0;
  uint8_t empty = 0;  // zlib rejects null buffer pointers even when their size is 0
  while (true) {
    stream.next_in = in.empty() ? &empty : const_cast<Bytef*>(in.data() + in_pos);
    stream.avail_in = static_cast<uInt>(std::min<size_t>(in.size() - in_pos, UINT_MAX));
    stream.next_out = out.empty() ? &empty : out.data() + out_pos;
    stream.avail_out = static_cast<uInt>(std::min<size_t>(out.size() - out_pos, UINT_MAX));
    size_t avail_in_before = stream.avail_in;
    size_t avail_out_before = stream.avail_out;
    int rc = inflate(&stream, Z_NO_FLUSH);
    in_pos += avail_in_before - stream.avail_in;
    out_pos += avail_out_before - stream.avail_out;
    if (rc == Z_STREAM_END) {
      // Another member may follow; anything else after the last member (padding zeros) is ignored.
      if (in.size() - in_pos >= 2 && in[in_pos] == 0x1f && in[in_pos + 1] == 0x8b) {
        if (inflateReset(&stream) != Z_OK) corrupt(CompressionCodec::kGzip, "cannot reset zlib");
        continue;
      }
      break;
    }
    if (rc == Z_OK) {
      if (avail_in_before == stream.avail_in && avail_out_before == stream.avail_out) {
        corrupt(CompressionCodec::kGzip, "truncated stream");
      }
      continue;
    }
    if (rc == Z_BUF_ERROR) {
      corrupt(CompressionCodec::kGzip, out_pos == out.size() ? "output larger than expected" : "truncated stream");
    }
    corrupt(CompressionCodec::kGzip, stream.msg != nullptr ? stream.msg : "corrupt stream");
  }
  require_size(CompressionCodec::kGzip, out_pos, out.size());
}

void decompress_zstd(std::span<const uint8_t> in, std::span<uint8_t> out) {
  thread_local std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> context(ZSTD_createDCtx(), ZSTD_freeDCtx);
  size_t rc = ZSTD_decompressDCtx(context.get(), out.data(), out.size(), in.data(), in.size());
  if (ZSTD_isError(rc)) corrupt(CompressionCodec::kZstd, ZSTD_getErrorName(rc));
  require_size(CompressionCodec::kZstd, rc, out.size());
}

/// One raw LZ4 block that must fill `out` exactly; false when it does not.
bool lz4_block(std::span<const uint8_t> in, std::span<uint8_t> out) {
  if (in.size() > INT_MAX || out.size() > INT_MAX) return false;
  int n = LZ4_decompress_safe(reinterpret_cast<const char*>(in.data()), reinterpret_cast<char*>(out.data()),
                              static_cast<int>(in.size()), static_cast<int>(out.size()));
  return n >= 0 && static_cast<size_t>(n) == out.size();
}

/// Hadoop framing: blocks of [uncompressed size BE32][compressed size BE32][LZ4 block]..., one or more compressed
/// chunks per block.
bool lz4_hadoop(std::span<const uint8_t> in, std::span<uint8_t> out) {
  size_t ip = 0;
  size_t op = 0;
  while (ip < in.size()) {
    if (in.size() - ip < 4) return false;
    size_t block_size = load_be32(in.data() + ip);
    ip += 4;
    if (block_size > out.size() - op) return false;
    size_t block_end = op + block_size;
    while (op < block_end) {
      if (in.size() - ip < 4) return false;
      size_t chunk = load_be32(in.data() + ip);
      ip += 4;
      if (chunk > in.size() - ip || chunk > INT_MAX) return false;
      int n = LZ4_decompress_safe(reinterpret_cast<const char*>(in.data() + ip),
                                  reinterpret_cast<char*>(out.data() + op), static_cast<int>(chunk),
                                  static_cast<int>(std::min<size_t>(block_end - op, INT_MAX)));
      if (n <= 0 && !(n == 0 && block_end == op)) return false;
      ip += chunk;
      op += static_cast<size_t>(n);
    }
  }
  return op == out.size();
}

bool lz4_frame(std::span<const uint8_t> in, std::span<uint8_t> out) {
  LZ4F_dctx* context = nullptr;
  if (LZ4F_isError(LZ4F_createDecompressionContext(&context, LZ4F_VERSION))) return false;
  std::unique_ptr<LZ4F_dctx, LZ4F_errorCode_t (*)(LZ4F_dctx*)> guard(context, LZ4F_freeDecompressionContext);
  size_t ip = 0;
  size_t op = 0;
  while (ip < in.size()) {
    size_t src_size = in.size() - ip;
    size_t dst_size = out.size() - op;
    size_t rc = LZ4F_decompress(context, out.data() + op, &dst_size, in.data() + ip, &src_size, nullptr);
    if (LZ4F_isError(rc)) return false;
    ip += src_size;
    op += dst_size;
    if (src_size == 0 && dst_size == 0) return false;  // no progress: output full or input truncated
  }
  return op == out.size();
}

void decompress_lz4_hadoop(std::span<const uint8_t> in, std::span<uint8_t> out) {
  if (lz4_hadoop(in, out) || lz4_frame(in, out) || lz4_block(in, out)) return;
  corrupt(CompressionCodec::kLz4Hadoop, "corrupt input (neither Hadoop framing, an LZ4 frame nor a raw block)");
}

void decompress_brotli(std::span<const uint8_t> in, std::span<uint8_t> out) {
  size_t out_size = out.size();
  if (BrotliDecoderDecompress(in.size(), in.data(), &out_size, out.data()) != BROTLI_DECODER_RESULT_SUCCESS) {
    corrupt(CompressionCodec::kBrotli, "corrupt input or output larger than expected");
  }
  require_size(CompressionCodec::kBrotli, out_size, out.size());
}

std::vector<uint8_t> gzip_member(std::span<const uint8_t> in, int level) {
  z_stream stream{};
  if (deflateInit2(&stream, level == 0 ? Z_DEFAULT_COMPRESSION : level, Z_DEFLATED, 15 + 16, 8,
                   Z_DEFAULT_STRATEGY) != Z_OK) {
    throw InternalError("cannot initialize zlib for compression");
  }
  std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&stream, deflateEnd);
  std::vector<uint8_t> out(deflateBound(&stream, in.size()) + 32);
  stream.next_in = const_cast<Bytef*>(in.data());
  stream.avail_in = static_cast<uInt>(in.size());
  stream.next_out = out.data();
  stream.avail_out = static_cast<uInt>(out.size());
  if (deflate(&stream, Z_FINISH) != Z_STREAM_END) throw InternalError("zlib compression did not finish");
  out.resize(stream.total_out);
  return out;
}

}  // namespace

const char* codec_name(CompressionCodec codec) {
  switch (codec) {
    case CompressionCodec::kUncompressed: return "UNCOMPRESSED";
    case CompressionCodec::kSnappy: return "SNAPPY";
    case CompressionCodec::kGzip: return "GZIP";
    case CompressionCodec::kLzo: return "LZO";
    case CompressionCodec::kBrotli: return "BROTLI";
    case CompressionCodec::kLz4Hadoop: return "LZ4";
    case CompressionCodec::kZstd: return "ZSTD";
    case CompressionCodec::kLz4Raw: return "LZ4_RAW";
  }
  return "UNKNOWN";
}

bool codec_supported(CompressionCodec codec) {
  return codec != CompressionCodec::kLzo && static_cast<uint8_t>(codec) <= static_cast<uint8_t>(CompressionCodec::kLz4Raw);
}

void decompress(CompressionCodec codec, std::span<const uint8_t> input, std::span<uint8_t> output) {
  switch (codec) {
    case CompressionCodec::kUncompressed:
      require_size(codec, input.size(), output.size());
      if (!input.empty()) std::memcpy(output.data(), input.data(), input.size());
      return;
    case CompressionCodec::kSnappy: return decompress_snappy(input, output);
    case CompressionCodec::kGzip: return decompress_gzip(input, output);
    case CompressionCodec::kBrotli: return decompress_brotli(input, output);
    case CompressionCodec::kLz4Hadoop: return decompress_lz4_hadoop(input, output);
    case CompressionCodec::kZstd: return decompress_zstd(input, output);
    case CompressionCodec::kLz4Raw:
      if (!lz4_block(input, output)) corrupt(codec, "corrupt block or size mismatch");
      return;
    case CompressionCodec::kLzo: break;
  }
  throw InvalidInput("compression codec " + std::string(codec_name(codec)) + " (" +
                     std::to_string(static_cast<int>(codec)) + ") is not supported");
}

std::vector<uint8_t> compress(CompressionCodec codec, std::span<const uint8_t> input, int level) {
  std::vector<uint8_t> out;
  switch (codec) {
    case CompressionCodec::kUncompressed: return {input.begin(), input.end()};
    case CompressionCodec::kSnappy: {
      size_t n = snappy_max_compressed_length(input.size());
      out.resize(n);
      if (snappy_compress(reinterpret_cast<const char*>(input.data()), input.size(),
                          reinterpret_cast<char*>(out.data()), &n) != SNAPPY_OK) {
        throw InternalError("snappy compression failed");
      }
      out.resize(n);
      return out;
    }
    case CompressionCodec::kGzip: return gzip_member(input, level);
    case CompressionCodec::kBrotli: {
      size_t n = BrotliEncoderMaxCompressedSize(input.size());
      out.resize(n == 0 ? input.size() + 1024 : n);
      n = out.size();
      if (!BrotliEncoderCompress(level == 0 ? BROTLI_DEFAULT_QUALITY : level, BROTLI_DEFAULT_WINDOW,
                                 BROTLI_DEFAULT_MODE, input.size(), input.data(), &n, out.data())) {
        throw InternalError("brotli compression failed");
      }
      out.resize(n);
      return out;
    }
    case CompressionCodec::kZstd: {
      out.resize(ZSTD_compressBound(input.size()));
      // One context per thread, reused: ZSTD_compress would allocate and initialize a new one for every page.
      thread_local std::unique_ptr<ZSTD_CCtx, size_t (*)(ZSTD_CCtx*)> context(ZSTD_createCCtx(), ZSTD_freeCCtx);
      size_t n = ZSTD_compressCCtx(context.get(), out.data(), out.size(), input.data(), input.size(),
                                   level == 0 ? 3 : level);
      if (ZSTD_isError(n)) throw InternalError(std::string("zstd compression failed: ") + ZSTD_getErrorName(n));
      out.resize(n);
      return out;
    }
    case CompressionCodec::kLz4Raw:
    case CompressionCodec::kLz4Hadoop: {
      if (input.size() > static_cast<size_t>(LZ4_MAX_INPUT_SIZE)) throw InvalidInput("LZ4 input too large");
      if (input.empty() && codec == CompressionCodec::kLz4Hadoop) return out;  // no blocks at all
      size_t header = codec == CompressionCodec::kLz4Hadoop ? 8 : 0;
      out.resize(header + static_cast<size_t>(LZ4_compressBound(static_cast<int>(input.size()))));
      int n = LZ4_compress_default(reinterpret_cast<const char*>(input.data()),
                                   reinterpret_cast<char*>(out.data() + header), static_cast<int>(input.size()),
                                   static_cast<int>(out.size() - header));
      if (n <= 0 && !input.empty()) throw InternalError("lz4 compression failed");
      if (header != 0) {
        store_be32(out.data(), static_cast<uint32_t>(input.size()));
        store_be32(out.data() + 4, static_cast<uint32_t>(n));
      }
      out.resize(header + static_cast<size_t>(n));
      return out;
    }
    case CompressionCodec::kLzo: break;
  }
  throw NotImplemented("compression codec " + std::string(codec_name(codec)) + " is not supported");
}

uint32_t crc32(std::span<const uint8_t> data, uint32_t crc) {
  uLong c = crc;
  size_t pos = 0;
  while (pos < data.size()) {
    uInt n = static_cast<uInt>(std::min<size_t>(data.size() - pos, UINT_MAX));
    c = ::crc32(c, data.data() + pos, n);
    pos += n;
  }
  return static_cast<uint32_t>(c);
}

}  // namespace kestrel::io
