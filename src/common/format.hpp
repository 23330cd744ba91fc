#pragma once
/// Text forms of values shared by the CLI, the result formatters and the test runner.

#include <string>

namespace kestrel {

/// Shortest text that reads back as the same double; integral values keep one decimal (`3.0`).
std::string format_double(double v);

}  // namespace kestrel
