#include "repair_window.h"

#include "repair/repair_engine.h"
#include "session/cluster_session.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace strata {

namespace {

// Passes of one Apply at most, as `strata watch --once`.
constexpr int kMaxApplyPasses = 20;

QTableWidget *table(const QStringList &header, QWidget *parent)
{
    auto *t = new QTableWidget(0, int(header.size()), parent);
    t->setHorizontalHeaderLabels(header);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->verticalHeader()->hide();
    t->horizontalHeader()->setStretchLastSection(true);
    t->setWordWrap(false);
    return t;
}

void addRow(QTableWidget *t, const QStringList &cells)
{
    const int row = t->rowCount();
    t->insertRow(row);
    for (int c = 0; c < cells.size(); ++c) {
        auto *item = new QTableWidgetItem(cells[c]);
        item->setToolTip(cells[c]);
        t->setItem(row, c, item);
    }
}

// Columns as wide as their contents, none past maxWidth (the last one stretches).
void fitColumns(QTableWidget *t, int maxWidth)
{
    t->resizeColumnsToContents();
    for (int c = 0; c + 1 < t->columnCount(); ++c)
        t->setColumnWidth(c, std::min(t->columnWidth(c), maxWidth));
}

QString when(const QDateTime &t)
{
    return t.isValid() ? t.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) : QString();
}

} // namespace

RepairWindow::RepairWindow(ClusterSession *session, const QString &agentPath, const QString &historyPath, QWidget *parent)
    : QWidget(parent, Qt::Window), m_session(session)
{
    setWindowTitle(tr("Repair loop — %1").arg(session->profile().name.isEmpty() ? session->profile().sshHost : session->profile().name));
    RepairEngine::Options options;
    options.dryRun = true;
    options.operatorUser = session->profile().sshUser.isEmpty() ? qEnvironmentVariable("USER") : session->profile().sshUser;
    options.agentLocalPath = agentPath;
    options.burninHistoryPath = historyPath;
    QString error;
    if (const std::optional<RepairPolicy> policy = RepairPolicy::fromJson(session->profile().repairPolicy, &error))
        options.policy = *policy;
    m_engine = new RepairEngine(session, options, this);

    m_policyState = new QLabel(this);
    m_policyState->setWordWrap(true);
    m_policy = new QPlainTextEdit(this);
    m_policy->setObjectName(QStringLiteral("repairPolicy"));
    // The policy in effect, every field shown (the profile's, defaults filled in); a profile
    // policy that is refused is shown as the file has it, with why.
    m_policy->setPlainText(QString::fromUtf8(QJsonDocument(error.isEmpty() ? options.policy.toJson() : session->profile().repairPolicy)
                                                 .toJson(QJsonDocument::Indented)));
    m_policy->setMaximumHeight(fontMetrics().lineSpacing() * 12);
    m_plan = new QPushButton(tr("&Plan"), this);
    m_plan->setToolTip(tr("What the policy would do now, with each drain's preview; nothing is done"));
    m_apply = new QPushButton(tr("&Apply…"), this);
    m_apply->setToolTip(tr("Act on the plan within the policy's cap, after a confirmation"));
    m_apply->setEnabled(false);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_steps = table({tr("Node"), tr("Step"), tr("From → to"), tr("Evidence"), tr("Held"), tr("Preview")}, this);
    m_steps->setObjectName(QStringLiteral("repairSteps"));
    m_nodes = table({tr("Node"), tr("State"), tr("Since"), tr("Drained at"), tr("Evidence")}, this);
    m_nodes->setObjectName(QStringLiteral("repairNodeRecords"));
    m_gpus = table({tr("GPU UUID"), tr("Last seen"), tr("Events")}, this);
    m_gpus->setObjectName(QStringLiteral("repairGpuRecords"));

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_plan);
    buttons->addWidget(m_apply);
    buttons->addStretch();
    auto *top = new QWidget(this);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(new QLabel(tr("Policy (the profile's \"repair\"; edits hold for this window):"), top));
    topLayout->addWidget(m_policy);
    topLayout->addWidget(m_policyState);
    topLayout->addLayout(buttons);
    topLayout->addWidget(m_status);
    auto *records = new QSplitter(Qt::Horizontal, this);
    for (const auto &[title, view] : {std::pair{tr("Nodes, as Prometheus holds the loop's records"), m_nodes},
                                      std::pair{tr("GPUs by UUID: their lifetime in the loop"), m_gpus}}) {
        auto *box = new QWidget(records);
        auto *boxLayout = new QVBoxLayout(box);
        boxLayout->setContentsMargins(0, 0, 0, 0);
        boxLayout->addWidget(new QLabel(title, box));
        boxLayout->addWidget(view);
        records->addWidget(box);
    }
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(m_steps);
    split->addWidget(records);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(split);
    resize(1100, 760);

    connect(m_policy, &QPlainTextEdit::textChanged, this, &RepairWindow::policyEdited);
    connect(m_plan, &QPushButton::clicked, this, &RepairWindow::plan);
    connect(m_apply, &QPushButton::clicked, this, &RepairWindow::apply);
    connect(m_engine, &RepairEngine::stepDone, this, &RepairWindow::showStep);
    connect(m_engine, &RepairEngine::stepHeld, this, [this](const RepairStep &s) { showStep(s, {}); });
    connect(m_engine, &RepairEngine::message, this, [this](const QString &text) { say(text); });
    connect(m_engine, &RepairEngine::published, this, [this](const QString &e) {
        if (!e.isEmpty())
            say(tr("Publishing failed: %1").arg(e), true);
    });
    connect(m_engine, &RepairEngine::testFinished, this, [this](const QString &node, bool passed, const QString &evidence) {
        say(tr("%1: test %2: %3").arg(node, passed ? tr("passed") : tr("did not pass"), evidence), !passed);
        m_session->refreshNow();
    });
    connect(m_engine, &RepairEngine::passFinished, this, [this] {
        showRecords();
        if (!m_applying)
            return;
        const QVector<RepairStep> &last = m_engine->lastSteps();
        const bool tookAny = std::any_of(last.begin(), last.end(), [](const RepairStep &s) { return s.isTaken(); });
        if (!tookAny && !m_engine->isTestRunning()) {
            m_applying = false;
            m_engine->setDryRun(true);
            m_plan->setEnabled(true);
            say(tr("Applied: nothing more to do now."));
        } else if (++m_passes >= kMaxApplyPasses) {
            m_applying = false;
            m_engine->setDryRun(true);
            m_plan->setEnabled(true);
            say(tr("Still acting after %1 passes: stopped.").arg(kMaxApplyPasses), true);
        } else if (!m_engine->isTestRunning()) {
            m_session->refreshNow();
        }
    });
    connect(m_engine, &RepairEngine::recordsLoaded, this, [this](const QString &e) {
        if (!e.isEmpty())
            say(e, true);
        showRecords();
    });
    connect(session, &ClusterSession::snapshotReady, this, &RepairWindow::onSnapshot);
    policyEdited();
    if (const QString problem = m_engine->configurationProblem(); !problem.isEmpty()) {
        say(problem, true);
        m_plan->setEnabled(false);
    } else {
        m_engine->loadRecords();
    }
}

