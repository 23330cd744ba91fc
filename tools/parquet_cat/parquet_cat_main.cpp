/// kestrel-parquet-cat: prints a Parquet file (or a folder / glob of them read as one table) as CSV with a header
/// row, or its Kestrel schema, or just decodes it (for benchmarks).
///
///   kestrel-parquet-cat [--columns a,b] [--verify-checksums] [--no-dictionary] [--threads N] PATH
///   kestrel-parquet-cat --schema PATH     one line per column: name TAB type TAB NULL / NOT NULL (or TAB
///                                         UNSUPPORTED TAB reason), after a '#' summary line
///   kestrel-parquet-cat --scan-only [--threads N] PATH      decodes every column, prints the row count
///   kestrel-parquet-cat --prune 'COL OP VALUE' [--prune ...] PATH
///       prints the row groups ("file TAB row group") that statistics cannot rule out for the conjunction of the
///       predicates; OP is = < <= > >=, or 'COL BETWEEN A AND B', 'COL IN (A, B)', 'COL IS [NOT] NULL'
///
/// CSV: RFC 4180 quoting (fields holding a comma, a quote, CR or LF are quoted, quotes doubled), NULL as an empty
/// field and the empty string as "", values formatted like Value::to_string(). ARRAY, MAP and ROW values are
/// written as JSON, so that their text is unambiguous: an array as a JSON array, a map as an array of [key, value]
/// pairs (in stored order), a row as an object of its fields, NULL as null, and every flat value as a JSON string
/// of its Value::to_string() text (VARBINARY as its hex text). Exit status 1 with the error (which names the file)
/// on stderr when reading fails.

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "common/decimal.hpp"
#include "common/error.hpp"
#include "common/temporal.hpp"
#include "io/parquet/parquet_dataset.hpp"

namespace {

using kestrel::io::ParquetDataset;
using kestrel::io::ParquetReadOptions;
using kestrel::io::ParquetScan;
using kestrel::io::ColumnPredicate;
using kestrel::io::PredicateOp;
using kestrel::LogicalType;
using kestrel::TypeId;
using kestrel::Value;

struct Arguments {
  std::string path;
  std::vector<std::string> columns;
  bool schema = false;
  bool scan_only = false;
  std::vector<std::string> prune;
  ParquetReadOptions options;
};

[[noreturn]] void usage(const char* message) {
  std::fprintf(stderr,
               "kestrel-parquet-cat: %s\n"
               "usage: kestrel-parquet-cat [--schema] [--scan-only] [--columns a,b,...] [--threads N]\n"
               "                           [--verify-checksums] [--no-dictionary] PATH\n",
               message);
  std::exit(2);
}

std::vector<std::string> split_names(const std::string& list) {
  std::vector<std::string> names;
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    if (comma == std::string::npos) comma = list.size();
    names.push_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  return names;
}

Arguments parse(int argc, char** argv) {
  Arguments args;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(("missing value after " + a).c_str());
      return argv[++i];
    };
    if (a == "--schema") {
      args.schema = true;
    } else if (a == "--scan-only") {
      args.scan_only = true;
    } else if (a == "--prune") {
      args.prune.push_back(value());
    } else if (a == "--columns") {
      args.columns = split_names(value());
    } else if (a == "--threads") {
      std::string v = value();
      char* end = nullptr;
      unsigned long n = std::strtoul(v.c_str(), &end, 10);
      if (end == v.c_str() || *end != '\0') usage("--threads needs a number");
      args.options.num_threads = n;
    } else if (a == "--verify-checksums") {
      args.options.verify_checksums = true;
    } else if (a == "--no-dictionary") {
      args.options.keep_dictionaries = false;
    } else if (a.size() > 1 && a[0] == '-') {
      usage(("unknown option " + a).c_str());
    } else if (args.path.empty()) {
      args.path = a;
    } else {
      usage("more than one PATH");
    }
  }
  if (args.path.empty()) usage("no PATH given");
  return args;
}

/// Buffered stdout.
class Output {
 public:
  ~Output() { flush(); }
  void put(std::string_view s) {
    buffer_.append(s);
    if (buffer_.size() > (1 << 20)) flush();
  }
  void put(char c) { buffer_.push_back(c); }
  void flush() {
    if (!buffer_.empty()) std::fwrite(buffer_.data(), 1, buffer_.size(), stdout);
    buffer_.clear();
  }

 private:
  std::string buffer_;
};

void put_field(Output& out, std::string_view text, bool quote_empty) {
  bool quote = (quote_empty && text.empty()) || text.find_first_of(",\"\r\n") != std::string_view::npos;
  if (!quote) {
    out.put(text);
    return;
  }
  out.put('"');
  for (char c : text) {
    if (c == '"') out.put('"');
    out.put(c);
  }
  out.put('"');
}

