#include "ui/rl/generate_dataset_dialog.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <limits>

#include "core/rl/environment.hpp"

namespace aaren::ui {

namespace {

constexpr rl::DatasetPolicy kPolicies[] = {rl::DatasetPolicy::random, rl::DatasetPolicy::medium,
                                           rl::DatasetPolicy::medium_replay, rl::DatasetPolicy::medium_expert,
                                           rl::DatasetPolicy::expert};

QString policyName(rl::DatasetPolicy policy) { return QString::fromUtf8(rl::to_string(policy).data(), qsizetype(rl::to_string(policy).size())); }

}  // namespace

QString policyDescription(rl::DatasetPolicy policy) {
  switch (policy) {
    case rl::DatasetPolicy::random: return GenerateDatasetDialog::tr("Uniformly random actions: the score's 0.");
    case rl::DatasetPolicy::medium:
      return GenerateDatasetDialog::tr("The expert with enough noise on its actions (random steps, or heavy jitter, "
                                       "as the environment records) that it scores a third to a half of the expert.");
    case rl::DatasetPolicy::medium_replay:
      return GenerateDatasetDialog::tr("Episodes of rising quality, as a learner's replay buffer holds them: random at "
                                       "first, medium by the end.");
    case rl::DatasetPolicy::medium_expert:
      return GenerateDatasetDialog::tr("The first half of the steps medium, the second half expert.");
    case rl::DatasetPolicy::expert:
      return GenerateDatasetDialog::tr("The closed-form expert, its actions with a little noise: the score's 100.");
  }
  return {};
}

GenerateDatasetDialog::GenerateDatasetDialog(const QString& folder, QWidget* parent) : QDialog(parent), folder_(folder) {
  setWindowTitle(tr("Generate an Offline Data Set"));
  environment_ = new QComboBox(this);
  environment_->setObjectName(QStringLiteral("generateEnvironment"));
  environment_->addItems(QString::fromStdString(rl::environment_names()).split(QStringLiteral(", ")));
  policy_ = new QComboBox(this);
  policy_->setObjectName(QStringLiteral("generatePolicy"));
  for (const rl::DatasetPolicy policy : kPolicies) policy_->addItem(policyName(policy), int(policy));
  policy_->setCurrentIndex(policy_->findData(int(rl::DatasetPolicy::medium_expert)));
  policyNote_ = new QLabel(this);
  policyNote_->setWordWrap(true);
  steps_ = new QSpinBox(this);
  steps_->setObjectName(QStringLiteral("generateSteps"));
  steps_->setRange(1, 100'000'000);
  steps_->setGroupSeparatorShown(true);
  steps_->setValue(100'000);
  steps_->setToolTip(tr("Rows of the data set: one per step, episode after episode"));
  seed_ = new QSpinBox(this);
  seed_->setObjectName(QStringLiteral("generateSeed"));
  seed_->setRange(0, std::numeric_limits<int>::max());
  seed_->setValue(1);
  seed_->setToolTip(tr("The episodes' starts and the random actions follow it: the same seed, the same data"));
  path_ = new QLineEdit(this);
  path_->setObjectName(QStringLiteral("generatePath"));
  auto* browse = new QPushButton(tr("Browse…"), this);
  auto* pathRow = new QHBoxLayout;
  pathRow->addWidget(path_, 1);
  pathRow->addWidget(browse);

  auto* form = new QFormLayout;
  form->addRow(tr("Environment"), environment_);
  form->addRow(tr("Behaviour"), policy_);
  form->addRow(QString(), policyNote_);
  form->addRow(tr("Steps"), steps_);
  form->addRow(tr("Seed"), seed_);
  form->addRow(tr("File"), pathRow);
  problem_ = new QLabel(this);
  problem_->setObjectName(QStringLiteral("generateProblem"));
  problem_->setWordWrap(true);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  buttons->button(QDialogButtonBox::Ok)->setText(tr("Generate"));
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(problem_);
  layout->addWidget(buttons);
  setMinimumWidth(560);

  connect(buttons, &QDialogButtonBox::accepted, this, &GenerateDatasetDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &GenerateDatasetDialog::reject);
  connect(browse, &QPushButton::clicked, this, &GenerateDatasetDialog::browse);
  connect(environment_, &QComboBox::currentIndexChanged, this, &GenerateDatasetDialog::followChoices);
  connect(policy_, &QComboBox::currentIndexChanged, this, &GenerateDatasetDialog::followChoices);
  connect(seed_, &QSpinBox::valueChanged, this, &GenerateDatasetDialog::followChoices);
  connect(path_, &QLineEdit::textEdited, this, [this] {
    pathEdited_ = true;
    problem_->setText(problem());
  });
  followChoices();
}

GenerateRequest GenerateDatasetDialog::request() const {
  GenerateRequest request;
  request.environment = environment_->currentText();
  request.policy = rl::DatasetPolicy(policy_->currentData().toInt());
  request.steps = steps_->value();
  request.seed = seed_->value();
  request.path = QDir::cleanPath(path_->text().trimmed());
  return request;
}

void GenerateDatasetDialog::setRequest(const GenerateRequest& request) {
  environment_->setCurrentText(request.environment);
  policy_->setCurrentIndex(policy_->findData(int(request.policy)));
  steps_->setValue(int(request.steps));
  seed_->setValue(request.seed);
  pathEdited_ = !request.path.isEmpty();
  if (pathEdited_) path_->setText(request.path);
  followChoices();
}

QString GenerateDatasetDialog::suggestedPath() const {
  const GenerateRequest r = request();
  return QDir(folder_).filePath(QStringLiteral("%1-%2-seed%3.safetensors").arg(r.environment, policyName(r.policy)).arg(r.seed));
}

void GenerateDatasetDialog::followChoices() {
  if (!pathEdited_) path_->setText(QDir::toNativeSeparators(suggestedPath()));
  describePolicy();
  problem_->setText(problem());
}

void GenerateDatasetDialog::describePolicy() {
  policyNote_->setText(policyDescription(rl::DatasetPolicy(policy_->currentData().toInt())));
}

void GenerateDatasetDialog::browse() {
  const QString chosen = QFileDialog::getSaveFileName(this, tr("Write the Data Set To"), path_->text(),
                                                      tr("Offline data sets (*.safetensors)"));
  if (chosen.isEmpty()) return;
  pathEdited_ = true;
  path_->setText(QDir::toNativeSeparators(chosen));
  problem_->setText(problem());
}

QString GenerateDatasetDialog::problem() const {
  const QString path = path_->text().trimmed();
  if (path.isEmpty()) return tr("Name the file to write.");
  const QFileInfo file(path);
  if (file.isDir()) return tr("%1 is a folder; name a file in it.").arg(QDir::toNativeSeparators(path));
  // The folder is made when it is missing: what must exist is a writable folder on the way.
  QFileInfo folder(file.absolutePath());
  while (!folder.exists() && folder.absoluteFilePath() != folder.absolutePath()) folder.setFile(folder.absolutePath());
  if (!folder.isDir() || !folder.isWritable())
    return tr("%1 cannot be written: %2 is not a folder you can write to.")
        .arg(QDir::toNativeSeparators(path), QDir::toNativeSeparators(folder.absoluteFilePath()));
  return {};
}

void GenerateDatasetDialog::accept() {
  const QString why = problem();
  problem_->setText(why);
  if (!why.isEmpty()) return;
  const QFileInfo file(request().path);
  if (file.exists() &&
      QMessageBox::question(this, tr("Replace the File?"),
                            tr("%1 exists. Replace it with the new data set?").arg(QDir::toNativeSeparators(file.filePath())),
                            QMessageBox::Yes | QMessageBox::No, QMessageBox::No) != QMessageBox::Yes)
    return;
  QDir().mkpath(file.absolutePath());
  QDialog::accept();
}

}  // namespace aaren::ui
