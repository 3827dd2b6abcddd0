#include "burnin_live_state.h"

#include "burnin_report.h"

#include <QSet>

#include <algorithm>

namespace strata {

namespace {

QString rowKey(const QString &node, int gpu)
{
    return node + QLatin1Char('\n') + QString::number(gpu);
}

} // namespace

QString BurninLiveGpu::verdictText(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Waiting: return QStringLiteral("waiting");
    case Verdict::Running: return QStringLiteral("running");
    case Verdict::Passing: return QStringLiteral("passing so far");
    case Verdict::Failing: return QStringLiteral("failing");
    case Verdict::Passed: return QStringLiteral("pass");
    case Verdict::Failed: return QStringLiteral("FAIL");
    }
    return {};
}

void BurninLiveState::reset(const QMap<QString, int> &gpusByNode, const QStringList &tests)
{
    m_tests = tests;
    m_gpus.clear();
    m_rows.clear();
    m_problems.clear();
    for (auto it = gpusByNode.constBegin(); it != gpusByNode.constEnd(); ++it)
        for (int i = 0; i < it.value(); ++i)
            ensureRow(it.key(), i, nullptr);
}

int BurninLiveState::indexOf(const QString &node, int gpu) const
{
    return m_rows.value(rowKey(node, gpu), -1);
}

int BurninLiveState::ensureRow(const QString &node, int gpu, bool *added)
{
    const QString key = rowKey(node, gpu);
    if (const auto it = m_rows.constFind(key); it != m_rows.constEnd())
        return *it;
    BurninLiveGpu g;
    g.node = node;
    g.gpu = gpu;
    m_gpus.append(g);
    m_rows.insert(key, int(m_gpus.size() - 1));
    if (added)
        *added = true;
    return int(m_gpus.size() - 1);
}

QVector<int> BurninLiveState::add(const QString &node, const BurninEvent &event, bool *added)
{
    if (added)
        *added = false;
    QVector<int> changed;
    if (const auto *start = std::get_if<BurninStart>(&event)) {
        for (const BurninGpuInfo &info : start->gpus) {
            const int row = ensureRow(node, info.index, added);
            m_gpus[row].uuid = info.uuid;
            m_gpus[row].verdict = BurninLiveGpu::Verdict::Running;
            changed << row;
        }
    } else if (const auto *p = std::get_if<BurninProgress>(&event)) {
        const int row = ensureRow(node, p->gpu, added);
        BurninLiveGpu &g = m_gpus[row];
        g.currentTest = p->test;
        g.fraction = p->fraction;
        if (g.verdict == BurninLiveGpu::Verdict::Waiting)
            g.verdict = BurninLiveGpu::Verdict::Running;
        if (p->figure == QLatin1String("tflops"))
            g.tflops = p->value;
        else if (p->figure == QLatin1String("copyTBps"))
            g.bandwidthGBps = p->value * BurninReport::scaleOf(QStringLiteral("hbm"));
        changed << row;
    } else if (const auto *t = std::get_if<BurninTelemetry>(&event)) {
        const int row = ensureRow(node, t->gpu, added);
        BurninLiveGpu &g = m_gpus[row];
        g.tempC = t->tempC;
        g.powerW = t->powerW;
        g.smClockMHz = t->smClockMHz;
        g.memClockMHz = t->memClockMHz;
        g.throttleReasons = t->throttleReasons;
        changed << row;
    } else if (const auto *r = std::get_if<BurninResult>(&event)) {
        const int row = ensureRow(node, r->gpu, added);
        BurninLiveGpu &g = m_gpus[row];
        ++g.testsDone;
        g.fraction = 1;
        if (r->tflops)
            g.tflops = r->tflops;
        if (r->copyTBps)
            g.bandwidthGBps = *r->copyTBps * BurninReport::scaleOf(r->test);
        const bool failed = !r->passed && r->skipped.isEmpty();
        if (failed) {
            g.verdict = BurninLiveGpu::Verdict::Failing;
            for (const QString &reason : r->reasons)
                g.reasons << QStringLiteral("%1: %2").arg(r->test, reason);
            if (!r->error.isEmpty())
                g.reasons << QStringLiteral("%1: %2").arg(r->test, r->error);
        } else if (g.verdict != BurninLiveGpu::Verdict::Failing) {
            g.verdict = BurninLiveGpu::Verdict::Passing;
        }
        changed << row;
    } else if (const auto *e = std::get_if<BurninError>(&event)) {
        m_problems << QStringLiteral("%1: %2").arg(node, e->message);
        if (e->gpu) {
            const int row = ensureRow(node, *e->gpu, added);
            m_gpus[row].verdict = BurninLiveGpu::Verdict::Failing;
            m_gpus[row].reasons << e->message;
            changed << row;
        }
    } else if (const auto *s = std::get_if<BurninSummary>(&event)) {
        for (const BurninGpuSummary &gs : s->gpus) {
            const int row = ensureRow(node, gs.gpu, added);
            BurninLiveGpu &g = m_gpus[row];
            g.currentTest.clear();
            if (!gs.passed)
                g.verdict = BurninLiveGpu::Verdict::Failing;
            changed << row;
        }
    } else if (const auto *pe = std::get_if<BurninParseError>(&event)) {
        m_problems << QStringLiteral("%1: line %2: %3").arg(node).arg(pe->line).arg(pe->message);
    }
    return changed;
}

int BurninLiveState::newRows(const QString &node, const BurninEvent &event) const
{
    QSet<int> fresh;
    const auto check = [&](int gpu) {
        if (!m_rows.contains(rowKey(node, gpu)))
            fresh.insert(gpu);
    };
    if (const auto *start = std::get_if<BurninStart>(&event)) {
        for (const BurninGpuInfo &info : start->gpus)
            check(info.index);
    } else if (const auto *p = std::get_if<BurninProgress>(&event)) {
        check(p->gpu);
    } else if (const auto *t = std::get_if<BurninTelemetry>(&event)) {
        check(t->gpu);
    } else if (const auto *r = std::get_if<BurninResult>(&event)) {
        check(r->gpu);
    } else if (const auto *e = std::get_if<BurninError>(&event)) {
        if (e->gpu)
            check(*e->gpu);
    } else if (const auto *s = std::get_if<BurninSummary>(&event)) {
        for (const BurninGpuSummary &g : s->gpus)
            check(g.gpu);
    }
    return int(fresh.size());
}

void BurninLiveState::finish(const BurninVerdict &verdict)
{
    for (BurninLiveGpu &g : m_gpus) {
        g.currentTest.clear();
        if (const BurninGpuVerdict *v = verdict.gpu(g.node, g.gpu)) {
            g.verdict = v->passed ? BurninLiveGpu::Verdict::Passed : BurninLiveGpu::Verdict::Failed;
            g.reasons = v->reasons;
        } else {
            // Expected but never judged: the run-level problems say why.
            g.verdict = BurninLiveGpu::Verdict::Failed;
            if (g.reasons.isEmpty())
                g.reasons << QStringLiteral("no result from this GPU");
        }
    }
}

int BurninLiveState::testsDone() const
{
    int done = 0;
    for (const BurninLiveGpu &g : m_gpus)
        done += std::min(g.testsDone, int(m_tests.size()));
    return done;
}

int BurninLiveState::failing() const
{
    return int(std::count_if(m_gpus.begin(), m_gpus.end(), [](const BurninLiveGpu &g) {
        return g.verdict == BurninLiveGpu::Verdict::Failing || g.verdict == BurninLiveGpu::Verdict::Failed;
    }));
}

} // namespace strata
