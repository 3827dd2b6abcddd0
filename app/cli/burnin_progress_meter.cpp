#include "burnin_progress_meter.h"

#include <algorithm>
#include <cmath>

namespace strata {

namespace {

QString key(const QString &node, int gpu, const QString &test)
{
    return node + QLatin1Char('/') + QString::number(gpu) + QLatin1Char('/') + test;
}

} // namespace

BurninProgressMeter::BurninProgressMeter(const QMap<QString, int> &gpusByNode, const QStringList &tests, int durationSeconds)
    : m_gpusByNode(gpusByNode), m_tests(tests), m_durationSeconds(durationSeconds)
{
}

void BurninProgressMeter::record(const QString &node, const BurninEvent &event, qint64 nowMs)
{
    if (const auto *start = std::get_if<BurninStart>(&event)) {
        if (m_startMs < 0)
            m_startMs = nowMs;
        // The agent knows its GPUs and tests; the plan only guessed.
        m_gpusByNode[node] = int(start->gpus.size());
        if (!start->tests.isEmpty())
            m_tests = start->tests;
        if (start->durationSeconds > 0)
            m_durationSeconds = int(std::lround(start->durationSeconds));
    } else if (const auto *progress = std::get_if<BurninProgress>(&event)) {
        if (m_startMs < 0)
            m_startMs = nowMs;
        double &done = m_done[key(node, progress->gpu, progress->test)];
        done = std::max(done, std::clamp(progress->fraction, 0.0, 0.999));
    } else if (const auto *result = std::get_if<BurninResult>(&event)) {
        if (m_startMs < 0)
            m_startMs = nowMs;
        double &done = m_done[key(node, result->gpu, result->test)];
        if (done < 1.0)
            ++m_results;
        done = 1.0;
    }
}

int BurninProgressMeter::resultsExpected() const
{
    int gpus = 0;
    for (int n : m_gpusByNode)
        gpus += n;
    return gpus * int(m_tests.size());
}

double BurninProgressMeter::fraction() const
{
    const int expected = resultsExpected();
    if (expected <= 0)
        return 0;
    double sum = 0;
    for (double d : m_done)
        sum += d;
    return std::clamp(sum / expected, 0.0, 1.0);
}

std::optional<qint64> BurninProgressMeter::secondsLeft(qint64 nowMs) const
{
    if (m_startMs < 0 || resultsExpected() <= 0)
        return std::nullopt;
    const double elapsed = double(nowMs - m_startMs) / 1000.0;
    const double f = fraction();
    if (f >= 1.0)
        return 0;
    double left;
    if (f >= 0.05 && elapsed > 0)
        left = elapsed * (1.0 - f) / f;
    else // GPUs run in parallel, tests one after another.
        left = std::max(0.0, double(m_tests.size()) * m_durationSeconds - elapsed);
    return qint64(std::ceil(left));
}

QString BurninProgressMeter::formatDuration(qint64 seconds)
{
    if (seconds < 60)
        return QStringLiteral("%1s").arg(seconds);
    if (seconds < 3600)
        return QStringLiteral("%1m %2s").arg(seconds / 60).arg(seconds % 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1h %2m").arg(seconds / 3600).arg((seconds % 3600) / 60, 2, 10, QLatin1Char('0'));
}

QString BurninProgressMeter::line(qint64 nowMs) const
{
    if (!started())
        return QStringLiteral("burn-in: waiting for the agents to start");
    constexpr int width = 20;
    const double f = fraction();
    const int filled = int(std::floor(f * width));
    const std::optional<qint64> left = secondsLeft(nowMs);
    return QStringLiteral("burn-in [%1%2] %3%  %4/%5 GPU tests%6")
        .arg(QString(filled, QLatin1Char('#')), QString(width - filled, QLatin1Char(' ')))
        .arg(int(std::floor(f * 100)), 3)
        .arg(m_results)
        .arg(resultsExpected())
        .arg(f >= 1.0 ? QStringLiteral("  all results in")
                      : left ? QStringLiteral("  about %1 left").arg(formatDuration(*left)) : QString());
}

} // namespace strata