void print_schema(const ParquetDataset& data) {
  std::printf("# %zu file(s), %lld rows\n", data.files().size(), static_cast<long long>(data.num_rows()));
  const auto& file = *data.files().front();
  for (const auto& c : file.all_columns()) {
    if (c.readable) {
      std::printf("%s\t%s\t%s\n", c.name.c_str(), c.type.to_string().c_str(), c.nullable ? "NULL" : "NOT NULL");
    } else {
      std::printf("%s\tUNSUPPORTED\t%s\n", c.name.c_str(), c.unsupported_reason.c_str());
    }
  }
}

/// `text` as a JSON string (UTF-8 passed through, control characters, quotes and backslashes escaped).
void put_json_string(std::string& out, std::string_view text) {
  out.push_back('"');
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(ch);
    } else if (c < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
    } else {
      out.push_back(ch);
    }
  }
  out.push_back('"');
}

/// The JSON form of a value inside (or at the top of) a nested value; see the header comment.
void put_json_value(std::string& out, const Value& v) {
  if (v.is_null()) {
    out += "null";
    return;
  }
  const TypeId id = v.type().id();
  if (id == TypeId::kArray || id == TypeId::kMap) {
    out.push_back('[');
    const std::vector<Value>& items = v.children();
    for (size_t i = 0; i < items.size(); ++i) {
      if (i > 0) out.push_back(',');
      if (id == TypeId::kMap) {
        out.push_back('[');
        put_json_value(out, items[i].children()[0]);
        out.push_back(',');
        put_json_value(out, items[i].children()[1]);
        out.push_back(']');
      } else {
        put_json_value(out, items[i]);
      }
    }
    out.push_back(']');
    return;
  }
  if (id == TypeId::kRow) {
    out.push_back('{');
    const std::vector<Value>& items = v.children();
    for (size_t i = 0; i < items.size(); ++i) {
      if (i > 0) out.push_back(',');
      put_json_string(out, v.type().fields()[i].name);
      out.push_back(':');
      put_json_value(out, items[i]);
    }
    out.push_back('}');
    return;
  }
  put_json_string(out, id == TypeId::kVarchar ? v.as_string() : v.to_string());
}

std::vector<size_t> select_columns(const ParquetDataset& data, const std::vector<std::string>& names) {
  std::vector<size_t> columns;
  if (names.empty()) {
    // Every column, as SELECT * would: a column that cannot be read is an error, not silently dropped.
    if (!data.unreadable_columns().empty()) {
      throw kestrel::NotImplemented("Parquet file '" + data.files().front()->path() + "': " +
                                    data.unreadable_columns().front().reason);
    }
    for (size_t i = 0; i < data.schema()->size(); ++i) columns.push_back(i);
    return columns;
  }
  for (const std::string& name : names) columns.push_back(data.column_index(name));
  return columns;
}

