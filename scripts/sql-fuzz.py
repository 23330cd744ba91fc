#!/usr/bin/env python3
"""A bounded SQL fuzzer: random (but valid) queries over the TPC-H tables or a TPC-DS subset (the store sales
star, whose columns hold NULLs), run by Kestrel on the CPU (or the GPU) and by DuckDB on the same Parquet files,
answers compared value by value.

  .venv/bin/python scripts/sql-fuzz.py [--seed N] [--queries N | --seconds S] [--kestrel build/kestrel] [--sf 0.01]
      [--schema tpch|tpcds] [--device cpu|gpu]

TPC-DS data: .cache/tpcds/sf0.01, made by `.venv-tpcds/bin/python scripts/tpcds-check.py --sf 0.01` (or its
generate()).

Query i of a seed is generated from its own random stream (seed and i), never from earlier results, so a run is
deterministic for a given seed and `--only I` regenerates one query alone. Shapes: filters and projections of one
table; inner / left / right / full joins on key columns (with extra ON conjuncts); cross joins of the small tables;
GROUP BY with count / sum / min / max / avg (DISTINCT too) and HAVING; DISTINCT; ORDER BY of every output column
with LIMIT / OFFSET; UNION [ALL] / INTERSECT / EXCEPT; IN / NOT IN (sub-query), [NOT] EXISTS and scalar
sub-queries, correlated or not; CTEs and derived tables; window functions with a full ordering; NULLs from NULLIF,
CASE without ELSE and outer joins; filters that match nothing.

The generator leaves out what differs between Presto's dialect (Kestrel's) and DuckDB's by design: division of
integers (only DECIMAL / DOUBLE values are divided, by non-zero literals), functions whose names or semantics
differ, floating-point results that depend on summation order beyond the tolerance (no DOUBLE in ORDER BY keys),
LIMIT without a total order.

A finding is a query DuckDB answers while Kestrel answers differently (numbers within a relative 1e-9 or an
absolute 0.005, rows as a multiset unless ordered), fails (exit 1), crashes (another exit status or a signal) or
hangs (--timeout). Each finding is shrunk (joins, CTEs, conjuncts, select items, clauses and sub-expressions
dropped one at a time while the query still fails the same way) and printed as one line with the shrunk SQL; the
last line is "N queries, N matched, N findings". Queries DuckDB rejects (or answers wrongly where that can be
seen: more rows than the LIMIT, a DuckDB 2.0.1 bug) count as skipped. Exit status 1 when there are findings.
DuckDB reads the Parquet files into in-memory tables once (same values and types; faster than a view a query).

Other modes: `--sql "SELECT ..."` checks (and shrinks) one query; `--replay FILE` checks each query of a file (one
a line, '#' comments); `--print` prints each generated query."""

import argparse
import dataclasses
import datetime
import decimal
import os
import pathlib
import random
import re
import subprocess
import sys
import threading
import time

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "test" / "py"))
import tpch_support  # noqa: E402  (generate, parse_csv, compare_rows)

# --------------------------------------------------------------------------------------------------------------
# Schema: per table its unique key and its columns with the fuzzer's type classes
#   int (BIGINT / INTEGER), dec (DECIMAL(15,2)), dbl (DOUBLE, derived only), str (VARCHAR), date, bool (derived).

SCHEMA = {
    "region": (["r_regionkey"], [("r_regionkey", "int"), ("r_name", "str"), ("r_comment", "str")]),
    "nation": (["n_nationkey"], [("n_nationkey", "int"), ("n_name", "str"), ("n_regionkey", "int"),
                                 ("n_comment", "str")]),
    "supplier": (["s_suppkey"], [("s_suppkey", "int"), ("s_name", "str"), ("s_address", "str"),
                                 ("s_nationkey", "int"), ("s_phone", "str"), ("s_acctbal", "dec"),
                                 ("s_comment", "str")]),
    "customer": (["c_custkey"], [("c_custkey", "int"), ("c_name", "str"), ("c_address", "str"),
                                 ("c_nationkey", "int"), ("c_phone", "str"), ("c_acctbal", "dec"),
                                 ("c_mktsegment", "str"), ("c_comment", "str")]),
    "part": (["p_partkey"], [("p_partkey", "int"), ("p_name", "str"), ("p_mfgr", "str"), ("p_brand", "str"),
                             ("p_type", "str"), ("p_size", "int"), ("p_container", "str"),
                             ("p_retailprice", "dec"), ("p_comment", "str")]),
    "partsupp": (["ps_partkey", "ps_suppkey"], [("ps_partkey", "int"), ("ps_suppkey", "int"),
                                                ("ps_availqty", "int"), ("ps_supplycost", "dec"),
                                                ("ps_comment", "str")]),
    "orders": (["o_orderkey"], [("o_orderkey", "int"), ("o_custkey", "int"), ("o_orderstatus", "str"),
                                ("o_totalprice", "dec"), ("o_orderdate", "date"), ("o_orderpriority", "str"),
                                ("o_clerk", "str"), ("o_shippriority", "int"), ("o_comment", "str")]),
    "lineitem": (["l_orderkey", "l_linenumber"], [("l_orderkey", "int"), ("l_partkey", "int"),
                                                  ("l_suppkey", "int"), ("l_linenumber", "int"),
                                                  ("l_quantity", "dec"), ("l_extendedprice", "dec"),
                                                  ("l_discount", "dec"), ("l_tax", "dec"),
                                                  ("l_returnflag", "str"), ("l_linestatus", "str"),
                                                  ("l_shipdate", "date"), ("l_commitdate", "date"),
                                                  ("l_receiptdate", "date"), ("l_shipinstruct", "str"),
                                                  ("l_shipmode", "str"), ("l_comment", "str")]),
}
TABLES = list(SCHEMA)
SMALL = ["region", "nation"]          # cross joins only among these
MEDIUM = ["region", "nation", "supplier", "customer", "part"]
BIG = ["partsupp", "orders", "lineitem"]

# Join edges: (table a, table b, [(column of a, column of b), ...], rows of b per row of a, rows of a per row of b).
EDGES = [
    ("nation", "region", [("n_regionkey", "r_regionkey")], 1, 5),
    ("supplier", "nation", [("s_nationkey", "n_nationkey")], 1, 4),
    ("customer", "nation", [("c_nationkey", "n_nationkey")], 1, 60),
    ("orders", "customer", [("o_custkey", "c_custkey")], 1, 10),
    ("lineitem", "orders", [("l_orderkey", "o_orderkey")], 1, 4),
    ("lineitem", "part", [("l_partkey", "p_partkey")], 1, 30),
    ("lineitem", "supplier", [("l_suppkey", "s_suppkey")], 1, 600),
    ("partsupp", "part", [("ps_partkey", "p_partkey")], 1, 4),
    ("partsupp", "supplier", [("ps_suppkey", "s_suppkey")], 1, 80),
    ("lineitem", "partsupp", [("l_partkey", "ps_partkey"), ("l_suppkey", "ps_suppkey")], 1, 8),
    ("customer", "supplier", [("c_nationkey", "s_nationkey")], 4, 60),
    ("nation", "nation", [("n_regionkey", "n_regionkey")], 5, 5),
    ("supplier", "supplier", [("s_nationkey", "s_nationkey")], 4, 4),
]
# Rows per table at SF 0.01 (for the join size estimate: no join the fuzzer makes should exceed MAX_ROWS).
ROWS = {"region": 5, "nation": 25, "supplier": 100, "customer": 1500, "part": 2000, "partsupp": 8000,
        "orders": 15000, "lineitem": 60175}
MAX_ROWS = 120000

NUMERIC = ("int", "dec", "dbl")
SQL_TYPE = {"int": "BIGINT", "dec": "DECIMAL(15,2)", "dbl": "DOUBLE", "str": "VARCHAR", "date": "DATE"}
POSITIVE = {"l_quantity", "l_extendedprice", "p_retailprice", "o_totalprice", "ps_supplycost"}   # never zero
LOW_CARDINALITY = {"r_name", "n_name", "c_mktsegment", "o_orderstatus", "o_orderpriority", "p_mfgr", "p_brand",
                   "p_container", "p_type", "l_returnflag", "l_linestatus", "l_shipinstruct", "l_shipmode"}


# Tables the query shapes pick from (by role), for the TPC-H schema.
CROSS_LEFT = SMALL + ["supplier"]     # the left side of small cross / theta joins
CROSS_THIRD = "region"                # a third table joined to them
SCALAR_TABLES = ["nation", "supplier", "customer", "part"]            # uncorrelated scalar sub-queries in HAVING
SETOP_TABLES = ["region", "nation", "supplier", "customer", "part", "orders"]
LIMITED = ("orders",)                 # a set operation over these gets ORDER BY ... LIMIT
SUBQUERY_BASES = ["customer", "supplier", "part", "orders", "nation", "partsupp"]
WINDOW_TABLES = ["nation", "region", "supplier", "customer", "part", "orders"]
WINDOW_LIMITED = ("customer", "part", "orders")  # windows over these get ORDER BY ... LIMIT
NULLABLE = set()                      # base columns that hold NULLs (TPC-H has none)

