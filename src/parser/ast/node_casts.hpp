#pragma once
/// The kind test and checked downcast shared by the AST's node families (Expr, QueryBody, TableRef, Statement):
/// each family has a `kind` member, and each concrete node names its kind in `kKind`.

#include "common/check.hpp"

namespace kestrel::ast {

template <typename Base>
struct NodeCasts {
  /// Whether this node is a `T`.
  template <typename T>
  bool is() const {
    return self().kind == T::kKind;
  }
  /// This node as its concrete type; the caller has checked the kind (checked in debug builds).
  template <typename T>
  const T& as() const {
    KESTREL_DCHECK(is<T>());
    return static_cast<const T&>(self());
  }
  template <typename T>
  T& as() {
    KESTREL_DCHECK(is<T>());
    return static_cast<T&>(static_cast<Base&>(*this));
  }

 private:
  const Base& self() const { return static_cast<const Base&>(*this); }
};

}  // namespace kestrel::ast
