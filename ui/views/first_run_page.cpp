#include "first_run_page.h"

#include "add_cluster_form.h"
#include "model/when_finished.h"
#include "model/pool_task.h"

#include <QDir>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace strata {

FirstRunPage::FirstRunPage(FirstRunSources sources, QWidget *parent)
    : QWidget(parent), m_sources(std::move(sources)), m_sshHosts(new QListWidget(this)), m_sshSummary(new QLabel(this)),
      m_useHost(new QPushButton(tr("&Use this host"), this)), m_labSummary(new QLabel(this)),
      m_useLab(new QPushButton(tr("Use the &lab"), this)), m_form(new AddClusterForm(this))
{
    setObjectName(QStringLiteral("firstRunPage"));
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    outer->addWidget(scroll);
    auto *content = new QWidget(scroll);
    scroll->setWidget(content);
    auto *columns = new QHBoxLayout(content);
    columns->setContentsMargins(24, 16, 24, 16);
    columns->setSpacing(24);

    auto *left = new QVBoxLayout;
    auto *title = new QLabel(tr("<h2>Connect Strata to a cluster</h2>"
                                "<p>Strata reaches a GPU cluster through SSH to its login node, asks the scheduler "
                                "(Slurm, or Kubernetes through kubectl) for nodes and jobs, and reads GPU metrics "
                                "from Prometheus. Pick a host you already use, the local lab, or fill in the form: "
                                "nothing is saved until the cluster answers.</p>"),
                             content);
    title->setWordWrap(true);
    title->setObjectName(QStringLiteral("firstRunTitle"));
    left->addWidget(title);

    auto *sshBox = new QGroupBox(tr("Hosts from ~/.ssh/config"), content);
    auto *sshLayout = new QVBoxLayout(sshBox);
    m_sshHosts->setObjectName(QStringLiteral("sshHosts"));
    m_sshHosts->setAccessibleName(tr("Hosts from ~/.ssh/config"));
    m_sshHosts->setMinimumHeight(120);
    m_sshSummary->setObjectName(QStringLiteral("sshSummary"));
    m_sshSummary->setWordWrap(true);
    m_useHost->setObjectName(QStringLiteral("useSshHost"));
    m_useHost->setEnabled(false);
    sshLayout->addWidget(m_sshHosts, 1);
    sshLayout->addWidget(m_sshSummary);
    sshLayout->addWidget(m_useHost, 0, Qt::AlignRight);
    left->addWidget(sshBox, 1);

    auto *labBox = new QGroupBox(tr("Local demo lab"), content);
    auto *labLayout = new QVBoxLayout(labBox);
    m_labSummary->setObjectName(QStringLiteral("labSummary"));
    m_labSummary->setWordWrap(true);
    m_labSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_useLab->setObjectName(QStringLiteral("useLab"));
    m_useLab->setEnabled(false);
    labLayout->addWidget(m_labSummary);
    labLayout->addWidget(m_useLab, 0, Qt::AlignRight);
    left->addWidget(labBox);
    columns->addLayout(left, 1);

    auto *formBox = new QGroupBox(tr("Add a cluster"), content);
    auto *formLayout = new QVBoxLayout(formBox);
    formLayout->addWidget(m_form);
    formLayout->addStretch(1);
    columns->addWidget(formBox, 1);

    connect(m_sshHosts, &QListWidget::currentRowChanged, this, [this](int row) { m_useHost->setEnabled(row >= 0); });
    connect(m_sshHosts, &QListWidget::itemActivated, this, [this] { useSshHost(m_sshHosts->currentRow()); });
    connect(m_useHost, &QPushButton::clicked, this, [this] { useSshHost(m_sshHosts->currentRow()); });
    connect(m_useLab, &QPushButton::clicked, this, [this] { useLab(0); });
    connect(m_form, &AddClusterForm::accepted, this, &FirstRunPage::profileReady);
    m_sshSummary->setText(tr("Reading ~/.ssh/config…"));
    m_labSummary->setText(tr("Looking for a lab…"));
    reload();
}

void FirstRunPage::setTakenNames(const QStringList &names)
{
    m_taken = names;
    m_form->setTakenNames(names);
}

FirstRunPage::Candidates FirstRunPage::readCandidates(const FirstRunSources &s)
{
    Candidates c;
    const QString home = s.homeDir.isEmpty() ? QDir::homePath() : s.homeDir;
    const QString sshDir = s.sshDir.isEmpty() ? home + QStringLiteral("/.ssh") : s.sshDir;
    const QString config = s.sshConfigPath.isEmpty() ? sshDir + QStringLiteral("/config") : s.sshConfigPath;
    QString user = s.localUser.isEmpty() ? qEnvironmentVariable("USER") : s.localUser;
    const SshHostList r = SshHostList::read(config, sshDir, home, user);
    c.sshConfigFound = r.found;
    c.hosts = r.hosts;
    c.notes = r.notes;
    c.labs = LocalLabFinder::find(s.labDirectories.isEmpty() ? LocalLabFinder::defaultDirectories() : s.labDirectories,
                                  &c.labProblems);
    return c;
}

