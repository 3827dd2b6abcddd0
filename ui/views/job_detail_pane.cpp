#include "job_detail_pane.h"

#include "charts/gpu_history_loader.h"
#include "charts/gpu_time_series_chart.h"
#include "prometheus/job_stragglers.h"
#include "color_map.h"
#include "unit_formatter.h"
#include "wheel_focus_guard.h"
#include "workload_text.h"

#include <QDateTime>
#include <algorithm>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
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

QString JobDetailPane::commandText(const Job &job, OrchestratorKind orchestrator)
{
    if (!job.command.isEmpty())
        return job.command;
    if (orchestrator == OrchestratorKind::Kubernetes)
        return tr("(no command: the container's image decides)");
    // Slurm lists none for a --wrap job or a script given on standard input (as Strata submits):
    // what the batch script runs, when it was read.
    if (job.script && job.script->isRead()) {
        QStringList lines;
        for (const BatchScriptContent::Statement &statement : job.script->content.statements)
            if (statement.kind == BatchScriptContent::Statement::Kind::Command)
                lines << statement.text;
        if (!lines.isEmpty())
            return tr("# from its batch script\n") + lines.join(QLatin1Char('\n'));
    }
    return tr("(no command listed: submitted with --wrap or with its script on standard input)");
}

JobDetailPane::JobDetailPane(QWidget *parent)
    : DetailPane(QStringLiteral("jobDetail"), parent), m_command(new QPlainTextEdit(this))
{
    GpuTimeSeriesChart *chart = createHistoryChart();
    title()->setWordWrap(true);
    title()->setTextFormat(Qt::PlainText); // job names are any bytes
    m_state = addRow(tr("State"), ValueText::EscapedRich);
    m_owner = addRow(tr("User, partition"), ValueText::EscapedRich);
    m_placement = addRow(tr("Runs on"), ValueText::EscapedRich);
    m_time = addRow(tr("Time"), ValueText::EscapedRich);
    m_verdict = addRow(tr("Efficiency"), ValueText::EscapedRich);
    m_workload = addRow(tr("Workload"), ValueText::EscapedRich);
    m_workload->setObjectName(QStringLiteral("jobWorkload"));
    // A Kubernetes workload's kind, roles, pods and restarts as its controller reports them.
    m_kubernetes = addRow(tr("Kubernetes"), ValueText::EscapedRich);
    m_kubernetes->setObjectName(QStringLiteral("jobKubernetes"));
    // What the job's batch script says it uses, when it could be read (WorkloadDetector).
    m_launch = addRow(tr("Launches"), ValueText::EscapedRich);
    m_launch->setObjectName(QStringLiteral("jobLaunch"));
    m_fabric = addRow(tr("Fabric"), ValueText::EscapedRich);
    m_fabric->setObjectName(QStringLiteral("jobFabric"));
    m_script = addRow(tr("Batch script"), ValueText::EscapedRich);
    m_script->setObjectName(QStringLiteral("jobScript"));
    m_app = addRow(tr("Application"), ValueText::EscapedRich);
    m_app->setObjectName(QStringLiteral("jobApplication"));
    m_workDir = addRow(tr("Work dir"), ValueText::EscapedRich);
    m_stdout = addRow(tr("Output"), ValueText::EscapedRich);
    m_stdout->setObjectName(QStringLiteral("jobOutput"));
    m_placement->setObjectName(QStringLiteral("jobPlacement"));
    QVBoxLayout *layout = paneLayout();
    layout->addWidget(new QLabel(tr("Command / script:"), this));
    m_command->setReadOnly(true);
    m_command->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_command->setMaximumHeight(70);
    m_command->setObjectName(QStringLiteral("jobCommand"));
    layout->addWidget(m_command);
    m_inspect = new QPushButton(tr("Inspect…"), this);
    m_inspect->setObjectName(QStringLiteral("jobInspect"));
    m_inspect->setToolTip(tr("The workload's YAML, events, its pods' logs and port-forwards"));
    m_inspect->hide();
    connect(m_inspect, &QPushButton::clicked, this, [this] { Q_EMIT inspectRequested(m_id); });
    layout->addWidget(m_inspect, 0, Qt::AlignLeft);
    chart->setMetrics(ChartMetric::forJobs()); // GPU figures and, beside them, the application's
    layout->addWidget(chart, 1);
    connect(m_placement, &QLabel::linkActivated, this, &JobDetailPane::nodePicked);
    WheelFocusGuard::guardChildren(this); // the pane scrolls in its dock
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
    m_inspect->setVisible(job && snapshot->orchestrator == OrchestratorKind::Kubernetes);
    if (!job) {
        title()->setText(tr("Job %1: no longer listed by the scheduler (finished and purged)").arg(id));
        historyLoader()->setTargets({});
        return;
    }
    historyLoader()->setJob(job->id);
    title()->setText(tr("Job %1 \u00b7 %2").arg(job->id, job->name));
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
    // An ended job holds nothing: where it ran and how many GPUs it had, never "not placed yet".
    const QString where = places.join(QStringLiteral("; "));
    if (job->hasEnded()) {
        const QString nodes = job->nodes.join(QStringLiteral(", "));
        const QString gpus = job->gpusRequested == 1 ? tr("1 GPU") : tr("%1 GPUs").arg(job->gpusRequested);
        m_placement->setText(places.isEmpty()          ? tr("finished")
                             : job->gpusRequested > 0 ? tr("held %1 on %2").arg(gpus, where)
                                                      : tr("ran on %1").arg(where));
        historyLoader()->setNoTargetsText(nodes.isEmpty()           ? tr("This job has finished.")
                                          : job->gpusRequested > 0 ? tr("This job has finished; it held %1 on %2.").arg(gpus, nodes)
                                                                   : tr("This job has finished; it ran on %1.").arg(nodes));
    } else {
        m_placement->setText(places.isEmpty() ? tr("not placed yet (%1 GPUs requested)").arg(job->gpusRequested) : where);
        historyLoader()->setNoTargetsText(job->isPending() ? tr("This job holds no GPUs yet.") : tr("This job holds no GPUs."));
    }
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
    const QString kubernetes = WorkloadText::kubernetesWorkload(*job);
    m_kubernetes->setText(kubernetes.isEmpty() ? UnitFormatter::dash() : kubernetes.toHtmlEscaped());
    const QString launch = WorkloadText::launch(*job);
    m_launch->setText(launch.isEmpty() ? UnitFormatter::dash() : launch.toHtmlEscaped());
    const QString fabric = WorkloadText::jobFabric(*job);
    m_fabric->setText(fabric.isEmpty() ? UnitFormatter::dash() : fabric.toHtmlEscaped());
    m_script->setText(WorkloadText::script(*job).toHtmlEscaped());
    const QString app = job->app ? WorkloadText::application(*job->app) : QString();
    m_app->setText(!app.isEmpty() ? app.toHtmlEscaped()
                   : job->isRunning() ? tr("no application metrics (see docs/metrics.md for what Strata reads)")
                                      : UnitFormatter::dash());
    m_workDir->setText(job->workDir.isEmpty() ? UnitFormatter::dash() : job->workDir.toHtmlEscaped());
    m_stdout->setText(job->stdoutPath.isEmpty() ? UnitFormatter::dash() : job->stdoutPath.toHtmlEscaped());
    m_stdout->setToolTip(tr("The path is on the cluster's file system."));
    const QString command = commandText(*job, snapshot->orchestrator);
    if (m_command->toPlainText() != command)
        m_command->setPlainText(command);
    // A straggler's evidence: its node's line apart from the job's others (issue 27).
    QStringList stragglers;
    for (const Finding &f : snapshot->findings)
        if (f.code == JobStragglers::findingCode() && (f.job == job->id || f.jobs.contains(job->id)) && !stragglers.contains(f.node))
            stragglers << f.node;
    if (stragglers.isEmpty() != chart()->emphasis().isEmpty())
        chart()->setPerNode(!stragglers.isEmpty()); // shown per node while it names a straggler
    chart()->setEmphasis(stragglers, tr("straggler"));
    historyLoader()->setTargets(targets);
}

} // namespace strata
