#include "main/statement_runner.hpp"

#include "io/kcol/kcol_file.hpp"

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <shared_mutex>

#include <algorithm>

#include "catalog/loaded_table.hpp"
#include "exec/plan_builder.hpp"
#include "gpu/device.hpp"
#include "gpu/memory_resource.hpp"
#include "io/parquet/writer/device/device_encoder.hpp"
#include "main/copy_statement.hpp"
#include "main/modify_statement.hpp"
#include "main/show_statement.hpp"
#include "planner/binder/binder.hpp"
#include "planner/optimizer/optimizer.hpp"
#include "vector/gather.hpp"

namespace kestrel {

namespace {

QueryResult status(std::string message) {
  QueryResult result;
  result.message = std::move(message);
  return result;
}

/// Runs every uncorrelated scalar sub-query of `plan` once and puts its value in place as a constant.
void resolve_scalar_subqueries(SessionState& state, plan::LogicalNode& root, const std::atomic<bool>& cancel) {
  std::set<plan::LogicalNode*> seen;
  std::function<plan::ExprPtr(const plan::ExprPtr&)> rewrite = [&](const plan::ExprPtr& e) -> plan::ExprPtr {
    if (e->kind == plan::ExprKind::kSubquery) {
      QueryResult rows = execute_plan(state, e->subquery, cancel);
      if (rows.row_count() > 1) {
        throw InvalidInput("more than one row returned by a subquery used as an expression", "21000");
      }
      Value v = rows.row_count() == 0 ? Value::null(e->type) : rows.value(0, 0);
      return plan::make_constant(v.is_null() ? Value::null(e->type) : v);
    }
    if (e->children.empty()) return e;
    auto copy = std::make_shared<plan::Expr>(*e);
    for (auto& c : copy->children) c = rewrite(c);
    return copy;
  };
  std::function<void(plan::LogicalNode&)> visit = [&](plan::LogicalNode& node) {
    if (!seen.insert(&node).second) return;
    plan::for_each_expression(node, [&](plan::ExprPtr& e) { e = rewrite(e); });
    for (auto& c : node.children) visit(*c);
  };
  visit(root);
}

constexpr int kDefaultGpuStreams = 4;

/// File-backed tables that `root` scans more than once, counting the scans of its uncorrelated scalar sub-queries
/// (each runs as a plan of its own). A node shared within one plan (a CTE computed once) counts once.
std::set<const catalog::Table*> tables_scanned_twice(plan::LogicalNode& root) {
  std::map<const catalog::Table*, int> scans;
  std::function<void(plan::LogicalNode&)> walk_plan;
  std::function<void(const plan::ExprPtr&)> walk_expr = [&](const plan::ExprPtr& e) {
    if (e->kind == plan::ExprKind::kSubquery && e->subquery) walk_plan(*e->subquery);
    for (const auto& c : e->children) walk_expr(c);
  };
  walk_plan = [&](plan::LogicalNode& top) {
    std::set<plan::LogicalNode*> seen;
    std::function<void(plan::LogicalNode&)> visit = [&](plan::LogicalNode& node) {
      if (!seen.insert(&node).second) return;
      if (node.kind == plan::NodeKind::kGet) {
        const auto& get = node.as<plan::LogicalGet>();
        const auto kind = get.table->kind();
        if (kind == catalog::TableKind::kParquet || kind == catalog::TableKind::kKcol) ++scans[get.table.get()];
      }
      plan::for_each_expression(node, [&](plan::ExprPtr& e) { walk_expr(e); });
      for (auto& c : node.children) visit(*c);
    };
    visit(top);
  };
  walk_plan(root);
  std::set<const catalog::Table*> twice;
  for (const auto& [table, n] : scans) {
    if (n > 1) twice.insert(table);
  }
  return twice;
}

/// GPU queries: the device pool (created once, its budget from gpu_memory_mb) and the table cache per the
/// gpu_cache settings, into `ctx`.
void prepare_device(SessionState& state, exec::ExecContext& ctx) {
  if (!state.device_pool) state.device_pool = std::make_unique<gpu::DevicePoolMemoryResource>(0);
  state.device_pool->set_budget(state.settings.gpu_memory_bytes());
  ctx.device_budget = state.settings.gpu_memory_bytes();
  // Later pipelines' file scans may hold an eighth of the device memory in reads made before their pipelines run.
  ctx.prefetch_bytes_left = (ctx.device_budget > 0 ? ctx.device_budget : state.device_memory) / 8;
  ctx.device_mr = state.device_pool.get();
  state.device_pool->reset_peak();
  // Every stream of earlier queries has finished: memory they freed, or the cache retired, is safe to reuse.
  gpu::synchronize_device();
  // Default: at most kDefaultGpuStreams drivers. More drivers mostly wait on each other's host synchronizations
  // (TPC-H SF100 on an H200, hot: 2.81 s with 4 streams, 3.33 s with 16).
  ctx.gpu_drivers = state.settings.gpu_streams() > 0 ? state.settings.gpu_streams()
                                                     : std::min(std::max(ctx.threads, 1), kDefaultGpuStreams);
  if (!state.settings.gpu_cache()) {
    state.table_cache.reset();
    return;
  }
  size_t budget = state.settings.gpu_cache_bytes();
  if (budget == 0) budget = state.device_memory / 2;
  if (!state.table_cache) state.table_cache = std::make_unique<exec::DeviceTableCache>(*state.device_pool, budget);
  state.table_cache->set_budget(budget);
  state.table_cache->begin_query();
  ctx.table_cache = state.table_cache.get();
}

}  // namespace

QueryResult execute_plan(SessionState& state, plan::LogicalPtr plan, const std::atomic<bool>& cancel,
                         std::string* profile, bool device_rows) {
  plan = plan::clone_plan(plan);  // the rewrites below must not reach plans this one shares nodes with
  // The outermost plan of a GPU statement without the table cache: scans of a table read more than once share
  // the columns they decode (its scalar sub-queries included, which run below as plans of their own).
  std::unique_ptr<exec::ScanReuse> reuse;
  struct ReuseScope {
    SessionState& state;
    bool owner = false;
    bool stats_owner = false;
    ~ReuseScope() {
      if (owner) state.scan_reuse = nullptr;
      if (stats_owner) state.scan_stats = nullptr;
    }
  } reuse_scope{state};
  io::DeviceScanStats statement_scan_stats;
  if (state.scan_stats == nullptr) {
    state.scan_stats = &statement_scan_stats;
    reuse_scope.stats_owner = true;
  }
  if (state.gpu && state.scan_reuse == nullptr && !state.settings.gpu_cache() && state.settings.gpu_scan_reuse()) {
    std::set<const catalog::Table*> twice = tables_scanned_twice(*plan);
    if (!twice.empty()) {
      const size_t device = state.settings.gpu_memory_bytes() > 0 ? state.settings.gpu_memory_bytes()
                                                                  : state.device_memory;
      reuse = std::make_unique<exec::ScanReuse>(std::move(twice), exec::scan_reuse_budget(device));
      state.scan_reuse = reuse.get();
      reuse_scope.owner = true;
    }
  }
  resolve_scalar_subqueries(state, *plan, cancel);
  plan = plan::optimize(std::move(plan));
  exec::ExecContext ctx;
  ctx.threads = state.settings.threads();
  ctx.cancel_requested = &cancel;
  ctx.profile = profile != nullptr;
  ctx.progress = state.progress;
  // The statement's scalar sub-queries (run before it, as plans of their own) count into its scan statistics.
  io::DeviceScanStats own_scan_stats;
  io::DeviceScanStats& scan_stats = state.scan_stats != nullptr ? *state.scan_stats : own_scan_stats;
  ctx.scan_stats = &scan_stats;
  ctx.gpu_decode = state.settings.gpu_decode();
  ctx.scan_prefetch = state.settings.gpu_scan_prefetch();
  if (state.gpu) prepare_device(state, ctx);
  if (ctx.table_cache == nullptr) ctx.scan_reuse = state.scan_reuse;
  exec::PlanBuilder builder(ctx);
  auto collector = builder.build_result(plan, device_rows);
  if (state.gpu && !state.settings.gpu_fallback() && !builder.cpu_operators().empty()) {
    // With fallback off, running part of the query on the CPU would hide that the GPU cannot run it.
    throw NotImplemented("'" + builder.cpu_operators().front() + "' has no GPU implementation yet and gpu_fallback "
                         "is off (SET gpu_fallback = true runs it on the CPU)");
  }
  auto start = std::chrono::steady_clock::now();
  exec::run_pipelines(builder.pipelines(), ctx);
  if (profile != nullptr) {
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    *profile = plan::explain_logical(*plan) + "\n" + exec::describe_pipelines(builder.pipelines()) +
               "Total " + std::to_string(ms) + " ms, " + std::to_string(collector->row_count()) + " rows\n";
    if (ctx.device_mr != nullptr) {
      *profile += "GPU memory peak " + std::to_string(ctx.device_mr->peak_bytes() >> 20) + " MiB";
      if (ctx.table_cache != nullptr) {
        auto c = ctx.table_cache->stats();
        *profile += ", table cache " + std::to_string(c.bytes >> 20) + " MiB in " + std::to_string(c.entries) +
                    " columns (" + std::to_string(c.hits) + " hits, " + std::to_string(c.misses) + " misses)";
      }
      *profile += "\n";
      if (scan_stats.batches > 0) *profile += scan_stats.describe() + "\n";
      if (ctx.scan_reuse != nullptr) {
        auto r = ctx.scan_reuse->stats();
        *profile += "Scans sharing decoded columns: " + std::to_string(r.columns) + " columns kept (" +
                    std::to_string(r.bytes >> 20) + " MiB), " + std::to_string(r.hits) + " taken by later scans\n";
      }
    }
  }
  QueryResult result;
  result.schema = collector->schema();
  result.batches = collector->batches();
  if (device_rows && state.gpu) gpu::synchronize_device();  // device batches are then ready on any stream
  return result;
}

namespace {

QueryResult create_table(SessionState& state, const ast::CreateTableStatement& s) {
  const std::string& name = s.name.name();
  if (state.catalog.find_table(name) || state.catalog.find_view(name)) {
    if (s.if_not_exists) return status("CREATE TABLE");
    if (!s.or_replace) throw BinderError("table '" + name + "' already exists", s.name.position, "42P07");
  }
  std::vector<Field> fields;
  for (const auto& c : s.columns) {
    if (!c.type.type) throw BinderError("unknown type " + c.type.to_string(), c.type.position, "42704");
    for (const auto& f : fields) {
      if (f.name == c.name) throw BinderError("column '" + c.name + "' specified more than once", c.position, "42701");
    }
    fields.push_back({c.name, *c.type.type, !c.not_null});
  }
  state.catalog.add_table(std::make_shared<catalog::MemoryTable>(name, std::make_shared<Schema>(fields)), true);
  return status("CREATE TABLE");
}

QueryResult create_table_as(SessionState& state, const ast::CreateTableAsStatement& s,
                            const std::atomic<bool>& cancel) {
  const std::string& name = s.name.name();
  const bool replaced = state.catalog.find_table(name) || state.catalog.find_view(name);
  if (replaced) {
    if (s.if_not_exists) return status("CREATE TABLE AS");
    if (!s.or_replace) throw BinderError("table '" + name + "' already exists", s.name.position, "42P07");
  }
  // WITH (format = ..., writer options): the format is checked before the query runs, the options by the writer.
  std::string format;
  std::vector<std::pair<std::string, std::string>> writer_options;
  for (const auto& o : s.options) {
    if (o.name == "format") {
      format = o.value.text;
      std::transform(format.begin(), format.end(), format.begin(), ::tolower);
      if (format != "parquet" && format != "kcol") {
        throw InvalidInput("CREATE TABLE format must be parquet or kcol, not '" + o.value.text + "'", "22023",
                           o.position);
      }
    } else {
      writer_options.emplace_back(o.name, o.value.text);
    }
  }
  if (state.catalog.data_dir()) {
    // The table becomes a file named after it in the data folder: a name must not lead out of the folder.
    if (name.empty() || name == "." || name == ".." || name[0] == '.' ||
        name.find_first_of(std::string("/\\\0", 3)) != std::string::npos) {
      throw BinderError("table name '" + name + "' cannot name a file in the data folder", s.name.position, "42602");
    }
  }
  if (!writer_options.empty() && !state.catalog.data_dir()) {
    throw InvalidInput("CREATE TABLE ... WITH (" + writer_options.front().first + " = ...) sets an option of the file "
                       "written into the data folder, and none is attached (start kestrel with --data DIR)",
                       "0A000", s.options.front().position);
  }
  plan::Binder binder(state.catalog, state.type_names());
  auto plan = binder.bind_query(*s.query);
  QueryResult rows = execute_plan(state, plan, cancel);
  std::vector<Field> fields = plan->output;
  for (size_t i = 0; i < s.column_names.size() && i < fields.size(); ++i) fields[i].name = s.column_names[i];
  auto schema = std::make_shared<Schema>(fields);
  if (state.catalog.data_dir()) {
    // With a data folder attached, the table is a file there in the table_format setting's format or the one WITH
    // names, written completely before it appears.
    const std::string chosen = format.empty() ? state.settings.get("table_format") : format;
    const std::string dir = *state.catalog.data_dir();
    const std::string path = dir + "/" + name + "." + chosen;
    state.catalog.file_access().check_write(path, s.name.position);
    const size_t count = chosen == "kcol" ? io::write_kcol_file(path, *schema, rows.batches, writer_options)
                                          : write_parquet_file(path, *schema, rows.batches, writer_options);
    state.catalog.add_table(catalog::open_file_table(name, path), true);
    // A replaced table's file of the other format would attach as a second table of that name next time.
    if (replaced) {
      std::error_code ec;
      std::filesystem::remove(dir + "/" + name + (chosen == "kcol" ? ".parquet" : ".kcol"), ec);
    }
    return status("CREATE TABLE AS " + std::to_string(count));
  }
  if (!format.empty()) {
    throw InvalidInput("CREATE TABLE ... WITH (format = '" + format + "') writes a file into the data folder, and none "
                       "is attached (start kestrel with --data DIR)", "0A000", s.options.front().position);
  }
  auto table = std::make_shared<catalog::MemoryTable>(name, schema);
  size_t count = 0;
  for (const auto& b : rows.batches) count += table->append(Batch(schema, b.columns(), b.num_rows(), b.residency()));
  state.catalog.add_table(table, true);
  return status("CREATE TABLE AS " + std::to_string(count));
}

QueryResult insert(SessionState& state, const ast::InsertStatement& s, const std::atomic<bool>& cancel) {
  auto table = state.catalog.find_table(s.table.name());
  if (!table) throw BinderError("table '" + s.table.to_string() + "' does not exist", s.table.position, "42P01");
  auto memory = std::dynamic_pointer_cast<catalog::MemoryTable>(table);
  if (!memory) throw NotImplemented("INSERT into a file-backed table is not supported yet", s.position);
  const Schema& schema = *table->schema();
  std::vector<int> source_of(schema.size(), -1);
  if (s.columns.empty()) {
    for (size_t i = 0; i < schema.size(); ++i) source_of[i] = static_cast<int>(i);
  } else {
    for (size_t k = 0; k < s.columns.size(); ++k) {
      auto idx = schema.index_of(s.columns[k]);
      if (!idx) throw BinderError("column '" + s.columns[k] + "' of table '" + table->name() + "' does not exist",
                                  s.position, "42703");
      if (source_of[*idx] >= 0) {
        throw BinderError("column '" + s.columns[k] + "' specified more than once", s.position, "42701");
      }
      source_of[*idx] = static_cast<int>(k);
    }
  }
  plan::Binder binder(state.catalog, state.type_names());
  auto source = binder.bind_query(*s.source);
  size_t expected = s.columns.empty() ? schema.size() : s.columns.size();
  if (source->output.size() != expected) {
    throw BinderError("INSERT has " + std::to_string(source->output.size()) + " expressions but " +
                          std::to_string(expected) + " target columns",
                      s.source->position, "42601");
  }
  std::vector<plan::ExprPtr> exprs;
  std::vector<std::string> names;
  for (size_t i = 0; i < schema.size(); ++i) {
    const auto& field = schema.field(i);
    plan::ExprPtr e = source_of[i] < 0
                          ? plan::make_constant(Value::null(field.type))
                          : plan::make_column_ref(static_cast<size_t>(source_of[i]),
                                                  source->output[static_cast<size_t>(source_of[i])].type, field.name);
    exprs.push_back(plan::Binder::cast_to(e, field.type, s.source->position));
    names.push_back(field.name);
  }
  auto project = plan::make_project(source, exprs, names);
  QueryResult rows = execute_plan(state, project, cancel);
  auto table_schema = table->schema();
  size_t count = 0;
  for (const auto& b : rows.batches) {
    for (size_t i = 0; i < table_schema->size(); ++i) {
      if (!table_schema->field(i).nullable && b.column(i)->null_count() > 0) {
        throw InvalidInput("NULL value in column '" + table_schema->field(i).name + "' violates NOT NULL", "23502");
      }
    }
  }
  for (const auto& b : rows.batches) count += memory->append(Batch(table_schema, b.columns(), b.num_rows(), b.residency()));
  return status("INSERT 0 " + std::to_string(count));
}

QueryResult drop(SessionState& state, const ast::DropStatement& s) {
  for (const auto& name : s.names) {
    bool dropped = false;
    if (s.object_type == ast::ObjectType::kTable) dropped = state.catalog.drop_table(name.name());
    if (s.object_type == ast::ObjectType::kView) dropped = state.catalog.drop_view(name.name());
    if (s.object_type == ast::ObjectType::kIndex) dropped = true;
    if (!dropped && !s.if_exists) {
      throw BinderError(std::string(ast::object_type_name(s.object_type)) + " '" + name.to_string() +
                            "' does not exist",
                        name.position, "42P01");
    }
  }
  return status(std::string("DROP ") + ast::object_type_name(s.object_type));
}

QueryResult describe(SessionState& state, const ast::DescribeStatement& s) {
  std::vector<Field> fields;
  if (s.query) {
    plan::Binder binder(state.catalog, state.type_names());
    fields = binder.bind_query(*s.query)->output;
  } else {
    auto table = state.catalog.find_table(s.table.name());
    if (table) {
      fields = table->schema()->fields();
    } else if (auto view = state.catalog.find_view(s.table.name())) {
      fields = plan::Binder(state.catalog).view_fields(*view);
    } else {
      throw BinderError("table '" + s.table.to_string() + "' does not exist", s.table.position, "42P01");
    }
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto& f : fields) rows.push_back({f.name, f.type.to_string(), f.nullable ? "YES" : "NO"});
  return text_result({"column_name", "column_type", "null"}, rows);
}

QueryResult explain(SessionState& state, const ast::ExplainStatement& s, const std::atomic<bool>& cancel) {
  if (!s.statement->is<ast::QueryStatement>()) {
    throw NotImplemented("EXPLAIN supports queries only", s.statement->position);
  }
  plan::Binder binder(state.catalog, state.type_names());
  auto bound = binder.bind_query(*s.statement->as<ast::QueryStatement>().query);
  std::string text;
  if (s.analyze) {
    execute_plan(state, bound, cancel, &text);
  } else {
    auto plan = plan::optimize(plan::clone_plan(bound));
    text = plan::explain_logical(*plan);
    if (state.gpu) {
      // With the GPU as the device, also the pipelines: each operator's placement and the transfers.
      exec::ExecContext ctx;
      prepare_device(state, ctx);
      exec::PlanBuilder builder(ctx);
      builder.build_result(plan);
      text += "\n" + exec::describe_pipelines(builder.pipelines());
    }
  }
  std::vector<std::vector<std::string>> rows;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    rows.push_back({text.substr(start, end - start)});
    start = end + 1;
  }
  return text_result({"plan"}, rows);
}

QueryResult copy_to(SessionState& state, const ast::CopyStatement& s, const std::atomic<bool>& cancel) {
  if (!s.to) throw NotImplemented("COPY ... FROM is not supported yet; use INSERT INTO ... SELECT * FROM read_csv(...)", s.position);
  state.catalog.file_access().check_write(s.file, s.position);
  plan::Binder binder(state.catalog, state.type_names());
  plan::LogicalPtr plan;
  if (s.query) {
    plan = binder.bind_query(*s.query);
  } else {
    // COPY table [(columns)] TO: the same as SELECT columns FROM table.
    ast::Query query(s.position);
    auto select = std::make_unique<ast::Select>(s.position);
    auto ref = std::make_unique<ast::BaseTableRef>(s.table.position);
    ref->name = s.table;
    select->from.push_back(std::move(ref));
    if (s.columns.empty()) {
      select->items.push_back({std::make_unique<ast::Star>(s.position), std::nullopt, s.position});
    }
    for (const auto& c : s.columns) {
      auto col = std::make_unique<ast::ColumnRef>(s.position);
      col->names = {c};
      select->items.push_back({std::move(col), std::nullopt, s.position});
    }
    query.body = std::move(select);
    plan = binder.bind_query(query);
  }
  std::string format = "parquet";
  std::string lower_file = s.file;
  std::transform(lower_file.begin(), lower_file.end(), lower_file.begin(), ::tolower);
  if (lower_file.size() > 4 && (lower_file.ends_with(".csv") || lower_file.ends_with(".tbl"))) format = "csv";
  if (lower_file.size() > 5 && lower_file.ends_with(".kcol")) format = "kcol";
  std::vector<std::pair<std::string, std::string>> writer_options;
  char delimiter = ',';
  bool header = true;
  for (const auto& o : s.options) {
    std::string value = o.value.text;
    std::transform(value.begin(), value.end(), value.begin(), ::tolower);
    if (o.name == "format") {
      format = value;
    } else if (o.name == "delimiter" || o.name == "delim" || o.name == "sep") {
      if (o.value.text.size() != 1) throw InvalidInput("COPY delimiter must be one character", "22023", o.position);
      delimiter = o.value.text[0];
    } else if (o.name == "header") {
      header = value.empty() || value == "true" || value == "on" || value == "1";
    } else {
      writer_options.emplace_back(o.name, o.value.text);
    }
  }
  // Parquet from a GPU plan: the rows stay on the device and are encoded there.
  const bool device_encode = (format == "parquet" || format == "kcol") && state.gpu &&
                             state.settings.gpu_encode() && io::parquet::device_encoding_supported();
  QueryResult rows = execute_plan(state, plan, cancel, nullptr, device_encode);
  Schema schema(plan->output);
  size_t count;
  if (format == "parquet") {
    count = write_parquet_file(s.file, schema, rows.batches, writer_options,
                               device_encode ? state.device_pool.get() : nullptr);
  } else if (format == "kcol") {
    count = io::write_kcol_file(s.file, schema, rows.batches, writer_options,
                                device_encode ? state.device_pool.get() : nullptr);
  } else if (format == "csv") {
    if (!writer_options.empty()) {
      throw InvalidInput("COPY to CSV has no option '" + writer_options.front().first + "'", "22023", s.position);
    }
    count = write_csv_file(s.file, schema, rows.batches, delimiter, header);
  } else {
    throw InvalidInput("COPY FORMAT must be parquet, kcol or csv, not '" + format + "'", "22023", s.position);
  }
  return status("COPY " + std::to_string(count));
}

/// host_memory_mb is one limit for the process (every statement of every connection counts against it): SET and
/// RESET apply it at once.
void apply_host_memory_limit(const Settings& settings) { gpu::host_memory().set_limit(settings.host_memory_bytes()); }

/// Whether `statement` changes the catalog or a table's rows: it then runs alone.
bool changes_catalog(const ast::Statement& statement) {
  switch (statement.kind) {
    case ast::StatementKind::kCreateTable:
    case ast::StatementKind::kCreateTableAs:
    case ast::StatementKind::kCreateView:
    case ast::StatementKind::kDrop:
    case ast::StatementKind::kInsert:
    case ast::StatementKind::kUpdate:
    case ast::StatementKind::kDelete: return true;
    default: return false;
  }
}

/// Whether `statement` may run a plan (or prepare the device, as EXPLAIN does): on a GPU database it then waits
/// for the device.
bool runs_plan(const ast::Statement& statement) {
  switch (statement.kind) {
    case ast::StatementKind::kQuery:
    case ast::StatementKind::kCreateTableAs:
    case ast::StatementKind::kInsert:
    case ast::StatementKind::kUpdate:
    case ast::StatementKind::kDelete:
    case ast::StatementKind::kExplain:
    case ast::StatementKind::kCopy: return true;
    default: return false;
  }
}

/// Takes `lock` (a lock object not yet holding its mutex), giving up with Cancelled when the statement is cancelled
/// while it waits.
template <typename Lock>
void wait_for(Lock& lock, const std::atomic<bool>& cancel) {
  while (!lock.try_lock_for(std::chrono::milliseconds(20))) {
    if (cancel.load()) throw Cancelled();
  }
}

QueryResult run_unlocked(SessionState& state, const ast::Statement& statement, const std::atomic<bool>& cancel,
                         bool device_rows) {
  switch (statement.kind) {
    case ast::StatementKind::kQuery: {
      plan::Binder binder(state.catalog, state.type_names());
      auto plan = binder.bind_query(*statement.as<ast::QueryStatement>().query);
      return execute_plan(state, plan, cancel, nullptr, device_rows && state.gpu);
    }
    case ast::StatementKind::kCreateTable: return create_table(state, statement.as<ast::CreateTableStatement>());
    case ast::StatementKind::kCreateTableAs:
      return create_table_as(state, statement.as<ast::CreateTableAsStatement>(), cancel);
    case ast::StatementKind::kCreateView: {
      const auto& s = statement.as<ast::CreateViewStatement>();
      plan::Binder binder(state.catalog, state.type_names());
      binder.bind_query(*s.query);  // reject views that do not bind now
      state.catalog.add_view({s.name.name(), s.query_text, s.column_names}, s.or_replace);
      return status("CREATE VIEW");
    }
    case ast::StatementKind::kCreateIndex: return status("CREATE INDEX");
    case ast::StatementKind::kDrop: return drop(state, statement.as<ast::DropStatement>());
    case ast::StatementKind::kInsert: return insert(state, statement.as<ast::InsertStatement>(), cancel);
    case ast::StatementKind::kUpdate: return update_rows(state, statement.as<ast::UpdateStatement>(), cancel);
    case ast::StatementKind::kDelete: return delete_rows(state, statement.as<ast::DeleteStatement>(), cancel);
    case ast::StatementKind::kExplain: return explain(state, statement.as<ast::ExplainStatement>(), cancel);
    case ast::StatementKind::kSet: {
      const auto& s = statement.as<ast::SetStatement>();
      if (s.value.kind == ast::OptionValue::Kind::kDefault) {
        state.settings.reset(s.name);
      } else {
        state.settings.set(s.name, s.value.text);
      }
      if (s.name == "host_memory_mb") apply_host_memory_limit(state.settings);
      return status("SET");
    }
    case ast::StatementKind::kReset: {
      const auto& s = statement.as<ast::ResetStatement>();
      s.all ? state.settings.reset_all() : state.settings.reset(s.name);
      if (s.all || s.name == "host_memory_mb") apply_host_memory_limit(state.settings);
      return status("RESET");
    }
    case ast::StatementKind::kShow: return run_show(state, statement.as<ast::ShowStatement>());
    case ast::StatementKind::kDescribe: return describe(state, statement.as<ast::DescribeStatement>());
    case ast::StatementKind::kCopy: return copy_to(state, statement.as<ast::CopyStatement>(), cancel);
  }
  throw InternalError("unhandled statement kind");
}

}  // namespace