std::string trim(std::string s) {
  size_t b = s.find_first_not_of(" \t");
  size_t e = s.find_last_not_of(" \t");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

/// A constant of a --prune predicate, typed like the column it is compared with.
Value parse_literal(const LogicalType& type, std::string text) {
  text = trim(text);
  if (upper(text) == "NULL") return Value::null(type);
  if (text.size() >= 2 && text.front() == '\'' && text.back() == '\'') text = text.substr(1, text.size() - 2);
  auto bad = [&]() -> Value { throw kestrel::InvalidInput("--prune: '" + text + "' is not a " + type.to_string()); };
  switch (type.id()) {
    case TypeId::kBoolean: return upper(text) == "TRUE" ? Value::boolean(true) : Value::boolean(false);
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInteger:
    case TypeId::kBigInt:
    case TypeId::kDecimal: {
      int scale = 0;
      size_t dot = text.find('.');
      if (dot != std::string::npos) scale = static_cast<int>(text.size() - dot - 1);
      auto v = kestrel::parse_decimal(text, 38, scale);
      if (!v) return bad();
      return Value::decimal(*v, 38, scale);
    }
    case TypeId::kReal:
    case TypeId::kDouble: {
      char* end = nullptr;
      double d = std::strtod(text.c_str(), &end);
      if (end == text.c_str() || *end != '\0') return bad();
      return Value::double_value(d);
    }
    case TypeId::kDate: {
      auto d = kestrel::parse_date(text);
      return d ? Value::date(*d) : bad();
    }
    case TypeId::kTimestamp: {
      auto t = kestrel::parse_timestamp(text);
      return t ? Value::timestamp(*t) : bad();
    }
    case TypeId::kVarchar: return Value::varchar(text);
    default: return bad();
  }
}

/// Parses 'COL OP VALUE', 'COL BETWEEN A AND B', 'COL IN (A, B)', 'COL IS [NOT] NULL'.
ColumnPredicate parse_predicate(const ParquetDataset& data, const std::string& text) {
  std::string t = trim(text);
  size_t space = t.find_first_of(" <>=");
  if (space == std::string::npos) throw kestrel::InvalidInput("--prune: cannot parse '" + text + "'");
  size_t column = data.column_index(t.substr(0, space));
  const LogicalType& type = data.schema()->field(column).type;
  std::string rest = trim(t.substr(space));
  std::string up = upper(rest);
  if (up == "IS NULL") return ColumnPredicate::is_null(column);
  if (up == "IS NOT NULL") return ColumnPredicate::is_not_null(column);
  if (up.rfind("BETWEEN ", 0) == 0) {
    size_t and_pos = up.find(" AND ");
    if (and_pos == std::string::npos) throw kestrel::InvalidInput("--prune: BETWEEN without AND");
    return ColumnPredicate::between(column, parse_literal(type, rest.substr(8, and_pos - 8)),
                                    parse_literal(type, rest.substr(and_pos + 5)));
  }
  if (up.rfind("IN", 0) == 0) {
    size_t open = rest.find('(');
    size_t close = rest.rfind(')');
    if (open == std::string::npos || close == std::string::npos) throw kestrel::InvalidInput("--prune: IN needs (...)");
    std::vector<Value> values;
    for (const std::string& item : split_names(rest.substr(open + 1, close - open - 1))) {
      values.push_back(parse_literal(type, item));
    }
    return ColumnPredicate::in(column, std::move(values));
  }
  static const std::pair<const char*, PredicateOp> kOps[] = {{"<=", PredicateOp::kLessEqual},
                                                              {">=", PredicateOp::kGreaterEqual},
                                                              {"<", PredicateOp::kLess},
                                                              {">", PredicateOp::kGreater},
                                                              {"=", PredicateOp::kEqual}};
  for (const auto& [spelling, op] : kOps) {
    if (rest.rfind(spelling, 0) == 0) {
      return ColumnPredicate::compare(column, op, parse_literal(type, rest.substr(std::strlen(spelling))));
    }
  }
  throw kestrel::InvalidInput("--prune: cannot parse '" + text + "'");
}

int run(const Arguments& args) {
  auto data = ParquetDataset::open(args.path);
  if (args.schema) {
    print_schema(*data);
    return 0;
  }
  if (!args.prune.empty()) {
    std::vector<ColumnPredicate> predicates;
    for (const std::string& p : args.prune) predicates.push_back(parse_predicate(*data, p));
    for (const auto& ref : data->row_groups(predicates)) {
      std::printf("%s\t%zu\n", data->files()[ref.file]->path().c_str(), ref.row_group);
    }
    return 0;
  }
  std::vector<size_t> columns = select_columns(*data, args.columns);
  if (args.scan_only && args.columns.empty()) {
    columns.clear();
    for (size_t i = 0; i < data->schema()->size(); ++i) columns.push_back(i);
  }
  ParquetScan scan(data, columns, {}, args.options);
  if (args.scan_only) {
    auto start = std::chrono::steady_clock::now();
    size_t rows = 0;
    while (auto batch = scan.next()) rows += batch->num_rows();
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%zu\n", rows);
    std::fprintf(stderr, "decoded %zu rows in %.3f s\n", rows, seconds);
    return 0;
  }
  Output out;
  const kestrel::Schema& schema = *scan.schema();
  for (size_t c = 0; c < schema.size(); ++c) {
    if (c > 0) out.put(',');
    put_field(out, schema.field(c).name, true);
  }
  out.put('\n');
  while (auto batch = scan.next()) {
    for (size_t r = 0; r < batch->num_rows(); ++r) {
      for (size_t c = 0; c < batch->num_columns(); ++c) {
        if (c > 0) out.put(',');
        const kestrel::Column& column = *batch->column(c);
        if (!column.is_valid(r)) continue;
        if (column.type().is_nested()) {
          std::string json;
          put_json_value(json, column.value_at(r));
          put_field(out, json, false);
        } else if (column.type().id() == kestrel::TypeId::kVarchar) {
          put_field(out, column.string_at(r), true);
        } else if (column.type().id() == kestrel::TypeId::kVarbinary) {
          put_field(out, column.value_at(r).to_string(), true);  // hex bytes; "" for an empty value
        } else {
          put_field(out, column.value_at(r).to_string(), false);
        }
      }
      out.put('\n');
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Arguments args = parse(argc, argv);
  try {
    return run(args);
  } catch (const kestrel::Error& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "kestrel-parquet-cat: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "kestrel-parquet-cat: '%s': unexpected error: %s\n", args.path.c_str(), e.what());
    return 1;
  }
}
