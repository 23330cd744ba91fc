// The statistical collecting aggregates: numeric_histogram (Ben-Haim and Tom-Tov's merging of the closest bins,
// computed over all values at once), the classification metrics (Presto's fixed histograms of the predictions),
// differential_entropy (Vasicek's estimator as refined by Alizadeh Noughabi and Arghami over a reservoir sample, or
// the maximum-likelihood estimate over a fixed histogram), approx_most_frequent (exact counts) and reservoir_sample.
// Each reads the ROW of its arguments per kept row; the constant arguments are read from the first row.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <numeric>
#include <queue>
#include <random>
#include <string>

#include "exec/ops/hash_aggregate/aggregate_collected.hpp"
#include "vector/nested_column.hpp"

namespace kestrel::exec::aggregate_detail {

namespace {

using plan::AggregateFunction;

[[noreturn]] void bad(const char* function, const std::string& why) {
  throw InvalidInput(std::string(function) + ": " + why, "22023");
}

const Value& field(const Value& row, size_t i) { return row.children()[i]; }
double number(const Value& v) { return v.as_double(); }

}  // namespace

Value numeric_histogram_result(std::vector<Value>& values, const LogicalType& result) {
  const int64_t buckets = field(values[0], 0).is_null() ? 0 : field(values[0], 0).as_int64();
  if (buckets < 2) bad("numeric_histogram", "the bucket count must be at least 2, got " + std::to_string(buckets));
  // Bins (centre, weight) in ascending order, equal values together.
  std::vector<std::pair<double, double>> bins;
  for (const Value& row : values) bins.emplace_back(number(field(row, 1)), number(field(row, 2)));
  std::sort(bins.begin(), bins.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::pair<double, double>> merged;
  for (const auto& b : bins) {
    if (!merged.empty() && merged.back().first == b.first) {
      merged.back().second += b.second;
    } else {
      merged.push_back(b);
    }
  }
  // Merge the two adjacent bins closest together (the leftmost pair among equals) until `buckets` are left; the
  // merged bin sits at the weighted mean of the two. The bins form a linked list and the gaps a heap, so each merge
  // costs log n; a heap entry whose bins changed since it was pushed is stale and skipped.
  const size_t n = merged.size();
  std::vector<size_t> next(n), prev(n);
  std::vector<uint32_t> version(n, 0);
  std::vector<uint8_t> alive(n, 1);
  for (size_t i = 0; i < n; ++i) {
    next[i] = i + 1;
    prev[i] = i == 0 ? SIZE_MAX : i - 1;
  }
  struct Gap {
    double gap;
    size_t left;
    uint32_t left_version, right_version;
  };
  auto later = [](const Gap& a, const Gap& b) { return a.gap != b.gap ? a.gap > b.gap : a.left > b.left; };
  std::priority_queue<Gap, std::vector<Gap>, decltype(later)> gaps(later);
  auto push = [&](size_t left) {
    const size_t right = next[left];
    if (right < n) gaps.push({merged[right].first - merged[left].first, left, version[left], version[right]});
  };
  for (size_t i = 0; i + 1 < n; ++i) push(i);
  for (size_t bins = n; bins > static_cast<size_t>(buckets) && !gaps.empty();) {
    const Gap g = gaps.top();
    gaps.pop();
    const size_t left = g.left, right = next[left];
    if (!alive[left] || right >= n || version[left] != g.left_version || version[right] != g.right_version) continue;
    auto& [x, w] = merged[left];
    const auto [y, v] = merged[right];
    const double total = w + v;
    x = total == 0 ? (x + y) / 2 : (x * w + y * v) / total;
    w = total;
    alive[right] = 0;
    next[left] = next[right];
    if (next[right] < n) prev[next[right]] = left;
    ++version[left];
    --bins;
    push(left);
    if (prev[left] != SIZE_MAX) push(prev[left]);
  }
  std::vector<std::pair<double, double>> kept;
  for (size_t i = 0; i < n; ++i) {
    if (alive[i]) kept.push_back(merged[i]);
  }
  merged = std::move(kept);
  std::vector<Value> keys, weights;
  for (const auto& [x, w] : merged) {
    keys.push_back(Value::double_value(x));
    weights.push_back(Value::double_value(w));
  }
  return Value::map(result, keys, weights);
}

Value classification_result(AggregateFunction function, std::vector<Value>& values, const LogicalType& result) {
  const char* name = plan::aggregate_function_name(function);
  const int64_t buckets = field(values[0], 0).as_int64();
  if (buckets < 2) bad(name, "the bucket count must be at least 2, got " + std::to_string(buckets));
  if (buckets > 1'000'000) bad(name, "the bucket count must be at most 1000000, got " + std::to_string(buckets));
  // Per bucket of the prediction the weight of true and of false outcomes.
  std::vector<double> weight_true(static_cast<size_t>(buckets), 0.0), weight_false(static_cast<size_t>(buckets), 0.0);
  double total_true = 0, total_false = 0;
  int64_t used = -1;  // the last bucket holding a true outcome
  for (const Value& row : values) {
    const bool outcome = field(row, 1).as_bool();
    const double prediction = number(field(row, 2)), weight = number(field(row, 3));
    if (!(prediction >= 0.0 && prediction <= 1.0)) {
      bad(name, "the prediction must be in [0, 1], got " + field(row, 2).to_string());
    }
    if (weight < 0) bad(name, "the weight must not be negative, got " + field(row, 3).to_string());
    if (weight == 0) continue;
    // A prediction of 1 falls in the last bucket.
    const double scaled = static_cast<double>(buckets) * std::min(prediction, 0.99999999999);
    const auto index = std::min(static_cast<int64_t>(scaled), buckets - 1);
    (outcome ? weight_true : weight_false)[static_cast<size_t>(index)] += weight;
    (outcome ? total_true : total_false) += weight;
    if (outcome) used = std::max(used, index);
  }
  // Entry j is the metric at threshold j / buckets: the predictions in bucket j and above count as positive.
  std::vector<Value> out;
  double below_true = 0, below_false = 0;
  for (int64_t j = 0; j <= used; ++j) {
    const double true_positive = total_true - below_true;
    const double false_positive = std::max(total_false - below_false, 0.0);
    double v = 0;
    switch (function) {
      case AggregateFunction::kClassificationFallOut: v = false_positive / total_false; break;
      case AggregateFunction::kClassificationPrecision: v = true_positive / (true_positive + false_positive); break;
      case AggregateFunction::kClassificationRecall: v = true_positive / total_true; break;
      case AggregateFunction::kClassificationMissRate: v = below_true / total_true; break;
      default: v = static_cast<double>(j) / static_cast<double>(buckets); break;
    }
    out.push_back(Value::double_value(v));
    below_true += weight_true[static_cast<size_t>(j)];
    below_false += weight_false[static_cast<size_t>(j)];
  }
  return Value::array(result, std::move(out));
}

namespace {

/// Vasicek's estimator of the log-2 entropy of sorted samples with Alizadeh Noughabi and Arghami's weights: the
/// mean over i of log(n / (a_i m) (x[i + m] - x[i - m])), m = max(round(sqrt(n)), 2), indices clamped to the ends,
/// a_i = 2 inside and 1 where a side was clamped.
double vasicek_entropy(std::vector<double>& x) {
  if (x.empty()) return std::nan("");
  std::sort(x.begin(), x.end());
  const auto n = static_cast<int64_t>(x.size());
  const int64_t m = std::max<int64_t>(std::llround(std::sqrt(static_cast<double>(n))), 2);
  double sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    const bool up = i + m < n, down = i - m > 0;
    const double hi = up ? x[static_cast<size_t>(i + m)] : x[static_cast<size_t>(n - 1)];
    const double lo = down ? x[static_cast<size_t>(i - m)] : x[0];
    const double a = up && down ? 2.0 : 1.0;
    sum += std::log(static_cast<double>(n) / (a * static_cast<double>(m)) * (hi - lo));
  }
  return sum / static_cast<double>(n) / std::log(2.0);
}

/// At most `size` of the (value, weight) samples: all of them when they fit, else a weighted random sample
/// (Efraimidis and Spirakis: the largest u^(1/w) keys).
std::vector<double> reservoir(const std::vector<std::pair<double, double>>& samples, int64_t size) {
  std::vector<double> out;
  if (static_cast<int64_t>(samples.size()) <= size) {
    for (const auto& s : samples) out.push_back(s.first);
    return out;
  }
  std::mt19937_64 random(std::random_device{}());
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::vector<std::pair<double, double>> keyed;
  for (const auto& [x, w] : samples) {
    if (w > 0) keyed.emplace_back(std::pow(uniform(random), 1.0 / w), x);
  }
  const size_t keep = std::min(keyed.size(), static_cast<size_t>(size));
  std::partial_sort(keyed.begin(), keyed.begin() + static_cast<ptrdiff_t>(keep), keyed.end(),
                    [](const auto& a, const auto& b) { return a.first > b.first; });
  for (size_t i = 0; i < keep; ++i) out.push_back(keyed[i].second);
  return out;
}

double x_log_x(double x) { return x > 0 ? x * std::log(x) : 0.0; }

/// The log-2 entropy of a histogram of bins `width` wide from its total weight and the sum of w log w over its bins:
/// log(width * W) - sum(w log w) / W, at least 0.
double histogram_entropy(double width, double total, double w_log_w) {
  return std::max((std::log(width * total) - w_log_w / total) / std::log(2.0), 0.0);
}

}  // namespace

Value differential_entropy_result(std::vector<Value>& values) {
  const char* name = "differential_entropy";
  const Value& first = values[0];
  const int64_t size = field(first, 0).is_null() ? 0 : field(first, 0).as_int64();
  const std::string method = field(first, 3).is_null() ? "" : field(first, 3).as_string();
  std::vector<std::pair<double, double>> samples;
  for (const Value& row : values) {
    const double weight = number(field(row, 2));
    if (weight < 0) bad(name, "the weight must not be negative, got " + field(row, 2).to_string());
    samples.emplace_back(number(field(row, 1)), weight);
  }
  if (method.empty()) {
    if (size <= 0) bad(name, "the maximum number of samples must be positive, got " + std::to_string(size));
    std::vector<double> kept = reservoir(samples, size);
    return Value::double_value(vasicek_entropy(kept));
  }
  if (method != "fixed_histogram_mle" && method != "fixed_histogram_jacknife") {
    bad(name, "the method must be 'fixed_histogram_mle' or 'fixed_histogram_jacknife', not '" + method + "'");
  }
  if (size <= 0 || size > 1'000'000) {
    bad(name, "the bucket count must be between 1 and 1000000, got " + std::to_string(size));
  }
  const double lo = number(field(first, 4)), hi = number(field(first, 5));
  if (!(lo < hi)) bad(name, "min must be less than max");
  // Per bucket its total weight and, for the jackknife, how many rows of each weight it holds.
  std::vector<double> bucket(static_cast<size_t>(size), 0.0);
  std::vector<std::map<double, int64_t>> rows_of_weight(static_cast<size_t>(size));
  for (const auto& [x, w] : samples) {
    if (x < lo || x > hi) bad(name, "the value " + std::to_string(x) + " is outside [min, max]");
    const auto i = static_cast<size_t>(
        std::min(static_cast<int64_t>(static_cast<double>(size) * (x - lo) / (hi - lo)), size - 1));
    bucket[i] += w;
    ++rows_of_weight[i][w];
  }
  double total = 0, w_log_w = 0;
  for (const double w : bucket) {
    total += w;
    w_log_w += x_log_x(w);
  }
  if (total <= 0) return Value::double_value(std::nan(""));
  const double width = (hi - lo) / static_cast<double>(size);
  const double entropy = histogram_entropy(width, total, w_log_w);
  if (method == "fixed_histogram_mle") return Value::double_value(entropy);
  // The jackknife: n H - (n - 1) / n * sum over the rows of H without that row (rows of one bucket and weight give
  // the same term).
  const auto n = static_cast<double>(samples.size());
  double corrected = n * entropy;
  for (size_t b = 0; b < bucket.size(); ++b) {
    if (bucket[b] <= 0) continue;
    for (const auto& [w, count] : rows_of_weight[b]) {
      const double held_bucket = std::max(bucket[b] - w, 0.0);
      const double held_total = total - bucket[b] + held_bucket;
      const double held_w_log_w = w_log_w - x_log_x(bucket[b]) + x_log_x(held_bucket);
      if (held_total <= 0) continue;
      corrected -= static_cast<double>(count) * (n - 1) / n * histogram_entropy(width, held_total, held_w_log_w);
    }
  }
  return Value::double_value(corrected);
}

Value approx_most_frequent_result(std::vector<Value>& values, const LogicalType& result) {
  const int64_t buckets = field(values[0], 0).is_null() ? 0 : field(values[0], 0).as_int64();
  if (buckets < 1) {
    bad("approx_most_frequent", "the number of buckets must be positive, got " + std::to_string(buckets));
  }
  std::vector<Value> items;
  for (const Value& row : values) items.push_back(field(row, 1));
  const ColumnPtr column = Column::from_values(result.key_type(), items);
  std::map<std::string, std::pair<Value, int64_t>> counts;
  for (size_t i = 0; i < items.size(); ++i) {
    std::string key;
    append_key_bytes(*column, i, key);
    auto [it, added] = counts.try_emplace(std::move(key), items[i], 0);
    ++it->second.second;
  }
  // The `buckets` most frequent, ties to the smaller value; listed in ascending order of value.
  std::vector<std::pair<std::string, std::pair<Value, int64_t>>> ranked(counts.begin(), counts.end());
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.second.second > b.second.second; });
  if (ranked.size() > static_cast<size_t>(buckets)) ranked.resize(static_cast<size_t>(buckets));
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Value> keys, frequencies;
  for (const auto& [bytes, entry] : ranked) {
    keys.push_back(entry.first);
    frequencies.push_back(Value::bigint(entry.second));
  }
  return Value::map(result, keys, frequencies);
}

