// The collecting aggregates' accumulator, their types, and set_agg, set_union, histogram, map_union, map_union_sum
// and multimap_agg (the statistical ones are in aggregate_collected_stats.cpp).

#include "exec/ops/hash_aggregate/aggregate_collected.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <string>

#include "common/check.hpp"
#include "vector/nested_column.hpp"

namespace kestrel::exec::aggregate_detail {

namespace {

using plan::AggregateFunction;

const LogicalType kBigInt(TypeId::kBigInt);
const LogicalType kDouble(TypeId::kDouble);

/// The key bytes of each of `values` (of `type`).
std::vector<std::string> keys_of(const LogicalType& type, const std::vector<Value>& values) {
  const ColumnPtr column = Column::from_values(type, values);
  std::vector<std::string> keys(values.size());
  for (size_t i = 0; i < values.size(); ++i) append_key_bytes(*column, i, keys[i]);
  return keys;
}

/// A map of `type` from entries keyed by their key bytes (so in ascending key order).
Value map_from(const LogicalType& type, const std::map<std::string, std::pair<Value, Value>>& entries) {
  std::vector<Value> keys, values;
  for (const auto& [bytes, entry] : entries) {
    keys.push_back(entry.first);
    values.push_back(entry.second);
  }
  return Value::map(type, keys, values);
}

/// The entries of the non-NULL maps of `values` (MAP values), each as its key bytes, key and value.
struct Entry {
  std::string bytes;
  Value key;
  Value value;
};
std::vector<Entry> map_entries(const LogicalType& map_type, const std::vector<Value>& values) {
  std::vector<Value> keys;
  std::vector<Entry> entries;
  for (const Value& m : values) {
    if (m.is_null()) continue;
    for (const Value& e : m.children()) {
      keys.push_back(e.children()[0]);
      entries.push_back({{}, e.children()[0], e.children()[1]});
    }
  }
  std::vector<std::string> bytes = keys_of(map_type.key_type(), keys);
  for (size_t i = 0; i < entries.size(); ++i) entries[i].bytes = std::move(bytes[i]);
  return entries;
}

/// The sum of two values of map_union_sum's numeric value type (NULL counts as 0); an error on integer overflow.
Value add_values(const LogicalType& type, const Value& a, const Value& b) {
  if (type.id() == TypeId::kReal || type.id() == TypeId::kDouble) {
    const double sum = (a.is_null() ? 0.0 : a.as_double()) + (b.is_null() ? 0.0 : b.as_double());
    return type.id() == TypeId::kReal ? Value::real(static_cast<float>(sum)) : Value::double_value(sum);
  }
  const int64_t x = a.is_null() ? 0 : a.as_int64(), y = b.is_null() ? 0 : b.as_int64();
  int64_t sum = 0;
  const int bits = static_cast<int>(type.physical_width() * 8);
  const bool overflow = __builtin_add_overflow(x, y, &sum) ||
                        (bits < 64 && (sum < -(int64_t{1} << (bits - 1)) || sum >= (int64_t{1} << (bits - 1))));
  if (overflow) {
    throw InvalidInput("map_union_sum: " + type.to_string() + " overflow in " + std::to_string(x) + " + " +
                           std::to_string(y),
                       "22003");
  }
  switch (type.id()) {
    case TypeId::kTinyInt: return Value::tinyint(static_cast<int8_t>(sum));
    case TypeId::kSmallInt: return Value::smallint(static_cast<int16_t>(sum));
    case TypeId::kInteger: return Value::integer(static_cast<int32_t>(sum));
    default: return Value::bigint(sum);
  }
}

Value map_union(AggregateFunction f, const LogicalType& result, const std::vector<Value>& values) {
  std::map<std::string, std::pair<Value, Value>> merged;
  for (Entry& e : map_entries(result, values)) {
    auto [it, added] = merged.try_emplace(e.bytes, e.key, e.value);
    if (!added && f == AggregateFunction::kMapUnionSum) {
      it->second.second = add_values(result.value_type(), it->second.second, e.value);
    }
  }
  if (f == AggregateFunction::kMapUnionSum) {
    for (auto& [bytes, entry] : merged) entry.second = add_values(result.value_type(), entry.second, Value());
  }
  return map_from(result, merged);
}

Value histogram(const LogicalType& result, const LogicalType& input, const std::vector<Value>& values) {
  const std::vector<std::string> keys = keys_of(input, values);
  std::map<std::string, std::pair<Value, Value>> counts;
  for (size_t i = 0; i < values.size(); ++i) {
    auto [it, added] = counts.try_emplace(keys[i], values[i], Value::bigint(1));
    if (!added) it->second.second = Value::bigint(it->second.second.as_int64() + 1);
  }
  return map_from(result, counts);
}

Value multimap(const LogicalType& result, const LogicalType& input, const std::vector<Value>& rows) {
  std::vector<Value> keys;
  for (const Value& row : rows) keys.push_back(row.children()[0]);
  const std::vector<std::string> bytes = keys_of(input.fields()[0].type, keys);
  std::map<std::string, std::pair<Value, std::vector<Value>>> lists;
  for (size_t i = 0; i < rows.size(); ++i) {
    auto [it, added] = lists.try_emplace(bytes[i], keys[i], std::vector<Value>{});
    it->second.second.push_back(rows[i].children()[1]);
  }
  std::map<std::string, std::pair<Value, Value>> entries;
  for (auto& [key_bytes, entry] : lists) {
    entries.emplace(key_bytes, std::make_pair(entry.first, Value::array(result.value_type(), std::move(entry.second))));
  }
  return map_from(result, entries);
}

/// Whether a row's argument is kept: NULL set_agg values are, other NULL arguments (and NULL keys of
/// multimap_agg, NULL values of the ROW-argument aggregates) are not.
bool keeps(AggregateFunction f, const Value& v) {
  if (f == AggregateFunction::kSetAgg || f == AggregateFunction::kReservoirSample) return true;
  if (v.is_null()) return false;
  switch (f) {
    case AggregateFunction::kMultimapAgg: return !v.children()[0].is_null();
    case AggregateFunction::kNumericHistogram: return !v.children()[1].is_null() && !v.children()[2].is_null();
    case AggregateFunction::kDifferentialEntropy: return !v.children()[1].is_null() && !v.children()[2].is_null();
    case AggregateFunction::kApproxMostFrequent: return !v.children()[1].is_null();
    case AggregateFunction::kClassificationMissRate:
    case AggregateFunction::kClassificationFallOut:
    case AggregateFunction::kClassificationPrecision:
    case AggregateFunction::kClassificationRecall:
    case AggregateFunction::kClassificationThresholds:
      return std::none_of(v.children().begin(), v.children().end(), [](const Value& c) { return c.is_null(); });
    default: return true;
  }
}

/// Every kept argument value of each group, and whether the group saw a row at all.
class CollectedState final : public AggregateState {
 public:
  explicit CollectedState(const AggregateSpec& spec)
      : function_(spec.function), input_(spec.input_type),
        result_(collected_result_type(spec.function, spec.input_type)) {}

