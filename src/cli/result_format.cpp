#include "cli/result_format.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/binary_encoding.hpp"

namespace kestrel::cli {

namespace {

/// Display width of UTF-8 text in terminal columns (one column per code point; good enough for tables).
size_t display_width(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

bool right_aligned(const LogicalType& type) { return type.is_numeric(); }

void write_aligned(const QueryResult& result, std::ostream& out) {
  const Schema& schema = *result.schema;
  size_t cols = schema.size();
  size_t rows = result.row_count();
  std::vector<std::vector<std::string>> cells(rows, std::vector<std::string>(cols));
  std::vector<size_t> width(cols);
  for (size_t c = 0; c < cols; ++c) {
    width[c] = std::max(display_width(schema.field(c).name), display_width(schema.field(c).type.to_string()));
  }
  size_t r = 0;
  for (const auto& batch : result.batches) {
    for (size_t i = 0; i < batch.num_rows(); ++i, ++r) {
      for (size_t c = 0; c < cols; ++c) {
        cells[r][c] = batch.column(c)->value_at(i).to_string();
        width[c] = std::max(width[c], display_width(cells[r][c]));
      }
    }
  }
  auto rule = [&](const char* left, const char* mid, const char* right) {
    out << left;
    for (size_t c = 0; c < cols; ++c) {
      for (size_t k = 0; k < width[c] + 2; ++k) out << "─";
      out << (c + 1 < cols ? mid : right);
    }
    out << '\n';
  };
  auto line = [&](const std::vector<std::string>& values, bool header) {
    out << "│";
    for (size_t c = 0; c < cols; ++c) {
      size_t pad = width[c] - display_width(values[c]);
      bool right = !header && right_aligned(schema.field(c).type);
      out << ' ' << (right ? std::string(pad, ' ') : "") << values[c] << (right ? "" : std::string(pad, ' '))
          << " │";
    }
    out << '\n';
  };
  std::vector<std::string> names, types;
  for (const auto& f : schema.fields()) {
    names.push_back(f.name);
    types.push_back(f.type.to_string());
  }
  rule("┌", "┬", "┐");
  line(names, true);
  line(types, true);
  rule("├", "┼", "┤");
  for (const auto& row : cells) line(row, false);
  rule("└", "┴", "┘");
  out << rows << (rows == 1 ? " row" : " rows") << '\n';
}

void write_csv(const QueryResult& result, std::ostream& out) {
  const Schema& schema = *result.schema;
  for (size_t c = 0; c < schema.size(); ++c) out << (c ? "," : "") << csv_field(schema.field(c).name);
  out << '\n';
  for (const auto& batch : result.batches) {
    for (size_t i = 0; i < batch.num_rows(); ++i) {
      for (size_t c = 0; c < batch.num_columns(); ++c) {
        if (c) out << ',';
        Value v = batch.column(c)->value_at(i);
        if (v.is_null()) continue;
        std::string text = v.to_string();
        // An empty string must differ from NULL, which is an empty field.
        out << (text.empty() ? std::string("\"\"") : csv_field(text));
      }
      out << '\n';
    }
  }
}

nlohmann::json json_value(const Value& v) {
  if (v.is_null()) return nullptr;
  switch (v.type().id()) {
    case TypeId::kBoolean: return v.as_bool();
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInteger:
    case TypeId::kBigInt: return v.as_int64();
    case TypeId::kReal:
    case TypeId::kDouble: return v.as_double();
    case TypeId::kDecimal: return nlohmann::json::parse(v.to_string());
    case TypeId::kVarbinary: {  // bytes in JSON: base64, as the Trino protocol sends them
      std::string text;
      append_base64(text, v.as_string(), false);
      return text;
    }
    default: return v.to_string();
  }
}

void write_json(const QueryResult& result, std::ostream& out) {
  const Schema& schema = *result.schema;
  out << "[";
  bool first = true;
  for (const auto& batch : result.batches) {
    for (size_t i = 0; i < batch.num_rows(); ++i) {
      nlohmann::ordered_json row = nlohmann::ordered_json::object();
      for (size_t c = 0; c < batch.num_columns(); ++c) {
        row[schema.field(c).name] = json_value(batch.column(c)->value_at(i));
      }
      out << (first ? "\n  " : ",\n  ") << row.dump();
      first = false;
    }
  }
  out << (first ? "]\n" : "\n]\n");
}

}  // namespace

std::optional<OutputFormat> parse_output_format(std::string_view text) {
  if (text == "aligned") return OutputFormat::kAligned;
  if (text == "csv") return OutputFormat::kCsv;
  if (text == "json") return OutputFormat::kJson;
  return std::nullopt;
}

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

void write_result(const QueryResult& result, OutputFormat format, std::ostream& out) {
  if (!result.has_rows()) {
    if (!result.message.empty() && format == OutputFormat::kAligned) out << result.message << '\n';
    return;
  }
  switch (format) {
    case OutputFormat::kAligned: write_aligned(result, out); break;
    case OutputFormat::kCsv: write_csv(result, out); break;
    case OutputFormat::kJson: write_json(result, out); break;
  }
}

}  // namespace kestrel::cli
