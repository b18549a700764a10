// The command line is declared once: every option a command accepts is in its help with the default
// it really uses, `aaren --help` names every task, exclusive options are refused together, and the
// bash completion and the man page written from the same declarations complete and document what
// the commands accept.
#include <QtTest>

#include "cli/cli_process.hpp"

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

namespace {

// The words bash completion offers after `words` (the last one being completed).
QStringList completions(const QString& script, const QStringList& words) {
  QProcess bash;
  QString quoted;
  for (const QString& word : words) quoted += " '" + word + "'";
  const QString program = script + "\nCOMP_WORDS=(aaren" + quoted + "); COMP_CWORD=" + QString::number(words.size()) +
                          "; _aaren; printf '%s\\n' \"${COMPREPLY[@]}\"\n";
  bash.start("bash", {"-c", program});
  bash.waitForFinished(30000);
  return QString::fromUtf8(bash.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
}

// The options a help text lists ("  --name VALUE  ..."), in order.
QStringList optionsInHelp(const QString& help) {
  QStringList names;
  const QRegularExpression line(QStringLiteral("^  (--[a-z0-9-]+)"), QRegularExpression::MultilineOption);
  for (auto it = line.globalMatch(help); it.hasNext();) names << it.next().captured(1);
  return names;
}

// The commands a help text lists under "Commands:".
QStringList commandsInHelp(const QString& help) {
  const int start = help.indexOf(QLatin1String("\nCommands:\n"));
  if (start < 0) return {};
  QStringList names;
  for (const QString& line : help.mid(start + 11).split('\n')) {
    if (!line.startsWith(QLatin1String("  ")) || line.startsWith(QLatin1String("   "))) break;
    const QString name = line.trimmed().section(' ', 0, 0);
    if (name.startsWith('-')) break;
    names << name;
  }
  return names;
}

// The man page's command sections: "train --task classify" -> the options it documents.
QMap<QString, QStringList> manPageSections(const QString& roff) {
  QMap<QString, QStringList> sections;
  const QStringList parts = roff.split(QStringLiteral("\n.SS \""));
  const QRegularExpression option(QStringLiteral(R"(^\\fB\\-\\-([a-z0-9\\-]+)\\fR)"), QRegularExpression::MultilineOption);
  for (qsizetype i = 1; i < parts.size(); ++i) {
    QString title = parts[i].left(parts[i].indexOf('"')).replace(QLatin1String("\\-"), QLatin1String("-"));
    const QString body = parts[i].left(parts[i].indexOf(QLatin1String("\n.SH ")));
    QStringList names;
    for (auto it = option.globalMatch(body); it.hasNext();)
      names << "--" + it.next().captured(1).replace(QLatin1String("\\-"), QLatin1String("-"));
    sections[title.mid(6)] = names;  // without "aaren "
  }
  return sections;
}

}  // namespace

class TestCliDeclarations : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QVERIFY2(QFile::exists(AAREN_CLI_PATH), AAREN_CLI_PATH); }

  void theTopHelpNamesEveryTask() {
    const CliResult r = run_cli({"--help"});
    QVERIFY2(r.exited_with(0), qPrintable(r.describe()));
    for (const char* task : {"--task forecast", "events", "classify"})
      QVERIFY2(r.out.contains(QLatin1String(task)), qPrintable(r.out));
    for (const char* command : {"attention", "bench", "demo", "device", "params", "train", "forecast", "rl"})
      QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("\\n  %1 ").arg(command))), qPrintable(r.out));
  }

  // Each task's training defaults are the ones its help shows (classification trains longer).
  void helpShowsTheDefaultsUsed_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("epochs");
    QTest::newRow("forecast") << QStringList{"train", "--help"} << "default 10";
    QTest::newRow("events") << QStringList{"train", "--task", "events", "--help"} << "default 10";
    QTest::newRow("classify") << QStringList{"train", "--task", "classify", "--help"} << "default 100";
  }
  void helpShowsTheDefaultsUsed() {
    QFETCH(QStringList, args);
    QFETCH(QString, epochs);
    const CliResult r = run_cli(args);
    QVERIFY2(r.exited_with(0), qPrintable(r.describe()));
    QVERIFY2(r.out.contains(QRegularExpression("\\n  --epochs N +" + epochs + "\\n")), qPrintable(r.out));
    // The shared groups, declared once, are in every task's help.
    for (const char* shared : {"--d-model D", "--heads N", "--layers L", "--d-ff F", "--lr X", "--device cpu|cuda|auto"})
      QVERIFY2(r.out.contains(QLatin1String(shared)), qPrintable(shared));
  }

  // Every option completion offers for a command is accepted by it and listed in its help.
  void completionAndHelpAgree_data() {
    QTest::addColumn<QStringList>("command");
    QTest::newRow("attention") << QStringList{"attention"};
    QTest::newRow("bench train") << QStringList{"bench", "train"};
    QTest::newRow("bench stream") << QStringList{"bench", "stream"};
    QTest::newRow("params") << QStringList{"params"};
    QTest::newRow("rl generate") << QStringList{"rl", "generate"};
  }
  void completionAndHelpAgree() {
    QFETCH(QStringList, command);
    const CliResult script = run_cli({"completion"});
    QVERIFY2(script.exited_with(0), qPrintable(script.describe()));
    const QStringList offered = completions(script.out, command + QStringList{"--"});
    QVERIFY2(offered.size() > 2, qPrintable(offered.join(' ')));
    const CliResult help = run_cli(command + QStringList{"--help"});
    QStringList listed = optionsInHelp(help.out);
    listed << "--help";
    QStringList sortedOffered = offered, sortedListed = listed;
    sortedOffered.sort();
    sortedListed.sort();
    QCOMPARE(sortedOffered, sortedListed);
  }

  void completionKnowsEveryTasksOptions() {
    const CliResult script = run_cli({"completion"});
    const QStringList train = completions(script.out, {"train", "--"});
    for (const char* option : {"--horizon", "--mark-col", "--val-fraction", "--task", "--epochs"})
      QVERIFY2(train.contains(QLatin1String(option)), option);
    QVERIFY2(completions(script.out, {"be"}) == QStringList{"bench"}, "commands complete");
    QCOMPARE(completions(script.out, {"bench", "s"}), QStringList{"stream"});
  }

  void helpCommandPrintsTheNamedHelp_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("usage");
    QTest::newRow("aaren help") << QStringList{"help"} << "usage: aaren <command> [options]";
    QTest::newRow("a command") << QStringList{"help", "train"} << "usage: aaren train --data FILE";
    QTest::newRow("a subcommand") << QStringList{"help", "bench", "stream"} << "usage: aaren bench stream --tokens N";
    QTest::newRow("a task") << QStringList{"help", "train", "--task", "events"} << "usage: aaren train --task events";
  }
  void helpCommandPrintsTheNamedHelp() {
    QFETCH(QStringList, args);
    QFETCH(QString, usage);
    const CliResult r = run_cli(args);
    QVERIFY2(r.exited_with(0), qPrintable(r.describe()));
    QVERIFY2(r.out.startsWith(usage), qPrintable(r.out));
  }

  // `aaren --man-page` (installed as aaren.1) has a section for every command of every task, which
  // documents exactly the options that command's --help lists; every command a help lists has one.
  void theManPageDocumentsEveryCommand() {
    const CliResult page = run_cli({"--man-page"});
    QVERIFY2(page.exited_with(0), qPrintable(page.describe()));
    QVERIFY(page.out.startsWith(QLatin1String(".\\\"")));
    const QMap<QString, QStringList> sections = manPageSections(page.out);
    QVERIFY2(sections.size() >= 20, qPrintable(sections.keys().join(", ")));
    for (auto it = sections.begin(); it != sections.end(); ++it) {
      const CliResult help = run_cli(it.key().split(' ') << QStringLiteral("--help"));
      QVERIFY2(help.exited_with(0), qPrintable(it.key() + ": " + help.describe()));
      QStringList fromHelp = optionsInHelp(help.out), fromPage = it.value();
      fromHelp.sort();
      fromPage.sort();
      QVERIFY2(fromHelp == fromPage, qPrintable(QStringLiteral("%1: help lists %2, the man page %3")
                                                     .arg(it.key(), fromHelp.join(' '), fromPage.join(' '))));
    }
    // Every command reachable through the helps, for every task, has its section.
    QStringList pending{QString()};
    while (!pending.isEmpty()) {
      const QString path = pending.takeFirst();
      const CliResult help = run_cli((path.isEmpty() ? QStringList() : path.split(' ')) << QStringLiteral("--help"));
      for (const QString& command : commandsInHelp(help.out)) {
        const QString here = path.isEmpty() ? command : path + ' ' + command;
        const bool documented = sections.contains(here) || !sections.keys().filter(here + " --task ").isEmpty();
        QVERIFY2(documented, qPrintable("no man page section for 'aaren " + here + "'"));
        pending << here;
      }
    }
  }

  // The page is well-formed roff: groff reads it without a warning (where groff is installed).
  void theManPageIsValidRoff() {
    if (QStandardPaths::findExecutable(QStringLiteral("groff")).isEmpty()) QSKIP("groff is not installed");
    const CliResult page = run_cli({"--man-page"});
    QVERIFY2(page.exited_with(0), qPrintable(page.describe()));
    QProcess groff;
    groff.start(QStringLiteral("groff"), {"-man", "-Tutf8", "-ww", "-z"});
    groff.write(page.out.toUtf8());
    groff.closeWriteChannel();
    QVERIFY(groff.waitForFinished(60000));
    QCOMPARE(groff.exitCode(), 0);
    QCOMPARE(QString::fromUtf8(groff.readAllStandardError()), QString());
  }

  void windowAndLastAreExclusive() {
    const CliResult r =
        run_cli({"forecast", "--run", "r", "--data", "d.csv", "--out", "f.csv", "--window", "3", "--last"});
    QVERIFY2(r.exited_with(2), qPrintable(r.describe()));
    QVERIFY2(r.err.contains("--window excludes --last"), qPrintable(r.describe()));
  }

  // A value is checked by its declaration, before anything is read: the range is in the message.
  void valuesAreCheckedByTheirDeclaration_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("a real number out of range")
        << QStringList{"train", "--data", "d.csv", "--out", "o", "--model", "aaren", "--lr", "12"}
        << "--lr must be above 0 and below 10, got 12";
    QTest::newRow("a list item") << QStringList{"bench", "train", "--seq-lens", "96,0"}
                                 << "--seq-lens must be between 1 and 65536, got 0";
    QTest::newRow("a choice") << QStringList{"train", "--data", "d.csv", "--out", "o", "--model", "aaren", "--schedule",
                                             "linear"}
                              << "--schedule must be cosine or constant, got 'linear'";
    QTest::newRow("given twice") << QStringList{"params", "--heads", "2", "--heads", "4"} << "--heads is given more than once";
    QTest::newRow("another task's option") << QStringList{"train", "--data", "d.csv", "--out", "o", "--model",
                                                          "aaren", "--mark-col", "type"}
                                           << "unknown option --mark-col for 'aaren train' (an option of --task events)";
  }
  void valuesAreCheckedByTheirDeclaration() {
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const CliResult r = run_cli(args);
    QVERIFY2(r.exited_with(2), qPrintable(r.describe()));
    QVERIFY2(r.err.contains(message), qPrintable(r.describe()));
  }
};

QTEST_MAIN(TestCliDeclarations)
#include "tst_cli_declarations.moc"
