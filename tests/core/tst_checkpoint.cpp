// A run's checkpoint checked against the run it is loaded for: every bit of a real checkpoint
// flipped, every truncation, an oversized header, tensors of the wrong shape, a checkpoint of another
// architecture or format version, a folder that mixes two runs, and runs written before the
// checkpoint carried its checksum and its copy of config.json.
#include <QtTest>

#include <QTemporaryDir>
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/io/atomic_file.hpp"
#include "core/io/checksum.hpp"
#include "core/io/safetensors.hpp"
#include "core/io/text_file.hpp"
#include "core/model/parameter_init.hpp"
#include "core/model/parameter_layout.hpp"
#include "core/forecast/forecast_checkpoint.hpp"
#include "core/forecast/forecast_run_folder.hpp"
#include "support/error_message.hpp"
#include "support/numeric_comparison.hpp"
#include "support/small_runs.hpp"

using namespace aaren;

namespace {

const std::string kSource = "model.safetensors";

std::vector<float> initial_params(const ModelConfig& model, unsigned seed = 3) {
  return initial_parameters(ParameterLayout(model), seed);
}

std::uint64_t header_length(const std::string& file) {
  std::uint64_t length = 0;
  for (int i = 0; i < 8; ++i) length |= std::uint64_t(static_cast<unsigned char>(file[std::size_t(i)])) << (8 * i);
  return length;
}

// [begin, end) of a metadata value inside the file, as the JSON header spells it.
std::pair<std::size_t, std::size_t> value_range(const std::string& file, const std::string& value) {
  const std::string quoted = nlohmann::json(value).dump();
  const std::string escaped = quoted.substr(1, quoted.size() - 2);
  const std::size_t at = file.find(escaped);
  if (at == std::string::npos || at + escaped.size() > 8 + header_length(file))
    throw std::logic_error("the metadata value is not in the header");
  return {at, at + escaped.size()};
}

// A checkpoint built by hand: the given tensors, with metadata that passes every other check.
std::string hand_built(const ForecastRunConfig& config, const std::vector<TensorView>& tensors) {
  Fnv1a64 checksum;
  for (const TensorView& t : tensors) checksum.add_little_endian(t.data);
  return serialize_safetensors(tensors, {{"format", kRunFormat},
                                         {"version", std::to_string(kRunFormatVersion)},
                                         {"written_by", "Aaren Studio " AAREN_VERSION},
                                         {"model", std::string(to_string(config.model.kind))},
                                         {"config", run_config_json(config)},
                                         {"data_fnv1a64", checksum.hex()}});
}

std::vector<TensorView> views_of(const ForecastRunConfig& config, const std::vector<float>& params) {
  std::vector<TensorView> views;
  const ParameterLayout layout(config.model);
  for (const ParameterEntry& e : layout.entries())
    views.push_back({e.name, e.shape, std::span<const float>(params.data() + e.offset, e.size)});
  return views;
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

}  // namespace

class TestCheckpoint : public QObject {
  Q_OBJECT

 private slots:
  void roundTripKeepsEveryBitAndSaysWhereItCameFrom() {
    const ForecastRunConfig config = small_forecast_run();
    const std::vector<float> params = initial_params(config.model);
    const std::string bytes = serialize_checkpoint(config, params);
    QVERIFY(same_bits(parse_forecast_checkpoint(bytes, kSource, config), params));

    const SafetensorsContent content = parse_safetensors(bytes, kSource);
    QCOMPARE(content.metadata.at("format"), std::string(kRunFormat));
    QCOMPARE(content.metadata.at("version"), std::to_string(kRunFormatVersion));
    QCOMPARE(content.metadata.at("written_by"), std::string("Aaren Studio " AAREN_VERSION));
    QCOMPARE(content.metadata.at("model"), std::string("aaren"));
    QCOMPARE(content.metadata.at("config"), run_config_json(config));
    QCOMPARE(content.metadata.at("data_fnv1a64").size(), std::size_t(16));
    QCOMPARE(content.tensors.size(), ParameterLayout(config.model).entries().size());

    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, serialize_checkpoint(config, std::vector<float>(3, 0.0f)));
  }

