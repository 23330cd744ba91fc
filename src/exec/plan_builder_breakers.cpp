#include "exec/plan_builder.hpp"

namespace kestrel::exec {

PlanBuilder::Open PlanBuilder::build_breaker(const plan::LogicalPtr& node) {
  throw NotImplemented(std::string("the CPU operator for '") + node->label() + "' is not wired yet");
}

}  // namespace kestrel::exec
