#include "io/parquet/writer/metadata_encoder.hpp"

#include "common/error.hpp"

namespace kestrel::io::parquet {
namespace {

int32_t as_i32(auto e) { return static_cast<int32_t>(e); }

/// The TimeUnit union: one empty struct member per unit.
void encode_time_unit(ThriftCompactWriter& w, int16_t id, TimeUnit unit) {
  w.field_struct_begin(id);
  switch (unit) {
    case TimeUnit::kMillis: w.field_empty_struct(1); break;
    case TimeUnit::kMicros: w.field_empty_struct(2); break;
    case TimeUnit::kNanos: w.field_empty_struct(3); break;
  }
  w.end_struct();
}

/// The LogicalType union (field 10 of SchemaElement); nothing for Kind::kNone.
void encode_logical_type(ThriftCompactWriter& w, const LogicalTypeAnnotation& a) {
  using Kind = LogicalTypeAnnotation::Kind;
  if (a.kind == Kind::kNone) return;
  w.field_struct_begin(10);
  switch (a.kind) {
    case Kind::kString: w.field_empty_struct(1); break;
    case Kind::kMap: w.field_empty_struct(2); break;
    case Kind::kList: w.field_empty_struct(3); break;
    case Kind::kEnum: w.field_empty_struct(4); break;
    case Kind::kDecimal:
      w.field_struct_begin(5);
      w.field_i32(1, a.scale);
      w.field_i32(2, a.precision);
      w.end_struct();
      break;
    case Kind::kDate: w.field_empty_struct(6); break;
    case Kind::kTime:
    case Kind::kTimestamp:
      w.field_struct_begin(a.kind == Kind::kTime ? 7 : 8);
      w.field_bool(1, a.adjusted_to_utc);
      encode_time_unit(w, 2, a.unit);
      w.end_struct();
      break;
    case Kind::kInteger:
      w.field_struct_begin(10);
      w.field_byte(1, a.bit_width);
      w.field_bool(2, a.is_signed);
      w.end_struct();
      break;
    case Kind::kUnknown: w.field_empty_struct(11); break;
    case Kind::kJson: w.field_empty_struct(12); break;
    case Kind::kBson: w.field_empty_struct(13); break;
    case Kind::kUuid: w.field_empty_struct(14); break;
    case Kind::kFloat16: w.field_empty_struct(15); break;
    case Kind::kNone:
    case Kind::kOther: throw InternalError("Parquet writer: a logical type annotation Kestrel cannot encode");
  }
  w.end_struct();
}

void encode_column_metadata(ThriftCompactWriter& w, const ColumnMetaData& m) {
  w.field_i32(1, as_i32(m.type));
  w.field_list_begin(2, ThriftType::kI32, m.encodings.size());
  for (Encoding e : m.encodings) w.element_i32(as_i32(e));
  w.field_list_begin(3, ThriftType::kBinary, m.path_in_schema.size());
  for (const auto& p : m.path_in_schema) w.element_binary(p);
  w.field_i32(4, as_i32(m.codec));
  w.field_i64(5, m.num_values);
  w.field_i64(6, m.total_uncompressed_size);
  w.field_i64(7, m.total_compressed_size);
  w.field_i64(9, m.data_page_offset);
  if (m.index_page_offset) w.field_i64(10, *m.index_page_offset);
  if (m.dictionary_page_offset) w.field_i64(11, *m.dictionary_page_offset);
  if (m.statistics) {
    w.field_struct_begin(12);
    encode_statistics(w, *m.statistics);
  }
}

}  // namespace

void encode_schema_element(ThriftCompactWriter& w, const SchemaElement& e) {
  w.begin_struct();
  if (e.type) w.field_i32(1, as_i32(*e.type));
  if (e.type == PhysicalType::kFixedLenByteArray) w.field_i32(2, e.type_length);
  if (e.repetition) w.field_i32(3, as_i32(*e.repetition));
  w.field_binary(4, e.name);
  if (!e.type) w.field_i32(5, e.num_children);
  if (e.converted_type) w.field_i32(6, as_i32(*e.converted_type));
  if (e.converted_type == ConvertedType::kDecimal) {
    w.field_i32(7, e.scale);
    w.field_i32(8, e.precision);
  }
  encode_logical_type(w, e.logical_type);
  w.end_struct();
}

void encode_statistics(ThriftCompactWriter& w, const Statistics& s) {
  // The caller opened the struct (as a field or a list element).
  if (s.max) w.field_binary(1, *s.max);
  if (s.min) w.field_binary(2, *s.min);
  if (s.null_count) w.field_i64(3, *s.null_count);
  if (s.distinct_count) w.field_i64(4, *s.distinct_count);
  if (s.max_value) w.field_binary(5, *s.max_value);
  if (s.min_value) w.field_binary(6, *s.min_value);
  if (s.is_max_value_exact) w.field_bool(7, *s.is_max_value_exact);
  if (s.is_min_value_exact) w.field_bool(8, *s.is_min_value_exact);
  w.end_struct();
}

void encode_column_chunk(ThriftCompactWriter& w, const ColumnChunk& c) {
  w.begin_struct();
  if (c.file_path) w.field_binary(1, *c.file_path);
  w.field_i64(2, c.file_offset);
  if (c.meta_data) {
    w.field_struct_begin(3);
    encode_column_metadata(w, *c.meta_data);
    w.end_struct();
  }
  if (c.offset_index_offset) w.field_i64(4, *c.offset_index_offset);
  if (c.offset_index_length) w.field_i32(5, *c.offset_index_length);
  if (c.column_index_offset) w.field_i64(6, *c.column_index_offset);
  if (c.column_index_length) w.field_i32(7, *c.column_index_length);
  w.end_struct();
}

void encode_row_group(ThriftCompactWriter& w, const RowGroup& g) {
  w.begin_struct();
  w.field_list_begin(1, ThriftType::kStruct, g.columns.size());
  for (const auto& c : g.columns) encode_column_chunk(w, c);
  w.field_i64(2, g.total_byte_size);
  w.field_i64(3, g.num_rows);
  if (!g.columns.empty() && g.columns.front().meta_data) {
    // file_offset and total_compressed_size of the row group: where its first chunk starts and its stored bytes.
    const auto& first = *g.columns.front().meta_data;
    w.field_i64(5, first.dictionary_page_offset.value_or(first.data_page_offset));
    int64_t compressed = 0;
    for (const auto& c : g.columns) compressed += c.meta_data ? c.meta_data->total_compressed_size : 0;
    w.field_i64(6, compressed);
  }
  w.end_struct();
}

std::vector<uint8_t> encode_file_metadata(const FileMetaData& m) {
  ThriftCompactWriter w;
  w.begin_struct();
  w.field_i32(1, m.version);
  w.field_list_begin(2, ThriftType::kStruct, m.schema.size());
  for (const auto& e : m.schema) encode_schema_element(w, e);
  w.field_i64(3, m.num_rows);
  w.field_list_begin(4, ThriftType::kStruct, m.row_groups.size());
  for (const auto& g : m.row_groups) encode_row_group(w, g);
  if (!m.key_value_metadata.empty()) {
    w.field_list_begin(5, ThriftType::kStruct, m.key_value_metadata.size());
    for (const auto& kv : m.key_value_metadata) {
      w.begin_struct();
      w.field_binary(1, kv.key);
      if (kv.value) w.field_binary(2, *kv.value);
      w.end_struct();
    }
  }
  if (m.created_by) w.field_binary(6, *m.created_by);
  if (!m.column_orders_type_defined.empty()) {
    w.field_list_begin(7, ThriftType::kStruct, m.column_orders_type_defined.size());
    for (bool type_defined : m.column_orders_type_defined) {
      w.begin_struct();  // the ColumnOrder union
      if (type_defined) w.field_empty_struct(1);
      w.end_struct();
    }
  }
  w.end_struct();
  return w.take();
}

std::vector<uint8_t> encode_page_header(const PageHeader& h) {
  ThriftCompactWriter w;
  w.begin_struct();
  w.field_i32(1, as_i32(h.type));
  w.field_i32(2, h.uncompressed_page_size);
  w.field_i32(3, h.compressed_page_size);
  if (h.crc) w.field_i32(4, static_cast<int32_t>(*h.crc));
  if (h.data_page_header) {
    const auto& d = *h.data_page_header;
    w.field_struct_begin(5);
    w.field_i32(1, d.num_values);
    w.field_i32(2, as_i32(d.encoding));
    w.field_i32(3, as_i32(d.definition_level_encoding));
    w.field_i32(4, as_i32(d.repetition_level_encoding));
    w.end_struct();
  }
  if (h.dictionary_page_header) {
    const auto& d = *h.dictionary_page_header;
    w.field_struct_begin(7);
    w.field_i32(1, d.num_values);
    w.field_i32(2, as_i32(d.encoding));
    w.field_bool(3, d.is_sorted);
    w.end_struct();
  }
  if (h.data_page_header_v2) {
    const auto& d = *h.data_page_header_v2;
    w.field_struct_begin(8);
    w.field_i32(1, d.num_values);
    w.field_i32(2, d.num_nulls);
    w.field_i32(3, d.num_rows);
    w.field_i32(4, as_i32(d.encoding));
    w.field_i32(5, d.definition_levels_byte_length);
    w.field_i32(6, d.repetition_levels_byte_length);
    w.field_bool(7, d.is_compressed);
    w.end_struct();
  }
  w.end_struct();
  return w.take();
}

}  // namespace kestrel::io::parquet