  // Every single-bit change anywhere in the file is either refused with a message naming the file,
  // or changes nothing that is loaded: only the text of the metadata that no check depends on (the
  // writer's name, and the copy of config.json's training settings and data path) may take it.
  void everyBitFlipIsCaughtOrChangesNothingLoaded() {
    const ForecastRunConfig config = small_forecast_run();
    const std::vector<float> params = initial_params(config.model);
    const std::string original = serialize_checkpoint(config, params);
    const std::size_t data_begin = 8 + header_length(original);
    const auto [config_begin, config_end] = value_range(original, run_config_json(config));
    const auto [writer_begin, writer_end] = value_range(original, "Aaren Studio " AAREN_VERSION);

    int refused = 0, harmless = 0, checksum_refusals = 0, flips = 0;
    for (std::size_t at = 0; at < original.size(); ++at) {
      // Every bit of the length and the header; in the data, where the checksum sees a changed byte
      // whichever bit changed, one bit per byte, a different one from byte to byte.
      for (int bit = 0; bit < 8; ++bit) {
        if (at >= data_begin && bit != int(at % 8)) continue;
        ++flips;
        std::string damaged = original;
        damaged[at] = char(damaged[at] ^ (1 << bit));
        std::vector<float> loaded;
        const QString message = error_of([&] { loaded = parse_forecast_checkpoint(damaged, kSource, config); });
        const QString where = QString("byte %1 bit %2: ").arg(at).arg(bit);
        if (!message.isEmpty()) {
          QVERIFY2(message.startsWith("model.safetensors"), qPrintable(where + message));
          if (at >= data_begin)
            QVERIFY2(message.contains("checksum") || message.contains("non-finite"), qPrintable(where + message));
          checksum_refusals += message.contains("checksum");
          ++refused;
          continue;
        }
        QVERIFY2(same_bits(loaded, params), qPrintable(where + "loaded other values"));
        const bool in_free_text = (at >= config_begin && at < config_end) || (at >= writer_begin && at < writer_end);
        QVERIFY2(in_free_text, qPrintable(where + "accepted outside the metadata's free text"));
        ++harmless;
      }
    }
    QVERIFY(checksum_refusals > 0);
    QCOMPARE(refused + harmless, flips);
    QCOMPARE(flips, int(data_begin) * 8 + int(original.size() - data_begin));
    // The free text is a small part of the file; most flips inside it break its JSON too.
    QVERIFY2(harmless < int(config_end - config_begin + writer_end - writer_begin) * 8,
             qPrintable(QString("%1 harmless flips").arg(harmless)));
  }

  void everyTruncationIsRefused() {
    const ForecastRunConfig config = small_forecast_run();
    const std::string original = serialize_checkpoint(config, initial_params(config.model));
    for (std::size_t length = 0; length < original.size(); ++length) {
      const QString message = error_of([&] { parse_forecast_checkpoint(original.substr(0, length), kSource, config); });
      QVERIFY2(message.startsWith("model.safetensors: "), qPrintable(QString("length %1: '%2'").arg(length).arg(message)));
    }
    const QString cut_in_data = error_of([&] { parse_forecast_checkpoint(original.substr(0, original.size() - 1), kSource, config); });
    QVERIFY2(cut_in_data.contains("reach past the end of the data section") && cut_in_data.contains("truncated file?"),
             qPrintable(cut_in_data));
  }

  void oversizedHeaderIsRefusedBeforeAnythingIsRead() {
    const ForecastRunConfig config = small_forecast_run();
    std::string file = serialize_checkpoint(config, initial_params(config.model));
    const std::uint64_t huge = std::uint64_t(1) << 40;
    for (int i = 0; i < 8; ++i) file[std::size_t(i)] = char((huge >> (8 * i)) & 0xFF);
    QCOMPARE(error_of([&] { parse_forecast_checkpoint(file, kSource, config); }),
             QString("model.safetensors: header length 1099511627776 exceeds the 100 MiB limit (corrupt file, or not a "
                     "safetensors checkpoint)"));
  }

