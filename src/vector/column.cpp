#include "vector/column.hpp"

#include <cstring>

#include "common/bit_util.hpp"
#include "common/check.hpp"
#include "gpu/copy.hpp"
#include "vector/nested_column.hpp"

namespace kestrel {

namespace {

BufferPtr make_all_valid(size_t length, gpu::MemoryResource& mr, gpu::Stream stream) {
  auto buffer = Buffer::allocate(bits::bytes_for(length), mr, stream);
  gpu::fill_bytes(buffer->data(), mr.kind(), 0xff, buffer->size(), stream);
  return buffer;
}

void require_host(const Column& column, const char* what) {
  KESTREL_CHECK_MSG(!column.on_device(), what << " needs a host column");
}

}  // namespace

ColumnPtr Column::make_fixed(LogicalType type, size_t length, bool nullable, gpu::MemoryResource& mr,
                             gpu::Stream stream) {
  KESTREL_CHECK_MSG(type.is_fixed_width(), "make_fixed on " << type.to_string());
  ColumnPtr column(new Column());
  column->type_ = type;
  column->length_ = length;
  column->values_ = Buffer::allocate(length * type.physical_width(), mr, stream);
  if (nullable) column->validity_ = make_all_valid(length, mr, stream);
  return column;
}

ColumnPtr Column::make_string(size_t length, size_t char_bytes, bool nullable, gpu::MemoryResource& mr,
                              gpu::Stream stream) {
  ColumnPtr column(new Column());
  column->type_ = TypeId::kVarchar;
  column->length_ = length;
  column->offsets_ = Buffer::allocate((length + 1) * sizeof(int64_t), mr, stream);
  column->values_ = Buffer::allocate(char_bytes, mr, stream);
  if (nullable) column->validity_ = make_all_valid(length, mr, stream);
  return column;
}

ColumnPtr Column::make_dictionary(LogicalType type, size_t length, BufferPtr indices, BufferPtr validity,
                                  size_t null_count, ColumnPtr dictionary) {
  return from_buffers(type, ColumnEncoding::kDictionary, length, null_count, std::move(validity),
                      std::move(indices), nullptr, std::move(dictionary));
}

ColumnPtr Column::retyped(const ColumnPtr& column, LogicalType type) {
  KESTREL_CHECK_MSG(column->type().is_variable_width() && type.is_variable_width(),
                    "retyped " << column->type().to_string() << " as " << type.to_string());
  if (column->type() == type) return column;
  ColumnPtr dictionary = column->dictionary_ ? retyped(column->dictionary_, type) : nullptr;
  return from_buffers(type, column->encoding_, column->length_, column->null_count_, column->validity_,
                      column->values_, column->offsets_, std::move(dictionary));
}

ColumnPtr Column::make_list(LogicalType type, size_t length, BufferPtr offsets, BufferPtr validity,
                            size_t null_count, ColumnPtr child) {
  KESTREL_CHECK(type.id() == TypeId::kArray || type.id() == TypeId::kMap);
  KESTREL_CHECK(child != nullptr && child->type() == type.element_type());
  ColumnPtr column = from_buffers(std::move(type), ColumnEncoding::kPlain, length, null_count, std::move(validity),
                                  nullptr, std::move(offsets), nullptr);
  column->children_.push_back(std::move(child));
  return column;
}

ColumnPtr Column::make_row(LogicalType type, size_t length, BufferPtr validity, size_t null_count,
                           std::vector<ColumnPtr> children) {
  KESTREL_CHECK(type.id() == TypeId::kRow);
  KESTREL_CHECK_EQ(children.size(), type.fields().size());
  for (size_t i = 0; i < children.size(); ++i) {
    KESTREL_CHECK(children[i]->type() == type.child(i) && children[i]->length() == length);
  }
  ColumnPtr column = from_buffers(std::move(type), ColumnEncoding::kPlain, length, null_count, std::move(validity),
                                  nullptr, nullptr, nullptr);
  column->children_ = std::move(children);
  return column;
}

const Column& Column::nested_keys() const {
  std::call_once(nested_keys_once_, [this] { nested_keys_ = encode_nested_keys(*this); });
  return *nested_keys_;
}

ColumnPtr Column::from_buffers(LogicalType type, ColumnEncoding encoding, size_t length, size_t null_count,
                               BufferPtr validity, BufferPtr values, BufferPtr offsets, ColumnPtr dictionary) {
  ColumnPtr column(new Column());
  column->type_ = type;
  column->encoding_ = encoding;
  column->length_ = length;
  column->null_count_ = null_count;
  column->validity_ = std::move(validity);
  column->values_ = std::move(values);
  column->offsets_ = std::move(offsets);
  column->dictionary_ = std::move(dictionary);
  if (encoding == ColumnEncoding::kDictionary) {
    KESTREL_CHECK(column->dictionary_ != nullptr);
    KESTREL_CHECK(column->dictionary_->encoding() == ColumnEncoding::kPlain);
  }
  return column;
}

gpu::MemoryKind Column::kind() const {
  if (values_) return values_->kind();
  if (offsets_) return offsets_->kind();
  if (validity_) return validity_->kind();
  return gpu::MemoryKind::kHost;
}

bool Column::is_valid(size_t row) const {
  require_host(*this, "Column::is_valid");
  return validity_ == nullptr || bits::get(validity_->as<uint8_t>(), row);
}

std::string_view Column::string_at(size_t row) const {
  require_host(*this, "Column::string_at");
  if (encoding_ == ColumnEncoding::kDictionary) {
    return dictionary_->string_at(static_cast<size_t>(data<int32_t>()[row]));
  }
  const int64_t* off = offsets_->as<int64_t>();
  return std::string_view(values_->as<char>() + off[row], static_cast<size_t>(off[row + 1] - off[row]));
}

Value Column::value_at(size_t row) const {
  require_host(*this, "Column::value_at");
  if (!is_valid(row)) return Value::null(type_);
  if (type_.is_nested()) return nested_value_at(*this, row);
  if (type_.id() == TypeId::kVarchar) return Value::varchar(std::string(string_at(row)));
  if (type_.id() == TypeId::kVarbinary) return Value::varbinary(std::string(string_at(row)));
  if (type_.id() == TypeId::kJson) return Value::json(std::string(string_at(row)));
  KESTREL_CHECK_MSG(encoding_ == ColumnEncoding::kPlain, "dictionary encoding of " << type_.to_string());
  switch (type_.id()) {
    case TypeId::kBoolean: return Value::boolean(data<uint8_t>()[row] != 0);
    case TypeId::kTinyInt: return Value::tinyint(data<int8_t>()[row]);
    case TypeId::kSmallInt: return Value::smallint(data<int16_t>()[row]);
    case TypeId::kInteger: return Value::integer(data<int32_t>()[row]);
    case TypeId::kBigInt: return Value::bigint(data<int64_t>()[row]);
    case TypeId::kReal: return Value::real(data<float>()[row]);
    case TypeId::kDouble: return Value::double_value(data<double>()[row]);
    case TypeId::kDecimal:
      return Value::decimal(type_.is_wide_decimal() ? data<int128_t>()[row] : data<int64_t>()[row],
                            type_.precision(), type_.scale());
    case TypeId::kDate: return Value::date(data<int32_t>()[row]);
    case TypeId::kTimestamp: return Value::timestamp(data<int64_t>()[row]);
    case TypeId::kInterval: return Value::interval(data<Interval>()[row]);
    case TypeId::kTimestampTz: {
      const TimestampTz& v = data<TimestampTz>()[row];
      return Value::timestamp_tz(v.micros, v.zone);
    }
    default: break;
  }
  throw InternalError("value_at: unsupported type " + type_.to_string());
}

void Column::recount_nulls() {
  require_host(*this, "Column::recount_nulls");
  null_count_ = validity_ ? length_ - bits::count_set(validity_->as<uint8_t>(), length_) : 0;
}

size_t Column::byte_size() const {
  size_t n = 0;
  for (const BufferPtr* b : {&validity_, &values_, &offsets_}) {
    if (*b) n += (*b)->size();
  }
  if (dictionary_) n += dictionary_->byte_size();
  for (const ColumnPtr& c : children_) n += c->byte_size();
  return n;
}

namespace {

template <typename T>
void put(Column& column, size_t row, T v) {
  column.mutable_data<T>()[row] = v;
}

void store_fixed(Column& column, size_t row, const Value& v) {
  switch (column.type().id()) {
    case TypeId::kBoolean: put<uint8_t>(column, row, v.as_bool() ? 1 : 0); break;
    case TypeId::kTinyInt: put<int8_t>(column, row, static_cast<int8_t>(v.as_int64())); break;
    case TypeId::kSmallInt: put<int16_t>(column, row, static_cast<int16_t>(v.as_int64())); break;
    case TypeId::kInteger: put<int32_t>(column, row, static_cast<int32_t>(v.as_int64())); break;
    case TypeId::kBigInt: put<int64_t>(column, row, v.as_int64()); break;
    case TypeId::kReal: put<float>(column, row, static_cast<float>(v.as_double())); break;
    case TypeId::kDouble: put<double>(column, row, v.as_double()); break;
    case TypeId::kDecimal:
      if (column.type().is_wide_decimal()) {
        put<int128_t>(column, row, v.as_int128());
      } else {
        put<int64_t>(column, row, static_cast<int64_t>(v.as_int128()));
      }
      break;
    case TypeId::kDate: put<int32_t>(column, row, static_cast<int32_t>(v.as_int64())); break;
    case TypeId::kTimestamp: put<int64_t>(column, row, v.as_int64()); break;
    case TypeId::kInterval: put<Interval>(column, row, v.as_interval()); break;
    case TypeId::kTimestampTz: put<TimestampTz>(column, row, v.as_timestamp_tz()); break;
    default: throw InternalError("store_fixed: " + column.type().to_string());
  }
}

}  // namespace

ColumnPtr Column::from_values(LogicalType type, const std::vector<Value>& values, gpu::MemoryResource& mr) {
  KESTREL_CHECK(gpu::is_host_kind(mr.kind()));
  if (type.id() == TypeId::kNull) {
    // An untyped NULL has no layout of its own: it is stored as NULL BOOLEANs (as constants are).
    return from_values(TypeId::kBoolean, std::vector<Value>(values.size(), Value::null(TypeId::kBoolean)), mr);
  }
  bool nullable = false;
  for (const Value& v : values) {
    if (v.is_null()) {
      nullable = true;
    } else {
      KESTREL_CHECK_MSG(v.type() == type, "value of type " << v.type().to_string() << " in a column of "
                                                           << type.to_string());
    }
  }
  if (type.is_nested()) return nested_from_values(type, values, mr);
  ColumnPtr column;
  if (type.is_variable_width()) {
    size_t bytes = 0;
    for (const Value& v : values) bytes += v.is_null() ? 0 : v.as_string().size();
    column = make_string(values.size(), bytes, nullable, mr, gpu::Stream::host());
    column->type_ = type;
    int64_t* off = column->mutable_offsets();
    char* chars = column->values_->as<char>();
    off[0] = 0;
    for (size_t i = 0; i < values.size(); ++i) {
      size_t n = values[i].is_null() ? 0 : values[i].as_string().size();
      if (n > 0) std::memcpy(chars + off[i], values[i].as_string().data(), n);
      off[i + 1] = off[i] + static_cast<int64_t>(n);
    }
  } else {
    column = make_fixed(type, values.size(), nullable, mr, gpu::Stream::host());
    if (!values.empty()) std::memset(column->values_->data(), 0, column->values_->size());
    for (size_t i = 0; i < values.size(); ++i) {
      if (!values[i].is_null()) store_fixed(*column, i, values[i]);
    }
  }
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i].is_null()) bits::clear(column->mutable_validity(), i);
  }
  column->recount_nulls();
  return column;
}

}  // namespace kestrel
