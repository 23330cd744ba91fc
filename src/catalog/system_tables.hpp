#pragma once
/// Catalog views that SQL clients read when they connect or reflect: `information_schema.{tables, columns, schemata}`
/// (the SQL standard, read by Trino and PostgreSQL clients) and `pg_catalog.{pg_namespace, pg_class, pg_attribute,
/// pg_type, pg_tables, pg_views}` (read by psql and PostgreSQL drivers). Each is a memory table built from the
/// catalog's state when a query binds it, so it always shows the tables and views of that moment.
///
/// Kestrel has one catalog (`kestrel`) with one user schema (`public`; Trino clients may call it `default`).

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/catalog.hpp"

namespace kestrel::catalog {

/// The catalog name clients see (table_catalog, current_database(), SHOW CATALOGS).
inline constexpr const char* kCatalogName = "kestrel";
/// The schema of every user table and view (table_schema, current_schema(), SHOW SCHEMAS).
inline constexpr const char* kUserSchema = "public";

/// The columns of a view as the binder computes them (the catalog cannot bind SQL). Returns no fields for a view that
/// no longer binds (one whose table was dropped).
using ViewColumns = std::function<std::vector<Field>(const View&)>;

/// One user table or view with its columns, as the system tables list it.
struct Relation {
  std::string name;
  bool is_view = false;
  std::vector<Field> columns;
};

/// Every user table and view of `catalog`, sorted by name.
std::vector<Relation> list_relations(const Catalog& catalog, const ViewColumns& view_columns);

/// Whether `schema` (lower case) names the user schema: `public`, or `default` as Trino clients say.
bool is_user_schema(const std::string& schema);
/// Whether `schema` (lower case) is `information_schema` or `pg_catalog`.
bool is_system_schema(const std::string& schema);
/// The names of the system tables of a system schema, sorted.
std::vector<std::string> system_table_names(const std::string& schema);

/// How information_schema.columns spells types: SQL-standard (PostgreSQL clients) or Trino's names.
enum class TypeNames : uint8_t { kSqlStandard, kTrino };

/// Builds the system table `schema.name` (both lower case) from the catalog's current state; nullptr when the system
/// schema has no such table.
TablePtr build_system_table(const Catalog& catalog, const std::string& schema, const std::string& name,
                            const ViewColumns& view_columns, TypeNames type_names = TypeNames::kSqlStandard);

/// The SQL-standard spelling of a type for information_schema.columns.data_type: `integer`, `character varying`,
/// `timestamp without time zone`, `numeric`, ...
std::string sql_standard_type_name(const LogicalType& type);
/// The spelling Trino uses in SHOW COLUMNS: `integer`, `varchar`, `decimal(10,2)`, `timestamp(6)`, ...
std::string trino_type_name(const LogicalType& type);

/// The OID of the pg_type row a PostgreSQL type name means, as to_regtype() resolves it: `int4`, `integer`,
/// `character varying`, `pg_catalog.text`, ... (any case); nullopt for a type pg_type does not list.
std::optional<int32_t> pg_type_oid_named(std::string_view name);
/// The OID pg_class gives the relation `name` (stable across queries; what `'name'::regclass` means).
int32_t pg_relation_oid(const std::string& name);
/// (OID, name) of every pg_type row, the name as `oid::regtype` shows it: `integer`, `character varying`, ...
std::vector<std::pair<int32_t, std::string>> pg_regtype_names();

}  // namespace kestrel::catalog
