#include "server/pg_builtins.hpp"

#include <cctype>
#include <regex>

#include "server/pg_server.hpp"
#include "vector/column.hpp"

namespace kestrel::server::pg {

namespace {

/// The words of a short statement, lower-cased, without a trailing `;` (empty when it has anything but words).
std::vector<std::string> words(std::string_view sql) {
  std::vector<std::string> out;
  std::string word;
  for (char c : sql) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (std::isspace(static_cast<unsigned char>(c)) || c == ';') {
      if (!word.empty()) out.push_back(std::move(word));
      word.clear();
    } else {
      return {};
    }
  }
  if (!word.empty()) out.push_back(std::move(word));
  return out;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

}  // namespace

std::string first_keyword(std::string_view sql) {
  size_t i = 0;
  while (i < sql.size()) {
    if (std::isspace(static_cast<unsigned char>(sql[i])) || sql[i] == '(') {
      ++i;
    } else if (sql.substr(i, 2) == "--") {
      while (i < sql.size() && sql[i] != '\n') ++i;
    } else if (sql.substr(i, 2) == "/*") {
      size_t close = sql.find("*/", i + 2);
      i = close == std::string_view::npos ? sql.size() : close + 2;
    } else {
      break;
    }
  }
  std::string word;
  while (i < sql.size() && (std::isalpha(static_cast<unsigned char>(sql[i])) || sql[i] == '_')) {
    word += static_cast<char>(std::tolower(static_cast<unsigned char>(sql[i++])));
  }
  return word;
}

std::optional<std::string> transaction_statement(std::string_view sql, char& transaction) {
  // Savepoints (clients such as psycopg set them inside transaction blocks): accepted like BEGIN and ROLLBACK, and
  // ROLLBACK TO one leaves a failed block usable again. As for ROLLBACK, statements already ran and are not undone.
  static const std::regex kSavepoint(
      R"(\s*(savepoint|release(\s+savepoint)?|rollback\s+(work\s+|transaction\s+)?to(\s+savepoint)?)\s+("[^"]*"|[A-Za-z_][A-Za-z0-9_]*)\s*;?\s*)",
      std::regex::icase);
  std::match_results<std::string_view::const_iterator> m;
  if (std::regex_match(sql.begin(), sql.end(), m, kSavepoint)) {
    const std::string verb = words(std::string_view(&*m[1].first, static_cast<size_t>(m[1].length()))).front();
    if (verb == "rollback") {
      if (transaction == 'E') transaction = 'T';
      return "ROLLBACK";
    }
    return verb == "savepoint" ? "SAVEPOINT" : "RELEASE";
  }
  auto w = words(sql);
  if (w.empty()) return std::nullopt;
  bool block = w.size() == 1 || (w.size() == 2 && (w[1] == "transaction" || w[1] == "work"));
  if ((w[0] == "begin" && block) || (w[0] == "start" && w.size() == 2 && w[1] == "transaction")) {
    if (transaction == 'I') transaction = 'T';
    return "BEGIN";
  }
  if ((w[0] == "commit" || w[0] == "end") && block) {
    bool failed = transaction == 'E';
    transaction = 'I';
    return failed ? "ROLLBACK" : "COMMIT";
  }
  if ((w[0] == "rollback" || w[0] == "abort") && block) {
    transaction = 'I';
    return "ROLLBACK";
  }
  return std::nullopt;
}

std::optional<StatementResult> builtin_query(std::string_view sql,
                                             const std::vector<std::pair<std::string, std::string>>& parameters) {
  static const std::regex kVersion(R"(\s*select\s+(pg_catalog\s*\.\s*)?version\s*\(\s*\)\s*;?\s*)", std::regex::icase);
  if (std::regex_match(sql.begin(), sql.end(), kVersion)) {
    return single_text_result("version", std::string("PostgreSQL ") + kServerVersion);
  }
  auto w = words(sql);
  // Statements run one at a time and commit as they go: PostgreSQL's default level describes them best.
  const bool isolation = (w.size() == 4 && w[0] == "show" && w[1] == "transaction" && w[2] == "isolation" &&
                          w[3] == "level") ||
                         (w.size() == 2 && w[0] == "show" &&
                          (w[1] == "transaction_isolation" || w[1] == "default_transaction_isolation"));
  if (isolation) return single_text_result(w.size() == 4 ? "transaction_isolation" : w[1], "read committed");
  if (w.size() == 2 && w[0] == "show") {
    for (const auto& [name, value] : parameters) {
      if (iequals(name, w[1])) return single_text_result(w[1], value);
    }
  }
  return std::nullopt;
}

StatementResult single_text_result(const std::string& column, const std::string& value) {
  StatementResult result;
  result.schema = std::make_shared<Schema>(std::vector<Field>{{column, TypeId::kVarchar}});
  std::vector<ColumnPtr> columns{Column::from_values(TypeId::kVarchar, {Value::varchar(value)})};
  result.batches.emplace_back(result.schema, std::move(columns), 1, gpu::MemoryKind::kHost);
  return result;
}

}  // namespace kestrel::server::pg
