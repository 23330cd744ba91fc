#include "io/csv/csv_file_reader.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <thread>

#include "common/error.hpp"
#include "io/csv/csv_parallel.hpp"
#include "io/csv/csv_sniffer.hpp"

namespace kestrel {

namespace {

/// The sniffer stops growing its sample past this many bytes.
constexpr size_t kMaxSampleBytes = size_t{64} << 20;
/// Each parse thread gets at least this many bytes of a block.
constexpr size_t kMinChunkBytes = size_t{256} << 10;

bool is_line_break(char c) { return c == '\n' || c == '\r'; }

std::string lowercase(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// Column names as the schema holds them: empty ones become `column<i>`, repeated ones get `_1`, `_2`, ...
std::vector<std::string> unique_names(std::vector<std::string> names) {
  std::set<std::string> seen;
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i].empty()) names[i] = "column" + std::to_string(i);
    std::string name = names[i];
    for (int suffix = 1; seen.count(lowercase(name)) != 0; ++suffix) name = names[i] + "_" + std::to_string(suffix);
    names[i] = name;
    seen.insert(lowercase(name));
  }
  return names;
}

}  // namespace

/// Spare field-span vectors; any thread may take or give one.
class CsvFileReader::SpanPool {
 public:
  std::vector<CsvFieldSpan> take() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (free_.empty()) return {};
    std::vector<CsvFieldSpan> v = std::move(free_.back());
    free_.pop_back();
    return v;
  }
  void give(std::vector<CsvFieldSpan> v) {
    constexpr size_t kMaxFree = 8;
    v.clear();
    std::lock_guard<std::mutex> lock(mutex_);
    if (free_.size() < kMaxFree) free_.push_back(std::move(v));
  }

 private:
  std::mutex mutex_;
  std::vector<std::vector<CsvFieldSpan>> free_;
};

/// The result of tokenizing one chunk of a block.
struct CsvFileReader::Chunk {
  size_t start = 0;
  size_t end = 0;  ///< where the next record begins (the first byte not consumed)
  std::vector<CsvFieldSpan> fields;
  size_t records = 0;
  /// kRecord: stopped at the next chunk's start; otherwise how the chunk ended.
  CsvRecordStatus status = CsvRecordStatus::kRecord;
  bool field_count_error = false;
  size_t error_pos = 0;
  size_t error_fields = 0;
};

CsvFileReader::CsvFileReader(std::string path, const CsvOptions& options, const CsvTableLayout* table,
                             gpu::MemoryResource& mr)
    : path_(std::move(path)),
      options_(options),
      tokenizer_(options),
      mr_(mr),
      span_pool_(std::make_shared<SpanPool>()) {
  options_.validate();
  threads_ = options_.threads != 0 ? options_.threads : std::max(1u, std::thread::hardware_concurrency());
  accept_trailing_ = options_.trailing_delimiter != CsvTrailingDelimiter::kNo;
  file_ = std::fopen(path_.c_str(), "rb");
  if (file_ == nullptr) throw IoError("cannot open CSV file '" + path_ + "': " + std::strerror(errno));
  struct stat st {};
  if (::fstat(::fileno(file_), &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      std::fclose(file_);
      file_ = nullptr;
      throw IoError("cannot read CSV file '" + path_ + "': it is a directory");
    }
    regular_file_ = S_ISREG(st.st_mode);
    file_remaining_ = static_cast<size_t>(st.st_size);
  }
  refill();
  skip_lines();
  std::vector<std::string> header;
  if (options_.header) read_header(header);
  if (table == nullptr) {
    resolve_layout(header);
  } else {
    check_layout(header, *table);
  }
  block_fresh_ = true;
  if (num_columns_ == 0) done_ = true;
}

CsvFileReader::~CsvFileReader() {
  if (file_ != nullptr) std::fclose(file_);
}

size_t CsvFileReader::read_bytes(char* out, size_t bytes) {
  size_t got = 0;
  while (got < bytes) {
    size_t n = std::fread(out + got, 1, bytes - got, file_);
    if (n == 0) {
      if (std::ferror(file_)) throw IoError("cannot read CSV file '" + path_ + "': " + std::strerror(errno));
      break;
    }
    got += n;
  }
  return got;
}

