"""Result columns as arrays: DLPack (numpy.from_dlpack) and the array interface, shared with the result (no copy)
when it is one batch and concatenated once when it is several; keep_on_gpu on the CPU changes nothing; types DLPack
cannot carry and NULLs are refused with a TypeError naming the column. (Device rows, __cuda_array_interface__ and
kDLCUDA are the same code with the device's memory kind; Connection's device rows are checked by kestrel_gpu_tests.)"""

import gc

import numpy as np
import pyarrow as pa
import pytest


@pytest.fixture
def con(kestrel):
    connection = kestrel.connect(device="cpu")
    yield connection
    connection.close()


def test_numeric_columns_through_dlpack_share_the_result_memory(con):
    con.register("t", pa.table({
        "i8": pa.array([1, -2, 3], pa.int8()), "i64": pa.array([10, 2**40, -3], pa.int64()),
        "f4": pa.array([1.5, -2.25, 0], pa.float32()), "f8": pa.array([0.1, 1e300, -0.0], pa.float64()),
        "b": pa.array([True, False, True]), "d": pa.array([0, 18262, -1], pa.date32()),
        "ts": pa.array([0, 1_600_000_000_000_000, -5], pa.timestamp("us"))}))
    result = con.sql("SELECT * FROM t", keep_on_gpu=True)
    assert result.memory == "host"  # no GPU here: host rows as without keep_on_gpu
    expected = {"i8": np.array([1, -2, 3], np.int8), "i64": np.array([10, 2**40, -3], np.int64),
                "f4": np.array([1.5, -2.25, 0], np.float32), "f8": np.array([0.1, 1e300, -0.0]),
                "b": np.array([True, False, True]), "d": np.array([0, 18262, -1], np.int32),
                "ts": np.array([0, 1_600_000_000_000_000, -5], np.int64)}
    for i, (name, want) in enumerate(expected.items()):
        column = result.column(name)
        assert column.on_device is False and len(column) == 3
        got = np.from_dlpack(column)
        assert got.dtype == want.dtype, name
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(np.asarray(column), want)
        assert column.__dlpack_device__() == (1, 0)
        # The same memory as the result's column: nothing was copied.
        address = result._native.buffer_addresses(0, i)["values"]
        assert got.ctypes.data == address == column.__array_interface__["data"][0], name
        with pytest.raises(AttributeError):
            column.__cuda_array_interface__  # noqa: B018 - host rows have no CUDA array interface


def test_the_array_outlives_the_result_and_the_connection(kestrel):
    connection = kestrel.connect(device="cpu")
    array = np.from_dlpack(connection.sql("SELECT 41 + 1 AS answer").column(0))
    connection.close()
    gc.collect()
    assert array.tolist() == [42]


def test_several_batches_are_concatenated_once(con):
    con.register("a", pa.table({"x": pa.array(range(1000), pa.int64())}), batch_rows=100)
    result = con.sql("SELECT x FROM a")
    assert result._native.batch_count > 1
    np.testing.assert_array_equal(np.from_dlpack(result.column("x")), np.arange(1000))


def test_types_dlpack_cannot_carry_and_nulls_are_refused(con):
    result = con.sql("SELECT CAST(1.5 AS DECIMAL(10,2)) AS m, 'text' AS s, CASE WHEN 1 = 1 THEN NULL ELSE 1 END AS n")
    with pytest.raises(TypeError, match="column 'm' is DECIMAL"):
        result.column("m")
    with pytest.raises(TypeError, match="column 's' is VARCHAR"):
        result.column(1)
    with pytest.raises(TypeError, match="column 'n' has NULLs"):
        result.column("n")
    with pytest.raises(KeyError, match="no column 'zz'"):
        result.column("zz")
    with pytest.raises(IndexError):
        result.column(3)
