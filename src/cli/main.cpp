#include <malloc.h>

#include "cli/shell.hpp"

int main(int argc, char** argv) {
  // Column buffers of a few MiB to a few hundred MiB are allocated and freed once per batch and per row group.
  // By default glibc maps each one afresh (above its 32 MiB ceiling) and returns freed memory at once, so every
  // batch paid for zeroed pages again: writing SF1 lineitem to zstd Parquet spent about a quarter of its system
  // time there. Kept in the heap (up to 1 GiB held free), they are reused.
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  return kestrel::cli::run_main(argc, argv);
}
