#pragma once
/// The files of a table location: one file, a folder (every file with the format's extension below it, in name
/// order, skipping names that start with '.' or '_'), or a glob pattern (the same names skipped).

#include <string>
#include <vector>

namespace kestrel::io {

/// Throws InvalidInput naming `format` ("Parquet", "kcol") when a folder or pattern holds no such file.
std::vector<std::string> list_table_files(const std::string& location, const std::string& extension,
                                          const std::string& format);

}  // namespace kestrel::io
