// The Train page's saved choice: its fields, each key spelled once.
#include <stdexcept>

#include "core/model/model_config.hpp"
#include "ui/state/settings_fields.hpp"
#include "ui/state/training_choice.hpp"

namespace aaren::ui {

namespace {

const QString kModels = QStringLiteral("training/models");

// Absent (settings from before the choice) or unknown: M, what training did before.
SettingsField<TrainingChoice> featuresField() {
  return {QStringLiteral("training/features"),
          [](const QVariant& value, TrainingChoice& choice) {
            choice.features =
                forecast_features_from_string(value.toString().toStdString()).value_or(ForecastFeatures::M);
          },
          [](const TrainingChoice& choice) {
            return QVariant(QString::fromStdString(std::string(to_string(choice.features))));
          }};
}

// Absent or unreadable: the default.
SettingsField<TrainingChoice> augmentationField() {
  return {QStringLiteral("training/augmentation"),
          [](const QVariant& value, TrainingChoice& choice) {
            try {
              choice.augmentation = classify_augmentation_from_string(value.toString().toStdString());
            } catch (const std::invalid_argument&) {
              choice.augmentation = kDefaultAugmentation;
            }
          },
          [](const TrainingChoice& choice) { return QVariant(QString::fromStdString(to_string(choice.augmentation))); }};
}

const NamedValues<rl::ActMode>& actModeNames() {
  static const NamedValues<rl::ActMode> names = {{rl::ActMode::window, "window"}, {rl::ActMode::stream, "stream"}};
  return names;
}

// The form clamps every number to its range; here only unreadable ones fall back.
const SettingsFields<TrainingChoice>& fields() {
  using C = TrainingChoice;
  static const SettingsFields<C> table = {
      modelKindsField<C>(kModels, [](auto& c) -> auto& { return c.models; }),
      intField<C>(QStringLiteral("training/dModel"), [](auto& c) -> auto& { return c.model.d_model; }),
      intField<C>(QStringLiteral("training/heads"), [](auto& c) -> auto& { return c.model.heads; }),
      intField<C>(QStringLiteral("training/layers"), [](auto& c) -> auto& { return c.model.layers; }),
      intField<C>(QStringLiteral("training/dFf"), [](auto& c) -> auto& { return c.model.d_ff; }),
      intField<C>(QStringLiteral("training/lookBack"), [](auto& c) -> auto& { return c.model.seq_len; }),
      intField<C>(QStringLiteral("training/horizon"), [](auto& c) -> auto& { return c.model.horizon; }),
      intField<C>(QStringLiteral("training/epochs"), [](auto& c) -> auto& { return c.train.epochs; }),
      intField<C>(QStringLiteral("training/batch"), [](auto& c) -> auto& { return c.train.batch; }),
      realField<C>(QStringLiteral("training/learningRate"), [](auto& c) -> auto& { return c.train.lr; }, true),
      intField<C>(QStringLiteral("training/patience"), [](auto& c) -> auto& { return c.train.patience; }),
      unsignedField<C>(QStringLiteral("training/seed"), [](auto& c) -> auto& { return c.train.seed; }),
      namedField<C>(QStringLiteral("training/device"), [](auto& c) -> auto& { return c.device; }, deviceNames(),
                    ComputeDevice::cpu),
      featuresField(),
      intField<C>(QStringLiteral("training/members"), [](auto& c) -> auto& { return c.members; }),
      augmentationField(),
      intField<C>(QStringLiteral("training/cvFolds"), [](auto& c) -> auto& { return c.cvFolds; }),
      intField<C>(QStringLiteral("training/context"), [](auto& c) -> auto& { return c.context; }),
      namedField<C>(QStringLiteral("training/actMode"), [](auto& c) -> auto& { return c.actMode; }, actModeNames(),
                    rl::ActMode::window),
  };
  return table;
}

}  // namespace

std::optional<TrainingChoice> loadTrainingChoice(const Settings& settings) {
  if (!settings.contains(kModels)) return std::nullopt;
  TrainingChoice choice;
  readFields(settings, fields(), choice);
  return choice;
}

void saveTrainingChoice(Settings& settings, const TrainingChoice& choice) { writeFields(settings, fields(), choice); }

}  // namespace aaren::ui
