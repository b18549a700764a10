#pragma once
// The one owner of background work in the window (docs/DESIGN.md section 2): reading a large file,
// loading a run, a benchmark, training. Each BackgroundJob owns a worker thread and runs one piece
// of work at a time on it, so the window stays responsive.
//
// - Newest result wins: starting new work cancels the work before it, and only the newest job
//   reports anything.
// - Cancel: cancel() raises the job's CancelToken flag; from then on the job reports nothing but
//   cancelled(), even when its result was already on its way.
// - Progress: the work reports a fraction (progress()) and partial results (reported()), both
//   dropped once the job is cancelled or replaced.
// - Shutdown never blocks: shutDown() cancels and lets the thread end in its own time, and
//   shutDownFinished() follows; the destructor does the same without waiting. The work therefore
//   owns what it uses (captures by value or shared_ptr), as it may outlive its BackgroundJob.
//
// Exceptions from the work become failed() with their message and, for an error at a known line
// of a file (aaren::FileLineError), that line.
#include <QObject>
#include <QString>
#include <QVariant>
#include <atomic>
#include <functional>
#include <memory>

#include "core/util/cancel_token.hpp"

class QThread;

namespace aaren::ui {

// What a running job sees of its owner. Used from the worker thread only.
class JobContext {
 public:
  JobContext(std::shared_ptr<const std::atomic<bool>> cancelled, std::function<void(double)> reportProgress,
             std::function<void(const QVariant&)> reportItem);

  // False once the job was cancelled or replaced by newer work: the work should stop early.
  bool wanted() const { return !cancelled_->load(); }
  // The job's cancel flag with its progress reporting, for a reader's options: give it to
  // CsvReadOptions or EventLogOptions (set_token) and the read stops on cancel().
  CancelToken token();
  // fraction in [0, 1]; reports more often than the window can show are dropped.
  void reportProgress(double fraction);
  // A partial result (a measured sample, a finished epoch), delivered in order as reported().
  void report(const QVariant& item) { reportItem_(item); }

 private:
  std::shared_ptr<const std::atomic<bool>> cancelled_;
  std::function<void(double)> reportProgress_;
  std::function<void(const QVariant&)> reportItem_;
  int lastPercent_ = -1;
};

// The result travels as a QVariant, typically holding a std::shared_ptr<const T>.
using JobWork = std::function<QVariant(JobContext& context)>;

class JobRunner;

class BackgroundJob : public QObject {
  Q_OBJECT

 public:
  explicit BackgroundJob(QObject* parent = nullptr);
  ~BackgroundJob() override;  // cancels the job; a thread still busy ends (and is deleted) later

  // Cancels the job before it, if any. Ignored after shutDown().
  void start(JobWork work);
  void cancel();  // the job is told to stop; cancelled() follows when it has returned
  bool isRunning() const { return running_; }

  // Cancels the job and ends the thread once the job has returned, without waiting for it;
  // shutDownFinished() follows (at once when nothing runs). Work that must finish what it does
  // (writing a run folder) is stopped its own way first and reports as usual before this signal.
  void shutDown();
  bool isShutDown() const { return shutDown_; }

 signals:
  void progress(double fraction);
  void reported(const QVariant& item);
  void succeeded(const QVariant& result);
  // line: the 1-based line of the file the error is at; 0 when the error names none.
  void failed(const QString& message, int line);
  void cancelled();
  void runningChanged(bool running);
  void shutDownFinished();

 private:
  void setRunning(bool running);
  bool isNewest(quint64 id) const { return id == issued_ && !current_->load(); }
  // A job's last word: true when it is the newest job's, which is then over. Replaced jobs are
  // silent; the newest job, once cancelled, only reports cancelled().
  bool endsNewest(quint64 id);
  void detachThread();

  quint64 issued_ = 0;  // the last id handed out
  std::shared_ptr<std::atomic<bool>> current_;  // the newest job's cancel flag
  QThread* thread_;
  JobRunner* runner_;
  bool running_ = false;
  bool shutDown_ = false;
};

// Lives on the job's thread and runs what it is given there; an implementation detail of
// BackgroundJob, declared here for its signals.
class JobRunner : public QObject {
  Q_OBJECT

 public:
  void execute(quint64 id, const std::shared_ptr<std::atomic<bool>>& cancelFlag, const JobWork& work);

 signals:
  void progress(quint64 id, double fraction);
  void reported(quint64 id, const QVariant& item);
  void succeeded(quint64 id, const QVariant& result);
  void failed(quint64 id, const QString& message, int line);
  void cancelled(quint64 id);
};

}  // namespace aaren::ui
