// The classifier's training-time augmentation (core/classify/augmentation.hpp): the names read and
// written, and each transform against what it promises, computed by hand: a slice is a linear
// stretch of a window of 90% of the steps, scaling one factor per channel, jitter small noise of
// the stated deviation; a missing value stays missing; the draw alone decides the result.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/classify/augmentation.hpp"
#include "support/error_message.hpp"

using namespace aaren;

namespace {

// length steps of `channels` channels: channel c of step t is (c + 1) * (t + 1).
LabelledSeries ramp(int length, int channels) {
  LabelledSeries s;
  s.case_id = "ramp";
  s.length = length;
  for (int t = 0; t < length; ++t)
    for (int c = 0; c < channels; ++c) s.values.push_back(double((c + 1) * (t + 1)));
  return s;
}

std::vector<float> augmented(const LabelledSeries& s, int channels, const ClassifyAugmentation& a, std::uint64_t draw) {
  std::vector<float> x(s.values.size(), -1.0f);
  augment_case(s, channels, a, draw, x.data());
  return x;
}

}  // namespace

class TestClassifyAugmentation : public QObject {
  Q_OBJECT

 private slots:
  void names_are_read_and_written() {
    QCOMPARE(to_string(ClassifyAugmentation{}), std::string("none"));
    QCOMPARE(to_string(classify_augmentation_from_string("jitter,slice")), std::string("slice,jitter"));
    QCOMPARE(to_string(classify_augmentation_from_string("scale")), std::string("scale"));
    const ClassifyAugmentation all = classify_augmentation_from_string("slice,scale,jitter");
    QVERIFY(all.slice && all.scale && all.jitter && all.any());
    QVERIFY(!classify_augmentation_from_string("none").any());
    const auto refusal = [](const char* text) {
      return error_of<std::invalid_argument>([&] { classify_augmentation_from_string(text); });
    };
    QCOMPARE(refusal("warp"), QString("augmentation 'warp' is not one of slice, scale and jitter (or none alone)"));
    QCOMPARE(refusal("slice,slice"), QString("augmentation 'slice' is named twice"));
    QCOMPARE(refusal("slice,none"), QString("augmentation 'none' is not one of slice, scale and jitter (or none alone)"));
    QCOMPARE(refusal(""), QString("augmentation '' is not one of slice, scale and jitter (or none alone)"));
  }

  void none_copies_the_case() {
    const LabelledSeries s = ramp(7, 2);
    const std::vector<float> x = augmented(s, 2, {}, 5);
    for (std::size_t v = 0; v < x.size(); ++v) QCOMPARE(double(x[v]), s.values[v]);
  }

  // On a ramp the slice is a ramp again: it starts at a whole step in [0, length - window] and
  // climbs (window - 1) / (length - 1) steps a step, so that its last step is window - 1 further.
  void a_slice_stretches_a_window_of_nine_tenths() {
    const int length = 50, window = 45;
    std::vector<int> starts;
    for (std::uint64_t draw = 0; draw < 40; ++draw) {
      const std::vector<float> x = augmented(ramp(length, 2), 2, {.slice = true}, draw);
      const double start = x[0] - 1.0;
      QCOMPARE(start, std::round(start));
      QVERIFY(start >= 0 && start <= length - window);
      starts.push_back(int(start));
      for (int t = 0; t < length; ++t) {
        const double at = start + double(t) * (window - 1) / (length - 1);
        QVERIFY(std::abs(x[std::size_t(2 * t)] - (at + 1)) < 1e-4);
        QVERIFY(std::abs(x[std::size_t(2 * t + 1)] - 2 * (at + 1)) < 1e-4);
      }
    }
    // Every start from 0 to 5 is drawn.
    for (int start = 0; start <= length - window; ++start) QVERIFY(std::count(starts.begin(), starts.end(), start) > 0);
    // A case of one step is itself.
    QCOMPARE(augmented(ramp(1, 1), 1, {.slice = true}, 3), std::vector<float>{1.0f});
  }

