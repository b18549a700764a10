#include "ui/lesson/lesson.hpp"

namespace aaren::ui {

ExploreScene LessonScene::exploreScene(bool revealed) const {
  ExploreScene scene = explore;
  scene.answerWithheld = question && !revealed;
  if (!revealed || !question) return scene;
  if (question->revealStep) scene.step = *question->revealStep;
  // The answer's boxes and terms join those the scene lights from the start.
  for (const TokenRange& box : question->revealBoxes)
    if (!scene.litBoxes.contains(box)) scene.litBoxes.append(box);
  for (const QString& term : question->revealTerms)
    if (!scene.litTerms.contains(term)) scene.litTerms.append(term);
  return scene;
}

}  // namespace aaren::ui
