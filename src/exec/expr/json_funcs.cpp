// Presto's JSON functions on the CPU, over JSON values or JSON text in VARCHAR values: json_extract_scalar,
// json_extract, json_size, json_array_length, json_array_get, json_array_contains, json_parse, json_format,
// is_json_scalar. JSON results are canonical text (common/json_text.hpp). Paths are the JSONPath subset Presto
// accepts: `$`, then `.name`, `["name"]` / `['name']` and `[index]` steps.

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/json_text.hpp"
#include "exec/expr/kernels.hpp"
#include "exec/expr/row_map.hpp"

namespace kestrel::exec {

namespace {

using plan::ScalarFunction;
using Json = nlohmann::json;

struct PathStep {
  bool is_index = false;
  std::string key;
  int64_t index = 0;
};

[[noreturn]] void bad_path(std::string_view path) {
  throw InvalidInput("invalid JSON path: '" + std::string(path) + "'", "22023");
}

std::vector<PathStep> parse_path(std::string_view path) {
  size_t i = 0;
  auto skip_spaces = [&] {
    while (i < path.size() && path[i] == ' ') ++i;
  };
  skip_spaces();
  if (i >= path.size() || path[i] != '$') bad_path(path);
  ++i;
  std::vector<PathStep> steps;
  while (true) {
    skip_spaces();
    if (i == path.size()) return steps;
    PathStep step;
    if (path[i] == '.') {
      ++i;
      const size_t start = i;
      while (i < path.size() && path[i] != '.' && path[i] != '[' && path[i] != ' ') ++i;
      if (i == start) bad_path(path);
      step.key = std::string(path.substr(start, i - start));
    } else if (path[i] == '[') {
      ++i;
      skip_spaces();
      if (i < path.size() && (path[i] == '"' || path[i] == '\'')) {
        const char quote = path[i++];
        const size_t start = i;
        while (i < path.size() && path[i] != quote) ++i;
        if (i == path.size()) bad_path(path);
        step.key = std::string(path.substr(start, i - start));
        ++i;
      } else {
        const size_t start = i;
        while (i < path.size() && path[i] >= '0' && path[i] <= '9') ++i;
        if (i == start || i - start > 18) bad_path(path);
        step.is_index = true;
        step.index = std::stoll(std::string(path.substr(start, i - start)));
      }
      skip_spaces();
      if (i == path.size() || path[i] != ']') bad_path(path);
      ++i;
    } else {
      bad_path(path);
    }
    steps.push_back(std::move(step));
  }
}

/// The value at `steps` in `doc`, or null when a step does not lead anywhere.
const Json* walk(const Json& doc, const std::vector<PathStep>& steps) {
  const Json* at = &doc;
  for (const PathStep& s : steps) {
    if (s.is_index) {
      if (!at->is_array() || s.index >= static_cast<int64_t>(at->size())) return nullptr;
      at = &(*at)[static_cast<size_t>(s.index)];
    } else {
      if (!at->is_object()) return nullptr;
      auto it = at->find(s.key);
      if (it == at->end()) return nullptr;
      at = &*it;
    }
  }
  return at;
}

std::optional<Json> parse_json(std::string_view text) {
  Json doc = Json::parse(text.begin(), text.end(), nullptr, false);
  if (doc.is_discarded()) return std::nullopt;
  return doc;
}

/// Canonical text of a parsed value (invalid UTF-8 in its strings replaced by U+FFFD).
std::string dump(const Json& value) { return value.dump(-1, ' ', false, Json::error_handler_t::replace); }

/// Paths parsed once per distinct text (a constant path is parsed once per batch).
class PathCache {
 public:
  const std::vector<PathStep>& get(std::string_view text) {
    if (!valid_ || text != text_) {
      steps_ = parse_path(text);
      text_ = std::string(text);
      valid_ = true;
    }
    return steps_;
  }

