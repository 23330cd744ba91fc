#pragma once
/// The English stemmer of the Snowball project ("Porter2", the revised Porter algorithm, as published in Martin
/// Porter's description of it), for Presto's word_stem with its default language 'en'.

#include <string>
#include <string_view>

namespace kestrel::exec {

/// The stem of `word`, which should be lower case: `running` -> `run`, `generously` -> `generous`. Words of one or
/// two letters, and bytes other than ASCII letters and apostrophes, pass through the rules unchanged (a word with
/// such bytes is stemmed as if they were consonants).
std::string english_stem(std::string_view word);

}  // namespace kestrel::exec
