// CSV reader: type sniffing, explicit schemas with every type, exact decimals, value parsers.
#include <gtest/gtest.h>

#include <random>

#include "common/decimal.hpp"
#include "common/temporal.hpp"
#include "csv_test_util.hpp"
#include "io/csv/csv_value_parsers.hpp"

namespace kestrel {
namespace {

using csv_test::opts;
using csv_test::read_text;
using csv_test::Rows;
using csv_test::rows_of;
using csv_test::schema_of;

std::string sniff(const std::string& values) {
  CsvTable t = read_text("c\n" + values);
  return t.schema->field(0).type.to_string();
}

TEST(CsvSniff, EachType) {
  EXPECT_EQ(sniff("true\nFALSE\n\n"), "BOOLEAN");
  EXPECT_EQ(sniff("1\n0\n1\n"), "BIGINT");
  EXPECT_EQ(sniff("1\n-20\n+3\n9223372036854775807\n"), "BIGINT");
  EXPECT_EQ(sniff("1.5\n2\n-3.25\n"), "DECIMAL(18,2)");
  EXPECT_EQ(sniff("0.000001\n1\n"), "DECIMAL(18,6)");
  EXPECT_EQ(sniff("0.0000001\n"), "DOUBLE");
  EXPECT_EQ(sniff("1e5\n2.5\n"), "DOUBLE");
  EXPECT_EQ(sniff("inf\n-1.5\nnan\n"), "DOUBLE");
  EXPECT_EQ(sniff("12345678901234567.5\n"), "DECIMAL(18,1)");
  EXPECT_EQ(sniff("123456789012345678.5\n"), "DECIMAL(38,1)");
  EXPECT_EQ(sniff("99999999999999999999\n"), "DECIMAL(38,0)");
  EXPECT_EQ(sniff("2024-02-29\n1998-12-01\n"), "DATE");
  EXPECT_EQ(sniff("2024-02-30\n"), "VARCHAR");
  EXPECT_EQ(sniff("2024-01-02 03:04:05\n2024-01-02T03:04:05.123456\n"), "TIMESTAMP");
  EXPECT_EQ(sniff("2024-01-02\n2024-01-02 03:04\n"), "TIMESTAMP");
  EXPECT_EQ(sniff("1\nabc\n"), "VARCHAR");
  EXPECT_EQ(sniff("\n\n"), "VARCHAR");
  EXPECT_EQ(sniff("1-2-3\n"), "VARCHAR");
}

TEST(CsvSniff, NullsDoNotDecide) {
  CsvTable t = read_text("a,b\nNULL,\n1,2.5\nNULL,\n", opts({{"nullstr", "NULL"}}));
  EXPECT_EQ(schema_of(t), (std::vector<std::string>{"a BIGINT", "b DECIMAL(18,1)"}));
  EXPECT_EQ(rows_of(t), (Rows{{"NULL", "NULL"}, {"1", "2.5"}, {"NULL", "NULL"}}));
}

TEST(CsvSniff, TypesOptionOverridesSomeColumns) {
  CsvTable t = read_text("a,b,c\n1,2,3\n", opts({{"types", "B smallint, c VARCHAR"}}));
  EXPECT_EQ(schema_of(t), (std::vector<std::string>{"a BIGINT", "b SMALLINT", "c VARCHAR"}));
  EXPECT_THROW(read_text("a\n1\n", opts({{"types", "zz INTEGER"}})), InvalidInput);
}

TEST(CsvSniff, SampleSizeLimitsWhatIsSniffed) {
  std::string text = "v\n";
  for (int i = 0; i < 50; ++i) text += "1\n";
  text += "x\n";
  EXPECT_EQ(read_text(text, opts({{"sample_size", "100"}})).schema->field(0).type.to_string(), "VARCHAR");
  try {
    read_text(text, opts({{"sample_size", "10"}}));
    FAIL() << "expected InvalidInput";
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("line 52, column 'v': cannot read 'x' as BIGINT (the type was sniffed "
                                         "from the first 10 rows"),
              std::string::npos)
        << e.what();
  }
}

TEST(CsvSniff, SniffedDecimalRejectsMoreFractionDigitsThanSampled) {
  std::string text = "v\n1.25\n";
  for (int i = 0; i < 5; ++i) text += "2.50\n";
  text += "3.125\n";
  EXPECT_THROW(read_text(text, opts({{"sample_size", "3"}})), InvalidInput);
}

TEST(CsvTypes, ExplicitSchemaEveryType) {
  const std::string columns =
      "b BOOLEAN, t TINYINT, s SMALLINT, i INTEGER, g BIGINT, r REAL, d DOUBLE, n DECIMAL(15,2), "
      "w DECIMAL(38,10), dt DATE, ts TIMESTAMP, v VARCHAR";
  CsvTable t = read_text(
      "b,t,s,i,g,r,d,n,w,dt,ts,v\n"
      "true,-128,32767,-2147483648,9223372036854775807,1.5,2.25,1234567890123.45,"
      "1234567890123456789012345678.0123456789,1970-01-01,2001-02-03 04:05:06.5,héllo\n"
      "f,127,-32768,2147483647,-9223372036854775808,-0.5,1e300,-0.01,-0.0000000001,2024-02-29,"
      "1969-12-31 23:59:59.999999,\"a,b\"\n"
      ",,,,,,,,,,,\n",
      opts({{"columns", columns.c_str()}}));
  EXPECT_EQ(schema_of(t), (std::vector<std::string>{"b BOOLEAN", "t TINYINT", "s SMALLINT", "i INTEGER", "g BIGINT",
                                                    "r REAL", "d DOUBLE", "n DECIMAL(15,2)", "w DECIMAL(38,10)",
                                                    "dt DATE", "ts TIMESTAMP", "v VARCHAR"}));
  Rows rows = rows_of(t);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"true", "-128", "32767", "-2147483648", "9223372036854775807", "1.5",
                                               "2.25", "1234567890123.45", "1234567890123456789012345678.0123456789",
                                               "1970-01-01", "2001-02-03 04:05:06.5", "héllo"}));
  EXPECT_EQ(rows[1], (std::vector<std::string>{"false", "127", "-32768", "2147483647", "-9223372036854775808",
                                               "-0.5", "1e+300", "-0.01", "-0.0000000001", "2024-02-29",
                                               "1969-12-31 23:59:59.999999", "a,b"}));
  std::vector<std::string> nulls(11, "NULL");
  nulls.push_back("");
  EXPECT_EQ(rows[2], nulls);
  EXPECT_EQ(t.batches[0].column(7)->type(), LogicalType::decimal(15, 2));
  EXPECT_EQ(t.batches[0].column(8)->value_at(0).as_int128(),
            *parse_decimal("1234567890123456789012345678.0123456789", 38, 10));
}