 private:
  bool valid_ = false;
  std::string text_;
  std::vector<PathStep> steps_;
};

}  // namespace

Operand json_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  if (any_null_constant(args)) return null_result(e.type, args, rows, ctx);
  const StringReader text(args[0]);
  const ScalarFunction f = e.function;
  PathCache paths;
  switch (f) {
    case ScalarFunction::kJsonExtractScalar:
    case ScalarFunction::kJsonExtract: {
      const StringReader path(args[1]);
      return map_rows_to_string(args, rows, ctx, [&](size_t i, std::string& out) {
        const std::vector<PathStep>& steps = paths.get(path[i]);
        const std::optional<Json> doc = parse_json(text[i]);
        if (!doc) return false;
        const Json* at = walk(*doc, steps);
        if (at == nullptr) return false;
        if (f == ScalarFunction::kJsonExtract) {
          out += dump(*at);
          return true;
        }
        if (at->is_string()) {
          out += at->get_ref<const std::string&>();
        } else if (at->is_number() || at->is_boolean()) {
          out += dump(*at);
        } else {
          return false;  // arrays, objects and null are not scalars
        }
        return true;
      }, e.type);
    }
    case ScalarFunction::kJsonSize: {
      const StringReader path(args[1]);
      return map_rows_to_fixed<int64_t>(e.type, args, rows, ctx, [&](size_t i, int64_t& out) {
        const std::vector<PathStep>& steps = paths.get(path[i]);
        const std::optional<Json> doc = parse_json(text[i]);
        if (!doc) return false;
        const Json* at = walk(*doc, steps);
        if (at == nullptr) return false;
        out = at->is_array() || at->is_object() ? static_cast<int64_t>(at->size()) : 0;
        return true;
      });
    }
    case ScalarFunction::kJsonArrayLength:
      return map_rows_to_fixed<int64_t>(e.type, args, rows, ctx, [&](size_t i, int64_t& out) {
        const std::optional<Json> doc = parse_json(text[i]);
        if (!doc || !doc->is_array()) return false;
        out = static_cast<int64_t>(doc->size());
        return true;
      });
    case ScalarFunction::kJsonArrayGet: {
      const int64_t* index = args[1].data<int64_t>();
      return map_rows_to_string(args, rows, ctx, [&](size_t i, std::string& out) {
        const std::optional<Json> doc = parse_json(text[i]);
        if (!doc || !doc->is_array()) return false;
        int64_t k = index[args[1].index(i)];
        const auto n = static_cast<int64_t>(doc->size());
        if (k < 0) k += n;
        if (k < 0 || k >= n) return false;
        out += dump((*doc)[static_cast<size_t>(k)]);
        return true;
      }, e.type);
    }
    case ScalarFunction::kJsonParse:
      return map_rows_to_string(args, rows, ctx, [&](size_t i, std::string& out) {
        JsonSyntaxError error;
        std::optional<std::string> canonical = canonical_json(text[i], &error);
        if (!canonical) {
          std::string shown(text[i].substr(0, 100));
          throw InvalidInput("json_parse: cannot convert '" + shown + "' to JSON: " + error.describe(), "22P02");
        }
        out += *canonical;
        return true;
      }, e.type);
    case ScalarFunction::kJsonFormat:
      // A JSON value is canonical already; JSON text in a VARCHAR is made so (NULL when it is not JSON).
      return map_rows_to_string(args, rows, ctx, [&](size_t i, std::string& out) {
        if (args[0].column->type().id() == TypeId::kJson) {
          out += text[i];
          return true;
        }
        std::optional<std::string> canonical = canonical_json(text[i]);
        if (!canonical) return false;
        out += *canonical;
        return true;
      });
    case ScalarFunction::kIsJsonScalar:
      return map_rows_to_fixed<uint8_t>(e.type, args, rows, ctx, [&](size_t i, uint8_t& out) {
        const std::optional<Json> doc = parse_json(text[i]);
        if (!doc) {
          std::string shown(text[i].substr(0, 100));
          throw InvalidInput("is_json_scalar: '" + shown + "' is not JSON", "22P02");
        }
        out = doc->is_array() || doc->is_object() ? 0 : 1;
        return true;
      });
    case ScalarFunction::kJsonArrayContains: {
      // Elements of the value's kind only: a BOOLEAN matches true/false, a BIGINT integral numbers, a DOUBLE any
      // number, a VARCHAR strings.
      const TypeId kind = args[1].column->type().id();
      const StringReader* strings = nullptr;
      std::optional<StringReader> string_value;
      if (kind == TypeId::kVarchar) {
        string_value.emplace(args[1]);
        strings = &*string_value;
      }
      return map_rows_to_fixed<uint8_t>(e.type, args, rows, ctx, [&](size_t i, uint8_t& out) {
        const std::optional<Json> doc = parse_json(text[i]);
        if (!doc || !doc->is_array()) return false;
        const size_t r = args[1].index(i);
        out = 0;
        for (const Json& element : *doc) {
          bool equal = false;
          switch (kind) {
            case TypeId::kBoolean:
              equal = element.is_boolean() && element.get<bool>() == (args[1].data<uint8_t>()[r] != 0);
              break;
            case TypeId::kBigInt:
              equal = element.is_number_integer() && element.get<int64_t>() == args[1].data<int64_t>()[r];
              break;
            case TypeId::kDouble:
              equal = element.is_number() && element.get<double>() == args[1].data<double>()[r];
              break;
            default:
              equal = element.is_string() && element.get_ref<const std::string&>() == (*strings)[i];
              break;
          }
          if (equal) {
            out = 1;
            break;
          }
        }
        return true;
      });
    }
    default: throw InternalError(std::string("JSON function ") + plan::scalar_function_name(e.function));
  }
}

}  // namespace kestrel::exec
