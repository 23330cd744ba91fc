#pragma once
/// Types of numeric literals as written in SQL text (Presto-like): `42` is INTEGER, `3000000000` BIGINT, a
/// whole number beyond BIGINT DECIMAL(p,0) up to 38 digits, `1.50` DECIMAL(3,2), `.5` DECIMAL(1,1), `1e3` and
/// `1.5E-2` DOUBLE.

#include <optional>
#include <string_view>

#include "common/error.hpp"
#include "common/value.hpp"

namespace kestrel::plan {

/// The typed value of the unsigned numeric literal `text` (digits, optional point and fraction, optional
/// exponent). Throws BinderError (code 22003) for a number with more than 38 significant digits and (22P02) for
/// text that is not a number.
Value numeric_literal(std::string_view text, std::optional<SourcePosition> pos);

}  // namespace kestrel::plan
