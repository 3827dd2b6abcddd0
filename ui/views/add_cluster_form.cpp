#include "add_cluster_form.h"

#include "dialogs/login_question_dialog.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QUrl>
#include <QVBoxLayout>

namespace strata {

AddClusterForm::AddClusterForm(QWidget *parent)
    : QWidget(parent), m_check(new ConnectionCheck(this))
{
    setObjectName(QStringLiteral("addClusterForm"));
    auto *layout = new QVBoxLayout(this);
    auto *form = new QFormLayout;
    m_name = lineEdit(QStringLiteral("name"), tr("e.g. prod-east"));
    m_host = lineEdit(QStringLiteral("loginHost"), tr("login node or bastion, or a Host from ~/.ssh/config"));
    m_user = lineEdit(QStringLiteral("user"), tr("empty: from ~/.ssh/config, else your local user"));
    m_port = new QSpinBox(this);
    m_port->setObjectName(QStringLiteral("port"));
    m_port->setRange(0, 65535);
    m_port->setSpecialValueText(tr("from ~/.ssh/config, else 22"));
    m_port->setAccessibleName(tr("SSH port"));
    m_identity = lineEdit(QStringLiteral("identity"), tr("empty: ssh-agent, then ~/.ssh/id_*"));
    auto *browse = new QPushButton(tr("Browse…"), this);
    browse->setObjectName(QStringLiteral("browseIdentity"));
    connect(browse, &QPushButton::clicked, this, [this] {
        auto *dialog = new QFileDialog(this, tr("SSH private key"), QDir::homePath() + QStringLiteral("/.ssh"));
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->setFilter(QDir::Files | QDir::Hidden);
        connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &file) { m_identity->setText(file); });
        dialog->open();
    });
    auto *identityRow = new QHBoxLayout;
    identityRow->addWidget(m_identity, 1);
    identityRow->addWidget(browse);
    m_scheduler = new QComboBox(this);
    m_scheduler->setObjectName(QStringLiteral("scheduler"));
    m_scheduler->setAccessibleName(tr("Scheduler"));
    m_scheduler->addItem(tr("Slurm"), orchestratorKindName(OrchestratorKind::Slurm));
    m_scheduler->addItem(tr("Kubernetes (kubectl on the login host)"), orchestratorKindName(OrchestratorKind::Kubernetes));
    m_prometheus = lineEdit(QStringLiteral("prometheusUrl"), tr("optional, e.g. http://prometheus:9090"));
    m_passphrase = lineEdit(QStringLiteral("passphrase"), tr("kept in memory for this check only"));
    m_passphrase->setEchoMode(QLineEdit::Password);
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("&Login host:"), m_host);
    form->addRow(tr("&User:"), m_user);
    form->addRow(tr("&Port:"), m_port);
    auto *identityLabel = new QLabel(tr("&Key file:"), this);
    identityLabel->setBuddy(m_identity); // a layout row has no buddy of its own
    form->addRow(identityLabel, identityRow);
    form->addRow(tr("&Scheduler:"), m_scheduler);
    form->addRow(tr("&Prometheus URL:"), m_prometheus);
    form->addRow(tr("Key p&assphrase:"), m_passphrase);
    m_passphraseLabel = qobject_cast<QLabel *>(form->labelForField(m_passphrase));
    m_passphrase->hide();
    m_passphraseLabel->hide();
    layout->addLayout(form);

    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("checkProgress"));
    m_progress->setTextVisible(false);
    m_progress->hide();
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("checkStatus"));
    m_status->setWordWrap(true);
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("checkError"));
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setStyleSheet(QStringLiteral("color: palette(highlighted-text); background: #b3261e; padding: 6px; border-radius: 3px;"));
    m_error->hide();
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addWidget(m_error);

    auto *buttons = new QHBoxLayout;
    m_trust = new QPushButton(tr("Trust this host key and connect"), this);
    m_trust->setObjectName(QStringLiteral("trustHostKey"));
    m_trust->hide();
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setObjectName(QStringLiteral("cancelCheck"));
    m_cancel->setEnabled(false);
    m_connect = new QPushButton(tr("&Connect and add"), this);
    m_connect->setObjectName(QStringLiteral("connectCluster"));
    m_connect->setDefault(true);
    buttons->addWidget(m_trust);
    buttons->addStretch(1);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_connect);
    layout->addLayout(buttons);

    connect(m_connect, &QPushButton::clicked, this, &AddClusterForm::connectToCluster);
    connect(m_cancel, &QPushButton::clicked, this, &AddClusterForm::cancel);
    connect(m_trust, &QPushButton::clicked, this, [this] {
        m_trustedFingerprint = m_lastResult.hostKeyFingerprint;
        connectToCluster();
    });
    connect(m_check, &ConnectionCheck::progress, this, &AddClusterForm::onProgress);
    connect(m_check, &ConnectionCheck::finished, this, &AddClusterForm::onFinished);
    // The check's login questions: posted from its SSH thread to this form, answered in a dialog.
    m_loginQuestions = std::make_shared<QueuedLoginPrompter>();
    // (The destructor closes it before this form goes: no notify comes after; a posted one
    // is dropped with the form.)
    m_loginQuestions->setNotify([this](int id, const LoginChallenge &challenge) {
        QMetaObject::invokeMethod(this, [this, id, challenge] { onLoginQuestion(id, challenge); }, Qt::QueuedConnection);
    });
    m_loginQuestions->setAnswering(true);
    m_check->setLoginPrompter(m_loginQuestions);
    // A changed host or port is another host: a key trusted for the old one does not carry over.
    connect(m_host, &QLineEdit::textEdited, this, [this] { m_trustedFingerprint.clear(); });
    connect(m_port, &QSpinBox::valueChanged, this, [this] { m_trustedFingerprint.clear(); });
}