void FirstRunPage::reload()
{
    whenFinished(runOnPool(nullptr, &FirstRunPage::readCandidates, m_sources), this,
                 [this](const Candidates &c) { showCandidates(c); });
}

void FirstRunPage::showCandidates(const Candidates &c)
{
    m_hostsFound = c.hosts;
    m_notes = c.notes;
    m_labsFound = c.labs;
    m_sshHosts->clear();
    for (const SshHostList::Host &h : c.hosts) {
        QString target = h.user.isEmpty() ? QString() : h.user + QLatin1Char('@');
        target += h.effectiveHostName();
        if (h.port > 0)
            target += QLatin1Char(':') + QString::number(h.port);
        QString line = QStringLiteral("%1  \u2014  %2").arg(h.alias, target);
        if (!h.proxyJump.isEmpty())
            line += tr("  (through %1)").arg(h.proxyJump);
        else if (!h.proxyCommand.isEmpty())
            line += tr("  (through ProxyCommand %1)").arg(h.proxyCommand);
        auto *item = new QListWidgetItem(line, m_sshHosts);
        item->setToolTip(tr("%1, line %2").arg(h.file).arg(h.line));
    }
    if (!c.sshConfigFound)
        m_sshSummary->setText(tr("No ~/.ssh/config: hosts you list there show up here."));
    else if (c.hosts.isEmpty())
        m_sshSummary->setText(tr("~/.ssh/config names no host without wildcards."));
    else
        m_sshSummary->setText(c.hosts.size() == 1 ? tr("1 host. Pick it and Use it to fill the form.")
                                                  : tr("%1 hosts. Pick one and Use it to fill the form.").arg(c.hosts.size()));
    if (!c.notes.isEmpty())
        m_sshSummary->setText(m_sshSummary->text() + QLatin1Char('\n') + sshNotesText());

    if (c.labs.isEmpty()) {
        m_labSummary->setText(tr("No lab on this machine. scripts/demo (or lab/lab up) in a Strata checkout "
                                 "starts one: real Slurm, sshd and Prometheus on 127.0.0.1."));
        m_useLab->setEnabled(false);
    } else {
        const LocalLab &lab = c.labs.first();
        const QString version = lab.slurmVersion.isEmpty() ? QString() : tr("Slurm %1 ").arg(lab.slurmVersion);
        m_labSummary->setText(lab.running ? tr("%1lab in %2 is running (%3).").arg(version, lab.directory, lab.profile.sshTarget())
                                          : tr("%1lab in %2 is set up but not running: lab/lab up --dir %2")
                                                .arg(version, lab.directory));
        m_useLab->setEnabled(true);
    }
    for (const QString &problem : c.labProblems)
        m_labSummary->setText(m_labSummary->text() + QLatin1Char('\n') + tr("Left out: %1").arg(problem));
    Q_EMIT candidatesLoaded();
}

QString FirstRunPage::sshNotesText() const
{
    QStringList lines;
    for (const SshHostList::Note &n : m_notes)
        lines << tr("%1:%2: %3").arg(QFileInfo(n.file).fileName()).arg(n.line).arg(n.text);
    return lines.join(QLatin1Char('\n'));
}

QString FirstRunPage::uniqueName(const QString &wanted) const
{
    QString name = wanted;
    for (int i = 2; m_taken.contains(name); ++i)
        name = QStringLiteral("%1-%2").arg(wanted).arg(i);
    return name;
}

void FirstRunPage::useSshHost(int index)
{
    if (index < 0 || index >= m_hostsFound.size())
        return;
    const SshHostList::Host &h = m_hostsFound[index];
    ClusterProfile p;
    p.name = uniqueName(h.alias);
    // The alias, not its HostName: libssh reads ~/.ssh/config itself when it connects, so
    // ProxyJump and the options Strata does not show still apply.
    p.sshHost = h.alias;
    p.sshUser = h.user;
    p.sshPort = h.port; // 0: from ~/.ssh/config, else 22
    p.identityFile = h.identityFile;
    m_form->setProfile(p);
}

void FirstRunPage::useLab(int index)
{
    if (index < 0 || index >= m_labsFound.size())
        return;
    ClusterProfile p = m_labsFound[index].profile;
    p.name = uniqueName(p.name);
    m_form->setProfile(p);
}

} // namespace strata
