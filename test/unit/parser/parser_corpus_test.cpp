// Parses every TPC-H query and every SQL record of the shared sqllogictest files (as PostgreSQL would see them).

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "parser_test_util.hpp"

namespace kestrel {
namespace {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// One SQL text of a sqllogictest file that applies to PostgreSQL.
struct SltRecord {
  std::string file;
  int line = 0;
  std::string sql;
};

bool starts_with(const std::string& text, std::string_view prefix) { return text.rfind(prefix, 0) == 0; }

/// The records of a file: blank-line separated; `onlyif E` / `skipif E` decide for engine "postgresql";
/// `halt` (when it applies) ends the file; SQL follows `statement ...` up to a blank line or `query ...` up to
/// `----`.
std::vector<SltRecord> read_records(const std::filesystem::path& path) {
  std::vector<SltRecord> records;
  std::istringstream in(read_file(path));
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  size_t i = 0;
  while (i < lines.size()) {
    while (i < lines.size() && lines[i].empty()) ++i;
    bool applies = true;
    while (i < lines.size() && !lines[i].empty()) {
      const std::string& line = lines[i];
      if (starts_with(line, "#")) {
        ++i;
      } else if (starts_with(line, "onlyif ")) {
        applies = applies && starts_with(line.substr(7), "postgresql");
        ++i;
      } else if (starts_with(line, "skipif ")) {
        applies = applies && !starts_with(line.substr(7), "postgresql");
        ++i;
      } else if (line == "halt") {
        if (applies) return records;
        ++i;
      } else if (starts_with(line, "statement ") || starts_with(line, "query ")) {
        bool query = starts_with(line, "query ");
        SltRecord record{path.filename().string(), static_cast<int>(i + 2), ""};
        ++i;
        while (i < lines.size() && !lines[i].empty() && !(query && lines[i] == "----")) {
          record.sql += lines[i++] + "\n";
        }
        if (applies) records.push_back(std::move(record));
        while (i < lines.size() && !lines[i].empty()) ++i;  // expected results
      } else {
        ++i;  // hash-threshold and other directives
      }
    }
  }
  return records;
}

TEST(ParserCorpus, TpchQueriesParse) {
  std::filesystem::path folder = std::filesystem::path(KESTREL_SHARED_DIR) / "tpch" / "queries";
  int parsed = 0;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (entry.path().extension() != ".sql") continue;
    std::string text = read_file(entry.path());
    try {
      auto statement = parse_statement(text);
      EXPECT_TRUE(statement->is<ast::QueryStatement>()) << entry.path();
      ++parsed;
    } catch (const Error& error) {
      ADD_FAILURE() << entry.path() << ": " << format_error(error, text);
    }
  }
  EXPECT_EQ(parsed, 22);
}

/// Records that are not valid PostgreSQL either, by file:line, with the reason.
const std::map<std::string, std::string> kInvalidForPostgres = {
    {"in2.test:82", "an empty IN list is a syntax error in PostgreSQL"},
    {"in2.test:89", "an empty IN list is a syntax error in PostgreSQL"},
    {"in2.test:96", "an empty IN list is a syntax error in PostgreSQL"},
    {"in2.test:103", "an empty IN list is a syntax error in PostgreSQL"},
    {"in2.test:110", "an empty IN list is a syntax error in PostgreSQL"},
    {"in2.test:120", "an empty IN list is a syntax error in PostgreSQL"},
    {"in2.test:130", "an empty IN list is a syntax error in PostgreSQL"},
    {"in2.test:140", "an empty IN list is a syntax error in PostgreSQL"},
};

TEST(ParserCorpus, SqllogictestRecordsParse) {
  std::filesystem::path folder = std::filesystem::path(KESTREL_SHARED_DIR) / "sqllogictest";
  size_t total = 0;
  size_t failed = 0;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (entry.path().extension() != ".test") continue;
    for (const SltRecord& record : read_records(entry.path())) {
      ++total;
      std::string where = record.file + ":" + std::to_string(record.line);
      try {
        auto statement = parse_statement(record.sql);
        EXPECT_TRUE(parser_test::round_trips(record.sql)) << where;
        EXPECT_EQ(kInvalidForPostgres.count(where), 0u) << where << " parses now; remove it from the list";
      } catch (const SyntaxError& error) {
        if (kInvalidForPostgres.count(where) == 0) {
          ++failed;
          ADD_FAILURE() << where << ": " << format_error(error, record.sql);
        }
      }
    }
  }
  EXPECT_GT(total, 5000u);
  EXPECT_EQ(failed, 0u);
  std::printf("[ parser  ] %zu sqllogictest records, %zu expected failures\n", total, kInvalidForPostgres.size());
}

}  // namespace
}  // namespace kestrel
