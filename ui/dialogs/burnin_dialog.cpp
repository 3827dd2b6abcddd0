#include "burnin_dialog.h"

#include "slurm/hostlist.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace strata {

namespace {

const QStringList kTests{QStringLiteral("gemm"), QStringLiteral("hbm"), QStringLiteral("pcie"), QStringLiteral("p2p")};

QString testTitle(const QString &test)
{
    if (test == QLatin1String("gemm"))
        return QObject::tr("GEMM (TFLOPS, results checked)");
    if (test == QLatin1String("hbm"))
        return QObject::tr("Memory (bandwidth, bit errors)");
    if (test == QLatin1String("pcie"))
        return QObject::tr("PCIe (host to device GB/s)");
    return QObject::tr("Peer to peer (NVLink GB/s)");
}

QString duration(int seconds)
{
    if (seconds < 120)
        return QObject::tr("%1 s").arg(seconds);
    return seconds % 60 ? QObject::tr("%1 min %2 s").arg(seconds / 60).arg(seconds % 60) : QObject::tr("%1 min").arg(seconds / 60);
}

QString count(int n, const QString &one, const QString &many)
{
    return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many);
}

// Why the scheduler would not start a burn-in job on this node now; empty: it would (a node
// not launched is launched for the job, which only takes longer).
QString refusal(const Node *node)
{
    if (!node)
        return QObject::tr("not in the last refresh");
    const QString reason = node->reason.isEmpty() ? QString() : QObject::tr(" (reason: %1)").arg(node->reason);
    if (node->power == PowerState::FailedToLaunch)
        return QObject::tr("failed to launch%1").arg(reason);
    if (node->power == PowerState::PoweringDown)
        return QObject::tr("powering down");
    if (node->isDown())
        return QObject::tr("down%1").arg(reason);
    if (node->isDrained())
        return QObject::tr("drained%1").arg(reason);
    return {};
}

} // namespace

