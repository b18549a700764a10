#pragma once
// Inputs taken from a trained model: a run folder (config.json + model.safetensors) and its data
// file are loaded off the GUI thread; then one head of one layer is probed on a window of the
// scaled data (core/model/attention_probe.hpp) and its actual scores and values become the page's
// inputs. The first row, layer, head, value dimensions and token count can be changed at will.
// Choosing another run while one loads cancels that load: the newest choice wins.
#include <QWidget>
#include <memory>

#include "core/data/forecast_data.hpp"
#include "core/model/model_config.hpp"
#include "core/forecast/forecast_run_folder.hpp"
#include "ui/explore/explore_inputs.hpp"

class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace aaren::ui {

class BackgroundJob;

struct LoadedModelData {
  LoadedForecastRun run;
  ForecastData data;
  QString name;  // the run folder's name
};

class ModelSource : public QWidget {
  Q_OBJECT

 public:
  explicit ModelSource(QWidget* parent = nullptr);

  // Starts loading, cancelling a load still running; the result arrives as modelLoaded() or
  // failed(). A data path that is empty means
  // the file named in the run's config.json (as given, or beside the run folder).
  void loadRun(const QString& runFolder, const QString& dataPath = {});
  // Adopts an already loaded run (what loadRun delivers) and probes it.
  void setModel(std::shared_ptr<const LoadedModelData> model);
  bool hasModel() const { return model_ != nullptr; }
  bool isLoading() const;
  QString runFolder() const { return runFolder_; }  // the last one loaded or being loaded; empty when none

  void setTokens(int tokens);  // N: the window's first N tokens, capped by the model's window length

 signals:
  void inputsChanged(const aaren::ui::ExploreInputs& inputs);
  void modelLoaded(const aaren::ModelConfig& config, const QString& name);
  void failed(const QString& message);

 private:
  void chooseRun();
  void chooseDataFile();
  void probe();
  void showModel();

  QPushButton* runButton_;
  QPushButton* dataButton_;
  QLabel* runLabel_;
  QSpinBox* firstRow_;
  QSpinBox* layer_;
  QSpinBox* head_;
  QSpinBox* tokens_;
  QLineEdit* dims_;
  BackgroundJob* loader_;
  std::shared_ptr<const LoadedModelData> model_;
  QString runFolder_;
};

}  // namespace aaren::ui
