#pragma once
/// Parameters of the extended query protocol: `$1`, `$2`, ... in a statement are replaced by typed SQL literals
/// made from the values of a Bind message (text or binary format), and error offsets in the result map back to
/// the statement as the client wrote it.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kestrel::server::pg {

/// One parameter value of a Bind message.
struct ParameterValue {
  int32_t type_oid = 0;              ///< from Parse; 0 = unspecified
  int16_t format = 0;                ///< 0 text, 1 binary
  std::optional<std::string> bytes;  ///< nullopt = NULL
};

/// A statement with its parameters substituted.
class BoundStatement {
 public:
  const std::string& sql() const { return sql_; }
  /// The byte offset in the original statement of byte `offset` of sql().
  size_t original_offset(size_t offset) const;

 private:
  friend BoundStatement bind_parameters(std::string_view sql, const std::vector<ParameterValue>& values);
  struct Replacement {
    size_t bound_begin, bound_end;        ///< the literal's range in sql_
    size_t original_begin, original_end;  ///< where `$n` was in the original
  };
  std::string sql_;
  std::vector<Replacement> replacements_;
};

/// The highest `$n` in `sql` outside strings, quoted names and comments (0 when there are none).
int highest_parameter(std::string_view sql);

/// Substitutes every `$n`; throws kestrel errors for a missing parameter or a value its type cannot hold.
BoundStatement bind_parameters(std::string_view sql, const std::vector<ParameterValue>& values);

}  // namespace kestrel::server::pg
