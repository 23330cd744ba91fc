#pragma once
/// Compiled regular expressions (RE2) for the regexp_ functions, cached by pattern text for the whole process:
/// a constant pattern is compiled once, not once per row or batch, and a pattern column compiles each distinct
/// pattern once while it stays in the cache. RE2 objects are immutable and safe to match from several threads.

#include <memory>
#include <string_view>

namespace re2 {
class RE2;
}

namespace kestrel::exec {

/// The compiled form of `pattern` (RE2 syntax, UTF-8). Throws InvalidInput (2201B) naming `function` and the
/// pattern when it does not compile: `regexp_like: invalid regular expression '(a': missing ): (a`.
std::shared_ptr<const re2::RE2> compiled_regexp(std::string_view pattern, std::string_view function);

}  // namespace kestrel::exec