  void resize(size_t groups) override {
    values_.resize(groups);
    seen_.resize(groups, 0);
  }
  void update(const uint32_t* ids, const Column* argument, size_t rows) override {
    for (size_t r = 0; r < rows; ++r) {
      seen_[ids[r]] = 1;
      Value v = argument->is_valid(r) ? argument->value_at(r) : Value::null(input_);
      if (keeps(function_, v)) values_[ids[r]].push_back(std::move(v));
    }
  }
  std::vector<ColumnPtr> export_state(size_t, size_t) const override { throw no_state(); }
  void merge(const uint32_t*, const std::vector<ColumnPtr>&, size_t) override { throw no_state(); }
  void merge_from(const AggregateState& other, const std::vector<uint32_t>& ids) override {
    const auto& o = dynamic_cast<const CollectedState&>(other);
    for (size_t g = 0; g < o.values_.size(); ++g) {
      auto& into = values_[ids[g]];
      into.insert(into.end(), o.values_[g].begin(), o.values_[g].end());
      seen_[ids[g]] |= o.seen_[g];
    }
  }
  ColumnPtr finalize(size_t first, size_t count) const override {
    std::vector<Value> out;
    out.reserve(count);
    for (size_t g = first; g < first + count; ++g) {
      std::vector<Value> values = values_[g];
      out.push_back(result_of(values, seen_[g] != 0));
    }
    return Column::from_values(result_, out);
  }

