#include "ui/explore/input_panel.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <stdexcept>

#include "ui/explore/model_source.hpp"

namespace aaren::ui {

namespace {

constexpr int kMaxSeed = 999999;
constexpr double kMaxShift = 1000.0;

QWidget* row(QWidget* parent, std::initializer_list<QWidget*> widgets) {
  auto* page = new QWidget(parent);
  auto* layout = new QHBoxLayout(page);
  layout->setContentsMargins(0, 0, 0, 0);
  for (QWidget* widget : widgets) {
    widget->setParent(page);
    layout->addWidget(widget);
  }
  layout->addStretch(1);
  return page;
}

QLabel* label(const QString& text) { return new QLabel(text); }

}  // namespace

InputPanel::InputPanel(QWidget* parent)
    : QWidget(parent), sourceBox_(new QComboBox(this)), stack_(new QStackedWidget(this)), tokens_(new QSpinBox),
      dv_(new QSpinBox), seed_(new QSpinBox), shift_(new QDoubleSpinBox), scores_(new QLineEdit),
      values_(new QLineEdit), model_(new ModelSource(this)), error_(new QLabel(this)) {
  const ExploreInputChoices defaults;
  scores_->setText(defaults.scores);
  values_->setText(defaults.values);
  sourceBox_->setObjectName(QStringLiteral("inputSource"));
  sourceBox_->addItem(tr("Random"), int(InputSource::random));
  sourceBox_->addItem(tr("Typed in"), int(InputSource::typed));
  sourceBox_->addItem(tr("From a trained model"), int(InputSource::model));

  tokens_->setObjectName(QStringLiteral("inputTokens"));
  tokens_->setRange(kMinExploreTokens, kMaxExploreTokens);
  tokens_->setValue(defaults.tokens);
  tokens_->setToolTip(tr("Number of tokens N"));
  dv_->setObjectName(QStringLiteral("inputValueDims"));
  dv_->setRange(1, kMaxExploreValueDims);
  dv_->setToolTip(tr("Numbers per value, d_v"));
  seed_->setObjectName(QStringLiteral("inputSeed"));
  seed_->setRange(0, kMaxSeed);
  seed_->setValue(defaults.seed);
  seed_->setToolTip(tr("The same seed gives the same numbers"));
  shift_->setObjectName(QStringLiteral("inputShift"));
  shift_->setRange(-kMaxShift, kMaxShift);
  shift_->setDecimals(1);
  shift_->setToolTip(tr("Added to every score; below about \u2212104 the paper's m\u2080 = 0 fails in float32"));
  auto* newSeed = new QPushButton(tr("New numbers"));
  connect(newSeed, &QPushButton::clicked, this, [this] { seed_->setValue((seed_->value() + 1) % (kMaxSeed + 1)); });
  for (QSpinBox* spin : {tokens_, dv_, seed_}) connect(spin, &QSpinBox::valueChanged, this, &InputPanel::applyRandom);
  connect(shift_, &QDoubleSpinBox::valueChanged, this, &InputPanel::applyRandom);
  // The model's window is cut to the same N.
  connect(tokens_, &QSpinBox::valueChanged, model_, &ModelSource::setTokens);
  model_->setTokens(defaults.tokens);

  scores_->setObjectName(QStringLiteral("inputScores"));
  scores_->setToolTip(tr("Scores separated by commas or spaces"));
  values_->setObjectName(QStringLiteral("inputValues"));
  values_->setToolTip(tr("One value per score, separated by ';'; each value 1 to 3 numbers, e.g. '0.5 1; -1 0'"));
  for (QLineEdit* edit : {scores_, values_}) {
    edit->setMinimumWidth(fontMetrics().horizontalAdvance(QLatin1Char('0')) * 28);
    connect(edit, &QLineEdit::returnPressed, this, &InputPanel::applyTyped);
  }
  auto* apply = new QPushButton(tr("Apply"));
  connect(apply, &QPushButton::clicked, this, &InputPanel::applyTyped);

  stack_->addWidget(row(stack_, {label(tr("N")), tokens_, label(tr("d_v")), dv_, label(tr("seed")), seed_, newSeed,
                                 label(tr("score shift")), shift_}));
  stack_->addWidget(row(stack_, {label(tr("scores")), scores_, label(tr("values")), values_, apply}));
  stack_->addWidget(model_);
  stack_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Maximum);
  connect(sourceBox_, &QComboBox::currentIndexChanged, this,
          [this] { setSource(InputSource(sourceBox_->currentData().toInt())); });
  connect(model_, &ModelSource::inputsChanged, this, [this](const ExploreInputs& inputs) {
    if (source() == InputSource::model) accept(inputs);
  });
  connect(model_, &ModelSource::failed, this, [this](const QString& message) {
    if (source() == InputSource::model) showError(message);
  });
  connect(model_, &ModelSource::modelLoaded, this, &InputPanel::modelLoaded);