QLineEdit *AddClusterForm::lineEdit(const QString &objectName, const QString &placeholder)
{
    auto *edit = new QLineEdit(this);
    edit->setObjectName(objectName);
    edit->setPlaceholderText(placeholder);
    return edit;
}

void AddClusterForm::setProfile(const ClusterProfile &profile)
{
    m_base = profile;
    m_trustedFingerprint.clear();
    m_name->setText(profile.name);
    m_host->setText(profile.sshHost);
    m_user->setText(profile.sshUser);
    m_port->setValue(profile.sshPort);
    m_identity->setText(profile.identityFile);
    m_identity->setCursorPosition(0); // the file name is the end of a long path: show where it starts
    m_scheduler->setCurrentIndex(qMax(0, m_scheduler->findData(orchestratorKindName(profile.orchestrator))));
    m_prometheus->setText(profile.prometheusUrl);
    m_error->hide();
    m_trust->hide();
    m_status->clear();
}

ClusterProfile AddClusterForm::profile() const
{
    ClusterProfile p = m_base;
    p.name = m_name->text().trimmed();
    p.sshHost = m_host->text().trimmed();
    p.sshUser = m_user->text().trimmed();
    p.sshPort = m_port->value();
    p.identityFile = m_identity->text().trimmed();
    p.orchestrator = parseOrchestratorKind(m_scheduler->currentData().toString()).value_or(OrchestratorKind::Slurm);
    p.prometheusUrl = m_prometheus->text().trimmed();
    return p;
}

