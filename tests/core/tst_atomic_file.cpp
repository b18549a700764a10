// Files written whole or not at all: a write replaces the file in one step and leaves nothing
// beside it; a write that fails (a folder that does not exist, a file size limit reached as on a
// full disk) says why and what to do, and leaves the previous version byte for byte.
#include <QtTest>

#include <sys/resource.h>

#include <QTemporaryDir>
#include <csignal>
#include <stdexcept>
#include <string>

#include "core/io/atomic_file.hpp"
#include "core/io/text_file.hpp"
#include "support/error_message.hpp"

using namespace aaren;

namespace {

QStringList files_in(const QTemporaryDir& dir) { return QDir(dir.path()).entryList(QDir::Files, QDir::Name); }

// Lowers this process's file size limit for its lifetime; with SIGXFSZ ignored, a write past the
// limit fails with EFBIG, as the kernel reports it for a disk that cannot take the file.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    ::getrlimit(RLIMIT_FSIZE, &saved_);
    previous_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    rlimit lowered = saved_;
    lowered.rlim_cur = bytes;
    applied_ = ::setrlimit(RLIMIT_FSIZE, &lowered) == 0;
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &saved_);
    std::signal(SIGXFSZ, previous_handler_);
  }
  bool applied() const { return applied_; }

 private:
  rlimit saved_{};
  void (*previous_handler_)(int) = nullptr;
  bool applied_ = false;
};

}  // namespace

class TestAtomicFile : public QObject {
  Q_OBJECT

 private slots:
  void replacesTheWholeFileAndLeavesNothingBeside() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("metrics.json").toStdString();
    write_file_atomically(path, "first version, longer than the second");
    write_file_atomically(path, "second");
    QCOMPARE(read_text_file(path), std::string("second"));
    QCOMPARE(files_in(dir), QStringList{"metrics.json"});
    QCOMPARE(QFileInfo(QString::fromStdString(path)).permissions() & QFileDevice::ReadOther, QFileDevice::ReadOther);
  }

  void missingFolderIsNamed() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("no/such/folder/loss.csv").toStdString();
    QCOMPARE(error_of([&] { write_file_atomically(path, "x"); }),
             QString::fromStdString(path) + ": cannot write (No such file or directory: the folder does not exist)");
  }

  void fullDiskKeepsThePreviousVersion() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("model.safetensors").toStdString();
    const std::string previous(3000, 'p');
    write_file_atomically(path, previous);
    QString message;
    {
      const FileSizeLimit limit(4096);
      QVERIFY(limit.applied());
      message = error_of([&] { write_file_atomically(path, std::string(10000, 'n')); });
    }
    QCOMPARE(message, QString::fromStdString(path) +
                          ": cannot write (File too large: a file size limit was reached or the disk is full); the "
                          "previous version is kept");
    QCOMPARE(read_text_file(path), previous);
    QCOMPARE(files_in(dir), QStringList{"model.safetensors"});

    // Without a previous version there is nothing to keep, and nothing is left behind either.
    const std::string fresh = dir.filePath("loss.csv").toStdString();
    {
      const FileSizeLimit limit(16);
      message = error_of([&] { write_file_atomically(fresh, std::string(100, 'n')); });
    }
    QCOMPARE(message, QString::fromStdString(fresh) +
                          ": cannot write (File too large: a file size limit was reached or the disk is full)");
    QCOMPARE(files_in(dir), QStringList{"model.safetensors"});
  }

  void staleTemporaryFilesOfOnePathAreRemoved() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("loss.csv").toStdString();
    write_file_atomically(path, "epoch\n");
    for (const char* name : {"loss.csv.tmp-a1B2c3", "loss.csv.tmp-Zz9Zz9", "other.csv.tmp-a1B2c3"}) {
      QFile file(dir.filePath(name));
      QVERIFY(file.open(QIODevice::WriteOnly));
    }
    QCOMPARE(remove_stale_temporary_files(path), 2);
    QCOMPARE(files_in(dir), (QStringList{"loss.csv", "other.csv.tmp-a1B2c3"}));
    QCOMPARE(remove_stale_temporary_files(dir.filePath("missing/loss.csv").toStdString()), 0);
  }
};

QTEST_GUILESS_MAIN(TestAtomicFile)
#include "tst_atomic_file.moc"
