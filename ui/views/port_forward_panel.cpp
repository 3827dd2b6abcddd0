#include "port_forward_panel.h"

#include "kubernetes/kube_inspector.h"
#include "kubernetes/kube_kinds.h"
#include "kubernetes/kube_port_forward.h"
#include "model/when_finished.h"
#include "session/cluster_session.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace strata {

PortForwardPanel::PortForwardPanel(ClusterSession *session, const QStringList &pods, QWidget *parent)
    : QWidget(parent), m_session(session)
{
    setObjectName(QStringLiteral("portForwardPanel"));
    auto *layout = new QVBoxLayout(this);
    auto *row = new QHBoxLayout;
    m_target = new QComboBox(this);
    m_target->setObjectName(QStringLiteral("forwardTarget"));
    m_target->setEditable(true); // svc/NAME may be typed
    for (const QString &pod : pods)
        m_target->addItem(QStringLiteral("pod/%1").arg(pod.section(u'/', 1)), pod.section(u'/', 0, 0));
    m_target->setToolTip(tr("A pod of the workload, or svc/NAME of a Service in its namespace"));
    m_remote = new QLineEdit(this);
    m_remote->setObjectName(QStringLiteral("forwardRemotePort"));
    m_remote->setPlaceholderText(tr("port or name (8000, http)"));
    m_local = new QSpinBox(this);
    m_local->setObjectName(QStringLiteral("forwardLocalPort"));
    m_local->setRange(0, 65535);
    m_local->setSpecialValueText(tr("any free port"));
    m_forward = new QPushButton(tr("Forward"), this);
    m_forward->setObjectName(QStringLiteral("forwardStart"));
    row->addWidget(new QLabel(tr("Target:"), this));
    row->addWidget(m_target, 1);
    row->addWidget(new QLabel(tr("Port:"), this));
    row->addWidget(m_remote);
    row->addWidget(new QLabel(tr("Local:"), this));
    row->addWidget(m_local);
    row->addWidget(m_forward);
    layout->addLayout(row);
    auto *route = new QLabel(tr("Each connection is an SSH channel from the login node to the pod's IP: pod IPs must be "
                                "routable from the login node (EKS with the VPC CNI)."),
                             this);
    route->setWordWrap(true);
    layout->addWidget(route);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("forwardStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    layout->addWidget(m_status);
    m_table = new QTableWidget(0, 5, this);
    m_table->setObjectName(QStringLiteral("forwardTable"));
    m_table->setHorizontalHeaderLabels({tr("Local URL"), tr("Forwards to"), tr("Connections"), tr("Last error"), QString()});
    m_table->horizontalHeader()->setSectionResizeMode(3, QHeaderView::Stretch);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    layout->addWidget(m_table, 1);
    connect(m_forward, &QPushButton::clicked, this, &PortForwardPanel::startForward);
    connect(m_remote, &QLineEdit::returnPressed, this, &PortForwardPanel::startForward);
}

PortForwardPanel::~PortForwardPanel() = default;

void PortForwardPanel::startForward()
{
    KubeInspector *inspector = m_session ? m_session->kubeInspector() : nullptr;
    if (!inspector) {
        m_status->setText(tr("Not connected to a Kubernetes cluster"));
        return;
    }
    if (m_resolving)
        return;
    QString ns = m_target->currentData().toString();
    if (ns.isEmpty() && m_target->count() > 0)
        ns = m_target->itemData(0).toString();
    QString error;
    const std::optional<KubeObjectRef> ref = KubeKinds::parseTarget(m_target->currentText().trimmed(), ns, &error);
    if (!ref) {
        m_status->setText(error);
        return;
    }
    const QString port = m_remote->text().trimmed();
    const quint16 local = quint16(m_local->value());
    m_resolving = true;
    m_forward->setEnabled(false);
    m_status->setText(tr("Resolving %1 port %2…").arg(ref->display(), port));
    whenFinished(inspector->resolveForward(*ref, port), this, [this, local](const KubeForwardTarget &target) {
        m_resolving = false;
        m_forward->setEnabled(true);
        KubeInspector *inspector = m_session ? m_session->kubeInspector() : nullptr;
        if (!target.ok || !inspector) {
            m_status->setText(target.ok ? tr("Not connected to a Kubernetes cluster") : target.error);
            return;
        }
        QString error;
        std::unique_ptr<KubePortForward> forward = inspector->openForward(target, local, &error);
        if (!forward) {
            m_status->setText(error);
            return;
        }
        KubePortForward *raw = forward.get();
        connect(raw, &KubePortForward::connectionsChanged, this, &PortForwardPanel::updateTable);
        connect(raw, &KubePortForward::connectionFailed, this, [this](const QString &message) {
            m_status->setText(message);
            updateTable();
        });
        m_status->setText(tr("Forwarding %1 (pod %2): open %3").arg(raw->describe(), target.podId(), raw->localUrl()));
        m_forwards.push_back(std::move(forward));
        updateTable();
    });
}

void PortForwardPanel::closeForward(int row)
{
    if (row < 0 || row >= int(m_forwards.size()))
        return;
    m_forwards.at(row)->close();
    m_status->setText(tr("Closed %1").arg(m_forwards.at(row)->describe()));
    m_forwards.erase(m_forwards.begin() + row);
    updateTable();
}

void PortForwardPanel::updateTable()
{
    m_table->setRowCount(int(m_forwards.size()));
    for (int row = 0; row < int(m_forwards.size()); ++row) {
        const KubePortForward &f = *m_forwards.at(row);
        const QStringList cells{f.localUrl(),
                                QStringLiteral("%1 (%2:%3)").arg(f.target().podId(), f.target().podIp).arg(f.target().port),
                                tr("%1 open, %2 so far").arg(f.openConnections()).arg(f.connectionsAccepted()),
                                f.lastError()};
        for (int column = 0; column < cells.size(); ++column) {
            auto *item = new QTableWidgetItem(cells.at(column));
            item->setToolTip(cells.at(column));
            m_table->setItem(row, column, item);
        }
        auto *close = new QPushButton(tr("Close"), m_table);
        close->setObjectName(QStringLiteral("forwardClose%1").arg(row));
        const KubePortForward *which = &f;
        connect(close, &QPushButton::clicked, this, [this, which] {
            for (int i = 0; i < int(m_forwards.size()); ++i)
                if (m_forwards.at(i).get() == which)
                    closeForward(i);
        });
        m_table->setCellWidget(row, 4, close);
    }
    m_table->resizeColumnsToContents();
    m_table->horizontalHeader()->setSectionResizeMode(3, QHeaderView::Stretch); // the last error takes the room
}

QString PortForwardPanel::statusText() const
{
    return m_status->text();
}

} // namespace strata