RepairWindow::~RepairWindow() = default;

QString RepairWindow::statusText() const
{
    return m_status->text();
}

void RepairWindow::say(const QString &text, bool bad)
{
    m_status->setText(text);
    m_status->setStyleSheet(bad ? QStringLiteral("color: palette(link-visited);") : QString());
}

void RepairWindow::policyEdited()
{
    const QJsonDocument doc = QJsonDocument::fromJson(m_policy->toPlainText().toUtf8());
    QString error;
    std::optional<RepairPolicy> policy;
    if (!doc.isObject())
        error = tr("not a JSON object");
    else
        policy = RepairPolicy::fromJson(doc.object(), &error);
    m_policyOk = policy.has_value();
    if (policy)
        m_engine->setPolicy(*policy);
    m_policyState->setText(m_policyOk ? tr("Policy checked: %1 node(s) out at once, %2 % of a partition, %3 drain(s) an hour; test: %4%5")
                                            .arg(policy->maxNodesOut)
                                            .arg(policy->maxPartitionPercent)
                                            .arg(policy->maxDrainsPerHour)
                                            .arg(repairTestName(policy->test), policy->dryRun ? tr(" (on trial: Apply stays a dry run)") : QString())
                                      : tr("Policy refused: %1").arg(error));
    m_plan->setEnabled(m_policyOk && !m_applying);
    m_apply->setEnabled(false); // a changed policy is planned again before it acts
}

void RepairWindow::plan()
{
    planOn(m_session->latest());
}

void RepairWindow::planOn(const SnapshotPtr &snapshot)
{
    if (!snapshot) {
        say(tr("No snapshot of the cluster yet."), true);
        return;
    }
    m_steps->setRowCount(0);
    m_engine->setDryRun(true);
    if (!m_engine->pass(snapshot)) {
        say(tr("The engine is busy; plan again in a moment."), true);
        return;
    }
    const QVector<RepairStep> &steps = m_engine->lastSteps();
    say(steps.isEmpty() ? tr("Nothing to do: no node is suspected, drained or under test.")
                        : tr("%1 step(s) planned, none taken (a dry run).").arg(steps.size()));
    m_apply->setEnabled(m_policyOk && !steps.isEmpty() && !m_engine->options().policy.dryRun);
}

