#pragma once
/// Trino's `EXECUTE IMMEDIATE 'statement' USING value, ...`, which the Trino clients send for statements with `?`
/// parameters: the statement with each `?` replaced by the text of its value, in order.

#include <optional>
#include <string>
#include <string_view>

namespace kestrel::server::trino {

/// The statement `sql` runs when it is an EXECUTE IMMEDIATE, with its parameters in place; nullopt for any other
/// statement. Throws InvalidInput when the statement text is not a string literal or the values do not match the
/// `?` placeholders in number.
std::optional<std::string> expand_execute_immediate(std::string_view sql);

}  // namespace kestrel::server::trino
