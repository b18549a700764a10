#pragma once
// The Data page's "Generate…" for reinforcement learning: which environment, which behaviour
// policy, how many steps, which seed, and the file to write (`aaren rl generate`'s options). The
// file's name follows the choices until the user edits it; an existing file is replaced only after
// the user agrees.
#include <QDialog>
#include <QString>

#include "core/rl/offline_dataset.hpp"

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace aaren::ui {

struct GenerateRequest {
  QString environment;
  rl::DatasetPolicy policy = rl::DatasetPolicy::medium_expert;
  long steps = 100'000;
  int seed = 1;
  QString path;
};

class GenerateDatasetDialog : public QDialog {
  Q_OBJECT

 public:
  // `folder`: where the file goes unless the user chooses another.
  explicit GenerateDatasetDialog(const QString& folder, QWidget* parent = nullptr);

  GenerateRequest request() const;
  void setRequest(const GenerateRequest& request);  // the choices shown; the path follows them unless given
  QComboBox* environmentCombo() const { return environment_; }
  QComboBox* policyCombo() const { return policy_; }
  QSpinBox* stepsSpin() const { return steps_; }
  QSpinBox* seedSpin() const { return seed_; }
  QLineEdit* pathEdit() const { return path_; }
  QString problem() const;  // why OK would be refused now; empty when it would not

  void accept() override;  // refuses an unwritable path; asks before replacing a file

 private:
  QString suggestedPath() const;
  void followChoices();
  void browse();
  void describePolicy();

  QString folder_;
  QComboBox* environment_;
  QComboBox* policy_;
  QSpinBox* steps_;
  QSpinBox* seed_;
  QLineEdit* path_;
  QLabel* policyNote_;
  QLabel* problem_;
  bool pathEdited_ = false;
};

// The policy's behaviour in a sentence, for the dialog and the Data page.
QString policyDescription(rl::DatasetPolicy policy);

}  // namespace aaren::ui
