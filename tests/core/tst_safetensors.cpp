// Checkpoints in the safetensors format: what is written reads back bit for bit, a file laid out
// byte by byte the way the reference implementation lays it out reads as expected, and every kind
// of damage is refused with a message that names the file and the problem.
#include <QtTest>
#include <bit>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "core/io/safetensors.hpp"
#include "support/error_message.hpp"
#include "support/numeric_comparison.hpp"

using namespace aaren;

namespace {

const std::string kSource = "model.safetensors";

std::string little_endian_u64(std::uint64_t value) {
  std::string bytes;
  for (int i = 0; i < 8; ++i) bytes.push_back(char((value >> (8 * i)) & 0xFF));
  return bytes;
}

std::string little_endian_floats(std::initializer_list<float> values) {
  std::string bytes;
  for (const float value : values) {
    const auto bits = std::bit_cast<std::uint32_t>(value);
    for (int i = 0; i < 4; ++i) bytes.push_back(char((bits >> (8 * i)) & 0xFF));
  }
  return bytes;
}

// A file whose header is exactly `header` (no padding), followed by `data`.
std::string file_with_header(const std::string& header, const std::string& data) {
  return little_endian_u64(header.size()) + header + data;
}

// Two small tensors with metadata: the file the corruption cases damage.
std::string sample_file() {
  static const std::vector<float> a{1, 2};
  static const std::vector<float> b{3, 4, 5, 6};
  return serialize_safetensors({{"a", {2}, a}, {"b", {2, 2}, b}}, {{"format", "pt"}});
}

std::uint64_t header_length(const std::string& file) {
  std::uint64_t length = 0;
  for (int i = 0; i < 8; ++i) length |= std::uint64_t(static_cast<unsigned char>(file[i])) << (8 * i);
  return length;
}

std::string with_length_bit_flipped(std::string file, int bit) {
  file[bit / 8] = char(file[bit / 8] ^ (1 << (bit % 8)));
  return file;
}

std::string with_header_length(std::string file, std::uint64_t length) {
  return file.replace(0, 8, little_endian_u64(length));
}

// Same-length edits keep the header length right, so only the edited part is wrong.
std::string with_replaced(std::string file, const std::string& from, const std::string& to) {
  const std::size_t at = file.find(from);
  if (at == std::string::npos || from.size() != to.size()) throw std::logic_error("bad edit of the sample file");
  return file.replace(at, from.size(), to);
}

std::string with_value(std::string file, std::size_t data_index, float value) {
  const std::size_t at = 8 + header_length(file) + 4 * data_index;
  return file.replace(at, 4, little_endian_floats({value}));
}

std::string_view view_of(const QByteArray& bytes) { return {bytes.constData(), std::size_t(bytes.size())}; }

}  // namespace

class TestSafetensors : public QObject {
  Q_OBJECT

