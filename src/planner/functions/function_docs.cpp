#include "planner/functions/function_docs.hpp"

#include <map>
#include <string_view>
#include <vector>

#include "planner/functions/function_registry.hpp"

namespace kestrel::plan {

namespace {

/// `text` as Markdown inline code; a backtick inside takes a longer fence.
std::string code(std::string_view text) {
  const std::string_view fence = text.find('`') == std::string_view::npos ? "`" : "`` ";
  const std::string_view close = fence.size() == 1 ? "`" : " ``";
  return std::string(fence) + std::string(text) + std::string(close);
}

/// The anchor GitHub gives a heading: lower case, spaces as dashes.
std::string anchor_of(std::string_view title) {
  std::string anchor;
  for (char ch : title) anchor += ch == ' ' ? '-' : (ch >= 'A' && ch <= 'Z') ? static_cast<char>(ch - 'A' + 'a') : ch;
  return anchor;
}

/// The entry's heading: its name, then its aliases.
std::string heading(const FunctionEntry& e, const std::vector<std::string_view>& aliases) {
  std::string out = "### " + code(e.name);
  for (std::string_view a : aliases) out += ", " + code(a);
  return out + "\n\n";
}

void append_entry(std::string& out, const FunctionEntry& e, const std::vector<std::string_view>& aliases) {
  out += heading(e, aliases);
  size_t begin = 0;
  while (begin <= e.doc.signature.size()) {
    size_t end = e.doc.signature.find('\n', begin);
    if (end == std::string_view::npos) end = e.doc.signature.size();
    out += "    " + std::string(e.doc.signature.substr(begin, end - begin)) + "\n";
    begin = end + 1;
  }
  out += "\n" + std::string(e.doc.description) + "\n\n";
  out += "NULL: " + std::string(e.doc.nulls) + "\n\n";
  out += "Example: " + code("SELECT " + std::string(e.doc.example));
  if (!e.doc.result.empty()) out += " gives " + code(e.doc.result);
  out += "\n\n";
}

}  // namespace

std::string functions_markdown() {
  std::string out =
      "# Functions and operators\n\n"
      "Generated from the function registry (`src/planner/functions/registry_*.cpp`) by\n"
      "`kestrel --list-functions-markdown > docs/functions.md`; do not edit it by hand. A unit test fails when this\n"
      "file differs from the registry, and another runs every example below and checks its result.\n\n"
      "Functions follow Presto's semantics unless a description says otherwise. Every function runs on the CPU;\n"
      "the README lists those the GPU evaluates too. A GPU query using another one runs that step on the CPU, or is\n"
      "refused with `gpu_fallback = false`.\n\n";
  for (const FunctionCategory& c : function_categories()) {
    out += "- [" + std::string(c.title) + "](#" + anchor_of(c.title) + ")\n";
  }
  out += "\n";
  for (const FunctionCategory& c : function_categories()) {
    out += "## " + std::string(c.title) + "\n\n";
    if (!c.introduction.empty()) out += std::string(c.introduction) + "\n\n";
    std::map<std::string_view, std::vector<std::string_view>> aliases;
    for (const FunctionEntry& e : c.entries) {
      if (!e.alias_of.empty()) aliases[e.alias_of].push_back(e.name);
    }
    for (const FunctionEntry& e : c.entries) {
      if (e.alias_of.empty()) append_entry(out, e, aliases[e.name]);
    }
  }
  while (out.size() >= 2 && out[out.size() - 1] == '\n' && out[out.size() - 2] == '\n') out.pop_back();
  return out;
}

}  // namespace kestrel::plan
