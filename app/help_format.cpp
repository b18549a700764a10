#include "app/help_format.hpp"

#include <sstream>
#include <vector>

namespace aaren::cli {

namespace {

constexpr std::size_t kWidth = 80;
constexpr std::size_t kHelpColumn = 30;

// `text` broken between words into lines of at most kWidth columns, the first starting at `column`
// (after what precedes it on the line), the others indented to kHelpColumn.
std::string wrapped(const std::string& text, std::size_t column) {
  std::istringstream words(text);
  std::string out, word;
  std::size_t at = column;
  bool first = true;
  while (words >> word) {
    if (!first && at + 1 + word.size() > kWidth) {
      out += "\n" + std::string(kHelpColumn, ' ');
      at = kHelpColumn;
    } else if (!first) {
      out += ' ';
      ++at;
    }
    out += word;
    at += word.size();
    first = false;
  }
  return out;
}

std::string option_line(const CLI::Option* option) {
  std::string names = option->get_name(false, true);
  if (!option->get_type_name().empty() && option->get_expected_min() > 0) names += " " + option->get_type_name();
  std::string line = "  " + names;
  if (line.size() + 2 > kHelpColumn) {
    line += "\n" + std::string(kHelpColumn, ' ');
  } else {
    line += std::string(kHelpColumn - line.size(), ' ');
  }
  std::string help = option->get_description();
  if (option->get_required()) help = "(required) " + help;
  return line + wrapped(help, kHelpColumn) + "\n";
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

}  // namespace

std::vector<const CLI::Option*> listed_options(const CLI::App* app) {
  std::vector<const CLI::Option*> listed;
  for (const std::string& group : app->get_groups()) {
    if (group.empty()) continue;
    for (const CLI::Option* option : app->get_options([&](const CLI::Option* o) {
           return o->get_group() == group && o->nonpositional() && o != app->get_help_ptr();
         }))
      listed.push_back(option);
  }
  return listed;
}

std::string required_options_usage(const CLI::App* app) {
  std::string usage;
  for (const CLI::Option* option : app->get_options([](const CLI::Option* o) { return o->get_required(); }))
    usage += " " + option->get_name(false, true) + " " + option->get_type_name();
  return usage;
}

std::string HelpFormatter::make_help(const CLI::App* app, std::string name, CLI::AppFormatMode) const {
  const std::vector<const CLI::App*> commands = app->get_subcommands([](const CLI::App*) { return true; });
  std::string out = "usage: " + name + (commands.empty() ? required_options_usage(app) : " <command>") + " [options]\n";
  std::string description = app->get_description();
  description.erase(description.find_last_not_of(" \n") + 1);
  if (!description.empty()) out += "\n" + description + "\n";
  std::string group;
  for (const CLI::Option* option : listed_options(app)) {
    if (option->get_group() != group) out += "\n" + (group = option->get_group()) + ":\n";
    out += option_line(option);
  }
  if (!commands.empty()) {
    out += "\nCommands:\n";
    for (const CLI::App* command : commands) {
      std::string line = "  " + command->get_name();
      line += std::string(line.size() < kHelpColumn ? kHelpColumn - line.size() : 1, ' ');
      out += line + wrapped(first_line(command->get_description()), kHelpColumn) + "\n";
    }
  }
  out += "\n  -h, --help                  this help";
  if (!commands.empty()) out += " ('" + name + " <command> --help' for a command's options)";
  out += "\n";
  if (!app->get_footer().empty()) out += "\n" + app->get_footer() + "\n";
  return out;
}

}  // namespace aaren::cli