QString AddClusterForm::validationError() const
{
    const ClusterProfile p = profile();
    if (p.name.isEmpty())
        return tr("Give the cluster a name.");
    if (m_taken.contains(p.name))
        return tr("A cluster named %1 exists already.").arg(p.name);
    if (p.sshHost.isEmpty())
        return tr("Give the login host (the machine you ssh to).");
    if (p.sshHost.contains(QLatin1Char(' ')) || p.sshHost.startsWith(QLatin1Char('-')))
        return tr("%1 is not a host name.").arg(p.sshHost);
    if (!p.prometheusUrl.isEmpty()) {
        const QUrl url(p.prometheusUrl, QUrl::StrictMode);
        if (!url.isValid() || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")) || url.host().isEmpty())
            return tr("The Prometheus URL must be http:// or https:// with a host, e.g. http://prometheus:9090.");
    }
    return {};
}

void AddClusterForm::connectToCluster()
{
    const QString problem = validationError();
    if (!problem.isEmpty()) {
        m_lastResult = ConnectionCheckResult::failure(ErrorKind::InvalidRequest, std::nullopt, problem);
        m_error->setText(problem);
        m_error->show();
        return;
    }
    m_check->cancel(); // its finished() must come before this check shows as running
    m_error->hide();
    m_trust->hide();
    setChecking(true);
    m_check->start(profile(), m_trustedFingerprint, m_passphrase->text());
}

void AddClusterForm::cancel()
{
    m_check->cancel();
}

bool AddClusterForm::isChecking() const
{
    return m_check->isRunning();
}

QString AddClusterForm::errorText() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

QString AddClusterForm::statusText() const
{
    return m_status->text();
}

void AddClusterForm::setChecking(bool checking)
{
    m_connect->setEnabled(!checking);
    m_cancel->setEnabled(checking);
    m_progress->setVisible(checking);
    for (QWidget *w : {static_cast<QWidget *>(m_name), static_cast<QWidget *>(m_host), static_cast<QWidget *>(m_user),
                       static_cast<QWidget *>(m_port), static_cast<QWidget *>(m_identity), static_cast<QWidget *>(m_scheduler),
                       static_cast<QWidget *>(m_prometheus), static_cast<QWidget *>(m_passphrase)})
        w->setEnabled(!checking);
}

void AddClusterForm::onProgress(int step, int steps, const QString &text)
{
    m_progress->setRange(0, steps);
    m_progress->setValue(step - 1);
    m_status->setText(tr("Step %1 of %2: %3").arg(step).arg(steps).arg(text));
}

AddClusterForm::~AddClusterForm()
{
    m_loginQuestions->close(); // a check's SSH thread waiting for an answer goes on (declined)
}

void AddClusterForm::onLoginQuestion(int id, const LoginChallenge &challenge)
{
    auto *dialog = new LoginQuestionDialog(challenge, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const std::shared_ptr<QueuedLoginPrompter> questions = m_loginQuestions;
    connect(dialog, &QDialog::accepted, this, [questions, id, dialog] {
        questions->respond(id, LoginAnswers::given(dialog->answers()));
    });
    connect(dialog, &QDialog::rejected, this, [questions, id] {
        questions->respond(id, LoginAnswers::refused(tr("the person declined")));
    });
    dialog->open();
}

void AddClusterForm::onFinished(const ConnectionCheckResult &result)
{
    m_lastResult = result;
    setChecking(false);
    if (result.ok()) {
        m_status->setText(result.prometheus.isEmpty() ? tr("Connected. %1.").arg(result.scheduler)
                                                      : tr("Connected. %1. %2.").arg(result.scheduler, result.prometheus));
        m_passphrase->clear();
        Q_EMIT accepted(profile(), result);
        return;
    }
    if (result.errorKind == ErrorKind::Cancelled) {
        m_status->setText(tr("Cancelled: nothing was saved."));
        return;
    }
    m_status->clear();
    m_error->setText(describeFailure(result));
    m_error->show();
    m_trust->setVisible(result.errorKind == ErrorKind::HostKeyUnknown && !result.hostKeyFingerprint.isEmpty());
    const bool passphrase = result.errorKind == ErrorKind::PassphraseNeeded;
    m_passphrase->setVisible(passphrase || !m_passphrase->text().isEmpty());
    m_passphraseLabel->setVisible(m_passphrase->isVisibleTo(this));
    if (passphrase)
        m_passphrase->setFocus();
}

// What happened (the check's own sentence) and what to do, decided on the kind.
QString AddClusterForm::describeFailure(const ConnectionCheckResult &r) const
{
    const ClusterProfile p = profile();
    const QString target = p.sshTarget();
    if (r.step == SourceKind::Prometheus)
        return tr("prometheus: %1. The cluster itself answered: correct the URL, or leave it empty to add the "
                  "cluster without GPU metrics.").arg(r.error);
    switch (r.errorKind) {
    case ErrorKind::HostKeyUnknown:
        return tr("%1 is not in your known_hosts yet. It offers the key %2. Compare it with what the cluster's "
                  "administrators publish, then trust it.").arg(target, r.hostKeyFingerprint);
    case ErrorKind::HostKeyChanged:
        return tr("The host key of %1 has CHANGED (it now offers %2). Either the machine was reinstalled, or "
                  "someone is between you and it. Strata will not connect. Ask its administrators; once the new "
                  "key is confirmed, remove the old one: ssh-keygen -R %3").arg(target, r.hostKeyFingerprint, p.sshHost);
    case ErrorKind::ConnectFailed:
        return tr("%1 could not be reached: %2. Check the host name and port, and that you can reach it "
                  "(VPN, ProxyJump in ~/.ssh/config).").arg(target, r.error);
    case ErrorKind::Timeout:
        return tr("%1 did not answer in time (%2). The host may be down or a firewall drops the connection.").arg(target, r.error);
    case ErrorKind::AuthenticationFailed:
        return tr("%1 refused the login: %2. Check the user and key file, or the keys ssh-agent holds (ssh-add -l).").arg(target, r.error);
    case ErrorKind::PassphraseNeeded:
        return tr("The key file is encrypted: enter its passphrase below and connect again (or load it into ssh-agent).");
    case ErrorKind::SourceUnsupported:
        return tr("Connected, but %1 cannot be used: %2").arg(r.step ? sourceKindName(*r.step) : QString(), r.error);
    default:
        return !r.step ? r.error : tr("%1: %2").arg(sourceKindName(*r.step), r.error);
    }
}

} // namespace strata