  void wrongShapesAndNamesAreRefused_data() {
    QTest::addColumn<QString>("edit");
    QTest::addColumn<QString>("problem");
    QTest::newRow("wrong shape") << "reshape head.weight"
                                 << "'head.weight' has shape [4, 16] but the configuration implies [8, 8]";
    QTest::newRow("missing tensor") << "drop ln_f.bias" << "tensor 'ln_f.bias' is missing";
    QTest::newRow("unexpected tensor") << "add extra.weight"
                                       << "unexpected tensor 'extra.weight' (written by a different architecture?)";
  }
  void wrongShapesAndNamesAreRefused() {
    QFETCH(QString, edit);
    QFETCH(QString, problem);
    const ForecastRunConfig config = small_forecast_run();
    const std::vector<float> params = initial_params(config.model);
    std::vector<TensorView> tensors = views_of(config, params);
    const std::vector<float> extra{1, 2};
    if (edit.startsWith("reshape")) {
      for (TensorView& t : tensors)
        if (t.name == "head.weight") t.shape = {4, 16};
    } else if (edit.startsWith("drop")) {
      std::erase_if(tensors, [](const TensorView& t) { return t.name == "ln_f.bias"; });
    } else {
      tensors.push_back({"extra.weight", {2}, extra});
    }
    const QString message = error_of([&] { parse_forecast_checkpoint(hand_built(config, tensors), kSource, config); });
    QVERIFY2(message.startsWith("model.safetensors: " + problem), qPrintable(message));
  }

  void anotherArchitectureSaysSo() {
    const ForecastRunConfig transformer = small_forecast_run(ModelKind::transformer, 16);
    const std::string file = serialize_checkpoint(transformer, initial_params(transformer.model));
    const QString message = error_of([&] { parse_forecast_checkpoint(file, kSource, small_forecast_run()); });
    QCOMPARE(message, QString("model.safetensors: written for a Transformer with d_model 16, 2 heads, 1 layer, d_ff 16, "
                              "look-back 12, horizon 4 and 2 channels, but this run's config.json describes an Aaren "
                              "model with d_model 8, 2 heads, 1 layer, d_ff 16, look-back 12, horizon 4 and 2 channels: "
                              "a model of another shape (kind, d_model differ)"));
  }

  void anotherVersionSaysSo() {
    const ForecastRunConfig config = small_forecast_run();
    const std::vector<float> params = initial_params(config.model);
    SafetensorsContent content = parse_safetensors(serialize_checkpoint(config, params), kSource);
    std::map<std::string, std::string> metadata = content.metadata;
    metadata["version"] = "3";
    metadata["written_by"] = "Aaren Studio 9.0.0";
    const std::vector<TensorView> tensors = views_of(config, params);
    const QString newer = error_of([&] { parse_forecast_checkpoint(serialize_safetensors(tensors, metadata), kSource, config); });
    QCOMPARE(newer, QString("model.safetensors: written by Aaren Studio 9.0.0 (run format version 3), a newer Aaren "
                            "Studio: this one reads run format versions 1 to 2"));

    metadata["version"] = "1";
    metadata["written_by"] = "Aaren Studio 0.1.0";
    const QString older = error_of([&] { parse_forecast_checkpoint(serialize_safetensors(tensors, metadata), kSource, config); });
    QCOMPARE(older, QString("model.safetensors: written by Aaren Studio 0.1.0 (run format version 1), but config.json "
                            "beside it is version 2: the folder holds the files of two different runs"));

    const QString foreign =
        error_of([&] { parse_forecast_checkpoint(serialize_safetensors(tensors, {{"format", "pt"}}), kSource, config); });
    QCOMPARE(foreign, QString("model.safetensors: not a checkpoint of an Aaren Studio run (its metadata says format "
                              "'pt', not 'aaren-studio-run')"));
    const QString bare = error_of([&] { parse_forecast_checkpoint(serialize_safetensors(tensors, {}), kSource, config); });
    QVERIFY2(bare.contains("the header has no metadata: not a checkpoint of an Aaren Studio run"), qPrintable(bare));
  }