void CsvFileReader::refill() {
  const size_t carry = block_ ? block_->size - pos_ : 0;
  if (eof_ && block_) return;
  if (carry + options_.block_size > kCsvMaxBlockBytes) {
    throw InvalidInput(where(block_->line_of(pos_)) + ": a record is longer than " +
                       std::to_string(kCsvMaxBlockBytes >> 20) + " MiB");
  }
  // Ask for one byte past the expected end of the file so that the end is seen without a second read.
  const size_t want = regular_file_ ? std::min(options_.block_size, file_remaining_ + 1) : options_.block_size;
  auto next = block_pool_->acquire(carry + want);
  if (carry > 0) std::memcpy(next->data.get(), block_->data.get() + pos_, carry);
  next->first_line = block_ ? block_->line_of(pos_) : 1;
  const size_t got = read_bytes(next->data.get() + carry, want);
  file_remaining_ -= std::min(file_remaining_, got);
  if (got < want) eof_ = true;
  next->size = carry + got;
  block_ = std::move(next);
  pos_ = 0;
}

void CsvFileReader::skip_lines() {
  for (size_t skipped = 0; skipped < options_.skip_rows;) {
    const char* data = block_->data.get();
    const void* nl = std::memchr(data + pos_, '\n', block_->size - pos_);
    if (nl != nullptr) {
      pos_ = static_cast<size_t>(static_cast<const char*>(nl) - data) + 1;
      ++skipped;
      continue;
    }
    pos_ = block_->size;
    if (eof_) return;
    refill();
  }
}

std::string CsvFileReader::where(uint64_t line) const {
  return "CSV file '" + path_ + "' line " + std::to_string(line);
}

std::string CsvFileReader::record_error(CsvRecordStatus status, size_t error_pos, size_t fields) const {
  const std::string at = where(block_->line_of(error_pos));
  switch (status) {
    case CsvRecordStatus::kUnterminatedQuote:
      return at + ": unterminated quoted field (the quote opened here runs to the end of the file)";
    case CsvRecordStatus::kBadAfterQuote: {
      const unsigned char c = static_cast<unsigned char>(block_->data[error_pos]);
      std::string shown = c >= 0x20 && c < 0x7f ? std::string(1, static_cast<char>(c)) : "\\x" + std::to_string(c);
      return at + ": unexpected character '" + shown + "' after a closing quote";
    }
    default:
      return at + ": expected " + std::to_string(num_columns_) + " fields, found " + std::to_string(fields);
  }
}

void CsvFileReader::throw_record_error(CsvRecordStatus status, size_t error_pos, size_t fields) const {
  throw InvalidInput(record_error(status, error_pos, fields));
}

bool CsvFileReader::read_header(std::vector<std::string>& names) {
  std::vector<CsvFieldSpan> fields;
  for (;;) {
    size_t record_start = 0, error_pos = 0;
    CsvRecordStatus status =
        tokenizer_.next_record(block_->data.get(), block_->size, eof_, pos_, record_start, fields, error_pos);
    if (status == CsvRecordStatus::kNeedMore) {
      refill();
      continue;
    }
    if (status == CsvRecordStatus::kEnd) return false;
    if (status != CsvRecordStatus::kRecord) throw_record_error(status, error_pos, 0);
    break;
  }
  // A header that ends with a delimiter has an empty last name: part of the trailing delimiter, not a column.
  if (fields.size() > 1 && accept_trailing_ && fields.back().length() == 0 && !fields.back().quoted()) {
    fields.pop_back();
  }
  for (const CsvFieldSpan& f : fields) {
    std::string name;
    tokenizer_.unescape(std::string_view(block_->data.get() + f.begin, f.length()), name);
    names.push_back(std::move(name));
  }
  return true;
}

