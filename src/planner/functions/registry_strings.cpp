// Registry entries: string, regular expression and URL functions.

#include "planner/functions/registry_tables.hpp"

namespace kestrel::plan::registry {

namespace {

using F = ScalarFunction;

constexpr std::string_view kNullGivesNull = "NULL when any argument is NULL.";

constexpr FunctionEntry kStrings[] = {
    scalar("chr", F::kChr, 1, 1,
           {"chr(n BIGINT) -> VARCHAR",
            "The character of Unicode code point n; an error when n is not a code point (or a surrogate).",
            kNullGivesNull, "chr(233)", "é"}),
    scalar("codepoint", F::kCodepoint, 1, 1,
           {"codepoint(c VARCHAR) -> INTEGER", "The Unicode code point of the only character of c; an error when c "
            "is not one character.", kNullGivesNull, "codepoint('é')", "233"}),
    scalar("concat", F::kConcat, 1, kVariadic,
           {"concat(a, b, ...) -> VARCHAR\nconcat(a VARBINARY, b VARBINARY, ...) -> VARBINARY",
            "The arguments (cast to VARCHAR) joined end to end; the same as `||`. VARBINARY arguments join into "
            "VARBINARY, and then every argument must be VARBINARY.",
            kNullGivesNull, "concat('a', 1, 'b')", "a1b"}),
    scalar("ends_with", F::kEndsWith, 2, 2,
           {"ends_with(string VARCHAR, suffix VARCHAR) -> BOOLEAN", "Whether string ends with suffix.",
            kNullGivesNull, "ends_with('kestrel', 'rel')", "true"}),
    scalar("hamming_distance", F::kHammingDistance, 2, 2,
           {"hamming_distance(a VARCHAR, b VARCHAR) -> BIGINT",
            "The number of positions at which the characters of a and b differ; an error when they do not have the "
            "same length in characters.",
            kNullGivesNull, "hamming_distance('héllo', 'hallo')", "1"}),
    scalar("length", F::kLength, 1, 1,
           {"length(string VARCHAR) -> BIGINT\nlength(binary VARBINARY) -> BIGINT",
            "The number of characters (code points) of string; the number of bytes of binary.", kNullGivesNull,
            "length('héllo')", "5"}),
    alias("char_length", "length", F::kLength, 1, 1),
    alias("character_length", "length", F::kLength, 1, 1),
    scalar("levenshtein_distance", F::kLevenshteinDistance, 2, 2,
           {"levenshtein_distance(a VARCHAR, b VARCHAR) -> BIGINT",
            "The least number of single-character insertions, deletions and substitutions that change a into b, "
            "counted in code points. An error when the product of the two lengths passes 1,000,000.",
            kNullGivesNull, "levenshtein_distance('kitten', 'sitting')", "3"}),
    scalar("lower", F::kLower, 1, 1,
           {"lower(string VARCHAR) -> VARCHAR", "string with the ASCII letters A-Z in lower case (other characters "
            "are kept).", kNullGivesNull, "lower('KeStReL')", "kestrel"}),
    scalar("lpad", F::kLpad, 3, 3,
           {"lpad(string VARCHAR, size BIGINT, padding VARCHAR) -> VARCHAR\n"
            "lpad(binary VARBINARY, size BIGINT, padding VARBINARY) -> VARBINARY",
            "string padded on the left to size characters with padding repeated; a longer string is cut to its "
            "first size characters. An error when size is negative or padding is empty. On VARBINARY the same in "
            "bytes.",
            kNullGivesNull, "lpad('abc', 5, 'xy')", "xyabc"}),
    scalar("ltrim", F::kLTrim, 1, 2,
           {"ltrim(string VARCHAR[, characters VARCHAR]) -> VARCHAR",
            "string without its leading spaces, or without its leading characters that are in characters.",
            kNullGivesNull, "ltrim('  abc  ')", "abc  "}),
    scalar("position", F::kPosition, 2, 2,
           {"position(needle VARCHAR IN haystack VARCHAR) -> BIGINT",
            "The 1-based character position of the first needle in haystack, 0 when there is none (1 for an empty "
            "needle). Also written position(needle, haystack).",
            kNullGivesNull, "position('l' IN 'hello')", "3"}),
    scalar("replace", F::kReplace, 3, 3,
           {"replace(string VARCHAR, search VARCHAR, replacement VARCHAR) -> VARCHAR",
            "string with every search replaced by replacement (an empty search changes nothing).", kNullGivesNull,
            "replace('hello', 'l', 'L')", "heLLo"}),
    scalar("reverse", F::kReverse, 1, 1,
           {"reverse(string VARCHAR) -> VARCHAR\nreverse(binary VARBINARY) -> VARBINARY",
            "The characters of string, or the bytes of binary, in reverse order.", kNullGivesNull,
            "reverse('héllo')", "olléh"}),
    scalar("rpad", F::kRpad, 3, 3,
           {"rpad(string VARCHAR, size BIGINT, padding VARCHAR) -> VARCHAR\n"
            "rpad(binary VARBINARY, size BIGINT, padding VARBINARY) -> VARBINARY",
            "string padded on the right to size characters with padding repeated; a longer string is cut to its "
            "first size characters. An error when size is negative or padding is empty. On VARBINARY the same in "
            "bytes.",
            kNullGivesNull, "rpad('abc', 5, 'xy')", "abcxy"}),
    scalar("rtrim", F::kRTrim, 1, 2,
           {"rtrim(string VARCHAR[, characters VARCHAR]) -> VARCHAR",
            "string without its trailing spaces, or without its trailing characters that are in characters.",
            kNullGivesNull, "rtrim('xabcxx', 'x')", "xabc"}),
    scalar("split_part", F::kSplitPart, 3, 3,
           {"split_part(string VARCHAR, delimiter VARCHAR, index BIGINT) -> VARCHAR",
            "Field index (from 1) of string split at delimiter; NULL past the last field. An empty delimiter makes "
            "the whole string the only field. An error when index is not positive.",
            "NULL when any argument is NULL, or index passes the last field.", "split_part('a,b,c', ',', 2)", "b"}),
    scalar("starts_with", F::kStartsWith, 2, 2,
           {"starts_with(string VARCHAR, prefix VARCHAR) -> BOOLEAN", "Whether string starts with prefix.",
            kNullGivesNull, "starts_with('kestrel', 'kes')", "true"}),
    scalar("strpos", F::kPosition, 2, 2,
           {"strpos(haystack VARCHAR, needle VARCHAR) -> BIGINT",
            "The 1-based character position of the first needle in haystack, 0 when there is none.", kNullGivesNull,
            "strpos('hello', 'l')", "3"}),
    scalar("substring", F::kSubstring, 2, 3,
           {"substring(string VARCHAR, start BIGINT[, length BIGINT]) -> VARCHAR\n"
            "substring(binary VARBINARY, start BIGINT[, length BIGINT]) -> VARBINARY",
            "The characters of string from position start (1-based), at most length of them. Positions before the "
            "first character count as in PostgreSQL (substring('hello', 0, 2) is 'h'). Also written "
            "substring(string FROM start FOR length). On VARBINARY, Presto's rules in bytes: a negative start "
            "counts from the end, start 0 or a length below 1 give an empty value.",
            kNullGivesNull, "substring('héllo', 2, 3)", "éll"}),
    alias("substr", "substring", F::kSubstring, 2, 3),
    scalar("trim", F::kTrim, 1, 2,
           {"trim(string VARCHAR[, characters VARCHAR]) -> VARCHAR",
            "string without its leading and trailing spaces, or characters that are in characters. Also written "
            "trim([BOTH | LEADING | TRAILING] [characters] FROM string).",
            kNullGivesNull, "trim('xyaxy', 'xy')", "a"}),
    alias("btrim", "trim", F::kTrim, 1, 2),
    scalar("replace_first", F::kReplaceFirst, 3, 3,
           {"replace_first(string VARCHAR, search VARCHAR, replace VARCHAR) -> VARCHAR",
            "string with the first occurrence of search replaced by replace (replace put in front for an empty "
            "search).", kNullGivesNull, "replace_first('aXbXc', 'X', '-')", "a-bXc"}),
    scalar("strrpos", F::kStrrpos, 2, 3,
           {"strrpos(string VARCHAR, substring VARCHAR[, instance BIGINT]) -> BIGINT",
            "The character position (from 1) of the instance-th occurrence of substring counted from the end of "
            "string, 0 when there is none; 1 for an empty substring; an error unless instance > 0.",
            kNullGivesNull, "strrpos('abcabc', 'bc')", "5"}),
    scalar("trail", F::kTrail, 2, 2,
           {"trail(string VARCHAR, n BIGINT) -> VARCHAR",
            "The last n characters of string (all of it when shorter, empty for n <= 0).", kNullGivesNull,
            "trail('kestrel', 3)", "rel"}),

    scalar("upper", F::kUpper, 1, 1,
           {"upper(string VARCHAR) -> VARCHAR", "string with the ASCII letters a-z in upper case (other characters "
            "are kept).", kNullGivesNull, "upper('kestrel')", "KESTREL"}),
    // More scalar functions (issue 15).
    scalar("bit_length", F::kBitLength, 1, 1,
           {"bit_length(string VARCHAR) -> BIGINT", "The number of bits of string's UTF-8 bytes (8 per byte).",
            kNullGivesNull, "bit_length('héllo')", "48"}),
    scalar("jarowinkler_similarity", F::kJaroWinklerSimilarity, 2, 2,
           {"jarowinkler_similarity(a VARCHAR, b VARCHAR) -> DOUBLE",
            "The Jaro-Winkler similarity of a and b over their code points, from 0 to 1: the Jaro similarity "
            "(characters matching within half the longer length less one, half the out-of-order ones counted as "
            "transpositions), raised by 0.1 of the remaining gap per common leading character (at most 4) when it "
            "is at least 0.7. 1.0 for equal strings (two empty strings too), 0.0 when one is empty.",
            kNullGivesNull, "jarowinkler_similarity('martha', 'marhta')", "0.9611111111111111"}),
    scalar("longest_common_prefix", F::kLongestCommonPrefix, 2, 2,
           {"longest_common_prefix(a VARCHAR, b VARCHAR) -> VARCHAR",
            "The longest string of whole characters that both a and b start with.", kNullGivesNull,
            "longest_common_prefix('kestrel', 'kettle')", "ke"}),
    scalar("split_to_map", F::kSplitToMap, 3, 3,
           {"split_to_map(string VARCHAR, entry_delimiter VARCHAR, key_value_delimiter VARCHAR) -> "
            "MAP(VARCHAR, VARCHAR)",
            "string split into entries at entry_delimiter and each entry into its key and value at "
            "key_value_delimiter (both literal text), in order. A delimiter at the end of string ends it. An error "
            "when a delimiter is empty, when they are equal, when an entry does not hold the key-value delimiter "
            "exactly once, or for a repeated key. Presto's form with a function that resolves repeated keys is not "
            "supported.",
            kNullGivesNull, "split_to_map('a=1,b=2', ',', '=')", "{a=1, b=2}"}),
    scalar("split_to_multimap", F::kSplitToMultimap, 3, 3,
           {"split_to_multimap(string VARCHAR, entry_delimiter VARCHAR, key_value_delimiter VARCHAR) -> "
            "MAP(VARCHAR, ARRAY(VARCHAR))",
            "As split_to_map, but each key maps to the array of its values in the order they appear, so keys may "
            "repeat.",
            kNullGivesNull, "split_to_multimap('a=1,b=2,a=3', ',', '=')", "{a=[1, 3], b=[2]}"}),
    scalar("word_stem", F::kWordStem, 1, 2,
           {"word_stem(word VARCHAR[, lang VARCHAR]) -> VARCHAR",
            "The stem of word by the Snowball English stemmer (Porter2), Presto's default language 'en'. The word "
            "is not lower-cased (upper-case letters count as consonants, as in Presto). lang must be 'en': "
            "Presto's stemmers for other languages are not supported.",
            kNullGivesNull, "word_stem('generously')", "generous"}),
    scalar("normalize", F::kNormalize, 1, 2,
           {"normalize(string VARCHAR[, form]) -> VARCHAR",
            "string in the Unicode normalization form NFC (the default), NFD, NFKC or NFKD (utf8proc). The form is "
            "written as a keyword, normalize(s, NFKC), or as a string. An error for invalid UTF-8.",
            kNullGivesNull, "normalize('ﬁ', NFKC)", "fi"}),
    scalar("key_sampling_percent", F::kKeySamplingPercent, 1, 1,
           {"key_sampling_percent(string VARCHAR) -> DOUBLE",
            "A value in [0, 1) that depends only on string, for deterministic sampling: Presto's "
            "abs(from_ieee754_64(xxhash64(to_utf8(string)))) % 100 / 100, and 0.0 where that is NaN.",
            kNullGivesNull, "key_sampling_percent('abc')", "0.56"}),
};

constexpr FunctionEntry kRegexp[] = {
    scalar("regexp_count", F::kRegexpCount, 2, 2,
           {"regexp_count(string VARCHAR, pattern VARCHAR) -> BIGINT",
            "The number of matches of pattern in string (after an empty match, the search goes on one character "
            "further).",
            kNullGivesNull, "regexp_count('a1b22c333', '[0-9]+')", "3"}),
    scalar("regexp_extract", F::kRegexpExtract, 2, 3,
           {"regexp_extract(string VARCHAR, pattern VARCHAR) -> VARCHAR\n"
            "regexp_extract(string VARCHAR, pattern VARCHAR, group BIGINT) -> VARCHAR",
            "The first match of pattern in string, or its capturing group group (0 is the whole match). An error "
            "when group is negative or larger than the number of groups of pattern.",
            "NULL when any argument is NULL, when nothing matches, or when the group took no part in the match.",
            "regexp_extract('x=12, y=345', '([a-z])=(\\d+)', 2)", "12"}),
    scalar("regexp_like", F::kRegexpLike, 2, 2,
           {"regexp_like(string VARCHAR, pattern VARCHAR) -> BOOLEAN",
            "Whether pattern matches somewhere in string (anchor it with ^ and $ to match all of string).",
            kNullGivesNull, "regexp_like('kestrel 2024', '\\d{4}$')", "true"}),
    scalar("regexp_position", F::kRegexpPosition, 2, 4,
           {"regexp_position(string VARCHAR, pattern VARCHAR) -> INTEGER\n"
            "regexp_position(string VARCHAR, pattern VARCHAR, start BIGINT) -> INTEGER\n"
            "regexp_position(string VARCHAR, pattern VARCHAR, start BIGINT, occurrence BIGINT) -> INTEGER",
            "The character position (from 1) of the occurrence-th match of pattern in string (default the first), "
            "searching from character start (default 1); -1 when there is none. An error when start or "
            "occurrence is below 1.",
            kNullGivesNull, "regexp_position('one 2 three 4', '\\d', 1, 2)", "13"}),
    scalar("regexp_replace", F::kRegexpReplace, 2, 3,
           {"regexp_replace(string VARCHAR, pattern VARCHAR) -> VARCHAR\n"
            "regexp_replace(string VARCHAR, pattern VARCHAR, replacement VARCHAR) -> VARCHAR",
            "string with every match of pattern removed, or replaced by replacement, in which $N stands for group "
            "N, ${name} for a named group and \\$ for a dollar sign (\\ before any other character keeps that "
            "character). An error for a reference to a group that does not exist.",
            kNullGivesNull, "regexp_replace('2024-05-17', '(\\d+)-(\\d+)-(\\d+)', '$3.$2.$1')", "17.05.2024"}),
    // More scalar functions (issue 15).
    scalar("regexp_extract_all", F::kRegexpExtractAll, 2, 3,
           {"regexp_extract_all(string VARCHAR, pattern VARCHAR[, group BIGINT]) -> ARRAY(VARCHAR)",
            "The text of every match of pattern in string (or of its capturing group `group`), in order; an empty "
            "array without a match. A NULL element where the group took no part in a match.",
            kNullGivesNull, "regexp_extract_all('1a 2b 14m', '\\d+')", "[1, 2, 14]"}),
    scalar("regexp_split", F::kRegexpSplit, 2, 2,
           {"regexp_split(string VARCHAR, pattern VARCHAR) -> ARRAY(VARCHAR)",
            "The pieces of string between the matches of pattern, empty pieces included (at either end when a match "
            "touches it).",
            kNullGivesNull, "regexp_split('1a 2b 14m', '\\s*[a-z]+\\s*')", "[1, 2, 14, ]"}),
};

constexpr FunctionEntry kUrl[] = {
    scalar("url_extract_fragment", F::kUrlExtractFragment, 1, 1,
           {"url_extract_fragment(url VARCHAR) -> VARCHAR", "The fragment of url (after #).",
            "NULL when url is NULL, not a valid URI or has no fragment.",
            "url_extract_fragment('https://example.com/a?b=1#top')", "top"}),
    scalar("url_extract_host", F::kUrlExtractHost, 1, 1,
           {"url_extract_host(url VARCHAR) -> VARCHAR", "The host of url.",
            "NULL when url is NULL, not a valid URI or has no host.",
            "url_extract_host('https://user@example.com:8080/a')", "example.com"}),
    scalar("url_extract_parameter", F::kUrlExtractParameter, 2, 2,
           {"url_extract_parameter(url VARCHAR, name VARCHAR) -> VARCHAR",
            "The value of the first query parameter called name, as written (not decoded); an empty string for a "
            "parameter without `=`.",
            "NULL when an argument is NULL, url is not a valid URI or has no such parameter.",
            "url_extract_parameter('https://example.com/p?a=1&b=two&a=3', 'b')", "two"}),
    scalar("url_extract_path", F::kUrlExtractPath, 1, 1,
           {"url_extract_path(url VARCHAR) -> VARCHAR", "The path of url (empty when it has none).",
            "NULL when url is NULL, not a valid URI or has no hierarchical part (mailto:x).",
            "url_extract_path('https://example.com/a/b%20c?x=1')", "/a/b c"}),
    scalar("url_extract_port", F::kUrlExtractPort, 1, 1,
           {"url_extract_port(url VARCHAR) -> BIGINT", "The port of url.",
            "NULL when url is NULL, not a valid URI or names no port.",
            "url_extract_port('https://example.com:8443/')", "8443"}),
    scalar("url_extract_protocol", F::kUrlExtractProtocol, 1, 1,
           {"url_extract_protocol(url VARCHAR) -> VARCHAR", "The protocol (scheme) of url, without the colon.",
            "NULL when url is NULL, not a valid URI or has no protocol.",
            "url_extract_protocol('https://example.com/')", "https"}),
    scalar("url_extract_query", F::kUrlExtractQuery, 1, 1,
           {"url_extract_query(url VARCHAR) -> VARCHAR", "The query of url (after ?, before #).",
            "NULL when url is NULL, not a valid URI or has no query.",
            "url_extract_query('https://example.com/p?a=1&b=2#f')", "a=1&b=2"}),
    scalar("url_encode", F::kUrlEncode, 1, 1,
           {"url_encode(value VARCHAR) -> VARCHAR",
            "value escaped for a URL query: letters, digits and . - * _ kept, a space as +, every other byte as %XX.",
            kNullGivesNull, "url_encode('a b&c')", "a+b%26c"}),
    scalar("url_decode", F::kUrlDecode, 1, 1,
           {"url_decode(value VARCHAR) -> VARCHAR",
            "value with %XX escapes and + (a space) decoded; an error for an incomplete or invalid escape.",
            kNullGivesNull, "url_decode('a+b%26c')", "a b&c"}),
};

constexpr std::string_view kJsonNull = "NULL when an argument is NULL or json is not valid JSON.";

constexpr FunctionEntry kJson[] = {
    scalar("json_array_contains", F::kJsonArrayContains, 2, 2,
           {"json_array_contains(json JSON|VARCHAR, value) -> BOOLEAN",
            "Whether the JSON array json has an element equal to value (a BOOLEAN, a number or a VARCHAR, compared "
            "with elements of the same kind).", "NULL when an argument is NULL or json is not a valid JSON array.",
            "json_array_contains('[1, 2, 3]', 2)", "true"}),
    scalar("is_json_scalar", F::kIsJsonScalar, 1, 1,
           {"is_json_scalar(json JSON|VARCHAR) -> BOOLEAN",
            "Whether json is a scalar (a number, string, boolean or null) rather than an array or object; an error "
            "when it is not valid JSON.",
            "NULL when json is NULL.", "is_json_scalar('[1, 2]')", "false"}),
    scalar("json_array_get", F::kJsonArrayGet, 2, 2,
           {"json_array_get(json JSON|VARCHAR, index BIGINT) -> JSON",
            "Element index (from 0; negative counts from the end) of the JSON array json.",
            "NULL when an argument is NULL, json is not an array or index is outside it.",
            "json_array_get('[\"a\", [3, 9], 7]', 1)", "[3,9]"}),
    scalar("json_array_length", F::kJsonArrayLength, 1, 1,
           {"json_array_length(json JSON|VARCHAR) -> BIGINT", "The number of elements of the JSON array json.",
            "NULL when json is NULL, not valid JSON or not an array.", "json_array_length('[1, 2, 3]')", "3"}),
    scalar("json_extract", F::kJsonExtract, 2, 2,
           {"json_extract(json JSON|VARCHAR, path VARCHAR) -> JSON",
            "The value at the JSONPath path in json; an error for an invalid path.",
            "NULL when an argument is NULL, json is not valid JSON or path leads nowhere.",
            "json_extract('{\"a\": {\"b\": [1, 2]}}', '$.a.b')", "[1,2]"}),
    scalar("json_extract_scalar", F::kJsonExtractScalar, 2, 2,
           {"json_extract_scalar(json JSON|VARCHAR, path VARCHAR) -> VARCHAR",
            "The scalar at the JSONPath path in json as text: a string without its quotes, a number or a boolean as "
            "written in JSON; an error for an invalid path.",
            "NULL when an argument is NULL, json is not valid JSON, path leads nowhere or to an array, object or null.",
            "json_extract_scalar('{\"user\": {\"name\": \"ada\"}}', '$.user.name')", "ada"}),
    scalar("json_format", F::kJsonFormat, 1, 1,
           {"json_format(json JSON|VARCHAR) -> VARCHAR",
            "json as canonical JSON text: compact, object keys sorted (JSON text in a VARCHAR is parsed first).",
            kJsonNull,
            "json_format('{ \"a\" : [1, 2] }')", "{\"a\":[1,2]}"}),
    scalar("json_parse", F::kJsonParse, 1, 1,
           {"json_parse(text VARCHAR) -> JSON",
            "The JSON value text holds, in canonical form (compact, object keys sorted); an error naming the line and "
            "column when text is not valid JSON.",
            "NULL when text is NULL.", "json_parse('[1, \"x\" , true]')", "[1,\"x\",true]"}),
    scalar("json_size", F::kJsonSize, 2, 2,
           {"json_size(json JSON|VARCHAR, path VARCHAR) -> BIGINT",
            "The number of members or elements of the object or array at the JSONPath path in json; 0 for a scalar.",
            "NULL when an argument is NULL, json is not valid JSON or path leads nowhere.",
            "json_size('{\"x\": {\"a\": 1, \"b\": 2}}', '$.x')", "2"}),
};

}  // namespace

std::span<const FunctionEntry> json_functions() { return kJson; }
std::span<const FunctionEntry> string_functions() { return kStrings; }
std::span<const FunctionEntry> regexp_functions() { return kRegexp; }
std::span<const FunctionEntry> url_functions() { return kUrl; }

}  // namespace kestrel::plan::registry
