/// kestrel-csv-cat: reads CSV files with Kestrel's CSV reader and prints their schema or re-emits their rows as
/// RFC 4180 CSV (a header row, NULL as an empty field, an empty string as ""), values as Value::to_string prints
/// them. A developer tool for end-to-end tests of the reader.
///
///   kestrel-csv-cat [--schema | --count] [--NAME VALUE ...] PATH
///
/// Every `--NAME VALUE` is a CSV option of csv_options.hpp (`--delim '|' --header false --nullstr NULL ...`;
/// dashes in NAME read as underscores). PATH is a file, a folder or a glob.

#include <cstdio>
#include <cstring>
#include <string>

#include "common/error.hpp"
#include "io/csv/csv_reader.hpp"

namespace {

void usage() {
  std::fprintf(stderr,
               "usage: kestrel-csv-cat [--schema | --count] [--OPTION VALUE ...] PATH\n"
               "  --schema       print 'name TYPE' per column instead of the rows\n"
               "  --count        print the number of rows\n"
               "  options: delim, quote, escape, header, nullstr, skip, columns, types, names, sample_size,\n"
               "           trailing_delimiter, batch_size, threads, block_size (see src/io/csv/csv_options.hpp)\n");
}

void append_csv_field(std::string& out, const std::string& text) {
  bool quote = text.empty() || text.find_first_of(",\"\r\n") != std::string::npos;
  if (!quote) {
    out += text;
    return;
  }
  out += '"';
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

void flush(std::string& out) {
  std::fwrite(out.data(), 1, out.size(), stdout);
  out.clear();
}

int run(int argc, char** argv) {
  kestrel::CsvOptions options;
  bool schema_only = false, count_only = false;
  std::string path;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--schema") {
      schema_only = true;
    } else if (arg == "--count") {
      count_only = true;
    } else if (arg == "--help" || arg == "-h") {
      usage();
      return 0;
    } else if (arg.rfind("--", 0) == 0) {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "kestrel-csv-cat: option %s needs a value\n", arg.c_str());
        return 2;
      }
      std::string name = arg.substr(2);
      for (char& c : name) c = c == '-' ? '_' : c;
      options.set(name, argv[++i]);
    } else if (path.empty()) {
      path = arg;
    } else {
      usage();
      return 2;
    }
  }
  if (path.empty()) {
    usage();
    return 2;
  }
  auto reader = kestrel::CsvReader::open(path, options);
  const kestrel::Schema& schema = *reader->schema();
  std::string out;
  if (schema_only) {
    for (const kestrel::Field& f : schema.fields()) out += f.name + " " + f.type.to_string() + "\n";
    flush(out);
    return 0;
  }
  size_t rows = 0;
  if (!count_only) {
    for (size_t c = 0; c < schema.size(); ++c) {
      if (c > 0) out += ',';
      append_csv_field(out, schema.field(c).name);
    }
    out += '\n';
  }
  while (auto batch = reader->next_batch()) {
    rows += batch->num_rows();
    if (count_only) continue;
    for (size_t r = 0; r < batch->num_rows(); ++r) {
      for (size_t c = 0; c < batch->num_columns(); ++c) {
        if (c > 0) out += ',';
        kestrel::Value v = batch->column(c)->value_at(r);
        if (!v.is_null()) append_csv_field(out, v.to_string());
      }
      out += '\n';
      if (out.size() > (1 << 20)) flush(out);
    }
  }
  if (count_only) out += std::to_string(rows) + "\n";
  flush(out);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const kestrel::Error& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "%s\n", kestrel::format_error(e).c_str());
    return 1;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "kestrel-csv-cat: %s\n", e.what());
    return 1;
  }
}