void CsvFileReader::resolve_layout(const std::vector<std::string>& header) {
  // Tokenize a sample without consuming it: the field counts and, when needed, the values for sniffing.
  std::vector<CsvFieldSpan> fields;
  std::vector<size_t> counts;
  for (size_t p = pos_; counts.size() < options_.sample_size || counts.empty();) {
    size_t record_start = 0, error_pos = 0, before = fields.size();
    CsvRecordStatus status =
        tokenizer_.next_record(block_->data.get(), block_->size, eof_, p, record_start, fields, error_pos);
    if (status == CsvRecordStatus::kRecord) {
      counts.push_back(fields.size() - before);
      continue;
    }
    if (status == CsvRecordStatus::kEnd) break;
    if (status != CsvRecordStatus::kNeedMore) throw_record_error(status, error_pos, 0);
    if (!counts.empty() && block_->size - pos_ >= kMaxSampleBytes) break;
    refill();  // keeps every byte from pos_ on: restart the sample in the bigger block
    fields.clear();
    counts.clear();
    p = pos_;
  }

  // Trailing delimiter: every sampled line ends with an empty, unquoted extra field.
  bool trailing = options_.trailing_delimiter == CsvTrailingDelimiter::kYes;
  if (options_.trailing_delimiter == CsvTrailingDelimiter::kAuto && !counts.empty()) {
    trailing = true;
    size_t offset = 0;
    for (size_t n : counts) {
      const CsvFieldSpan& last = fields[offset + n - 1];
      trailing &= n >= 2 && last.length() == 0 && !last.quoted();
      offset += n;
    }
  }
  if (!options_.columns.empty()) {
    num_columns_ = options_.columns.size();
  } else if (options_.header && !header.empty()) {
    num_columns_ = header.size();
  } else if (!counts.empty()) {
    num_columns_ = counts[0] - (trailing && counts[0] > 1 ? 1 : 0);
  }

  std::vector<std::string> names;
  std::vector<LogicalType> types(num_columns_, TypeId::kVarchar);
  layout_.sniffed.assign(num_columns_, false);
  layout_.header_names = header;
  layout_.first_file = path_;
  if (!options_.columns.empty()) {
    for (const Field& f : options_.columns) {
      names.push_back(f.name);
      types[names.size() - 1] = f.type;
    }
  } else {
    for (size_t i = 0; i < num_columns_; ++i) {
      names.push_back(i < header.size() ? header[i] : "column" + std::to_string(i));
    }
    CsvTypeSniffer sniffer(num_columns_, options_.null_string.value_or(""));
    std::string scratch;
    size_t offset = 0;
    for (size_t n : counts) {
      if (n == num_columns_ || (n == num_columns_ + 1 && accept_trailing_)) {
        for (size_t c = 0; c < num_columns_; ++c) {
          const CsvFieldSpan& f = fields[offset + c];
          std::string_view text(block_->data.get() + f.begin, f.length());
          if (f.escaped()) {
            scratch.clear();
            tokenizer_.unescape(text, scratch);
            text = scratch;
          }
          sniffer.observe(c, text, f.quoted());
        }
      }
      offset += n;
    }
    for (size_t c = 0; c < num_columns_; ++c) types[c] = sniffer.type_of(c);
    layout_.sniffed.assign(num_columns_, true);
  }
  if (!options_.names.empty()) {
    if (options_.names.size() != num_columns_) {
      throw InvalidInput("CSV file '" + path_ + "': option 'names' gives " + std::to_string(options_.names.size()) +
                         " names for " + std::to_string(num_columns_) + " columns");
    }
    names = options_.names;
  }
  names = unique_names(std::move(names));
  std::vector<Field> schema_fields;
  for (size_t c = 0; c < num_columns_; ++c) schema_fields.push_back(Field{names[c], types[c], true});
  Schema schema(std::move(schema_fields));
  std::vector<Field> resolved = schema.fields();
  for (const Field& given : options_.column_types) {
    auto index = schema.index_of(given.name);
    if (!index) {
      throw InvalidInput("CSV file '" + path_ + "': option 'types' names column '" + given.name +
                         "', which the file does not have (columns: " + schema.to_string() + ")");
    }
    resolved[*index].type = given.type;
    layout_.sniffed[*index] = false;
  }
  for (const Field& f : resolved) {
    if (f.type.id() == TypeId::kInterval || f.type.id() == TypeId::kNull) {
      throw NotImplemented("CSV reader: column '" + f.name + "' of type " + f.type.to_string() +
                           " is not supported");
    }
  }
  layout_.schema = std::make_shared<const Schema>(std::move(resolved));
}

void CsvFileReader::check_layout(const std::vector<std::string>& header, const CsvTableLayout& table) {
  layout_ = table;
  num_columns_ = table.schema->size();
  if (!options_.header || !options_.columns.empty() || !options_.names.empty()) return;
  bool same = header.size() == table.header_names.size();
  for (size_t i = 0; same && i < header.size(); ++i) {
    same = lowercase(header[i]) == lowercase(table.header_names[i]);
  }
  if (!same) {
    auto join = [](const std::vector<std::string>& v) {
      std::string s;
      for (const std::string& n : v) s += (s.empty() ? "" : ", ") + n;
      return s;
    };
    throw InvalidInput("CSV file '" + path_ + "': header (" + join(header) + ") differs from that of '" +
                       table.first_file + "' (" + join(table.header_names) + ")");
  }
}

