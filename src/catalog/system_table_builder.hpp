#pragma once
/// Helpers shared by the files that build system tables (system_tables.cpp, pg_catalog_tables.cpp); not for other
/// layers, which go through catalog/system_tables.hpp.

#include <string>
#include <vector>

#include "catalog/system_tables.hpp"

namespace kestrel::catalog {

/// Collects the rows of one system table and turns them into a memory table.
class SystemTableBuilder {
 public:
  SystemTableBuilder(std::string name, std::vector<Field> fields);

  /// Adds a row of one value per field; an untyped NULL becomes a NULL of the field's type.
  void add_row(std::vector<Value> row);
  /// The finished table (one batch holding every row).
  TablePtr finish() const;

 private:
  std::string name_;
  std::vector<Field> fields_;
  std::vector<std::vector<Value>> columns_;
};

/// The PostgreSQL OID of a namespace, relation or type as pg_catalog reports it.
inline constexpr int32_t kPgCatalogOid = 11;
inline constexpr int32_t kPublicOid = 2200;
inline constexpr int32_t kInformationSchemaOid = 13000;

/// A relation's OID: a hash of its lower-case name above PostgreSQL's first user OID, so it stays the same across
/// queries (clients read an OID in one query and use it in the next) and while other tables come and go.
int32_t relation_oid(const std::string& name);

/// Builds `pg_catalog.name`; nullptr for a name pg_catalog does not have here.
TablePtr build_pg_catalog_table(const std::string& name, const std::vector<Relation>& relations);
/// The tables of pg_catalog, sorted.
std::vector<std::string> pg_catalog_table_names();

}  // namespace kestrel::catalog
