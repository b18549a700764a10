// The step profile (core/util/step_profile.hpp) behind `aaren bench train --profile`: off, the
// layers add nothing; on, each layer's time goes to its own part, and the parts of several threads
// add up.
#include <QtTest>

#include <thread>

#include "core/nn/gelu.hpp"
#include "core/nn/layernorm.hpp"
#include "core/nn/linear.hpp"
#include "core/util/step_profile.hpp"

using namespace aaren;

namespace {

// A product of (64, 64) by (64, 64)^T, repeated: long enough to be timed.
void someProducts() {
  std::vector<float> x(64 * 64, 0.5f), w(64 * 64, 0.25f), y(64 * 64);
  for (int i = 0; i < 20; ++i) linear_forward(y.data(), x.data(), w.data(), static_cast<const float*>(nullptr), 64, 64, 64);
}

double sum(const std::array<double, profile::kParts>& parts) {
  double total = 0;
  for (const double p : parts) total += p;
  return total;
}

}  // namespace

class TestStepProfile : public QObject {
  Q_OBJECT

 private slots:
  void cleanup() {
    profile::enable(false);
    profile::reset();
  }

  void offTheLayersAddNothing() {
    profile::reset();
    someProducts();
    QCOMPARE(sum(profile::seconds()), 0.0);
  }

  void onEachLayerTimesItsOwnPart() {
    profile::reset();
    profile::enable(true);
    someProducts();
    std::vector<float> x(4096, 0.3f), y(4096), mean(64), rstd(64), weight(64, 1.0f), bias(64, 0.0f);
    gelu_forward(y.data(), x.data(), long(x.size()));
    layernorm_forward(y.data(), mean.data(), rstd.data(), x.data(), weight.data(), bias.data(), 64, 64);
    profile::enable(false);
    const auto parts = profile::seconds();
    QVERIFY(parts[std::size_t(profile::Part::products)] > 0);
    QVERIFY(parts[std::size_t(profile::Part::gelu)] > 0);
    QVERIFY(parts[std::size_t(profile::Part::layernorm)] > 0);
    QCOMPARE(parts[std::size_t(profile::Part::attention)], 0.0);
    QCOMPARE(parts[std::size_t(profile::Part::optimizer)], 0.0);
    QCOMPARE(parts[std::size_t(profile::Part::copies)], 0.0);
    // Off again: more work adds nothing.
    someProducts();
    QCOMPARE(profile::seconds(), parts);
  }

  void threadsAddUp() {
    profile::reset();
    profile::enable(true);
    profile::add(profile::Part::attention, 1000);
    std::thread other([] { profile::add(profile::Part::attention, 2000); });
    other.join();
    QCOMPARE(profile::seconds()[std::size_t(profile::Part::attention)], 3e-6);
    profile::reset();
    QCOMPARE(sum(profile::seconds()), 0.0);
  }
};

QTEST_MAIN(TestStepProfile)
#include "tst_step_profile.moc"
