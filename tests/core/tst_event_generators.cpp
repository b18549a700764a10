// Simulated point processes: determinism by seed, mean rates against theory (tolerances of several
// standard errors, with fixed seeds), the closed-form log-likelihood against a numerical integral
// of the intensity, and the true model beating a fitted Poisson process on self-exciting data.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/events/event_generators.hpp"
#include "core/events/event_log.hpp"

using namespace aaren;

Q_DECLARE_METATYPE(aaren::PointProcess)

namespace {

constexpr double standard_errors = 5;

const PointProcess sine_example = SineProcess{1.0, 0.8, 10.0};

// sum_i log lambda(t_i) - integral lambda over the scored gaps, the integral by the trapezoid rule
// on each gap (the intensity jumps at events, so every gap is integrated on its own), with the
// history of each gap passed to the intensity as it is.
double numerical_log_likelihood(const PointProcess& process, const EventSequence& s) {
  const double max_step = 2e-4;
  double total = 0;
  const std::size_t first = s.first_gap_known ? 0 : 1;
  for (std::size_t i = first; i < s.times.size(); ++i) {
    const std::span<const double> history(s.times.data(), i);
    const double from = i == 0 ? s.origin : s.times[i - 1];
    const double to = s.times[i];
    const int steps = std::max(1, int(std::ceil((to - from) / max_step)));
    const double h = (to - from) / steps;
    double integral = 0;
    for (int k = 0; k <= steps; ++k) {
      const double weight = (k == 0 || k == steps) ? 0.5 : 1.0;
      integral += weight * conditional_intensity(process, history, from + k * h);
    }
    total += std::log(conditional_intensity(process, history, to)) - integral * h;
  }
  return total;
}

std::string reference_file(const std::string& name) {
  const char* shared = std::getenv("AAREN_SHARED_DATASETS");
  const std::string path = std::string(shared ? shared : "") + "/reference/tpp-synthetic/" + name;
  return shared && std::filesystem::exists(path) ? path : std::string();
}

}  // namespace

class TestEventGenerators : public QObject {
  Q_OBJECT

 private slots:
  void sameSeedSameEvents_data() {
    QTest::addColumn<PointProcess>("process");
    QTest::newRow("poisson") << PointProcess(PoissonProcess{2.0});
    QTest::newRow("hawkes") << PointProcess(hawkes1_reference);
    QTest::newRow("sine") << sine_example;
  }
  void sameSeedSameEvents() {
    QFETCH(PointProcess, process);
    const EventLog a = simulate_log(process, 3, 200, 42);
    const EventLog b = simulate_log(process, 3, 200, 42);
    const EventLog c = simulate_log(process, 3, 200, 43);
    QCOMPARE(a.sequences.size(), std::size_t(3));
    for (std::size_t s = 0; s < 3; ++s) {
      QCOMPARE(a.sequences[s].times.size(), std::size_t(200));
      QCOMPARE(a.sequences[s].times, b.sequences[s].times);
      QVERIFY(a.sequences[s].times != c.sequences[s].times);
      QVERIFY(std::is_sorted(a.sequences[s].times.begin(), a.sequences[s].times.end()));
      QVERIFY(a.sequences[s].first_gap_known);
      QCOMPARE(a.sequences[s].origin, 0.0);
      QVERIFY(a.sequences[s].times.front() > 0);
    }
    QVERIFY(a.sequences[0].times != a.sequences[1].times);
    QCOMPARE(a.sequences[2].id, std::string("2"));
    const EventSequence until = simulate_until(process, 50.0, 7);
    QCOMPARE(until.times, simulate_until(process, 50.0, 7).times);
    QVERIFY(!until.times.empty() && until.times.back() <= 50.0);
  }

  void poissonMeanGapIsOneOverTheRate() {
    const double rate = 2.5;
    const int n = 200000;
    const EventSequence s = simulate_events(PoissonProcess{rate}, n, 1);
    const double mean = s.times.back() / n;
    const double standard_error = (1 / rate) / std::sqrt(double(n));
    QVERIFY2(std::abs(mean - 1 / rate) < standard_errors * standard_error, std::to_string(mean).c_str());
  }

  // Var N(T) ~ mu T / (1 - alpha)^3 for a stationary Hawkes process over a long window.
  void hawkesMeanRateIsMuOverOneMinusAlpha() {
    const HawkesProcess p = hawkes1_reference;
    const double horizon = 200000;
    const EventSequence s = simulate_until(p, horizon, 3);
    const double rate = double(s.times.size()) / horizon;
    const double expected = p.mu / (1 - p.alpha);
    const double standard_error = std::sqrt(p.mu / std::pow(1 - p.alpha, 3) / horizon);
    QVERIFY2(std::abs(rate - expected) < standard_errors * standard_error, std::to_string(rate).c_str());
  }

  // Over whole periods the sine averages out: a Poisson count with mean a T.
  void sineMeanRateIsA() {
    const SineProcess p = std::get<SineProcess>(sine_example);
    const double horizon = 20000 * p.period;
    const EventSequence s = simulate_until(p, horizon, 5);
    const double rate = double(s.times.size()) / horizon;
    QVERIFY2(std::abs(rate - p.a) < standard_errors * std::sqrt(p.a / horizon), std::to_string(rate).c_str());
  }

