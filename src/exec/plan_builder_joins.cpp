#include "exec/plan_builder.hpp"

namespace kestrel::exec {

PlanBuilder::Open PlanBuilder::build_join(const plan::LogicalJoin& join) {
  throw NotImplemented("the CPU operator for '" + join.label() + "' is not wired yet");
}

PlanBuilder::Open PlanBuilder::build_set_op(const plan::LogicalSetOp& op) {
  throw NotImplemented("the CPU operator for '" + op.label() + "' is not wired yet");
}

}  // namespace kestrel::exec
