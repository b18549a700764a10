#include "core/io/json_fields.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "core/io/matrix_csv.hpp"
#include "core/io/text_content.hpp"
#include "core/io/text_file.hpp"

namespace aaren {

namespace {

struct TextPosition {
  std::size_t line = 1;
  std::size_t column = 1;
};

// nlohmann reports the 1-based index of the last byte it read (size + 1 at the end of the input).
// Columns count characters, not bytes, as editors do.
TextPosition position_of_byte(std::string_view text, std::size_t byte) {
  const std::size_t index = std::min(byte == 0 ? 0 : byte - 1, text.size());
  TextPosition position;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < index; ++i) {
    if (text[i] == '\n') {
      ++position.line;
      line_start = i + 1;
    }
  }
  for (std::size_t i = line_start; i < index; ++i)
    if (!is_utf8_continuation_byte(text[i])) ++position.column;
  return position;
}

// Short enough for a one-line message, whatever the user put in the field.
std::string describe_value(const nlohmann::json& value) {
  constexpr std::size_t kMaxLength = 40;
  std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (text.size() > kMaxLength) text = text.substr(0, kMaxLength) + "...";
  return text;
}

[[noreturn]] void fail_field(const std::string& source, const std::string& field, const std::string& requirement,
                             const nlohmann::json& value) {
  throw std::runtime_error(source + ": field '" + field + "' must be " + requirement + ", got " +
                           describe_value(value));
}

const nlohmann::json* find_field(const nlohmann::json& obj, const std::string& field, const std::string& source) {
  if (!obj.is_object())
    throw std::runtime_error(source + ": expected a JSON object holding field '" + field + "', got " +
                             std::string(obj.type_name()));
  const auto it = obj.find(field);
  return it == obj.end() ? nullptr : &*it;
}

const nlohmann::json& require_field(const nlohmann::json& obj, const std::string& field, const std::string& source) {
  const nlohmann::json* value = find_field(obj, field, source);
  if (value == nullptr) throw std::runtime_error(source + ": field '" + field + "' is missing");
  return *value;
}

int to_int(const nlohmann::json& value, const std::string& field, const std::string& source, int min, int max) {
  const std::string requirement = "a whole number between " + std::to_string(min) + " and " + std::to_string(max);
  // 64.0 and 1e3 are whole numbers too, even though JSON stores them as floating point. Integers too
  // large for a double round to values that are still far outside any int range.
  if (!value.is_number()) fail_field(source, field, requirement, value);
  const double number = value.get<double>();
  if (number != std::floor(number) || number < min || number > max) fail_field(source, field, requirement, value);
  return int(number);
}

std::string describe_range(double min, double max) {
  const bool has_min = std::isfinite(min);
  const bool has_max = std::isfinite(max);
  if (has_min && has_max) return "a number between " + format_number(min) + " and " + format_number(max);
  if (has_min) return "a number of at least " + format_number(min);
  if (has_max) return "a number of at most " + format_number(max);
  return "a number";
}

double to_number(const nlohmann::json& value, const std::string& field, const std::string& source, double min,
                 double max) {
  if (!value.is_number()) fail_field(source, field, describe_range(min, max), value);
  const double number = value.get<double>();
  if (number < min || number > max) fail_field(source, field, describe_range(min, max), value);
  return number;
}

std::string to_string(const nlohmann::json& value, const std::string& field, const std::string& source) {
  if (!value.is_string()) fail_field(source, field, "a string", value);
  return value.get<std::string>();
}

bool to_bool(const nlohmann::json& value, const std::string& field, const std::string& source) {
  if (!value.is_boolean()) fail_field(source, field, "true or false", value);
  return value.get<bool>();
}

std::vector<std::string> to_string_list(const nlohmann::json& value, const std::string& field,
                                        const std::string& source) {
  if (!value.is_array()) fail_field(source, field, "a list of strings", value);
  std::vector<std::string> items;
  for (const nlohmann::json& item : value) {
    if (!item.is_string())
      throw std::runtime_error(source + ": field '" + field + "' must be a list of strings, but item " +
                               std::to_string(items.size() + 1) + " is " + describe_value(item));
    items.push_back(item.get<std::string>());
  }
  return items;
}

}  // namespace

nlohmann::json parse_json_text(std::string_view text, const std::string& source) {
  text = strip_utf8_bom(text);
  // nlohmann stops at a NUL byte as if the text ended there, which would ignore whatever follows.
  if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos) {
    const TextPosition at = position_of_byte(text, nul + 1);
    throw std::runtime_error(source + ": not valid JSON (line " + std::to_string(at.line) + ", column " +
                             std::to_string(at.column) + ": a NUL byte, which JSON text cannot hold)");
  }
  std::vector<std::set<std::string>> keys_per_open_object;
  const auto check_keys_and_nesting = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using Event = nlohmann::json::parse_event_t;
    if ((event == Event::object_start || event == Event::array_start) && depth >= kMaxJsonNesting)
      throw std::runtime_error(source + ": not valid JSON (" + json_nesting_reason() + ")");
    if (event == Event::object_start) {
      keys_per_open_object.emplace_back();
    } else if (event == Event::object_end) {
      keys_per_open_object.pop_back();
    } else if (event == Event::key) {
      const std::string& key = parsed.get_ref<const std::string&>();
      if (!keys_per_open_object.back().insert(key).second)
        throw std::runtime_error(source + ": field '" + key + "' appears twice");
    }
    return true;
  };
  try {
    return nlohmann::json::parse(text.begin(), text.end(), check_keys_and_nesting);
  } catch (const nlohmann::json::parse_error& error) {
    const TextPosition at = position_of_byte(text, error.byte);
    throw std::runtime_error(source + ": not valid JSON (line " + std::to_string(at.line) + ", column " +
                             std::to_string(at.column) + ": " + json_parse_error_reason(error) + ")");
  } catch (const nlohmann::json::out_of_range& error) {
    // A number beyond the range of a double ("1e999"); nlohmann gives no position for it.
    throw std::runtime_error(source + ": not valid JSON (" + json_parse_error_reason(error) + ")");
  }
}

