// CSV reader: error messages name the file, the physical line, the column and the value.
#include <gtest/gtest.h>

#include "csv_test_util.hpp"

namespace kestrel {
namespace {

using csv_test::opts;

/// Reads `content` from a file named x.csv and returns the InvalidInput message (empty when none was thrown).
std::string error_of(const std::string& content, const CsvOptions& options = {}) {
  csv_test::TempDir dir;
  std::string path = dir.write("x.csv", content);
  try {
    read_csv_file(path, options);
  } catch (const InvalidInput& e) {
    std::string m = e.message();
    size_t at = m.find(path);
    if (at != std::string::npos) m.replace(at, path.size(), "x.csv");
    return m;
  }
  return "";
}

TEST(CsvErrors, BadValueNamesFileLineColumnAndValue) {
  std::string text = "l_orderkey,l_quantity\n";
  for (int i = 1; i <= 15; ++i) text += std::to_string(i) + "," + std::to_string(i) + ".00\n";
  text += "16,abc\n";
  EXPECT_EQ(error_of(text, opts({{"columns", "l_orderkey BIGINT, l_quantity DECIMAL(15,2)"}})),
            "CSV file 'x.csv' line 17, column 'l_quantity': cannot read 'abc' as DECIMAL(15,2)");
}

TEST(CsvErrors, LineNumbersCountEmbeddedNewlinesAndSkippedLines) {
  const char* text = "skip me\nid,note,n\n1,\"two\nlines\",5\n\n2,\"x\",oops\n";
  EXPECT_EQ(error_of(text, opts({{"skip", "1"}, {"columns", "id INTEGER, note VARCHAR, n INTEGER"}})),
            "CSV file 'x.csv' line 6, column 'n': cannot read 'oops' as INTEGER");
}

TEST(CsvErrors, LineNumbersAcrossBlocksAndThreads) {
  std::string text = "a,b\n";
  for (int i = 0; i < 30000; ++i) text += std::to_string(i) + ",\"v\n" + std::to_string(i) + "\"\n";
  text += "x,y\n";
  for (int i = 0; i < 100; ++i) text += "1,2\n";
  const std::string want = "CSV file 'x.csv' line 60002, column 'a': cannot read 'x' as INTEGER";
  for (const char* threads : {"1", "3"}) {
    CsvOptions o = opts({{"types", "a INTEGER"}, {"threads", threads}, {"block_size", "4096"}});
    EXPECT_EQ(error_of(text, o), want) << threads;
  }
}

TEST(CsvErrors, FirstBadFieldInFileOrderWins) {
  EXPECT_EQ(error_of("a,b\n1,2\nz,3\n4,y\n", opts({{"columns", "a INTEGER, b INTEGER"}, {"batch_size", "1"}})),
            "CSV file 'x.csv' line 3, column 'a': cannot read 'z' as INTEGER");
  EXPECT_EQ(error_of("a,b\n1,q\nz,3\n", opts({{"columns", "a INTEGER, b INTEGER"}})),
            "CSV file 'x.csv' line 2, column 'b': cannot read 'q' as INTEGER");
}

TEST(CsvErrors, WrongFieldCount) {
  EXPECT_EQ(error_of("a,b,c\n1,2,3\n4,5\n"), "CSV file 'x.csv' line 3: expected 3 fields, found 2");
  EXPECT_EQ(error_of("a,b\n1,2\n\n3,4,5\n"), "CSV file 'x.csv' line 4: expected 2 fields, found 3");
  EXPECT_EQ(error_of("1|2|\n3|4|5|\n", opts({{"delim", "|"}, {"header", "false"}})),
            "CSV file 'x.csv' line 2: expected 2 fields, found 4");
}

TEST(CsvErrors, RowsBeforeARecordErrorAreReturnedFirst) {
  csv_test::TempDir dir;
  auto reader = CsvReader::open(dir.write("x.csv", "a,b\n1,2\n3,4\n5\n"), opts({{"batch_size", "1"}}));
  EXPECT_EQ(reader->next_batch()->num_rows(), 1u);
  EXPECT_EQ(reader->next_batch()->num_rows(), 1u);
  EXPECT_THROW(reader->next_batch(), InvalidInput);
  EXPECT_THROW(reader->next_batch(), InvalidInput);  // and again, never a crash
}

TEST(CsvErrors, UnterminatedQuoteAtEof) {
  EXPECT_EQ(error_of("a,b\n1,2\n3,\"abc\n\n"),
            "CSV file 'x.csv' line 3: unterminated quoted field (the quote opened here runs to the end of the "
            "file)");
  EXPECT_EQ(error_of("\"a,b\n"),
            "CSV file 'x.csv' line 1: unterminated quoted field (the quote opened here runs to the end of the "
            "file)");
}

TEST(CsvErrors, CharacterAfterClosingQuote) {
  EXPECT_EQ(error_of("a,b\n1,\"x\"y\n"), "CSV file 'x.csv' line 2: unexpected character 'y' after a closing quote");
}

TEST(CsvErrors, InvalidUtf8) {
  EXPECT_EQ(error_of("a,b\n1,ok\n2,bad\xff\n"), "CSV file 'x.csv' line 3, column 'b': invalid UTF-8 in 'bad\xff'");
}

TEST(CsvErrors, LongValuesAreCut) {
  std::string m = error_of("a\n" + std::string(500, '7') + "x\n", opts({{"columns", "a BIGINT"}}));
  EXPECT_NE(m.find("cannot read '7777"), std::string::npos);
  EXPECT_LT(m.size(), 250u);
}

}  // namespace
}  // namespace kestrel
