#include "exec/expr/like_matcher.hpp"
#include "expr_test_util.hpp"

namespace kestrel::exec::testing {
namespace {

struct LikeCase {
  const char* pattern;
  const char* text;
  bool expected;
};

void check(const std::vector<LikeCase>& cases, std::optional<std::string_view> escape = std::nullopt) {
  for (const LikeCase& c : cases) {
    SCOPED_TRACE(std::string("'") + c.text + "' LIKE '" + c.pattern + "'");
    EXPECT_EQ(LikeMatcher::compile(c.pattern, escape).matches(c.text), c.expected);
  }
}

TEST(LikeMatcher, FastPathShapes) {
  using K = LikeMatcher::Kind;
  EXPECT_EQ(LikeMatcher::compile("abc").kind(), K::kExact);
  EXPECT_EQ(LikeMatcher::compile("abc%").kind(), K::kPrefix);
  EXPECT_EQ(LikeMatcher::compile("%abc").kind(), K::kSuffix);
  EXPECT_EQ(LikeMatcher::compile("%abc%").kind(), K::kContains);
  EXPECT_EQ(LikeMatcher::compile("%").kind(), K::kAll);
  EXPECT_EQ(LikeMatcher::compile("%%%").kind(), K::kAll);
  EXPECT_EQ(LikeMatcher::compile("a%c").kind(), K::kGeneral);
  EXPECT_EQ(LikeMatcher::compile("a_c").kind(), K::kGeneral);
  EXPECT_EQ(LikeMatcher::compile("a\\%").kind(), K::kExact);  // escaped % is a literal
}

TEST(LikeMatcher, PercentAndUnderscore) {
  check({
      {"abc", "abc", true},       {"abc", "abcd", false},   {"abc%", "abcd", true},   {"abc%", "ab", false},
      {"%abc", "xxabc", true},    {"%abc", "abcx", false},  {"%abc%", "xabcx", true}, {"%abc%", "xabx", false},
      {"%", "", true},            {"", "", true},           {"", "a", false},         {"_", "a", true},
      {"_", "", false},           {"_", "ab", false},       {"a_c", "abc", true},     {"a_c", "ac", false},
      {"a%c", "ac", true},        {"a%c", "abbbc", true},   {"a%c", "abbbcd", false}, {"%a%b%c%", "xaybzcw", true},
      {"%a%b%c%", "cba", false},  {"_%_", "ab", true},      {"_%_", "a", false},      {"%_%", "", false},
      {"a%b%a", "aba", true},     {"a%b%a", "ab", false},   {"a%a", "a", false},      {"%aa", "aaa", true},
      {"%ab_", "abab", false},    {"%ab_", "xabc", true},   {"%b_b%", "abcbd", true},  {"__%__", "abc", false},
      {"%special%requests%", "carefully special packages requests", true},
      {"%special%requests%", "requests special", false},
      {"%BRASS", "MEDIUM POLISHED BRASS", true}, {"PROMO%", "PROMO BRUSHED TIN", true},
      {"%green%", "forest green", true}, {"%Customer%Complaints%", "Customer ... Complaints!", true},
  });
}

TEST(LikeMatcher, EscapeCharacter) {
  // Default escape is backslash (PostgreSQL).
  check({{"100\\%", "100%", true}, {"100\\%", "1000", false}, {"a\\_c", "a_c", true}, {"a\\_c", "abc", false},
         {"a\\\\c", "a\\c", true}, {"%\\%%", "50% off", true}, {"%\\%%", "50 off", false}});
  check({{"100#%", "100%", true}, {"100#%", "100x", false}, {"#_%", "_abc", true}, {"#_%", "abc", false},
         {"a\\%", "a\\xyz", true}, {"##", "#", true}},
        std::string_view("#"));
  // Empty ESCAPE disables escaping.
  check({{"a\\%", "a\\bc", true}, {"a\\%", "a%", false}}, std::string_view(""));
  EXPECT_THROW(LikeMatcher::compile("abc\\"), InvalidInput);
  EXPECT_THROW(LikeMatcher::compile("abc", std::string_view("##")), InvalidInput);
}

TEST(LikeMatcher, Utf8CharactersAreOneUnderscore) {
  check({{"_", "é", true},           {"__", "é", false},          {"caf_", "café", true},
         {"%é", "résumé", true},     {"r_sum_", "résumé", true},  {"_ü_", "Müh", true},
         {"%_", "日本", true},        {"日_", "日本", true},         {"___", "日本", false},
         {"%本", "日本", true},       {"_本%", "日本語", true},      {"%€_", "price €5", true}});
  // A multi-byte escape character.
  check({{"a§%", "a%", true}, {"a§%", "ab", false}}, std::string_view("§"));
}

TEST(LikeKernel, ColumnsConstantsNullsAndNotLike) {
  Batch batch = make_batch({column(kVarchar, {str("PROMO ANODIZED"), str("STANDARD"), null_of(kVarchar), str("")})});
  EXPECT_EQ(eval(fn(F::kLike, kBool, {ref(0, kVarchar), lit(str("PROMO%"))}), batch),
            (std::vector<Value>{b(true), b(false), null_of(kBool), b(false)}));
  EXPECT_EQ(eval(fn(F::kNotLike, kBool, {ref(0, kVarchar), lit(str("%A%"))}), batch),
            (std::vector<Value>{b(false), b(false), null_of(kBool), b(true)}));
  EXPECT_EQ(eval(fn(F::kLike, kBool, {ref(0, kVarchar), lit(null_of(kVarchar))}), batch),
            (std::vector<Value>(4, null_of(kBool))));
  // Pattern and escape per row.
  Batch rows = make_batch({column(kVarchar, {str("a%"), str("ab"), str("xyz")}),
                           column(kVarchar, {str("a!%"), str("a!%"), str("_y_")}),
                           column(kVarchar, {str("!"), str("!"), str("!")})});
  EXPECT_EQ(eval(fn(F::kLike, kBool, {ref(0, kVarchar), ref(1, kVarchar), ref(2, kVarchar)}), rows),
            (std::vector<Value>{b(true), b(false), b(true)}));
}

TEST(LikeKernel, DictionaryInput) {
  Batch batch = make_batch({dictionary_column({"LARGE BRUSHED BRASS", "SMALL PLATED TIN", "ECONOMY BRASS"},
                                              {0, 1, 2, 2, -1, 0})});
  EXPECT_EQ(eval(fn(F::kLike, kBool, {ref(0, kVarchar), lit(str("%BRASS"))}), batch),
            (std::vector<Value>{b(true), b(false), b(true), b(true), null_of(kBool), b(true)}));
}

}  // namespace
}  // namespace kestrel::exec::testing
