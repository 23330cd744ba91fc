#include "common/check.hpp"

namespace kestrel::detail {

void check_failed(const char* file, int line, const std::string& what) {
  std::ostringstream out;
  out << what << " at " << file << ":" << line;
  throw InternalError(out.str());
}

}  // namespace kestrel::detail