QueryResult run_statement(SessionState& state, const ast::Statement& statement, const std::atomic<bool>& cancel,
                          bool device_rows) {
  // Casts, literals and current_timestamp of the statement read the session's time zone while it binds.
  plan::Binder::SessionTimeZone zone(state.settings.time_zone());
  // SET and RESET change the connection's own settings only.
  if (statement.kind == ast::StatementKind::kSet || statement.kind == ast::StatementKind::kReset) {
    return run_unlocked(state, statement, cancel, device_rows);
  }
  std::shared_lock<std::shared_timed_mutex> reading(state.db.catalog_mutex, std::defer_lock);
  std::unique_lock<std::shared_timed_mutex> writing(state.db.catalog_mutex, std::defer_lock);
  {
    // A turnstile: a statement that changes the catalog holds the gate while it waits for the running queries, so
    // that queries arriving meanwhile cannot keep it waiting forever.
    std::unique_lock<std::timed_mutex> gate(state.db.catalog_gate, std::defer_lock);
    wait_for(gate, cancel);
    if (changes_catalog(statement)) {
      wait_for(writing, cancel);
    } else {
      gate.unlock();
      wait_for(reading, cancel);
    }
  }
  std::unique_lock<std::timed_mutex> device(state.db.device_mutex, std::defer_lock);
  if (state.gpu && runs_plan(statement)) wait_for(device, cancel);
  return run_unlocked(state, statement, cancel, device_rows);
}

}  // namespace kestrel
