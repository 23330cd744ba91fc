"""Kestrel's Parquet reader against pyarrow, through the kestrel-parquet-cat tool.

(a) every file of parquet-testing/data: the CSV Kestrel prints equals pyarrow's reading (values, nulls, row order),
    nested columns (ARRAY, MAP, ROW, printed by the tool as JSON) included; where pyarrow cannot read a file, DuckDB
    is the oracle (a MAP whose key is declared optional) or a query checks what can be checked (1 GiB strings);
    an encrypted file, and any column listed in UNREADABLE, is a clean error naming the reason;
(b) files written here by pyarrow and DuckDB for every codec x page version x dictionary x type;
(c) parquet-testing/bad_data and truncated / bit-flipped copies of good files: exit status 1 with a message naming
    the file, never a signal, never a hang.

Values are compared in a canonical form per type so the comparison is exact: integers as ints, floats as the exact
double (NaN equal to NaN), decimals as exact Decimals, dates as day numbers, timestamps as microseconds since the
epoch (nanoseconds rounded down, as Kestrel stores microseconds), strings and binaries as bytes.
"""

import datetime
import decimal
import json
import math
import os
import random
import re
import shutil
import subprocess
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

REPO = Path(__file__).resolve().parents[2]
SHARED = (REPO / ".." / "shared").resolve()
DATA = SHARED / "parquet-testing" / "data"
BAD_DATA = SHARED / "parquet-testing" / "bad_data"
TIMEOUT = 60


def find_tool():
    explicit = os.environ.get("KESTREL_PARQUET_CAT", "")
    if explicit:
        return explicit
    # The most recently built of the usual build folders (a stale copy elsewhere must not be tested).
    candidates = [REPO / d / "kestrel-parquet-cat" for d in ("build", "build-parquet", "build-release")]
    built = [c for c in candidates if os.access(c, os.X_OK)]
    if not built:
        pytest.fail("kestrel-parquet-cat not built (set KESTREL_PARQUET_CAT or build it in build/)")
    return str(max(built, key=lambda c: c.stat().st_mtime))


TOOL = None


def build_dir_binary(name):
    """A binary of the build folder kestrel-parquet-cat comes from."""
    binary = Path(tool()).parent / name
    if not os.access(binary, os.X_OK):
        pytest.skip(f"{binary} not built")
    return str(binary)


def tool():
    global TOOL
    if TOOL is None:
        TOOL = find_tool()
    return TOOL


def run_cat(*args, timeout=TIMEOUT):
    proc = subprocess.run([tool(), *map(str, args)], capture_output=True, timeout=timeout)
    assert proc.returncode >= 0, f"kestrel-parquet-cat died by signal {-proc.returncode}: {args}"
    return proc


# ---------------------------------------------------------------------------------------------------------------
# CSV parsing (RFC 4180, tracking quoting so that NULL (empty, unquoted) and '' (quoted) differ)


def parse_csv(data: bytes):
    rows, row, field, quoted = [], [], bytearray(), False
    i, n = 0, len(data)
    at_field_start = True
    while i < n:
        c = data[i]
        if at_field_start and c == 0x22:  # opening quote
            quoted, at_field_start = True, False
            i += 1
            while True:
                if i >= n:
                    raise AssertionError("unterminated quoted field")
                if data[i] == 0x22:
                    if i + 1 < n and data[i + 1] == 0x22:
                        field.append(0x22)
                        i += 2
                        continue
                    i += 1
                    break
                field.append(data[i])
                i += 1
            continue
        if c == 0x2C:  # comma
            row.append(bytes(field) if (field or quoted) else None)
            field, quoted, at_field_start = bytearray(), False, True
        elif c == 0x0A:
            row.append(bytes(field) if (field or quoted) else None)
            rows.append(row)
            row, field, quoted, at_field_start = [], bytearray(), False, True
        else:
            field.append(c)
            at_field_start = False
        i += 1
    if row or field or quoted:
        row.append(bytes(field) if (field or quoted) else None)
        rows.append(row)
    return rows


# ---------------------------------------------------------------------------------------------------------------
# Canonical forms


