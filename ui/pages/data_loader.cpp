#include "ui/pages/data_loader.hpp"

#include <utility>

#include "ui/workers/background_job.hpp"

namespace aaren::ui {

DataLoader::DataLoader(QObject* parent) : QObject(parent), job_(new BackgroundJob(this)) {
  connect(job_, &BackgroundJob::progress, this, &DataLoader::progress);
  connect(job_, &BackgroundJob::runningChanged, this, &DataLoader::runningChanged);
  connect(job_, &BackgroundJob::succeeded, this, [this](const QVariant& result) {
    loadedView_ = loadingView_;
    emit loaded(result.value<std::shared_ptr<const TimeSeriesTable>>());
  });
  connect(job_, &BackgroundJob::failed, this, &DataLoader::failed);
  connect(job_, &BackgroundJob::cancelled, this, [this] {
    if (std::exchange(cancelledByUser_, false)) emit cancelled();
  });
}

void DataLoader::load(const DialectView& view, const CsvReadOptions& options) {
  cancelledByUser_ = false;
  loadingView_ = view;
  loadingOptions_ = options;
  const std::string path = view.path.toStdString();
  job_->start([path, options](JobContext& context) {
    CsvReadOptions cancellable = options;
    cancellable.set_token(context.token());
    return QVariant::fromValue(std::shared_ptr<const TimeSeriesTable>(
        std::make_shared<TimeSeriesTable>(read_time_series_csv(path, cancellable))));
  });
}

void DataLoader::cancelByUser() {
  if (!job_->isRunning()) return;
  cancelledByUser_ = true;
  job_->cancel();
}

void DataLoader::stop() { job_->cancel(); }

bool DataLoader::isRunning() const { return job_->isRunning(); }

}  // namespace aaren::ui
