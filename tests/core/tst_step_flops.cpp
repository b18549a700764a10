// The operations `aaren bench train` counts for a training step (core/bench/step_flops.hpp), and
// the shapes its SGEMM rate is measured at (core/bench/sgemm_rate.hpp). The products are checked
// against the parameter layout, an independent source: every weight matrix a token passes
// through costs 2 operations per entry per token forward, the head 2 per entry per window, and a
// step is three forwards. The attention terms are checked against sums written out by hand.
#include <QtTest>

#include "core/bench/sgemm_rate.hpp"
#include "core/bench/step_flops.hpp"
#include "core/model/parameter_layout.hpp"

using namespace aaren;
using namespace aaren::bench;

namespace {

ModelConfig small(ModelKind kind, int seq_len) {
  ModelConfig c;
  c.kind = kind;
  c.d_model = 8;
  c.heads = 2;
  c.layers = 3;
  c.d_ff = 20;
  c.seq_len = seq_len;
  c.horizon = 5;
  c.channels = 3;
  c.validate();
  return c;
}

// 3 B (2 T sum of the matrices every token passes through + 2 the head's entries), read off the
// parameter names: Aaren's learned query (q0 through wq) is once a step and not counted.
double productsFromLayout(const ModelConfig& config, int batch) {
  double perToken = 0, perWindow = 0;
  const ParameterLayout layout(config);
  for (const ParameterEntry& entry : layout.entries()) {
    if (entry.shape.size() != 2) continue;
    if (entry.name == "head.weight") perWindow += double(entry.size);
    else if (config.kind == ModelKind::aaren && entry.name.find("mixer.wq.") != std::string::npos) continue;
    else perToken += double(entry.size);
  }
  return 3.0 * batch * (2.0 * config.seq_len * perToken + 2.0 * perWindow);
}

}  // namespace

class TestStepFlops : public QObject {
  Q_OBJECT

 private slots:
  void productsAreTheLayoutsMatricesThreeTimes_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("seqLen");
    for (const ModelKind kind : kModelKinds)
      for (const int t : {1, 7, 96})
        QTest::newRow(qPrintable(QStringLiteral("%1 T=%2").arg(QString::fromStdString(std::string(to_string(kind)))).arg(t)))
            << int(kind) << t;
  }
  void productsAreTheLayoutsMatricesThreeTimes() {
    QFETCH(int, kind);
    QFETCH(int, seqLen);
    const ModelConfig config = small(ModelKind(kind), seqLen);
    const double expected = productsFromLayout(config, 4);
    QVERIFY(expected > 0);
    QCOMPARE(training_step_flops(config, 4).products, expected);
  }

  // Written out token by token: the Transformer's row t has t + 1 scores and t + 1 weighted values
  // of d_head multiply-adds per head; Aaren's scan a score and a weighted value per token; the
  // linear Transformer's chunk of 16 tokens (d_head 4 is below the smallest chunk) the products
  // among its own tokens and with the running state.
  void attentionIsTheSumsWrittenOut() {
    const int T = 40, batch = 2;
    const ModelConfig transformer = small(ModelKind::transformer, T), aaren = small(ModelKind::aaren, T),
                      linear = small(ModelKind::linear, T);
    const double dh = 4, heads = 2, layers = 3;
    double softmax = 0, scan = 0, chunked = 0;
    for (int t = 0; t < T; ++t) {
      softmax += heads * 2 * (t + 1) * 2 * dh;
      scan += heads * 2 * 2 * dh;
      const int inChunk = t % 16 + 1;  // the tokens of its chunk it meets, itself included
      chunked += heads * (2 * inChunk * 2 * dh + 2 * 2 * dh * dh);
    }
    QCOMPARE(training_step_flops(transformer, batch).attention, 3.0 * batch * layers * softmax);
    QCOMPARE(training_step_flops(aaren, batch).attention, 3.0 * batch * layers * scan);
    // The count uses the average chunk; it equals the sum where T is a whole number of chunks.
    const ModelConfig whole = small(ModelKind::linear, 48);
    double wholeChunked = 0;
    for (int t = 0; t < 48; ++t) wholeChunked += heads * (2 * (t % 16 + 1) * 2 * dh + 2 * 2 * dh * dh);
    QCOMPARE(training_step_flops(whole, batch).attention, 3.0 * batch * layers * wholeChunked);
    QVERIFY(std::abs(training_step_flops(linear, batch).attention / (3.0 * batch * layers * chunked) - 1) < 0.1);
  }

  void theTransformersAttentionGrowsQuadratically() {
    const double at512 = training_step_flops(small(ModelKind::transformer, 512), 1).attention;
    const double at2048 = training_step_flops(small(ModelKind::transformer, 2048), 1).attention;
    QCOMPARE(at2048 / at512, (2048.0 * 2049.0) / (512.0 * 513.0));
    const double aaren512 = training_step_flops(small(ModelKind::aaren, 512), 1).attention;
    QCOMPARE(training_step_flops(small(ModelKind::aaren, 2048), 1).attention / aaren512, 4.0);
  }

  void theSgemmShapesAreTheSteps() {
    const ModelConfig config = small(ModelKind::transformer, 10);
    const std::vector<GemmShape> shapes = training_gemm_shapes(config, 3);
    QCOMPARE(int(shapes.size()), 3);
    for (const GemmShape& shape : shapes) QCOMPARE(shape.rows, 30L);
    QCOMPARE(shapes[0].depth, 8);
    QCOMPARE(shapes[0].cols, 8);
    QCOMPARE(shapes[1].cols, 20);
    QCOMPARE(shapes[2].depth, 20);
    QCOMPARE(shapes[0].weight, 4.0 * 64);  // q, k, v and the output
    QCOMPARE(training_gemm_shapes(small(ModelKind::aaren, 10), 3)[0].weight, 3.0 * 64);
    // A rate is measured, whatever it is on this machine (never asserted beyond being one).
    const double rate = sgemm_gflops(shapes, 1, 1);
    QVERIFY2(std::isfinite(rate) && rate > 0, qPrintable(QString::number(rate)));
  }
};

QTEST_MAIN(TestStepFlops)
#include "tst_step_flops.moc"
