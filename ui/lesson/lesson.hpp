#pragma once
// A lesson: a title and an ordered list of scenes, each a picture of the Explore page (or a live
// run on the Efficiency page, or a trained agent acting on the Forecast page) with narration, and perhaps a question for the class to answer
// before its answer is revealed. The file format is docs/lessons.md; lesson_parser.hpp reads it.
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

#include "core/rl/decision_actor.hpp"
#include "ui/explore/explore_scene.hpp"
#include "ui/state/efficiency_choice.hpp"

namespace aaren::ui {

// The views a scene may name: the Explore page's five, the Efficiency page's live run, and the
// Forecast page's Act view.
inline const QString kLessonScanView = QStringLiteral("scan");
inline const QString kLessonCellView = QStringLiteral("cell");
inline const QString kLessonFigureView = QStringLiteral("figure1");
inline const QString kLessonLinearView = QStringLiteral("linear");
inline const QString kLessonStateView = QStringLiteral("state");
inline const QString kLessonEfficiencyView = QStringLiteral("efficiency");
inline const QString kLessonActView = QStringLiteral("act");

// An act scene: a Decision Transformer run's models acting for one episode (ui/rl/act_view.hpp).
struct ActScene {
  QString run;                      // a run folder; empty: the newest reinforcement-learning run in the runs folder
  std::optional<rl::ActMode> mode;  // none: each model's own
  int seed = 1;
  std::optional<int> step;          // the step shown; none: the episode's end
};

struct LessonQuestion {
  QString prompt;
  QString answer;
  // What the reveal changes in the picture: another step, boxes and formula terms to light.
  std::optional<int> revealStep;  // -1 = the last step
  QList<TokenRange> revealBoxes;
  QStringList revealTerms;
};

struct LessonScene {
  QString id;  // names the exported files: letters, digits and '-'
  QString title;
  QString view;                 // one of the kLesson*View names
  ExploreScene explore;         // for the Explore views
  EfficiencyChoice efficiency;  // for the efficiency view: a short run's size
  ActScene act;                 // for the act view
  QString narration;
  std::optional<LessonQuestion> question;

  bool onEfficiencyPage() const { return view == kLessonEfficiencyView; }
  bool onForecastPage() const { return view == kLessonActView; }
  bool onExplorePage() const { return !onEfficiencyPage() && !onForecastPage(); }
  // The Explore page's scene before or after the question's reveal.
  ExploreScene exploreScene(bool revealed) const;
};

struct Lesson {
  QString id;
  QString title;
  QString source;  // the file it was read from, for messages
  QList<LessonScene> scenes;
};

}  // namespace aaren::ui