std::string json_nesting_reason() {
  return "lists and objects nested more than " + std::to_string(kMaxJsonNesting) + " deep";
}

std::string json_parse_error_reason(const nlohmann::json::exception& error) {
  // what() reads "[json.exception.parse_error.101] parse error at line 1, column 5: REASON", or
  // "[json.exception.out_of_range.406] REASON".
  std::string reason = error.what();
  if (reason.starts_with("[json.exception.")) {
    const std::size_t end = reason.find("] ");
    if (end != std::string::npos) reason.erase(0, end + 2);
  }
  if (reason.starts_with("parse error")) {
    const std::size_t colon = reason.find(": ");
    if (colon != std::string::npos) reason.erase(0, colon + 2);
  }
  for (char& c : reason)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7F) c = '?';
  return reason;
}

int json_int(const nlohmann::json& obj, const std::string& field, const std::string& source, int min, int max) {
  return to_int(require_field(obj, field, source), field, source, min, max);
}

double json_number(const nlohmann::json& obj, const std::string& field, const std::string& source, double min,
                   double max) {
  return to_number(require_field(obj, field, source), field, source, min, max);
}

std::string json_string(const nlohmann::json& obj, const std::string& field, const std::string& source) {
  return to_string(require_field(obj, field, source), field, source);
}

bool json_bool(const nlohmann::json& obj, const std::string& field, const std::string& source) {
  return to_bool(require_field(obj, field, source), field, source);
}

std::vector<std::string> json_string_list(const nlohmann::json& obj, const std::string& field,
                                          const std::string& source) {
  return to_string_list(require_field(obj, field, source), field, source);
}

void json_put_measured(nlohmann::json& obj, const char* field, double value) {
  if (!std::isnan(value)) obj[field] = value;
}

std::vector<double> json_number_list(const nlohmann::json& obj, const std::string& field, const std::string& source,
                                     std::size_t count) {
  const auto it = obj.find(field);
  if (it == obj.end() || !it->is_array() || it->size() != count)
    throw std::runtime_error(source + ": field '" + field + "' must be a list of " + std::to_string(count) +
                             " numbers");
  std::vector<double> out;
  for (const auto& x : *it) {
    if (!x.is_number()) throw std::runtime_error(source + ": field '" + field + "' must hold numbers only");
    out.push_back(x.get<double>());
  }
  return out;
}

int json_int_or(const nlohmann::json& obj, const std::string& field, const std::string& source, int min, int max,
                int fallback) {
  const nlohmann::json* value = find_field(obj, field, source);
  return value == nullptr ? fallback : to_int(*value, field, source, min, max);
}

double json_number_or(const nlohmann::json& obj, const std::string& field, const std::string& source, double min,
                      double max, double fallback) {
  const nlohmann::json* value = find_field(obj, field, source);
  return value == nullptr ? fallback : to_number(*value, field, source, min, max);
}

const nlohmann::json& json_section(const nlohmann::json& obj, const std::string& field, const std::string& source) {
  const auto it = obj.find(field);
  if (it == obj.end() || !it->is_object())
    throw std::runtime_error(source + ": section '" + field + "' is missing or not an object");
  return *it;
}

std::string json_string_or(const nlohmann::json& obj, const std::string& field, const std::string& source,
                           const std::string& fallback) {
  const nlohmann::json* value = find_field(obj, field, source);
  return value == nullptr ? fallback : to_string(*value, field, source);
}

bool json_bool_or(const nlohmann::json& obj, const std::string& field, const std::string& source, bool fallback) {
  const nlohmann::json* value = find_field(obj, field, source);
  return value == nullptr ? fallback : to_bool(*value, field, source);
}

std::vector<std::string> json_string_list_or(const nlohmann::json& obj, const std::string& field,
                                             const std::string& source, const std::vector<std::string>& fallback) {
  const nlohmann::json* value = find_field(obj, field, source);
  return value == nullptr ? fallback : to_string_list(*value, field, source);
}

char json_decimal_mark(const nlohmann::json& obj, const std::string& source) {
  const std::string mark = json_string_or(obj, "decimal_mark", source, ".");
  if (mark != "." && mark != ",")
    throw std::runtime_error(source + ": field 'decimal_mark' must be \".\" or \",\", got '" + mark + "'");
  return mark.front();
}

}  // namespace aaren
