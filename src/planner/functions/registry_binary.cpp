// Registry entries: binary (VARBINARY) functions.

#include "planner/functions/registry_tables.hpp"

namespace kestrel::plan::registry {

namespace {

using F = ScalarFunction;

constexpr std::string_view kNullGivesNull = "NULL when any argument is NULL.";

constexpr FunctionEntry kBinary[] = {
    scalar("crc32", F::kCrc32, 1, 1,
           {"crc32(binary VARBINARY) -> BIGINT", "The CRC-32 of binary (the checksum of zlib and gzip).",
            kNullGivesNull, "crc32(to_utf8('abc'))", "891568578"}),
    scalar("from_base64", F::kFromBase64, 1, 1,
           {"from_base64(string VARCHAR) -> VARBINARY\nfrom_base64(string VARBINARY) -> VARBINARY",
            "The bytes that string encodes in base64 (RFC 4648, `+` and `/`); the padding `=` may be left out. An "
            "error when string is not base64.",
            kNullGivesNull, "from_base64('a2VzdHJlbA==')", "6b 65 73 74 72 65 6c"}),
    scalar("from_base64url", F::kFromBase64Url, 1, 1,
           {"from_base64url(string VARCHAR) -> VARBINARY\nfrom_base64url(string VARBINARY) -> VARBINARY",
            "The bytes that string encodes in the URL-safe base64 alphabet (`-` and `_`); the padding may be left "
            "out. An error when string is not URL-safe base64.",
            kNullGivesNull, "from_base64url('-_8=')", "fb ff"}),
    scalar("from_big_endian_32", F::kFromBigEndian32, 1, 1,
           {"from_big_endian_32(binary VARBINARY) -> INTEGER",
            "The INTEGER whose two's complement big-endian bytes binary is; an error unless binary has 4 bytes.",
            kNullGivesNull, "from_big_endian_32(X'FFFFFFFE')", "-2"}),
    scalar("from_big_endian_64", F::kFromBigEndian64, 1, 1,
           {"from_big_endian_64(binary VARBINARY) -> BIGINT",
            "The BIGINT whose two's complement big-endian bytes binary is; an error unless binary has 8 bytes.",
            kNullGivesNull, "from_big_endian_64(X'0000000000000101')", "257"}),
    scalar("from_hex", F::kFromHex, 1, 1,
           {"from_hex(string VARCHAR) -> VARBINARY\nfrom_hex(string VARBINARY) -> VARBINARY",
            "The bytes that the hex digits of string spell, two digits a byte, in either case. An error when string "
            "has an odd number of characters or a character that is not a hex digit.",
            kNullGivesNull, "from_hex('00ff7F')", "00 ff 7f"}),
    scalar("from_utf8", F::kFromUtf8, 1, 2,
           {"from_utf8(binary VARBINARY) -> VARCHAR\nfrom_utf8(binary VARBINARY, replace VARCHAR) -> VARCHAR\n"
            "from_utf8(binary VARBINARY, replace BIGINT) -> VARCHAR",
            "binary read as UTF-8 text. Each invalid sequence of bytes becomes replace: U+FFFD by default, else a "
            "string of at most one character (empty drops the bytes) or a code point. An error when replace is "
            "longer or not a code point.",
            kNullGivesNull, "from_utf8(X'61FF62', '?')", "a?b"}),
    scalar("md5", F::kMd5, 1, 1,
           {"md5(binary VARBINARY) -> VARBINARY", "The 16-byte MD5 digest of binary.", kNullGivesNull,
            "to_hex(md5(to_utf8('abc')))", "900150983CD24FB0D6963F7D28E17F72"}),
    scalar("sha1", F::kSha1, 1, 1,
           {"sha1(binary VARBINARY) -> VARBINARY", "The 20-byte SHA-1 digest of binary.", kNullGivesNull,
            "to_hex(sha1(to_utf8('abc')))", "A9993E364706816ABA3E25717850C26C9CD0D89D"}),
    scalar("sha256", F::kSha256, 1, 1,
           {"sha256(binary VARBINARY) -> VARBINARY", "The 32-byte SHA-256 digest of binary.", kNullGivesNull,
            "to_hex(sha256(to_utf8('abc')))", "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD"}),
    scalar("sha512", F::kSha512, 1, 1,
           {"sha512(binary VARBINARY) -> VARBINARY", "The 64-byte SHA-512 digest of binary.", kNullGivesNull,
            "to_hex(sha512(to_utf8('abc')))",
            "DDAF35A193617ABACC417349AE20413112E6FA4E89A97EA20A9EEEE64B55D39A"
            "2192992A274FC1A836BA3C23A3FEEBBD454D4423643CE80E2A9AC94FA54CA49F"}),
    scalar("to_base64", F::kToBase64, 1, 1,
           {"to_base64(binary VARBINARY) -> VARCHAR", "binary in base64 (RFC 4648, `+` and `/`, padded with `=`).",
            kNullGivesNull, "to_base64(to_utf8('kestrel'))", "a2VzdHJlbA=="}),
    scalar("to_base64url", F::kToBase64Url, 1, 1,
           {"to_base64url(binary VARBINARY) -> VARCHAR",
            "binary in the URL-safe base64 alphabet (`-` and `_`, padded with `=`).", kNullGivesNull,
            "to_base64url(X'FBFF')", "-_8="}),
    scalar("to_big_endian_32", F::kToBigEndian32, 1, 1,
           {"to_big_endian_32(value INTEGER) -> VARBINARY", "The 4 bytes of value's two's complement, big-endian.",
            kNullGivesNull, "to_big_endian_32(-2)", "ff ff ff fe"}),
    scalar("to_big_endian_64", F::kToBigEndian64, 1, 1,
           {"to_big_endian_64(value BIGINT) -> VARBINARY", "The 8 bytes of value's two's complement, big-endian.",
            kNullGivesNull, "to_big_endian_64(257)", "00 00 00 00 00 00 01 01"}),
    scalar("to_hex", F::kToHex, 1, 1,
           {"to_hex(binary VARBINARY) -> VARCHAR", "binary as hex digits, two a byte, in upper case.", kNullGivesNull,
            "to_hex(X'00ff7f')", "00FF7F"}),
    scalar("to_utf8", F::kToUtf8, 1, 1,
           {"to_utf8(string VARCHAR) -> VARBINARY", "The UTF-8 bytes of string.", kNullGivesNull, "to_utf8('é!')",
            "c3 a9 21"}),
    scalar("xxhash64", F::kXxhash64, 1, 1,
           {"xxhash64(binary VARBINARY) -> VARBINARY",
            "The 64-bit xxHash (XXH64, seed 0) of binary as 8 big-endian bytes.", kNullGivesNull,
            "to_hex(xxhash64(X''))", "EF46DB3751D8E999"}),
    // More scalar functions (issue 15).
    scalar("to_ieee754_32", F::kToIeee754_32, 1, 1,
           {"to_ieee754_32(x REAL) -> VARBINARY", "The 4 big-endian bytes of x in IEEE 754 single precision.",
            kNullGivesNull, "to_ieee754_32(REAL '1.0')", "3f 80 00 00"}),
    scalar("from_ieee754_32", F::kFromIeee754_32, 1, 1,
           {"from_ieee754_32(binary VARBINARY) -> REAL",
            "The REAL whose IEEE 754 single-precision big-endian bytes binary is; an error unless it has 4 bytes.",
            kNullGivesNull, "from_ieee754_32(X'3FC00000')", "1.5"}),
    scalar("to_ieee754_64", F::kToIeee754_64, 1, 1,
           {"to_ieee754_64(x DOUBLE) -> VARBINARY", "The 8 big-endian bytes of x in IEEE 754 double precision.",
            kNullGivesNull, "to_ieee754_64(1.0E0)", "3f f0 00 00 00 00 00 00"}),
    scalar("from_ieee754_64", F::kFromIeee754_64, 1, 1,
           {"from_ieee754_64(binary VARBINARY) -> DOUBLE",
            "The DOUBLE whose IEEE 754 double-precision big-endian bytes binary is; an error unless it has 8 bytes.",
            kNullGivesNull, "from_ieee754_64(X'400C000000000000')", "3.5"}),
    scalar("spooky_hash_v2_32", F::kSpookyHashV2_32, 1, 1,
           {"spooky_hash_v2_32(binary VARBINARY) -> VARBINARY",
            "The 32-bit SpookyHash V2 of binary (seed 0) as 4 big-endian bytes.", kNullGivesNull,
            "spooky_hash_v2_32(to_utf8('hello'))", "d3 82 e6 ca"}),
    scalar("spooky_hash_v2_64", F::kSpookyHashV2_64, 1, 1,
           {"spooky_hash_v2_64(binary VARBINARY) -> VARBINARY",
            "The 64-bit SpookyHash V2 of binary (seed 0) as 8 big-endian bytes.", kNullGivesNull,
            "spooky_hash_v2_64(to_utf8('hello'))", "37 68 82 6a d3 82 e6 ca"}),
    scalar("hmac_md5", F::kHmacMd5, 2, 2,
           {"hmac_md5(binary VARBINARY, key VARBINARY) -> VARBINARY", "The HMAC of binary with key and MD5.",
            kNullGivesNull, "to_hex(hmac_md5(to_utf8('message'), to_utf8('key')))",
            "4E4748E62B463521F6775FBF921234B5"}),
    scalar("hmac_sha1", F::kHmacSha1, 2, 2,
           {"hmac_sha1(binary VARBINARY, key VARBINARY) -> VARBINARY", "The HMAC of binary with key and SHA-1.",
            kNullGivesNull, "to_hex(hmac_sha1(to_utf8('message'), to_utf8('key')))",
            "2088DF74D5F2146B48146CAF4965377E9D0BE3A4"}),
    scalar("hmac_sha256", F::kHmacSha256, 2, 2,
           {"hmac_sha256(binary VARBINARY, key VARBINARY) -> VARBINARY", "The HMAC of binary with key and SHA-256.",
            kNullGivesNull, "to_hex(hmac_sha256(to_utf8('message'), to_utf8('key')))",
            "6E9EF29B75FFFC5B7ABAE527D58FDADB2FE42E7219011976917343065F58ED4A"}),
    scalar("hmac_sha512", F::kHmacSha512, 2, 2,
           {"hmac_sha512(binary VARBINARY, key VARBINARY) -> VARBINARY", "The HMAC of binary with key and SHA-512.",
            kNullGivesNull, "length(hmac_sha512(to_utf8('message'), to_utf8('key')))", "64"}),
};

}  // namespace

std::span<const FunctionEntry> binary_functions() { return kBinary; }

}  // namespace kestrel::plan::registry
