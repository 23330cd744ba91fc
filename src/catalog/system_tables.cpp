#include "catalog/system_tables.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

#include "catalog/system_table_builder.hpp"
#include "vector/column.hpp"

namespace kestrel::catalog {

namespace {

Field text_field(std::string name, bool nullable = false) { return {std::move(name), TypeId::kVarchar, nullable}; }
Field int_field(std::string name, bool nullable = false) { return {std::move(name), TypeId::kInteger, nullable}; }

/// numeric_precision, numeric_precision_radix and numeric_scale as PostgreSQL reports them (NULL for non-numeric
/// types).
struct NumericShape {
  std::optional<int> precision;
  std::optional<int> radix;
  std::optional<int> scale;
};

NumericShape numeric_shape(const LogicalType& type) {
  switch (type.id()) {
    case TypeId::kTinyInt:
    case TypeId::kSmallInt: return {16, 2, 0};
    case TypeId::kInteger: return {32, 2, 0};
    case TypeId::kBigInt: return {64, 2, 0};
    case TypeId::kReal: return {24, 2, std::nullopt};
    case TypeId::kDouble: return {53, 2, std::nullopt};
    case TypeId::kDecimal: return {type.precision(), 10, type.scale()};
    default: return {};
  }
}

Value optional_int(std::optional<int> v) { return v ? Value::integer(*v) : Value::null(TypeId::kInteger); }

TablePtr information_schema_tables(const std::vector<Relation>& relations) {
  SystemTableBuilder out("tables", {text_field("table_catalog"), text_field("table_schema"), text_field("table_name"),
                                    text_field("table_type")});
  for (const auto& r : relations) {
    out.add_row({Value::varchar(kCatalogName), Value::varchar(kUserSchema), Value::varchar(r.name),
                 Value::varchar(r.is_view ? "VIEW" : "BASE TABLE")});
  }
  return out.finish();
}

TablePtr information_schema_columns(const std::vector<Relation>& relations, TypeNames type_names) {
  SystemTableBuilder out(
      "columns", {text_field("table_catalog"), text_field("table_schema"), text_field("table_name"),
                  text_field("column_name"), int_field("ordinal_position"), text_field("column_default", true),
                  text_field("is_nullable"), text_field("data_type"), int_field("character_maximum_length", true),
                  int_field("numeric_precision", true), int_field("numeric_precision_radix", true),
                  int_field("numeric_scale", true), int_field("datetime_precision", true)});
  for (const auto& r : relations) {
    for (size_t i = 0; i < r.columns.size(); ++i) {
      const Field& f = r.columns[i];
      NumericShape shape = numeric_shape(f.type);
      bool temporal =
          f.type.id() == TypeId::kDate || f.type.id() == TypeId::kTimestamp || f.type.id() == TypeId::kInterval ||
          f.type.id() == TypeId::kTimestampTz;
      std::optional<int> datetime_precision;
      if (temporal) datetime_precision = f.type.id() == TypeId::kDate ? 0 : 6;
      out.add_row({Value::varchar(kCatalogName), Value::varchar(kUserSchema), Value::varchar(r.name),
                   Value::varchar(f.name), Value::integer(static_cast<int32_t>(i + 1)), Value(),
                   Value::varchar(f.nullable ? "YES" : "NO"),
                   Value::varchar(type_names == TypeNames::kTrino ? trino_type_name(f.type)
                                                                  : sql_standard_type_name(f.type)),
                   Value(),
                   optional_int(shape.precision), optional_int(shape.radix), optional_int(shape.scale),
                   optional_int(datetime_precision)});
    }
  }
  return out.finish();
}

TablePtr information_schema_schemata() {
  SystemTableBuilder out("schemata",
                         {text_field("catalog_name"), text_field("schema_name"), text_field("schema_owner")});
  for (const char* schema : {"information_schema", "pg_catalog", kUserSchema}) {
    out.add_row({Value::varchar(kCatalogName), Value::varchar(schema), Value::varchar(kCatalogName)});
  }
  return out.finish();
}

}  // namespace

SystemTableBuilder::SystemTableBuilder(std::string name, std::vector<Field> fields)
    : name_(std::move(name)), fields_(std::move(fields)), columns_(fields_.size()) {}

void SystemTableBuilder::add_row(std::vector<Value> row) {
  for (size_t c = 0; c < fields_.size(); ++c) {
    Value v = c < row.size() ? std::move(row[c]) : Value();
    columns_[c].push_back(v.is_null() ? Value::null(fields_[c].type) : std::move(v));
  }
}

TablePtr SystemTableBuilder::finish() const {
  auto schema = std::make_shared<Schema>(fields_);
  auto table = std::make_shared<MemoryTable>(name_, schema);
  std::vector<ColumnPtr> columns;
  for (size_t c = 0; c < fields_.size(); ++c) columns.push_back(Column::from_values(fields_[c].type, columns_[c]));
  size_t rows = columns_.empty() ? 0 : columns_[0].size();
  table->append(Batch(schema, std::move(columns), rows, gpu::MemoryKind::kHost));
  return table;
}

int32_t pg_relation_oid(const std::string& name) { return relation_oid(name); }

int32_t relation_oid(const std::string& name) {
  uint32_t hash = 2166136261u;  // FNV-1a
  for (unsigned char c : name) {
    hash ^= static_cast<unsigned char>(std::tolower(c));
    hash *= 16777619u;
  }
  return static_cast<int32_t>(16384 + hash % 2000000000u);
}

std::vector<Relation> list_relations(const Catalog& catalog, const ViewColumns& view_columns) {
  std::vector<Relation> relations;
  for (const auto& name : catalog.table_names()) {
    if (auto table = catalog.find_table(name)) {
      relations.push_back({table->name(), false, table->schema()->fields()});
    } else if (auto view = catalog.find_view(name)) {
      relations.push_back({view->name, true, view_columns ? view_columns(*view) : std::vector<Field>{}});
    }  // else dropped since table_names() was read
  }
  return relations;
}

bool is_user_schema(const std::string& schema) { return schema == kUserSchema || schema == "default"; }

bool is_system_schema(const std::string& schema) { return schema == "information_schema" || schema == "pg_catalog"; }

std::vector<std::string> system_table_names(const std::string& schema) {
  if (schema == "information_schema") return {"columns", "schemata", "tables"};
  if (schema == "pg_catalog") return pg_catalog_table_names();
  return {};
}

TablePtr build_system_table(const Catalog& catalog, const std::string& schema, const std::string& name,
                            const ViewColumns& view_columns, TypeNames type_names) {
  auto names = system_table_names(schema);
  if (std::find(names.begin(), names.end(), name) == names.end()) return nullptr;
  if (schema == "information_schema" && name == "schemata") return information_schema_schemata();
  std::vector<Relation> relations = list_relations(catalog, view_columns);
  if (schema == "pg_catalog") return build_pg_catalog_table(name, relations);
  if (name == "tables") return information_schema_tables(relations);
  return information_schema_columns(relations, type_names);
}

std::string sql_standard_type_name(const LogicalType& type) {
  switch (type.id()) {
    case TypeId::kNull: return "unknown";
    case TypeId::kBoolean: return "boolean";
    case TypeId::kTinyInt:  // PostgreSQL clients see TINYINT as int2
                            // (server/pg_types.cpp)
    case TypeId::kSmallInt: return "smallint";
    case TypeId::kInteger: return "integer";
    case TypeId::kBigInt: return "bigint";
    case TypeId::kReal: return "real";
    case TypeId::kDouble: return "double precision";
    case TypeId::kDecimal: return "numeric";
    case TypeId::kDate: return "date";
    case TypeId::kTimestamp: return "timestamp without time zone";
    case TypeId::kTimestampTz: return "timestamp with time zone";
    case TypeId::kInterval: return "interval";
    case TypeId::kVarchar: return "character varying";
    case TypeId::kVarbinary: return "bytea";
    case TypeId::kJson: return "json";
    case TypeId::kArray: return "ARRAY";  // the SQL standard's data_type of an array column
    case TypeId::kMap:
    case TypeId::kRow: return "USER-DEFINED";
  }
  return "unknown";
}

std::string trino_type_name(const LogicalType& type) {
  switch (type.id()) {
    case TypeId::kNull: return "unknown";
    case TypeId::kBoolean: return "boolean";
    case TypeId::kTinyInt: return "tinyint";
    case TypeId::kSmallInt: return "smallint";
    case TypeId::kInteger: return "integer";
    case TypeId::kBigInt: return "bigint";
    case TypeId::kReal: return "real";
    case TypeId::kDouble: return "double";
    case TypeId::kDecimal:
      return "decimal(" + std::to_string(type.precision()) + "," + std::to_string(type.scale()) + ")";
    case TypeId::kDate: return "date";
    case TypeId::kTimestamp: return "timestamp(6)";
    case TypeId::kTimestampTz: return "timestamp(3) with time zone";
    case TypeId::kInterval: return "interval day to second";
    case TypeId::kVarchar: return "varchar";
    case TypeId::kVarbinary: return "varbinary";
    case TypeId::kJson: return "json";
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kRow: {
      // As the Trino protocol names them: array(integer), map(varchar, bigint), row(x integer, y varchar).
      std::string name = type.to_string();
      for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      return name;
    }
  }
  return "unknown";
}

}  // namespace kestrel::catalog
