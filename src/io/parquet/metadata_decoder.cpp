/// Decoding of the Parquet metadata structs from the Thrift compact protocol (parquet_format.hpp).

#include "common/error.hpp"
#include "io/parquet/parquet_format.hpp"
#include "io/parquet/thrift_compact.hpp"

namespace kestrel::io::parquet {

namespace {

using Reader = ThriftCompactReader;

/// Runs `on_field(field)` for each field of a struct; `on_field` returns false for fields it does not know, which
/// are then skipped.
template <typename F>
void read_struct(Reader& r, F&& on_field) {
  r.begin_struct();
  while (true) {
    ThriftField field = r.read_field();
    if (field.type == ThriftType::kStop) break;
    if (!on_field(field)) r.skip(field.type);
  }
  r.end_struct();
}

/// Reads a list whose elements are read by `read_element()`; a list of another element type is skipped.
template <typename F>
void read_list(Reader& r, ThriftType expected, F&& read_element) {
  ThriftList list = r.read_list_header();
  bool matches = list.element_type == expected ||
                 (expected == ThriftType::kBoolTrue && list.element_type == ThriftType::kBoolFalse);
  for (uint32_t i = 0; i < list.size; ++i) {
    if (matches) {
      read_element();
    } else if (list.element_type == ThriftType::kBoolTrue || list.element_type == ThriftType::kBoolFalse) {
      r.read_byte();
    } else {
      r.skip(list.element_type);
    }
  }
}

bool is_int(const ThriftField& f) {
  return f.type == ThriftType::kI32 || f.type == ThriftType::kI64 || f.type == ThriftType::kI16 ||
         f.type == ThriftType::kByte;
}
bool is_bool(const ThriftField& f) { return f.type == ThriftType::kBoolTrue || f.type == ThriftType::kBoolFalse; }

int64_t read_int(Reader& r, const ThriftField& f) {
  return f.type == ThriftType::kByte ? r.read_byte() : r.read_i64();
}
int32_t read_int32(Reader& r, const ThriftField& f) {
  int64_t v = read_int(r, f);
  if (v < INT32_MIN || v > INT32_MAX) throw InvalidInput("malformed metadata: 32-bit field out of range");
  return static_cast<int32_t>(v);
}

TimeUnit read_time_unit(Reader& r) {
  TimeUnit unit = TimeUnit::kMillis;
  read_struct(r, [&](const ThriftField& f) {
    if (f.type != ThriftType::kStruct) return false;
    if (f.id == 1) unit = TimeUnit::kMillis;
    if (f.id == 2) unit = TimeUnit::kMicros;
    if (f.id == 3) unit = TimeUnit::kNanos;
    return false;  // the member struct is empty: skip it
  });
  return unit;
}

LogicalTypeAnnotation read_logical_type(Reader& r) {
  using Kind = LogicalTypeAnnotation::Kind;
  LogicalTypeAnnotation t;
  read_struct(r, [&](const ThriftField& f) {
    if (f.type != ThriftType::kStruct) return false;
    switch (f.id) {
      case 1: t.kind = Kind::kString; return false;
      case 2: t.kind = Kind::kMap; return false;
      case 3: t.kind = Kind::kList; return false;
      case 4: t.kind = Kind::kEnum; return false;
      case 5:
        t.kind = Kind::kDecimal;
        read_struct(r, [&](const ThriftField& g) {
          if (!is_int(g)) return false;
          if (g.id == 1) t.scale = read_int32(r, g);
          else if (g.id == 2) t.precision = read_int32(r, g);
          else return false;
          return true;
        });
        return true;
      case 6: t.kind = Kind::kDate; return false;
      case 7:
      case 8:
        t.kind = f.id == 7 ? Kind::kTime : Kind::kTimestamp;
        read_struct(r, [&](const ThriftField& g) {
          if (g.id == 1 && is_bool(g)) {
            t.adjusted_to_utc = Reader::bool_field_value(g.type);
            return true;
          }
          if (g.id == 2 && g.type == ThriftType::kStruct) {
            t.unit = read_time_unit(r);
            return true;
          }
          return false;
        });
        return true;
      case 10:
        t.kind = Kind::kInteger;
        read_struct(r, [&](const ThriftField& g) {
          if (g.id == 1 && is_int(g)) {
            t.bit_width = static_cast<int8_t>(read_int(r, g));
            return true;
          }
          if (g.id == 2 && is_bool(g)) {
            t.is_signed = Reader::bool_field_value(g.type);
            return true;
          }
          return false;
        });
        return true;
      case 11: t.kind = Kind::kUnknown; return false;
      case 12: t.kind = Kind::kJson; return false;
      case 13: t.kind = Kind::kBson; return false;
      case 14: t.kind = Kind::kUuid; return false;
      case 15: t.kind = Kind::kFloat16; return false;
      default: t.kind = Kind::kOther; return false;
    }
  });
  return t;
}

SchemaElement read_schema_element(Reader& r) {
  SchemaElement e;
  bool has_name = false;
  read_struct(r, [&](const ThriftField& f) {
    switch (f.id) {
      case 1: if (!is_int(f)) return false; e.type = static_cast<PhysicalType>(read_int32(r, f)); return true;
      case 2: if (!is_int(f)) return false; e.type_length = read_int32(r, f); return true;
      case 3: if (!is_int(f)) return false; e.repetition = static_cast<Repetition>(read_int32(r, f)); return true;
      case 4:
        if (f.type != ThriftType::kBinary) return false;
        e.name = r.read_string();
        has_name = true;
        return true;
      case 5: if (!is_int(f)) return false; e.num_children = read_int32(r, f); return true;
      case 6: if (!is_int(f)) return false; e.converted_type = static_cast<ConvertedType>(read_int32(r, f)); return true;
      case 7: if (!is_int(f)) return false; e.scale = read_int32(r, f); return true;
      case 8: if (!is_int(f)) return false; e.precision = read_int32(r, f); return true;
      case 10:
        if (f.type != ThriftType::kStruct) return false;
        e.logical_type = read_logical_type(r);
        return true;
      default: return false;
    }
  });
  require_field(has_name, "SchemaElement", "name");
  return e;
}

Statistics read_statistics(Reader& r) {
  Statistics s;
  read_struct(r, [&](const ThriftField& f) {
    if (f.type == ThriftType::kBinary) {
      switch (f.id) {
        case 1: s.max = r.read_string(); return true;
        case 2: s.min = r.read_string(); return true;
        case 5: s.max_value = r.read_string(); return true;
        case 6: s.min_value = r.read_string(); return true;
        default: return false;
      }
    }
    if (is_int(f) && f.id == 3) { s.null_count = read_int(r, f); return true; }
    if (is_int(f) && f.id == 4) { s.distinct_count = read_int(r, f); return true; }
    if (is_bool(f) && f.id == 7) { s.is_max_value_exact = Reader::bool_field_value(f.type); return true; }
    if (is_bool(f) && f.id == 8) { s.is_min_value_exact = Reader::bool_field_value(f.type); return true; }
    return false;
  });
  return s;
}

ColumnMetaData read_column_metadata(Reader& r) {
  ColumnMetaData m;
  bool has_type = false, has_codec = false, has_num_values = false, has_data_page_offset = false;
  read_struct(r, [&](const ThriftField& f) {
    switch (f.id) {
      case 1: if (!is_int(f)) return false; m.type = static_cast<PhysicalType>(read_int32(r, f)); has_type = true; return true;
      case 2:
        if (f.type != ThriftType::kList) return false;
        read_list(r, ThriftType::kI32, [&] { m.encodings.push_back(static_cast<Encoding>(r.read_i32())); });
        return true;
      case 3:
        if (f.type != ThriftType::kList) return false;
        read_list(r, ThriftType::kBinary, [&] { m.path_in_schema.push_back(r.read_string()); });
        return true;
      case 4:
        if (!is_int(f)) return false;
        m.raw_codec = read_int32(r, f);
        m.codec = static_cast<CompressionCodec>(m.raw_codec >= 0 && m.raw_codec <= 7 ? m.raw_codec : 3);
        has_codec = true;
        return true;
      case 5: if (!is_int(f)) return false; m.num_values = read_int(r, f); has_num_values = true; return true;
      case 6: if (!is_int(f)) return false; m.total_uncompressed_size = read_int(r, f); return true;
      case 7: if (!is_int(f)) return false; m.total_compressed_size = read_int(r, f); return true;
      case 9: if (!is_int(f)) return false; m.data_page_offset = read_int(r, f); has_data_page_offset = true; return true;
      case 10: if (!is_int(f)) return false; m.index_page_offset = read_int(r, f); return true;
      case 11: if (!is_int(f)) return false; m.dictionary_page_offset = read_int(r, f); return true;
      case 12:
        if (f.type != ThriftType::kStruct) return false;
        m.statistics = read_statistics(r);
        return true;
      default: return false;
    }
  });
  require_field(has_type, "ColumnMetaData", "type");
  require_field(has_codec, "ColumnMetaData", "codec");
  require_field(has_num_values, "ColumnMetaData", "num_values");
  require_field(has_data_page_offset, "ColumnMetaData", "data_page_offset");
  return m;
}

ColumnChunk read_column_chunk(Reader& r) {
  ColumnChunk c;
  read_struct(r, [&](const ThriftField& f) {
    switch (f.id) {
      case 1: if (f.type != ThriftType::kBinary) return false; c.file_path = r.read_string(); return true;
      case 2: if (!is_int(f)) return false; c.file_offset = read_int(r, f); return true;
      case 3: if (f.type != ThriftType::kStruct) return false; c.meta_data = read_column_metadata(r); return true;
      case 4: if (!is_int(f)) return false; c.offset_index_offset = read_int(r, f); return true;
      case 5: if (!is_int(f)) return false; c.offset_index_length = read_int32(r, f); return true;
      case 6: if (!is_int(f)) return false; c.column_index_offset = read_int(r, f); return true;
      case 7: if (!is_int(f)) return false; c.column_index_length = read_int32(r, f); return true;
      case 8:
      case 9: c.encrypted = true; return false;
      default: return false;
    }
  });
  return c;
}

RowGroup read_row_group(Reader& r) {
  RowGroup g;
  bool has_columns = false, has_num_rows = false;
  read_struct(r, [&](const ThriftField& f) {
    switch (f.id) {
      case 1:
        if (f.type != ThriftType::kList) return false;
        read_list(r, ThriftType::kStruct, [&] { g.columns.push_back(read_column_chunk(r)); });
        has_columns = true;
        return true;
      case 2: if (!is_int(f)) return false; g.total_byte_size = read_int(r, f); return true;
      case 3: if (!is_int(f)) return false; g.num_rows = read_int(r, f); has_num_rows = true; return true;
      default: return false;
    }
  });
  require_field(has_columns, "RowGroup", "columns");
  require_field(has_num_rows, "RowGroup", "num_rows");
  return g;
}

KeyValue read_key_value(Reader& r) {
  KeyValue kv;
  read_struct(r, [&](const ThriftField& f) {
    if (f.type != ThriftType::kBinary) return false;
    if (f.id == 1) kv.key = r.read_string();
    else if (f.id == 2) kv.value = r.read_string();
    else return false;
    return true;
  });
  return kv;
}

}  // namespace

FileMetaData decode_file_metadata(const uint8_t* data, size_t size) {
  Reader r(data, size);
  FileMetaData m;
  bool has_schema = false, has_num_rows = false, has_row_groups = false;
  read_struct(r, [&](const ThriftField& f) {
    switch (f.id) {
      case 1: if (!is_int(f)) return false; m.version = read_int32(r, f); return true;
      case 2:
        if (f.type != ThriftType::kList) return false;
        read_list(r, ThriftType::kStruct, [&] { m.schema.push_back(read_schema_element(r)); });
        has_schema = true;
        return true;
      case 3: if (!is_int(f)) return false; m.num_rows = read_int(r, f); has_num_rows = true; return true;
      case 4:
        if (f.type != ThriftType::kList) return false;
        read_list(r, ThriftType::kStruct, [&] { m.row_groups.push_back(read_row_group(r)); });
        has_row_groups = true;
        return true;
      case 5:
        if (f.type != ThriftType::kList) return false;
        read_list(r, ThriftType::kStruct, [&] { m.key_value_metadata.push_back(read_key_value(r)); });
        return true;
      case 6: if (f.type != ThriftType::kBinary) return false; m.created_by = r.read_string(); return true;
      case 7:
        if (f.type != ThriftType::kList) return false;
        read_list(r, ThriftType::kStruct, [&] {
          bool type_defined = false;
          read_struct(r, [&](const ThriftField& g) {
            if (g.id == 1) type_defined = true;
            return false;
          });
          m.column_orders_type_defined.push_back(type_defined);
        });
        return true;
      case 8: m.encrypted = true; return false;
      default: return false;
    }
  });
  require_field(has_schema, "FileMetaData", "schema");
  require_field(has_num_rows, "FileMetaData", "num_rows");
  require_field(has_row_groups, "FileMetaData", "row_groups");
  return m;
}

PageHeader decode_page_header(const uint8_t* data, size_t size, size_t* header_size) {
  Reader r(data, size);
  PageHeader h;
  bool has_type = false, has_uncompressed = false, has_compressed = false;
  read_struct(r, [&](const ThriftField& f) {
    switch (f.id) {
      case 1:
        if (!is_int(f)) return false;
        h.raw_type = read_int32(r, f);
        h.type = static_cast<PageType>(h.raw_type);
        has_type = true;
        return true;
      case 2: if (!is_int(f)) return false; h.uncompressed_page_size = read_int32(r, f); has_uncompressed = true; return true;
      case 3: if (!is_int(f)) return false; h.compressed_page_size = read_int32(r, f); has_compressed = true; return true;
      case 4: if (!is_int(f)) return false; h.crc = static_cast<uint32_t>(read_int32(r, f)); return true;
      case 5: {
        if (f.type != ThriftType::kStruct) return false;
        DataPageHeader d;
        read_struct(r, [&](const ThriftField& g) {
          if (!is_int(g)) return false;
          switch (g.id) {
            case 1: d.num_values = read_int32(r, g); return true;
            case 2: d.encoding = static_cast<Encoding>(read_int32(r, g)); return true;
            case 3: d.definition_level_encoding = static_cast<Encoding>(read_int32(r, g)); return true;
            case 4: d.repetition_level_encoding = static_cast<Encoding>(read_int32(r, g)); return true;
            default: return false;
          }
        });
        h.data_page_header = d;
        return true;
      }
      case 7: {
        if (f.type != ThriftType::kStruct) return false;
        DictionaryPageHeader d;
        read_struct(r, [&](const ThriftField& g) {
          if (g.id == 1 && is_int(g)) { d.num_values = read_int32(r, g); return true; }
          if (g.id == 2 && is_int(g)) { d.encoding = static_cast<Encoding>(read_int32(r, g)); return true; }
          if (g.id == 3 && is_bool(g)) { d.is_sorted = Reader::bool_field_value(g.type); return true; }
          return false;
        });
        h.dictionary_page_header = d;
        return true;
      }
      case 8: {
        if (f.type != ThriftType::kStruct) return false;
        DataPageHeaderV2 d;
        read_struct(r, [&](const ThriftField& g) {
          if (g.id == 7 && is_bool(g)) { d.is_compressed = Reader::bool_field_value(g.type); return true; }
          if (!is_int(g)) return false;
          switch (g.id) {
            case 1: d.num_values = read_int32(r, g); return true;
            case 2: d.num_nulls = read_int32(r, g); return true;
            case 3: d.num_rows = read_int32(r, g); return true;
            case 4: d.encoding = static_cast<Encoding>(read_int32(r, g)); return true;
            case 5: d.definition_levels_byte_length = read_int32(r, g); return true;
            case 6: d.repetition_levels_byte_length = read_int32(r, g); return true;
            default: return false;
          }
        });
        h.data_page_header_v2 = d;
        return true;
      }
      default: return false;
    }
  });
  require_field(has_type, "PageHeader", "type");
  require_field(has_uncompressed, "PageHeader", "uncompressed_page_size");
  require_field(has_compressed, "PageHeader", "compressed_page_size");
  *header_size = r.position();
  return h;
}

ColumnIndex decode_column_index(const uint8_t* data, size_t size) {
  Reader r(data, size);
  ColumnIndex c;
  read_struct(r, [&](const ThriftField& f) {
    if (f.type != ThriftType::kList) return false;
    switch (f.id) {
      case 1: read_list(r, ThriftType::kBoolTrue, [&] { c.null_pages.push_back(r.read_bool_element()); }); return true;
      case 2: read_list(r, ThriftType::kBinary, [&] { c.min_values.push_back(r.read_string()); }); return true;
      case 3: read_list(r, ThriftType::kBinary, [&] { c.max_values.push_back(r.read_string()); }); return true;
      case 5: read_list(r, ThriftType::kI64, [&] { c.null_counts.push_back(r.read_i64()); }); return true;
      default: return false;
    }
  });
  if (c.min_values.size() != c.null_pages.size() || c.max_values.size() != c.null_pages.size() ||
      (!c.null_counts.empty() && c.null_counts.size() != c.null_pages.size())) {
    throw InvalidInput("malformed column index: list sizes differ");
  }
  return c;
}

OffsetIndex decode_offset_index(const uint8_t* data, size_t size) {
  Reader r(data, size);
  OffsetIndex o;
  read_struct(r, [&](const ThriftField& f) {
    if (f.id != 1 || f.type != ThriftType::kList) return false;
    read_list(r, ThriftType::kStruct, [&] {
      PageLocation loc;
      read_struct(r, [&](const ThriftField& g) {
        if (!is_int(g)) return false;
        if (g.id == 1) loc.offset = read_int(r, g);
        else if (g.id == 2) loc.compressed_page_size = read_int32(r, g);
        else if (g.id == 3) loc.first_row_index = read_int(r, g);
        else return false;
        return true;
      });
      o.page_locations.push_back(loc);
    });
    return true;
  });
  return o;
}

const char* physical_type_name(PhysicalType type) {
  switch (type) {
    case PhysicalType::kBoolean: return "BOOLEAN";
    case PhysicalType::kInt32: return "INT32";
    case PhysicalType::kInt64: return "INT64";
    case PhysicalType::kInt96: return "INT96";
    case PhysicalType::kFloat: return "FLOAT";
    case PhysicalType::kDouble: return "DOUBLE";
    case PhysicalType::kByteArray: return "BYTE_ARRAY";
    case PhysicalType::kFixedLenByteArray: return "FIXED_LEN_BYTE_ARRAY";
  }
  return "UNKNOWN";
}

std::string encoding_name(Encoding encoding) {
  switch (encoding) {
    case Encoding::kPlain: return "PLAIN";
    case Encoding::kPlainDictionary: return "PLAIN_DICTIONARY";
    case Encoding::kRle: return "RLE";
    case Encoding::kBitPacked: return "BIT_PACKED";
    case Encoding::kDeltaBinaryPacked: return "DELTA_BINARY_PACKED";
    case Encoding::kDeltaLengthByteArray: return "DELTA_LENGTH_BYTE_ARRAY";
    case Encoding::kDeltaByteArray: return "DELTA_BYTE_ARRAY";
    case Encoding::kRleDictionary: return "RLE_DICTIONARY";
    case Encoding::kByteStreamSplit: return "BYTE_STREAM_SPLIT";
  }
  return "UNKNOWN(" + std::to_string(static_cast<int32_t>(encoding)) + ")";
}

}  // namespace kestrel::io::parquet
