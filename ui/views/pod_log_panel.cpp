#include "pod_log_panel.h"

#include "kubernetes/kube_inspector.h"
#include "kubernetes/kube_kinds.h"
#include "kubernetes/kube_pod_containers.h"
#include "model/when_finished.h"
#include "session/cluster_session.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace strata {

PodLogPanel::PodLogPanel(ClusterSession *session, const QStringList &pods, QWidget *parent)
    : QWidget(parent), m_session(session)
{
    setObjectName(QStringLiteral("podLogPanel"));
    auto *layout = new QVBoxLayout(this);
    auto *row = new QHBoxLayout;
    m_pod = new QComboBox(this);
    m_pod->setObjectName(QStringLiteral("logPod"));
    m_pod->addItems(pods);
    m_pod->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_container = new QComboBox(this);
    m_container->setObjectName(QStringLiteral("logContainer"));
    m_container->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_previous = new QCheckBox(tr("Previous"), this);
    m_previous->setObjectName(QStringLiteral("logPrevious"));
    m_previous->setToolTip(tr("The log of the container's instance before its last restart"));
    m_tail = new QSpinBox(this);
    m_tail->setObjectName(QStringLiteral("logTail"));
    m_tail->setRange(0, 100000);
    m_tail->setValue(1000);
    m_tail->setSpecialValueText(tr("all"));
    m_tail->setPrefix(tr("last "));
    m_tail->setSuffix(tr(" lines"));
    auto *refresh = new QPushButton(tr("Refresh"), this);
    refresh->setObjectName(QStringLiteral("logRefresh"));
    row->addWidget(new QLabel(tr("Pod:"), this));
    row->addWidget(m_pod);
    row->addWidget(new QLabel(tr("Container:"), this));
    row->addWidget(m_container);
    row->addWidget(m_previous);
    row->addWidget(m_tail);
    row->addStretch(1);
    row->addWidget(refresh);
    layout->addLayout(row);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("logStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    layout->addWidget(m_status);
    m_text = new QPlainTextEdit(this);
    m_text->setObjectName(QStringLiteral("logText"));
    m_text->setReadOnly(true);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setMaximumBlockCount(200000);
    layout->addWidget(m_text, 1);

    connect(m_pod, &QComboBox::currentIndexChanged, this, &PodLogPanel::readContainers);
    connect(m_container, &QComboBox::activated, this, [this] {
        m_previous->setEnabled(m_container->currentData(Qt::UserRole + 1).toBool());
        if (!m_previous->isEnabled())
            m_previous->setChecked(false);
        readLog();
    });
    connect(m_previous, &QCheckBox::toggled, this, &PodLogPanel::readLog);
    connect(refresh, &QPushButton::clicked, this, &PodLogPanel::refresh);
}

void PodLogPanel::refresh()
{
    readContainers();
}

// The pod's containers (its object), then the chosen one's log.
void PodLogPanel::readContainers()
{
    KubeInspector *inspector = m_session ? m_session->kubeInspector() : nullptr;
    const QString podId = m_pod->currentText();
    if (!inspector || podId.isEmpty()) {
        m_status->setText(inspector ? tr("The workload has no pods now") : tr("Not connected to a Kubernetes cluster"));
        return;
    }
    const quint64 generation = ++m_generation;
    const KubeObjectRef ref = KubeKinds::reference(*KubeKinds::fromWord(QStringLiteral("pod")),
                                                   podId.section(u'/', 0, 0), podId.section(u'/', 1));
    ++m_reading;
    m_status->setText(tr("Reading %1…").arg(podId));
    whenFinished(inspector->object(ref), this, [this, generation](const KubeObjectResult &r) {
        --m_reading;
        if (generation != m_generation)
            return;
        QString error = r.error;
        const std::optional<KubePodSummary> pod = r.ok ? KubePodContainers::parsePod(r.json, &error) : std::nullopt;
        if (!pod) {
            m_status->setText(error);
            return;
        }
        const QString chosen = m_container->currentData().toString();
        m_container->clear();
        for (const KubePodContainer &c : pod->containers) {
            QString label = c.name;
            if (c.init)
                label += tr(" (init)");
            if (c.restartCount > 0)
                label += tr(" — %n restart(s)", nullptr, c.restartCount);
            m_container->addItem(label, c.name);
            m_container->setItemData(m_container->count() - 1, c.hasPrevious, Qt::UserRole + 1);
            m_container->setItemData(m_container->count() - 1, c.state, Qt::ToolTipRole);
        }
        // The container chosen before, else the first that is not an init container.
        int index = m_container->findData(chosen);
        for (int i = 0; index < 0 && i < pod->containers.size(); ++i)
            if (!pod->containers.at(i).init)
                index = i;
        m_container->setCurrentIndex(qMax(0, index));
        m_previous->setEnabled(m_container->currentData(Qt::UserRole + 1).toBool());
        if (!m_previous->isEnabled())
            m_previous->setChecked(false);
        readLog();
    });
}

void PodLogPanel::readLog()
{
    KubeInspector *inspector = m_session ? m_session->kubeInspector() : nullptr;
    if (!inspector || m_pod->currentText().isEmpty())
        return;
    KubeLogRequest request;
    request.podId = m_pod->currentText();
    request.container = m_container->currentData().toString();
    request.previous = m_previous->isChecked();
    request.tailLines = m_tail->value();
    const quint64 generation = ++m_generation;
    ++m_reading;
    m_status->setText(tr("Reading the log of %1…").arg(request.podId + u'/' + request.container));
    whenFinished(inspector->logs(request), this, [this, generation, request](const KubeLogResult &r) {
        --m_reading;
        if (generation != m_generation)
            return;
        if (!r.ok) {
            m_status->setText(r.error);
            m_text->clear();
            return;
        }
        m_text->setPlainText(r.text);
        m_text->moveCursor(QTextCursor::End);
        m_status->setText(tr("%1 of %2, %3 lines").arg(request.previous ? tr("Previous log") : tr("Log"),
                                                       r.target).arg(r.text.count(u'\n')));
    });
}

QString PodLogPanel::logText() const
{
    return m_text->toPlainText();
}

QString PodLogPanel::statusText() const
{
    return m_status->text();
}

} // namespace strata
