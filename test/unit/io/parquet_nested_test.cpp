// Nested Parquet columns: the schema mapping (LIST, its 2-level and unannotated forms, MAP, MAP_KEY_VALUE, STRUCT),
// the decoding of repetition and definition levels from hand-made pages, record assembly, and the clean errors of
// malformed levels and leaves that disagree.

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "io/parquet/nested_levels.hpp"
#include "io/parquet/nested_schema.hpp"
#include "io/parquet/parquet_schema.hpp"
#include "io/parquet/writer/rle_encoder.hpp"
#include "parquet_test_util.hpp"

namespace kestrel::io::parquet {
namespace {

using Kind = LogicalTypeAnnotation::Kind;

SchemaElement root(int children) {
  SchemaElement e;
  e.name = "schema";
  e.num_children = children;
  return e;
}

SchemaElement group(const std::string& name, int children, Repetition repetition,
                    std::optional<ConvertedType> annotation = std::nullopt) {
  SchemaElement e;
  e.name = name;
  e.num_children = children;
  e.repetition = repetition;
  e.converted_type = annotation;
  return e;
}

SchemaElement leaf(const std::string& name, PhysicalType type, Repetition repetition,
                   std::optional<ConvertedType> annotation = std::nullopt) {
  SchemaElement e;
  e.name = name;
  e.type = type;
  e.repetition = repetition;
  e.converted_type = annotation;
  return e;
}

constexpr auto kOpt = Repetition::kOptional;
constexpr auto kReq = Repetition::kRequired;
constexpr auto kRep = Repetition::kRepeated;
constexpr auto kInt32 = PhysicalType::kInt32;
constexpr auto kBytes = PhysicalType::kByteArray;

/// The single column of a schema of one top-level field.
ColumnDescriptor only_column(std::vector<SchemaElement> fields) {
  fields.insert(fields.begin(), root(1));
  SchemaMapping m = map_schema(fields);
  EXPECT_EQ(m.columns.size(), 1u);
  return m.columns.at(0);
}

std::string type_of(std::vector<SchemaElement> fields) {
  ColumnDescriptor c = only_column(std::move(fields));
  return c.readable ? c.type.to_string() : "unreadable: " + c.unsupported_reason;
}

TEST(ParquetNestedSchema, ThreeLevelListAndItsLevels) {
  ColumnDescriptor c = only_column({group("a", 1, kOpt, ConvertedType::kList), group("list", 1, kRep),
                                    leaf("element", kInt32, kOpt)});
  ASSERT_TRUE(c.readable) << c.unsupported_reason;
  EXPECT_TRUE(c.nested);
  EXPECT_TRUE(c.nullable);
  EXPECT_EQ(c.type.to_string(), "ARRAY(INTEGER)");
  EXPECT_EQ(c.leaf_count, 1u);
  const NestedField& list = *c.tree;
  EXPECT_EQ(list.kind, NestedField::Kind::kList);
  EXPECT_EQ(list.slot_def, 0);
  EXPECT_EQ(list.valid_def, 1);
  const NestedField& element = list.children.at(0);
  EXPECT_EQ(element.kind, NestedField::Kind::kLeaf);
  EXPECT_EQ(element.path, "a.list.element");
  EXPECT_EQ(element.rep, 1);
  EXPECT_EQ(element.slot_def, 2);
  EXPECT_EQ(element.valid_def, 3);
  EXPECT_EQ(element.leaf.max_definition_level, 3);
  EXPECT_EQ(element.leaf.max_repetition_level, 1);
  EXPECT_EQ(element.repeated_defs, std::vector<int16_t>({2}));
}

TEST(ParquetNestedSchema, TwoLevelListsByTheBackwardCompatibilityRules) {
  // The repeated field is a primitive: it is the element.
  EXPECT_EQ(type_of({group("a", 1, kOpt, ConvertedType::kList), leaf("element", kInt32, kRep)}), "ARRAY(INTEGER)");
  // A group of several fields: it is the element (a row).
  EXPECT_EQ(type_of({group("a", 1, kOpt, ConvertedType::kList), group("element", 2, kRep), leaf("x", kInt32, kReq),
                     leaf("y", kBytes, kOpt, ConvertedType::kUtf8)}),
            "ARRAY(ROW(x INTEGER, y VARCHAR))");
  // One field, named `array` or `<list>_tuple`: the group is the element.
  EXPECT_EQ(type_of({group("a", 1, kOpt, ConvertedType::kList), group("array", 1, kRep), leaf("x", kInt32, kOpt)}),
            "ARRAY(ROW(x INTEGER))");
  EXPECT_EQ(type_of({group("a", 1, kOpt, ConvertedType::kList), group("a_tuple", 1, kRep), leaf("x", kInt32, kOpt)}),
            "ARRAY(ROW(x INTEGER))");
  // One repeated field: the group is the element (a row holding a list).
  EXPECT_EQ(type_of({group("a", 1, kOpt, ConvertedType::kList), group("g", 1, kRep), leaf("x", kInt32, kRep)}),
            "ARRAY(ROW(x ARRAY(INTEGER)))");
  // Otherwise (3 levels) the one field is the element, even a group.
  EXPECT_EQ(type_of({group("a", 1, kOpt, ConvertedType::kList), group("list", 1, kRep), group("element", 1, kOpt),
                     leaf("x", kInt32, kOpt)}),
            "ARRAY(ROW(x INTEGER))");
  // The LIST logical type annotates as the converted type does.
  SchemaElement annotated = group("a", 1, kReq);
  annotated.logical_type.kind = Kind::kList;
  ColumnDescriptor c = only_column({annotated, group("list", 1, kRep), leaf("element", kInt32, kReq)});
  EXPECT_EQ(c.type.to_string(), "ARRAY(INTEGER)");
  EXPECT_FALSE(c.nullable);
}

TEST(ParquetNestedSchema, MapsAndTheirLegacyForms) {
  EXPECT_EQ(type_of({group("m", 1, kOpt, ConvertedType::kMap), group("key_value", 2, kRep),
                     leaf("key", kBytes, kReq, ConvertedType::kUtf8), leaf("value", kInt32, kOpt)}),
            "MAP(VARCHAR, INTEGER)");
  // MAP_KEY_VALUE in place of MAP, the middle group annotated too, and other names: key and value by position.
  EXPECT_EQ(type_of({group("m", 1, kOpt, ConvertedType::kMapKeyValue), group("map", 2, kRep, ConvertedType::kMap),
                     leaf("k", kInt32, kReq), leaf("v", kBytes, kOpt)}),
            "MAP(INTEGER, VARBINARY)");
  // Without a value field: the keys as a list.
  EXPECT_EQ(type_of({group("m", 1, kReq, ConvertedType::kMap), group("key_value", 1, kRep), leaf("key", kInt32, kReq)}),
            "ARRAY(INTEGER)");
  // Values of any shape.
  EXPECT_EQ(type_of({group("m", 1, kOpt, ConvertedType::kMap), group("key_value", 2, kRep), leaf("key", kInt32, kReq),
                     group("value", 1, kOpt, ConvertedType::kList), group("list", 1, kRep),
                     leaf("element", kInt32, kOpt)}),
            "MAP(INTEGER, ARRAY(INTEGER))");
  ColumnDescriptor c = only_column({group("m", 1, kOpt, ConvertedType::kMap), group("key_value", 2, kRep),
                                    leaf("key", kInt32, kReq), leaf("value", kInt32, kOpt)});
  EXPECT_TRUE(c.tree->is_map);
  EXPECT_EQ(c.tree->children.at(0).kind, NestedField::Kind::kStruct);
  EXPECT_EQ(c.tree->children.at(0).type.to_string(), "ROW(key INTEGER, value INTEGER)");
}

TEST(ParquetNestedSchema, StructsAndRepeatedFieldsWithoutAnnotation) {
  EXPECT_EQ(type_of({group("s", 2, kOpt), leaf("a", kInt32, kOpt), leaf("b", kBytes, kReq, ConvertedType::kUtf8)}),
            "ROW(a INTEGER, b VARCHAR)");
  ColumnDescriptor r = only_column({leaf("r", kInt32, kRep)});
  EXPECT_EQ(r.type.to_string(), "ARRAY(INTEGER)");
  EXPECT_FALSE(r.nullable);
  EXPECT_EQ(type_of({group("s", 1, kOpt), group("phone", 2, kRep), leaf("number", PhysicalType::kInt64, kReq),
                     leaf("kind", kBytes, kOpt, ConvertedType::kUtf8)}),
            "ROW(phone ARRAY(ROW(number BIGINT, kind VARCHAR)))");
}

TEST(ParquetNestedSchema, LeafIndicesCountEveryLeafBefore) {
  SchemaMapping m = map_schema({root(3), group("s", 2, kOpt), leaf("a", kInt32, kOpt), leaf("b", kInt32, kOpt),
                                leaf("flat", kInt32, kReq), leaf("r", kInt32, kRep)});
  ASSERT_EQ(m.columns.size(), 3u);
  EXPECT_EQ(m.num_leaves, 4u);
  EXPECT_EQ(m.columns[0].leaf_index, 0u);
  EXPECT_EQ(m.columns[0].leaf_count, 2u);
  EXPECT_EQ(m.columns[0].tree->children[1].leaf.leaf_index, 1u);
  EXPECT_EQ(m.columns[1].leaf_index, 2u);
  EXPECT_FALSE(m.columns[1].nested);
  EXPECT_EQ(m.columns[2].leaf_index, 3u);
}

TEST(ParquetNestedSchema, UnmappableFieldsAreUnreadableWithTheReason) {
  EXPECT_EQ(type_of({group("a", 2, kOpt, ConvertedType::kList), leaf("x", kInt32, kRep), leaf("y", kInt32, kRep)}),
            "unreadable: column 'a': LIST group 'a' has 2 fields (one repeated field expected)");
  EXPECT_EQ(type_of({group("a", 1, kOpt, ConvertedType::kList), leaf("x", kInt32, kOpt)}),
            "unreadable: column 'a': LIST group 'a': its field 'x' is not repeated");
  EXPECT_EQ(type_of({group("m", 1, kOpt, ConvertedType::kMap), group("kv", 3, kRep), leaf("k", kInt32, kReq),
                     leaf("v", kInt32, kOpt), leaf("w", kInt32, kOpt)}),
            "unreadable: column 'm': MAP key_value group 'm.kv' has 3 fields (a key and a value expected)");
  EXPECT_EQ(type_of({group("m", 1, kOpt, ConvertedType::kMap), leaf("k", kInt32, kRep)}),
            "unreadable: column 'm': MAP group 'm': its field 'k' is not a repeated group");
  // A leaf of a type Kestrel lacks, deep inside.
  std::string time = type_of({group("s", 1, kOpt), group("l", 1, kOpt, ConvertedType::kList), group("list", 1, kRep),
                              leaf("element", kInt32, kOpt, ConvertedType::kTimeMillis)});
  EXPECT_EQ(time, "unreadable: column 's': field 's.l.list.element': TIME columns are not supported");
  // Two fields of one name (ROW names are case-insensitive).
  std::string twice = type_of({group("s", 2, kOpt), leaf("a", kInt32, kOpt), leaf("A", kInt32, kOpt)});
  EXPECT_NE(twice.find("unreadable: column 's': group 's': ROW field name 'A' is given twice"), std::string::npos)
      << twice;
}

// ---------------------------------------------------------------------------------------------------------------
// Levels and assembly

/// Bytes of one v1 data page of a leaf with both levels RLE-encoded (length-prefixed), then PLAIN int32 values.
std::vector<uint8_t> v1_page(const std::vector<uint32_t>& rep, const std::vector<uint32_t>& def, int rep_width,
                             int def_width, const std::vector<int32_t>& values) {
  std::vector<uint8_t> body;
  for (auto [levels, width] : {std::pair{&rep, rep_width}, std::pair{&def, def_width}}) {
    std::vector<uint8_t> encoded;
    rle_encode(levels->data(), levels->size(), width, encoded);
    uint32_t n = static_cast<uint32_t>(encoded.size());
    for (int i = 0; i < 4; ++i) body.push_back(static_cast<uint8_t>(n >> (8 * i)));
    body.insert(body.end(), encoded.begin(), encoded.end());
  }
  body = testing::concat(body, testing::le_bytes(values));
  testing::TestPage page;
  page.num_values = static_cast<int32_t>(rep.size());
  page.body = body;
  return testing::concat(testing::page_header(page), body);
}

/// `a`: optional LIST of optional INT32 (max repetition 1, max definition 3).
ColumnDescriptor int_list_column() {
  return only_column({group("a", 1, kOpt, ConvertedType::kList), group("list", 1, kRep),
                      leaf("element", kInt32, kOpt)});
}

/// Decodes `pages` as the leaf chunk of `column` (its first leaf) for `rows` rows and `entries` level entries.
LeafLevels decode(const ColumnDescriptor& column, const std::vector<uint8_t>& pages, size_t rows, int64_t entries) {
  const NestedField& leaf_field = column.tree->children.at(0);
  ColumnMetaData meta;
  meta.type = kInt32;
  meta.codec = CompressionCodec::kUncompressed;
  meta.num_values = entries;
  std::string file = "t.parquet";
  return decode_leaf_chunk(ByteSpan{pages.data(), pages.size()}, leaf_field, meta, rows, ChunkDecodeOptions{},
                           ChunkLocation{&file, 0}, column.name, gpu::host_memory_resource());
}

std::string invalid_message(const std::function<void()>& f) {
  try {
    f();
  } catch (const InvalidInput& e) {
    return e.message();
  }
  return "no error";
}

TEST(ParquetNestedLevels, ListOfNullableIntsWithNullAndEmptyLists) {
  // Rows [1, NULL, 2], NULL, [], [3], split over two pages at a row boundary.
  ColumnDescriptor c = int_list_column();
  std::vector<uint8_t> pages = testing::concat(v1_page({0, 1, 1, 0}, {3, 2, 3, 0}, 1, 2, {1, 2}),
                                               v1_page({0, 0}, {1, 3}, 1, 2, {3}));
  std::vector<LeafLevels> leaves;
  leaves.push_back(decode(c, pages, 4, 6));
  EXPECT_EQ(leaves[0].values->length(), 4u);  // the elements: 1, NULL, 2, 3
  ColumnPtr column = assemble_nested_column(*c.tree, leaves, gpu::host_memory_resource());
  ASSERT_EQ(column->length(), 4u);
  EXPECT_EQ(column->value_at(0).to_string(), "[1, NULL, 2]");
  EXPECT_FALSE(column->is_valid(1));
  EXPECT_EQ(column->value_at(2).to_string(), "[]");
  EXPECT_EQ(column->value_at(3).to_string(), "[3]");
  EXPECT_EQ(column->null_count(), 1u);
}

TEST(ParquetNestedLevels, MalformedLevelsAreCleanErrorsNamingThePage) {
  ColumnDescriptor c = int_list_column();
  // Levels above the maxima: 3 in the 2 bits of a list of required ints (maximum definition level 2), and a value
  // wider than the stream's bit width.
  ColumnDescriptor required = only_column({group("a", 1, kOpt, ConvertedType::kList), group("list", 1, kRep),
                                           leaf("element", kInt32, kReq)});
  std::string msg = invalid_message([&] { decode(required, v1_page({0, 0}, {2, 3}, 1, 2, {1, 2}), 2, 2); });
  EXPECT_NE(msg.find("column 'a' (leaf 'a.list.element') page 0 of row group 0: definition level 3 above the "
                     "column's maximum 2"),
            std::string::npos)
      << msg;
  msg = invalid_message([&] { decode(c, v1_page(std::vector<uint32_t>(8, 2), std::vector<uint32_t>(8, 0), 1, 2, {}),
                                     8, 8); });
  EXPECT_NE(msg.find("page 0 of row group 0: RLE run value 2 wider than 1 bits"), std::string::npos) << msg;
  msg = invalid_message([&] { decode(c, v1_page({1, 0}, {3, 3}, 1, 2, {1, 2}), 2, 2); });
  EXPECT_NE(msg.find("starts inside a row"), std::string::npos) << msg;
  msg = invalid_message([&] { decode(c, v1_page({0, 1}, {3, 1}, 1, 2, {1}), 1, 2); });
  EXPECT_NE(msg.find("repetition level 1 with definition level 1"), std::string::npos) << msg;
  // Rows other than the row group's, and more entries than the metadata says.
  msg = invalid_message([&] { decode(c, v1_page({0, 0}, {3, 3}, 1, 2, {1, 2}), 3, 2); });
  EXPECT_NE(msg.find("the column chunk holds 2 rows, the row group has 3"), std::string::npos) << msg;
  msg = invalid_message([&] { decode(c, v1_page({0, 0}, {3, 3}, 1, 2, {1, 2}), 2, 1); });
  EXPECT_NE(msg.find("more than the 1 level entries of the chunk's metadata"), std::string::npos) << msg;
  // Levels cut short.
  std::vector<uint8_t> page = v1_page({0, 1, 1, 1}, {3, 3, 3, 3}, 1, 2, {1, 2, 3, 4});
  page.resize(page.size() - 12);
  msg = invalid_message([&] { decode(c, page, 1, 4); });
  EXPECT_NE(msg.find("page 0 of row group 0"), std::string::npos) << msg;
}

TEST(ParquetNestedLevels, LeavesThatDisagreeAreACleanError) {
  ColumnDescriptor s = only_column({group("s", 2, kOpt), leaf("a", kInt32, kOpt), leaf("b", kInt32, kOpt)});
  std::vector<LeafLevels> leaves(2);
  leaves[0].rep = {0, 0};
  leaves[0].def = {2, 2};
  leaves[0].values = Column::from_values(TypeId::kInteger, {Value::integer(1), Value::integer(2)});
  leaves[1].rep = {0};
  leaves[1].def = {2};
  leaves[1].values = Column::from_values(TypeId::kInteger, {Value::integer(5)});
  std::string msg = invalid_message([&] { assemble_nested_column(*s.tree, leaves, gpu::host_memory_resource()); });
  EXPECT_EQ(msg, "the leaves of 's' disagree: leaf 's.a' gives it 2 values of 's.b', leaf 's.b' holds 1");
  // In agreement: a NULL struct (definition 0) and a struct with a NULL field.
  leaves[0].def = {0, 2};
  leaves[0].values = Column::from_values(TypeId::kInteger, {Value::null(TypeId::kInteger), Value::integer(2)});
  leaves[1].rep = {0, 0};
  leaves[1].def = {0, 1};
  leaves[1].values = Column::from_values(TypeId::kInteger, {Value::null(TypeId::kInteger), Value::null(TypeId::kInteger)});
  ColumnPtr column = assemble_nested_column(*s.tree, leaves, gpu::host_memory_resource());
  EXPECT_FALSE(column->is_valid(0));
  EXPECT_EQ(column->value_at(1).to_string(), "{a=2, b=NULL}");
}

TEST(ParquetNestedLevels, NullMapKeyIsACleanError) {
  ColumnDescriptor m = only_column({group("m", 1, kOpt, ConvertedType::kMap), group("key_value", 2, kRep),
                                    leaf("key", kInt32, kOpt), leaf("value", kInt32, kOpt)});
  std::vector<LeafLevels> leaves(2);
  for (LeafLevels& l : leaves) {
    l.rep = {0, 1};
    l.def = {3, 2};  // the second entry's key and value are NULL
    l.values = Column::from_values(TypeId::kInteger, {Value::integer(1), Value::null(TypeId::kInteger)});
  }
  EXPECT_EQ(invalid_message([&] { assemble_nested_column(*m.tree, leaves, gpu::host_memory_resource()); }),
            "MAP 'm' holds a NULL key");
  leaves[0].def = {3, 3};
  leaves[0].values = Column::from_values(TypeId::kInteger, {Value::integer(1), Value::integer(2)});
  ColumnPtr column = assemble_nested_column(*m.tree, leaves, gpu::host_memory_resource());
  EXPECT_EQ(column->value_at(0).to_string(), "{1=1, 2=NULL}");
}

}  // namespace
}  // namespace kestrel::io::parquet
