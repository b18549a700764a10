#pragma once
// The help of every `aaren` command, generated from its CLI11 declarations: the usage line (with the
// options it requires), the description, the options by group with their value, help and default,
// the subcommands, the footer. Lines wrap at 80 columns.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace aaren::cli {

class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const override;
};

// The options `app`'s help lists, group by group: named, in a group, not --help.
std::vector<const CLI::Option*> listed_options(const CLI::App* app);

// "--data FILE --out DIR": the options `app` requires, as the usage line shows them.
std::string required_options_usage(const CLI::App* app);

}  // namespace aaren::cli
