// Printing statements back to SQL, and the to_sql entry points.

#include "parser/ast_printer.hpp"
#include "parser/sql_printer.hpp"

namespace kestrel::ast {
namespace {

std::string upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

std::string create_prefix(bool or_replace, bool temporary) {
  std::string out = "CREATE ";
  if (or_replace) out += "OR REPLACE ";
  if (temporary) out += "TEMPORARY ";
  return out;
}

std::string dotted(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& part : parts) {
    if (!out.empty()) out += '.';
    out += quote_identifier(part);
  }
  return out;
}

/// A setting name: its dotted parts quoted when needed.
std::string setting_name(const std::string& name) {
  std::vector<std::string> parts(1);
  for (char c : name) {
    if (c == '.') {
      parts.emplace_back();
    } else {
      parts.back() += c;
    }
  }
  return dotted(parts);
}

}  // namespace

void SqlPrinter::print_option_value(const OptionValue& value) {
  switch (value.kind) {
    case OptionValue::Kind::kNone: return;
    case OptionValue::Kind::kWord: {
      // Any plain word reads back as a word here, keywords included (HEADER true, SET x = on).
      bool plain = !value.text.empty() && !(value.text[0] >= '0' && value.text[0] <= '9');
      for (char c : value.text) plain = plain && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_');
      out_ += plain ? value.text : quote_identifier(value.text);
      return;
    }
    case OptionValue::Kind::kString: out_ += quote_string(value.text); return;
    case OptionValue::Kind::kNumber: out_ += value.text; return;
    case OptionValue::Kind::kDefault: out_ += "DEFAULT"; return;
  }
}

void SqlPrinter::print_create_table(const CreateTableStatement& statement) {
  out_ += create_prefix(statement.or_replace, statement.temporary) + "TABLE ";
  if (statement.if_not_exists) out_ += "IF NOT EXISTS ";
  out_ += dotted(statement.name.parts) + " (";
  bool first = true;
  for (const ColumnDefinition& column : statement.columns) {
    if (!first) out_ += ", ";
    first = false;
    out_ += quote_identifier(column.name) + " ";
    print(column.type);
    if (column.not_null && !column.primary_key) out_ += " NOT NULL";
    if (column.default_value) {
      out_ += " DEFAULT ";
      print(*column.default_value);
    }
    if (column.primary_key) out_ += " PRIMARY KEY";
    if (column.unique) out_ += " UNIQUE";
  }
  for (const TableConstraint& constraint : statement.constraints) {
    if (!first) out_ += ", ";
    first = false;
    out_ += constraint.constraint == TableConstraint::Kind::kPrimaryKey ? "PRIMARY KEY (" : "UNIQUE (";
    print_names(constraint.columns, ", ");
    out_ += ')';
  }
  out_ += ')';
}

void SqlPrinter::print_copy(const CopyStatement& statement) {
  out_ += "COPY ";
  if (statement.query) {
    out_ += '(';
    print(*statement.query);
    out_ += ')';
  } else {
    out_ += dotted(statement.table.parts);
    if (!statement.columns.empty()) {
      out_ += " (";
      print_names(statement.columns, ", ");
      out_ += ')';
    }
  }
  out_ += statement.to ? " TO " : " FROM ";
  out_ += quote_string(statement.file);
  if (statement.options.empty()) return;
  out_ += " (";
  for (size_t i = 0; i < statement.options.size(); ++i) {
    if (i > 0) out_ += ", ";
    const CopyOption& option = statement.options[i];
    out_ += upper(option.name);
    if (option.value.kind != OptionValue::Kind::kNone) out_ += ' ';
    print_option_value(option.value);
  }
  out_ += ')';
}

