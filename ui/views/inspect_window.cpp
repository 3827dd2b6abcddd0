#include "inspect_window.h"

#include "pod_log_panel.h"
#include "port_forward_panel.h"

#include "kubernetes/kube_event_parser.h"
#include "kubernetes/kube_inspector.h"
#include "kubernetes/kube_kinds.h"
#include "model/job.h"
#include "model/when_finished.h"
#include "session/cluster_session.h"

#include <QDateTime>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace strata {

namespace {

QString age(qint64 then)
{
    if (then <= 0)
        return QStringLiteral("-");
    const qint64 s = qMax<qint64>(0, QDateTime::currentSecsSinceEpoch() - then);
    if (s < 120)
        return QStringLiteral("%1s").arg(s);
    if (s < 2 * 3600)
        return QStringLiteral("%1m").arg(s / 60);
    if (s < 2 * 86400)
        return QStringLiteral("%1h").arg(s / 3600);
    return QStringLiteral("%1d").arg(s / 86400);
}

} // namespace

InspectWindow::InspectWindow(ClusterSession *session, const KubeObjectRef &object, const QStringList &pods,
                             QWidget *parent)
    : QWidget(parent, Qt::Window), m_session(session), m_object(object)
{
    setObjectName(QStringLiteral("inspectWindow"));
    const bool clusterWide = object.isEmpty();
    setWindowTitle(clusterWide ? tr("Kubernetes events") : tr("Inspect %1").arg(object.display()));
    auto *layout = new QVBoxLayout(this);
    auto *top = new QHBoxLayout;
    auto *title = new QLabel(clusterWide ? tr("Recent events of the cluster, warnings first") : object.display(), this);
    title->setTextFormat(Qt::PlainText);
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);
    top->addWidget(title, 1);
    auto *refreshButton = new QPushButton(tr("Refresh"), this);
    refreshButton->setObjectName(QStringLiteral("inspectRefresh"));
    connect(refreshButton, &QPushButton::clicked, this, &InspectWindow::refresh);
    top->addWidget(refreshButton);
    layout->addLayout(top);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("inspectStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    layout->addWidget(m_status);

    m_tabs = new QTabWidget(this);
    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    if (!clusterWide) {
        m_yaml = new QPlainTextEdit(this);
        m_yaml->setObjectName(QStringLiteral("inspectYaml"));
        m_yaml->setReadOnly(true);
        m_yaml->setFont(fixed);
        m_yaml->setLineWrapMode(QPlainTextEdit::NoWrap);
        m_tabs->addTab(m_yaml, tr("YAML"));
    }
    m_events = new QTableWidget(0, clusterWide ? 7 : 6, this);
    m_events->setObjectName(QStringLiteral("inspectEvents"));
    QStringList header{tr("Last seen"), tr("Type"), tr("Reason"), tr("Object"), tr("Count"), tr("Message")};
    if (clusterWide)
        header.prepend(tr("Namespace"));
    m_events->setHorizontalHeaderLabels(header);
    m_events->horizontalHeader()->setStretchLastSection(true);
    m_events->verticalHeader()->hide();
    m_events->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_events->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tabs->addTab(m_events, tr("Events"));
    if (!clusterWide && !pods.isEmpty()) {
        m_logs = new PodLogPanel(session, pods, this);
        m_tabs->addTab(m_logs, tr("Logs"));
        m_forwards = new PortForwardPanel(session, pods, this);
        m_tabs->addTab(m_forwards, tr("Port-forward"));
    }
    layout->addWidget(m_tabs, 1);
    resize(900, 640);
    refresh();
}

KubeObjectRef InspectWindow::referenceOf(const Job &job)
{
    return KubeKinds::reference(KubeKinds::forKind(job.workloadApiVersion, job.workloadKind), job.partition, job.name);
}

void InspectWindow::refresh()
{
    if (m_yaml)
        readYaml();
    readEvents();
    if (m_logs)
        m_logs->refresh();
}

void InspectWindow::readYaml()
{
    KubeInspector *inspector = m_session ? m_session->kubeInspector() : nullptr;
    if (!inspector) {
        m_yamlError = tr("Not connected to a Kubernetes cluster");
        setStatus();
        return;
    }
    ++m_pending;
    setStatus();
    whenFinished(inspector->object(m_object), this, [this](const KubeObjectResult &r) {
        --m_pending;
        m_yamlError = r.ok ? QString() : r.error;
        if (r.ok) {
            const int scroll = m_yaml->verticalScrollBar()->value();
            m_yaml->setPlainText(QString::fromUtf8(r.yaml));
            m_yaml->verticalScrollBar()->setValue(scroll);
        }
        setStatus();
    });
}

void InspectWindow::readEvents()
{
    KubeInspector *inspector = m_session ? m_session->kubeInspector() : nullptr;
    if (!inspector) {
        m_eventsError = tr("Not connected to a Kubernetes cluster");
        setStatus();
        return;
    }
    ++m_pending;
    setStatus();
    whenFinished(inspector->events(m_object), this, [this](const KubeEventsResult &r) {
        --m_pending;
        m_eventsError = r.ok ? QString() : r.error;
        if (r.ok) {
            const bool clusterWide = m_object.isEmpty();
            m_events->setRowCount(int(r.events.size()));
            for (int row = 0; row < r.events.size(); ++row) {
                const KubeEvent &e = r.events.at(row);
                QStringList cells{age(e.lastSeen), KubeEventParser::typeName(e), e.reason,
                                  e.objectKind.toLower() + u'/' + e.objectName
                                      + (e.fieldPath.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(e.fieldPath)),
                                  QString::number(e.count), e.message};
                if (clusterWide)
                    cells.prepend(e.namespaceName);
                for (int column = 0; column < cells.size(); ++column) {
                    auto *item = new QTableWidgetItem(cells.at(column));
                    if (e.type == KubeEvent::Type::Warning)
                        item->setForeground(QColor(0xb0, 0x3a, 0x00));
                    item->setToolTip(column == cells.size() - 1 ? e.message : QString());
                    m_events->setItem(row, column, item);
                }
            }
            m_events->resizeColumnsToContents();
            m_tabs->setTabText(m_tabs->indexOf(m_events),
                               r.events.isEmpty() ? tr("Events") : tr("Events (%1)").arg(r.events.size()));
        }
        setStatus();
    });
}

void InspectWindow::setStatus()
{
    QStringList parts;
    if (m_pending > 0)
        parts << tr("Reading…");
    if (!m_yamlError.isEmpty())
        parts << tr("YAML: %1").arg(m_yamlError);
    if (!m_eventsError.isEmpty())
        parts << tr("Events: %1").arg(m_eventsError);
    m_status->setText(parts.join(QStringLiteral("  ")));
    m_status->setVisible(!parts.isEmpty());
}

QString InspectWindow::yamlText() const
{
    return m_yaml ? m_yaml->toPlainText() : QString();
}

QString InspectWindow::statusText() const
{
    return m_status->text();
}

} // namespace strata
