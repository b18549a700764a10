#pragma once
// A small JSON reader that keeps the line and column of every value and every object key, so that
// a lesson file's mistakes, of syntax or of meaning, are reported where they are
// (docs/lessons.md). Qt's QJsonDocument gives an offset for syntax errors only.
#include <QByteArray>
#include <QString>
#include <stdexcept>
#include <utility>
#include <vector>

namespace aaren::ui {

// Lines and columns count from 1; a column counts characters, not bytes.
struct TextPosition {
  int line = 1;
  int column = 1;
};

// A mistake at a place in a text: what() is "LINE:COLUMN: reason".
class PositionedError : public std::runtime_error {
 public:
  PositionedError(TextPosition position, const QString& reason);
  TextPosition position() const { return position_; }
  QString reason() const { return reason_; }

 private:
  TextPosition position_;
  QString reason_;
};

struct JsonNode;

struct JsonMember {
  QString key;
  TextPosition keyPosition;
  std::vector<JsonNode> value;  // exactly one node (a vector, as JsonNode is incomplete here)
  const JsonNode& node() const { return value.front(); }
};

struct JsonNode {
  enum class Kind { null, boolean, number, string, array, object };
  Kind kind = Kind::null;
  TextPosition position;  // where the value starts
  bool boolean = false;
  double number = 0.0;
  QString text;
  std::vector<JsonNode> items;      // an array's
  std::vector<JsonMember> members;  // an object's, in the order written; keys are unique

  const JsonNode* member(const QString& key) const;
};

// "a string", "a number", "an object"... for messages.
QString describeKind(JsonNode::Kind kind);

// Reads one JSON value (RFC 8259) filling the whole text, a UTF-8 byte-order mark allowed.
// Throws PositionedError for a syntax error or a key written twice in one object.
JsonNode readPositionedJson(const QByteArray& text);

}  // namespace aaren::ui