 private slots:
  void roundTripKeepsNamesShapesMetadataAndBits() {
    const std::vector<float> weight{1.5f,
                                    -0.0f,
                                    std::numeric_limits<float>::denorm_min(),
                                    std::numeric_limits<float>::max(),
                                    std::numeric_limits<float>::lowest(),
                                    std::numeric_limits<float>::epsilon()};
    const std::vector<float> bias{0.1f, -7.25f};
    const std::vector<float> query{3.0f};
    const std::vector<float> none;
    const std::vector<float> unicode{42.0f};
    // Not in alphabetical order: the file keeps the order it was given.
    const std::vector<TensorView> tensors{{"embed.weight", {3, 2}, weight},
                                          {"embed.bias", {2}, bias},
                                          {"blocks.0.mixer.q0", {}, query},
                                          {"empty", {0, 4}, none},
                                          {"gewichte.gr\xC3\xB6\xC3\x9F"
                                           "e",
                                           {1},
                                           unicode}};
    const std::map<std::string, std::string> metadata{{"format", "pt"},
                                                      {"config", "{\"d_model\": 64}"},
                                                      {"note",
                                                       "\xC3\xBC"
                                                       "ber"}};

    const std::string file = serialize_safetensors(tensors, metadata);
    const std::uint64_t length = header_length(file);
    QCOMPARE(length % 8, std::uint64_t(0));
    const std::string header = file.substr(8, length);
    const std::size_t json_end = header.find_last_not_of(' ');
    QCOMPARE(header[json_end], '}');
    QVERIFY2(length - json_end - 1 < 8, "the padding should be shorter than the alignment");
    QCOMPARE(file.size(), 8 + length + 4 * (weight.size() + bias.size() + query.size() + unicode.size()));

    const SafetensorsContent content = parse_safetensors(file, kSource);
    QCOMPARE(content.metadata, metadata);
    QCOMPARE(content.tensors.size(), tensors.size());
    for (std::size_t i = 0; i < tensors.size(); ++i) {
      const Tensor& read = content.tensors[i];
      QCOMPARE(read.name, tensors[i].name);
      QCOMPARE(read.shape, tensors[i].shape);
      QVERIFY2(same_bits(read.data, std::vector<float>(tensors[i].data.begin(), tensors[i].data.end())),
               read.name.c_str());
    }
    QVERIFY(content.find("embed.bias") == &content.tensors[1]);
    QVERIFY(content.find("embed") == nullptr);
  }

  void emptyCheckpointRoundTrips() {
    const std::string file = serialize_safetensors({}, {});
    QCOMPARE(file, little_endian_u64(8) + "{}      ");
    const SafetensorsContent content = parse_safetensors(file, kSource);
    QVERIFY(content.tensors.empty());
    QVERIFY(content.metadata.empty());
  }

  void writesTheExactLittleEndianLayout() {
    const std::vector<float> values{1.0f, -2.0f};
    const std::string file = serialize_safetensors({{"x", {2}, values}}, {});
    const std::string header = R"({"x":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
    QCOMPARE(header.size(), std::size_t(54));
    const std::string expected =
        std::string("\x38\0\0\0\0\0\0\0", 8) + header + "  " + std::string("\x00\x00\x80\x3F\x00\x00\x00\xC0", 8);
    QCOMPARE(QByteArray::fromStdString(file), QByteArray::fromStdString(expected));
  }

  // What the reference implementation writes for
  // save_file({"weight": [[1, 2], [3, 4]], "bias": [0.5, -1]}, metadata={"format": "pt"}):
  // tensors sorted by name, header padded with spaces to a multiple of 8, float32 little-endian.
  void readsAFileBuiltByHand() {
    const std::string header = R"({"__metadata__":{"format":"pt"},)"
                               R"("bias":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                               R"("weight":{"dtype":"F32","shape":[2,2],"data_offsets":[8,24]}})"
                               "   ";
    const std::string file = std::string("\x98\0\0\0\0\0\0\0", 8) + header +
                             std::string(
                                 "\x00\x00\x00\x3F"
                                 "\x00\x00\x80\xBF"
                                 "\x00\x00\x80\x3F"
                                 "\x00\x00\x00\x40"
                                 "\x00\x00\x40\x40"
                                 "\x00\x00\x80\x40",
                                 24);
    QCOMPARE(header.size(), std::size_t(0x98));