# A subset of TPC-DS (DuckDB's dsdgen at SF 0.01, .cache/tpcds/sf0.01): the store sales star and its dimensions,
# whose columns hold NULLs.
TPCDS = dict(
    SCHEMA={
        "date_dim": (["d_date_sk"], [("d_date_sk", "int"), ("d_date", "date"), ("d_year", "int"), ("d_moy", "int"),
                                     ("d_dom", "int"), ("d_day_name", "str"), ("d_quarter_name", "str"),
                                     ("d_holiday", "str")]),
        "item": (["i_item_sk"], [("i_item_sk", "int"), ("i_item_id", "str"), ("i_current_price", "dec"),
                                 ("i_brand", "str"), ("i_class", "str"), ("i_category", "str"),
                                 ("i_manufact_id", "int"), ("i_size", "str"), ("i_color", "str")]),
        "store": (["s_store_sk"], [("s_store_sk", "int"), ("s_store_id", "str"), ("s_store_name", "str"),
                                   ("s_number_employees", "int"), ("s_state", "str"), ("s_city", "str"),
                                   ("s_tax_percentage", "dec")]),
        "customer": (["c_customer_sk"], [("c_customer_sk", "int"), ("c_customer_id", "str"),
                                         ("c_current_addr_sk", "int"), ("c_first_name", "str"),
                                         ("c_last_name", "str"), ("c_birth_year", "int"), ("c_birth_country", "str"),
                                         ("c_preferred_cust_flag", "str")]),
        "customer_address": (["ca_address_sk"], [("ca_address_sk", "int"), ("ca_city", "str"), ("ca_county", "str"),
                                                 ("ca_state", "str"), ("ca_zip", "str"), ("ca_country", "str"),
                                                 ("ca_gmt_offset", "dec")]),
        "promotion": (["p_promo_sk"], [("p_promo_sk", "int"), ("p_promo_name", "str"), ("p_cost", "dec"),
                                       ("p_channel_email", "str"), ("p_response_target", "int")]),
        "store_sales": (["ss_item_sk", "ss_ticket_number"],
                        [("ss_item_sk", "int"), ("ss_ticket_number", "int"), ("ss_sold_date_sk", "int"),
                         ("ss_customer_sk", "int"), ("ss_store_sk", "int"), ("ss_promo_sk", "int"),
                         ("ss_addr_sk", "int"), ("ss_quantity", "int"), ("ss_sales_price", "dec"),
                         ("ss_ext_sales_price", "dec"), ("ss_net_profit", "dec"), ("ss_coupon_amt", "dec")]),
        "store_returns": (["sr_item_sk", "sr_ticket_number"],
                          [("sr_item_sk", "int"), ("sr_ticket_number", "int"), ("sr_returned_date_sk", "int"),
                           ("sr_customer_sk", "int"), ("sr_store_sk", "int"), ("sr_return_quantity", "int"),
                           ("sr_return_amt", "dec"), ("sr_fee", "dec")]),
    },
    SMALL=["store", "promotion"],
    MEDIUM=["store", "promotion", "item", "customer_address", "customer"],
    BIG=["date_dim", "store_sales", "store_returns"],
    EDGES=[
        ("store_sales", "date_dim", [("ss_sold_date_sk", "d_date_sk")], 1, 1),
        ("store_sales", "item", [("ss_item_sk", "i_item_sk")], 1, 160),
        ("store_sales", "store", [("ss_store_sk", "s_store_sk")], 1, 28810),
        ("store_sales", "customer", [("ss_customer_sk", "c_customer_sk")], 1, 29),
        ("store_sales", "promotion", [("ss_promo_sk", "p_promo_sk")], 1, 9600),
        ("store_sales", "customer_address", [("ss_addr_sk", "ca_address_sk")], 1, 58),
        ("store_returns", "store_sales", [("sr_item_sk", "ss_item_sk"), ("sr_ticket_number", "ss_ticket_number")],
         1, 1),
        ("store_returns", "date_dim", [("sr_returned_date_sk", "d_date_sk")], 1, 1),
        ("store_returns", "item", [("sr_item_sk", "i_item_sk")], 1, 16),
        ("store_returns", "customer", [("sr_customer_sk", "c_customer_sk")], 1, 3),
        ("customer", "customer_address", [("c_current_addr_sk", "ca_address_sk")], 1, 2),
        ("item", "item", [("i_manufact_id", "i_manufact_id")], 2, 2),
    ],
    ROWS={"date_dim": 73049, "item": 180, "store": 1, "customer": 1000, "customer_address": 500, "promotion": 3,
          "store_sales": 28810, "store_returns": 2810},
    POSITIVE=set(),
    LOW_CARDINALITY={"d_day_name", "d_quarter_name", "d_holiday", "i_category", "i_class", "i_size", "i_color",
                     "s_state", "s_city", "ca_state", "ca_country", "c_birth_country", "c_preferred_cust_flag",
                     "p_channel_email"},
    CROSS_LEFT=["store", "promotion", "item"],
    CROSS_THIRD="promotion",
    SCALAR_TABLES=["store", "item", "customer", "promotion"],
    SETOP_TABLES=["store", "promotion", "item", "customer", "customer_address"],
    LIMITED=("customer",),
    SUBQUERY_BASES=["customer", "item", "customer_address", "store_returns", "promotion"],
    WINDOW_TABLES=["item", "customer", "customer_address", "promotion", "store_returns"],
    WINDOW_LIMITED=("customer", "customer_address", "store_returns"),
)
TPCDS["TABLES"] = list(TPCDS["SCHEMA"])
TPCDS["NULLABLE"] = {n for _, (keys, cols) in TPCDS["SCHEMA"].items() for n, _ in cols if n not in keys}


def use_schema(name):
    """Makes the generator use the TPC-H (default) or the TPC-DS schema above."""
    if name == "tpcds":
        globals().update(TPCDS)


def compatible(a, b):
    return a == b or (a in NUMERIC and b in NUMERIC)


# --------------------------------------------------------------------------------------------------------------
# The query tree. Nodes are never mutated after construction: the shrinker builds modified copies.

@dataclasses.dataclass(frozen=True)
class E:
    """An expression: `fmt` with {0}, {1}, ... replaced by the rendered args (E, Query or plain text), or a leaf
    (fmt None, args[0] its text). `t` is its type class; `agg` whether it contains an aggregate."""
    fmt: object
    args: tuple
    t: str
    agg: bool = False

    def sql(self):
        if self.fmt is None:
            return self.args[0]
        return self.fmt.format(*[render(a) for a in self.args])


def braces(text):
    """`text` (SQL) made safe to put into an E.fmt."""
    return text.replace("{", "{{").replace("}", "}}")


def leaf(text, t):
    return E(None, (text,), t)


def node(fmt, t, *args, agg=None):
    if agg is None:
        agg = any(isinstance(a, E) and a.agg for a in args)
    return E(fmt, tuple(args), t, agg)


@dataclasses.dataclass(frozen=True)
class Item:
    expr: E
    alias: str


@dataclasses.dataclass(frozen=True)
class Table:
    name: str
    alias: str

    def sql(self):
        return f"{self.name} {self.alias}"


@dataclasses.dataclass(frozen=True)
class Derived:
    query: object
    alias: str

    def sql(self):
        return f"({self.query.sql()}) {self.alias}"


@dataclasses.dataclass(frozen=True)
class Join:
    kind: str                 # INNER, LEFT, RIGHT, FULL, CROSS
    source: object            # Table or Derived
    on: tuple                 # conjuncts (E), empty for CROSS

    def sql(self):
        if self.kind == "CROSS":
            return f" CROSS JOIN {self.source.sql()}"
        word = {"INNER": "JOIN", "LEFT": "LEFT JOIN", "RIGHT": "RIGHT JOIN", "FULL": "FULL OUTER JOIN"}[self.kind]
        return f" {word} {self.source.sql()} ON " + " AND ".join(c.sql() for c in self.on)


@dataclasses.dataclass(frozen=True)
class Order:
    """ORDER BY every output column (by position) with the given directions, cycled; LIMIT / OFFSET optional.
    Ordering by all columns makes a LIMIT deterministic: rows that tie are equal."""
    directions: tuple         # of (desc: bool, nulls_first: bool)
    limit: object = None      # int or None
    offset: object = None

    def sql(self, approx):
        """`approx`: per output column whether its values may differ slightly between the engines (those are
        ordered last, so they decide only between rows equal in every other column)."""
        keys = []
        n = len(approx)
        for i in [c for c in range(n) if not approx[c]] + [c for c in range(n) if approx[c]]:
            desc, nulls_first = self.directions[i % len(self.directions)]
            keys.append(f"{i + 1}{' DESC' if desc else ''} NULLS {'FIRST' if nulls_first else 'LAST'}")
        text = " ORDER BY " + ", ".join(keys)
        if self.limit is not None:
            text += f" LIMIT {self.limit}"
        if self.offset is not None:
            text += f" OFFSET {self.offset}"
        return text


@dataclasses.dataclass(frozen=True)
class Select:
    items: tuple              # of Item
    source: object = None     # Table or Derived; None: no FROM
    joins: tuple = ()
    where: tuple = ()         # conjuncts
    group_by: tuple = ()
    having: tuple = ()
    distinct: bool = False
    order: object = None      # Order or None
    ctes: tuple = ()          # of (name, query)
    aggregate: bool = False   # an aggregate query without GROUP BY (HAVING may still apply)
    grouping: object = None   # None, ROLLUP, CUBE or SETS (GROUPING SETS: all keys, each key alone, none)

    def body_sql(self):
        text = "SELECT " + ("DISTINCT " if self.distinct else "")
        text += ", ".join(f"{i.expr.sql()} AS {i.alias}" for i in self.items)
        if self.source is not None:
            text += " FROM " + self.source.sql() + "".join(j.sql() for j in self.joins)
        if self.where:
            text += " WHERE " + " AND ".join(c.sql() for c in self.where)
        if self.group_by:
            keys = [g.sql() for g in self.group_by]
            if self.grouping in ("ROLLUP", "CUBE"):
                text += f" GROUP BY {self.grouping} ({', '.join(keys)})"
            elif self.grouping == "SETS":
                sets = [f"({', '.join(keys)})"] + [f"({k})" for k in keys[:2] if len(keys) > 1] + ["()"]
                text += " GROUP BY GROUPING SETS (" + ", ".join(sets) + ")"
            else:
                text += " GROUP BY " + ", ".join(keys)
        if self.having:
            text += " HAVING " + " AND ".join(c.sql() for c in self.having)
        return text

    def sql(self):
        text = ""
        if self.ctes:
            text = "WITH " + ", ".join(f"{name} AS ({q.sql()})" for name, q in self.ctes) + " "
        text += self.body_sql()
        if self.order is not None:
            text += self.order.sql(self.approx())
        return text

    def width(self):
        return len(self.items)

    def approx(self):
        return [is_approx(i.expr) for i in self.items]

    def types(self):
        return [i.expr.t for i in self.items]


@dataclasses.dataclass(frozen=True)
class SetOp:
    op: str                   # UNION, UNION ALL, INTERSECT, EXCEPT
    left: object              # Select or SetOp
    right: object
    order: object = None

    def sql(self):
        def side(q):
            return f"({q.sql()})" if isinstance(q, SetOp) or (isinstance(q, Select) and q.order) else q.sql()
        text = f"{side(self.left)} {self.op} {side(self.right)}"
        if self.order is not None:
            text += self.order.sql(self.approx())
        return text

    def width(self):
        return self.left.width()

    def approx(self):
        return [a or b for a, b in zip(self.left.approx(), self.right.approx())]

    def types(self):
        return self.left.types()


def render(a):
    if isinstance(a, str):
        return a
    return a.sql()


def is_approx(e):
    """Whether the values of `e` may differ slightly between the engines: DOUBLE values (summation order) and
    quotients and averages (DECIMAL in Kestrel, rounded to 6 digits; DOUBLE in DuckDB)."""
    text = e.sql()
    return e.t == "dbl" or "/" in text or "avg(" in text or "DOUBLE" in text


def ordered_result(query):
    """Whether the rows must be compared in order: the top level orders and no output is approximate (nearly
    equal values could sort differently)."""
    return query.order is not None and not any(query.approx())


# --------------------------------------------------------------------------------------------------------------
# Literals drawn from the data

def literal_key(text):
    """A sort key of a literal's SQL text: numbers by value, dates and strings by text."""
    try:
        return (0, float(text.strip("()")), "")
    except ValueError:
        return (1, 0.0, text)


def literal_text(value, t):
    if value is None:
        return "NULL"
    if t == "str":
        return "'" + str(value).replace("'", "''") + "'"
    if t == "date":
        return f"DATE '{value.isoformat()}'"
    text = str(value)
    return f"({text})" if text.startswith("-") else text


