#pragma once
// One colour per model family, the same in every chart, the report and the lecture pack: Aaren
// blue, the Transformer orange, the linear Transformer magenta (the Forecast page keeps green for
// the truth, grey for the history and purple for the future).
#include <QColor>
#include <QString>

#include "core/model/model_config.hpp"

namespace aaren::ui {

QColor modelColor(ModelKind kind);
// The lighter shade of a model's validation curve beside its training curve.
QColor modelValidationColor(ModelKind kind);
// By the name charts give a model (displayName: "Aaren", "Transformer", "Linear Transformer");
// a name of none of them is drawn in grey.
QColor modelColor(const QString& displayName);
QColor modelValidationColor(const QString& displayName);

}  // namespace aaren::ui
