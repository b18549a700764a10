#include "ui/lesson/positioned_json.hpp"

#include <QObject>
#include <cctype>
#include <cmath>

namespace aaren::ui {

namespace {

// Deep enough for any lesson; shallow enough that a hostile file cannot exhaust the stack.
constexpr int kMaxDepth = 64;

QString tr(const char* text) { return QObject::tr(text); }

bool isContinuationByte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

class Reader {
 public:
  explicit Reader(const QByteArray& text) : text_(text) {
    if (text_.startsWith("\xEF\xBB\xBF")) offset_ = 3;
  }

  JsonNode document() {
    skipSpace();
    if (atEnd()) fail(tr("the file is empty; a lesson is a JSON object"));
    JsonNode root = value(0);
    skipSpace();
    if (!atEnd()) fail(tr("unexpected %1 after the end of the JSON value").arg(describeHere()));
    return root;
  }

 private:
  bool atEnd() const { return offset_ >= text_.size(); }
  char peek() const { return atEnd() ? '\0' : text_[offset_]; }

  void advance() {
    const char c = text_[offset_++];
    if (c == '\n') {
      ++position_.line;
      position_.column = 1;
    } else if (!isContinuationByte(c)) {
      ++position_.column;
    }
  }

  [[noreturn]] void fail(const QString& reason) const { throw PositionedError(position_, reason); }
  [[noreturn]] void failAt(TextPosition where, const QString& reason) const { throw PositionedError(where, reason); }

  QString describeHere() const {
    if (atEnd()) return tr("end of the file");
    const unsigned char c = static_cast<unsigned char>(peek());
    if (c < 0x20) return tr("control character (code %1)").arg(int(c));
    // The whole character, however many UTF-8 bytes it has.
    qsizetype end = offset_ + 1;
    while (end < text_.size() && isContinuationByte(text_[end])) ++end;
    return QStringLiteral("'%1'").arg(QString::fromUtf8(text_.mid(offset_, end - offset_)));
  }

  void skipSpace() {
    while (!atEnd() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) advance();
  }

  void expect(char c, const QString& what) {
    if (peek() != c) fail(tr("expected %1, found %2").arg(what, describeHere()));
    advance();
  }

  JsonNode value(int depth) {
    if (depth > kMaxDepth) fail(tr("the values are nested more than %1 deep").arg(kMaxDepth));
    JsonNode node;
    node.position = position_;
    const char c = peek();
    if (c == '{') {
      node.kind = JsonNode::Kind::object;
      object(node, depth);
    } else if (c == '[') {
      node.kind = JsonNode::Kind::array;
      array(node, depth);
    } else if (c == '"') {
      node.kind = JsonNode::Kind::string;
      node.text = string();
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      node.kind = JsonNode::Kind::number;
      node.number = number();
    } else if (literal("true")) {
      node.kind = JsonNode::Kind::boolean;
      node.boolean = true;
    } else if (literal("false")) {
      node.kind = JsonNode::Kind::boolean;
    } else if (literal("null")) {
      node.kind = JsonNode::Kind::null;
    } else {
      fail(tr("expected a value, found %1").arg(describeHere()));
    }
    return node;
  }

  bool literal(const char* word) {
    const QByteArray w(word);
    if (text_.mid(offset_, w.size()) != w) return false;
    for (qsizetype i = 0; i < w.size(); ++i) advance();
    if (!atEnd() && std::isalnum(static_cast<unsigned char>(peek())))
      fail(tr("unexpected %1 after '%2'").arg(describeHere(), QString::fromLatin1(w)));
    return true;
  }

  void object(JsonNode& node, int depth) {
    advance();  // {
    skipSpace();
    if (peek() == '}') {
      advance();
      return;
    }
    while (true) {
      skipSpace();
      JsonMember member;
      member.keyPosition = position_;
      if (peek() != '"') fail(tr("expected a key in double quotes, found %1").arg(describeHere()));
      member.key = string();
      for (const JsonMember& earlier : node.members)
        if (earlier.key == member.key)
          failAt(member.keyPosition, tr("the key '%1' is written twice in this object (first at line %2)")
                                         .arg(member.key)
                                         .arg(earlier.keyPosition.line));
      skipSpace();
      expect(':', tr("':' after the key '%1'").arg(member.key));
      skipSpace();
      member.value.push_back(value(depth + 1));
      node.members.push_back(std::move(member));
      skipSpace();
      if (peek() == ',') {
        advance();
        skipSpace();
        if (peek() == '}') fail(tr("a ',' before '}' (JSON allows no trailing comma)"));
        continue;
      }
      expect('}', tr("',' or '}'"));
      return;
    }
  }

  void array(JsonNode& node, int depth) {
    advance();  // [
    skipSpace();
    if (peek() == ']') {
      advance();
      return;
    }
    while (true) {
      skipSpace();
      node.items.push_back(value(depth + 1));
      skipSpace();
      if (peek() == ',') {
        advance();
        skipSpace();
        if (peek() == ']') fail(tr("a ',' before ']' (JSON allows no trailing comma)"));
        continue;
      }
      expect(']', tr("',' or ']'"));
      return;
    }
  }