  for (int i = 1; i < stack_->count(); ++i) stack_->widget(i)->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
  error_->setObjectName(QStringLiteral("chartNotice"));
  error_->setWordWrap(true);
  error_->hide();

  auto* top = new QHBoxLayout;
  top->addWidget(label(tr("Inputs")));
  top->addWidget(sourceBox_);
  top->addWidget(stack_, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addLayout(top);
  layout->addWidget(error_);
  applyRandom();
}

InputSource InputPanel::source() const { return InputSource(sourceBox_->currentData().toInt()); }

QString InputPanel::error() const { return error_->isHidden() ? QString() : error_->text(); }

void InputPanel::setSource(InputSource source) {
  {
    const QSignalBlocker blocker(sourceBox_);
    sourceBox_->setCurrentIndex(sourceBox_->findData(int(source)));
  }
  stack_->setCurrentIndex(int(source));
  // Only the shown row counts for the page's width.
  for (int i = 0; i < stack_->count(); ++i)
    stack_->widget(i)->setSizePolicy(i == int(source) ? QSizePolicy::Preferred : QSizePolicy::Ignored,
                                     i == int(source) ? QSizePolicy::Preferred : QSizePolicy::Ignored);
  showError({});
  switch (source) {
    case InputSource::random: applyRandom(); break;
    case InputSource::typed: applyTyped(); break;
    case InputSource::model:
      if (!model_->hasModel()) showError(tr("Choose a run folder written by training (config.json and model.safetensors)."));
      break;
  }
}

void InputPanel::setRandom(int tokens, int dv, int seed, double scoreShift) {
  showRandomSettings(tokens, dv, seed, scoreShift);
  setSource(InputSource::random);
}

void InputPanel::showRandomSettings(int tokens, int dv, int seed, double scoreShift) {
  {
    const QSignalBlocker a(tokens_), b(dv_), c(seed_), d(shift_);
    tokens_->setValue(tokens);
    dv_->setValue(dv);
    seed_->setValue(seed);
    shift_->setValue(scoreShift);
  }
  model_->setTokens(tokens_->value());
}

ExploreInputChoices InputPanel::choices() const {
  ExploreInputChoices choices;
  choices.source = source();
  choices.tokens = tokens_->value();
  choices.dv = dv_->value();
  choices.seed = seed_->value();
  choices.scoreShift = shift_->value();
  choices.scores = scores_->text();
  choices.values = values_->text();
  choices.runFolder = model_->runFolder();
  return choices;
}

void InputPanel::setChoices(const ExploreInputChoices& choices) {
  scores_->setText(choices.scores);
  values_->setText(choices.values);
  showRandomSettings(choices.tokens, choices.dv, choices.seed, choices.scoreShift);
  const bool runThere = !choices.runFolder.isEmpty() && QFileInfo(choices.runFolder).isDir();
  const InputSource source = choices.source == InputSource::model && !runThere ? InputSource::random : choices.source;
  setSource(source);
  if (source == InputSource::model) model_->loadRun(choices.runFolder);
}

void InputPanel::setRandomScoreShift(double scoreShift) {
  setRandom(tokens_->value(), dv_->value(), seed_->value(), scoreShift);
}

void InputPanel::setTyped(const QString& scores, const QString& values) {
  scores_->setText(scores);
  values_->setText(values);
  setSource(InputSource::typed);
}

void InputPanel::applyRandom() {
  if (source() != InputSource::random) return;
  try {
    accept(randomInputs(tokens_->value(), dv_->value(), unsigned(seed_->value()), shift_->value()));
  } catch (const std::exception& error) {
    showError(QString::fromUtf8(error.what()));
  }
}

void InputPanel::applyTyped() {
  if (source() != InputSource::typed) return;
  try {
    accept(parseTypedInputs(scores_->text(), values_->text()));
  } catch (const std::exception& error) {
    showError(QString::fromUtf8(error.what()));
  }
}

void InputPanel::accept(const ExploreInputs& inputs) {
  showError({});
  inputs_ = inputs;
  emit inputsChanged(inputs_);
}

void InputPanel::showError(const QString& message) {
  error_->setText(message);
  error_->setVisible(!message.isEmpty());
}

}  // namespace aaren::ui