void RepairWindow::apply()
{
    QStringList drains, others;
    for (const RepairStep &s : m_engine->lastSteps()) {
        if (s.kind == RepairStepKind::Drain && (s.hold == RepairHold::DryRun || s.hold == RepairHold::NeedsConfirmation))
            drains << s.preview.summary();
        if (s.hold == RepairHold::NeedsConfirmation)
            others << s.node;
    }
    QMessageBox box(QMessageBox::Warning, tr("Apply the repair policy"),
                    drains.isEmpty() ? tr("Apply the plan (tests, returns, replacements) within the policy's cap?")
                                     : tr("Drain %1 node(s) within the policy's cap, then test them?").arg(drains.size()),
                    QMessageBox::Cancel, this);
    QPushButton *go = box.addButton(tr("Apply"), QMessageBox::AcceptRole);
    QString details = drains.join(QLatin1Char('\n'));
    if (!others.isEmpty())
        details += tr("\n\nThese nodes run other users' jobs; applying confirms their drain: %1").arg(others.join(QStringLiteral(", ")));
    box.setDetailedText(details);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    if (box.clickedButton() != go)
        return;
    applyWith(QSet<QString>(others.begin(), others.end()));
}

void RepairWindow::applyWith(const QSet<QString> &confirmed)
{
    m_engine->setDryRun(false);
    if (const QString problem = m_engine->configurationProblem(); !problem.isEmpty()) {
        m_engine->setDryRun(true);
        say(problem, true);
        return;
    }
    m_engine->setConfirmed(confirmed);
    m_steps->setRowCount(0);
    m_applying = true;
    m_passes = 0;
    m_plan->setEnabled(false);
    m_apply->setEnabled(false);
    say(tr("Applying…"));
    if (!m_engine->pass(m_session->latest()))
        m_session->refreshNow();
}

void RepairWindow::onSnapshot(const SnapshotPtr &snapshot)
{
    if (m_applying && !m_engine->isPassRunning())
        m_engine->pass(snapshot);
}

void RepairWindow::showStep(const RepairStep &s, const QString &error)
{
    addRow(m_steps, {s.node, repairStepKindName(s.kind),
                     QStringLiteral("%1 → %2").arg(nodeHealthStateName(s.from), nodeHealthStateName(s.to)),
                     s.evidenceCode.isEmpty() ? s.evidence : s.evidenceCode + QStringLiteral(": ") + s.evidence,
                     !error.isEmpty() ? tr("FAILED: %1").arg(error) : s.isTaken() ? tr("taken") : s.holdReason,
                     s.kind == RepairStepKind::Drain ? s.preview.summary() : QString()});
    fitColumns(m_steps, 380);
}

void RepairWindow::showRecords()
{
    QVector<NodeHealthRecord> nodes(m_engine->records().begin(), m_engine->records().end());
    std::sort(nodes.begin(), nodes.end(), [](const auto &a, const auto &b) { return a.node < b.node; });
    m_nodes->setRowCount(0);
    for (const NodeHealthRecord &r : std::as_const(nodes))
        addRow(m_nodes, {r.node, nodeHealthStateName(r.state), when(r.since), when(r.drainedAt),
                         r.evidenceCode.isEmpty() ? QString() : r.evidenceCode + QStringLiteral(": ") + r.evidence});
    QVector<GpuHealthRecord> gpus(m_engine->gpuRecords().begin(), m_engine->gpuRecords().end());
    std::sort(gpus.begin(), gpus.end(), [](const auto &a, const auto &b) { return std::tie(a.node, a.index) < std::tie(b.node, b.index); });
    m_gpus->setRowCount(0);
    for (const GpuHealthRecord &g : std::as_const(gpus)) {
        QStringList events;
        for (auto it = g.events.begin(); it != g.events.end(); ++it)
            events << tr("%1 ×%2 (last %3)").arg(it.key()).arg(it.value()).arg(when(g.lastEvent.value(it.key())));
        for (auto it = g.burninFigures.begin(); it != g.burninFigures.end(); ++it)
            events << tr("burn-in %1 %2").arg(it.key()).arg(it.value(), 0, 'g', 4);
        addRow(m_gpus, {g.uuid, tr("%1 GPU %2").arg(g.node).arg(g.index), events.join(QStringLiteral(", "))});
    }
    fitColumns(m_nodes, 320);
    fitColumns(m_gpus, 360);
}

} // namespace strata
