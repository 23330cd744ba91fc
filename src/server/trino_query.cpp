#include "server/trino_query.hpp"

#include "server/trino_execute.hpp"

#include <cctype>
#include <iostream>
#include <thread>

#include "common/error.hpp"
#include "server/sql_literal.hpp"
#include "server/trino_errors.hpp"

namespace kestrel::server::trino {

namespace {

/// A page holds at most this many rows, or about this many bytes of JSON.
constexpr size_t kPageRows = 4096;
constexpr size_t kPageBytes = 1 << 20;

bool is_setting_name(const std::string& name) {
  if (name.empty() || name.size() > 128 || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

/// Thrown when a session property cannot be applied: already in Trino's form, without a location (the position
/// would point into the SET statement the server wrote, not into the client's text).
struct SessionPropertyFailure {
  nlohmann::json error;
};

std::string one_line(std::string_view sql) {
  std::string text(sql.substr(0, 300));
  for (char& c : text) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  return sql.size() > 300 ? text + "..." : text;
}

}  // namespace

TrinoQuery::TrinoQuery(std::string id, QueryRequest request)
    : id_(std::move(id)),
      request_(std::move(request)),
      created_(std::chrono::steady_clock::now()),
      last_access_(created_) {}

void TrinoQuery::start(SqlBackend& backend) {
  session_ = backend.open_session(request_.user, ClientProtocol::kTrino);
  std::thread([self = shared_from_this()] { self->execute(); }).detach();
}

void TrinoQuery::apply_session_properties(std::vector<std::pair<std::string, std::string>>& saved) {
  for (const auto& [name, value] : request_.session_properties) {
    try {
      if (!is_setting_name(name)) {
        throw BinderError("invalid session property name '" + name + "'", std::nullopt, "42704");
      }
      StatementResult old = session_->execute("SHOW " + name);
      std::string old_value = old.row_count() == 1 ? old.batches.front().column(0)->value_at(0).to_string() : "";
      session_->execute("SET " + name + " = " + sql_literal(value));
      saved.emplace_back(name, old_value);
    } catch (const std::exception& e) {
      throw SessionPropertyFailure{trino_error_json(e, &kInvalidSessionProperty, false)};
    }
  }
}

void TrinoQuery::execute() {
  {
    std::lock_guard lock(mutex_);
    running_ = true;
  }
  StatementResult result;
  std::optional<nlohmann::json> error;
  // Kestrel's settings belong to the database: the values a session property replaced are put back afterwards.
  std::vector<std::pair<std::string, std::string>> saved;
  try {
    apply_session_properties(saved);
    bool cancelled;
    {
      std::lock_guard lock(mutex_);
      cancelled = cancelled_;
    }
    if (!cancelled) {
      // The clients' statements with ? parameters arrive as EXECUTE IMMEDIATE ... USING.
      const std::optional<std::string> expanded = expand_execute_immediate(request_.sql);
      result = session_->execute(expanded ? *expanded : request_.sql);
    }
  } catch (const SessionPropertyFailure& failure) {
    error = failure.error;
  } catch (const std::exception& e) {
    error = trino_error_json(e);
  }
  for (auto it = saved.rbegin(); it != saved.rend(); ++it) {
    try {
      session_->execute("SET " + it->first + " = " + sql_literal(it->second));
    } catch (const std::exception&) {  // the value was valid before the statement; nothing sensible to report
    }
  }
  std::string state;
  {
    std::lock_guard lock(mutex_);
    ended_flag_ = true;
    elapsed_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - created_).count();
    if (cancelled_) {
      state = "CANCELED";
    } else if (error) {
      state = "FAILED";
      error_ = std::move(error);
    } else {
      state = "FINISHED";
      result_ = std::move(result);
      rows_total_ = result_.row_count();
      if (result_.schema) columns_ = trino_columns(*result_.schema, result_.batches);
    }
  }
  ended_.notify_all();
  char elapsed[32];
  std::snprintf(elapsed, sizeof(elapsed), "%.1f", elapsed_ms_);
  std::cerr << ("trino query=" + id_ + " user=" + request_.user + " state=" + state +
                " rows=" + std::to_string(rows_total_) + " ms=" + elapsed + " sql=\"" + one_line(request_.sql) + "\"\n")
            << std::flush;
}

std::optional<std::string> TrinoQuery::response(uint64_t token, const std::string& base_uri,
                                                std::chrono::milliseconds wait) {
  std::unique_lock lock(mutex_);
  last_access_ = std::chrono::steady_clock::now();
  if (cancelled_) return cancelled_response(base_uri);
  if (answered_ && token == last_token_) return last_response_;
  if (drained_ || token != (answered_ ? last_token_ + 1 : 0)) return std::nullopt;
  if (!ended_flag_) ended_.wait_for(lock, wait, [&] { return ended_flag_ || cancelled_; });
  if (cancelled_) return cancelled_response(base_uri);
  // Another request for the same token may have answered it while this one waited.
  if (answered_ && token == last_token_) return last_response_;
  last_response_ = build_response(token, base_uri).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  last_token_ = token;
  answered_ = true;
  last_access_ = std::chrono::steady_clock::now();
  return last_response_;
}

void TrinoQuery::cancel() {
  {
    std::lock_guard lock(mutex_);
    cancelled_ = true;
    drained_ = true;
    result_ = {};
    last_response_.clear();
  }
  session_->cancel();
  ended_.notify_all();
}

bool TrinoQuery::reassert_cancel() {
  {
    std::lock_guard lock(mutex_);
    if (ended_flag_) return true;
  }
  session_->cancel();
  return false;
}

bool TrinoQuery::expired(std::chrono::steady_clock::time_point now, std::chrono::seconds idle,
                         std::chrono::seconds done) {
  std::lock_guard lock(mutex_);
  return now - last_access_ > (drained_ ? std::min(idle, done) : idle);
}

std::string TrinoQuery::cancelled_response(const std::string& base_uri) const {
  nlohmann::json out = {{"id", id_},
                        {"infoUri", base_uri + "/ui/query.html?" + id_},
                        {"error", trino_cancelled_error_json()},
                        {"stats", stats_json("FAILED")}};
  return out.dump();
}

nlohmann::json TrinoQuery::stats_json(const char* state) const {
  auto elapsed = static_cast<int64_t>(
      ended_flag_ ? elapsed_ms_
                  : std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - created_).count());
  return {{"state", state},
          {"queued", !running_},
          {"scheduled", running_},
          {"nodes", 1},
          {"totalSplits", 0},
          {"queuedSplits", 0},
          {"runningSplits", 0},
          {"completedSplits", 0},
          {"cpuTimeMillis", 0},
          {"wallTimeMillis", elapsed},
          {"queuedTimeMillis", 0},
          {"elapsedTimeMillis", elapsed},
          {"processedRows", rows_total_},
          {"processedBytes", 0},
          {"physicalInputBytes", 0},
          {"peakMemoryBytes", 0},
          {"spilledBytes", 0}};
}

nlohmann::json TrinoQuery::build_response(uint64_t token, const std::string& base_uri) {
  nlohmann::json out = {{"id", id_}, {"infoUri", base_uri + "/ui/query.html?" + id_}};
  std::string next_uri = base_uri + "/v1/statement/executing/" + id_ + "/" + std::to_string(token + 1);
  if (!ended_flag_) {
    out["nextUri"] = next_uri;
    out["stats"] = stats_json(running_ ? "RUNNING" : "QUEUED");
    return out;
  }
  if (error_) {
    out["error"] = *error_;
    out["stats"] = stats_json("FAILED");
    drained_ = true;
    return out;
  }
  if (!result_.schema) {
    add_update_result(out);
    out["stats"] = stats_json("FINISHED");
    drained_ = true;
    return out;
  }
  nlohmann::json columns = nlohmann::json::array();
  for (const auto& column : columns_) columns.push_back(trino_column_json(column));
  out["columns"] = std::move(columns);
  if (add_page(out)) {
    out["nextUri"] = next_uri;
    out["stats"] = stats_json("RUNNING");
  } else {
    out["stats"] = stats_json("FINISHED");
    drained_ = true;
    result_ = {};  // every row has gone out: free the batches now rather than when the query expires
  }
  return out;
}

bool TrinoQuery::add_page(nlohmann::json& out) {
  nlohmann::json data = nlohmann::json::array();
  size_t bytes = 0;
  while (batch_ < result_.batches.size() && data.size() < kPageRows && bytes < kPageBytes) {
    const Batch& batch = result_.batches[batch_];
    if (row_ >= batch.num_rows()) {
      ++batch_;
      row_ = 0;
      continue;
    }
    nlohmann::json row = nlohmann::json::array();
    for (size_t c = 0; c < batch.num_columns(); ++c) {
      Value v = batch.column(c)->value_at(row_);
      if (v.is_null()) {
        row.push_back(nullptr);
        bytes += 5;
        continue;
      }
      row.push_back(trino_value(v, columns_[c]));
      bytes += v.type().id() == TypeId::kVarchar ? v.as_string().size() + 3 : 12;
    }
    data.push_back(std::move(row));
    ++row_;
  }
  if (!data.empty()) out["data"] = std::move(data);
  while (batch_ < result_.batches.size() && row_ >= result_.batches[batch_].num_rows()) {
    ++batch_;
    row_ = 0;
  }
  return batch_ < result_.batches.size();
}

void TrinoQuery::add_update_result(nlohmann::json& out) const {
  // Kestrel's tags: "INSERT 0 3", "UPDATE 2", "DELETE 1", "CREATE TABLE AS 5", "COPY 7", "CREATE TABLE", "SET".
  std::string tag = result_.message;
  std::optional<int64_t> count;
  size_t space = tag.rfind(' ');
  bool counted = tag.rfind("INSERT", 0) == 0 || tag.rfind("UPDATE", 0) == 0 || tag.rfind("DELETE", 0) == 0 ||
                 tag.rfind("COPY", 0) == 0 || tag.rfind("CREATE TABLE AS", 0) == 0;
  if (counted && space != std::string::npos && tag.find_first_not_of("0123456789", space + 1) == std::string::npos &&
      space + 1 < tag.size()) {
    count = std::stoll(tag.substr(space + 1));
  }
  std::string type = tag;
  if (tag.rfind("CREATE TABLE AS", 0) == 0) {
    type = "CREATE TABLE";  // Trino's update type of CREATE TABLE ... AS
    count = count.value_or(0);
  } else if (count) {
    type = tag.substr(0, tag.find(' '));
  }
  out["updateType"] = type;
  TrinoColumn column{count ? "rows" : "result", count ? LogicalType(TypeId::kBigInt) : LogicalType(TypeId::kBoolean)};
  out["columns"] = nlohmann::json::array({trino_column_json(column)});
  if (count) {
    out["updateCount"] = *count;
    out["data"] = nlohmann::json::array({nlohmann::json::array({*count})});
  } else {
    out["data"] = nlohmann::json::array({nlohmann::json::array({true})});
  }
}

}  // namespace kestrel::server::trino
