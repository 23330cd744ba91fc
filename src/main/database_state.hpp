#pragma once
/// What a Database holds besides its options: the catalog and the settings.

#include <functional>

#include "catalog/catalog.hpp"
#include "main/database.hpp"
#include "main/settings.hpp"

namespace kestrel {

struct Database::State {
  catalog::Catalog catalog;
  Settings settings;
  /// Queries are to run on the GPU (the effective device is the GPU).
  bool gpu = false;
  /// Progress of the running statement (pipeline, morsels done, morsels, pipelines); set by the CLI on a terminal.
  std::function<void(size_t, size_t, size_t, size_t)> progress;
};

}  // namespace kestrel
