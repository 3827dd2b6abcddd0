#include "job_detail_pane.h"

#include "charts/gpu_history_loader.h"
#include "charts/gpu_time_series_chart.h"
#include "color_map.h"
#include "unit_formatter.h"
#include "workload_text.h"

#include <QDateTime>
#include <algorithm>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QVBoxLayout>

namespace strata {

namespace {

// GPU indices as Slurm prints them in GRES (IDX:0-3,6), with room to wrap: "0-3, 6".
QString indexRanges(QVector<int> indices)
{
    std::sort(indices.begin(), indices.end());
    QStringList ranges;
    for (qsizetype i = 0; i < indices.size();) {
        qsizetype j = i;
        while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1)
            ++j;
        ranges << (j > i ? QStringLiteral("%1-%2").arg(indices[i]).arg(indices[j]) : QString::number(indices[i]));
        i = j + 1;
    }
    return ranges.join(QStringLiteral(", "));
}

} // namespace

JobDetailPane::JobDetailPane(QWidget *parent)
    : QWidget(parent), m_title(new QLabel(this)), m_command(new QPlainTextEdit(this)),
      m_chart(new GpuTimeSeriesChart(this)), m_loader(new GpuHistoryLoader(m_chart, this))
{
    setObjectName(QStringLiteral("jobDetail"));
    auto *layout = new QVBoxLayout(this);
    QFont big = m_title->font();
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.2);
    m_title->setFont(big);
    m_title->setWordWrap(true);
    m_title->setTextFormat(Qt::PlainText); // job names are any bytes
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_title);
    auto *form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_state = addRow(form, tr("State"));
    m_owner = addRow(form, tr("User, partition"));
    m_placement = addRow(form, tr("Runs on"));
    m_time = addRow(form, tr("Time"));
    m_verdict = addRow(form, tr("Efficiency"));
    m_workload = addRow(form, tr("Workload"));
    m_workload->setObjectName(QStringLiteral("jobWorkload"));
    m_app = addRow(form, tr("Application"));
    m_app->setObjectName(QStringLiteral("jobApplication"));
    m_workDir = addRow(form, tr("Work dir"));
    m_stdout = addRow(form, tr("Output"));
    layout->addLayout(form);
    layout->addWidget(new QLabel(tr("Command / script:"), this));
    m_command->setReadOnly(true);
    m_command->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_command->setMaximumHeight(70);
    m_command->setObjectName(QStringLiteral("jobCommand"));
    layout->addWidget(m_command);
    m_chart->setMetrics(ChartMetric::forJobs()); // GPU figures and, beside them, the application's
    layout->addWidget(m_chart, 1);
    connect(m_placement, &QLabel::linkActivated, this, &JobDetailPane::nodePicked);
}

QLabel *JobDetailPane::addRow(QFormLayout *form, const QString &label)
{
    auto *value = new QLabel(this);
    value->setWordWrap(true);
    value->setTextFormat(Qt::RichText); // every value put here is escaped
    value->setTextInteractionFlags(Qt::TextBrowserInteraction);
    form->addRow(label + QLatin1Char(':'), value);
    return value;
}

void JobDetailPane::setMetricHistory(MetricHistory *history, const QString &unavailableReason)
{
    m_loader->setHistory(history, unavailableReason);
}

QString JobDetailPane::verdictText() const
{
    return m_verdict->text();
}

QString JobDetailPane::placementText() const
{
    return m_placement->text();
}

QString JobDetailPane::applicationText() const
{
    return m_app->text();
}

void JobDetailPane::showJob(const SnapshotPtr &snapshot, const QString &id)
{
    m_id = id;
    const Job *job = snapshot ? snapshot->job(id) : nullptr;
    if (!job) {
        m_title->setText(tr("Job %1: no longer listed by the scheduler (finished and purged)").arg(id));
        m_loader->setTargets({});
        return;
    }
    m_loader->setJob(job->id);
    m_title->setText(tr("Job %1 \u00b7 %2").arg(job->id, job->name));
    const QString reason = job->reason.isEmpty() || job->reason == QStringLiteral("None")
                               ? QString()
                               : QStringLiteral(" \u2014 ") + job->reason.toHtmlEscaped();
    m_state->setText(QStringLiteral("<span style=\"color:%1\">\u25cf</span> %2%3")
                         .arg(ColorMap::jobStateColor(job->stateKind).name(), job->state.toHtmlEscaped(), reason));
    m_owner->setText(QStringLiteral("%1, %2").arg(job->user.toHtmlEscaped(), job->partition.toHtmlEscaped()));

    QStringList places;
    QVector<GpuHistoryLoader::Target> targets;
    for (const QString &node : job->nodes) {
        const QVector<int> gpus = job->gpus.value(node);
        const QString indices = indexRanges(gpus);
        places << QStringLiteral("<a href=\"%1\">%1</a>%2")
                      .arg(node.toHtmlEscaped(), indices.isEmpty() ? QString() : tr(" GPUs %1").arg(indices));
        if (!gpus.isEmpty() && targets.size() < 8)
            targets.append({node, gpus});
    }
    m_placement->setText(places.isEmpty()
                             ? tr("not placed yet (%1 GPUs requested)").arg(job->gpusRequested)
                             : places.join(QStringLiteral("; ")));
    const QString started = job->startTime > 0
                                ? QDateTime::fromSecsSinceEpoch(job->startTime).toString(QStringLiteral("yyyy-MM-dd hh:mm"))
                                : tr("not started");
    m_time->setText(tr("%1 used of %2 \u00b7 started %3")
                        .arg(UnitFormatter::duration(job->timeUsedSeconds),
                             UnitFormatter::timeLimit(job->timeLimitSeconds), started));
    if (job->efficiencyVerdict.isEmpty())
        m_verdict->setText(job->isRunning() ? tr("no GPU metrics for this job") : UnitFormatter::dash());
    else
        m_verdict->setText(tr("%1 \u2014 mean GPU util %2, lowest %3")
                               .arg(job->efficiencyVerdict.toHtmlEscaped(),
                                    UnitFormatter::percent(job->gpuUtilMean),
                                    UnitFormatter::percent(job->gpuUtilMin)));
    const QString workload = WorkloadText::workload(*job);
    m_workload->setText(workload.isEmpty() ? tr("not recognised") : workload.toHtmlEscaped());
    const QString app = job->app ? WorkloadText::application(*job->app) : QString();
    m_app->setText(!app.isEmpty() ? app.toHtmlEscaped()
                   : job->isRunning() ? tr("no application metrics (see docs/metrics.md for what Strata reads)")
                                      : UnitFormatter::dash());
    m_workDir->setText(job->workDir.isEmpty() ? UnitFormatter::dash() : job->workDir.toHtmlEscaped());
    m_stdout->setText(job->stdoutPath.isEmpty() ? UnitFormatter::dash() : job->stdoutPath.toHtmlEscaped());
    m_stdout->setToolTip(tr("The path is on the cluster's file system."));
    if (m_command->toPlainText() != job->command)
        m_command->setPlainText(job->command);
    m_loader->setTargets(targets);
}

} // namespace strata
