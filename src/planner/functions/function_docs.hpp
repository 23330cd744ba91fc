#pragma once
/// docs/functions.md, generated from the function registry (function_registry.hpp). `kestrel
/// --list-functions-markdown` prints it; the unit test FunctionDocs.MarkdownMatchesTheRegistry fails when the
/// checked-in file differs, and tells how to regenerate it.

#include <string>

namespace kestrel::plan {

/// The whole of docs/functions.md.
std::string functions_markdown();

}  // namespace kestrel::plan
