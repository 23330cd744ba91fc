// The Snowball English stemmer: exceptional forms, then steps 0, 1a, 1b, 1c, 2, 3, 4 and 5 over the regions R1 and
// R2. Each step looks for the longest of its suffixes that the word ends with and applies that suffix's rule only
// (a failed condition does not fall back to a shorter suffix).

#include "exec/expr/english_stemmer.hpp"

#include <array>
#include <utility>

namespace kestrel::exec {

namespace {

/// A word being stemmed: its letters (a leading or vowel-following y is marked as Y) and its regions.
class Stem {
 public:
  explicit Stem(std::string word) : w_(std::move(word)) {}

  std::string& word() { return w_; }
  size_t size() const { return w_.size(); }

  static bool vowel_letter(char c) { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' || c == 'y'; }
  bool vowel(size_t i) const { return vowel_letter(w_[i]); }

  bool ends_with(std::string_view s) const {
    return w_.size() >= s.size() && w_.compare(w_.size() - s.size(), s.size(), s) == 0;
  }
  /// Whether the suffix of `n` letters lies in R1 (R2).
  bool in_r1(size_t n) const { return w_.size() - n >= r1_; }
  bool in_r2(size_t n) const { return w_.size() - n >= r2_; }
  void replace_suffix(size_t n, std::string_view by) { w_.replace(w_.size() - n, n, by); }

  /// Marks y as Y at the start and after vowels, then finds R1 and R2.
  void prepare() {
    for (size_t i = 0; i < w_.size(); ++i) {
      if (w_[i] == 'y' && (i == 0 || vowel(i - 1))) w_[i] = 'Y';
    }
    r1_ = w_.size();
    for (std::string_view prefix : {"gener", "commun", "arsen"}) {
      if (w_.compare(0, prefix.size(), prefix) == 0) r1_ = prefix.size();
    }
    if (r1_ == w_.size()) r1_ = region_after(0);
    r2_ = region_after(r1_);
  }

  /// Whether the letters before the last `n` contain a vowel.
  bool vowel_before(size_t n) const {
    for (size_t i = 0; i + n < w_.size(); ++i) {
      if (vowel(i)) return true;
    }
    return false;
  }

  /// Whether the word ends in a short syllable: a vowel followed by a non-vowel other than w, x and Y and preceded
  /// by a non-vowel, or a vowel followed by a non-vowel at the start of a two-letter word.
  bool ends_short_syllable() const {
    const size_t n = w_.size();
    if (n == 2) return vowel(0) && !vowel(1);
    if (n < 3) return false;
    const char last = w_[n - 1];
    return !vowel(n - 3) && vowel(n - 2) && !vowel(n - 1) && last != 'w' && last != 'x' && last != 'Y';
  }
  bool is_short() const { return r1_ >= w_.size() && ends_short_syllable(); }

 private:
  /// The position after the first non-vowel that follows a vowel, from `from` on.
  size_t region_after(size_t from) const {
    for (size_t i = from + 1; i < w_.size(); ++i) {
      if (!vowel(i) && vowel(i - 1)) return i + 1;
    }
    return w_.size();
  }

  std::string w_;
  size_t r1_ = 0;
  size_t r2_ = 0;
};

/// The longest of `suffixes` the word ends with, or an empty view.
template <size_t N>
std::string_view longest(const Stem& s, const std::array<std::string_view, N>& suffixes) {
  std::string_view best;
  for (std::string_view x : suffixes) {
    if (x.size() > best.size() && s.ends_with(x)) best = x;
  }
  return best;
}

void step0(Stem& s) {
  const std::string_view x = longest(s, std::array<std::string_view, 3>{"'", "'s", "'s'"});
  if (!x.empty()) s.replace_suffix(x.size(), "");
}

void step1a(Stem& s) {
  const std::string_view x = longest(s, std::array<std::string_view, 6>{"sses", "ied", "ies", "s", "us", "ss"});
  if (x == "sses") {
    s.replace_suffix(4, "ss");
  } else if (x == "ied" || x == "ies") {
    s.replace_suffix(3, s.size() > 4 ? "i" : "ie");
  } else if (x == "s") {
    // Delete when a vowel comes before the letter preceding the s.
    if (s.size() >= 2 && s.vowel_before(2)) s.replace_suffix(1, "");
  }
}

void step1b(Stem& s) {
  const std::string_view x =
      longest(s, std::array<std::string_view, 6>{"eed", "eedly", "ed", "edly", "ing", "ingly"});
  if (x.empty()) return;
  if (x == "eed" || x == "eedly") {
    if (s.in_r1(x.size())) s.replace_suffix(x.size(), "ee");
    return;
  }
  if (!s.vowel_before(x.size())) return;
  s.replace_suffix(x.size(), "");
  if (s.ends_with("at") || s.ends_with("bl") || s.ends_with("iz")) {
    s.word().push_back('e');
  } else if (s.ends_with("bb") || s.ends_with("dd") || s.ends_with("ff") || s.ends_with("gg") ||
             s.ends_with("mm") || s.ends_with("nn") || s.ends_with("pp") || s.ends_with("rr") ||
             s.ends_with("tt")) {
    s.word().pop_back();
  } else if (s.is_short()) {
    s.word().push_back('e');
  }
}

void step1c(Stem& s) {
  const size_t n = s.size();
  if (n > 2 && (s.word()[n - 1] == 'y' || s.word()[n - 1] == 'Y') && !s.vowel(n - 2)) s.word()[n - 1] = 'i';
}

/// Whether `c` may precede a deleted li.
bool li_ending(char c) {
  return c == 'c' || c == 'd' || c == 'e' || c == 'g' || c == 'h' || c == 'k' || c == 'm' || c == 'n' || c == 'r' ||
         c == 't';
}

void step2(Stem& s) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 24> kRules{{
      {"tional", "tion"}, {"enci", "ence"},   {"anci", "ance"},     {"abli", "able"},   {"entli", "ent"},
      {"izer", "ize"},    {"ization", "ize"}, {"ational", "ate"},   {"ation", "ate"},   {"ator", "ate"},
      {"alism", "al"},    {"aliti", "al"},    {"alli", "al"},       {"fulness", "ful"}, {"ousli", "ous"},
      {"ousness", "ous"}, {"iveness", "ive"}, {"iviti", "ive"},     {"biliti", "ble"},  {"bli", "ble"},
      {"ogi", "og"},      {"fulli", "ful"},   {"lessli", "less"},   {"li", ""},
  }};
  const std::pair<std::string_view, std::string_view>* best = nullptr;
  for (const auto& rule : kRules) {
    if ((best == nullptr || rule.first.size() > best->first.size()) && s.ends_with(rule.first)) best = &rule;
  }
  if (best == nullptr || !s.in_r1(best->first.size())) return;
  const size_t n = best->first.size();
  const char before = s.size() > n ? s.word()[s.size() - n - 1] : '\0';
  if (best->first == "ogi" && before != 'l') return;
  if (best->first == "li" && !li_ending(before)) return;
  s.replace_suffix(n, best->second);
}

void step3(Stem& s) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 9> kRules{{
      {"tional", "tion"}, {"ational", "ate"}, {"alize", "al"}, {"icate", "ic"}, {"iciti", "ic"},
      {"ical", "ic"},     {"ful", ""},        {"ness", ""},    {"ative", ""},
  }};
  const std::pair<std::string_view, std::string_view>* best = nullptr;
  for (const auto& rule : kRules) {
    if ((best == nullptr || rule.first.size() > best->first.size()) && s.ends_with(rule.first)) best = &rule;
  }
  if (best == nullptr || !s.in_r1(best->first.size())) return;
  if (best->first == "ative" && !s.in_r2(5)) return;
  s.replace_suffix(best->first.size(), best->second);
}

void step4(Stem& s) {
  const std::string_view x = longest(
      s, std::array<std::string_view, 18>{"al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment",
                                          "ent", "ism", "ate", "iti", "ous", "ive", "ize", "ion"});
  if (x.empty() || !s.in_r2(x.size())) return;
  if (x == "ion") {
    const char before = s.size() > 3 ? s.word()[s.size() - 4] : '\0';
    if (before != 's' && before != 't') return;
  }
  s.replace_suffix(x.size(), "");
}

void step5(Stem& s) {
  if (s.ends_with("e")) {
    if (s.in_r2(1)) {
      s.replace_suffix(1, "");
    } else if (s.in_r1(1)) {
      // Delete unless the letters before it end in a short syllable.
      Stem rest(s.word().substr(0, s.size() - 1));
      if (!rest.ends_short_syllable()) s.replace_suffix(1, "");
    }
  } else if (s.ends_with("l") && s.in_r2(1) && s.size() >= 2 && s.word()[s.size() - 2] == 'l') {
    s.replace_suffix(1, "");
  }
}

/// The words the algorithm lists with their stems, and those it leaves as they are.
std::string_view exception(std::string_view w) {
  static constexpr std::pair<std::string_view, std::string_view> kForms[] = {
      {"skis", "ski"},     {"skies", "sky"},    {"dying", "die"},    {"lying", "lie"},   {"tying", "tie"},
      {"idly", "idl"},     {"gently", "gentl"}, {"ugly", "ugli"},    {"early", "earli"}, {"only", "onli"},
      {"singly", "singl"}, {"sky", "sky"},      {"news", "news"},    {"howe", "howe"},   {"atlas", "atlas"},
      {"cosmos", "cosmos"}, {"bias", "bias"},   {"andes", "andes"},
  };
  for (const auto& [word, stem] : kForms) {
    if (w == word) return stem;
  }
  return {};
}

bool kept_after_step1a(std::string_view w) {
  for (std::string_view x : {"inning", "outing", "canning", "herring", "earring", "proceed", "exceed", "succeed"}) {
    if (w == x) return true;
  }
  return false;
}

}  // namespace

std::string english_stem(std::string_view word) {
  if (word.size() <= 2) return std::string(word);
  if (const std::string_view stem = exception(word); !stem.empty()) return std::string(stem);
  std::string w(word);
  if (w[0] == '\'') w.erase(0, 1);
  Stem s(std::move(w));
  s.prepare();
  step0(s);
  step1a(s);
  if (!kept_after_step1a(s.word())) {
    step1b(s);
    step1c(s);
    step2(s);
    step3(s);
    step4(s);
    step5(s);
  }
  std::string out = std::move(s.word());
  for (char& c : out) {
    if (c == 'Y') c = 'y';
  }
  return out;
}

}  // namespace kestrel::exec