  // One factor per channel, the same at every step, about N(1, 0.1^2).
  void scaling_multiplies_each_channel_by_one_factor() {
    double sum = 0, squares = 0;
    const int draws = 400;
    for (std::uint64_t draw = 0; draw < draws; ++draw) {
      const LabelledSeries s = ramp(6, 3);
      const std::vector<float> x = augmented(s, 3, {.scale = true}, draw);
      for (int c = 0; c < 3; ++c) {
        const double factor = x[std::size_t(c)] / s.values[std::size_t(c)];
        for (int t = 1; t < 6; ++t)
          QVERIFY(std::abs(x[std::size_t(3 * t + c)] / s.values[std::size_t(3 * t + c)] - factor) < 1e-6);
        sum += factor;
        squares += factor * factor;
      }
      QVERIFY(x[0] / s.values[0] != x[1] / s.values[1]);
    }
    const double n = 3.0 * draws, mean = sum / n, sd = std::sqrt(squares / n - mean * mean);
    QVERIFY2(std::abs(mean - 1) < 0.02 && std::abs(sd - kScaleSigma) < 0.01,
             qPrintable(QString("factors' mean %1, deviation %2").arg(mean).arg(sd)));
  }

  void jitter_adds_small_noise_of_the_stated_deviation() {
    const LabelledSeries s = ramp(2000, 1);
    const std::vector<float> x = augmented(s, 1, {.jitter = true}, 17);
    double sum = 0, squares = 0;
    for (std::size_t v = 0; v < x.size(); ++v) {
      const double noise = double(x[v]) - s.values[v];
      sum += noise;
      squares += noise * noise;
    }
    const double mean = sum / 2000, sd = std::sqrt(squares / 2000 - mean * mean);
    QVERIFY2(std::abs(mean) < 0.003 && std::abs(sd - kJitterSigma) < 0.003,
             qPrintable(QString("noise mean %1, deviation %2").arg(mean).arg(sd)));
  }

  void the_draw_alone_decides() {
    const ClassifyAugmentation all{.slice = true, .scale = true, .jitter = true};
    const LabelledSeries s = ramp(30, 2);
    QCOMPARE(augmented(s, 2, all, 8), augmented(s, 2, all, 8));
    QVERIFY(augmented(s, 2, all, 8) != augmented(s, 2, all, 9));
    // Draws of neighbouring cases and epochs differ.
    QVERIFY(augmentation_draw(1, 2, 3) != augmentation_draw(1, 3, 2));
    QVERIFY(augmentation_draw(1, 2, 3) != augmentation_draw(1, 2, 4));
    QVERIFY(augmentation_draw(1, 2, 3) != augmentation_draw(2, 2, 3));
  }

  void a_missing_value_stays_missing() {
    LabelledSeries s = ramp(20, 1);
    s.values[10] = std::nan("");
    const std::vector<float> x = augmented(s, 1, {.scale = true, .jitter = true}, 4);
    for (std::size_t v = 0; v < x.size(); ++v) QCOMPARE(std::isnan(x[v]), v == 10);
    // A slice reads it where a step's position lies within one step of it (the ramp drawn alike
    // gives the positions).
    const std::vector<float> sliced = augmented(s, 1, {.slice = true}, 4);
    const std::vector<float> positions = augmented(ramp(20, 1), 1, {.slice = true}, 4);
    long missing = 0;
    for (std::size_t t = 0; t < sliced.size(); ++t) {
      const double at = positions[t] - 1.0;
      QCOMPARE(std::isnan(sliced[t]), std::abs(at - 10) < 1 - 1e-6);
      missing += std::isnan(sliced[t]) ? 1 : 0;
    }
    QVERIFY(missing >= 1);
  }
};

QTEST_APPLESS_MAIN(TestClassifyAugmentation)
#include "tst_classify_augmentation.moc"