  // A second run into a folder that stopped after writing its config.json but before its first
  // checkpoint leaves the first run's checkpoint beside another run's configuration.
  void folderMixingTwoRunsSaysSo() {
    QTemporaryDir dir;
    const std::string run = dir.filePath("run").toStdString();
    prepare_run_folder(run);
    const ForecastRunConfig first = small_forecast_run();
    write_run_config(run, first);
    write_forecast_checkpoint(run, first, initial_params(first.model));
    QVERIFY(same_bits(load_forecast_run(run).params, initial_params(first.model)));

    ForecastRunConfig second = first;
    second.scaler.mean = {1.75, -2.25};
    second.data_file = "moved/series.csv";  // where the data is does not matter, how it is scaled does
    write_run_config(run, second);
    const QString message = error_of([&] { load_forecast_run(run); });
    QVERIFY2(message.contains("model.safetensors: trained on data prepared otherwise than config.json describes "
                              "(scaler differs): config.json belongs to a later run into this folder"),
             qPrintable(message));

    ForecastRunConfig moved = first;
    moved.data_file = "moved/series.csv";
    moved.train.epochs = 20;
    write_run_config(run, moved);
    QVERIFY(same_bits(load_forecast_run(run).params, initial_params(first.model)));
  }

  // Runs written before version 2: no checksum and no copy of config.json in the checkpoint.
  void runsOfTheFirstFormatStillLoad() {
    QTemporaryDir dir;
    const std::string run = dir.filePath("old").toStdString();
    prepare_run_folder(run);
    const ForecastRunConfig config = small_forecast_run();
    const std::vector<float> params = initial_params(config.model);
    std::string text = run_config_json(config);
    const std::string current = "\"version\": " + std::to_string(kRunFormatVersion);
    QVERIFY(text.find(current) != std::string::npos);
    text.replace(text.find(current), current.size(), "\"version\": 1");
    write_file_atomically(run + "/config.json", text);
    write_safetensors(run + "/model.safetensors", views_of(config, params),
                      {{"format", kRunFormat}, {"version", "1"}, {"model", "aaren"}});
    const LoadedForecastRun loaded = load_forecast_run(run);
    QCOMPARE(loaded.config.version, 1);
    QVERIFY(same_bits(loaded.params, params));

    write_safetensors(run + "/model.safetensors", views_of(config, params),
                      {{"format", kRunFormat}, {"version", "1"}, {"model", "transformer"}});
    QCOMPARE(error_of([&] { load_forecast_run(run); }),
             QString::fromStdString(run) +
                 "/model.safetensors: written for a model of kind 'transformer', but this run's config.json describes "
                 "an Aaren model with d_model 8, 2 heads, 1 layer, d_ff 16, look-back 12, horizon 4 and 2 channels");
  }

  // config.json's "features": written for every run, read back; absent (runs from before it) is M;
  // MS names the model's target channel; a value it does not know, or one that its channels and
  // target contradict, is refused naming the field.
  void featuresRoundTrip_data() {
    QTest::addColumn<int>("features");
    QTest::addColumn<int>("targetChannel");
    QTest::newRow("M") << int(ForecastFeatures::M) << -1;
    QTest::newRow("MS") << int(ForecastFeatures::MS) << 1;
  }
  void featuresRoundTrip() {
    QFETCH(int, features);
    QFETCH(int, targetChannel);
    ForecastRunConfig config = small_forecast_run();
    config.target = "temperature";
    config.features = ForecastFeatures(features);
    config.model.target_channel = targetChannel;
    const std::string text = run_config_json(config);
    QCOMPARE(nlohmann::json::parse(text)["data"]["features"].get<std::string>(), std::string(to_string(config.features)));
    const ForecastRunConfig read = parse_run_config(text, "config.json");
    QCOMPARE(read.features, config.features);
    QCOMPARE(read.model.target_channel, targetChannel);
    QCOMPARE(read.forecast_channels(), targetChannel < 0 ? config.channels : std::vector<std::string>{"temperature"});
    const std::vector<float> params = initial_params(config.model);
    QVERIFY(same_bits(parse_forecast_checkpoint(serialize_checkpoint(config, params), kSource, read), params));
  }

