#include "ui/charts/model_colors.hpp"

#include <optional>

#include "ui/wording/model_names.hpp"

namespace aaren::ui {

namespace {

std::optional<ModelKind> kindNamed(const QString& displayedName) {
  for (const ModelKind kind : kModelKinds)
    if (displayName(kind) == displayedName) return kind;
  return std::nullopt;
}

const QColor kUnknownModelColor(0x6b, 0x72, 0x80);

}  // namespace

QColor modelColor(ModelKind kind) {
  switch (kind) {
    case ModelKind::aaren: return {0x25, 0x63, 0xd9};
    case ModelKind::transformer: return {0xe0, 0x6c, 0x1f};
    case ModelKind::linear: return {0xb8, 0x32, 0x8a};
  }
  return kUnknownModelColor;
}

QColor modelValidationColor(ModelKind kind) {
  switch (kind) {
    case ModelKind::aaren: return {0x5f, 0xb0, 0xf0};
    case ModelKind::transformer: return {0xe8, 0xa8, 0x30};
    case ModelKind::linear: return {0xe0, 0x7a, 0xc0};
  }
  return kUnknownModelColor.lighter(140);
}

QColor modelColor(const QString& displayName) {
  const std::optional<ModelKind> kind = kindNamed(displayName);
  return kind ? modelColor(*kind) : kUnknownModelColor;
}

QColor modelValidationColor(const QString& displayName) {
  const std::optional<ModelKind> kind = kindNamed(displayName);
  return kind ? modelValidationColor(*kind) : kUnknownModelColor.lighter(140);
}

}  // namespace aaren::ui