BurninDialog::BurninDialog(const SnapshotPtr &snapshot, const QStringList &nodes, const QString &scope, QWidget *parent)
    : QDialog(parent), m_snapshot(snapshot), m_duration(new QSpinBox(this)),
      m_backend(new QComboBox(this)), m_drainOnFail(new QCheckBox(tr("&Drain the nodes that fail, with the failing GPU, test and figure as reason"), this)),
      m_summary(new QLabel(this)), m_warning(new QLabel(this))
{
    setObjectName(QStringLiteral("burninDialog"));
    setWindowTitle(tr("Burn-in: %1").arg(scope));
    for (const QString &n : nodes) {
        const Node *node = snapshot ? snapshot->node(n) : nullptr;
        const QString why = refusal(node);
        if (!why.isEmpty()) {
            m_leftOut.insert(n, why);
            continue;
        }
        m_nodes << n;
        m_gpusByNode.insert(n, node->gpuCount);
    }
    auto *layout = new QVBoxLayout(this);
    auto *form = new QFormLayout;
    QString targetText = m_nodes.isEmpty()
        ? tr("none of the %1 selected").arg(count(int(nodes.size()), tr("node"), tr("nodes")))
        : tr("<b>%1</b> (%2)").arg(Hostlist::compress(m_nodes).toHtmlEscaped(), count(int(m_nodes.size()), tr("node"), tr("nodes")));
    if (!m_leftOut.isEmpty())
        targetText += tr("; left out: %1").arg(Hostlist::compress(m_leftOut.keys()).toHtmlEscaped());
    auto *target = new QLabel(targetText, this);
    target->setObjectName(QStringLiteral("burninNodes"));
    target->setWordWrap(true);
    form->addRow(tr("Nodes:"), target);

    auto *tests = new QWidget(this);
    auto *testsLayout = new QVBoxLayout(tests);
    testsLayout->setContentsMargins(0, 0, 0, 0);
    for (const QString &t : kTests) {
        auto *box = new QCheckBox(testTitle(t), tests);
        box->setObjectName(QStringLiteral("test_") + t);
        box->setChecked(t == QLatin1String("gemm") || t == QLatin1String("hbm"));
        testsLayout->addWidget(box);
        m_tests.insert(t, box);
        connect(box, &QCheckBox::toggled, this, &BurninDialog::update);
    }
    form->addRow(tr("Tests:"), tests);

    m_duration->setObjectName(QStringLiteral("duration"));
    m_duration->setRange(1, 3600);
    m_duration->setValue(60);
    m_duration->setSuffix(tr(" s per test"));
    m_duration->setAccessibleName(tr("Duration per test in seconds"));
    form->addRow(tr("D&uration:"), m_duration);

    m_backend->setObjectName(QStringLiteral("backend"));
    m_backend->addItem(tr("CUDA (the GPUs)"), QStringLiteral("cuda"));
    m_backend->addItem(tr("CPU (simulated devices: checks the path, not the hardware)"), QStringLiteral("cpu"));
    m_backend->setAccessibleName(tr("Backend"));
    form->addRow(tr("&Backend:"), m_backend);
    m_drainOnFail->setObjectName(QStringLiteral("drainOnFail"));
    form->addRow(QString(), m_drainOnFail);
    layout->addLayout(form);

    m_summary->setObjectName(QStringLiteral("burninSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setFrameShape(QFrame::StyledPanel);
    m_summary->setMargin(6);
    layout->addWidget(m_summary);
    m_warning->setObjectName(QStringLiteral("burninWarning"));
    m_warning->setWordWrap(true);
    m_warning->setTextFormat(Qt::PlainText);
    layout->addWidget(m_warning);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_start = buttons->addButton(tr("&Start burn-in"), QDialogButtonBox::AcceptRole);
    m_start->setObjectName(QStringLiteral("startBurnin"));
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_duration, &QSpinBox::valueChanged, this, &BurninDialog::update);
    connect(m_backend, &QComboBox::currentIndexChanged, this, &BurninDialog::update);
    connect(m_drainOnFail, &QCheckBox::toggled, this, &BurninDialog::update);
    setMinimumWidth(600);
    update();
    adjustSize();
}

BurninRequest BurninDialog::request() const
{
    BurninRequest r;
    r.nodes = m_nodes;
    r.tests.clear();
    for (const QString &t : kTests)
        if (m_tests.value(t)->isChecked())
            r.tests << t;
    r.durationSeconds = m_duration->value();
    r.backend = m_backend->currentData().toString();
    r.drainOnFail = m_drainOnFail->isChecked();
    r.gpusByNode = m_gpusByNode;
    return r;
}

void BurninDialog::setTests(const QStringList &tests)
{
    for (auto it = m_tests.begin(); it != m_tests.end(); ++it)
        it.value()->setChecked(tests.contains(it.key()));
}

void BurninDialog::setDurationSeconds(int seconds)
{
    m_duration->setValue(seconds);
}

void BurninDialog::setBackend(const QString &backend)
{
    m_backend->setCurrentIndex(std::max(0, m_backend->findData(backend)));
}

void BurninDialog::setDrainOnFail(bool drain)
{
    m_drainOnFail->setChecked(drain);
}

QString BurninDialog::summary() const
{
    return m_summary->text();
}

QString BurninDialog::describe(const BurninRequest &request, const SnapshotPtr &snapshot)
{
    if (request.tests.isEmpty())
        return tr("Pick at least one test.");
    int gpus = 0;
    for (const QString &n : request.nodes)
        gpus += request.gpusByNode.value(n);
    const bool slurm = !snapshot || snapshot->orchestrator != OrchestratorKind::Kubernetes;
    const QString how = slurm ? tr("one exclusive Slurm job (one agent per node)") : tr("one Kubernetes Job per node");
    const QString backend = request.backend == QLatin1String("cpu")
        ? tr("the CPU backend (simulated devices: it checks the launch, protocol and judging, not the GPUs)")
        : tr("the CUDA backend");
    QString text = tr("Runs %1 for %2 each on every GPU of %3 (%4) through %5, with %6: "
                      "about %7 per node once the job starts.")
                       .arg(request.tests.join(QStringLiteral(", ")), duration(request.durationSeconds),
                            Hostlist::compress(request.nodes), count(gpus, tr("GPU"), tr("GPUs")), how, backend,
                            duration(request.durationSeconds * int(request.tests.size())));
    text += QLatin1Char(' ');
    text += tr("Each GPU is judged against its datasheet and against the other GPUs of its model in the run; "
               "the results are kept in the local burn-in history.");
    text += QLatin1Char(' ');
    text += request.drainOnFail ? tr("Nodes with a failing GPU are drained, the reason naming the GPU, test and figure; "
                                     "a node that runs another user's job is left alone and named.")
                                : tr("Nothing is drained: the verdict is only shown.");
    return text;
}

void BurninDialog::update()
{
    const BurninRequest r = request();
    m_summary->setText(describe(r, m_snapshot));
    // A wrapped label in a dialog gets the height of one line unless told (height-for-width).
    m_summary->setMinimumHeight(m_summary->heightForWidth(std::max(m_summary->width(), minimumWidth() - 24)));
    QStringList warnings;
    for (auto it = m_leftOut.cbegin(); it != m_leftOut.cend(); ++it)
        warnings << tr("%1 is left out: %2. The scheduler would not start the burn-in there, and the job "
                       "would wait until the node is resumed.").arg(it.key(), it.value());
    for (const QString &n : m_nodes) {
        const Node *node = m_snapshot->node(n); // every node kept is in the snapshot
        if (node->power == PowerState::PoweredDown || node->power == PowerState::PoweringUp)
            warnings << tr("%1 is not launched yet: the scheduler launches it for the burn-in first, which takes minutes.").arg(n);
        else if (node->gpusAllocated > 0 || node->cpusAllocated > 0)
            warnings << tr("%1 runs jobs: the exclusive burn-in job waits until they end.").arg(n);
        else if (node->gpuCount == 0)
            warnings << tr("%1 reports no GPUs.").arg(n);
    }
    if (warnings.size() > 6)
        warnings = warnings.mid(0, 6) << tr("… and %1 more.").arg(warnings.size() - 6);
    m_warning->setText(warnings.join(QLatin1Char('\n')));
    m_warning->setVisible(!warnings.isEmpty());
    m_start->setEnabled(!r.tests.isEmpty() && !m_nodes.isEmpty());
}

} // namespace strata