  void runsWithoutFeaturesAreM() {
    const ForecastRunConfig config = small_forecast_run();
    nlohmann::json root = nlohmann::json::parse(run_config_json(config));
    root["data"].erase("features");
    const ForecastRunConfig read = parse_run_config(root.dump(2), "config.json");
    QCOMPARE(read.features, ForecastFeatures::M);
    QCOMPARE(read.model.target_channel, -1);
    QCOMPARE(read.forecast_channels(), config.channels);
  }

  void featuresThatDoNotFitAreRefused_data() {
    QTest::addColumn<QString>("features");
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("expected");
    QTest::newRow("unknown") << "SM" << "load"
                             << "config.json (data): field 'features' must be M, S or MS, got 'SM' (written by a "
                                "newer Aaren Studio?)";
    QTest::newRow("lower case") << "ms" << "load"
                                << "config.json (data): field 'features' must be M, S or MS, got 'ms' (written by a "
                                   "newer Aaren Studio?)";
    QTest::newRow("MS without a target") << "MS" << ""
                                         << "config.json (data): features MS forecast the target, but the target '' "
                                            "is not one of the channels";
    QTest::newRow("S of two channels") << "S" << "load"
                                       << "config.json (data): features S read the target alone, but 2 channels are "
                                          "listed";
  }
  void featuresThatDoNotFitAreRefused() {
    QFETCH(QString, features);
    QFETCH(QString, target);
    QFETCH(QString, expected);
    nlohmann::json root = nlohmann::json::parse(run_config_json(small_forecast_run()));
    root["data"]["features"] = features.toStdString();
    root["data"]["target"] = target.toStdString();
    QCOMPARE(error_of([&] { parse_run_config(root.dump(2), "config.json"); }), expected);
  }

  // A checkpoint whose copy of config.json forecasts the target alone, beside a config.json of M.
  void checkpointOfOtherFeaturesSaysSo() {
    ForecastRunConfig ms = small_forecast_run();
    ms.features = ForecastFeatures::MS;
    ms.model.target_channel = 0;
    ForecastRunConfig m = small_forecast_run();
    const QString message = error_of([&] { parse_forecast_checkpoint(serialize_checkpoint(ms, initial_params(ms.model)), kSource, m); });
    QVERIFY2(message.contains("forecasting channel 0 alone") && message.contains("forecast channel differs"),
             qPrintable(message));
  }

  void staleTemporaryFilesAreClearedWhenARunStarts() {
    QTemporaryDir dir;
    const std::string run = dir.filePath("run").toStdString();
    prepare_run_folder(run);
    const ForecastRunConfig config = small_forecast_run();
    write_run_config(run, config);
    write_forecast_checkpoint(run, config, initial_params(config.model));
    for (const char* name : {"model.safetensors.tmp-Ab12Cd", "metrics.json.tmp-zzzzzz", "notes.txt.tmp-Ab12Cd",
                             "model.safetensors.tmp-1", "model.safetensors.backup"})
      write_bytes(run + "/" + name, "partial");
    QVERIFY(same_bits(load_forecast_run(run).params, initial_params(config.model)));  // temporary files are never read

    prepare_run_folder(run);
    QStringList left = QDir(QString::fromStdString(run)).entryList(QDir::Files, QDir::Name);
    QCOMPARE(left, (QStringList{"config.json", "model.safetensors", "model.safetensors.backup",
                                "model.safetensors.tmp-1", "notes.txt.tmp-Ab12Cd"}));
    QVERIFY(is_temporary_file_name("loss.csv.tmp-a1B2c3"));
    QVERIFY(!is_temporary_file_name("loss.csv.tmp-a1B2c"));
    QVERIFY(!is_temporary_file_name("loss.csv.tmp-a1B2c_"));
    QVERIFY(!is_temporary_file_name("loss.csv"));
  }
};

QTEST_GUILESS_MAIN(TestCheckpoint)
#include "tst_checkpoint.moc"
