#include "ui/workers/background_job.hpp"

#include <algorithm>
#include <exception>

#include "core/io/file_line_error.hpp"

namespace aaren::ui {

void JobContext::reportProgress(double fraction) {
  const int percent = int(std::clamp(fraction, 0.0, 1.0) * 100.0);
  if (percent == lastPercent_) return;
  lastPercent_ = percent;
  report_(percent / 100.0);
}

void JobRunner::execute(quint64 id, const JobWork& work) {
  if (newest_.load() != id) {
    emit cancelled(id);
    return;
  }
  JobContext context(newest_, id, [this, id](double fraction) { emit progress(id, fraction); });
  try {
    QVariant result = work(context);
    if (context.wanted()) emit succeeded(id, result);
    else emit cancelled(id);
  } catch (const std::exception& error) {
    // Work that stops because it was cancelled usually does so by throwing.
    if (!context.wanted()) {
      emit cancelled(id);
      return;
    }
    const auto* atLine = dynamic_cast<const FileLineError*>(&error);
    emit failed(id, QString::fromUtf8(error.what()), atLine ? atLine->line() : 0);
  }
}

BackgroundJob::BackgroundJob(QObject* parent) : QObject(parent), runner_(new JobRunner(newest_)) {
  thread_.setObjectName(QStringLiteral("BackgroundJob"));
  runner_->moveToThread(&thread_);
  connect(&thread_, &QThread::finished, runner_, &QObject::deleteLater);
  connect(runner_, &JobRunner::progress, this, [this](quint64 id, double fraction) {
    if (isNewest(id)) emit progress(fraction);
  });
  // A result that was on its way when cancel() was called is a cancelled job's all the same.
  connect(runner_, &JobRunner::succeeded, this, [this](quint64 id, const QVariant& result) {
    if (id != issued_) return;
    setRunning(false);
    if (newest_.load() == id) emit succeeded(result);
    else emit cancelled();
  });
  connect(runner_, &JobRunner::failed, this, [this](quint64 id, const QString& message, int line) {
    if (id != issued_) return;
    setRunning(false);
    if (newest_.load() == id) emit failed(message, line);
    else emit cancelled();
  });
  connect(runner_, &JobRunner::cancelled, this, [this](quint64 id) {
    if (id != issued_) return;
    setRunning(false);
    emit cancelled();
  });
  thread_.start();
}

BackgroundJob::~BackgroundJob() {
  newest_.store(0);
  thread_.quit();
  thread_.wait();
}

void BackgroundJob::start(JobWork work) {
  const quint64 id = ++issued_;
  newest_.store(id);
  QMetaObject::invokeMethod(
      runner_, [runner = runner_, id, work = std::move(work)] { runner->execute(id, work); }, Qt::QueuedConnection);
  setRunning(true);
}

void BackgroundJob::cancel() { newest_.store(0); }

void BackgroundJob::setRunning(bool running) {
  if (running_ == running) return;
  running_ = running;
  emit runningChanged(running);
}

}  // namespace aaren::ui
