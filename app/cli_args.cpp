#include "app/cli_args.hpp"

#include <charconv>
#include <algorithm>
#include <cmath>

namespace aaren::cli {

Args::Args(const std::vector<std::string>& args, const std::set<std::string>& value_options,
           const std::set<std::string>& flag_options, const std::string& command)
    : command_(command) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string arg = args[i];
    if (arg == "--help" || arg == "-h") {
      help_ = true;
      continue;
    }
    if (arg.rfind("--", 0) != 0)
      throw UsageError("unexpected argument '" + arg + "' for '" + command_ + "'");
    std::string name = arg.substr(2);
    std::optional<std::string> inline_value;
    if (const auto eq = name.find('='); eq != std::string::npos) {
      inline_value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    if (flag_options.count(name)) {
      if (inline_value) throw UsageError("option --" + name + " takes no value");
      flags_.insert(name);
    } else if (value_options.count(name)) {
      if (!inline_value && i + 1 >= args.size())
        throw UsageError("option --" + name + " needs a value");
      values_[name] = inline_value ? *inline_value : args[++i];
    } else {
      throw UsageError("unknown option --" + name + " for '" + command_ + "'");
    }
  }
}

std::string Args::required(const std::string& name) const {
  const auto it = values_.find(name);
  if (it == values_.end()) throw UsageError("'" + command_ + "' needs --" + name);
  return it->second;
}

std::string Args::text(const std::string& name, const std::string& fallback) const {
  const auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

namespace {

long parse_integer(const std::string& name, const std::string& s, long min_value, long max_value) {
  long value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size())
    throw UsageError("--" + name + " must be a whole number, got '" + s + "'");
  if (value < min_value || value > max_value)
    throw UsageError("--" + name + " must be between " + std::to_string(min_value) + " and " +
                     std::to_string(max_value) + ", got " + s);
  return value;
}

}  // namespace

long Args::integer(const std::string& name, long fallback, long min_value, long max_value) const {
  const auto it = values_.find(name);
  return it == values_.end() ? fallback : parse_integer(name, it->second, min_value, max_value);
}

std::vector<long> Args::integer_list(const std::string& name, const std::vector<long>& fallback, long min_value,
                                     long max_value) const {
  const auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  std::vector<long> values;
  const std::string& list = it->second;
  for (std::size_t start = 0; start <= list.size();) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    values.push_back(parse_integer(name, list.substr(start, comma - start), min_value, max_value));
    start = comma + 1;
  }
  return values;
}

double Args::number(const std::string& name, double fallback) const {
  const auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  const std::string& s = it->second;
  double value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(value))
    throw UsageError("--" + name + " must be a number, got '" + s + "'");
  return value;
}

std::optional<char> Args::decimal_mark() const {
  if (!has("decimal-mark")) return std::nullopt;
  const std::string mark = text("decimal-mark", "");
  if (mark != "." && mark != ",") throw UsageError("--decimal-mark must be . or , (got '" + mark + "')");
  return mark.front();
}

}  // namespace aaren::cli