void SqlPrinter::print(const Statement& statement) {
  switch (statement.kind) {
    case StatementKind::kQuery: print(*statement.as<QueryStatement>().query); return;
    case StatementKind::kCreateTable: print_create_table(statement.as<CreateTableStatement>()); return;
    case StatementKind::kCreateTableAs: {
      const auto& node = statement.as<CreateTableAsStatement>();
      out_ += create_prefix(node.or_replace, node.temporary) + "TABLE ";
      if (node.if_not_exists) out_ += "IF NOT EXISTS ";
      out_ += dotted(node.name.parts);
      if (!node.column_names.empty()) {
        out_ += " (";
        print_names(node.column_names, ", ");
        out_ += ')';
      }
      for (size_t i = 0; i < node.options.size(); ++i) {
        out_ += i == 0 ? " WITH (" : ", ";
        out_ += node.options[i].name + " = ";
        print_option_value(node.options[i].value);
        if (i + 1 == node.options.size()) out_ += ')';
      }
      out_ += " AS ";
      print(*node.query);
      return;
    }
    case StatementKind::kCreateView: {
      const auto& node = statement.as<CreateViewStatement>();
      out_ += create_prefix(node.or_replace, node.temporary) + "VIEW ";
      if (node.if_not_exists) out_ += "IF NOT EXISTS ";
      out_ += dotted(node.name.parts);
      if (!node.column_names.empty()) {
        out_ += " (";
        print_names(node.column_names, ", ");
        out_ += ')';
      }
      out_ += " AS ";
      print(*node.query);
      return;
    }
    case StatementKind::kCreateIndex: {
      const auto& node = statement.as<CreateIndexStatement>();
      out_ += node.unique ? "CREATE UNIQUE INDEX " : "CREATE INDEX ";
      if (node.if_not_exists) out_ += "IF NOT EXISTS ";
      if (!node.name.empty()) out_ += quote_identifier(node.name) + " ";
      out_ += "ON " + dotted(node.table.parts) + " (";
      print_names(node.columns, ", ");
      out_ += ')';
      return;
    }
    case StatementKind::kDrop: {
      const auto& node = statement.as<DropStatement>();
      out_ += std::string("DROP ") + object_type_name(node.object_type) + " ";
      if (node.if_exists) out_ += "IF EXISTS ";
      for (size_t i = 0; i < node.names.size(); ++i) out_ += (i > 0 ? ", " : "") + dotted(node.names[i].parts);
      if (node.cascade) out_ += " CASCADE";
      return;
    }
    case StatementKind::kInsert: {
      const auto& node = statement.as<InsertStatement>();
      out_ += "INSERT INTO " + dotted(node.table.parts) + " ";
      if (!node.columns.empty()) {
        out_ += '(';
        print_names(node.columns, ", ");
        out_ += ") ";
      }
      print(*node.source);
      return;
    }
    case StatementKind::kUpdate: {
      const auto& node = statement.as<UpdateStatement>();
      out_ += "UPDATE " + dotted(node.table.parts);
      print_alias(node.alias);
      out_ += " SET ";
      for (size_t i = 0; i < node.assignments.size(); ++i) {
        if (i > 0) out_ += ", ";
        out_ += quote_identifier(node.assignments[i].column) + " = ";
        print(*node.assignments[i].value);
      }
      if (node.where) {
        out_ += " WHERE ";
        print(*node.where);
      }
      return;
    }
    case StatementKind::kDelete: {
      const auto& node = statement.as<DeleteStatement>();
      out_ += "DELETE FROM " + dotted(node.table.parts);
      print_alias(node.alias);
      if (node.where) {
        out_ += " WHERE ";
        print(*node.where);
      }
      return;
    }
    case StatementKind::kCopy: print_copy(statement.as<CopyStatement>()); return;
    case StatementKind::kExplain: {
      const auto& node = statement.as<ExplainStatement>();
      out_ += "EXPLAIN ";
      if (node.analyze) out_ += "ANALYZE ";
      if (node.verbose) out_ += "VERBOSE ";
      print(*node.statement);
      return;
    }
    case StatementKind::kSet: {
      const auto& node = statement.as<SetStatement>();
      out_ += node.local ? "SET LOCAL " : "SET ";
      out_ += setting_name(node.name) + " = ";
      print_option_value(node.value);
      return;
    }
    case StatementKind::kReset: {
      const auto& node = statement.as<ResetStatement>();
      out_ += node.all ? "RESET ALL" : "RESET " + setting_name(node.name);
      return;
    }
    case StatementKind::kShow: {
      const auto& node = statement.as<ShowStatement>();
      switch (node.show) {
        case ShowKind::kSetting: out_ += "SHOW " + setting_name(node.name); return;
        case ShowKind::kAll: out_ += "SHOW ALL"; return;
        case ShowKind::kCatalogs: out_ += "SHOW CATALOGS"; return;
        case ShowKind::kTables: out_ += "SHOW TABLES"; break;
        case ShowKind::kSchemas: out_ += "SHOW SCHEMAS"; break;
        case ShowKind::kColumns: out_ += "SHOW COLUMNS"; break;
      }
      if (!node.from.parts.empty()) {
        out_ += " FROM " + dotted(node.from.parts);
      }
      return;
    }
    case StatementKind::kDescribe: {
      const auto& node = statement.as<DescribeStatement>();
      out_ += "DESCRIBE ";
      if (node.query) {
        print(*node.query);
      } else {
        out_ += dotted(node.table.parts);
      }
      return;
    }
  }
}

namespace {

/// Prints any printable node through a fresh printer.
template <typename Node>
std::string print_one(const Node& node) {
  SqlPrinter printer;
  printer.print(node);
  return printer.take();
}

}  // namespace

std::string to_sql(const Expr& expr) { return print_one(expr); }
std::string to_sql(const Query& query) { return print_one(query); }
std::string to_sql(const QueryBody& body) { return print_one(body); }
std::string to_sql(const TableRef& table) { return print_one(table); }
std::string to_sql(const Statement& statement) { return print_one(statement); }
std::string to_sql(const TypeName& type) { return print_one(type); }

}  // namespace kestrel::ast
