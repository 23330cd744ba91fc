#include "vector/batch.hpp"

#include <strings.h>

#include "common/check.hpp"

namespace kestrel {

std::optional<size_t> Schema::index_of(const std::string& name) const {
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (strcasecmp(fields_[i].name.c_str(), name.c_str()) == 0) return i;
  }
  return std::nullopt;
}

std::string Schema::to_string() const {
  std::string out = "(";
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (i > 0) out += ", ";
    out += fields_[i].name + " " + fields_[i].type.to_string();
  }
  return out + ")";
}

Batch::Batch(SchemaPtr schema, std::vector<ColumnPtr> columns, size_t rows, gpu::MemoryKind residency,
             gpu::Stream stream)
    : schema_(std::move(schema)), columns_(std::move(columns)), rows_(rows), residency_(residency), stream_(stream) {
  KESTREL_CHECK_EQ(schema_->size(), columns_.size());
  for (const auto& column : columns_) {
    KESTREL_CHECK_EQ(column->length(), rows_);
    KESTREL_CHECK_MSG(gpu::is_host_kind(column->kind()) == gpu::is_host_kind(residency_),
                      "column in " << gpu::memory_kind_name(column->kind()) << " memory in a "
                                   << gpu::memory_kind_name(residency_) << " batch");
  }
}

}  // namespace kestrel
