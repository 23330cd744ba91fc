#pragma once
/// Text forms of values shared by the CLI, the result formatters and the test runner.

#include <string>
#include <string_view>

namespace kestrel {

/// Shortest text that reads back as the same double; integral values keep one decimal (`3.0`).
std::string format_double(double v);

/// A VARBINARY value as the CLI prints it: two lower-case hex digits per byte, separated by spaces (`00 ff`).
std::string format_varbinary(std::string_view bytes);

}  // namespace kestrel
