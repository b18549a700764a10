#include "ui/welcome_page.hpp"

#include <QApplication>
#include <QComboBox>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include "ui/appearance.hpp"
#include "ui/bundled_datasets.hpp"
#include "ui/glyph_icons.hpp"
#include "ui/hint_label.hpp"
#include "ui/lesson/bundled_lessons.hpp"
#include "ui/readable_scripts.hpp"

namespace aaren::ui {

namespace {

QLabel* makeText(const QString& html, QWidget* parent) {
  auto* label = new QLabel(parent);
  label->setWordWrap(true);
  label->setTextFormat(Qt::RichText);
  label->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  // The formulas' sub- and superscripts stay above presenter mode's floor.
  const auto show = [label, html] { label->setText(withReadableScripts(html, QApplication::font())); };
  show();
  QObject::connect(&Appearance::instance(), &Appearance::changed, label, show);
  return label;
}

QFrame* makeCard(const QString& title, const QString& html, QWidget* parent) {
  auto* card = new QFrame(parent);
  card->setObjectName(QStringLiteral("card"));
  auto* heading = new QLabel(title, card);
  heading->setObjectName(QStringLiteral("cardTitle"));
  heading->setWordWrap(true);
  auto* layout = new QVBoxLayout(card);
  layout->setContentsMargins(18, 16, 18, 18);
  layout->setSpacing(10);
  layout->addWidget(heading);
  layout->addWidget(makeText(html, card), 1);
  return card;
}

// A card with a heading, a row of controls (which it takes) and a hint under them.
QFrame* makeActionCard(const QString& title, QHBoxLayout* row, const QString& hint) {
  auto* card = new QFrame;
  card->setObjectName(QStringLiteral("card"));
  auto* heading = new QLabel(title, card);
  heading->setObjectName(QStringLiteral("cardTitle"));
  auto* layout = new QVBoxLayout(card);
  layout->setContentsMargins(18, 16, 18, 18);
  layout->setSpacing(12);
  layout->addWidget(heading);
  layout->addLayout(row);
  layout->addWidget(makeHint(card, hint));
  return card;
}

}  // namespace

WelcomePage::WelcomePage(QWidget* parent) : Page(parent) {
  auto* content = new QWidget;
  auto* layout = new QVBoxLayout(content);
  layout->setContentsMargins(28, 20, 28, 28);
  layout->setSpacing(18);

  layout->addWidget(makeText(
      tr("Softmax attention can be computed one token at a time, like a recurrent network, in constant "
         "memory; and for every prefix at once by a parallel prefix scan. <b>Aaren</b> (Feng et al., 2024, "
         "<i>Attention as an RNN</i>) is built on this: it trains in parallel like a Transformer and takes each "
         "new token in constant memory like an RNN. Aaren Studio shows every step of the argument and lets you "
         "test the claim on your own time series."),
      content));

  auto* cards = new QGridLayout;
  cards->setSpacing(16);
  cards->addWidget(
      makeCard(tr("1 · Attention is an RNN"),
               tr("The output for a query over tokens 1…k is o<sub>k</sub> = a<sub>k</sub> / c<sub>k</sub>, "
                  "updated token by token:<br><br>"
                  "m<sub>k</sub> = max(m<sub>k−1</sub>, s<sub>k</sub>)<br>"
                  "a<sub>k</sub> = a<sub>k−1</sub>·e<sup>m<sub>k−1</sub>−m<sub>k</sub></sup> + "
                  "v<sub>k</sub>·e<sup>s<sub>k</sub>−m<sub>k</sub></sup><br>"
                  "c<sub>k</sub> = c<sub>k−1</sub>·e<sup>m<sub>k−1</sub>−m<sub>k</sub></sup> + "
                  "e<sup>s<sub>k</sub>−m<sub>k</sub></sup><br><br>"
                  "The state has the same size whatever the number of tokens seen."),
               content),
      0, 0);
  cards->addWidget(
      makeCard(tr("2 · Every prefix by a scan"),
               tr("A run of tokens is summarised by (m, u, w): its largest score, the sum of "
                  "e<sup>s−m</sup> and the weighted sum of values. Two summaries combine by an associative "
                  "operator, so a parallel prefix scan (Hillis–Steele or Brent–Kung) gives the attention output of "
                  "all N prefixes in about log<sub>2</sub> N steps. The Explore page runs each algorithm step by "
                  "step, including the erratum in the paper's printed Algorithm 1."),
               content),
      0, 1);
  cards->addWidget(
      makeCard(tr("3 · Aaren vs. a Transformer"),
               tr("Both models are the same except for the token mixer: Aaren attends over each prefix with a "
                  "learned query by the scan; the Transformer uses causal self-attention with a key-value cache. "
                  "Train both on a time series, compare their forecasts, and measure the memory each needs per "
                  "new token: constant for Aaren, growing with the sequence for the Transformer."),
               content),
      0, 2);
  for (int column = 0; column < 3; ++column) cards->setColumnStretch(column, 1);
  layout->addLayout(cards);
  layout->addWidget(makeStartCard());
  layout->addWidget(makeLessonsCard());
  layout->addStretch(1);

  auto* scroll = new QScrollArea(this);
  scroll->setWidget(content);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  outer->addWidget(scroll);
}

QString WelcomePage::id() const { return QStringLiteral("welcome"); }

QString WelcomePage::title() const { return tr("Welcome"); }

QString WelcomePage::subtitle() const { return tr("What Aaren Studio shows, and where to start"); }

QIcon WelcomePage::icon() const { return glyphIcon(Glyph::welcome); }

QWidget* WelcomePage::makeStartCard() {
  auto* openDataFile = new QPushButton(tr("Open a CSV File…"));
  openDataFile->setObjectName(QStringLiteral("primaryButton"));
  connect(openDataFile, &QPushButton::clicked, this, &Page::browseDataFileRequested);

  auto* datasets = new QComboBox;
  datasets->setObjectName(QStringLiteral("sampleDatasets"));
  datasets->setMinimumContentsLength(20);
  datasets->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  for (const BundledDataset& dataset : bundledDatasets(bundledDatasetsDir()))
    datasets->addItem(dataset.group.isEmpty() ? dataset.name : dataset.group + QStringLiteral(" / ") + dataset.name,
                      dataset.path);
  auto* openDataset = new QPushButton(tr("Open Sample"));
  connect(openDataset, &QPushButton::clicked, this,
          [this, datasets] { emit openDataFileRequested(datasets->currentData().toString()); });
  const bool haveDatasets = datasets->count() > 0;
  if (!haveDatasets) datasets->addItem(tr("No sample datasets were found next to the application"));
  datasets->setEnabled(haveDatasets);
  openDataset->setEnabled(haveDatasets);

  auto* row = new QHBoxLayout;
  row->setSpacing(10);
  row->addWidget(openDataFile);
  row->addSpacing(18);
  row->addWidget(new QLabel(tr("or a sample:")));
  row->addWidget(datasets);
  row->addWidget(openDataset);
  row->addStretch(1);
  return makeActionCard(tr("Get started"), row,
                        tr("You can also drop a .csv file anywhere on this window. F11 switches to presenter mode "
                           "(full screen, larger text, thicker lines); Esc leaves it."));
}

QWidget* WelcomePage::makeLessonsCard() {
  auto* row = new QHBoxLayout;
  row->setSpacing(10);
  for (const BundledLesson& lesson : bundledLessons()) {
    auto* button = new QPushButton(lesson.title);
    button->setObjectName(QStringLiteral("lesson-%1").arg(lesson.id));
    const QString id = lesson.id;
    connect(button, &QPushButton::clicked, this, [this, id] { emit lessonRequested(id); });
    row->addWidget(button);
  }
  row->addStretch(1);
  return makeActionCard(tr("Lessons"), row,
                        tr("A lesson steps through the Explore page scene by scene, with narration and questions to "
                           "answer before the reveal. Page Down and Page Up change scenes, R reveals the answer. "
                           "File > Open Lesson… opens a lesson of your own (its format is in docs/lessons.md)."));
}

}  // namespace aaren::ui
