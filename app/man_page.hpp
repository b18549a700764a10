#pragma once
// Man pages (roff, man(7)) for `aaren` and `aaren-studio`, written by the programs themselves from
// the declarations their --help reads (`--man-page`), so that the installed pages cannot drift.
// Plain std::string in and out: the command line fills it from CLI11, the app from its Qt options.
#include <string>
#include <string_view>
#include <vector>

namespace aaren::cli {

struct ManOption {
  std::vector<std::string> names;  // "-h", "--help"
  std::string value;               // "FILE", empty for a flag
  std::string description;
};

// A command of `aaren` ("aaren train --task classify") or a group of the app's options.
struct ManSection {
  std::string title;
  std::string usage;        // "aaren train --data FILE [options]"; may be empty
  std::string description;  // paragraphs separated by blank lines
  std::vector<ManOption> options;
};

struct ManPage {
  std::string program;  // "aaren"
  std::string summary;  // the NAME line's text after the dash
  std::string version;  // "0.1.0"
  std::vector<std::string> synopsis;
  std::string description;
  std::vector<ManOption> options;  // the program's own options
  std::string commands_title;      // "COMMANDS", or empty when there are none
  std::vector<ManSection> commands;
  std::string exit_status;
  std::vector<std::string> see_also;  // "aaren-studio(1)"
};

std::string render_man_page(const ManPage& page);

// `text` with roff's special characters escaped (backslash, a leading dot or quote, the minus).
std::string roff_escaped(std::string_view text);

}  // namespace aaren::cli
