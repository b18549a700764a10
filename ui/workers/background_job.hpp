#pragma once
// One piece of long work at a time (reading a large CSV file, loading and evaluating a run) on a
// worker thread of its own, so the window stays responsive. Starting new work cancels the work
// before it: only the newest job reports a result. The work reports progress and checks for
// cancellation through its JobContext; its exceptions become failed() with their message and, for
// an error at a known line of a file (aaren::FileLineError), that line.
#include <QObject>
#include <QString>
#include <QThread>
#include <QVariant>
#include <atomic>
#include <functional>

namespace aaren::ui {

// What a running job sees of its controller. Safe to use from the worker thread only.
class JobContext {
 public:
  JobContext(const std::atomic<quint64>& newest, quint64 id, std::function<void(double)> report)
      : newest_(newest), id_(id), report_(std::move(report)) {}

  // False once the job was cancelled or replaced by newer work: the work should stop early.
  bool wanted() const { return newest_.load() == id_; }
  // fraction in [0, 1]; reports more often than the window can show are dropped.
  void reportProgress(double fraction);

 private:
  const std::atomic<quint64>& newest_;
  quint64 id_;
  std::function<void(double)> report_;
  int lastPercent_ = -1;
};

// The result travels as a QVariant, typically holding a std::shared_ptr<const T>.
using JobWork = std::function<QVariant(JobContext& context)>;

// Lives on the job's thread and runs what it is given there.
class JobRunner : public QObject {
  Q_OBJECT

 public:
  explicit JobRunner(const std::atomic<quint64>& newest) : newest_(newest) {}

  void execute(quint64 id, const JobWork& work);

 signals:
  void progress(quint64 id, double fraction);
  void succeeded(quint64 id, const QVariant& result);
  void failed(quint64 id, const QString& message, int line);
  void cancelled(quint64 id);

 private:
  const std::atomic<quint64>& newest_;
};

class BackgroundJob : public QObject {
  Q_OBJECT

 public:
  explicit BackgroundJob(QObject* parent = nullptr);
  ~BackgroundJob() override;  // cancels the running job and waits for it to return

  void start(JobWork work);
  void cancel();  // the running job is told to stop; cancelled() follows when it has
  bool isRunning() const { return running_; }

 signals:
  void progress(double fraction);
  void succeeded(const QVariant& result);
  // line: the 1-based line of the file the error is at; 0 when the error names none.
  void failed(const QString& message, int line);
  void cancelled();
  void runningChanged(bool running);

 private:
  void setRunning(bool running);
  bool isNewest(quint64 id) const { return id == issued_ && newest_.load() == id; }

  std::atomic<quint64> newest_{0};  // the one job still wanted; 0 when none
  quint64 issued_ = 0;              // the last id handed out
  QThread thread_;
  JobRunner* runner_;
  bool running_ = false;
};

}  // namespace aaren::ui
