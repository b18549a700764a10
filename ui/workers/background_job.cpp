#include "ui/workers/background_job.hpp"

#include <QThread>
#include <algorithm>
#include <exception>

#include "core/io/file_line_error.hpp"

namespace aaren::ui {

JobContext::JobContext(std::shared_ptr<const std::atomic<bool>> cancelled, std::function<void(double)> reportProgress,
                       std::function<void(const QVariant&)> reportItem)
    : cancelled_(std::move(cancelled)), reportProgress_(std::move(reportProgress)), reportItem_(std::move(reportItem)) {}

CancelToken JobContext::token() {
  CancelToken token;
  token.cancel = cancelled_.get();
  token.progress = [this](double fraction) { reportProgress(fraction); };
  return token;
}

void JobContext::reportProgress(double fraction) {
  const int percent = int(std::clamp(fraction, 0.0, 1.0) * 100.0);
  if (percent == lastPercent_) return;
  lastPercent_ = percent;
  reportProgress_(percent / 100.0);
}

void JobRunner::execute(quint64 id, const std::shared_ptr<std::atomic<bool>>& cancelFlag, const JobWork& work) {
  if (cancelFlag->load()) {
    emit cancelled(id);
    return;
  }
  JobContext context(
      cancelFlag, [this, id](double fraction) { emit progress(id, fraction); },
      [this, id](const QVariant& item) { emit reported(id, item); });
  try {
    QVariant result = work(context);
    if (context.wanted()) emit succeeded(id, result);
    else emit cancelled(id);
  } catch (const std::exception& error) {
    // Work that stops because it was cancelled usually does so by throwing (ReadCancelled).
    if (!context.wanted()) {
      emit cancelled(id);
      return;
    }
    const auto* atLine = dynamic_cast<const FileLineError*>(&error);
    emit failed(id, QString::fromUtf8(error.what()), atLine ? atLine->line() : 0);
  }
}

BackgroundJob::BackgroundJob(QObject* parent)
    : QObject(parent), current_(std::make_shared<std::atomic<bool>>(true)), thread_(new QThread),
      runner_(new JobRunner) {
  thread_->setObjectName(QStringLiteral("BackgroundJob"));
  runner_->moveToThread(thread_);
  connect(thread_, &QThread::finished, runner_, &QObject::deleteLater);
  connect(thread_, &QThread::finished, this, [this] {
    // A job queued behind the one that was running never started: it ends cancelled.
    if (running_) {
      setRunning(false);
      emit cancelled();
    }
    emit shutDownFinished();
  });
  connect(runner_, &JobRunner::progress, this, [this](quint64 id, double fraction) {
    if (isNewest(id)) emit progress(fraction);
  });
  connect(runner_, &JobRunner::reported, this, [this](quint64 id, const QVariant& item) {
    if (isNewest(id)) emit reported(item);
  });
  // A result on its way when cancel() was called is a cancelled job's all the same.
  connect(runner_, &JobRunner::succeeded, this, [this](quint64 id, const QVariant& result) {
    const bool wanted = isNewest(id);
    if (!endsNewest(id)) return;
    if (wanted) emit succeeded(result);
    else emit cancelled();
  });
  connect(runner_, &JobRunner::failed, this, [this](quint64 id, const QString& message, int line) {
    const bool wanted = isNewest(id);
    if (!endsNewest(id)) return;
    if (wanted) emit failed(message, line);
    else emit cancelled();
  });
  connect(runner_, &JobRunner::cancelled, this, [this](quint64 id) {
    if (endsNewest(id)) emit cancelled();
  });
  thread_->start();
}

BackgroundJob::~BackgroundJob() {
  current_->store(true);
  detachThread();
}

void BackgroundJob::detachThread() {
  if (!thread_) return;
  QThread* thread = thread_;
  thread_ = nullptr;
  thread->quit();
  if (!running_) {  // an idle thread ends at once
    thread->wait();
    delete thread;
    return;
  }
  // The thread deletes itself once the job on it has returned; until then it owns the work.
  connect(thread, &QThread::finished, thread, &QObject::deleteLater);
}

void BackgroundJob::start(JobWork work) {
  if (shutDown_) return;
  current_->store(true);  // the job before, if any, is replaced
  current_ = std::make_shared<std::atomic<bool>>(false);
  const quint64 id = ++issued_;
  QMetaObject::invokeMethod(
      runner_,
      [runner = runner_, id, cancelFlag = current_, work = std::move(work)] { runner->execute(id, cancelFlag, work); },
      Qt::QueuedConnection);
  setRunning(true);
}

void BackgroundJob::cancel() { current_->store(true); }

void BackgroundJob::shutDown() {
  if (shutDown_) return;
  shutDown_ = true;
  cancel();
  thread_->quit();  // once the job running now has returned
}

bool BackgroundJob::endsNewest(quint64 id) {
  if (id != issued_) return false;
  setRunning(false);
  return true;
}

void BackgroundJob::setRunning(bool running) {
  if (running_ == running) return;
  running_ = running;
  emit runningChanged(running);
}

}  // namespace aaren::ui
