#include "app/man_page.hpp"

#include <sstream>

namespace aaren::cli {

std::string roff_escaped(std::string_view text) {
  std::string out;
  bool line_start = true;
  for (const char c : text) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\') out += "\\e";
    else if (c == '-') out += "\\-";
    else out += c;
    line_start = c == '\n';
  }
  return out;
}

namespace {

// Paragraphs (separated by blank lines) as roff paragraphs; single line breaks are kept as breaks.
std::string paragraphs(const std::string& text) {
  std::string out;
  std::istringstream lines(text);
  std::string line;
  bool open = false;
  while (std::getline(lines, line)) {
    line.erase(line.find_last_not_of(" \t") + 1);
    if (line.empty()) {
      open = false;
      continue;
    }
    out += open ? ".br\n" : ".PP\n";
    out += roff_escaped(line.substr(line.find_first_not_of(' '))) + "\n";
    open = true;
  }
  return out;
}

std::string option_entry(const ManOption& option) {
  std::string head;
  for (const std::string& name : option.names)
    head += (head.empty() ? "" : ", ") + ("\\fB" + roff_escaped(name) + "\\fR");
  if (!option.value.empty()) head += " \\fI" + roff_escaped(option.value) + "\\fR";
  return ".TP\n" + head + "\n" + roff_escaped(option.description) + "\n";
}

std::string upper(std::string text) {
  for (char& c : text)
    if (c >= 'a' && c <= 'z') c = char(c - 'a' + 'A');
  return text;
}

}  // namespace

std::string render_man_page(const ManPage& page) {
  std::string out = ".\\\" Written by '" + page.program + " --man-page' from the declarations of its --help.\n";
  out += ".TH " + upper(page.program) + " 1 \"\" \"Aaren Studio " + page.version + "\" \"User Commands\"\n";
  out += ".SH NAME\n" + roff_escaped(page.program) + " \\- " + roff_escaped(page.summary) + "\n";
  out += ".SH SYNOPSIS\n";
  for (std::size_t i = 0; i < page.synopsis.size(); ++i)
    out += (i == 0 ? "" : ".br\n") + roff_escaped(page.synopsis[i]) + "\n";
  out += ".SH DESCRIPTION\n" + paragraphs(page.description);
  if (!page.options.empty()) {
    out += ".SH OPTIONS\n";
    for (const ManOption& option : page.options) out += option_entry(option);
  }
  if (!page.commands.empty()) {
    out += ".SH " + page.commands_title + "\n";
    for (const ManSection& command : page.commands) {
      out += ".SS \"" + roff_escaped(command.title) + "\"\n";
      if (!command.usage.empty()) out += ".PP\nUsage: \\fB" + roff_escaped(command.usage) + "\\fR\n";
      out += paragraphs(command.description);
      for (const ManOption& option : command.options) out += option_entry(option);
    }
  }
  if (!page.exit_status.empty()) out += ".SH \"EXIT STATUS\"\n" + paragraphs(page.exit_status);
  if (!page.see_also.empty()) {
    out += ".SH \"SEE ALSO\"\n";
    for (std::size_t i = 0; i < page.see_also.size(); ++i) {
      const std::string& ref = page.see_also[i];
      const std::size_t paren = ref.find('(');
      out += ".BR " + roff_escaped(ref.substr(0, paren)) + " " + ref.substr(paren);
      out += i + 1 < page.see_also.size() ? " ,\n" : "\n";
    }
  }
  return out;
}

}  // namespace aaren::cli
