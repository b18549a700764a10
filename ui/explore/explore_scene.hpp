#pragma once
// One picture of the Explore page, as a lesson scene asks for it (docs/lessons.md): which view,
// on which numbers, with which choices, at which step, and what is lit. ExplorePage::applyScene
// shows it; a field left at its default leaves the page's own choice alone where that is said.
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

namespace aaren::ui {

// The boxes of the scan tree that hold the combined prefix of tokens first..last (0-based).
struct TokenRange {
  int first = 0;
  int last = 0;
  bool operator==(const TokenRange&) const = default;
};

struct ExploreScene {
  QString view = QStringLiteral("scan");  // "scan", "cell", "figure1", "linear", "state" (the ExploreView ids)

  // The numbers: random (tokens, seed, scoreShift) unless scores are given; values may then be
  // given too ("0.5; -1; 2"), else random values of the same seed.
  int tokens = 8;
  int valueDims = 1;
  int seed = 7;
  double scoreShift = 0.0;
  QString scores;  // explicit scores, as the input panel's typed row reads them; empty = random
  QString values;

  // Scan view: "sequential", "hillis-steele", "brent-kung" or "side-by-side"; errata shows the
  // printed Algorithm 1 beside the corrected loop (erratum 3).
  QString algorithm = QStringLiteral("hillis-steele");
  bool scanErrata = false;

  // Cell view: "token" or "block" (with blockSize); paperStart starts at m_0 = 0 as printed
  // (erratum 1); printedTypo shows the printed exp(c_k - m_k) update beside exp(s_k - m_k)
  // (erratum 2).
  QString cellMode = QStringLiteral("token");
  int blockSize = 4;
  bool paperStart = false;
  bool printedTypo = false;

  // Linear attention view: the feature map ("elu1", "relu" or "favor"), FAVOR+'s M, and the chart
  // ("output", "error" or "state").
  QString featureMap = QStringLiteral("elu1");
  int features = 16;
  QString linearChart = QStringLiteral("output");

  int step = 0;            // the position to show; -1 = the last step
  bool showAhead = false;  // future values drawn before their step (off in lessons)
  // A lesson's question is open: the view leaves out what would answer it until the reveal.
  bool answerWithheld = false;

  QList<TokenRange> litBoxes;  // scan tree boxes to light (a question's answer, a term's boxes)
  QStringList litTerms;        // formula terms to light, as they are written in the formula panel
};

}  // namespace aaren::ui
