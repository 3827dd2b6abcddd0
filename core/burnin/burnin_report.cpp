#include "burnin_report.h"

#include <QHash>
#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace strata {

namespace {

// node -> gpu -> test -> result: a fleet's report looks up 16,000 GPUs x their tests.
using ResultIndex = QHash<QString, QHash<int, QHash<QString, const BurninResult *>>>;

ResultIndex indexResults(const QVector<BurninNodeRun> &runs)
{
    ResultIndex index;
    for (const BurninNodeRun &run : runs)
        for (const BurninResult &r : run.results)
            index[run.node][r.gpu].insert(r.test, &r);
    return index;
}

std::optional<double> specOf(const BurninResult &r)
{
    const double scale = BurninReport::scaleOf(r.test);
    if (r.test == QLatin1String("gemm") && r.specTflops)
        return *r.specTflops * scale;
    if (r.test == QLatin1String("hbm") && r.specTBps)
        return *r.specTBps * scale;
    return std::nullopt;
}

double median(QVector<double> values)
{
    std::sort(values.begin(), values.end());
    const qsizetype n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

QString peerKey(const BurninReportGpu &g, const QString &test)
{
    return g.backend + QLatin1Char('/') + g.model + QLatin1Char('/') + test;
}

void maxInto(std::optional<double> &into, const std::optional<double> &value)
{
    if (value && (!into || *value > *into))
        into = value;
}

void minInto(std::optional<double> &into, const std::optional<double> &value)
{
    if (value && (!into || *value < *into))
        into = value;
}

QJsonValue optional(const std::optional<double> &v)
{
    return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
}

QString figureText(const std::optional<double> &v)
{
    if (!v)
        return QStringLiteral("&ndash;");
    const double a = std::fabs(*v);
    return QString::number(*v, a >= 100 ? 'f' : 'g', a >= 100 ? 1 : 3);
}

QString percentText(const std::optional<double> &v)
{
    return v ? QString::number(std::lround(*v)) + QLatin1Char('%') : QStringLiteral("&ndash;");
}

QString listItems(const QStringList &items)
{
    QString html;
    for (const QString &i : items)
        html += QStringLiteral("<li>%1</li>").arg(i.toHtmlEscaped());
    return html;
}

QString escapedLines(const QStringList &lines)
{
    QStringList escaped;
    for (const QString &l : lines)
        escaped << l.toHtmlEscaped();
    return escaped.join(QStringLiteral("<br>"));
}

} // namespace

QString BurninReport::unitOf(const QString &test)
{
    return test == QLatin1String("gemm") ? QStringLiteral("TFLOPS") : QStringLiteral("GB/s");
}

double BurninReport::scaleOf(const QString &test)
{
    // The agent reports memory bandwidth in TB/s; the window shows every bandwidth in GB/s.
    return test == QLatin1String("hbm") ? 1000.0 : 1.0;
}

int BurninReport::failedGpus() const
{
    return int(std::count_if(gpus.begin(), gpus.end(), [](const BurninReportGpu &g) { return !g.passed; }));
}

BurninReport BurninReport::build(const BurninVerdict &verdict, const QVector<BurninNodeRun> &runs)
{
    BurninReport report;
    report.passed = verdict.passed;
    report.problems = verdict.problems;
    report.notes = verdict.notes;
    QHash<QString, QVector<double>> peerFigures;
    const ResultIndex results = indexResults(runs);
    for (const BurninGpuVerdict &v : verdict.gpus) {
        BurninReportGpu g;
        g.node = v.node;
        g.gpu = v.gpu;
        g.uuid = v.uuid;
        g.model = v.model;
        g.backend = v.backend;
        g.passed = v.passed;
        g.reasons = v.reasons;
        g.notes = v.notes;
        for (const BurninTestVerdict &tv : v.tests) {
            BurninReportTest t;
            t.test = tv.test;
            t.unit = unitOf(tv.test);
            t.passed = tv.passed;
            t.skipped = tv.skipped;
            t.reasons = tv.reasons;
            t.pctOfSpec = tv.pctOfSpec;
            if (tv.figure)
                t.figure = *tv.figure * scaleOf(tv.test);
            if (const BurninResult *r = results.value(v.node).value(v.gpu).value(tv.test)) {
                t.specFigure = specOf(*r);
                if (r->telemetry) {
                    maxInto(g.maxTempC, r->telemetry->maxTempC);
                    maxInto(g.maxPowerW, r->telemetry->maxPowerW);
                    minInto(g.minSmClockMHz, r->telemetry->minSmClockMHz);
                }
            }
            if (t.figure && !t.skipped)
                peerFigures[peerKey(g, t.test)].append(*t.figure);
            g.tests.append(t);
        }
        report.gpus.append(g);
    }
    for (BurninReportGpu &g : report.gpus) {
        for (BurninReportTest &t : g.tests) {
            const QVector<double> peers = peerFigures.value(peerKey(g, t.test));
            if (peers.isEmpty())
                continue;
            t.peers = int(peers.size());
            t.peerMedian = median(peers);
            if (t.figure && *t.peerMedian > 0)
                t.pctOfPeers = 100.0 * *t.figure / *t.peerMedian;
        }
    }
    std::sort(report.gpus.begin(), report.gpus.end(), [](const BurninReportGpu &a, const BurninReportGpu &b) {
        return a.node != b.node ? a.node < b.node : a.gpu < b.gpu;
    });
    return report;
}

QJsonObject BurninReport::toJson() const
{
    QJsonArray gpuArray;
    for (const BurninReportGpu &g : gpus) {
        QJsonArray tests;
        for (const BurninReportTest &t : g.tests)
            tests.append(QJsonObject{{QLatin1String("test"), t.test},
                                     {QLatin1String("unit"), t.unit},
                                     {QLatin1String("passed"), t.passed},
                                     {QLatin1String("skipped"), t.skipped},
                                     {QLatin1String("figure"), optional(t.figure)},
                                     {QLatin1String("specFigure"), optional(t.specFigure)},
                                     {QLatin1String("pctOfSpec"), optional(t.pctOfSpec)},
                                     {QLatin1String("peerMedian"), optional(t.peerMedian)},
                                     {QLatin1String("pctOfPeers"), optional(t.pctOfPeers)},
                                     {QLatin1String("peers"), t.peers},
                                     {QLatin1String("reasons"), QJsonArray::fromStringList(t.reasons)}});
        gpuArray.append(QJsonObject{{QLatin1String("node"), g.node},
                                    {QLatin1String("gpu"), g.gpu},
                                    {QLatin1String("uuid"), g.uuid},
                                    {QLatin1String("model"), g.model},
                                    {QLatin1String("backend"), g.backend},
                                    {QLatin1String("passed"), g.passed},
                                    {QLatin1String("maxTempC"), optional(g.maxTempC)},
                                    {QLatin1String("maxPowerW"), optional(g.maxPowerW)},
                                    {QLatin1String("minSmClockMHz"), optional(g.minSmClockMHz)},
                                    {QLatin1String("tests"), tests},
                                    {QLatin1String("reasons"), QJsonArray::fromStringList(g.reasons)},
                                    {QLatin1String("notes"), QJsonArray::fromStringList(g.notes)}});
    }
    const auto time = [](const QDateTime &t) {
        return t.isValid() ? QJsonValue(t.toUTC().toString(Qt::ISODate)) : QJsonValue(QJsonValue::Null);
    };
    return QJsonObject{{QLatin1String("schema"), QStringLiteral("strata.burnin-report/1")},
                       {QLatin1String("jobId"), jobId},
                       {QLatin1String("startedAt"), time(startedAt)},
                       {QLatin1String("finishedAt"), time(finishedAt)},
                       {QLatin1String("passed"), passed},
                       {QLatin1String("failedGpus"), failedGpus()},
                       {QLatin1String("problems"), QJsonArray::fromStringList(problems)},
                       {QLatin1String("notes"), QJsonArray::fromStringList(notes)},
                       {QLatin1String("drained"), QJsonArray::fromStringList(drained)},
                       {QLatin1String("notDrained"), QJsonArray::fromStringList(notDrained)},
                       {QLatin1String("gpus"), gpuArray}};
}

QString BurninReport::toHtml() const
{
    QStringList testNames;
    for (const BurninReportGpu &g : gpus)
        for (const BurninReportTest &t : g.tests)
            if (!testNames.contains(t.test))
                testNames << t.test;

    QString html = QStringLiteral(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        "<title>Strata burn-in %1</title>\n<style>\n"
        "body{font-family:system-ui,sans-serif;margin:2em;color:#1d1d1f}\n"
        "table{border-collapse:collapse;font-variant-numeric:tabular-nums}\n"
        "th,td{border:1px solid #ccc;padding:.3em .6em;text-align:right}\n"
        "th{background:#f0f0f0}td.l{text-align:left}\n"
        ".pass{color:#1a7f37;font-weight:600}.fail{color:#c62828;font-weight:600}\n"
        "small{color:#666}\n</style></head><body>\n")
                       .arg(jobId.toHtmlEscaped());
    html += QStringLiteral("<h1>Burn-in %1: <span class=\"%2\">%3</span></h1>\n")
                .arg(jobId.toHtmlEscaped(), passed ? QStringLiteral("pass") : QStringLiteral("fail"),
                     passed ? QStringLiteral("PASSED") : QStringLiteral("FAILED"));
    html += QStringLiteral("<p>%1 GPU(s), %2 failed. Started %3, finished %4 (UTC).</p>\n")
                .arg(gpus.size())
                .arg(failedGpus())
                .arg(startedAt.isValid() ? startedAt.toUTC().toString(Qt::ISODate) : QStringLiteral("?"),
                     finishedAt.isValid() ? finishedAt.toUTC().toString(Qt::ISODate) : QStringLiteral("?"));
    if (!problems.isEmpty())
        html += QStringLiteral("<h2>Problems</h2><ul>%1</ul>\n").arg(listItems(problems));

    html += QStringLiteral("<h2>Per GPU</h2>\n<p><small>Each figure with its share of the datasheet "
                           "(spec) and of the median of the GPUs of the same model in this run (peers).</small></p>\n"
                           "<table><tr><th>Node</th><th>GPU</th><th>Model</th><th>Verdict</th>");
    for (const QString &t : testNames)
        html += QStringLiteral("<th>%1 (%2)</th><th>of spec</th><th>of peers</th>").arg(t.toHtmlEscaped(), unitOf(t));
    html += QStringLiteral("<th>max &deg;C</th><th>max W</th><th>min SM MHz</th><th class=\"l\">Reasons</th></tr>\n");
    for (const BurninReportGpu &g : gpus) {
        html += QStringLiteral("<tr><td class=\"l\">%1</td><td>%2</td><td class=\"l\">%3</td><td class=\"%4\">%5</td>")
                    .arg(g.node.toHtmlEscaped())
                    .arg(g.gpu)
                    .arg((g.model.isEmpty() ? g.backend : g.model).toHtmlEscaped(),
                         g.passed ? QStringLiteral("pass") : QStringLiteral("fail"),
                         g.passed ? QStringLiteral("pass") : QStringLiteral("FAIL"));
        for (const QString &name : testNames) {
            const auto it = std::find_if(g.tests.begin(), g.tests.end(), [&](const BurninReportTest &t) { return t.test == name; });
            if (it == g.tests.end()) {
                html += QStringLiteral("<td>&ndash;</td><td>&ndash;</td><td>&ndash;</td>");
                continue;
            }
            html += QStringLiteral("<td class=\"%1\">%2</td><td>%3</td><td>%4</td>")
                        .arg(it->passed || it->skipped ? QString() : QStringLiteral("fail"),
                             it->skipped ? QStringLiteral("skipped") : figureText(it->figure), percentText(it->pctOfSpec),
                             percentText(it->pctOfPeers));
        }
        html += QStringLiteral("<td>%1</td><td>%2</td><td>%3</td><td class=\"l\">%4</td></tr>\n")
                    .arg(figureText(g.maxTempC), figureText(g.maxPowerW), figureText(g.minSmClockMHz),
                         escapedLines(g.reasons));
    }
    html += QStringLiteral("</table>\n");
    if (!drained.isEmpty() || !notDrained.isEmpty())
        html += QStringLiteral("<h2>Drained</h2><ul>%1%2</ul>\n").arg(listItems(drained), listItems(notDrained));
    if (!notes.isEmpty())
        html += QStringLiteral("<h2>Notes</h2><ul>%1</ul>\n").arg(listItems(notes));
    html += QStringLiteral("<p><small>Written by Strata %1.</small></p>\n</body></html>\n").arg(QStringLiteral(STRATA_VERSION));
    return html;
}

} // namespace strata
