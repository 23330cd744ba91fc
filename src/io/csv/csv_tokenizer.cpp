#include "io/csv/csv_tokenizer.hpp"

namespace kestrel {

CsvTokenizer::CsvTokenizer(const CsvOptions& options)
    : delimiter_(options.delimiter),
      quote_(options.quote),
      has_quote_(options.has_quote),
      escape_(options.escape_char()) {
  field_end_[static_cast<unsigned char>(delimiter_)] = true;
  field_end_[static_cast<unsigned char>('\n')] = true;
  field_end_[static_cast<unsigned char>('\r')] = true;
  quoted_stop_[static_cast<unsigned char>(quote_)] = true;
  quoted_stop_[static_cast<unsigned char>(escape_)] = true;
}

namespace {

CsvFieldSpan make_span(size_t begin, size_t end, uint32_t flags) {
  return CsvFieldSpan{static_cast<uint32_t>(begin), static_cast<uint32_t>((end - begin) << 2) | flags};
}

}  // namespace

CsvRecordStatus CsvTokenizer::next_record(const char* data, size_t limit, bool at_eof, size_t& pos,
                                          size_t& record_start, std::vector<CsvFieldSpan>& fields,
                                          size_t& error_pos) const {
  size_t p = pos;
  while (p < limit && (data[p] == '\n' || data[p] == '\r')) ++p;
  if (p >= limit) {
    if (at_eof) {
      pos = p;
      return CsvRecordStatus::kEnd;
    }
    pos = p;  // blank lines are consumed even when more data is needed
    return CsvRecordStatus::kNeedMore;
  }
  const size_t start = p;
  const size_t first_field = fields.size();
  auto fail = [&](CsvRecordStatus status) {
    fields.resize(first_field);
    return status;
  };
  for (;;) {
    // One field starts at p (p may equal limit only at the end of the file, after a delimiter).
    if (has_quote_ && p < limit && data[p] == quote_) {
      const size_t open = p;
      const size_t begin = ++p;
      uint32_t flags = CsvFieldSpan::kQuoted;
      for (;;) {
        while (p < limit && !quoted_stop_[static_cast<unsigned char>(data[p])]) ++p;
        if (p >= limit) {
          if (!at_eof) return fail(CsvRecordStatus::kNeedMore);
          error_pos = open;
          return fail(CsvRecordStatus::kUnterminatedQuote);
        }
        if (data[p] == escape_ && escape_ != quote_) {
          if (p + 1 >= limit) {
            if (!at_eof) return fail(CsvRecordStatus::kNeedMore);
            error_pos = open;
            return fail(CsvRecordStatus::kUnterminatedQuote);
          }
          flags |= CsvFieldSpan::kEscaped;
          p += 2;
          continue;
        }
        // data[p] is the quote: either a doubled quote (when the escape is the quote) or the closing one.
        if (escape_ == quote_) {
          if (p + 1 >= limit && !at_eof) return fail(CsvRecordStatus::kNeedMore);
          if (p + 1 < limit && data[p + 1] == quote_) {
            flags |= CsvFieldSpan::kEscaped;
            p += 2;
            continue;
          }
        }
        break;
      }
      fields.push_back(make_span(begin, p, flags));
      ++p;  // the closing quote
      if (p >= limit) {
        if (!at_eof) return fail(CsvRecordStatus::kNeedMore);
        break;
      }
      const char c = data[p];
      if (c == delimiter_) {
        ++p;
        continue;
      }
      if (c == '\n' || c == '\r') break;
      error_pos = p;
      return fail(CsvRecordStatus::kBadAfterQuote);
    }
    const size_t begin = p;
    while (p < limit && !field_end_[static_cast<unsigned char>(data[p])]) ++p;
    if (p >= limit && !at_eof) return fail(CsvRecordStatus::kNeedMore);
    fields.push_back(make_span(begin, p, 0));
    if (p < limit && data[p] == delimiter_) {
      ++p;
      continue;
    }
    break;
  }
  // p is at '\n', '\r' or the end of the file.
  if (p < limit && data[p] == '\r') {
    ++p;
    if (p < limit && data[p] == '\n') ++p;
  } else if (p < limit) {
    ++p;
  }
  record_start = start;
  pos = p;
  return CsvRecordStatus::kRecord;
}

size_t CsvTokenizer::unescape_to(std::string_view raw, char* out) const {
  size_t n = 0;
  for (size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (c == escape_ && i + 1 < raw.size() && (escape_ != quote_ || raw[i + 1] == quote_)) {
      c = raw[++i];
    }
    out[n++] = c;
  }
  return n;
}

void CsvTokenizer::unescape(std::string_view raw, std::string& out) const {
  size_t old = out.size();
  out.resize(old + raw.size());
  out.resize(old + unescape_to(raw, out.data() + old));
}

}  // namespace kestrel
