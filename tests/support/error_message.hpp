#pragma once
// The message a refusal carries, for tests that check what the user is told.
#include <QString>

#include <functional>
#include <stdexcept>

// The message of the `Error` that `action` throws; "" when it throws nothing. An exception of any
// other type escapes and fails the test, so a test states which kind of error it expects.
template <class Error = std::runtime_error>
QString error_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const Error& error) {
    return QString::fromStdString(error.what());
  }
  return {};
}
