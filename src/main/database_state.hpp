#pragma once
/// What a Database holds besides its options: the catalog and the settings.

#include "catalog/catalog.hpp"
#include "main/database.hpp"
#include "main/settings.hpp"

namespace kestrel {

struct Database::State {
  catalog::Catalog catalog;
  Settings settings;
};

}  // namespace kestrel
