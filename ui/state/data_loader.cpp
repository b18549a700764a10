#include "ui/state/data_loader.hpp"

#include <utility>

#include "core/io/file_line_error.hpp"
#include "ui/workers/background_job.hpp"

namespace aaren::ui {

namespace {

// Records shown on either side of a failing line past the preview: as many as the preview's rows.
constexpr int kFailedLineRadius = 50;

}  // namespace

DataLoader::DataLoader(QObject* parent) : QObject(parent), job_(new BackgroundJob(this)) {
  connect(job_, &BackgroundJob::progress, this, &DataLoader::progress);
  connect(job_, &BackgroundJob::runningChanged, this, &DataLoader::runningChanged);
  connect(job_, &BackgroundJob::succeeded, this, [this](const QVariant& result) {
    loadedView_ = loadingView_;
    emit loaded(result.value<std::shared_ptr<const TimeSeriesTable>>());
  });
  // The records around a failing line arrive just before the failure (reported items come in order).
  connect(job_, &BackgroundJob::reported, this,
          [this](const QVariant& item) { failedLines_ = item.value<std::shared_ptr<const CsvExcerpt>>(); });
  connect(job_, &BackgroundJob::failed, this, &DataLoader::failed);
  connect(job_, &BackgroundJob::cancelled, this, [this] {
    if (std::exchange(cancelledByUser_, false)) emit cancelled();
  });
}

void DataLoader::load(const DialectView& view, const CsvReadOptions& options) {
  cancelledByUser_ = false;
  loadingView_ = view;
  loadingOptions_ = options;
  failedLines_.reset();
  const std::string path = view.path.toStdString();
  const char delimiter = view.detection.delimiter;
  const bool hasHeader = view.detection.has_header;
  job_->start([path, options, delimiter, hasHeader](JobContext& context) {
    CsvReadOptions cancellable = options;
    cancellable.set_token(context.token());
    try {
      return QVariant::fromValue(std::shared_ptr<const TimeSeriesTable>(
          std::make_shared<TimeSeriesTable>(read_time_series_csv(path, cancellable))));
    } catch (const FileLineError& error) {
      // The line may lie far past the preview's first rows: the rows around it go with the error.
      try {
        context.report(QVariant::fromValue(std::shared_ptr<const CsvExcerpt>(std::make_shared<CsvExcerpt>(
            read_csv_excerpt(path, delimiter, hasHeader, error.line(), kFailedLineRadius, context.token())))));
      } catch (const ReadCancelled&) {
        throw;
      } catch (const std::exception&) {
        // Without its rows the error still says where it is.
      }
      throw;
    }
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
