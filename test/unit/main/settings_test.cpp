// Settings (main/settings.hpp): a session's own defaults (set_default, as a Trino session's type_names) are what
// RESET and RESET ALL restore; other settings go back to the global defaults.

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "main/database.hpp"
#include "main/settings.hpp"

namespace kestrel {
namespace {

TEST(Settings, ResetRestoresASessionsOwnDefault) {
  Settings settings;
  settings.set_default("type_names", "TRINO");
  EXPECT_EQ(settings.get("type_names"), "trino");
  settings.set("type_names", "postgres");
  settings.set("table_format", "kcol");
  settings.reset_all();
  EXPECT_EQ(settings.get("type_names"), "trino");
  EXPECT_EQ(settings.get("table_format"), "parquet");
  settings.set("type_names", "postgres");
  settings.reset("type_names");
  EXPECT_EQ(settings.get("type_names"), "trino");
  EXPECT_THROW(settings.set_default("type_names", "oracle"), InvalidInput);
  EXPECT_THROW(settings.set_default("no_such_setting", "1"), BinderError);
  EXPECT_EQ(settings.get("type_names"), "trino");
}

std::string show(Connection& connection, const std::string& name) {
  return connection.query("SHOW " + name).value(0, 0).to_string();
}

TEST(Settings, ResetAllKeepsATrinoSessionsTypeNames) {
  DatabaseOptions options;
  options.device = DeviceChoice::kCpu;
  Database database(options);
  Connection trino(database);
  Connection postgres(database);
  // What a served Trino session gets when it opens (ServedDatabase::open_session).
  trino.settings().set_default("type_names", "trino");
  trino.query("SET type_names = postgres");
  trino.query("SET table_format = kcol");
  trino.query("RESET ALL");
  EXPECT_EQ(show(trino, "type_names"), "trino");
  EXPECT_EQ(show(trino, "table_format"), "parquet");
  for (const char* reset : {"RESET type_names", "SET type_names = DEFAULT"}) {
    trino.query("SET type_names = postgres");
    trino.query(reset);
    EXPECT_EQ(show(trino, "type_names"), "trino") << reset;
  }
  postgres.query("SET type_names = trino");
  postgres.query("RESET ALL");
  EXPECT_EQ(show(postgres, "type_names"), "postgres");
}

TEST(Settings, ResetAllGoesBackToTheDatabasesStartupOptions) {
  DatabaseOptions options;
  options.device = DeviceChoice::kCpu;
  options.threads = 3;
  options.gpu_fallback = false;
  Database database(options);
  Connection connection(database);
  EXPECT_EQ(show(connection, "threads"), "3");
  EXPECT_EQ(show(connection, "gpu_fallback"), "false");
  connection.query("SET threads = 1");
  connection.query("SET gpu_fallback = true");
  connection.query("RESET ALL");
  EXPECT_EQ(show(connection, "threads"), "3");
  EXPECT_EQ(show(connection, "gpu_fallback"), "false");
  connection.query("SET threads = 2");
  connection.query("RESET threads");
  EXPECT_EQ(show(connection, "threads"), "3");
}

}  // namespace
}  // namespace kestrel
