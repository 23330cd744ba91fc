#!/usr/bin/env python3
"""Writes a corpus of small Parquet files for the GPU decoder's differential test (test/gpu/parquet_device_test.cpp):
pyarrow files for every codec x page version x dictionary setting over every type Kestrel reads (with NULLs), the
encodings pyarrow can be asked for (DELTA_*, BYTE_STREAM_SPLIT, RLE booleans), INT96 and decimals on every physical
type, and DuckDB files for each codec. Usage: make-parquet-corpus.py OUT_DIR (about 5 MB)."""
import datetime
import decimal
import random
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq


def typed_table(n=2000, seed=7):
    rnd = random.Random(seed)

    def maybe(v):
        return None if rnd.random() < 0.1 else v

    cols = {
        "b": pa.array([maybe(rnd.random() < 0.5) for _ in range(n)], pa.bool_()),
        "i8": pa.array([maybe(rnd.randint(-128, 127)) for _ in range(n)], pa.int8()),
        "i16": pa.array([maybe(rnd.randint(-30000, 30000)) for _ in range(n)], pa.int16()),
        "i32": pa.array([maybe(rnd.randint(-2**31, 2**31 - 1)) for _ in range(n)], pa.int32()),
        "i64": pa.array([maybe(rnd.randint(-2**63, 2**63 - 1)) for _ in range(n)], pa.int64()),
        "u8": pa.array([maybe(rnd.randint(0, 255)) for _ in range(n)], pa.uint8()),
        "u16": pa.array([maybe(rnd.randint(0, 65535)) for _ in range(n)], pa.uint16()),
        "u32": pa.array([maybe(rnd.randint(0, 2**32 - 1)) for _ in range(n)], pa.uint32()),
        "f32": pa.array([maybe(rnd.uniform(-1e6, 1e6)) for _ in range(n)], pa.float32()),
        "f64": pa.array([maybe(rnd.uniform(-1e12, 1e12)) for _ in range(n)], pa.float64()),
        "low_card": pa.array([maybe(rnd.choice(["AIR", "MAIL", "SHIP", "TRUCK", ""])) for _ in range(n)]),
        "text": pa.array([maybe("".join(rnd.choice("abcdefgh é") for _ in range(rnd.randint(0, 40))))
                          for _ in range(n)]),
        "d": pa.array([maybe(datetime.date(1970, 1, 1) + datetime.timedelta(days=rnd.randint(-20000, 20000)))
                       for _ in range(n)], pa.date32()),
        "ts_ms": pa.array([maybe(rnd.randint(-2**40, 2**40)) for _ in range(n)], pa.timestamp("ms")),
        "ts_us": pa.array([maybe(rnd.randint(-2**50, 2**50)) for _ in range(n)], pa.timestamp("us")),
        "ts_ns": pa.array([maybe(rnd.randint(-2**62, 2**62)) for _ in range(n)], pa.timestamp("ns")),
        "dec9": pa.array([maybe(decimal.Decimal(rnd.randint(-10**8, 10**8)).scaleb(-2)) for _ in range(n)],
                         pa.decimal128(9, 2)),
        "dec18": pa.array([maybe(decimal.Decimal(rnd.randint(-10**17, 10**17)).scaleb(-4)) for _ in range(n)],
                          pa.decimal128(18, 4)),
        "dec38": pa.array([maybe(decimal.Decimal(rnd.randint(-10**37, 10**37)).scaleb(-6)) for _ in range(n)],
                          pa.decimal128(38, 6)),
        "req": pa.array([rnd.randint(0, 1000) for _ in range(n)], pa.int32()),
    }
    return pa.table(cols)


