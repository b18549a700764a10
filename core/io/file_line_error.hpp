#pragma once
// An error found at a known line of a user's file. what() is the whole message, line included
// ("co2.csv, line 8, column 'co2': 'n/a' is not a number"); line() lets a viewer show the line
// itself (the Data page scrolls its preview to it) without reading the message.
#include <stdexcept>
#include <string>

namespace aaren {

class FileLineError : public std::runtime_error {
 public:
  FileLineError(const std::string& message, int line) : std::runtime_error(message), line_(line) {}
  int line() const { return line_; }  // 1-based

 private:
  int line_;
};

}  // namespace aaren