void CsvFileReader::tokenize_chunk(size_t start, size_t stop, Chunk& chunk) const {
  const char* data = block_->data.get();
  const size_t size = block_->size;
  chunk.start = start;
  chunk.fields = span_pool_->take();
  chunk.fields.reserve(std::min(stop, size) > start ? (std::min(stop, size) - start) / 8 : 16);
  size_t pos = start;
  for (;;) {
    size_t record_start = 0, error_pos = 0, before = chunk.fields.size(), next = pos;
    CsvRecordStatus status = tokenizer_.next_record(data, size, eof_, next, record_start, chunk.fields, error_pos);
    if (status == CsvRecordStatus::kRecord) {
      if (record_start >= stop) {
        chunk.fields.resize(before);
        chunk.end = record_start;
        chunk.status = CsvRecordStatus::kRecord;
        return;
      }
      const size_t n = chunk.fields.size() - before;
      if (n != num_columns_) {
        const CsvFieldSpan& last = chunk.fields.back();
        if (accept_trailing_ && n == num_columns_ + 1 && last.length() == 0 && !last.quoted()) {
          chunk.fields.pop_back();
        } else {
          chunk.fields.resize(before);
          chunk.end = record_start;
          chunk.status = CsvRecordStatus::kRecord;
          chunk.field_count_error = true;
          chunk.error_pos = record_start;
          chunk.error_fields = n;
          return;
        }
      }
      ++chunk.records;
      pos = next;
      continue;
    }
    chunk.status = status;
    chunk.end = status == CsvRecordStatus::kEnd || status == CsvRecordStatus::kNeedMore ? next : pos;
    chunk.error_pos = error_pos;
    return;
  }
}

void CsvFileReader::tokenize_block() {
  if (!block_fresh_) refill();
  block_fresh_ = false;
  const char* data = block_->data.get();
  const size_t size = block_->size;
  const size_t bytes = size - pos_;
  const size_t pieces = std::max<size_t>(1, std::min(threads_, bytes / kMinChunkBytes));

  // Speculative chunk starts: just past the first '\n' at or after each even split point.
  std::vector<size_t> starts{pos_};
  for (size_t i = 1; i < pieces; ++i) {
    size_t from = std::max(pos_ + bytes / pieces * i, starts.back());
    const void* nl = std::memchr(data + from, '\n', size - from);
    if (nl == nullptr) break;
    size_t s = static_cast<size_t>(static_cast<const char*>(nl) - data) + 1;
    if (s >= size) break;
    if (s > starts.back()) starts.push_back(s);
  }
  std::vector<Chunk> chunks(starts.size());
  csv::run_parallel(starts.size(), threads_, [&](size_t i) {
    tokenize_chunk(starts[i], i + 1 < starts.size() ? starts[i + 1] : SIZE_MAX, chunks[i]);
  });

  // Keep chunks while each begins where its predecessor really ended; past a mismatch (the split point fell
  // inside a quoted field) parse the rest of the block on this thread.
  size_t end = pos_;
  std::vector<Chunk*> accepted;
  Chunk fallback;
  for (size_t i = 0; i < chunks.size(); ++i) {
    Chunk* chunk = &chunks[i];
    size_t effective = chunk->start;
    while (effective < size && is_line_break(data[effective])) ++effective;
    if (i > 0 && effective != end) {
      tokenize_chunk(end, SIZE_MAX, fallback);
      chunk = &fallback;
    }
    accepted.push_back(chunk);
    end = chunk->end;
    if (chunk->field_count_error || chunk->status != CsvRecordStatus::kRecord || chunk == &fallback) break;
  }
  const Chunk& last = *accepted.back();
  for (Chunk* chunk : accepted) {
    if (chunk->records == 0) continue;
    std::shared_ptr<SpanPool> pool = span_pool_;
    std::shared_ptr<const std::vector<CsvFieldSpan>> fields(
        new std::vector<CsvFieldSpan>(std::move(chunk->fields)), [pool](const std::vector<CsvFieldSpan>* v) {
          pool->give(std::move(*const_cast<std::vector<CsvFieldSpan>*>(v)));
          delete v;
        });
    pending_.push_back(PendingRun{block_, std::move(fields), 0, chunk->records});
    pending_rows_ += chunk->records;
  }
  pos_ = end;
  if (last.field_count_error) {
    deferred_error_ = record_error(CsvRecordStatus::kRecord, last.error_pos, last.error_fields);
    done_ = true;
  } else if (last.status == CsvRecordStatus::kEnd) {
    done_ = true;
  } else if (last.status == CsvRecordStatus::kUnterminatedQuote || last.status == CsvRecordStatus::kBadAfterQuote) {
    deferred_error_ = record_error(last.status, last.error_pos, 0);
    done_ = true;
  }
}