def main():
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    t = typed_table()
    for codec in ["NONE", "SNAPPY", "GZIP", "ZSTD", "LZ4", "BROTLI"]:
        for version in ["1.0", "2.0"]:
            for dictionary in [True, False]:
                name = f"pa_{codec.lower()}_v{version[0]}_{'dict' if dictionary else 'plain'}.parquet"
                pq.write_table(t, out / name, compression=codec, data_page_version=version,
                               use_dictionary=dictionary, row_group_size=1500, data_page_size=4096)
    # Encodings pyarrow writes on request.
    pq.write_table(t.select(["i32", "i64", "req", "d", "ts_us"]), out / "pa_delta_binary_packed.parquet",
                   use_dictionary=False, column_encoding="DELTA_BINARY_PACKED", row_group_size=2000)
    pq.write_table(t.select(["text", "low_card"]), out / "pa_delta_length_byte_array.parquet",
                   use_dictionary=False, column_encoding="DELTA_LENGTH_BYTE_ARRAY")
    pq.write_table(t.select(["text", "low_card"]), out / "pa_delta_byte_array.parquet",
                   use_dictionary=False, column_encoding="DELTA_BYTE_ARRAY")
    pq.write_table(t.select(["f32", "f64", "i32", "i64"]), out / "pa_byte_stream_split.parquet",
                   use_dictionary=False, column_encoding="BYTE_STREAM_SPLIT", compression="ZSTD")
    pq.write_table(t.select(["b"]), out / "pa_rle_boolean_v2.parquet", use_dictionary=False,
                   data_page_version="2.0")
    pq.write_table(t.select(["ts_ns", "ts_us"]), out / "pa_int96.parquet", use_deprecated_int96_timestamps=True)
    pq.write_table(t.select(["dec9", "dec18", "dec38"]), out / "pa_decimal_integers.parquet",
                   store_decimal_as_integer=True)
    # One large row group of strings that outgrow the dictionary: dictionary pages, then plain ones.
    rnd = random.Random(3)
    big = pa.table({"s": pa.array(["".join(rnd.choice("abcdefghijklmnop") for _ in range(30)) for _ in range(40000)]),
                    "k": pa.array([rnd.randint(0, 50) for _ in range(40000)], pa.int64())})
    pq.write_table(big, out / "pa_dictionary_fallback.parquet", compression="SNAPPY", dictionary_pagesize_limit=65536)
    # Incompressible snappy pages (random values, bit-packed indices): streams of literals only, which the GPU
    # reader reads in place (one literal: pages up to 64 KiB) or gathers (several: bigger pages), nullable too.
    n = 60000
    noise = pa.table({"r64": pa.array([rnd.getrandbits(63) for _ in range(n)], pa.int64()),
                      "r32": pa.array([rnd.getrandbits(31) if i % 11 else None for i in range(n)], pa.int32()),
                      "k12": pa.array([rnd.randint(0, 4000) for _ in range(n)], pa.int32()),
                      "rs": pa.array(["%016x" % rnd.getrandbits(64) for _ in range(n)])})
    pq.write_table(noise, out / "pa_snappy_literals_big_pages.parquet", compression="SNAPPY", use_dictionary=["k12"],
                   data_page_size=1 << 20, row_group_size=n)
    pq.write_table(noise, out / "pa_snappy_literals_small_pages.parquet", compression="SNAPPY",
                   use_dictionary=["k12"], data_page_size=8192, row_group_size=25000, data_page_version="2.0")
    # PLAIN strings for the block walk of the GPU reader (8 KiB windows, 1024 values a round): a run of empty and
    # one-byte values (more values in one window than a round holds), values longer than a window, NULLs; in a big
    # page, and as a dictionary page of 40 values up to 9000 bytes long.
    n = 6000
    lengths = [(0 if i % 7 else 1) if i < 2500 else rnd.choice([3000, 8190, 8193, 20000]) if i % 13 == 0
               else rnd.randint(0, 64) for i in range(n)]
    few = ["y" * (k * 997 % 9000 if k % 4 == 0 else k) for k in range(40)]
    walk = pa.table({"s": pa.array([None if i % 31 == 7 else "".join(chr(97 + (i + j) % 26) for j in range(k))
                                    for i, k in enumerate(lengths)]),
                     "few": pa.array([few[(i * 7) % 40] for i in range(n)])})
    pq.write_table(walk, out / "pa_plain_strings_walk.parquet", compression="SNAPPY", use_dictionary=False,
                   data_page_size=1 << 20, row_group_size=n)
    pq.write_table(walk, out / "pa_dictionary_strings_walk.parquet", compression="NONE", use_dictionary=["few"],
                   data_page_size=1 << 16, row_group_size=n)
    try:
        import duckdb
        con = duckdb.connect()
        con.register("t", t.drop_columns(["u8", "u16", "u32", "ts_ns"]))
        for codec in ["uncompressed", "snappy", "gzip", "zstd", "lz4"]:
            con.execute(f"COPY t TO '{out}/duckdb_{codec}.parquet' (FORMAT parquet, COMPRESSION {codec}, "
                        f"ROW_GROUP_SIZE 2048)")
    except ImportError:
        pass
    print(f"wrote {len(list(out.glob('*.parquet')))} files to {out}")


if __name__ == "__main__":
    main()