  void closedFormMatchesNumericalIntegral_data() {
    QTest::addColumn<PointProcess>("process");
    QTest::addColumn<bool>("fromOrigin");
    QTest::newRow("poisson") << PointProcess(PoissonProcess{1.7}) << true;
    QTest::newRow("hawkes") << PointProcess(HawkesProcess{0.5, 0.6, 2.0}) << true;
    QTest::newRow("hawkes, given the first event") << PointProcess(HawkesProcess{0.5, 0.6, 2.0}) << false;
    QTest::newRow("sine") << sine_example << true;
    QTest::newRow("sine, given the first event") << sine_example << false;
  }
  void closedFormMatchesNumericalIntegral() {
    QFETCH(PointProcess, process);
    QFETCH(bool, fromOrigin);
    EventSequence s = simulate_events(process, 60, 11);
    if (!fromOrigin) {
      s.origin = s.times.front();
      s.first_gap_known = false;
    }
    const double closed = log_likelihood(process, s);
    const double numerical = numerical_log_likelihood(process, s);
    QVERIFY2(std::abs(closed - numerical) <= 1e-6 * std::abs(closed),
             (std::to_string(closed) + " vs " + std::to_string(numerical)).c_str());

    const std::vector<double> nll = gap_nll(process, s);
    QCOMPARE(nll.size(), fromOrigin ? std::size_t(60) : std::size_t(59));
    double sum = 0;
    for (double value : nll) sum += value;
    QCOMPARE(true_gap_nll(process, s), sum / double(nll.size()));
    QCOMPARE(-sum, closed);
  }

  void poissonGapNllIsKnownByHand() {
    EventSequence s;
    s.times = {1.0, 1.5, 3.0};
    s.origin = 1.0;
    const double rate = 2.0;
    // Gaps 0.5 and 1.5: each -log rate + rate * gap.
    QCOMPARE(true_gap_nll(PoissonProcess{rate}, s), -std::log(rate) + rate * 1.0);
    s.first_gap_known = true;
    s.origin = 0.0;
    QCOMPARE(gap_nll(PoissonProcess{rate}, s).size(), std::size_t(3));
    QCOMPARE(fit_poisson(std::span<const EventSequence>(&s, 1)).rate, 1.0);
  }

  void hawkesDataIsBetterExplainedByHawkesThanByPoisson() {
    const EventLog log = simulate_log(hawkes1_reference, 8, 500, 21);
    const double hawkes = true_gap_nll(hawkes1_reference, log.sequences);
    const PoissonProcess fitted = fit_poisson(log.sequences);
    const double poisson = true_gap_nll(fitted, log.sequences);
    QVERIFY2(hawkes < poisson - 0.1, (std::to_string(hawkes) + " vs " + std::to_string(poisson)).c_str());
  }

  void badParametersAreRejected_data() {
    QTest::addColumn<PointProcess>("process");
    QTest::newRow("rate 0") << PointProcess(PoissonProcess{0.0});
    QTest::newRow("alpha 1") << PointProcess(HawkesProcess{0.2, 1.0, 1.0});
    QTest::newRow("negative beta") << PointProcess(HawkesProcess{0.2, 0.5, -1.0});
    QTest::newRow("a below b") << PointProcess(SineProcess{0.5, 0.8, 10.0});
    QTest::newRow("no period") << PointProcess(SineProcess{1.0, 0.8, 0.0});
  }
  void badParametersAreRejected() {
    QFETCH(PointProcess, process);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, simulate_events(process, 10, 1));
    EventSequence s;
    s.times = {1, 2, 3};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, gap_nll(process, s));
  }

  void decreasingTimesAreRejected() {
    EventSequence s;
    s.id = "x";
    s.times = {1, 3, 2};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, gap_nll(hawkes1_reference, s));
  }

  // The presets are the processes behind the reference data: their mean rates (1 for both) and
  // the Hawkes preset explaining hawkes1.csv better than a fitted Poisson process.
  void presetsFitTheReferenceData() {
    const std::string hawkes_path = reference_file("hawkes1.csv");
    const std::string poisson_path = reference_file("poisson.csv");
    if (hawkes_path.empty() || poisson_path.empty())
      QSKIP("the reference data tpp-synthetic is not present (set AAREN_SHARED_DATASETS to the shared datasets folder)");
    const EventLog hawkes = read_event_log(hawkes_path);
    const EventLog poisson = read_event_log(poisson_path);
    const double hawkes_rate = fit_poisson(hawkes.sequences).rate;
    const double poisson_rate = fit_poisson(poisson.sequences).rate;
    const double expected = hawkes1_reference.mu / (1 - hawkes1_reference.alpha);
    double hawkes_time = 0, poisson_time = 0;
    for (const EventSequence& s : hawkes.sequences) hawkes_time += s.times.back() - s.origin;
    for (const EventSequence& s : poisson.sequences) poisson_time += s.times.back() - s.origin;
    const double hawkes_error =
        std::sqrt(hawkes1_reference.mu / std::pow(1 - hawkes1_reference.alpha, 3) / hawkes_time);
    QVERIFY2(std::abs(hawkes_rate - expected) < standard_errors * hawkes_error, std::to_string(hawkes_rate).c_str());
    const double poisson_error = std::sqrt(poisson_reference.rate / poisson_time);
    QVERIFY2(std::abs(poisson_rate - poisson_reference.rate) < standard_errors * poisson_error,
             std::to_string(poisson_rate).c_str());
    QVERIFY(true_gap_nll(hawkes1_reference, hawkes.sequences) < true_gap_nll(PoissonProcess{hawkes_rate}, hawkes.sequences) - 0.1);
  }
};

QTEST_GUILESS_MAIN(TestEventGenerators)
#include "tst_event_generators.moc"