Value reservoir_sample_result(std::vector<Value>& values, const LogicalType& result) {
  const char* name = "reservoir_sample";
  const Value& first = values[0];
  const int64_t size = field(first, 3).is_null() ? 0 : field(first, 3).as_int64();
  if (size <= 0) bad(name, "the sample size must be positive, got " + std::to_string(size));
  const Value& initial = field(first, 0);
  int64_t seen = field(first, 1).is_null() ? 0 : field(first, 1).as_int64();
  std::vector<Value> sample;
  if (!initial.is_null()) {
    sample = initial.children();
    if (static_cast<int64_t>(sample.size()) > size) {
      bad(name, "the initial sample has " + std::to_string(sample.size()) + " values, more than the sample size " +
                    std::to_string(size));
    }
    if (seen < static_cast<int64_t>(sample.size())) {
      bad(name, "the initial processed count " + std::to_string(seen) + " is less than the initial sample's size");
    }
  } else if (seen != 0) {
    bad(name, "the initial processed count must be 0 without an initial sample, got " + std::to_string(seen));
  }
  // Vitter's algorithm R: the k-th value seen replaces a random element with probability size / k.
  std::mt19937_64 random(std::random_device{}());
  for (const Value& row : values) {
    ++seen;
    if (static_cast<int64_t>(sample.size()) < size) {
      sample.push_back(field(row, 2));
      continue;
    }
    const auto j = std::uniform_int_distribution<int64_t>(0, seen - 1)(random);
    if (j < size) sample[static_cast<size_t>(j)] = field(row, 2);
  }
  const LogicalType& array = result.fields()[1].type;
  return Value::row(result, {Value::bigint(seen), Value::array(array, std::move(sample))});
}

}  // namespace kestrel::exec::aggregate_detail
