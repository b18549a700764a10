#pragma once
// A model family's name as the app shows it, from core's model_name: "Aaren", "Transformer",
// "Linear Transformer" to start a line, a legend or a label (displayName), and core's own
// "linear Transformer" inside a sentence (inSentence), so that every page, chart and export says
// the same; and a Decision Transformer's act mode as the command line's --act names it.
#include <QString>
#include <string_view>

#include "core/model/model_config.hpp"
#include "core/rl/decision_actor.hpp"
#include "ui/wording/wording.hpp"

namespace aaren::ui {

inline QString inSentence(ModelKind kind) {
  const std::string_view name = model_name(kind);
  return QString::fromUtf8(name.data(), qsizetype(name.size()));
}

inline QString displayName(ModelKind kind) { return capitalized(inSentence(kind)); }

inline QString actModeName(rl::ActMode mode) {  // "window", "stream"
  const std::string_view name = rl::to_string(mode);
  return QString::fromUtf8(name.data(), qsizetype(name.size()));
}

}  // namespace aaren::ui
