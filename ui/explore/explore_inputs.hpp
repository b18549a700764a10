#pragma once
// What the Explore page runs its scans and cells on: N scores and N value vectors of 1 to 3
// numbers, drawn at random with a seed, typed in by hand, or read out of a trained model; and the
// choices that make them, as the next session restores them.
#include <QString>
#include <optional>
#include <vector>

namespace aaren {
struct AttentionProbe;
}

namespace aaren::ui {

inline constexpr int kMinExploreTokens = 2;
inline constexpr int kMaxExploreTokens = 64;
inline constexpr int kMaxExploreValueDims = 3;

enum class InputSource { random, typed, model };

// What the input panel shows, whichever source is chosen.
struct ExploreInputChoices {
  InputSource source = InputSource::random;
  int tokens = 8;  // N of the random inputs and of the model's window
  int dv = 1;
  int seed = 7;
  double scoreShift = 0.0;
  QString scores = QStringLiteral("1.2, -0.5, 0.3, 2.0, -1.1, 0.8");  // typed in
  QString values = QStringLiteral("0.5; -1; 2; 0.1; 1.5; -0.3");
  QString runFolder;  // the trained model's; empty when none was loaded
};

class Settings;
// The input panel's choices as the last session left them (explore/...); nothing when none were saved.
std::optional<ExploreInputChoices> loadExploreInputs(const Settings& settings);
void saveExploreInputs(Settings& settings, const ExploreInputChoices& choices);

struct ExploreInputs {
  std::vector<float> scores;  // (N)
  std::vector<float> values;  // (N, dv)
  int dv = 1;
  QString origin;             // one line for captions and exports: "random, seed 7"

  int tokens() const { return int(scores.size()); }
  const float* value(int token) const { return values.data() + std::size_t(token) * std::size_t(dv); }
};

// Scores around scoreShift (spread 1.5) and values around 0 (spread 1), rounded to two decimals
// so that the numbers on the screen are the numbers computed with.
ExploreInputs randomInputs(int tokens, int dv, unsigned seed, double scoreShift = 0.0);

// Scores separated by commas, spaces or semicolons ("1.2, -0.5, 3"); values one token after the
// other separated by ';' or new lines, each 1 to 3 numbers separated by spaces or commas
// ("0.5 1; -1 0; 2 2"). Throws std::invalid_argument naming the entry that is wrong.
ExploreInputs parseTypedInputs(const QString& scoresText, const QString& valuesText);

// Scores and values of one head, as the probe read them; origin names the run, layer and head.
ExploreInputs inputsFromProbe(const AttentionProbe& probe, const QString& runName);

}  // namespace aaren::ui