def days_from_civil(y, m, d):
    y -= m <= 2
    era = y // 400  # floor division, as the C++ form (y - 399) / 400 does for negative years
    yoe = y - era * 400
    doy = (153 * (m - 3 if m > 2 else m + 9) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


DATE_RE = re.compile(rb"^(-?\d+)-(\d\d)-(\d\d)$")
TS_RE = re.compile(rb"^(-?\d+)-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?$")


def kestrel_date(text):
    m = DATE_RE.match(text)
    assert m, f"bad date text {text!r}"
    return days_from_civil(int(m[1]), int(m[2]), int(m[3]))


def kestrel_timestamp(text):
    m = TS_RE.match(text)
    assert m, f"bad timestamp text {text!r}"
    days = days_from_civil(int(m[1]), int(m[2]), int(m[3]))
    frac = int((m[7] or b"0").ljust(6, b"0"))
    return ((days * 86400 + int(m[4]) * 3600 + int(m[5]) * 60 + int(m[6])) * 1_000_000) + frac


def canon_float(x):
    return "nan" if math.isnan(x) else float(x).hex()


UNIT_DIVISOR = {"s": None, "ms": None, "us": 1, "ns": 1000}
UNIT_MULTIPLIER = {"s": 1_000_000, "ms": 1000, "us": 1, "ns": 1}


def arrow_canonical(array: pa.ChunkedArray):
    """Canonical python values of a pyarrow column (None for null)."""
    t = array.type
    if isinstance(t, pa.ExtensionType):
        array = pa.chunked_array([c.storage for c in array.chunks], type=t.storage_type)
        t = t.storage_type
    if pa.types.is_dictionary(t):
        array = array.cast(t.value_type)
        t = t.value_type
    if pa.types.is_timestamp(t):
        raw = array.cast(pa.int64()).to_pylist()
        if t.unit == "ns":
            return [None if v is None else v // 1000 for v in raw]
        return [None if v is None else v * UNIT_MULTIPLIER[t.unit] for v in raw]
    if pa.types.is_date32(t):
        return array.cast(pa.int32()).to_pylist()
    if pa.types.is_date64(t):
        return [None if v is None else v // 86_400_000 for v in array.cast(pa.int64()).to_pylist()]
    if pa.types.is_floating(t):
        return [None if v is None else canon_float(float(v)) for v in array.to_pylist()]
    if pa.types.is_boolean(t):
        return array.to_pylist()
    if pa.types.is_integer(t):
        return array.to_pylist()
    if pa.types.is_decimal(t):
        return array.to_pylist()
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return [None if v is None else v.encode("utf-8") for v in array.to_pylist()]
    if (pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_fixed_size_binary(t)
            or pa.types.is_binary_view(t)):
        return array.to_pylist()
    if pa.types.is_null(t):
        return [None] * len(array)
    raise AssertionError(f"no canonical form for arrow type {t}")


def kestrel_canonical(kestrel_type: str, fields):
    out = []
    for f in fields:
        if f is None:
            out.append(None)
        elif kestrel_type == "BOOLEAN":
            assert f in (b"true", b"false"), f
            out.append(f == b"true")
        elif kestrel_type in ("TINYINT", "SMALLINT", "INTEGER", "BIGINT"):
            out.append(int(f))
        elif kestrel_type in ("REAL", "DOUBLE"):
            text = f.decode()
            v = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}.get(text)
            out.append(canon_float(float(text) if v is None else v))
        elif kestrel_type.startswith("DECIMAL"):
            out.append(decimal.Decimal(f.decode()))
        elif kestrel_type == "DATE":
            out.append(kestrel_date(f))
        elif kestrel_type == "TIMESTAMP":
            out.append(kestrel_timestamp(f))
        elif kestrel_type == "VARCHAR":
            out.append(f)
        elif kestrel_type == "VARBINARY":
            out.append(bytes.fromhex(f.decode()))  # printed as hex bytes separated by spaces
        else:
            raise AssertionError(f"unknown Kestrel type {kestrel_type}")
    return out


def normalize_arrow_value(kestrel_type, v):
    """Arrow values whose Kestrel type differs in kind (UINT64 read as DECIMAL(20,0))."""
    if v is None:
        return None
    if kestrel_type.startswith("DECIMAL") and isinstance(v, int):
        return decimal.Decimal(v)
    return v


# ---------------------------------------------------------------------------------------------------------------
# Kestrel side


def kestrel_schema(path):
    proc = run_cat("--schema", path)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    columns = []
    for line in proc.stdout.decode("utf-8", errors="surrogateescape").splitlines():
        if line.startswith("#"):
            continue
        name, ktype, extra = line.split("\t")
        if ktype == "UNSUPPORTED":
            columns.append((name, None))
        else:
            assert extra in ("NULL", "NOT NULL"), line
            columns.append((name, ktype))
    return columns


NESTED_PREFIXES = ("ARRAY(", "MAP(", "ROW(")


def unwrap_arrow_type(t):
    if isinstance(t, pa.ExtensionType):
        t = t.storage_type
    if pa.types.is_dictionary(t):
        t = t.value_type
    return t


def is_arrow_list(t):
    return (pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t)
            or pa.types.is_list_view(t) or pa.types.is_large_list_view(t))


def arrow_nested_canonical(array):
    """Canonical python values of a (possibly nested) pyarrow array: lists as lists, maps as lists of [key, value],
    structs as lists of [name, value], leaves as arrow_canonical gives them."""
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks() if array.num_chunks != 1 else array.chunk(0)
    if isinstance(array.type, pa.ExtensionType):
        array = array.storage
    t = array.type
    nulls = array.is_null().to_pylist()
    if pa.types.is_map(t):
        keys, items = array.values.flatten()
        child = [[k, v] for k, v in zip(arrow_nested_canonical(keys), arrow_nested_canonical(items))]
    elif is_arrow_list(t):
        child = arrow_nested_canonical(array.values)
    elif pa.types.is_struct(t):
        names = [t.field(i).name for i in range(t.num_fields)]
        kids = [arrow_nested_canonical(k) for k in array.flatten()]
        return [None if nulls[i] else [[n, k[i]] for n, k in zip(names, kids)] for i in range(len(array))]
    else:
        return arrow_canonical(pa.chunked_array([array], type=t))
    if pa.types.is_fixed_size_list(t):
        size = t.list_size
        starts = [(array.offset + i) * size for i in range(len(array) + 1)]
    else:
        starts = array.offsets.to_pylist()
    return [None if nulls[i] else child[starts[i]:starts[i + 1]] for i in range(len(array))]


def kestrel_leaf(t, text):
    """A flat value inside a nested one, printed by the tool as a JSON string, in the canonical form of arrow type t."""
    if text is None:
        return None
    t = unwrap_arrow_type(t)
    raw = text.encode("utf-8", "surrogateescape")
    if pa.types.is_timestamp(t):
        return kestrel_timestamp(raw)
    if pa.types.is_date(t):
        return kestrel_date(raw)
    if pa.types.is_floating(t):
        return kestrel_canonical("DOUBLE", [raw])[0]
    if pa.types.is_boolean(t):
        return kestrel_canonical("BOOLEAN", [raw])[0]
    if pa.types.is_integer(t):
        return int(text)
    if pa.types.is_decimal(t):
        return decimal.Decimal(text)
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return raw
    if (pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_fixed_size_binary(t)
            or pa.types.is_binary_view(t)):
        return bytes.fromhex(text)
    raise AssertionError(f"no canonical form for arrow type {t} (value {text!r})")


def kestrel_nested_canonical(t, value):
    """The JSON the tool prints for a nested value, walked with arrow type t into arrow_nested_canonical's form."""
    if value is None:
        return None
    t = unwrap_arrow_type(t)
    if pa.types.is_map(t):
        return [[kestrel_nested_canonical(t.key_type, k), kestrel_nested_canonical(t.item_type, v)] for k, v in value]
    if is_arrow_list(t):
        return [kestrel_nested_canonical(t.value_type, x) for x in value]
    if pa.types.is_struct(t):
        fields = [t.field(i) for i in range(t.num_fields)]
        assert list(value.keys()) == [f.name for f in fields], f"fields {list(value.keys())} vs arrow's {t}"
        return [[f.name, kestrel_nested_canonical(f.type, value[f.name])] for f in fields]
    return kestrel_leaf(t, value)


def compare_column(path, name, ktype, arrow_column, cells, oracle="pyarrow"):
    """Kestrel's printed `cells` of one column equal the oracle's `arrow_column`."""
    if ktype.startswith(NESTED_PREFIXES):
        expected = arrow_nested_canonical(arrow_column)
        actual = [None if c is None else
                  kestrel_nested_canonical(arrow_column.type, json.loads(c.decode("utf-8", "surrogateescape")))
                  for c in cells]
    else:
        check_byte_kind(path, name, ktype, arrow_column.type)
        expected = [normalize_arrow_value(ktype, v) for v in arrow_canonical(arrow_column)]
        actual = kestrel_canonical(ktype, cells)
    if actual != expected:
        bad = next(j for j in range(len(actual)) if actual[j] != expected[j])
        raise AssertionError(f"{path}: column {name} ({ktype}) row {bad}: kestrel {actual[bad]!r} "
                             f"vs {oracle} {expected[bad]!r}")


def compare_file(path, columns=None, read_kwargs=None, extra_args=(), table=None, oracle="pyarrow"):
    """Kestrel's CSV of `columns` (all when None) of `path` equals pyarrow's reading (or `table`, the oracle's)."""
    schema = dict(kestrel_schema(path))
    args = list(extra_args)
    if columns is not None:
        args += ["--columns", ",".join(columns)]
    proc = run_cat(*args, path)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    rows = parse_csv(proc.stdout)
    header = [h.decode() for h in rows[0]]
    body = rows[1:]
    if table is None:
        table = pq.read_table(path, columns=columns, coerce_int96_timestamp_unit="us", **(read_kwargs or {}))
    assert header == table.column_names
    assert len(body) == table.num_rows, f"{len(body)} rows vs {oracle}'s {table.num_rows}"
    for i, name in enumerate(header):
        ktype = schema[name]
        assert ktype is not None, f"column {name} unreadable"
        compare_column(path, name, ktype, table.column(i), [r[i] for r in body], oracle)


def check_byte_kind(path, name, ktype, arrow_type):
    """Byte columns read as pyarrow reads them: text (STRING, ENUM annotations) as VARCHAR, JSON as JSON (pyarrow's
    json extension type), other bytes as VARBINARY."""
    if pa.types.is_dictionary(arrow_type):
        arrow_type = arrow_type.value_type
    if getattr(arrow_type, "extension_name", None) == "arrow.json":
        assert ktype == "JSON", f"{path}: column {name} is {arrow_type} in pyarrow, {ktype} in Kestrel"
        return
    if isinstance(arrow_type, pa.ExtensionType):
        arrow_type = arrow_type.storage_type
    text = pa.types.is_string(arrow_type) or pa.types.is_large_string(arrow_type) or pa.types.is_string_view(arrow_type)
    binary = (pa.types.is_binary(arrow_type) or pa.types.is_large_binary(arrow_type)
              or pa.types.is_fixed_size_binary(arrow_type) or pa.types.is_binary_view(arrow_type))
    if text:
        assert ktype == "VARCHAR", f"{path}: column {name} is {arrow_type} in pyarrow, {ktype} in Kestrel"
    elif binary and ktype in ("VARCHAR", "VARBINARY"):
        assert ktype == "VARBINARY", f"{path}: column {name} is {arrow_type} in pyarrow, {ktype} in Kestrel"


def assert_clean_error(proc, path, expect=None):
    assert proc.returncode == 1, f"exit {proc.returncode}: {proc.stderr!r}"
    message = proc.stderr.decode(errors="replace")
    assert str(path) in message or Path(path).name in message, message
    if expect:
        assert expect in message, message


# ---------------------------------------------------------------------------------------------------------------
# (a) parquet-testing/data

DATA_FILES = sorted(p for p in DATA.iterdir() if p.suffix in (".parquet", ".encrypted")) if DATA.exists() else []


def pyarrow_can_read(path):
    try:
        pq.read_table(path, coerce_int96_timestamp_unit="us")
        return True
    except Exception:
        return False


def test_data_folder_exists():
    assert DATA.exists(), f"{DATA} is missing"
    assert len(DATA_FILES) > 40


#: Columns of parquet-testing/data that Kestrel cannot read, and the reason its error gives. Empty today: every
#: nested column there maps onto ARRAY, MAP or ROW.
UNREADABLE = {}

#: Files pyarrow cannot read, and the oracle used instead.
#:   incorrect_map_schema: a MAP whose key is declared optional (pyarrow refuses the schema; the key holds no NULL,
#:     so Kestrel reads it, as DuckDB does): compared with DuckDB's reading.
#:   large_string_map.brotli: two maps, each with one key of 1 GiB (pyarrow's read_table cannot make one array of
#:     them): checked by test_large_string_map, which needs 4 GB of memory and half a minute.
DUCKDB_ORACLE = {"incorrect_map_schema.parquet"}
CHECKED_APART = {"large_string_map.brotli.parquet"}


def nested_file(path):
    return any(t is not None and t.startswith(NESTED_PREFIXES) for _, t in kestrel_schema(path))


def test_every_nested_file_is_compared():
    """The nested files of the corpus that pyarrow reads are compared like the flat ones (a guard against this test
    silently skipping them): every file with a LIST, MAP or STRUCT in its schema maps it onto a Kestrel type."""
    nested = {p.name for p in DATA_FILES if p.suffix == ".parquet" and nested_file(p)}
    assert {"nested_lists.snappy.parquet", "list_columns.parquet", "null_list.parquet",
            "repeated_no_annotation.parquet", "repeated_primitive_no_list.parquet", "map_no_value.parquet",
            "incorrect_map_schema.parquet", "large_string_map.brotli.parquet", "nonnullable.impala.parquet",
            "nullable.impala.parquet", "nulls.snappy.parquet", "datapage_v2.snappy.parquet"} <= nested


@pytest.mark.parametrize("path", DATA_FILES, ids=[p.name for p in DATA_FILES])
def test_parquet_testing_file(path):
    if path.name.endswith(".encrypted"):
        assert_clean_error(run_cat(path), path, "encryption is not supported")
        return
    if path.name in CHECKED_APART:
        pytest.skip("checked by its own test")
    schema = kestrel_schema(path)
    unreadable = {n: reason for n, reason in UNREADABLE.get(path.name, {}).items()}
    assert {n for n, t in schema if t is None} == set(unreadable), f"{path.name}: unreadable columns changed"
    readable = [n for n, t in schema if t is not None]
    if unreadable:
        # SELECT * semantics: the unreadable column is a clean NotImplemented error naming the reason...
        assert_clean_error(run_cat(path), path, next(iter(unreadable.values())))
        # ...and the other columns still read, identical to pyarrow.
        if readable and pyarrow_can_read(path):
            compare_file(path, readable)
        elif readable:
            assert run_cat("--columns", ",".join(readable), path).returncode == 0
        return
    if path.name in DUCKDB_ORACLE:
        assert not pyarrow_can_read(path)
        duckdb = pytest.importorskip("duckdb")
        compare_file(path, table=duckdb.sql(f"SELECT * FROM read_parquet('{path}')").to_arrow_table(),
                     oracle="duckdb")
        return
    compare_file(path)


def test_large_string_map():
    """Two rows of MAP(VARCHAR, INTEGER), each one key of 2^30 'a's with the value 1 (as pyarrow reads the file batch
    by batch): Kestrel reads its 1 GiB pages (compressed to 1.6 KB) and the query sees exactly those keys."""
    path = DATA / "large_string_map.brotli.parquet"
    reader = pq.ParquetFile(path)
    expected = []
    for batch in reader.iter_batches(batch_size=1):
        for entries in batch.column(0).to_pylist():
            expected.append((len(entries), len(entries[0][0]), len(entries[0][0].replace("a", "")), entries[0][1]))
    kestrel = build_dir_binary("kestrel")
    sql = ("SELECT cardinality(arr), length(map_keys(arr)[1]), length(replace(map_keys(arr)[1], 'a', '')), "
           f"map_values(arr)[1] FROM read_parquet('{path}')")
    proc = subprocess.run([kestrel, "--device", "cpu", "--format", "csv", "-c", sql], capture_output=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    got = [tuple(int(x) for x in line.split(",")) for line in proc.stdout.decode().splitlines()[1:]]
    assert got == expected == [(1, 2**30, 0, 1)] * 2


def test_dictionary_off_matches():
    for name in ("alltypes_dictionary.parquet", "data_index_bloom_encoding_with_length.parquet",
                 "sort_columns.parquet"):
        compare_file(DATA / name, extra_args=["--no-dictionary"])


def test_checksums():
    for name in ("datapage_v1-uncompressed-checksum.parquet", "datapage_v1-snappy-compressed-checksum.parquet",
                 "plain-dict-uncompressed-checksum.parquet"):
        compare_file(DATA / name, extra_args=["--verify-checksums"])
    for name in ("datapage_v1-corrupt-checksum.parquet", "rle-dict-uncompressed-corrupt-checksum.parquet"):
        path = DATA / name
        assert_clean_error(run_cat("--verify-checksums", path), path, "checksum")
        assert run_cat(path).returncode == 0  # without verification the data still reads


def test_delta_expectations_match_csv():
    """The parquet-testing expectation CSVs agree with Kestrel too (an oracle independent of pyarrow)."""
    for stem in ("delta_binary_packed", "delta_byte_array", "delta_encoding_required_column"):
        proc = run_cat(DATA / f"{stem}.parquet")
        assert proc.returncode == 0
        ours = parse_csv(proc.stdout)
        theirs = parse_csv((DATA / f"{stem}_expect.csv").read_bytes())
        assert len(ours) == len(theirs)
        for a, b in zip(ours[1:], theirs[1:]):
            assert [x or b"" for x in a] == [x or b"" for x in b]


def test_missing_and_non_parquet_files(tmp_path):
    missing = tmp_path / "nope.parquet"
    assert_clean_error(run_cat(missing), missing)
    text = tmp_path / "text.parquet"
    text.write_bytes(b"hello, this is not parquet at all")
    assert_clean_error(run_cat(text), text, "not a Parquet file")


# ---------------------------------------------------------------------------------------------------------------
# (b) files written by pyarrow and DuckDB

CODECS = ["NONE", "SNAPPY", "GZIP", "ZSTD", "LZ4", "BROTLI"]


def typed_table(n=3000, seed=7):
    rnd = random.Random(seed)

    def maybe(v):
        return None if rnd.random() < 0.1 else v

    def dec(p, s):
        return decimal.Decimal(rnd.randrange(-(10 ** p) + 1, 10 ** p)).scaleb(-s)

    cols = {
        "b": pa.array([maybe(rnd.random() < 0.5) for _ in range(n)], pa.bool_()),
        "i8": pa.array([maybe(rnd.randrange(-128, 128)) for _ in range(n)], pa.int8()),
        "i16": pa.array([maybe(rnd.randrange(-32768, 32768)) for _ in range(n)], pa.int16()),
        "i32": pa.array([maybe(rnd.randrange(-2**31, 2**31)) for _ in range(n)], pa.int32()),
        "i64": pa.array([maybe(rnd.randrange(-2**63, 2**63)) for _ in range(n)], pa.int64()),
        "u8": pa.array([maybe(rnd.randrange(0, 256)) for _ in range(n)], pa.uint8()),
        "u16": pa.array([maybe(rnd.randrange(0, 65536)) for _ in range(n)], pa.uint16()),
        "u32": pa.array([maybe(rnd.randrange(0, 2**32)) for _ in range(n)], pa.uint32()),
        "u64": pa.array([maybe(rnd.randrange(0, 2**64)) for _ in range(n)], pa.uint64()),
        "f32": pa.array([maybe(rnd.choice([rnd.uniform(-1e6, 1e6), math.nan, math.inf, -0.0, 1e-40]))
                         for _ in range(n)], pa.float32()),
        "f64": pa.array([maybe(rnd.choice([rnd.uniform(-1e300, 1e300), math.nan, -math.inf, 5e-324, 0.1]))
                         for _ in range(n)], pa.float64()),
        "f16": pa.array([maybe(rnd.choice([1.5, -2.25, 65504.0, 6e-8, math.inf, 0.0]))
                         for _ in range(n)], pa.float16()),
        "s": pa.array([maybe(rnd.choice(["", "a", "b,c", 'q"uote', "new\nline", "ü€😀", "x" * 300]))
                       for _ in range(n)], pa.string()),
        "s_hi": pa.array([maybe("v%08d" % rnd.randrange(10 ** 8)) for _ in range(n)], pa.string()),
        "bin": pa.array([maybe(bytes(rnd.randrange(256) for _ in range(rnd.randrange(6)))) for _ in range(n)],
                        pa.binary()),
        "fsb": pa.array([maybe(bytes(rnd.randrange(256) for _ in range(4))) for _ in range(n)], pa.binary(4)),
        "d": pa.array([maybe(rnd.randrange(-800000, 2900000)) for _ in range(n)], pa.int32()).cast(pa.date32()),
        "ts_ms": pa.array([maybe(rnd.randrange(-10 ** 13, 10 ** 13)) for _ in range(n)], pa.timestamp("ms")),
        "ts_us": pa.array([maybe(rnd.randrange(-10 ** 16, 10 ** 16)) for _ in range(n)], pa.timestamp("us")),
        "ts_ns": pa.array([maybe(rnd.randrange(-2 ** 63 + 1, 2 ** 63)) for _ in range(n)], pa.timestamp("ns")),
        "ts_utc": pa.array([maybe(rnd.randrange(-10 ** 16, 10 ** 16)) for _ in range(n)],
                           pa.timestamp("us", tz="UTC")),
        "dec9": pa.array([maybe(dec(9, 2)) for _ in range(n)], pa.decimal128(9, 2)),
        "dec18": pa.array([maybe(dec(18, 6)) for _ in range(n)], pa.decimal128(18, 6)),
        "dec38": pa.array([maybe(dec(38, 10)) for _ in range(n)], pa.decimal128(38, 10)),
        "dec5_0": pa.array([maybe(dec(5, 0)) for _ in range(n)], pa.decimal128(5, 0)),
        "req": pa.array([rnd.randrange(100) for _ in range(n)], pa.int64()),
    }
    schema = pa.schema([pa.field(k, v.type, nullable=(k != "req")) for k, v in cols.items()])
    return pa.Table.from_arrays(list(cols.values()), schema=schema)


@pytest.fixture(scope="module")
def table():
    return typed_table()


@pytest.mark.parametrize("codec", CODECS)
@pytest.mark.parametrize("page_version", ["1.0", "2.0"])
@pytest.mark.parametrize("dictionary", [True, False])
def test_pyarrow_written(tmp_path, table, codec, page_version, dictionary):
    path = tmp_path / f"t_{codec}_{page_version}_{dictionary}.parquet"
    pq.write_table(table, path, compression=codec, data_page_version=page_version, use_dictionary=dictionary,
                   row_group_size=1100, data_page_size=4096, write_statistics=True)
    compare_file(path)


@pytest.mark.parametrize("store_decimal_as_integer", [True, False])
def test_pyarrow_decimal_physical_types(tmp_path, table, store_decimal_as_integer):
    """DECIMAL on INT32 / INT64 (store_decimal_as_integer) and on FIXED_LEN_BYTE_ARRAY (the default)."""
    path = tmp_path / "dec.parquet"
    pq.write_table(table.select(["dec9", "dec18", "dec38", "dec5_0"]), path,
                   store_decimal_as_integer=store_decimal_as_integer)
    physical = {pq.ParquetFile(path).schema.column(i).physical_type for i in range(4)}
    assert physical == ({"INT32", "INT64", "FIXED_LEN_BYTE_ARRAY"} if store_decimal_as_integer
                        else {"FIXED_LEN_BYTE_ARRAY"})
    compare_file(path)


def test_pyarrow_int96_and_encodings(tmp_path, table):
    path = tmp_path / "int96.parquet"
    pq.write_table(table.select(["ts_ms", "ts_us", "ts_ns", "i64"]), path, use_deprecated_int96_timestamps=True)
    assert pq.ParquetFile(path).schema.column(0).physical_type == "INT96"
    compare_file(path)
    # Explicit encodings per column.
    path = tmp_path / "enc.parquet"
    encodings = {"i32": "DELTA_BINARY_PACKED", "i64": "DELTA_BINARY_PACKED", "s": "DELTA_LENGTH_BYTE_ARRAY",
                 "s_hi": "DELTA_BYTE_ARRAY", "bin": "DELTA_BYTE_ARRAY", "f32": "BYTE_STREAM_SPLIT",
                 "f64": "BYTE_STREAM_SPLIT", "fsb": "BYTE_STREAM_SPLIT", "b": "RLE", "d": "DELTA_BINARY_PACKED",
                 "req": "BYTE_STREAM_SPLIT", "dec18": "BYTE_STREAM_SPLIT"}
    for version in ("1.0", "2.0"):
        pq.write_table(table.select(list(encodings)), path, use_dictionary=False, column_encoding=encodings,
                       data_page_version=version, data_page_size=2048)
        compare_file(path)


def test_pyarrow_empty_and_all_null(tmp_path):
    t = pa.table({"a": pa.array([], pa.int32()), "s": pa.array([], pa.string())})
    path = tmp_path / "empty.parquet"
    pq.write_table(t, path)
    compare_file(path)
    t = pa.table({"a": pa.array([None] * 50, pa.int32()), "s": pa.array([None] * 50, pa.string())})
    for version in ("1.0", "2.0"):
        pq.write_table(t, path, data_page_version=version)
        compare_file(path)


@pytest.mark.parametrize("codec", ["uncompressed", "snappy", "gzip", "zstd", "lz4", "brotli"])
def test_duckdb_written(tmp_path, codec):
    duckdb = pytest.importorskip("duckdb")
    path = tmp_path / f"duck_{codec}.parquet"
    con = duckdb.connect()
    con.execute(f"""
        COPY (SELECT i::INTEGER AS i, (i * 7919)::BIGINT AS big, i % 3 = 0 AS flag,
                     CASE WHEN i % 11 = 0 THEN NULL ELSE 'str' || (i % 17) END AS s,
                     (i * 1.25)::DOUBLE AS dbl, (i / 3.0)::REAL AS r,
                     DATE '2001-02-03' + (i % 1000)::INTEGER AS d,
                     TIMESTAMP '1999-12-31 23:59:59.123456' + to_microseconds(i * 1000003) AS ts,
                     (i * 0.01)::DECIMAL(4,2) AS d4, (i * 1.5)::DECIMAL(15,3) AS d15,
                     (i::HUGEINT * 12345678901234567)::DECIMAL(38,5) AS d38,
                     (i % 256)::UTINYINT AS u8, ((i * 3) % 65536)::USMALLINT AS u16, (i * 100003)::UINTEGER AS u32,
                     (18446744073709551615::UBIGINT - (i::UBIGINT * 3000000000000007)) AS u64, (i % 128 - 64)::TINYINT AS t8,
                     (i % 30000)::SMALLINT AS t16
              FROM range(0, 5000) t(i) WHERE i < 128 OR i % 7 <> 0)
        TO '{path}' (FORMAT parquet, COMPRESSION {codec}, ROW_GROUP_SIZE 1024)""")
    compare_file(path)
    # DuckDB's page v2 writer as well, where available.
    try:
        con.execute(f"COPY (SELECT i, 'x' || i AS s FROM range(3000) t(i)) TO '{path}' "
                    f"(FORMAT parquet, COMPRESSION {codec}, PARQUET_VERSION V2)")
    except Exception:
        return
    compare_file(path)


def test_folder_and_glob_as_one_table(tmp_path, table):
    folder = tmp_path / "tbl"
    (folder / "part=1").mkdir(parents=True)
    small = table.select(["i32", "s", "dec18"])
    pq.write_table(small.slice(0, 1000), folder / "a.parquet", row_group_size=300)
    pq.write_table(small.slice(1000, 1000), folder / "part=1" / "b.parquet", compression="zstd")
    (folder / "_SUCCESS").write_bytes(b"")
    (folder / ".hidden.parquet").write_bytes(b"junk")
    expected = small.slice(0, 2000)
    for location in (folder, str(folder / "*.parquet")):
        proc = run_cat(location)
        assert proc.returncode == 0, proc.stderr
        rows = parse_csv(proc.stdout)[1:]
        want = 2000 if location == folder else 1000
        assert len(rows) == want
        got = kestrel_canonical("INTEGER", [r[0] for r in rows])
        assert got == expected.column(0).to_pylist()[:want]
    # A file with a different type for a column makes the table invalid, naming that file.
    pq.write_table(pa.table({"i32": pa.array([1], pa.int64()), "s": ["x"], "dec18": pa.array(
        [decimal.Decimal(1)], pa.decimal128(18, 6))}), folder / "z.parquet")
    proc = run_cat(folder)
    assert_clean_error(proc, folder / "z.parquet", "i32")


def test_scan_only_counts_rows(tmp_path, table):
    path = tmp_path / "t.parquet"
    pq.write_table(table, path, row_group_size=700)
    for threads in ("1", "4"):
        proc = run_cat("--scan-only", "--threads", threads, path)
        assert proc.returncode == 0, proc.stderr
        assert int(proc.stdout) == table.num_rows


# ---------------------------------------------------------------------------------------------------------------
# (c) bad files

BAD_FILES = sorted(p for p in BAD_DATA.iterdir() if p.suffix == ".parquet") if BAD_DATA.exists() else []


@pytest.mark.parametrize("path", BAD_FILES, ids=[p.name for p in BAD_FILES])
def test_bad_data_fails_cleanly(path):
    """A clean error naming the file. ARROW-GH-43605 is the exception: its 'bad' part (dictionary indices of bit width
    0 over a one-entry dictionary) is valid Parquet that pyarrow reads too, so there the answers must agree."""
    proc = run_cat(path)
    if path.name == "ARROW-GH-43605.parquet":
        assert pyarrow_can_read(path)
        compare_file(path)
        return
    assert_clean_error(proc, path)
    # Its readable columns alone (when it opens at all): read or a clean error, never a crash.
    schema = run_cat("--schema", path)
    if schema.returncode != 0:
        assert_clean_error(schema, path)
        return
    readable = [n for n, t in kestrel_schema(path) if t is not None]
    if readable:
        proc = run_cat("--columns", ",".join(readable), path)
        if proc.returncode != 0:
            assert_clean_error(proc, path)


def good_files():
    names = ["alltypes_plain.snappy.parquet", "alltypes_tiny_pages_plain.parquet", "delta_byte_array.parquet",
             "byte_stream_split.zstd.parquet", "datapage_v2.snappy.parquet", "fixed_length_decimal.parquet",
             "rle_boolean_encoding.parquet", "hadoop_lz4_compressed.parquet", "delta_length_byte_array.parquet",
             "data_index_bloom_encoding_stats.parquet", "float16_nonzeros_and_nans.parquet",
             "delta_binary_packed.parquet", "nullable.impala.parquet", "nested_lists.snappy.parquet",
             "repeated_no_annotation.parquet", "map_no_value.parquet"]
    return [DATA / n for n in names]


@pytest.mark.parametrize("path", good_files(), ids=lambda p: p.name)
def test_truncated_and_bit_flipped_copies(tmp_path, path):
    data = path.read_bytes()
    rnd = random.Random(path.name)
    copies = []
    for cut in sorted({1, 4, 8, 12, len(data) // 3, len(data) // 2, len(data) - 9, len(data) - 1}):
        copies.append(("trunc%d" % cut, data[:cut]))
    for k in range(60):
        flipped = bytearray(data)
        for _ in range(1 + k % 3):
            pos = rnd.randrange(len(flipped))
            flipped[pos] ^= 1 << rnd.randrange(8)
        copies.append(("flip%d" % k, bytes(flipped)))
    for label, content in copies:
        copy = tmp_path / f"{label}_{path.name}"
        copy.write_bytes(content)
        for args in ([], ["--verify-checksums"]):
            proc = run_cat(*args, copy, timeout=30)
            if proc.returncode != 0:
                assert_clean_error(proc, copy)
        copy.unlink()


# ---------------------------------------------------------------------------------------------------------------
# Row-group pruning: never drops a row group holding a matching row, and does drop what statistics rule out


def kept_row_groups(path, *predicates):
    args = []
    for p in predicates:
        args += ["--prune", p]
    proc = run_cat(*args, path)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    return [int(line.split(b"\t")[1]) for line in proc.stdout.splitlines()]


def matches(column: pa.Array, op, values):
    import pyarrow.compute as pc
    if op == "IS NULL":
        return pc.is_null(column)
    if op == "IS NOT NULL":
        return pc.is_valid(column)
    if op == "BETWEEN":
        return pc.and_(pc.greater_equal(column, values[0]), pc.less_equal(column, values[1]))
    if op == "IN":
        return pc.is_in(column, value_set=pa.array(values, type=column.type))
    fn = {"=": pc.equal, "<": pc.less, "<=": pc.less_equal, ">": pc.greater, ">=": pc.greater_equal}[op]
    return fn(column, values[0])


def literal_text(v):
    if isinstance(v, str):
        return "'" + v + "'"
    if isinstance(v, datetime.datetime):
        return "'" + v.strftime("%Y-%m-%d %H:%M:%S.%f") + "'"
    if isinstance(v, datetime.date):
        return "'" + v.isoformat() + "'"
    return repr(v) if isinstance(v, float) else str(v)


def test_pruning_is_sound_and_effective(tmp_path):
    import pyarrow.compute as pc
    rnd = random.Random(17)
    n = 6000
    base = datetime.datetime(2020, 1, 1)
    t = pa.table({
        "k": pa.array(range(n), pa.int64()),  # sorted: row groups hold disjoint ranges
        "r": pa.array([None if rnd.random() < 0.05 else rnd.randrange(1000) for _ in range(n)], pa.int32()),
        "s": pa.array(["key%05d" % (i // 7) for i in range(n)], pa.string()),
        "d": pa.array([datetime.date(2000, 1, 1) + datetime.timedelta(days=i // 10) for i in range(n)], pa.date32()),
        "ts": pa.array([base + datetime.timedelta(seconds=i * 17) for i in range(n)], pa.timestamp("us")),
        "m": pa.array([decimal.Decimal(i).scaleb(-2) for i in range(n)], pa.decimal128(12, 2)),
        "f": pa.array([math.nan if i % 500 == 0 else i / 3 for i in range(n)], pa.float64()),
        "z": pa.array([None] * 3000 + list(range(3000)), pa.int32()),
    })
    path = tmp_path / "prune.parquet"
    pq.write_table(t, path, row_group_size=500)
    pf = pq.ParquetFile(path)
    groups = [pf.read_row_group(g) for g in range(pf.num_row_groups)]

    def check(column, op, values):
        pred = f"{column} {op}"
        if op == "BETWEEN":
            pred += f" {literal_text(values[0])} AND {literal_text(values[1])}"
        elif op == "IN":
            pred += " (" + ", ".join(literal_text(v) for v in values) + ")"
        elif not op.startswith("IS"):
            pred += " " + literal_text(values[0])
        kept = set(kept_row_groups(path, pred))
        for g, table in enumerate(groups):
            hits = pc.sum(matches(table.column(column), op, values).fill_null(False).cast(pa.int64())).as_py() or 0
            if hits:
                assert g in kept, f"{pred}: row group {g} holds {hits} matching rows but was pruned"
        return kept

    ops = ["=", "<", "<=", ">", ">=", "BETWEEN", "IN", "IS NULL", "IS NOT NULL"]
    for _ in range(150):
        column = rnd.choice(["k", "r", "s", "d", "ts", "m", "f", "z"])
        sample = [v for v in t.column(column).to_pylist() if v is not None and v == v]
        op = rnd.choice(ops)
        values = sorted(rnd.sample(sample, 2)) if op == "BETWEEN" else rnd.sample(sample, 3 if op == "IN" else 1)
        check(column, op, values)
    # Effectiveness on the sorted column: an equality keeps one group, a range a few, IS NULL none.
    assert check("k", "=", [4321]) == {8}
    assert check("k", "BETWEEN", [1200, 1700]) == {2, 3}
    assert check("k", "IS NULL", []) == set()
    assert check("z", "IS NOT NULL", []) == set(range(6, 12))
    assert check("s", "=", ["key00100"]) == {1}
    assert len(kept_row_groups(path, "k >= 3000", "k < 3500")) == 1  # a conjunction


def test_page_index_prunes_inside_a_row_group(tmp_path):
    # One row group whose pages of 100 rows hold 0..99, 1000..1099, 2000..2099, ...: 500 falls between pages.
    values = [page * 1000 + i for page in range(20) for i in range(100)]
    t = pa.table({"x": pa.array(values, pa.int64())})
    with_index = tmp_path / "with_index.parquet"
    without = tmp_path / "without.parquet"
    for path, index in ((with_index, True), (without, False)):
        pq.write_table(t, path, use_dictionary=False, data_page_size=1, write_batch_size=100,
                       write_page_index=index, row_group_size=len(values))
    assert pq.ParquetFile(with_index).metadata.row_group(0).column(0).has_column_index
    assert kept_row_groups(without, "x = 500") == [0]
    assert kept_row_groups(with_index, "x = 500") == []
    assert kept_row_groups(with_index, "x = 1050") == [0]
    assert kept_row_groups(with_index, "x IN (500, 700)") == []
    assert kept_row_groups(with_index, "x BETWEEN 150 AND 950") == []
    assert kept_row_groups(with_index, "x BETWEEN 150 AND 1000") == [0]
    # One-sided comparisons: the row group's exact bounds decide, pages cannot exclude more.
    assert kept_row_groups(with_index, "x < 0") == []
    assert kept_row_groups(with_index, "x <= 0") == [0]
    assert kept_row_groups(with_index, "x > 19099") == []
    assert kept_row_groups(with_index, "x >= 19099") == [0]
    assert kept_row_groups(with_index, "x > 500", "x < 600") == [0]  # each side alone keeps the group


def test_fuzzer_runs_clean_for_a_bounded_time():
    """The libFuzzer target over the footer and page decoders: regressions replay clean and a short run finds no
    crash (scripts/fuzz-parquet.sh builds it with clang in build-fuzz/)."""
    script = REPO / "scripts" / "fuzz-parquet.sh"
    proc = subprocess.run([str(script), "20"], capture_output=True, timeout=1800)
    assert proc.returncode == 0, (proc.stdout + proc.stderr).decode(errors="replace")[-4000:]
