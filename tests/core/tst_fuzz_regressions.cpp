// Inputs that fuzzing (fuzz/, scripts/fuzz) turned up, each read from its file by the reader of
// its fuzz target. Every one must be refused with the message tests/data/fuzz_regressions/expected.tsv
// gives for it (a fragment of it), which names the file: none may crash, hang or be accepted.
#include <QtTest>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/classify/labelled_series.hpp"
#include "core/data/time_series_csv.hpp"
#include "core/events/event_log.hpp"
#include "core/io/matrix_csv.hpp"
#include "core/io/safetensors.hpp"
#include "core/io/text_file.hpp"
#include "core/forecast/forecast_run_folder.hpp"

using namespace aaren;

namespace {

namespace fs = std::filesystem;

const fs::path kRegressions = fs::path(AAREN_SOURCE_DIR) / "tests" / "data" / "fuzz_regressions";

// One reader per folder, named as the fuzz target that found the inputs (fuzz/fuzz_<folder>.cpp).
const std::map<std::string, std::function<void(const std::string& path)>>& readers() {
  static const std::map<std::string, std::function<void(const std::string&)>> table = {
      {"time_series_csv", [](const std::string& path) { (void)read_time_series_csv(path); }},
      {"event_log", [](const std::string& path) { (void)read_event_log(path); }},
      {"matrix_csv", [](const std::string& path) { (void)read_matrix_csv(path); }},
      {"safetensors", [](const std::string& path) { (void)read_safetensors(path); }},
      {"run_config", [](const std::string& path) { (void)parse_run_config(read_text_file(path), path); }},
      {"ts", [](const std::string& path) { (void)read_labelled_series(path); }},
  };
  return table;
}

struct Expectation {
  std::string file;      // folder/name, relative to kRegressions
  std::string fragment;  // of the message the reader must refuse the file with
};

// expected.tsv: "folder/name <TAB> message fragment" per line; '#' starts a comment line.
std::vector<Expectation> manifest() {
  std::ifstream in(kRegressions / "expected.tsv");
  if (!in) throw std::runtime_error("cannot open " + (kRegressions / "expected.tsv").string());
  std::vector<Expectation> entries;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line.front() == '#') continue;
    const std::size_t tab = line.find('\t');
    if (tab == std::string::npos) throw std::runtime_error("expected.tsv: no tab in '" + line + "'");
    entries.push_back({line.substr(0, tab), line.substr(tab + 1)});
  }
  return entries;
}

}  // namespace

class TestFuzzRegressions : public QObject {
  Q_OBJECT

 private slots:
  void manifest_lists_every_file_once() {
    std::set<std::string> listed;
    for (const Expectation& e : manifest()) {
      QVERIFY2(listed.insert(e.file).second, qPrintable(QString::fromStdString(e.file + " is listed twice")));
      QVERIFY2(fs::is_regular_file(kRegressions / e.file),
               qPrintable(QString::fromStdString(e.file + " is listed but does not exist")));
      QVERIFY2(!e.fragment.empty(), qPrintable(QString::fromStdString(e.file + " has no expected message")));
    }
    std::set<std::string> present;
    for (const auto& entry : fs::recursive_directory_iterator(kRegressions)) {
      if (!entry.is_regular_file() || entry.path().filename() == "expected.tsv") continue;
      const std::string file = entry.path().lexically_relative(kRegressions).generic_string();
      QVERIFY2(listed.count(file), qPrintable(QString::fromStdString(file + " is not in expected.tsv")));
      QVERIFY2(readers().count(fs::path(file).begin()->string()),
               qPrintable(QString::fromStdString(file + " is in a folder that names no reader")));
      present.insert(file);
    }
    QVERIFY(!present.empty());
  }

  void input_is_refused_with_its_message_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("fragment");
    for (const Expectation& e : manifest())
      QTest::newRow(e.file.c_str()) << QString::fromStdString(e.file) << QString::fromStdString(e.fragment);
  }

  void input_is_refused_with_its_message() {
    QFETCH(QString, file);
    QFETCH(QString, fragment);
    const fs::path path = kRegressions / file.toStdString();
    const auto reader = readers().find(fs::path(file.toStdString()).begin()->string());
    QVERIFY2(reader != readers().end(), qPrintable(file + " is in a folder that names no reader"));
    QString message;
    try {
      reader->second(path.string());
      QFAIL(qPrintable(file + " was accepted"));
    } catch (const std::runtime_error& error) {
      message = QString::fromStdString(error.what());
    } catch (const std::invalid_argument& error) {
      message = QString::fromStdString(error.what());
    }
    QVERIFY2(message.contains(fragment), qPrintable(message));
    QVERIFY2(message.contains(QString::fromStdString(path.filename().string())),
             qPrintable("the message does not name the file: " + message));
  }

  // A million nested lists once overflowed the stack: nlohmann copies and prints nested values
  // recursively. The deep_nesting files above are only deep enough to be refused.
  void very_deep_nesting_is_refused() {
    const std::string deep = std::string(1'000'000, '[') + std::string(1'000'000, ']');
    const std::string header = "{\"a\":{\"dtype\":\"F32\",\"shape\":" + deep + ",\"data_offsets\":[0,0]}}";
    std::string checkpoint;
    for (int i = 0; i < 8; ++i) checkpoint.push_back(char((std::uint64_t(header.size()) >> (8 * i)) & 0xFF));
    checkpoint += header;
    const std::vector<std::pair<std::string, std::function<void()>>> reads = {
        {"config.json", [&] { (void)parse_run_config("{\"format\":" + deep + "}", "config.json"); }},
        {"model.safetensors", [&] { (void)parse_safetensors(checkpoint, "model.safetensors"); }},
    };
    for (const auto& [source, read] : reads) {
      try {
        read();
        QFAIL(qPrintable(QString::fromStdString(source) + ": the nesting was accepted"));
      } catch (const std::runtime_error& error) {
        QVERIFY2(QString(error.what()).startsWith(QString::fromStdString(source + ": ")), error.what());
        QVERIFY2(QString(error.what()).contains("nested more than 256 deep"), error.what());
      }
    }
  }
};

QTEST_GUILESS_MAIN(TestFuzzRegressions)
#include "tst_fuzz_regressions.moc"
