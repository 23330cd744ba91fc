#pragma once
/// The interactive shell: line editing and history (libedit), multi-line statements, dot commands.

#include "cli/session.hpp"

namespace kestrel::cli {

/// Reads statements from the terminal until `.quit` or end of input; returns the exit status.
int run_interactive(Session& session);

/// True when `buffer` holds at least one complete statement: its last code character (outside quotes and
/// comments) is ';'.
bool statement_complete(const std::string& buffer);

}  // namespace kestrel::cli