void CsvFileReader::build_batches() {
  const size_t batch_size = options_.batch_size;
  struct Plan {
    std::vector<PendingRun> owners;
    std::vector<CsvRecordRun> runs;
    size_t rows = 0;
  };
  std::vector<Plan> plans;
  while (pending_rows_ >= batch_size || (done_ && pending_rows_ > 0)) {
    Plan plan;
    while (plan.rows < batch_size && !pending_.empty()) {
      PendingRun& front = pending_.front();
      const size_t take = std::min(batch_size - plan.rows, front.records - front.first);
      plan.owners.push_back(front);
      plan.runs.push_back(CsvRecordRun{front.block.get(), front.fields->data() + front.first * num_columns_, take});
      plan.rows += take;
      front.first += take;
      pending_rows_ -= take;
      if (front.first == front.records) pending_.pop_front();
    }
    plans.push_back(std::move(plan));
  }
  const size_t columns = num_columns_;
  std::vector<ColumnPtr> built(plans.size() * columns);
  std::vector<std::optional<CsvCellError>> errors(plans.size() * columns);
  const Schema& schema = *layout_.schema;
  csv::run_parallel(built.size(), threads_, [&](size_t task) {
    const size_t plan = task / columns, column = task % columns;
    CsvColumnSpec spec;
    spec.type = schema.field(column).type;
    spec.index = column;
    spec.num_columns = columns;
    spec.allow_decimal_rounding = !layout_.sniffed[column];
    spec.null_string = &options_.null_string;
    spec.tokenizer = &tokenizer_;
    CsvCellError error;
    built[task] = build_csv_column(spec, plans[plan].runs, plans[plan].rows, mr_, error);
    if (!built[task]) errors[task] = std::move(error);
  });
  // Report the bad field that comes first in the file: earliest batch, then row, then column.
  const CsvCellError* first = nullptr;
  size_t first_column = 0;
  for (size_t plan = 0; plan < plans.size() && first == nullptr; ++plan) {
    for (size_t column = 0; column < columns; ++column) {
      const auto& e = errors[plan * columns + column];
      if (e && (first == nullptr || e->row < first->row)) {
        first = &*e;
        first_column = column;
      }
    }
  }
  if (first != nullptr) {
    std::string message = where(first->block->line_of(first->offset)) + ", column '" +
                          schema.field(first_column).name + "': " + first->what;
    if (layout_.sniffed[first_column] && schema.field(first_column).type.id() != TypeId::kVarchar) {
      message += " (the type was sniffed from the first " + std::to_string(options_.sample_size) +
                 " rows; give the column's type with the 'types' option)";
    }
    throw InvalidInput(message);
  }
  for (size_t plan = 0; plan < plans.size(); ++plan) {
    std::vector<ColumnPtr> cols(built.begin() + plan * columns, built.begin() + (plan + 1) * columns);
    ready_.emplace_back(layout_.schema, std::move(cols), plans[plan].rows, mr_.kind());
  }
}

std::optional<Batch> CsvFileReader::next_batch() {
  if (failed_) throw InvalidInput(*failed_);
  try {
    while (ready_.empty()) {
      while (pending_rows_ < options_.batch_size && !done_) tokenize_block();
      if (pending_rows_ == 0) {
        if (deferred_error_) throw InvalidInput(*deferred_error_);
        return std::nullopt;
      }
      build_batches();
    }
  } catch (const InvalidInput& e) {
    failed_ = e.message();
    throw;
  }
  Batch batch = std::move(ready_.front());
  ready_.pop_front();
  return batch;
}

}  // namespace kestrel