TEST(CsvTypes, ExplicitIntervalIsNotImplemented) {
  EXPECT_THROW(read_text("a\n1 day\n", opts({{"columns", "a INTERVAL"}})), NotImplemented);
}

TEST(CsvTypes, OutOfRangeIntegersAreErrors) {
  EXPECT_THROW(read_text("a\n128\n", opts({{"columns", "a TINYINT"}})), InvalidInput);
  EXPECT_THROW(read_text("a\n9223372036854775808\n", opts({{"columns", "a BIGINT"}})), InvalidInput);
  EXPECT_THROW(read_text("a\n123456.5\n", opts({{"columns", "a DECIMAL(6,2)"}})), InvalidInput);
}

/// Decimals are read exactly as the common parser reads them (rounding half away from zero past the scale),
/// through the fast path and the fallback alike, never through floating point.
TEST(CsvTypes, DecimalExactness) {
  std::mt19937_64 rng(42);
  const int shapes[][2] = {{15, 2}, {18, 0}, {18, 6}, {38, 10}, {38, 0}, {5, 5}, {20, 18}};
  for (const auto& shape : shapes) {
    const int p = shape[0], s = shape[1];
    for (int i = 0; i < 3000; ++i) {
      std::string text;
      if (rng() % 3 == 0) text += rng() % 2 ? "-" : "+";
      int int_digits = static_cast<int>(rng() % 22);
      for (int k = 0; k < int_digits; ++k) text += static_cast<char>('0' + rng() % 10);
      if (rng() % 4 != 0) {
        text += '.';
        int frac = static_cast<int>(rng() % 22);
        for (int k = 0; k < frac; ++k) text += static_cast<char>('0' + rng() % 10);
      }
      if (rng() % 20 == 0) text = " " + text + " ";
      int128_t got = 0;
      auto want = parse_decimal(text, p, s);
      ASSERT_EQ(csv::parse_decimal_value(text, p, s, true, got), want.has_value()) << text << " " << p << "," << s;
      if (want) {
        ASSERT_EQ(got, *want) << text;
      }
    }
  }
  // A value no binary double holds exactly still reads exactly.
  CsvTable t = read_text("v\n0.10\n9999999999999.99\n0.29\n", opts({{"columns", "v DECIMAL(15,2)"}}));
  EXPECT_EQ(t.batches[0].column(0)->data<int64_t>()[0], 10);
  EXPECT_EQ(t.batches[0].column(0)->data<int64_t>()[1], 999999999999999);
  EXPECT_EQ(t.batches[0].column(0)->data<int64_t>()[2], 29);
  CsvTable r = read_text("v\n1.005\n-1.005\n", opts({{"columns", "v DECIMAL(10,2)"}}));
  EXPECT_EQ(rows_of(r), (Rows{{"1.01"}, {"-1.01"}}));
}

TEST(CsvTypes, ValueParsers) {
  int64_t i = 0;
  EXPECT_TRUE(csv::parse_int64(" -42 ", i));
  EXPECT_EQ(i, -42);
  EXPECT_FALSE(csv::parse_int64("4 2", i));
  EXPECT_FALSE(csv::parse_int64("-", i));
  EXPECT_FALSE(csv::parse_int64("18446744073709551616", i));
  double d = 0;
  EXPECT_TRUE(csv::parse_double("+1.5e3", d));
  EXPECT_EQ(d, 1500.0);
  EXPECT_FALSE(csv::parse_double("1.5x", d));
  EXPECT_FALSE(csv::parse_double("+-1", d));
  EXPECT_FALSE(csv::parse_double("1e999", d));
  int32_t day = 0;
  EXPECT_TRUE(csv::parse_date_value("1998-09-02", day));
  EXPECT_EQ(day, days_from_civil(1998, 9, 2));
  EXPECT_FALSE(csv::parse_date_value("1998-13-02", day));
  EXPECT_FALSE(csv::parse_date_value("1998-02-29", day));
  EXPECT_TRUE(csv::is_valid_utf8("héllo wörld ✓ 😀"));
  EXPECT_FALSE(csv::is_valid_utf8("\xff"));
  EXPECT_FALSE(csv::is_valid_utf8("\xc0\xaf"));         // overlong
  EXPECT_FALSE(csv::is_valid_utf8("abc\xe2\x9c"));      // truncated
  EXPECT_FALSE(csv::is_valid_utf8("\xed\xa0\x80"));     // surrogate
}

}  // namespace
}  // namespace kestrel