    const SafetensorsContent content = parse_safetensors(file, kSource);
    QCOMPARE(content.metadata, (std::map<std::string, std::string>{{"format", "pt"}}));
    QCOMPARE(content.tensors.size(), std::size_t(2));
    QCOMPARE(content.tensors[0].name, std::string("bias"));
    QCOMPARE(content.tensors[0].shape, (std::vector<std::int64_t>{2}));
    QCOMPARE(content.tensors[0].data, (std::vector<float>{0.5f, -1.0f}));
    QCOMPARE(content.tensors[1].name, std::string("weight"));
    QCOMPARE(content.tensors[1].shape, (std::vector<std::int64_t>{2, 2}));
    QCOMPARE(content.tensors[1].data, (std::vector<float>{1.0f, 2.0f, 3.0f, 4.0f}));
  }

  // JSON allows whitespace and any key order; the tensors come back in the order of their data.
  void tensorsComeBackInFileOrder() {
    const std::string header =
        "{ \"second\": {\"data_offsets\": [4, 8], \"shape\": [1], \"dtype\": \"F32\"},\n"
        "  \"first\": {\"dtype\": \"F32\", \"shape\": [], \"data_offsets\": [0, 4]} }";
    const SafetensorsContent content =
        parse_safetensors(file_with_header(header, little_endian_floats({7.0f, 8.0f})), kSource);
    QCOMPARE(content.tensors.size(), std::size_t(2));
    QCOMPARE(content.tensors[0].name, std::string("first"));
    QCOMPARE(content.tensors[0].data, std::vector<float>{7.0f});
    QVERIFY(content.tensors[0].shape.empty());
    QCOMPARE(content.tensors[1].name, std::string("second"));
    QCOMPARE(content.tensors[1].data, std::vector<float>{8.0f});
  }

  void refusesDamagedFiles_data() {
    QTest::addColumn<QByteArray>("file");
    QTest::addColumn<QString>("problem");
    const std::string sample = sample_file();
    const std::size_t header_end = 8 + header_length(sample);
    const std::string a_bytes = little_endian_floats({1, 2});
    const auto row = [](const char* name, const std::string& file, const QString& problem) {
      QTest::newRow(name) << QByteArray::fromStdString(file) << problem;
    };
    const auto hand_built = [&](const char* name, const std::string& header, const std::string& data,
                                const QString& problem) { row(name, file_with_header(header, data), problem); };
    const std::string valid_a = R"("a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]})";

    row("empty file", "", "the file is 0 bytes long, too short for a safetensors checkpoint");
    row("truncated in the length", sample.substr(0, 5), "the file is 5 bytes long");
    row("truncated after the length", sample.substr(0, 8),
        QString("header length %1 runs past the end of the file (0 bytes follow").arg(header_end - 8));
    row("truncated in the header", sample.substr(0, header_end - 10),
        QString("header length %1 runs past the end of the file").arg(header_end - 8));
    row("truncated after the header", sample.substr(0, header_end),
        "tensor 'a': data_offsets [0, 8] reach past the end of the data section, which holds 0 bytes");
    row("truncated in the data", sample.substr(0, sample.size() - 4),
        "tensor 'b': data_offsets [8, 24] reach past the end of the data section, which holds 20 bytes");
    row("header length 8 too short", with_header_length(sample, header_end - 16), "header is not valid JSON (at byte");
    row("header length 8 too long", with_header_length(sample, header_end),
        QString("header holds a NUL byte at byte %1 of %2").arg(header_end - 7).arg(header_end));
    row("length bit 20 flipped", with_length_bit_flipped(sample, 20), "runs past the end of the file");
    row("length bit 40 flipped", with_length_bit_flipped(sample, 40), "exceeds the 100 MiB limit");
    row("length bit 63 flipped", with_length_bit_flipped(sample, 63), "exceeds the 100 MiB limit");
    row("header length zero", little_endian_u64(0),
        "header length is 0 (corrupt file, or not a safetensors checkpoint)");
    row("header edited to bad JSON", with_replaced(sample, R"("dtype":)", R"("dtype";)"),
        "header is not valid JSON (at byte");
    row("header cut short by an edit", with_replaced(sample, "}}", "} "), "header is not valid JSON");
    hand_built("header not UTF-8", "{\"\xFF\":{}}", "", "header is not valid JSON");
    hand_built("header is a list", "[1, 2]", "", "header is not a JSON object but array");
    row("wrong dtype", with_replaced(sample, "F32", "F16"),
        "tensor 'a' has dtype F16; Aaren Studio reads only F32 checkpoints");
    row("shape and size disagree", with_replaced(sample, "[2,2]", "[2,3]"),
        "tensor 'b': shape [2, 3] needs 24 bytes, but data_offsets [8, 24] span 16");
    hand_built("entry not an object", R"({"a":5})", "",
               "tensor 'a': the entry must be an object with dtype, shape and data_offsets, got number");
    hand_built("dtype missing", R"({"a":{"shape":[2],"data_offsets":[0,8]}})", a_bytes,
               "tensor 'a': the entry has no 'dtype'");
    hand_built("shape missing", R"({"a":{"dtype":"F32","data_offsets":[0,8]}})", a_bytes,
               "tensor 'a': the entry has no 'shape'");
    hand_built("offsets missing", R"({"a":{"dtype":"F32","shape":[2]}})", a_bytes,
               "tensor 'a': the entry has no 'data_offsets'");
    hand_built("dtype not a string", R"({"a":{"dtype":32,"shape":[2],"data_offsets":[0,8]}})", a_bytes,
               "tensor 'a': 'dtype' must be a string, got 32");
    hand_built("shape not a list", R"({"a":{"dtype":"F32","shape":"2","data_offsets":[0,8]}})", a_bytes,
               "tensor 'a': 'shape' must be a list of whole numbers, got \"2\"");
    hand_built("shape with a fraction", R"({"a":{"dtype":"F32","shape":[2.5],"data_offsets":[0,8]}})", a_bytes,
               "tensor 'a': 'shape' must be a list of whole numbers, got [2.5]");
    hand_built("negative dimension", R"({"a":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}})", a_bytes,
               "tensor 'a': shape [-2] has a negative dimension");
    hand_built("absurd dimensions", R"({"a":{"dtype":"F32","shape":[4611686018427387904,4],"data_offsets":[0,8]}})",
               a_bytes, "tensor 'a': shape [4611686018427387904, 4] is absurdly large (corrupt header?)");
    hand_built("absurd dimension beside a zero",
               R"({"a":{"dtype":"F32","shape":[0,18446744073709551615],"data_offsets":[0,0]}})", "",
               "tensor 'a': shape [0,18446744073709551615] is absurdly large (corrupt header?)");
    hand_built("three offsets", R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8,8]}})", a_bytes,
               "tensor 'a': 'data_offsets' must be two non-negative whole numbers [begin, end], got [0,8,8]");
    hand_built("negative offset", R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[-8,0]}})", a_bytes,
               "tensor 'a': 'data_offsets' must be two non-negative whole numbers [begin, end], got [-8,0]");
    hand_built("offsets backwards", R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[8,0]}})", a_bytes,
               "tensor 'a': data_offsets [8, 0] end before they begin");
    hand_built("offsets outside the data", "{" + valid_a + "}", a_bytes.substr(0, 4),
               "tensor 'a': data_offsets [0, 8] reach past the end of the data section, which holds 4 bytes");
    hand_built("overlapping tensors", "{" + valid_a + R"(,"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})",
               a_bytes + a_bytes, "tensors 'a' and 'b' overlap in the data section (bytes [4, 8])");
    hand_built("bytes between tensors", "{" + valid_a + R"(,"b":{"dtype":"F32","shape":[2],"data_offsets":[12,20]}})",
               a_bytes + a_bytes + a_bytes.substr(0, 4),
               "bytes [8, 12] of the data section belong to no tensor (before tensor 'b')");
    hand_built("bytes after the last tensor", "{" + valid_a + "}", a_bytes + a_bytes.substr(0, 4),
               "4 bytes after the last tensor belong to no tensor");
    hand_built("duplicate name", "{" + valid_a + "," + valid_a + "}", a_bytes,
               "tensor 'a' appears twice in the header");
    hand_built("duplicate key in an entry", R"({"a":{"dtype":"F32","shape":[2],"shape":[2],"data_offsets":[0,8]}})",
               a_bytes, "header entry 'a' has the key 'shape' twice");
    hand_built("two metadata entries", R"({"__metadata__":{},"__metadata__":{}})", "",
               "header has two '__metadata__' entries");
    hand_built("metadata value not a string", R"({"__metadata__":{"epoch":3}})", "",
               "metadata 'epoch' must be a string, got number");
    hand_built("metadata not an object", R"({"__metadata__":["pt"]})", "",
               "'__metadata__' must be an object of strings, got array");
    row("NaN value", with_value(sample, 4, std::numeric_limits<float>::quiet_NaN()),
        "tensor 'b' holds a non-finite value at index 2");
    row("infinite value", with_value(sample, 1, -std::numeric_limits<float>::infinity()),
        "tensor 'a' holds a non-finite value at index 1");
  }
  void refusesDamagedFiles() {
    QFETCH(QByteArray, file);
    QFETCH(QString, problem);
    const QString message = error_of<std::runtime_error>([&] { parse_safetensors(view_of(file), kSource); });
    QVERIFY2(message.startsWith("model.safetensors: "), qPrintable(message));
    QVERIFY2(message.contains(problem), qPrintable(message));
  }

  void refusesToWriteWhatCouldNotBeReadBack_data() {
    QTest::addColumn<QString>("problem");
    QTest::newRow("shape and values disagree") << "tensor 'w': shape [2, 2] does not match its 3 values";
    QTest::newRow("negative dimension") << "tensor 'w': shape [-1, 3] has a negative dimension";
    QTest::newRow("absurd dimensions") << "tensor 'w': shape [0, 4611686018427387904] is absurdly large";
    QTest::newRow("duplicate name") << "tensor 'w' is given twice";
    QTest::newRow("reserved name") << "tensor '__metadata__': the name is reserved for the file's metadata";
    QTest::newRow("non-finite value")
        << "tensor 'w' holds a non-finite value at index 1; a checkpoint with it could not be read back";
    QTest::newRow("metadata not UTF-8") << "tensor names and metadata must be valid UTF-8";
  }
  void refusesToWriteWhatCouldNotBeReadBack() {
    QFETCH(QString, problem);
    const std::vector<float> three{1, 2, 3};
    const std::vector<float> with_nan{1, std::numeric_limits<float>::quiet_NaN(), 3};
    const std::vector<float> none;
    const QString tag = QTest::currentDataTag();
    std::vector<TensorView> tensors{{"w", {3}, three}};
    std::map<std::string, std::string> metadata;
    if (tag == "shape and values disagree") tensors = {{"w", {2, 2}, three}};
    if (tag == "negative dimension") tensors = {{"w", {-1, 3}, three}};
    if (tag == "absurd dimensions") tensors = {{"w", {0, std::int64_t(1) << 62}, none}};
    if (tag == "duplicate name") tensors.push_back({"w", {3}, three});
    if (tag == "reserved name") tensors = {{"__metadata__", {3}, three}};
    if (tag == "non-finite value") tensors = {{"w", {3}, with_nan}};
    if (tag == "metadata not UTF-8") metadata["note"] = "\xFF";
    QCOMPARE(error_of<std::invalid_argument>([&] { (void)serialize_safetensors(tensors, metadata); }), problem);
  }

  void writesAndReadsFiles() {
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    const std::string path = folder.filePath("model.safetensors").toStdString();
    const std::vector<float> first{1, 2, 3, 4};
    const std::vector<float> second{-5, 6};
    write_safetensors(path, {{"w", {2, 2}, first}}, {{"step", "10"}});
    write_safetensors(path, {{"w", {2}, second}}, {{"step", "20"}});

    const SafetensorsContent content = read_safetensors(path);
    QCOMPARE(content.metadata.at("step"), std::string("20"));
    QCOMPARE(content.tensors.size(), std::size_t(1));
    QCOMPARE(content.tensors[0].shape, (std::vector<std::int64_t>{2}));
    QCOMPARE(content.tensors[0].data, second);
    QCOMPARE(QDir(folder.path()).entryList(QDir::Files), QStringList{"model.safetensors"});

    const std::vector<float> three{1, 2, 3};
    const QString refused = error_of<std::invalid_argument>([&] { write_safetensors(path, {{"w", {2}, three}}, {}); });
    QCOMPARE(refused, QString::fromStdString(path) + ": tensor 'w': shape [2] does not match its 3 values");
    QCOMPARE(read_safetensors(path).tensors[0].data, second);
  }

  void fileErrorsNameThePath() {
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    const std::string missing = folder.filePath("missing.safetensors").toStdString();
    const QString read_error = error_of<std::runtime_error>([&] { (void)read_safetensors(missing); });
    QVERIFY2(read_error.startsWith(QString::fromStdString(missing) + ": cannot open"), qPrintable(read_error));

    const std::string in_missing_folder = folder.filePath("no/such/folder/model.safetensors").toStdString();
    const QString write_error = error_of<std::runtime_error>([&] { write_safetensors(in_missing_folder, {}, {}); });
    QVERIFY2(write_error.startsWith(QString::fromStdString(in_missing_folder) + ": cannot write"),
             qPrintable(write_error));

    const std::string damaged = folder.filePath("damaged.safetensors").toStdString();
    QFile file(QString::fromStdString(damaged));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("\x10\0\0", 3);
    file.close();
    QCOMPARE(error_of<std::runtime_error>([&] { (void)read_safetensors(damaged); }),
             QString::fromStdString(damaged) +
                 ": the file is 3 bytes long, too short for a safetensors checkpoint (its header length alone "
                 "takes 8)");
  }

  void checkTensorsComparesNamesAndShapes_data() {
    QTest::addColumn<QString>("expected");  // name:dim,dim;name:... ("name:" for a scalar)
    QTest::addColumn<QString>("problem");   // empty when the check passes
    QTest::newRow("exact") << "a:2;b:2,2"
                           << "";
    QTest::newRow("other order") << "b:2,2;a:2"
                                 << "";
    QTest::newRow("missing") << "a:2;b:2,2;c:"
                             << "model.safetensors: tensor 'c' is missing";
    QTest::newRow("unexpected") << "a:2"
                                << "model.safetensors: unexpected tensor 'b' (written by a different architecture?)";
    QTest::newRow("wrong shape") << "a:2;b:4"
                                 << "model.safetensors: 'b' has shape [2, 2] but the configuration implies [4]";
    QTest::newRow("wrong rank") << "a:2;b:2,2,1"
                                << "model.safetensors: 'b' has shape [2, 2] but the configuration implies [2, 2, 1]";
    QTest::newRow("two problems") << "a:3;b:2,2,1"
                                  << "model.safetensors: 'a' has shape [2] but the configuration implies [3] "
                                     "(and 1 more mismatch)";
    QTest::newRow("three problems") << "a:3;c:1"
                                    << "model.safetensors: 'a' has shape [2] but the configuration implies [3] "
                                       "(and 2 more mismatches)";
  }
  void checkTensorsComparesNamesAndShapes() {
    QFETCH(QString, expected);
    QFETCH(QString, problem);
    std::vector<ExpectedTensor> wanted;
    for (const QString& item : expected.split(';')) {
      const QStringList parts = item.split(':');
      ExpectedTensor tensor{parts[0].toStdString(), {}};
      for (const QString& dim : parts[1].split(',', Qt::SkipEmptyParts)) tensor.shape.push_back(dim.toLongLong());
      wanted.push_back(tensor);
    }
    const SafetensorsContent content = parse_safetensors(sample_file(), kSource);
    QCOMPARE(error_of<std::runtime_error>([&] { check_tensors(content, wanted, kSource); }), problem);
  }

  void checkTensorsSpeaksOfTheConfiguration() {
    SafetensorsContent content;
    content.tensors.push_back({"blocks.1.ffn.fc1.weight", {256, 64}, std::vector<float>(256 * 64)});
    QCOMPARE(error_of<std::runtime_error>([&] {
               check_tensors(content, {{"blocks.1.ffn.fc1.weight", {128, 64}}}, "run/model.safetensors");
             }),
             QString("run/model.safetensors: 'blocks.1.ffn.fc1.weight' has shape [256, 64] but the configuration "
                     "implies [128, 64]"));
  }
};

QTEST_GUILESS_MAIN(TestSafetensors)
#include "tst_safetensors.moc"
