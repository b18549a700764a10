#pragma once
// A small, strict argument parser for the `aaren` subcommands: every option is declared, unknown
// ones and missing values are usage errors that name the option.
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace aaren::cli {

// A mistake on the command line: printed with a pointer to --help, exit code 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Args {
 public:
  // Parses args (after the subcommand words). Options take a value ("--k FILE" or "--k=FILE")
  // unless they are declared as flags. "--help"/"-h" is always accepted.
  Args(const std::vector<std::string>& args, const std::set<std::string>& value_options,
       const std::set<std::string>& flag_options, const std::string& command);

  // When --help was given, prints `texts` one after the other to stdout; says whether it did.
  template <class... Texts>
  bool print_help(const Texts&... texts) const {
    if (help_) (std::cout << ... << texts);
    return help_;
  }
  bool flag(const std::string& name) const { return flags_.count(name) > 0; }
  bool has(const std::string& name) const { return values_.count(name) > 0; }
  std::string required(const std::string& name) const;
  std::string text(const std::string& name, const std::string& fallback) const;
  long integer(const std::string& name, long fallback, long min_value, long max_value) const;
  double number(const std::string& name, double fallback) const;
  // "96,512,2048": every item a whole number in [min_value, max_value].
  std::vector<long> integer_list(const std::string& name, const std::vector<long>& fallback, long min_value,
                                 long max_value) const;
  // --decimal-mark . or , when given; unset leaves it to the detection.
  std::optional<char> decimal_mark() const;

 private:
  std::string command_;
  std::map<std::string, std::string> values_;
  std::set<std::string> flags_;
  bool help_ = false;
};

}  // namespace aaren::cli
