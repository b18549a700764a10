#pragma once
// Reading settings from JSON objects such as config.json, with messages that name the file and the
// field: "config.json: field 'd_model' must be a whole number between 1 and 4096, got 0".
// Every reader throws std::runtime_error; `source` names the input in messages.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace aaren {

// Lists and objects nested deeper than this are refused: nlohmann copies and prints nested values
// recursively, so a file of a million '[' would overflow the stack. Settings files need a few levels.
inline constexpr int kMaxJsonNesting = 256;

// Parses text (a UTF-8 byte order mark is allowed). Syntax errors name the line and column
// ("config.json: not valid JSON (line 3, column 7: ...)"); a key repeated within one object is an
// error too, since nlohmann would silently keep only the last value, and so is nesting deeper than
// kMaxJsonNesting.
nlohmann::json parse_json_text(std::string_view text, const std::string& source);

// The reason given when nesting goes deeper than kMaxJsonNesting.
std::string json_nesting_reason();

// nlohmann's explanation of a syntax error (or of a number too large for a double, which it
// reports as out of range) without its prefix and position, unprintable bytes shown as '?':
// "syntax error while parsing value - invalid literal; last read: 'tru,'",
// "number overflow parsing '1e999'".
std::string json_parse_error_reason(const nlohmann::json::exception& error);

// Required fields: a missing field is an error. `obj` must be a JSON object. Bounds are inclusive.
int json_int(const nlohmann::json& obj, const std::string& field, const std::string& source, int min, int max);
double json_number(const nlohmann::json& obj, const std::string& field, const std::string& source, double min,
                   double max);
std::string json_string(const nlohmann::json& obj, const std::string& field, const std::string& source);
bool json_bool(const nlohmann::json& obj, const std::string& field, const std::string& source);
std::vector<std::string> json_string_list(const nlohmann::json& obj, const std::string& field,
                                          const std::string& source);
// Sets obj[field] = value unless value is NaN (a metric not measured is left out, never null).
void json_put_measured(nlohmann::json& obj, const char* field, double value);

// A list of exactly `count` numbers.
std::vector<double> json_number_list(const nlohmann::json& obj, const std::string& field, const std::string& source,
                                     std::size_t count);

// A required nested object: "config.json: section 'model' is missing or not an object".
const nlohmann::json& json_section(const nlohmann::json& obj, const std::string& field, const std::string& source);

// Optional fields: a missing field gives `fallback`; a present field must still be valid.
int json_int_or(const nlohmann::json& obj, const std::string& field, const std::string& source, int min, int max,
                int fallback);
double json_number_or(const nlohmann::json& obj, const std::string& field, const std::string& source, double min,
                      double max, double fallback);
std::string json_string_or(const nlohmann::json& obj, const std::string& field, const std::string& source,
                           const std::string& fallback);
bool json_bool_or(const nlohmann::json& obj, const std::string& field, const std::string& source, bool fallback);
std::vector<std::string> json_string_list_or(const nlohmann::json& obj, const std::string& field,
                                             const std::string& source, const std::vector<std::string>& fallback);

// A run's "decimal_mark", '.' or ',': '.' when absent, since runs written before it was recorded
// were read with decimal points only.
char json_decimal_mark(const nlohmann::json& obj, const std::string& source);

}  // namespace aaren
