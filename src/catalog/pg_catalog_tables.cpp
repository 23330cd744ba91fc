// pg_catalog's tables as psql and PostgreSQL drivers read them to list and reflect tables: only the columns such
// clients use, with the OIDs the PostgreSQL server side reports.

#include <algorithm>
#include <cctype>

#include "catalog/system_table_builder.hpp"

namespace kestrel::catalog {

namespace {

/// A PostgreSQL type as pg_type lists it.
struct PgType {
  int32_t oid;
  const char* name;
  int16_t length;       ///< typlen: -1 for variable length
  const char* regtype;  ///< the name `oid::regtype` shows (format_type's)
  int32_t array_oid;    ///< typarray: the OID of the array type of this one (listed, though Kestrel has no arrays)
};

/// The types the PostgreSQL server reports for Kestrel's types (server/pg_types.cpp, which this must agree with).
constexpr PgType kPgTypes[] = {
    {16, "bool", 1, "boolean", 1000},
    {17, "bytea", -1, "bytea", 1001},
    {20, "int8", 8, "bigint", 1016},
    {21, "int2", 2, "smallint", 1005},
    {23, "int4", 4, "integer", 1007},
    {25, "text", -1, "text", 1009},
    {26, "oid", 4, "oid", 1028},
    {114, "json", -1, "json", 199},
    {700, "float4", 4, "real", 1021},
    {701, "float8", 8, "double precision", 1022},
    {1043, "varchar", -1, "character varying", 1015},
    {1082, "date", 4, "date", 1182},
    {1114, "timestamp", 8, "timestamp without time zone", 1115},
    {1184, "timestamptz", 8, "timestamp with time zone", 1185},
    {1186, "interval", 16, "interval", 1187},
    {1700, "numeric", -1, "numeric", 1231},
};

/// Other names PostgreSQL accepts for the types above.
constexpr std::pair<const char*, int32_t> kPgTypeAliases[] = {
    {"int", 23},       {"float", 701},    {"double", 701},   {"decimal", 1700},
    {"character", 1043}, {"char", 1043},  {"timestamp without time zone", 1114},
    {"timestamp with time zone", 1184},
};

int32_t pg_type_oid(const LogicalType& type) {
  switch (type.id()) {
    case TypeId::kBoolean: return 16;
    case TypeId::kTinyInt:
    case TypeId::kSmallInt: return 21;
    case TypeId::kInteger: return 23;
    case TypeId::kBigInt: return 20;
    case TypeId::kReal: return 700;
    case TypeId::kDouble: return 701;
    case TypeId::kDecimal: return 1700;
    case TypeId::kDate: return 1082;
    case TypeId::kTimestamp: return 1114;
    case TypeId::kTimestampTz: return 1184;
    case TypeId::kInterval: return 1186;
    case TypeId::kVarchar: return 1043;
    case TypeId::kVarbinary: return 17;
    case TypeId::kJson: return 114;
    case TypeId::kNull:
    // Nested values reach PostgreSQL clients as text (server/pg_types.cpp sends arrays of flat values as arrays).
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kRow: return 25;
  }
  return 25;
}

int16_t pg_type_length(int32_t oid) {
  for (const PgType& t : kPgTypes) {
    if (t.oid == oid) return t.length;
  }
  return -1;
}

/// atttypmod: ((precision << 16) | scale) + 4 for numeric, -1 otherwise (as the server's RowDescription says).
int32_t pg_type_modifier(const LogicalType& type) {
  if (type.id() != TypeId::kDecimal) return -1;
  return ((type.precision() << 16) | type.scale()) + 4;
}

Field text_field(std::string name) { return {std::move(name), TypeId::kVarchar, false}; }
Field int_field(std::string name) { return {std::move(name), TypeId::kInteger, false}; }
Field bigint_field(std::string name) { return {std::move(name), TypeId::kBigInt, false}; }

/// The collation OID of columns of a type: "default" (100) for the text types, 0 for others.
int32_t type_collation(int32_t type_oid) { return type_oid == 25 || type_oid == 1043 ? 100 : 0; }
Field bool_field(std::string name) { return {std::move(name), TypeId::kBoolean, false}; }

TablePtr pg_namespace() {
  SystemTableBuilder out("pg_namespace", {int_field("oid"), text_field("nspname"), int_field("nspowner")});
  out.add_row({Value::integer(kPgCatalogOid), Value::varchar("pg_catalog"), Value::integer(10)});
  out.add_row({Value::integer(kPublicOid), Value::varchar(kUserSchema), Value::integer(10)});
  out.add_row({Value::integer(kInformationSchemaOid), Value::varchar("information_schema"), Value::integer(10)});
  return out.finish();
}

TablePtr pg_class(const std::vector<Relation>& relations) {
  SystemTableBuilder out(
      "pg_class",
      {int_field("oid"), text_field("relname"), int_field("relnamespace"), text_field("relkind"), int_field("relowner"),
       int_field("relnatts"), text_field("relpersistence"), bool_field("relhasindex"), bool_field("relispartition")});
  for (const auto& r : relations) {
    out.add_row({Value::integer(relation_oid(r.name)), Value::varchar(r.name), Value::integer(kPublicOid),
                 Value::varchar(r.is_view ? "v" : "r"), Value::integer(10),
                 Value::integer(static_cast<int32_t>(r.columns.size())), Value::varchar("p"), Value::boolean(false),
                 Value::boolean(false)});
  }
  return out.finish();
}

TablePtr pg_attribute(const std::vector<Relation>& relations) {
  SystemTableBuilder out(
      "pg_attribute", {int_field("attrelid"), text_field("attname"), int_field("atttypid"), int_field("attnum"),
                       int_field("attlen"), int_field("atttypmod"), bool_field("attnotnull"), bool_field("atthasdef"),
                       bool_field("attisdropped"), text_field("attidentity"), text_field("attgenerated"),
                       int_field("attcollation")});
  for (const auto& r : relations) {
    int32_t relid = relation_oid(r.name);
    for (size_t i = 0; i < r.columns.size(); ++i) {
      const Field& f = r.columns[i];
      int32_t type_oid = pg_type_oid(f.type);
      out.add_row({Value::integer(relid), Value::varchar(f.name), Value::integer(type_oid),
                   Value::integer(static_cast<int32_t>(i + 1)), Value::integer(pg_type_length(type_oid)),
                   Value::integer(pg_type_modifier(f.type)), Value::boolean(!f.nullable), Value::boolean(false),
                   Value::boolean(false), Value::varchar(""), Value::varchar(""),
                   Value::integer(type_collation(type_oid))});
    }
  }
  return out.finish();
}

TablePtr pg_type() {
  SystemTableBuilder out("pg_type", {int_field("oid"), text_field("typname"), int_field("typnamespace"),
                                     int_field("typlen"), text_field("typtype"), int_field("typarray"),
                                     text_field("typdelim"), int_field("typcollation")});
  for (const PgType& t : kPgTypes) {
    out.add_row({Value::integer(t.oid), Value::varchar(t.name), Value::integer(kPgCatalogOid), Value::integer(t.length),
                 Value::varchar("b"), Value::integer(t.array_oid), Value::varchar(","),
                 Value::integer(type_collation(t.oid))});
  }
  return out.finish();
}

/// pg_tables (is_view false) or pg_views (true): the relations of the user schema by name.
TablePtr pg_tables_or_views(const std::vector<Relation>& relations, bool views) {
  const char* name_column = views ? "viewname" : "tablename";
  const char* owner_column = views ? "viewowner" : "tableowner";
  SystemTableBuilder out(views ? "pg_views" : "pg_tables",
                         {text_field("schemaname"), text_field(name_column), text_field(owner_column)});
  for (const auto& r : relations) {
    if (r.is_view != views) continue;
    out.add_row({Value::varchar(kUserSchema), Value::varchar(r.name), Value::varchar(kCatalogName)});
  }
  return out.finish();
}

}  // namespace

std::optional<int32_t> pg_type_oid_named(std::string_view name) {
  std::string key;
  bool space = false;
  for (char c : name) {  // lower case, blanks collapsed, without a pg_catalog. prefix
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !key.empty();
      continue;
    }
    if (space) key += ' ';
    space = false;
    key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (key.starts_with("pg_catalog.")) key.erase(0, 11);
  for (const PgType& t : kPgTypes) {
    if (key == t.name || key == t.regtype) return t.oid;
  }
  for (const auto& [alias, oid] : kPgTypeAliases) {
    if (key == alias) return oid;
  }
  return std::nullopt;
}

std::vector<std::pair<int32_t, std::string>> pg_regtype_names() {
  std::vector<std::pair<int32_t, std::string>> out;
  for (const PgType& t : kPgTypes) out.emplace_back(t.oid, t.regtype);
  return out;
}

namespace {

/// The catalog tables Kestrel has nothing to put in (no column defaults, comments, sequences or collations beyond
/// the default): empty, with the columns clients read from them.
TablePtr empty_pg_table(const std::string& name) {
  if (name == "pg_attrdef") {
    return SystemTableBuilder("pg_attrdef", {int_field("oid"), int_field("adrelid"), int_field("adnum"),
                                             text_field("adbin")}).finish();
  }
  if (name == "pg_description") {
    return SystemTableBuilder("pg_description", {int_field("objoid"), int_field("classoid"), int_field("objsubid"),
                                                 text_field("description")}).finish();
  }
  if (name == "pg_sequence") {
    return SystemTableBuilder("pg_sequence",
                              {int_field("seqrelid"), int_field("seqtypid"), bigint_field("seqstart"),
                               bigint_field("seqincrement"), bigint_field("seqmax"), bigint_field("seqmin"),
                               bigint_field("seqcache"), bool_field("seqcycle")}).finish();
  }
  return nullptr;
}

/// pg_collation: the default collation only.
TablePtr pg_collation() {
  SystemTableBuilder out("pg_collation", {int_field("oid"), text_field("collname"), int_field("collnamespace")});
  out.add_row({Value::integer(100), Value::varchar("default"), Value::integer(kPgCatalogOid)});
  return out.finish();
}

}  // namespace

std::vector<std::string> pg_catalog_table_names() {
  return {"pg_attrdef", "pg_attribute", "pg_class", "pg_collation", "pg_description", "pg_namespace",
          "pg_sequence", "pg_tables", "pg_type", "pg_views"};
}

TablePtr build_pg_catalog_table(const std::string& name, const std::vector<Relation>& relations) {
  if (name == "pg_namespace") return pg_namespace();
  if (name == "pg_class") return pg_class(relations);
  if (name == "pg_attribute") return pg_attribute(relations);
  if (name == "pg_type") return pg_type();
  if (name == "pg_tables") return pg_tables_or_views(relations, false);
  if (name == "pg_views") return pg_tables_or_views(relations, true);
  if (name == "pg_collation") return pg_collation();
  return empty_pg_table(name);
}

}  // namespace kestrel::catalog