  int hexDigits() {
    int code = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = peek();
      int digit = -1;
      if (c >= '0' && c <= '9')
        digit = c - '0';
      else if (c >= 'a' && c <= 'f')
        digit = c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        digit = c - 'A' + 10;
      if (digit < 0) fail(tr("expected four hexadecimal digits after \\u, found %1").arg(describeHere()));
      code = code * 16 + digit;
      advance();
    }
    return code;
  }

  QString string() {
    const TextPosition start = position_;
    advance();  // "
    QByteArray bytes;
    while (true) {
      if (atEnd()) failAt(start, tr("this string has no closing '\"'"));
      const char c = peek();
      if (c == '"') {
        advance();
        return QString::fromUtf8(bytes);
      }
      if (static_cast<unsigned char>(c) < 0x20)
        fail(c == '\n' ? tr("a line break inside a string (write \\n)") : tr("a control character inside a string"));
      if (c != '\\') {
        bytes += c;
        advance();
        continue;
      }
      advance();
      const char e = peek();
      switch (e) {
        case '"':
          bytes += '"';
          break;
        case '\\':
          bytes += '\\';
          break;
        case '/':
          bytes += '/';
          break;
        case 'b':
          bytes += '\b';
          break;
        case 'f':
          bytes += '\f';
          break;
        case 'n':
          bytes += '\n';
          break;
        case 'r':
          bytes += '\r';
          break;
        case 't':
          bytes += '\t';
          break;
        case 'u': {
          advance();
          char32_t code = char32_t(hexDigits());
          if (code >= 0xD800 && code <= 0xDBFF) {
            if (peek() != '\\' || text_.mid(offset_ + 1, 1) != "u") fail(tr("a \\u surrogate without its pair"));
            advance();
            advance();
            const int low = hexDigits();
            if (low < 0xDC00 || low > 0xDFFF) fail(tr("a \\u surrogate without its pair"));
            code = 0x10000 + ((code - 0xD800) << 10) + char32_t(low - 0xDC00);
          }
          bytes += QString::fromUcs4(&code, 1).toUtf8();
          continue;
        }
        default:
          fail(tr("unknown escape \\%1 in a string").arg(describeHere()));
      }
      advance();
    }
  }

  double number() {
    const qsizetype begin = offset_;
    const TextPosition start = position_;
    auto digits = [this] {
      int count = 0;
      while (peek() >= '0' && peek() <= '9') {
        advance();
        ++count;
      }
      return count;
    };
    if (peek() == '-') advance();
    if (peek() == '0') {
      advance();
      if (peek() >= '0' && peek() <= '9') failAt(start, tr("a number cannot start with 0 followed by digits"));
    } else if (digits() == 0) {
      fail(tr("expected a digit, found %1").arg(describeHere()));
    }
    if (peek() == '.') {
      advance();
      if (digits() == 0) fail(tr("expected a digit after '.', found %1").arg(describeHere()));
    }
    if (peek() == 'e' || peek() == 'E') {
      advance();
      if (peek() == '+' || peek() == '-') advance();
      if (digits() == 0) fail(tr("expected a digit in the exponent, found %1").arg(describeHere()));
    }
    // QByteArray::toDouble reads the C locale's '.', whatever the user's locale.
    const QByteArray literal = text_.mid(begin, offset_ - begin);
    bool ok = false;
    const double x = literal.toDouble(&ok);
    if (!ok || !std::isfinite(x))
      failAt(start, tr("the number %1 cannot be held in a double").arg(QString::fromLatin1(literal)));
    return x;
  }

  const QByteArray& text_;
  qsizetype offset_ = 0;
  TextPosition position_;
};

}  // namespace

PositionedError::PositionedError(TextPosition position, const QString& reason)
    : std::runtime_error(QStringLiteral("%1:%2: %3").arg(position.line).arg(position.column).arg(reason).toStdString()),
      position_(position),
      reason_(reason) {}

const JsonNode* JsonNode::member(const QString& key) const {
  for (const JsonMember& m : members)
    if (m.key == key) return &m.node();
  return nullptr;
}

QString describeKind(JsonNode::Kind kind) {
  switch (kind) {
    case JsonNode::Kind::null:
      return tr("null");
    case JsonNode::Kind::boolean:
      return tr("true or false");
    case JsonNode::Kind::number:
      return tr("a number");
    case JsonNode::Kind::string:
      return tr("a string");
    case JsonNode::Kind::array:
      return tr("a list");
    case JsonNode::Kind::object:
      return tr("an object");
  }
  return {};
}

JsonNode readPositionedJson(const QByteArray& text) { return Reader(text).document(); }

}  // namespace aaren::ui