class Samples:
    """Up to 24 distinct values of every column, evenly spread over the sorted distinct values (deterministic)."""

    def __init__(self, con):
        self.values = {}
        for table, (_, columns) in SCHEMA.items():
            for name, _t in columns:
                rows = [r[0] for r in con.execute(f"SELECT DISTINCT {name} FROM {table} WHERE {name} IS NOT NULL "
                                                  f"ORDER BY 1").fetchall()]
                step = max(1, len(rows) // 24)
                self.values[(table, name)] = rows[::step][:24] + rows[-1:]


# --------------------------------------------------------------------------------------------------------------
# The generator

@dataclasses.dataclass
class Col:
    ref: str                  # SQL text, e.g. t1.c_name
    name: str                 # column name (for join edges and samples)
    t: str
    origin: str               # base table it comes from (for samples), or None
    nullable: bool = False


@dataclasses.dataclass
class Rel:
    """A relation in a FROM clause: its alias, the base table it stands for (join edges), its columns."""
    alias: str
    table: str
    cols: list

    def col(self, name):
        for c in self.cols:
            if c.name == name:
                return c
        return None


class Gen:
    def __init__(self, rng, samples):
        self.rng = rng
        self.samples = samples
        self.next_alias = 0
        self.next_cte = 0
        self.subquery_items = False
        self.sub_depth = 0

    # ---- helpers
    def alias(self):
        self.next_alias += 1
        return f"t{self.next_alias}"

    def chance(self, p):
        return self.rng.random() < p

    def pick(self, seq):
        return self.rng.choice(list(seq))

    def table_rel(self, table, nullable=False):
        alias = self.alias()
        cols = [Col(f"{alias}.{n}", n, t, table, nullable or n in NULLABLE) for n, t in SCHEMA[table][1]]
        return Table(table, alias), Rel(alias, table, cols)

    def literal(self, t, col=None):
        """A literal of type `t`, from `col`'s values where there is one; now and then a typed NULL."""
        if t != "bool" and self.chance(0.02):
            return leaf(f"CAST(NULL AS {SQL_TYPE[t]})", t)
        if col is not None and col.origin is not None and col.t == t and (col.origin, col.name) in self.samples.values:
            values = self.samples.values[(col.origin, col.name)]
            if values and self.chance(0.85):
                return leaf(literal_text(self.pick(values), t), t)
        if t == "int":
            return leaf(literal_text(self.pick([0, 1, 2, 3, 5, 7, 10, 25, 100, 1000, -1]), t), t)
        if t == "dec":
            return leaf(literal_text(decimal.Decimal(self.pick(["0.05", "1.50", "10.00", "99.99", "1000.00",
                                                                 "5000.25", "-250.50"])), t), t)
        if t == "dbl":
            return leaf(self.pick(["0.5e0", "1.0e0", "2.5e0", "100.0e0", "1.0e3"]), t)
        if t == "str":
            return leaf(literal_text(self.pick(["", "A", "abc", "BUILDING", "MAIL", "F", "N", "Customer#"]), t), t)
        if t == "date":
            d = datetime.date(1992, 1, 1) + datetime.timedelta(days=self.rng.randrange(0, 2400))
            return leaf(literal_text(d, t), t)
        if t == "bool":
            return leaf(self.pick(["TRUE", "FALSE"]), t)
        raise ValueError(t)

    def cols_of(self, scope, types):
        return [c for rel in scope for c in rel.cols if c.t in types]

    def column(self, scope, t):
        cands = self.cols_of(scope, (t,))
        if not cands:
            return None
        if t == "str":
            # Columns with few distinct values make filters and groups that keep some rows.
            few = [c for c in cands if c.name in LOW_CARDINALITY]
            if few and self.chance(0.65):
                cands = few
        c = self.pick(cands)
        return leaf(c.ref, t), c

    # ---- scalar expressions (no aggregates)
    def expr(self, scope, t, depth=2, allow_div=False):
        """An expression of type class `t` over the columns of `scope`."""
        got = self.column(scope, t) if t != "bool" else None
        if depth <= 0 or self.chance(0.45):
            if got is not None and self.chance(0.8):
                return got[0]
            if t == "dbl":
                base = self.expr(scope, "dec", 0)
                return node("CAST({0} AS DOUBLE)", "dbl", base)
            if t == "bool":
                return self.predicate(scope, depth=0)
            return self.literal(t, got[1] if got else None)
        d = depth - 1
        r = self.rng.random()
        if t == "int":
            if r < 0.25:
                return node("({0} " + self.pick("+-") + " {1})", t, self.expr(scope, t, d), self.expr(scope, t, d))
            if r < 0.35:
                return node("({0} * {1})", t, self.expr(scope, t, 0), self.literal("int"))
            if r < 0.42:
                return node("abs({0})", t, self.expr(scope, t, d))
            if r < 0.5 and self.cols_of(scope, ("str",)):
                return node("length({0})", t, self.expr(scope, "str", d))
            if r < 0.58 and self.cols_of(scope, ("date",)):
                return node(f"EXTRACT({self.pick(['YEAR', 'YEAR', 'MONTH', 'DAY'])} FROM {{0}})", t,
                            self.expr(scope, "date", d))
            if r < 0.63:
                return node("({0} % " + self.pick(["2", "3", "7", "10", "(-3)"]) + ")", t, self.expr(scope, t, d))
            if r < 0.68 and self.cols_of(scope, ("dec",)):
                return node(f"CAST({{0}} AS {self.pick(['INTEGER', 'BIGINT'])})", t, self.expr(scope, "dec", 0))
            if r < 0.71 and any(c.name in ("c_phone", "s_phone") for c in self.cols_of(scope, ("str",))):
                phone = self.pick([c for c in self.cols_of(scope, ("str",)) if c.name in ("c_phone", "s_phone")])
                start, length = self.pick([(1, 2), (4, 3), (8, 3), (12, 4)])    # the digits of NN-NNN-NNN-NNNN
                return node(f"CAST(substring({{0}}, {start}, {length}) AS INTEGER)", t, leaf(phone.ref, "str"))
        elif t == "dec":
            if r < 0.25:
                return node("({0} " + self.pick("+-") + " {1})", t, self.expr(scope, t, d), self.expr(scope, t, d))
            if r < 0.37:
                # Multiplication only of leaves: DECIMAL precision grows with every product.
                return node("({0} * {1})", t, self.expr(scope, t, 0),
                            self.pick([self.literal("dec"), self.literal("int"), self.expr(scope, t, 0)]))
            if r < 0.45:
                # Cast back to one type: DuckDB types round(DECIMAL(p, s), d) as DECIMAL(p, d), Presto (Kestrel) keeps
                # DECIMAL(p, s), and a CASE or COALESCE over both then takes other types (at p = 38 DuckDB's keeps
                # scale 0 and rounds the other branches). d <= 2: the rounded value is exact at scale 2.
                return node(f"CAST(round({{0}}, {self.pick([2, 2, 1, 0, -1, -2])}) AS DECIMAL(38,2))", t,
                            self.expr(scope, t, d))
            if r < 0.5:
                return node("abs({0})", t, self.expr(scope, t, d))
            if r < 0.57 and self.cols_of(scope, ("int",)):
                return node("CAST({0} AS DECIMAL(18,2))", t, self.expr(scope, "int", d))
            if r < 0.6:
                return node(f"CAST({{0}} AS DECIMAL({self.pick([12, 18, 30])},{self.pick([0, 1, 3])}))", t,
                            self.expr(scope, t, d))
            if r < 0.65 and allow_div:
                positive = [c for c in self.cols_of(scope, ("dec",)) if c.name in POSITIVE and not c.nullable]
                if positive and self.chance(0.5):
                    return node("({0} / {1})", t, self.expr(scope, t, 0), leaf(self.pick(positive).ref, "dec"))
                return node("({0} / " + self.pick(["3.00", "7", "0.25", "(-2.5)", "100.0"]) + ")", t,
                            self.expr(scope, t, 0))
            if r < 0.68:
                return node("(({0} * {1}) * {2})", t, self.expr(scope, t, 0), self.expr(scope, t, 0),
                            self.expr(scope, t, 0))
            if r < 0.7 and self.cols_of(scope, ("dec",)):
                c = self.pick(self.cols_of(scope, ("dec",)))
                return node("({0} * (1 - {1}))", t, self.expr(scope, t, 0), leaf(c.ref, "dec"))
        elif t == "dbl":
            if r < 0.4:
                return node("CAST({0} AS DOUBLE)", t, self.expr(scope, self.pick(["dec", "int"]), d))
            if r < 0.6:
                return node("({0} " + self.pick("+-*") + " {1})", t, self.expr(scope, t, d), self.literal("dbl"))
            if r < 0.7 and allow_div:
                return node("({0} / " + self.pick(["3.0e0", "0.5e0", "7.0e0"]) + ")", t, self.expr(scope, t, 0))
        elif t == "str":
            if r < 0.15:
                return node("upper({0})", t, self.expr(scope, t, d))
            if r < 0.3:
                return node("lower({0})", t, self.expr(scope, t, d))
            if r < 0.45:
                start = self.rng.randint(1, 8)
                return node(f"substring({{0}}, {start}, {self.rng.randint(0, 6)})", t, self.expr(scope, t, d))
            if r < 0.55:
                return node("({0} || {1})", t, self.expr(scope, t, d), self.expr(scope, t, d))
            if r < 0.62 and self.cols_of(scope, ("int",)):
                return node("CAST({0} AS VARCHAR)", t, self.expr(scope, "int", d))
            if r < 0.67 and self.cols_of(scope, ("date",)):
                return node("CAST({0} AS VARCHAR)", t, self.expr(scope, "date", d))
            if r < 0.72 and self.cols_of(scope, ("dec",)):
                return node("CAST({0} AS VARCHAR)", t, self.expr(scope, "dec", d))
        elif t == "date":
            if r < 0.3:
                unit = self.pick(["DAY", "DAY", "MONTH", "YEAR"])
                sign = self.pick("+-")
                return node(f"CAST(({{0}} {sign} INTERVAL '{self.rng.randint(1, 40)}' {unit}) AS DATE)", t,
                            self.expr(scope, t, d))
        elif t == "bool":
            return self.predicate(scope, depth)
        # Shared forms: CASE, COALESCE, NULLIF.
        r = self.rng.random()
        if r < 0.4:
            cond = self.predicate(scope, d, subqueries=self.subquery_items and self.chance(0.3))
            if self.chance(0.3):
                return node("CASE WHEN {0} THEN {1} END", t, cond, self.expr(scope, t, d))
            return node("CASE WHEN {0} THEN {1} ELSE {2} END", t, cond, self.expr(scope, t, d),
                        self.expr(scope, t, d))
        if r < 0.7:
            a = self.expr(scope, t, d)
            return node("NULLIF({0}, {1})", t, a, self.literal(t, got[1] if got else None))
        if r < 0.85:
            other = "int" if t == "dec" and self.chance(0.2) else t
            return node("COALESCE({0}, {1})", t, self.expr(scope, t, d), self.expr(scope, other, d))
        if r < 0.92:
            return node("COALESCE({0}, {1}, {2})", t, self.expr(scope, t, d), self.expr(scope, t, d),
                        self.expr(scope, t, d))
        return node("CASE WHEN {0} THEN {1} WHEN {2} THEN {3} ELSE {4} END", t, self.predicate(scope, d),
                    self.expr(scope, t, d), self.predicate(scope, d), self.expr(scope, t, d), self.expr(scope, t, d))

    def comparable_type(self, scope):
        types = [t for t in ("int", "dec", "str", "date") if self.cols_of(scope, (t,))]
        return self.pick(types) if types else "int"

    def col_of(self, scope, e):
        """The column `e` is, when it is a plain column reference."""
        if e.fmt is not None:
            return None
        for c in self.cols_of(scope, (e.t,)):
            if c.ref == e.args[0]:
                return c
        return None

    def predicate(self, scope, depth=1, subqueries=False):
        """A boolean expression; `subqueries`: it may contain [NOT] EXISTS, IN (SELECT ...) and scalar
        sub-queries (under AND / OR / NOT too)."""
        r = self.rng.random()
        if depth > 0 and r < 0.14:
            return node("({0} " + self.pick(["AND", "OR", "OR"]) + " {1})", "bool",
                        self.predicate(scope, depth - 1, subqueries), self.predicate(scope, depth - 1, subqueries))
        if depth > 0 and r < 0.19:
            return node("(NOT {0})", "bool", self.predicate(scope, depth - 1, subqueries))
        if subqueries and r < 0.36:
            sub = self.subquery_predicate(scope)
            if sub is not None:
                return sub
        t = self.comparable_type(scope)
        got = self.column(scope, t)
        lhs = got[0] if got and self.chance(0.7) else self.expr(scope, t, min(depth, 1))
        col = self.col_of(scope, lhs) or (got[1] if got else None)
        # A numeric column compares with literals of the other numeric class too.
        lt = self.pick(["int", "dec"]) if t in ("int", "dec") and self.chance(0.25) else t
        r = self.rng.random()
        if r < 0.42:
            op = self.pick(["=", "<>", "<", "<=", ">", ">="])
            rhs = self.literal(lt, col) if self.chance(0.75) else self.expr(scope, t, 0)
            return node("({0} " + op + " {1})", "bool", lhs, rhs)
        if r < 0.52:
            a, b = self.literal(t, col), self.literal(t, col)
            if self.chance(0.8):
                a, b = sorted([a, b], key=lambda e: literal_key(e.sql()))
            return node("({0} " + self.pick(["BETWEEN", "BETWEEN", "NOT BETWEEN"]) + " {1} AND {2})", "bool",
                        lhs, a, b)
        if r < 0.64:
            values = [self.literal(t, col).sql() for _ in range(self.rng.randint(1, 4) if self.chance(0.85)
                                                                 else self.rng.randint(10, 60))]
            if self.chance(0.1):
                values.append("NULL")
            return node("({0} " + self.pick(["IN", "IN", "NOT IN"]) + " (" + braces(", ".join(values)) + "))", "bool", lhs)
        if r < 0.74:
            nullable = [c for c in self.cols_of(scope, ("int", "dec", "str", "date")) if c.nullable]
            if nullable and self.chance(0.7):
                c = self.pick(nullable)
                lhs = leaf(c.ref, c.t)
            elif lhs.fmt is None and self.chance(0.6):
                if self.chance(0.5):
                    return node("({0} IS NOT NULL)", "bool", lhs)
                # A NULL now and then, from NULLIF.
                return node("(NULLIF({0}, {1}) IS " + self.pick(["", "NOT "]) + "NULL)", "bool", lhs,
                            self.literal(lhs.t, col))
            return node("({0} IS " + self.pick(["", "NOT "]) + "NULL)", "bool", lhs)
        if r < 0.8 and self.cols_of(scope, ("str",)):
            # Characters that mean something to regular expressions mean nothing to LIKE (no backslash: Kestrel
            # takes it as LIKE's default escape character, as PostgreSQL does; DuckDB has none).
            s = self.column(scope, "str")
            special = self.pick(["(x)", "[a]", ".*", "a+?", "^$", "{1}", "|", "a.b"])
            pat = self.pick(["%" + special, "%" + special[:-1] + "_", "%" + special + "%", "%_" + special[1:],
                             special[0] + "%"])
            return node("(({0} || {1}) " + self.pick(["LIKE", "LIKE", "LIKE", "NOT LIKE"]) + " {2})", "bool", s[0],
                        leaf(literal_text(special, "str"), "str"), leaf(literal_text(pat, "str"), "str"))
        if r < 0.88 and self.cols_of(scope, ("str",)):
            s = self.column(scope, "str")
            return node("({0} " + self.pick(["LIKE", "LIKE", "NOT LIKE"]) + " " + braces(self.like_pattern(s[1])) + ")",
                        "bool", s[0])
        if r < 0.91:
            # Matches nothing (or everything when negated): empty inputs.
            return leaf(self.pick(["(1 = 0)", "(1 = 1)", "FALSE"]), "bool")
        return node("({0} " + self.pick(["=", "<", ">=", "<>"]) + " {1})", "bool", lhs, self.expr(scope, t, 1))

    def like_pattern(self, col):
        values = self.samples.values.get((col.origin, col.name)) if col.origin else None
        s = str(self.pick(values)) if values else "abc"
        s = s.replace("%", "").replace("_", "")
        r = self.rng.random()
        n = self.rng.randint(1, max(1, min(6, len(s))))
        if r < 0.3:
            pat = s[:n] + "%"
        elif r < 0.5:
            pat = "%" + s[-n:]
        elif r < 0.7:
            i = self.rng.randint(0, max(0, len(s) - n))
            pat = "%" + s[i:i + n] + "%"
        elif r < 0.85 and len(s) > 2:
            pat = s[0] + "_" + s[2:n + 2] + "%"
        else:
            pat = self.pick(["%", "%a%", "_%", "A%"])
        return literal_text(pat, "str")

    # ---- sub-queries
    def edge_from(self, table):
        """Join edges touching `table`, as (other table, [(column of table, column of other)], fan-out: rows of
        `other` per row of `table`)."""
        out = []
        for a, b, pairs, fan_ab, fan_ba in EDGES:
            if a == table:
                out.append((b, pairs, fan_ab))
            if b == table and a != b:
                out.append((a, [(y, x) for x, y in pairs], fan_ba))
        return out

    def correlation(self, rel, inner, pairs):
        """The key equalities tying `inner` (a sub-query's table) to `rel` (an outer relation), sometimes with a
        non-equality of two comparable columns as well."""
        corr = [node("({0} = {1})", "bool", leaf(inner.col(b).ref, "int"), leaf(rel.col(a).ref, "int"))
                for a, b in pairs]
        if self.chance(0.2):
            t = self.pick(["int", "dec", "date", "str"])
            a, b = self.column([inner], t), self.column([rel], t)
            if a and b:
                corr.append(node("({0} " + self.pick(["<", ">", "<=", "<>"]) + " {1})", "bool", a[0], b[0]))
        return tuple(corr)

    def subquery_predicate(self, scope):
        rels = [r for r in scope if r.table in SCHEMA and self.edge_from(r.table)]
        if not rels:
            return None
        rel = self.pick(rels)
        other, pairs, _ = self.pick(self.edge_from(rel.table))
        if not all(rel.col(x) for x, _ in pairs):
            return None
        src, inner = self.table_rel(other)
        self.sub_depth += 1
        local = [self.predicate([inner], 1, subqueries=self.sub_depth < 2 and self.chance(0.25))
                 for _ in range(self.rng.randint(0, 2))]
        self.sub_depth -= 1
        r = self.rng.random()
        x, y = pairs[0]
        if r < 0.3:
            corr = self.correlation(rel, inner, pairs) if self.chance(0.9) else ()   # or uncorrelated
            q = Select(items=(Item(leaf("1", "int"), "one"),), source=src, where=corr + tuple(local))
            return node(self.pick(["EXISTS ({0})", "(NOT EXISTS ({0}))"]), "bool", q)
        if r < 0.6:
            value = leaf(inner.col(y).ref, "int")
            if self.chance(0.25):
                value = node("NULLIF({0}, {1})", "int", value, self.literal("int", inner.col(y)))
            where = tuple(local)
            if self.chance(0.2):
                # Correlated IN: a further condition on the outer row.
                t = self.pick(["int", "dec", "date", "str"])
                a, b = self.column([inner], t), self.column([rel], t)
                if a and b:
                    where += (node("({0} " + self.pick(["=", "<", ">="]) + " {1})", "bool", a[0], b[0]),)
            q = Select(items=(Item(value, "k"),), source=src, where=where)
            if where == tuple(local) and self.chance(0.2):
                # Uncorrelated: DISTINCT, or a top-N.
                q = dataclasses.replace(q, distinct=True) if self.chance(0.5) else \
                    dataclasses.replace(q, order=Order(((self.chance(0.5), self.chance(0.5)),), self.rng.randint(1, 30)))
            if self.chance(0.15):
                src2, inner2 = self.table_rel(other)
                q2 = Select(items=(Item(leaf(inner2.col(y).ref, "int"), "k"),), source=src2,
                            where=(self.predicate([inner2], 1),))
                q = SetOp(self.pick(["UNION", "UNION ALL", "EXCEPT", "INTERSECT"]), q, q2)
            operand = leaf(rel.col(x).ref, "int")
            if self.chance(0.15):
                operand = self.pick([node("({0} + 0)", "int", operand), node("CAST({0} AS DECIMAL(18,2))", "dec", operand),
                                     node("NULLIF({0}, " + str(self.rng.randint(0, 30)) + ")", "int", operand)])
            op = self.pick(["IN", "IN", "NOT IN", "= ANY", "<> ALL"])
            if ROWS[other] <= 2000 and self.chance(0.3):
                # Quantified comparisons other than = ANY / <> ALL: Kestrel runs them as nested loops (slow over
                # the big tables).
                op = self.pick(["> ALL", "< ANY", ">= ALL", "<= ANY"])
            return node("({0} " + op + " ({1}))", "bool", operand, q)
        # Scalar sub-query: an aggregate, correlated or not.
        t = self.pick(["int", "dec"])
        c = self.column([inner], t)
        if c is None:
            return None
        agg = self.pick(["max", "min", "sum", "count", "avg"])
        item = node(f"{agg}({{0}})", "int" if agg == "count" else ("dbl" if agg == "avg" else t), c[0], agg=True)
        where = tuple(local)
        if self.chance(0.6):
            where = self.correlation(rel, inner, pairs) + where
        q = Select(items=(Item(item, "v"),), source=src, where=where, aggregate=True)
        outer = self.column(scope, item.t if item.t != "dbl" else "dec") or self.column(scope, "int")
        lhs = outer[0] if outer else self.literal(item.t)
        if self.chance(0.2):
            lhs = node("COALESCE({0}, 0)", lhs.t, lhs)
            return node("({0} " + self.pick(["=", "<", ">", "<=", ">="]) + " COALESCE(({1}), 0))", "bool", lhs, q)
        return node("({0} " + self.pick(["=", "<", ">", "<=", ">="]) + " ({1}))", "bool", lhs, q)

    def scalar_subquery_item(self, scope):
        rels = [r for r in scope if r.table in SCHEMA and self.edge_from(r.table)]
        if not rels:
            return None
        rel = self.pick(rels)
        other, pairs, _ = self.pick(self.edge_from(rel.table))
        if not all(rel.col(x) for x, _ in pairs):
            return None
        src, inner = self.table_rel(other)
        fan = dict((o, f) for o, _, f in self.edge_from(rel.table))[other]
        if fan == 1 and self.chance(0.4):
            # No aggregate: the key equality finds at most one row (NULL when none, or when a filter drops it).
            c = self.pick([c for c in inner.cols if c.t in ("int", "dec", "str", "date")])
            where = tuple(node("({0} = {1})", "bool", leaf(inner.col(b).ref, "int"), leaf(rel.col(a).ref, "int"))
                          for a, b in pairs)
            if self.chance(0.5):
                where += (self.predicate([inner], 1),)
            q = Select(items=(Item(leaf(c.ref, c.t), "v"),), source=src, where=where)
            return node("({0})", c.t, q)
        t = self.pick(["int", "dec"])
        c = self.column([inner], t)
        if c is None:
            return None
        agg = self.pick(["max", "min", "sum", "count"])
        item = node(f"{agg}({{0}})", "int" if agg == "count" else t, c[0], agg=True)
        if agg == "count" and self.chance(0.5):
            item = leaf("count(*)", "int")
        corr = self.correlation(rel, inner, pairs)
        local = tuple(self.predicate([inner], 1) for _ in range(self.rng.randint(0, 1)))
        q = Select(items=(Item(item, "v"),), source=src, where=corr + local, aggregate=True)
        return node("({0})", item.t, q)

    # ---- FROM clauses
    def from_clause(self, n_joins, base=None, allow_derived=True):
        """A source and joins; returns (source, joins, scope)."""
        table = base or self.pick(TABLES)
        source, rel = self.derived_or_table(table, allow_derived)
        scope = [rel]
        joins = []
        rows = ROWS[table]
        for _ in range(n_joins):
            options = [(r, other, pairs, fan) for r in scope for other, pairs, fan in self.edge_from(r.table)
                       if all(r.col(x) for x, _ in pairs) and rows * max(fan, 1) <= MAX_ROWS]
            if not options:
                break
            r, other, pairs, fan = self.pick(options)
            rows *= max(fan, 1)
            kind = self.pick(["INNER", "INNER", "LEFT", "LEFT", "RIGHT", "FULL"])
            src, new = self.derived_or_table(other, allow_derived and self.chance(0.5))
            on = [node("({0} = {1})", "bool", self.join_key(leaf(r.col(a).ref, "int")), leaf(new.col(b).ref, "int"))
                  for a, b in pairs if new.col(b)]
            if not on:
                continue
            if self.chance(0.3):
                on.append(self.predicate([self.pick([r, new])], 0))
            # Columns of the side an outer join may fill with NULLs become nullable.
            if kind in ("LEFT", "FULL"):
                for c in new.cols:
                    c.nullable = True
            if kind in ("RIGHT", "FULL"):
                for rr in scope:
                    for c in rr.cols:
                        c.nullable = True
            joins.append(Join(kind, src, tuple(on)))
            scope.append(new)
        return source, joins, scope

    def join_key(self, key):
        """A join key, sometimes computed: NULLs that must match nothing, another numeric type, arithmetic."""
        r = self.rng.random()
        if r < 0.08:
            return node("NULLIF({0}, " + str(self.rng.randint(0, 20)) + ")", "int", key)
        if r < 0.13:
            return node("CAST({0} AS DECIMAL(18,2))", "dec", key)
        if r < 0.17:
            return node("CAST({0} AS DOUBLE)", "dbl", key)
        if r < 0.22:
            return node("(({0} + 1) - 1)", "int", key)
        if r < 0.25:
            return node("CASE WHEN ({0} % 5 = 0) THEN NULL ELSE {0} END", "int", key)
        return key

    def derived_or_table(self, table, allow_derived):
        if not allow_derived or not self.chance(0.22):
            return self.table_rel(table)
        alias = self.alias()
        # A CTE of the same table again (a CTE read twice).
        reuse = [c for c in self.cte_shapes if c[1] == table]
        if reuse and self.chance(0.5):
            name, _, shape = self.pick(reuse)
            return Table(name, alias), Rel(alias, table, [Col(f"{alias}.{n}", n, t, o) for n, t, o in shape])
        # A derived table: a filter, a grouping, a top-N, a DISTINCT or a UNION ALL of `table`, keeping the key
        # columns' names (so the join edges still apply).
        src, inner = self.table_rel(table)
        keys = [n for n, t in SCHEMA[table][1] if t == "int"]
        names = [n for n, _ in SCHEMA[table][1]]
        r = self.rng.random()
        if r < 0.35:
            group = self.pick(keys)
            items = [Item(leaf(inner.col(group).ref, "int"), group)]
            for j in range(self.rng.randint(1, 2)):
                agg, t = self.aggregate([inner])
                items.append(Item(agg, f"a{j}"))
            q = Select(items=tuple(items), source=src, group_by=(leaf(inner.col(group).ref, "int"),),
                       where=tuple(self.predicate([inner], 1) for _ in range(self.rng.randint(0, 1))),
                       having=(self.having_predicate([inner]),) if self.chance(0.2) else ())
        else:
            chosen = [n for n in names if n in keys or self.chance(0.4)]
            items = [Item(leaf(inner.col(n).ref, inner.col(n).t), n) for n in chosen]
            if self.chance(0.4):
                e = self.expr([inner], self.pick(["int", "dec", "str"]), 2)
                items.append(Item(e, "x0"))
            if r < 0.45 and table in SCHEMA:
                items.append(Item(self.window_item(inner), "w0"))
            q = Select(items=tuple(items), source=src,
                       where=tuple(self.predicate([inner], 1) for _ in range(self.rng.randint(1, 2))))
            if r < 0.6:
                q = dataclasses.replace(q, order=Order(((self.chance(0.5), self.chance(0.5)),),
                                                       self.rng.randint(1, 200)))
            elif r < 0.7:
                q = dataclasses.replace(q, distinct=True)
            elif r < 0.8:
                src2, inner2 = self.table_rel(table)
                items2 = tuple(Item(leaf(inner2.col(i.alias).ref, i.expr.t) if inner2.col(i.alias) else
                                    self.expr([inner2], i.expr.t if i.expr.t != "dbl" else "dec", 1), i.alias)
                               for i in items)
                q2 = Select(items=items2, source=src2, where=(self.predicate([inner2], 1),))
                q = SetOp(self.pick(["UNION ALL", "UNION"]), q, q2)
        shape = [(i.alias, i.expr.t, table if i.alias in names else None) for i in items]
        cols = [Col(f"{alias}.{n}", n, t, o) for n, t, o in shape]
        if self.chance(0.5):
            self.next_cte += 1
            name = f"cte{self.next_cte}"
            self.pending_ctes.append((name, q))
            self.cte_shapes.append((name, table, shape))
            return Table(name, alias), Rel(alias, table, cols)
        return Derived(q, alias), Rel(alias, table, cols)

    # ---- aggregates
    def aggregate(self, scope):
        agg, t = self.plain_aggregate(scope)
        if self.chance(0.1):
            # FILTER (WHERE ...): an aggregate over some of the group's rows.
            pred = self.predicate(scope, 1)
            if agg.fmt is None:
                agg = node(agg.args[0] + " FILTER (WHERE {0})", t, pred, agg=True)
            else:
                agg = E(agg.fmt + " FILTER (WHERE {%d})" % len(agg.args), agg.args + (pred,), t, True)
        return agg, t

    def plain_aggregate(self, scope):
        r = self.rng.random()
        if r < 0.15:
            return leaf("count(*)", "int"), "int"
        if r < 0.25:
            t = self.comparable_type(scope)
            return node("count({0})", "int", self.expr(scope, t, 1), agg=True), "int"
        if r < 0.32:
            t = self.comparable_type(scope)
            return node("count(DISTINCT {0})", "int", self.expr(scope, t, 1), agg=True), "int"
        if r < 0.55:
            t = self.pick(["int", "dec", "dec", "dbl"])
            fn = self.pick(["sum", "sum", "sum(DISTINCT"]) if t != "dbl" else "sum"
            if fn == "sum(DISTINCT":
                return node("sum(DISTINCT {0})", t, self.expr(scope, t, 1), agg=True), t
            return node("sum({0})", t, self.expr(scope, t, 1), agg=True), t
        if r < 0.8:
            t = self.comparable_type(scope)
            fn = self.pick(["min", "max"])
            return node(f"{fn}({{0}})", t, self.expr(scope, t, 1), agg=True), t
        t = self.pick(["int", "dec"])
        return node("avg({0})", "dbl", self.expr(scope, t, 1), agg=True), "dbl"

    def having_predicate(self, scope):
        agg, t = self.aggregate(scope)
        if t == "dbl":
            # A floating-point aggregate depends on the order of its additions: a threshold the exact sum may equal
            # (sums of 2-digit decimals are often exactly 1.50) would make the answer depend on that order.
            return node("({0} > ({1} + 0.0000001))", "bool", agg, self.literal("dec"))
        op = self.pick(["=", "<>", "<", "<=", ">", ">="])
        if t == "int" and agg.sql().startswith("count"):
            return node("({0} " + op + " {1})", "bool", agg, leaf(str(self.pick([0, 1, 2, 3, 5, 10])), "int"))
        return node("({0} " + op + " {1})", "bool", agg, self.literal(t))

    # ---- windows
    def window_item(self, rel):
        """A window function over `rel`'s rows; where the result depends on the order of peers, the ORDER BY
        ends with the table's unique key."""
        keys = ", ".join(rel.col(k).ref for k in SCHEMA[rel.table][0])
        parts = [c for c in rel.cols if c.t in ("int", "str", "date") and c.name not in SCHEMA[rel.table][0]]
        pby = ""
        if parts and self.chance(0.75):
            pby = "PARTITION BY " + ", ".join(c.ref for c in self.rng.sample(parts, self.rng.randint(1, min(2, len(parts))))) + " "
        if self.chance(0.1):
            ints = [c for c in rel.cols if c.t == "int"]
            pby = f"PARTITION BY ({self.pick(ints).ref} % {self.pick([2, 3, 7])}) "
        first = self.pick([c for c in rel.cols if c.t in ("int", "dec", "str", "date")])
        desc = " DESC" if self.chance(0.4) else ""
        nulls = self.pick(["", " NULLS FIRST", " NULLS LAST"])
        peers = f"ORDER BY {first.ref}{desc}{nulls}"
        full = f"{peers}, {keys}"
        num = self.pick([c for c in rel.cols if c.t in ("int", "dec")])
        any_col = self.pick([c for c in rel.cols if c.t in ("int", "dec", "str", "date")])
        r = self.rng.random()
        if r < 0.1:
            return leaf(f"row_number() OVER ({pby}{full})", "int")
        if r < 0.2:
            return leaf(f"{self.pick(['rank', 'dense_rank'])}() OVER ({pby}{peers})", "int")
        if r < 0.26:
            return leaf(f"{self.pick(['percent_rank', 'cume_dist'])}() OVER ({pby}{peers})", "dbl")
        if r < 0.31:
            return leaf(f"ntile({self.rng.randint(1, 5)}) OVER ({pby}{full})", "int")
        if r < 0.43:
            fn = self.pick(["sum", "count", "min", "max"])
            # RANGE frame (the default): peers are summed together, whatever their order.
            return leaf(f"{fn}({num.ref}) OVER ({pby}{peers})", "int" if fn == "count" else num.t)
        if r < 0.53:
            frame = self.pick(["ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW",
                               "ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING",
                               "RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"])
            fn = self.pick(["sum", "count", "min", "max"])
            return leaf(f"{fn}({num.ref}) OVER ({pby}{full} {frame})", "int" if fn == "count" else num.t)
        if r < 0.65:
            fn = self.pick(["sum", "count", "min", "max"])
            return leaf(f"{fn}({any_col.ref if fn in ('count', 'min', 'max') else num.ref}) OVER ({pby.strip()})",
                        "int" if fn == "count" else (any_col.t if fn in ("min", "max") else num.t))
        if r < 0.7:
            return leaf(f"count(*) OVER ({pby.strip()})", "int")
        if r < 0.82:
            fn = self.pick(["lag", "lead"])
            extra = ""
            if self.chance(0.5):
                extra = f", {self.rng.randint(1, 3)}"
                if self.chance(0.5):
                    extra += ", " + self.literal(num.t).sql()
            return leaf(f"{fn}({num.ref}{extra}) OVER ({pby}{full})", num.t)
        if r < 0.9:
            fn = self.pick(["first_value", "last_value"])
            return leaf(f"{fn}({any_col.ref}) OVER ({pby}{full})", any_col.t)
        return leaf(f"avg({num.ref}) OVER ({pby.strip()})", "dbl")

    def grouped_window_item(self, keys, aggs):
        """A window function over the groups of an aggregation: ordered by an aggregate (rank, RANGE frames:
        peers are deterministic) or by every group key (a total order)."""
        nulls = lambda: self.pick([" NULLS FIRST", " NULLS LAST"])
        num = [a for a in aggs if a.t in ("int", "dec")]
        r = self.rng.random()
        if keys and r < 0.3:
            order = ", ".join(f"{k.sql()}{self.pick(['', ' DESC'])}{nulls()}" for k in keys)
            return leaf(f"row_number() OVER (ORDER BY {order})", "int")
        if num and r < 0.6:
            a = self.pick(num)
            return leaf(f"{self.pick(['rank', 'dense_rank'])}() OVER (ORDER BY {a.sql()}{self.pick(['', ' DESC'])}"
                        f"{nulls()})", "int")
        if num and r < 0.85:
            a = self.pick(num)
            return leaf(f"sum({a.sql()}) OVER ()", a.t)
        return leaf("count(*) OVER ()", "int")

    # ---- queries
    def order(self, limit_chance=0.6):
        directions = tuple((self.chance(0.4), self.chance(0.3)) for _ in range(4))
        limit = (0 if self.chance(0.05) else self.rng.randint(1, 20)) if self.chance(limit_chance) else None
        offset = self.rng.randint(1, 5) if limit is not None and self.chance(0.15) else None
        return Order(directions, limit, offset)

    def items(self, scope, n, allow_div=True):
        out = []
        for i in range(n):
            t = self.pick(["int", "int", "dec", "dec", "str", "str", "date", "dbl", "bool"])
            if t != "bool" and not self.cols_of(scope, (t,)) and t != "dbl":
                t = "int" if self.cols_of(scope, ("int",)) else "str"
            e = self.expr(scope, t, self.rng.randint(0, 2), allow_div=allow_div) if t != "bool" \
                else self.predicate(scope, 1, subqueries=self.subquery_items and self.chance(0.5))
            out.append(Item(e, f"c{i}"))
        return out

    def finish(self, q):
        """Adds the CTEs the FROM clauses asked for."""
        if self.pending_ctes:
            q = dataclasses.replace(q, ctes=tuple(self.pending_ctes))
        return q

    def limit_needed(self, scope):
        return any(r.table in BIG for r in scope)

    def query(self):
        self.pending_ctes = []
        self.cte_shapes = []
        shape = self.rng.random()
        if shape < 0.14:
            q = self.q_filter()
        elif shape < 0.32:
            q = self.q_join()
        elif shape < 0.38:
            q = self.q_cross()
        elif shape < 0.58:
            q = self.q_group()
        elif shape < 0.64:
            q = self.q_distinct()
        elif shape < 0.74:
            q = self.q_setop()
        elif shape < 0.87:
            q = self.q_subquery()
        else:
            q = self.q_window()
        big = any(f" {t} t" in q.sql() for t in BIG)
        if big and (q.order is None or q.order.limit is None) and not (isinstance(q, Select) and q.group_by) \
                and self.chance(0.8):
            # Keep most results over the big tables small (comparing 60,000 rows costs more than running them).
            order = q.order or self.order(1.0)
            q = dataclasses.replace(q, order=dataclasses.replace(order, limit=self.rng.randint(1, 50)))
        return self.finish(q)

    def q_filter(self):
        source, joins, scope = self.from_clause(0)
        where = [self.predicate(scope, 2) for _ in range(self.rng.randint(0, 3))]
        items = self.items(scope, self.rng.randint(1, 4))
        order = self.order(0.9 if self.limit_needed(scope) else 0.3)
        if self.limit_needed(scope) and order.limit is None and self.chance(0.7):
            where.append(self.predicate(scope, 0))
        return Select(items=tuple(items), source=source, where=tuple(where), order=order if self.chance(0.8) else None)

    def q_join(self):
        source, joins, scope = self.from_clause(self.rng.randint(1, 3))
        where = [self.predicate(scope, 1) for _ in range(self.rng.randint(0, 3))]
        items = self.items(scope, self.rng.randint(1, 5))
        order = self.order(0.9 if self.limit_needed(scope) else 0.4)
        if order.limit is None and self.limit_needed(scope):
            order = dataclasses.replace(order, limit=self.rng.randint(1, 30))
        return Select(items=tuple(items), source=source, joins=tuple(joins), where=tuple(where), order=order)

    def theta(self, left, right):
        """A join condition that is not a key equality: comparisons of columns of the two sides."""
        conds = []
        for _ in range(self.rng.randint(1, 2)):
            t = self.pick(["int", "int", "str", "dec"])
            a, b = self.column([left], t), self.column([right], t)
            if not a or not b:
                a, b = self.column([left], "int"), self.column([right], "int")
            rhs = b[0]
            if t == "int" and self.chance(0.4):
                rhs = node("({0} + {1})", "int", rhs, self.literal("int"))
            conds.append(node("({0} " + self.pick(["<", "<=", ">", "<>", "="]) + " {1})", "bool", a[0], rhs))
        if len(conds) == 2 and self.chance(0.4):
            conds = [node("({0} OR {1})", "bool", conds[0], conds[1])]
        return tuple(conds)

    def q_cross(self):
        a_src, a = self.table_rel(self.pick(CROSS_LEFT))
        b_src, b = self.table_rel(self.pick(SMALL))
        scope = [a, b]
        if self.chance(0.5):
            joins = [Join(self.pick(["INNER", "LEFT", "RIGHT", "FULL"]), b_src, self.theta(a, b))]
            for r in ([b] if joins[0].kind in ("LEFT", "FULL") else []) + \
                     ([a] if joins[0].kind in ("RIGHT", "FULL") else []):
                for c in r.cols:
                    c.nullable = True
        else:
            joins = [Join("CROSS", b_src, ())]
        if self.chance(0.3):
            c_src, c = self.table_rel(CROSS_THIRD)
            if self.chance(0.5):
                kind = self.pick(["INNER", "LEFT", "RIGHT", "FULL"])
                joins.append(Join(kind, c_src, self.theta(self.pick(scope), c)))
            else:
                joins.append(Join("CROSS", c_src, ()))
            scope.append(c)
        where = [self.predicate(scope, 1) for _ in range(self.rng.randint(0, 2))]
        if self.chance(0.5):
            return self.grouped(a_src, joins, scope, where)
        items = self.items(scope, self.rng.randint(1, 4))
        return Select(items=tuple(items), source=a_src, joins=tuple(joins), where=tuple(where),
                      order=self.order(0.5) if self.chance(0.6) else None)

    def grouped(self, source, joins, scope, where):
        n_keys = self.rng.randint(0, 3)
        keys = []
        for _ in range(n_keys):
            t = self.pick(["int", "str", "str", "date", "dec"])
            if not self.cols_of(scope, (t,)):
                t = "int"
            k = self.column(scope, t)[0] if self.chance(0.75) else self.expr(scope, t, 1)
            if k.fmt is None and not re.match(r"t\d+\.", k.sql()):
                continue      # a literal key: GROUP BY 3 would name an output column
            if k.sql() not in [x.sql() for x in keys]:
                keys.append(k)
        items = [Item(k, f"g{i}") for i, k in enumerate(keys)]
        # Expressions over the group keys (the binder must find the keys inside them).
        key_cols = []
        for k in keys:
            c = self.col_of(scope, k)
            key_cols.append(Col(k.sql(), c.name if c else "key", k.t, c.origin if c else None, True))
        key_scope = [Rel("keys", "keys", key_cols)]
        if keys and self.chance(0.3):
            t = self.pick([c.t for c in key_cols])
            items.append(Item(self.expr(key_scope, t, 2), f"g{len(items)}"))
        for i in range(self.rng.randint(1, 3)):
            agg, _ = self.aggregate(scope)
            if keys and agg.t in ("int", "dec") and self.chance(0.1):
                nums = [c for c in key_cols if c.t in ("int", "dec")]
                if nums:
                    agg = node("({0} " + self.pick("+-*") + " {1})", agg.t if nums[0].t == "int" else "dec", agg,
                               leaf(self.pick(nums).ref, "int"))
            if self.chance(0.15) and agg.t in NUMERIC:
                other, t = self.aggregate(scope)
                if t in NUMERIC:
                    agg = node("({0} + {1})", "dbl" if "dbl" in (agg.t, t) else ("dec" if "dec" in (agg.t, t)
                                                                                  else "int"), agg, other)
            items.append(Item(agg, f"a{i}"))
        grouping = None
        if keys and self.chance(0.15):
            grouping = self.pick(["ROLLUP", "CUBE", "SETS"])
            if self.chance(0.5):
                k = self.pick(keys)
                items.append(Item(node("grouping({0})", "int", k, agg=True), f"a{len(items)}"))
        elif self.chance(0.15):
            items.append(Item(self.grouped_window_item(keys, [i.expr for i in items[len(keys):]]),
                              f"w{len(items)}"))
        having = [self.having_predicate(scope) for _ in range(self.rng.randint(0, 2))] if self.chance(0.4) else []
        if keys and self.chance(0.15):
            having.append(self.predicate(key_scope, 1))
        if having and self.chance(0.2):
            # An uncorrelated scalar sub-query in HAVING.
            table = self.pick(SCALAR_TABLES)
            src, inner = self.table_rel(table)
            c = self.column([inner], self.pick(["int", "dec"])) or self.column([inner], "int")
            q = Select(items=(Item(node(f"{self.pick(['min', 'max', 'avg', 'count'])}({{0}})", "dbl", c[0],
                                        agg=True), "v"),), source=src, where=(self.predicate([inner], 1),),
                       aggregate=True)
            having.append(node("(count(*) " + self.pick(["<", ">", "<>"]) + " ({0}))", "bool", q, agg=True))
        order = self.order(0.5) if keys and self.chance(0.6) else None
        return Select(items=tuple(items), source=source, joins=tuple(joins), where=tuple(where),
                      group_by=tuple(keys), having=tuple(having), order=order, aggregate=not keys,
                      grouping=grouping)

    def q_group(self):
        source, joins, scope = self.from_clause(self.rng.randint(0, 2))
        where = [self.predicate(scope, 1, subqueries=self.chance(0.2)) for _ in range(self.rng.randint(0, 2))]
        return self.grouped(source, joins, scope, where)

    def q_distinct(self):
        source, joins, scope = self.from_clause(self.rng.randint(0, 1))
        where = [self.predicate(scope, 1) for _ in range(self.rng.randint(0, 2))]
        items = []
        for i in range(self.rng.randint(1, 3)):
            t = self.pick(["int", "str", "str", "date", "dec"])
            if not self.cols_of(scope, (t,)):
                t = "int"
            items.append(Item(self.column(scope, t)[0] if self.chance(0.7) else self.expr(scope, t, 1), f"c{i}"))
        return Select(items=tuple(items), source=source, joins=tuple(joins), where=tuple(where), distinct=True,
                      order=self.order(0.5) if self.chance(0.5) else None)

    def setop_side(self, table, types):
        src, rel = self.table_rel(table)
        items = []
        for i, t in enumerate(types):
            cands = self.cols_of([rel], (t,))
            e = leaf(self.pick(cands).ref, t) if cands and self.chance(0.7) else self.expr([rel], t, 1)
            if self.chance(0.015):
                e = leaf("NULL", t)        # the other side's type
            elif t == "dec" and self.chance(0.1) and self.cols_of([rel], ("int",)):
                e = self.expr([rel], "int", 0)       # INTEGER and DECIMAL unify
            items.append(Item(e, f"c{i}"))
        where = tuple(self.predicate([rel], 1) for _ in range(self.rng.randint(1, 2)))
        return Select(items=tuple(items), source=src, where=where)

    def q_setop(self):
        table = self.pick(SETOP_TABLES)
        cols = SCHEMA[table][1]
        types = [self.pick([t for _, t in cols if t != "str"] + ["str", "str"]) for _ in range(self.rng.randint(1, 3))]
        types = [t if any(ct == t for _, ct in cols) else "int" for t in types]
        op = self.pick(["UNION", "UNION ALL", "INTERSECT", "EXCEPT", "INTERSECT ALL", "EXCEPT ALL"])
        left = self.setop_side(table, types)
        other = table if self.chance(0.7) else self.pick(
            [t for t in TABLES if all(any(ct == x for _, ct in SCHEMA[t][1]) for x in types)])
        right = self.setop_side(other, types)
        q = SetOp(op, left, right)
        if self.chance(0.3):
            q = SetOp(self.pick(["UNION", "UNION ALL", "EXCEPT", "INTERSECT"]), q, self.setop_side(table, types))
        if self.chance(0.5) or table in LIMITED:
            q = dataclasses.replace(q, order=self.order(0.7 if table not in LIMITED else 1.0))
            if table in LIMITED and q.order.limit is None:
                q = dataclasses.replace(q, order=dataclasses.replace(q.order, limit=10))
        return q

    def q_subquery(self):
        base = self.pick(SUBQUERY_BASES)
        source, joins, scope = self.from_clause(self.rng.randint(0, 1), base=base, allow_derived=False)
        where = [self.predicate(scope, 1, subqueries=True) for _ in range(self.rng.randint(1, 2))]
        if not any("SELECT" in w.sql() for w in where):
            sub = self.subquery_predicate(scope)
            if sub is not None:
                where.append(sub)
        self.subquery_items = True
        items = self.items(scope, self.rng.randint(1, 3), allow_div=False)
        self.subquery_items = False
        if self.chance(0.4):
            s = self.scalar_subquery_item(scope)
            if s is not None:
                items.append(Item(s, f"c{len(items)}"))
        if self.chance(0.3):
            return self.grouped(source, joins, scope, where)
        order = self.order(0.9 if self.limit_needed(scope) else 0.5)
        if self.limit_needed(scope) and order.limit is None:
            order = dataclasses.replace(order, limit=15)
        return Select(items=tuple(items), source=source, joins=tuple(joins), where=tuple(where), order=order)

    def q_window(self):
        table = self.pick(WINDOW_TABLES)
        source, rel = self.table_rel(table)
        scope = [rel]
        joins = []
        parents = [(o, pairs) for o, pairs, fan in self.edge_from(table) if fan == 1]
        if parents and self.chance(0.4):
            # A join to a parent table keeps one row per row of `table`: its key still orders the windows fully.
            other, pairs = self.pick(parents)
            src, parent = self.table_rel(other)
            kind = self.pick(["INNER", "LEFT"])
            on = [node("({0} = {1})", "bool", leaf(rel.col(a).ref, "int"), leaf(parent.col(b).ref, "int"))
                  for a, b in pairs]
            if self.chance(0.4):
                on.append(self.predicate([parent], 0))
            if kind == "LEFT":
                for c in parent.cols:
                    c.nullable = True
            joins.append(Join(kind, src, tuple(on)))
            scope.append(parent)
        merged = Rel(rel.alias, table, [c for r in scope for c in r.cols])
        where = [self.predicate(scope, 1) for _ in range(self.rng.randint(0, 2))]
        items = self.items(scope, self.rng.randint(0, 2), allow_div=False)
        items += [Item(leaf(rel.col(k).ref, "int"), f"k{i}") for i, k in enumerate(SCHEMA[table][0])]
        for i in range(self.rng.randint(1, 3)):
            items.append(Item(self.window_item(merged), f"w{i}"))
        items = [Item(it.expr, f"c{i}") for i, it in enumerate(items)]
        order = self.order(0.8 if table in WINDOW_LIMITED else 0.3)
        if table in WINDOW_LIMITED and order.limit is None:
            order = dataclasses.replace(order, limit=20)
        return Select(items=tuple(items), source=source, joins=tuple(joins), where=tuple(where), order=order)


def generate_query(seed, index, samples):
    rng = random.Random(f"sql-fuzz:{seed}:{index}")
    return Gen(rng, samples).query()


# --------------------------------------------------------------------------------------------------------------
# Running and comparing

@dataclasses.dataclass
class Outcome:
    kind: str        # match, mismatch, error, crash, hang, skipped (DuckDB rejected)
    detail: str = ""

    def key(self):
        """What a shrunk query must keep to count as the same failure."""
        if self.kind == "error":
            return (self.kind, re.sub(r" at line \d+, column \d+", "", self.detail.splitlines()[0]
                                      if self.detail else ""))
        return (self.kind,)


class Checker:
    def __init__(self, kestrel, data, timeout=30.0, device="cpu"):
        import duckdb
        self.device = device
        self.kestrel = str(kestrel)
        self.data = str(data)
        self.timeout = timeout
        self.con = duckdb.connect()
        self.con.execute("SET threads = 1")
        # Kestrel orders NULLs as PostgreSQL and Presto do where a query does not say: last ascending, first
        # descending (an implicit window ORDER BY ... DESC differed from DuckDB's default, NULLS LAST always).
        self.con.execute("SET default_null_order = 'nulls_last_on_asc_first_on_desc'")
        for table in TABLES:
            # In-memory tables (the same values and types as the files; faster than a view per query).
            self.con.execute(f"CREATE TABLE {table} AS SELECT * FROM "
                             f"read_parquet('{pathlib.Path(data) / table}.parquet')")
        self.samples = Samples(self.con)
        self.kestrel_seconds = 0.0
        self.last_kestrel_seconds = 0.0
        self.last_duckdb_seconds = 0.0
        self.duckdb_seconds = 0.0

    def duckdb(self, sql):
        timer = threading.Timer(self.timeout, self.con.interrupt)
        timer.start()
        start = time.monotonic()
        try:
            cursor = self.con.execute(sql)
            cols = len(cursor.description)
            rows = [[tpch_support.duckdb_text(v) for v in row] for row in cursor.fetchall()]
            return cols, rows, None
        except Exception as e:  # noqa: BLE001 (any DuckDB error means the query is not usable)
            return None, None, f"{type(e).__name__}: {e}".splitlines()[0]
        finally:
            timer.cancel()
            self.last_duckdb_seconds = time.monotonic() - start
            self.duckdb_seconds += self.last_duckdb_seconds

    def run_kestrel(self, sql, timeout=None):
        args = [self.kestrel, "--data", self.data, "--device", self.device, "--format", "csv", "-c", sql]
        start = time.monotonic()
        try:
            for attempt in range(10):
                try:
                    p = subprocess.run(args, capture_output=True, text=True, timeout=timeout or self.timeout)
                    break
                except OSError:
                    # The binary is being replaced (a build running beside the fuzzer): wait for the new one.
                    if attempt == 9:
                        raise
                    time.sleep(1.0)
        except subprocess.TimeoutExpired:
            return "hang", f"no answer within {timeout or self.timeout:.0f} s"
        finally:
            self.last_kestrel_seconds = time.monotonic() - start
            self.kestrel_seconds += self.last_kestrel_seconds
        if p.returncode == 0:
            return "ok", p.stdout
        lines = p.stderr.strip().splitlines()
        if p.returncode == 1:
            return "error", lines[0] if lines else "exit 1"
        return "crash", f"exit status {p.returncode}" + (f": {lines[-1]}" if lines else "")

    def check(self, sql, ordered, timeout=None):
        cols, expected, problem = self.duckdb(sql)
        if problem is not None:
            return Outcome("skipped", problem)
        limit = top_limit(sql)
        if limit is not None and len(expected) > limit:
            # DuckDB 2.0.1 loses a LIMIT above an outer join whose other side it found empty
            # (SELECT x FROM a LEFT JOIN b ON b.y IS NULL WHERE ... ORDER BY 1 LIMIT 3 returns every row).
            return Outcome("skipped", f"DuckDB bug: {len(expected)} rows despite LIMIT {limit}")
        status, out = self.run_kestrel(sql, timeout)
        if status != "ok":
            return Outcome(status, out)
        if not out.strip():
            return Outcome("mismatch", "Kestrel printed nothing")
        header, rows = tpch_support.parse_csv(out)
        if len(header) != cols:
            return Outcome("mismatch", f"{len(header)} columns, expected {cols}")
        if cols == 1:
            # One column: a NULL prints as an empty line, which the CSV reader returns as no field.
            rows = [row or [""] for row in rows]
        for row in rows:
            if len(row) != cols:
                return Outcome("mismatch", f"a row of {len(row)} fields, expected {cols}: {row!r}")
        if not ordered:
            expected, rows = sort_for_comparison(expected, rows)
        problems = tpch_support.compare_rows(expected, rows, True)
        if problems:
            return Outcome("mismatch", "; ".join(problems[:3]) + (f" (+{len(problems) - 3} more)"
                                                                   if len(problems) > 3 else ""))
        return Outcome("match", f"{len(rows)} rows")


def _number(v):
    try:
        x = float(v)
    except ValueError:
        return None
    return x if x == x else None  # NaN (also the name "Nan") sorts as text


def sort_for_comparison(expected, actual):
    """Both results sorted alike for a comparison as multisets: by the exact columns (integers, text) first and by
    the columns with fractions last, so that values equal within the tolerance but not exactly (a DECIMAL quotient
    against DuckDB's DOUBLE) cannot pair the rows up differently."""
    width = len(expected[0]) if expected else (len(actual[0]) if actual else 0)
    approx = []
    for c in range(width):
        values = [row[c] for row in expected + actual if c < len(row) and row[c] != ""]
        numbers = [_number(v) for v in values]
        approx.append(bool(values) and all(x is not None for x in numbers) and
                      any(x != int(x) for x in numbers if x == x and abs(x) != float("inf")))
    order = [c for c in range(width) if not approx[c]] + [c for c in range(width) if approx[c]]

    def key(row):
        out = []
        for c in order:
            v = row[c] if c < len(row) else ""
            x = _number(v) if v != "" else None
            out.append((0, 0.0, "") if v == "" else ((1, x, "") if x is not None else (2, 0.0, v)))
        return out
    return sorted(expected, key=key), sorted(actual, key=key)


def top_limit(sql):
    """The LIMIT at the end of a query's text, or None."""
    m = re.search(r"\bLIMIT\s+(\d+)(\s+OFFSET\s+\d+)?\s*;?\s*$", sql, re.IGNORECASE)
    if m is None or sql[:m.start()].count("(") != sql[:m.start()].count(")"):
        return None
    return int(m.group(1))


def is_ordered_text(sql):
    """For a query given as text (--sql, --replay): ordered when it ends with an ORDER BY at the top level."""
    depth, last = 0, None
    upper = sql.upper()
    for i, ch in enumerate(upper):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif depth == 0 and upper.startswith("ORDER BY", i):
            last = i
    return last is not None


# --------------------------------------------------------------------------------------------------------------
# Shrinking: smaller variants of a query tree, the biggest cuts first.

def _without(seq, i):
    return tuple(seq[:i]) + tuple(seq[i + 1:])


def _with(seq, i, value):
    return tuple(seq[:i]) + (value,) + tuple(seq[i + 1:])


def drop_column(q, i):
    """`q` without its output column `i` (both sides of a set operation), or None."""
    if isinstance(q, Select):
        return dataclasses.replace(q, items=_without(q.items, i)) if len(q.items) > 1 else None
    left, right = drop_column(q.left, i), drop_column(q.right, i)
    return None if left is None or right is None else dataclasses.replace(q, left=left, right=right)


def variants(n):
    if isinstance(n, SetOp):
        for i in range(n.width()):
            v = drop_column(n, i)
            if v is not None:
                yield v
        yield n.left if n.order is None or n.left.order is not None else dataclasses.replace(n.left, order=n.order)
        yield n.right if n.order is None or n.right.order is not None else dataclasses.replace(n.right, order=n.order)
        if n.order is not None:
            yield from _order_variants(n)
        if n.op != "UNION ALL":
            yield dataclasses.replace(n, op="UNION ALL")
        for v in variants(n.left):
            yield dataclasses.replace(n, left=v)
        for v in variants(n.right):
            yield dataclasses.replace(n, right=v)
    elif isinstance(n, Select):
        for i in range(len(n.ctes)):
            yield dataclasses.replace(n, ctes=_without(n.ctes, i))
        for i in range(len(n.joins)):
            yield dataclasses.replace(n, joins=_without(n.joins, i))
        for field in ("where", "having", "group_by"):
            seq = getattr(n, field)
            for i in range(len(seq)):
                yield dataclasses.replace(n, **{field: _without(seq, i)})
        if len(n.items) > 1:
            for i in range(len(n.items)):
                yield dataclasses.replace(n, items=_without(n.items, i))
        if n.distinct:
            yield dataclasses.replace(n, distinct=False)
        if n.grouping is not None:
            yield dataclasses.replace(n, grouping=None)
        if n.order is not None:
            yield from _order_variants(n)
        for i, j in enumerate(n.joins):
            if j.kind not in ("INNER", "CROSS"):
                yield dataclasses.replace(n, joins=_with(n.joins, i, dataclasses.replace(j, kind="INNER")))
            for k in range(1, len(j.on)):
                yield dataclasses.replace(n, joins=_with(n.joins, i, dataclasses.replace(j, on=_without(j.on, k))))
        for i, (name, q) in enumerate(n.ctes):
            for v in variants(q):
                yield dataclasses.replace(n, ctes=_with(n.ctes, i, (name, v)))
        if isinstance(n.source, Derived):
            for v in variants(n.source.query):
                yield dataclasses.replace(n, source=Derived(v, n.source.alias))
        for i, j in enumerate(n.joins):
            if isinstance(j.source, Derived):
                for v in variants(j.source.query):
                    yield dataclasses.replace(n, joins=_with(n.joins, i, dataclasses.replace(
                        j, source=Derived(v, j.source.alias))))
            for k, c in enumerate(j.on):
                for v in variants(c):
                    yield dataclasses.replace(n, joins=_with(n.joins, i, dataclasses.replace(
                        j, on=_with(j.on, k, v))))
        for field in ("where", "having", "group_by"):
            seq = getattr(n, field)
            for i, c in enumerate(seq):
                for v in variants(c):
                    yield dataclasses.replace(n, **{field: _with(seq, i, v)})
        for i, it in enumerate(n.items):
            for v in variants(it.expr):
                yield dataclasses.replace(n, items=_with(n.items, i, Item(v, it.alias)))
    elif isinstance(n, E):
        if n.fmt is None:
            return
        for a in n.args:
            if isinstance(a, E) and compatible(a.t, n.t):
                yield a
        if n.t == "bool" and not any(isinstance(a, Select) for a in n.args):
            yield leaf("TRUE", "bool")
        if n.t in SIMPLE and not n.agg:
            yield leaf(SIMPLE[n.t], n.t)
        for i, a in enumerate(n.args):
            if isinstance(a, (E, Select, SetOp)):
                for v in variants(a):
                    yield dataclasses.replace(n, args=_with(n.args, i, v))


# The literal the shrinker puts in place of an expression.
SIMPLE = {"int": "1", "dec": "1.00", "dbl": "1.0e0", "str": "'a'", "date": "DATE '1995-01-01'"}


def _order_variants(n):
    o = n.order
    if o.limit is None:
        yield dataclasses.replace(n, order=None)
    if o.offset is not None:
        yield dataclasses.replace(n, order=dataclasses.replace(o, offset=None))
    if o.limit is not None:
        yield dataclasses.replace(n, order=dataclasses.replace(o, limit=None, offset=None))
    if any(o.directions) and o.directions != ((False, False),):
        yield dataclasses.replace(n, order=dataclasses.replace(o, directions=((False, False),)))


def shrink(checker, query, outcome, budget_s=60.0, max_tries=400):
    """The smallest variant of `query` found that fails the same way (greedy, first improvement)."""
    deadline = time.monotonic() + budget_s
    tries = 0
    timeout = min(checker.timeout, 10.0) if outcome.kind == "hang" else None
    improved = True
    while improved and time.monotonic() < deadline and tries < max_tries:
        improved = False
        for v in variants(query):
            if time.monotonic() >= deadline or tries >= max_tries:
                break
            tries += 1
            o = checker.check(v.sql(), ordered_result(v), timeout)
            if o.key() == outcome.key():
                query, outcome = v, o
                improved = True
                break
    return query, outcome


# --------------------------------------------------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--queries", type=int, default=None, help="number of queries (default 300 unless --seconds)")
    ap.add_argument("--seconds", type=float, default=None, help="generate queries until this much time has passed")
    ap.add_argument("--kestrel", default=str(REPO / "build" / "kestrel"))
    ap.add_argument("--device", default="cpu", help="Kestrel's device: cpu, or gpu on the GPU machine (operators "
                    "without a GPU side run on the CPU)")
    ap.add_argument("--schema", default="tpch", choices=["tpch", "tpcds"],
                    help="TPC-H (default) or a TPC-DS subset (data: .cache/tpcds/sf0.01, made by scripts/tpcds-check.py)")
    ap.add_argument("--sf", default="0.01", help="TPC-H scale factor of the data (default 0.01)")
    ap.add_argument("--data", default=None, help="a folder with the 8 TPC-H Parquet files (instead of --sf)")
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds a query may take (default 30)")
    ap.add_argument("--shrink-seconds", type=float, default=30.0, help="time to shrink each finding (default 30)")
    ap.add_argument("--no-shrink", action="store_true")
    ap.add_argument("--only", type=int, default=None, help="run only query number I of the seed")
    ap.add_argument("--sql", default=None, help="check one query given as text")
    ap.add_argument("--replay", default=None, help="check every query of a file (one a line, '#' comments)")
    ap.add_argument("--print", action="store_true", help="print every generated query")
    args = ap.parse_args(argv)

    use_schema(args.schema)
    if args.data:
        data = pathlib.Path(args.data)
    elif args.schema == "tpcds":
        data = pathlib.Path(os.environ.get("KESTREL_DATA_CACHE", REPO / ".cache")) / "tpcds" / "sf0.01"
    else:
        sf = float(args.sf)
        data = tpch_support.generate(int(sf) if sf.is_integer() else sf)
    checker = Checker(args.kestrel, data, args.timeout, args.device)

    counts = {"queries": 0, "match": 0, "findings": 0, "skipped": 0}
    start = time.monotonic()

    def report(label, outcome, sql):
        counts["findings"] += 1
        print(f"FINDING {label} [{outcome.kind}] {outcome.detail} :: {sql}", flush=True)

    def tally(outcome):
        counts["queries"] += 1
        if outcome.kind == "match":
            counts["match"] += 1
        elif outcome.kind == "skipped":
            counts["skipped"] += 1

    if args.sql or args.replay:
        texts = [args.sql] if args.sql else [
            line.strip() for line in pathlib.Path(args.replay).read_text().splitlines()
            if line.strip() and not line.lstrip().startswith("#")]
        for n, text in enumerate(texts):
            o = checker.check(text, is_ordered_text(text))
            tally(o)
            if args.print:
                print(f"-- {n}: {o.kind}: {text}")
            if o.kind not in ("match", "skipped"):
                report(f"#{n}", o, text)
            elif o.kind == "skipped":
                print(f"SKIPPED #{n} (DuckDB: {o.detail}) :: {text}")
    else:
        total = args.queries if args.queries is not None else (None if args.seconds else 300)
        indexes = [args.only] if args.only is not None else None
        i = 0
        while True:
            if indexes is not None:
                if i >= len(indexes):
                    break
                index = indexes[i]
            else:
                if total is not None and i >= total:
                    break
                if args.seconds is not None and time.monotonic() - start >= args.seconds:
                    break
                index = i
            i += 1
            q = generate_query(args.seed, index, checker.samples)
            sql = q.sql()
            o = checker.check(sql, ordered_result(q))
            tally(o)
            if args.print:
                print(f"-- {index}: {o.kind} ({o.detail}, Kestrel {checker.last_kestrel_seconds:.2f} s, "
                      f"DuckDB {checker.last_duckdb_seconds:.2f} s): {sql}",
                      flush=True)
            if o.kind in ("match", "skipped"):
                if o.kind == "skipped" and args.print:
                    print(f"--   DuckDB: {o.detail}")
                continue
            if not args.no_shrink:
                small, so = shrink(checker, q, o, args.shrink_seconds)
                if so.kind != o.kind:
                    small, so = q, o
            else:
                small, so = q, o
            report(f"seed {args.seed} query {index}", so, small.sql())

    elapsed = time.monotonic() - start
    print(f"{counts['queries']} queries, {counts['match']} matched, {counts['findings']} findings "
          f"({counts['skipped']} skipped: DuckDB failed or was wrong; {elapsed:.1f} s, Kestrel {checker.kestrel_seconds:.1f} s, "
          f"DuckDB {checker.duckdb_seconds:.1f} s)")
    return 1 if counts["findings"] else 0


if __name__ == "__main__":
    sys.exit(main())