 private:
  NotImplemented no_state() const {
    return NotImplemented(std::string(plan::aggregate_function_name(function_)) +
                          " in partial or final aggregation mode");
  }
  Value result_of(std::vector<Value>& values, bool seen) const {
    // set_union of only NULL arrays is an empty array (Presto's documented rule); every other collecting aggregate
    // is NULL without a kept value.
    if (function_ == AggregateFunction::kSetUnion && seen) {
      std::vector<Value> elements;
      for (const Value& a : values) elements.insert(elements.end(), a.children().begin(), a.children().end());
      return Value::array(result_, sorted_distinct(result_.element_type(), elements));
    }
    if (values.empty()) return Value::null(result_);
    switch (function_) {
      case AggregateFunction::kSetAgg: return Value::array(result_, sorted_distinct(input_, values));
      case AggregateFunction::kHistogram: return histogram(result_, input_, values);
      case AggregateFunction::kMapUnion:
      case AggregateFunction::kMapUnionSum: return map_union(function_, result_, values);
      case AggregateFunction::kMultimapAgg: return multimap(result_, input_, values);
      case AggregateFunction::kNumericHistogram: return numeric_histogram_result(values, result_);
      case AggregateFunction::kDifferentialEntropy: return differential_entropy_result(values);
      case AggregateFunction::kApproxMostFrequent: return approx_most_frequent_result(values, result_);
      case AggregateFunction::kReservoirSample: return reservoir_sample_result(values, result_);
      default: return classification_result(function_, values, result_);
    }
  }

  AggregateFunction function_;
  LogicalType input_;
  LogicalType result_;
  std::vector<std::vector<Value>> values_;
  std::vector<uint8_t> seen_;
};

}  // namespace

std::vector<Value> sorted_distinct(const LogicalType& type, const std::vector<Value>& values) {
  const std::vector<std::string> keys = keys_of(type, values);
  std::vector<size_t> order(values.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return keys[a] < keys[b]; });
  std::vector<Value> out;
  for (size_t k = 0; k < order.size(); ++k) {
    if (k > 0 && keys[order[k]] == keys[order[k - 1]]) continue;
    out.push_back(values[order[k]]);
  }
  return out;
}

bool is_collected_aggregate(AggregateFunction function) {
  switch (function) {
    case AggregateFunction::kSetAgg:
    case AggregateFunction::kSetUnion:
    case AggregateFunction::kHistogram:
    case AggregateFunction::kMapUnion:
    case AggregateFunction::kMapUnionSum:
    case AggregateFunction::kMultimapAgg:
    case AggregateFunction::kNumericHistogram:
    case AggregateFunction::kClassificationMissRate:
    case AggregateFunction::kClassificationFallOut:
    case AggregateFunction::kClassificationPrecision:
    case AggregateFunction::kClassificationRecall:
    case AggregateFunction::kClassificationThresholds:
    case AggregateFunction::kDifferentialEntropy:
    case AggregateFunction::kApproxMostFrequent:
    case AggregateFunction::kReservoirSample: return true;
    default: return false;
  }
}

LogicalType collected_result_type(AggregateFunction function, const LogicalType& input) {
  const bool row = input.id() == TypeId::kRow;
  switch (function) {
    case AggregateFunction::kSetAgg: return LogicalType::array(input);
    case AggregateFunction::kSetUnion:
    case AggregateFunction::kMapUnion:
      if (input.id() == (function == AggregateFunction::kSetUnion ? TypeId::kArray : TypeId::kMap)) return input;
      break;
    case AggregateFunction::kMapUnionSum:
      if (input.id() == TypeId::kMap && (input.value_type().is_integral() || input.value_type().id() == TypeId::kReal ||
                                         input.value_type().id() == TypeId::kDouble)) {
        return input;
      }
      break;
    case AggregateFunction::kHistogram: return LogicalType::map(input, kBigInt);
    case AggregateFunction::kMultimapAgg:
      if (row && input.fields().size() == 2) {
        return LogicalType::map(input.fields()[0].type, LogicalType::array(input.fields()[1].type));
      }
      break;
    case AggregateFunction::kNumericHistogram: return LogicalType::map(kDouble, kDouble);
    case AggregateFunction::kClassificationMissRate:
    case AggregateFunction::kClassificationFallOut:
    case AggregateFunction::kClassificationPrecision:
    case AggregateFunction::kClassificationRecall:
    case AggregateFunction::kClassificationThresholds: return LogicalType::array(kDouble);
    case AggregateFunction::kDifferentialEntropy: return kDouble;
    case AggregateFunction::kApproxMostFrequent:
      if (row && input.fields().size() == 3) return LogicalType::map(input.fields()[1].type, kBigInt);
      break;
    case AggregateFunction::kReservoirSample:
      if (row && input.fields().size() == 4) {
        return LogicalType::row({RowField{"processed_count", kBigInt},
                                 RowField{"sample", LogicalType::array(input.fields()[2].type)}});
      }
      break;
    default: break;
  }
  throw NotImplemented(std::string(plan::aggregate_function_name(function)) + " of " + input.to_string());
}

std::unique_ptr<AggregateState> make_collected_state(const AggregateSpec& spec) {
  return std::make_unique<CollectedState>(spec);
}

}  // namespace kestrel::exec::aggregate_detail
