#include "connections_panel.h"

#include "color_map.h"
#include "unit_formatter.h"

#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace strata {

namespace {

QString sourceTitle(SourceKind source)
{
    switch (source) {
    case SourceKind::Ssh: return QStringLiteral("SSH");
    case SourceKind::Slurm: return QStringLiteral("Slurm");
    case SourceKind::Prometheus: return QStringLiteral("Prometheus");
    case SourceKind::Kubernetes: return QStringLiteral("Kubernetes");
    }
    return sourceKindName(source);
}

} // namespace

ConnectionsPanel::ConnectionsPanel(QWidget *parent)
    : QWidget(parent), m_profiles(new QListWidget(this)), m_add(new QPushButton(tr("&Add…"), this)),
      m_edit(new QPushButton(tr("&Edit…"), this)), m_remove(new QPushButton(tr("Remove"), this)),
      m_connect(new QPushButton(tr("&Connect"), this)),
      m_disconnect(new QPushButton(tr("&Disconnect"), this)), m_message(new QLabel(this)),
      m_sources(new QTreeWidget(this)), m_problems(new QLabel(this)), m_ageTimer(new QTimer(this))
{
    setObjectName(QStringLiteral("connections"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto *clusters = new QLabel(tr("Clusters"), this);
    QFont bold = clusters->font();
    bold.setBold(true);
    clusters->setFont(bold);
    layout->addWidget(clusters);
    m_profiles->setObjectName(QStringLiteral("profiles"));
    layout->addWidget(m_profiles, 2);
    auto *buttons = new QGridLayout;
    m_add->setObjectName(QStringLiteral("addProfile"));
    m_edit->setObjectName(QStringLiteral("editProfile"));
    m_remove->setObjectName(QStringLiteral("removeProfile"));
    m_connect->setObjectName(QStringLiteral("connect"));
    m_disconnect->setObjectName(QStringLiteral("disconnect"));
    buttons->addWidget(m_add, 0, 0);
    buttons->addWidget(m_edit, 0, 1);
    buttons->addWidget(m_remove, 0, 2);
    buttons->addWidget(m_connect, 1, 0, 1, 2);
    buttons->addWidget(m_disconnect, 1, 2);
    layout->addLayout(buttons);
    m_message->setObjectName(QStringLiteral("connectionMessage"));
    m_message->setWordWrap(true);
    m_message->setTextFormat(Qt::PlainText);
    layout->addWidget(m_message);

    auto *sources = new QLabel(tr("Sources"), this);
    sources->setFont(bold);
    layout->addWidget(sources);
    m_sources->setObjectName(QStringLiteral("sources"));
    m_sources->setColumnCount(3);
    m_sources->setHeaderLabels({tr("Source"), tr("Status"), tr("Last refresh")});
    m_sources->setRootIsDecorated(false);
    m_sources->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_sources->setMinimumHeight(m_sources->fontMetrics().height() * 6);
    layout->addWidget(m_sources, 1);
    m_problems->setObjectName(QStringLiteral("sourceProblems"));
    m_problems->setWordWrap(true);
    m_problems->setTextFormat(Qt::PlainText);
    m_problems->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_problems);

    connect(m_add, &QPushButton::clicked, this, &ConnectionsPanel::addRequested);
    connect(m_edit, &QPushButton::clicked, this, [this] {
        if (!selectedProfile().isEmpty())
            Q_EMIT editRequested(selectedProfile());
    });
    connect(m_remove, &QPushButton::clicked, this, [this] {
        if (!selectedProfile().isEmpty())
            Q_EMIT removeRequested(selectedProfile());
    });
    connect(m_connect, &QPushButton::clicked, this, [this] {
        if (!selectedProfile().isEmpty())
            Q_EMIT connectRequested(selectedProfile());
    });
    connect(m_profiles, &QListWidget::itemActivated, this,
            [this](QListWidgetItem *item) { Q_EMIT connectRequested(item->data(Qt::UserRole).toString()); });
    connect(m_disconnect, &QPushButton::clicked, this, &ConnectionsPanel::disconnectRequested);
    connect(m_profiles, &QListWidget::currentRowChanged, this, &ConnectionsPanel::updateButtons);
    m_ageTimer->setInterval(1000);
    connect(m_ageTimer, &QTimer::timeout, this, &ConnectionsPanel::renderSources);
    updateButtons();
}

void ConnectionsPanel::setProfiles(const QVector<ClusterProfile> &profiles)
{
    const QString selected = selectedProfile();
    m_profiles->clear();
    for (const ClusterProfile &p : profiles) {
        auto *item = new QListWidgetItem(QStringLiteral("%1\n%2 \u00b7 %3").arg(p.name, orchestratorKindName(p.orchestrator), p.sshTarget()),
                                         m_profiles);
        item->setData(Qt::UserRole, p.name);
    }
    selectProfile(selected.isEmpty() && !profiles.isEmpty() ? profiles.first().name : selected);
    setConnected(m_connected);
}

QString ConnectionsPanel::selectedProfile() const
{
    const QListWidgetItem *item = m_profiles->currentItem();
    return item ? item->data(Qt::UserRole).toString() : QString();
}

void ConnectionsPanel::selectProfile(const QString &name)
{
    for (int row = 0; row < m_profiles->count(); ++row)
        if (m_profiles->item(row)->data(Qt::UserRole).toString() == name)
            m_profiles->setCurrentRow(row);
    updateButtons();
}

void ConnectionsPanel::setConnected(const QString &name)
{
    m_connected = name;
    for (int row = 0; row < m_profiles->count(); ++row) {
        QListWidgetItem *item = m_profiles->item(row);
        QFont f = item->font();
        f.setBold(item->data(Qt::UserRole).toString() == name);
        item->setFont(f);
    }
    if (name.isEmpty()) {
        m_statuses.clear();
        m_ageTimer->stop();
        renderSources();
    } else {
        m_ageTimer->start();
    }
    updateButtons();
}

void ConnectionsPanel::updateButtons()
{
    const bool selected = !selectedProfile().isEmpty();
    m_edit->setEnabled(selected);
    m_remove->setEnabled(selected && selectedProfile() != m_connected);
    m_connect->setEnabled(selected && selectedProfile() != m_connected);
    m_disconnect->setEnabled(!m_connected.isEmpty());
}

void ConnectionsPanel::setSources(const QVector<SourceStatus> &sources)
{
    m_statuses = sources;
    renderSources();
}

void ConnectionsPanel::setMessage(const QString &text)
{
    m_message->setText(text);
}

QString ConnectionsPanel::message() const
{
    return m_message->text();
}

QString ConnectionsPanel::problemsText() const
{
    return m_problems->text();
}

void ConnectionsPanel::renderSources()
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QStringList problems;
    // Reuse the rows: the age column changes every second.
    while (m_sources->topLevelItemCount() > m_statuses.size())
        delete m_sources->takeTopLevelItem(m_sources->topLevelItemCount() - 1);
    for (int i = 0; i < m_statuses.size(); ++i) {
        const SourceStatus &s = m_statuses[i];
        QTreeWidgetItem *item = m_sources->topLevelItem(i);
        if (!item)
            item = new QTreeWidgetItem(m_sources);
        QString state;
        QColor colour;
        if (!s.configured) {
            state = tr("not configured");
            colour = palette().color(QPalette::PlaceholderText);
        } else if (s.ok && s.error.isEmpty()) {
            state = tr("ok");
            colour = ColorMap::freeColor();
        } else if (s.ok) {
            state = tr("ok, with warnings");
            colour = ColorMap::severityColor(Finding::Severity::Warning);
        } else if (!s.lastAttempt.isValid()) {
            state = tr("connecting…");
            colour = palette().color(QPalette::PlaceholderText);
        } else {
            state = s.stale ? tr("failing (data shown is stale)") : tr("failing");
            colour = ColorMap::severityColor(Finding::Severity::Critical);
        }
        item->setText(0, sourceTitle(s.source));
        item->setText(1, state);
        item->setForeground(1, colour);
        QString age = s.configured ? UnitFormatter::age(s.lastSuccess, now) : UnitFormatter::dash();
        if (s.configured && s.lastDurationMs >= 0)
            age += tr(" (took %1 ms)").arg(s.lastDurationMs);
        item->setText(2, age);
        // How the source is reached, where it has more than one way (Kubernetes: the API server
        // directly through an SSH tunnel, or kubectl on the login node).
        const QString via = s.via.isEmpty() ? QString() : tr("Read from %1").arg(s.via);
        for (int column = 0; column < 3; ++column)
            item->setToolTip(column, via);
        if (!s.error.isEmpty())
            problems << QStringLiteral("%1: %2").arg(sourceTitle(s.source), s.error);
    }
    m_problems->setText(problems.join(QLatin1Char('\n')));
}

} // namespace strata
