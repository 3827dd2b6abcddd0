#include "profile_dialog.h"

#include "model/environment_variable.h"
#include "profile/grafana_link.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QUrl>
#include <QVBoxLayout>

namespace strata {

namespace {

QList<QPair<QString, QString>> readPairs(const QTableWidget *table)
{
    QList<QPair<QString, QString>> pairs;
    for (int row = 0; row < table->rowCount(); ++row) {
        const QString key = table->item(row, 0) ? table->item(row, 0)->text().trimmed() : QString();
        const QString value = table->item(row, 1) ? table->item(row, 1)->text() : QString();
        if (!key.isEmpty())
            pairs.append({key, value});
    }
    return pairs;
}

void writePairs(QTableWidget *table, const QList<QPair<QString, QString>> &pairs)
{
    table->setRowCount(0);
    for (const auto &pair : pairs) {
        const int row = table->rowCount();
        table->insertRow(row);
        table->setItem(row, 0, new QTableWidgetItem(pair.first));
        table->setItem(row, 1, new QTableWidgetItem(pair.second));
    }
}

QSpinBox *spin(const QString &objectName, int min, int max, const QString &suffix)
{
    auto *box = new QSpinBox;
    box->setObjectName(objectName);
    box->setRange(min, max);
    box->setSuffix(suffix);
    return box;
}

} // namespace

ProfileDialog::ProfileDialog(const QStringList &takenNames, QWidget *parent)
    : QDialog(parent), m_taken(takenNames)
{
    setObjectName(QStringLiteral("profileDialog"));
    setWindowTitle(tr("Cluster profile"));
    auto *layout = new QVBoxLayout(this);
    auto *top = new QFormLayout;
    m_name = lineEdit(QStringLiteral("name"), tr("e.g. lab, prod-east"));
    m_orchestrator = new QComboBox(this);
    m_orchestrator->setObjectName(QStringLiteral("orchestrator"));
    m_orchestrator->addItem(tr("Slurm"), orchestratorKindName(OrchestratorKind::Slurm));
    m_orchestrator->addItem(tr("Kubernetes"), orchestratorKindName(OrchestratorKind::Kubernetes));
    top->addRow(tr("&Name:"), m_name);
    top->addRow(tr("&Orchestrator:"), m_orchestrator);
    layout->addLayout(top);

    auto *tabs = new QTabWidget(this);
    tabs->addTab(sshTab(), tr("&SSH"));
    tabs->addTab(prometheusTab(), tr("&Prometheus"));
    tabs->addTab(kubernetesTab(), tr("&Kubernetes"));
    tabs->addTab(burninTab(), tr("&Burn-in"));
    layout->addWidget(tabs, 1);

    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("profileError"));
    m_error->setWordWrap(true);
    QPalette pal = m_error->palette();
    pal.setColor(QPalette::WindowText, QColor(0xd7263d));
    m_error->setPalette(pal);
    layout->addWidget(m_error);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &ProfileDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    for (QLineEdit *edit : findChildren<QLineEdit *>())
        connect(edit, &QLineEdit::textChanged, this, &ProfileDialog::revalidate);
    for (QTableWidget *table : {m_environment, m_relabel})
        connect(table, &QTableWidget::itemChanged, this, &ProfileDialog::revalidate);
    setProfile(ClusterProfile{});
    resize(620, 520);
}

QLineEdit *ProfileDialog::lineEdit(const QString &objectName, const QString &placeholder)
{
    auto *edit = new QLineEdit(this);
    edit->setObjectName(objectName);
    edit->setPlaceholderText(placeholder);
    return edit;
}

QLineEdit *ProfileDialog::field(const QString &objectName) const
{
    return findChild<QLineEdit *>(objectName);
}

QWidget *ProfileDialog::withBrowse(QLineEdit *edit, const QString &caption)
{
    auto *box = new QWidget;
    auto *row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(edit, 1);
    auto *browse = new QPushButton(tr("Browse…"), box);
    row->addWidget(browse);
    connect(browse, &QPushButton::clicked, this, [this, edit, caption] {
        auto *dialog = new QFileDialog(this, caption, edit->text());
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->setFileMode(QFileDialog::ExistingFile);
        dialog->setOption(QFileDialog::DontUseNativeDialog); // hidden files such as ~/.ssh
        dialog->setFilter(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
        connect(dialog, &QFileDialog::fileSelected, edit, &QLineEdit::setText);
        dialog->open();
    });
    return box;
}

QTableWidget *ProfileDialog::pairTable(const QString &objectName, const QStringList &headers)
{
    auto *table = new QTableWidget(0, 2);
    table->setObjectName(objectName);
    table->setHorizontalHeaderLabels(headers);
    table->horizontalHeader()->setStretchLastSection(true);
    table->verticalHeader()->hide();
    table->setMinimumHeight(90);
    return table;
}

QWidget *ProfileDialog::sshTab()
{
    auto *page = new QWidget;
    auto *form = new QFormLayout(page);
    m_sshHost = lineEdit(QStringLiteral("sshHost"), tr("login node or bastion"));
    // 0: the port ~/.ssh/config gives the host, else 22 (a profile made from a config host).
    m_sshPort = spin(QStringLiteral("sshPort"), 0, 65535, {});
    m_sshPort->setSpecialValueText(tr("from ~/.ssh/config, else 22"));
    m_sshUser = lineEdit(QStringLiteral("sshUser"), tr("default: your login name"));
    m_identity = lineEdit(QStringLiteral("identityFile"), tr("empty: ssh-agent and ~/.ssh defaults"));
    m_knownHosts = lineEdit(QStringLiteral("knownHostsFile"), tr("empty: ~/.ssh/known_hosts"));
    m_acceptNewHostKey = new QCheckBox(tr("Trust an unknown host key without asking (not recommended)"), page);
    m_acceptNewHostKey->setObjectName(QStringLiteral("acceptNewHostKey"));
    m_connectTimeout = spin(QStringLiteral("connectTimeout"), 1, 600, tr(" s"));
    m_commandTimeout = spin(QStringLiteral("commandTimeout"), 1, 3600, tr(" s"));
    m_refresh = spin(QStringLiteral("refreshInterval"), 2, 3600, tr(" s"));
    m_environment = pairTable(QStringLiteral("remoteEnvironment"), {tr("Variable"), tr("Value")});
    auto *envButtons = new QHBoxLayout;
    auto *add = new QPushButton(tr("Add variable"), page);
    auto *remove = new QPushButton(tr("Remove"), page);
    envButtons->addWidget(add);
    envButtons->addWidget(remove);
    envButtons->addStretch();
    connect(add, &QPushButton::clicked, this, [this] {
        m_environment->insertRow(m_environment->rowCount());
        m_environment->editItem(nullptr);
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        if (m_environment->currentRow() >= 0)
            m_environment->removeRow(m_environment->currentRow());
        revalidate();
    });
    form->addRow(tr("&Host:"), m_sshHost);
    form->addRow(tr("P&ort:"), m_sshPort);
    form->addRow(tr("&User:"), m_sshUser);
    form->addRow(tr("&Identity file:"), withBrowse(m_identity, tr("SSH private key")));
    form->addRow(tr("&Known hosts:"), withBrowse(m_knownHosts, tr("known_hosts file")));
    form->addRow(QString(), m_acceptNewHostKey);
    form->addRow(tr("Connect timeout:"), m_connectTimeout);
    form->addRow(tr("Command timeout:"), m_commandTimeout);
    form->addRow(tr("&Refresh every:"), m_refresh);
    form->addRow(tr("Remote environment:"), m_environment);
    form->addRow(QString(), envButtons);
    return page;
}

QWidget *ProfileDialog::prometheusTab()
{
    auto *page = new QWidget;
    auto *form = new QFormLayout(page);
    m_prometheusUrl = lineEdit(QStringLiteral("prometheusUrl"), tr("e.g. http://127.0.0.1:9090 (empty: no metrics)"));
    m_prometheusToken = lineEdit(QStringLiteral("prometheusToken"), tr("bearer token (kept in the keyring)"));
    m_prometheusToken->setEchoMode(QLineEdit::Password);
    m_prometheusUser = lineEdit(QStringLiteral("prometheusUser"));
    m_prometheusPassword = lineEdit(QStringLiteral("prometheusPassword"), tr("kept in the keyring"));
    m_prometheusPassword->setEchoMode(QLineEdit::Password);
    m_prometheusCa = lineEdit(QStringLiteral("prometheusCaFile"), tr("empty: system certificates"));
    m_alertmanagerUrl = lineEdit(QStringLiteral("alertmanagerUrl"),
                                 tr("e.g. http://127.0.0.1:9093 (empty: no silences; same credentials)"));
    m_grafanaNodeUrl = lineEdit(QStringLiteral("grafanaNodeUrl"),
                                tr("e.g. https://grafana/d/node?var-node={node}&from={from}&to={to}"));
    m_grafanaJobUrl = lineEdit(QStringLiteral("grafanaJobUrl"),
                               tr("e.g. https://grafana/d/job?var-job={job}&from={from}&to={to}"));
    m_hostLabel = new QComboBox(page);
    m_hostLabel->setObjectName(QStringLiteral("hostLabel"));
    m_hostLabel->setEditable(true);
    m_hostLabel->addItems({QString(), QStringLiteral("Hostname"), QStringLiteral("hostname"), QStringLiteral("instance")});
    m_hostLabel->lineEdit()->setPlaceholderText(tr("empty: Hostname or hostname"));
    m_relabel = pairTable(QStringLiteral("hostRelabel"), {tr("Exporter host"), tr("Node name")});
    auto *add = new QPushButton(tr("Add mapping"), page);
    connect(add, &QPushButton::clicked, this, [this] { m_relabel->insertRow(m_relabel->rowCount()); });
    auto *note = new QLabel(tr("The token and password are stored in the desktop keyring, never in the profile file."), page);
    note->setWordWrap(true);
    m_forgetSecrets = new QCheckBox(tr("Forget the stored token and password"), page);
    m_forgetSecrets->setObjectName(QStringLiteral("forgetStoredSecrets"));
    m_forgetSecrets->setVisible(false);
    form->addRow(tr("&URL:"), m_prometheusUrl);
    form->addRow(tr("&Token:"), m_prometheusToken);
    form->addRow(tr("User:"), m_prometheusUser);
    form->addRow(tr("Password:"), m_prometheusPassword);
    form->addRow(QString(), m_forgetSecrets);
    form->addRow(tr("CA file:"), withBrowse(m_prometheusCa, tr("CA certificate")));
    form->addRow(tr("&Alertmanager:"), m_alertmanagerUrl);
    form->addRow(tr("Grafana, node:"), m_grafanaNodeUrl);
    form->addRow(tr("Grafana, job:"), m_grafanaJobUrl);
    form->addRow(tr("Host label:"), m_hostLabel);
    form->addRow(tr("Host relabel:"), m_relabel);
    form->addRow(QString(), add);
    form->addRow(note);
    return page;
}

QWidget *ProfileDialog::kubernetesTab()
{
    auto *page = new QWidget;
    auto *form = new QFormLayout(page);
    m_kubeContext = lineEdit(QStringLiteral("kubeContext"), tr("empty: the current context"));
    m_kubeNamespace = lineEdit(QStringLiteral("kubeNamespace"), tr("empty: all namespaces"));
    form->addRow(tr("Context:"), m_kubeContext);
    form->addRow(tr("Namespace:"), m_kubeNamespace);
    return page;
}

QWidget *ProfileDialog::burninTab()
{
    auto *page = new QWidget;
    auto *form = new QFormLayout(page);
    m_burninPath = lineEdit(QStringLiteral("burninAgentPath"), tr("remote path of strata-burn"));
    m_burninImage = lineEdit(QStringLiteral("burninImage"), tr("container image with strata-burn (Kubernetes)"));
    form->addRow(tr("Agent path:"), m_burninPath);
    form->addRow(tr("Agent image:"), m_burninImage);
    return page;
}

void ProfileDialog::setProfile(const ClusterProfile &p)
{
    m_name->setText(p.name);
    m_orchestrator->setCurrentIndex(qMax(0, m_orchestrator->findData(orchestratorKindName(p.orchestrator))));
    m_sshHost->setText(p.sshHost);
    m_sshPort->setValue(p.sshPort);
    m_sshUser->setText(p.sshUser);
    m_identity->setText(p.identityFile);
    m_knownHosts->setText(p.knownHostsFile);
    m_acceptNewHostKey->setChecked(p.acceptNewHostKey);
    m_connectTimeout->setValue(p.connectTimeoutSeconds);
    m_commandTimeout->setValue(p.commandTimeoutSeconds);
    m_refresh->setValue(p.refreshIntervalSeconds);
    writePairs(m_environment, p.remoteEnvironment);
    m_prometheusUrl->setText(p.prometheusUrl);
    m_prometheusToken->setText(p.prometheusToken);
    m_prometheusUser->setText(p.prometheusUser);
    m_prometheusPassword->setText(p.prometheusPassword);
    // Stored secrets stay in the keyring (the form never reads them): empty fields keep them.
    const bool stored = p.prometheusSecretsInKeyring && p.prometheusToken.isEmpty() && p.prometheusPassword.isEmpty();
    if (stored) {
        m_prometheusToken->setPlaceholderText(tr("stored in the keyring: leave empty to keep it"));
        m_prometheusPassword->setPlaceholderText(tr("stored in the keyring: leave empty to keep it"));
    }
    m_forgetSecrets->setChecked(false);
    m_forgetSecrets->setVisible(stored);
    m_prometheusCa->setText(p.prometheusCaFile);
    m_alertmanagerUrl->setText(p.alertmanagerUrl);
    m_grafanaNodeUrl->setText(p.grafanaNodeUrl);
    m_grafanaJobUrl->setText(p.grafanaJobUrl);
    m_hostLabel->setCurrentText(p.hostLabel);
    QList<QPair<QString, QString>> relabel;
    for (auto it = p.hostRelabel.cbegin(); it != p.hostRelabel.cend(); ++it)
        relabel.append({it.key(), it.value()});
    writePairs(m_relabel, relabel);
    m_kubeContext->setText(p.kubeContext);
    m_kubeNamespace->setText(p.kubeNamespace);
    m_burninPath->setText(p.burninAgentPath);
    m_burninImage->setText(p.burninImage);
    revalidate();
}

bool ProfileDialog::forgetStoredSecrets() const
{
    return !m_forgetSecrets->isHidden() && m_forgetSecrets->isChecked();
}

ClusterProfile ProfileDialog::profile() const
{
    ClusterProfile p;
    p.name = m_name->text().trimmed();
    p.orchestrator = parseOrchestratorKind(m_orchestrator->currentData().toString()).value_or(OrchestratorKind::Slurm);
    p.sshHost = m_sshHost->text().trimmed();
    p.sshPort = m_sshPort->value();
    p.sshUser = m_sshUser->text().trimmed();
    p.identityFile = m_identity->text().trimmed();
    p.knownHostsFile = m_knownHosts->text().trimmed();
    p.acceptNewHostKey = m_acceptNewHostKey->isChecked();
    p.connectTimeoutSeconds = m_connectTimeout->value();
    p.commandTimeoutSeconds = m_commandTimeout->value();
    p.refreshIntervalSeconds = m_refresh->value();
    p.remoteEnvironment = readPairs(m_environment);
    p.prometheusUrl = m_prometheusUrl->text().trimmed();
    p.prometheusToken = m_prometheusToken->text();
    p.prometheusUser = m_prometheusUser->text().trimmed();
    p.prometheusPassword = m_prometheusPassword->text();
    p.prometheusCaFile = m_prometheusCa->text().trimmed();
    p.alertmanagerUrl = m_alertmanagerUrl->text().trimmed();
    p.grafanaNodeUrl = m_grafanaNodeUrl->text().trimmed();
    p.grafanaJobUrl = m_grafanaJobUrl->text().trimmed();
    p.hostLabel = m_hostLabel->currentText().trimmed();
    for (const auto &pair : readPairs(m_relabel))
        p.hostRelabel.insert(pair.first, pair.second);
    p.kubeContext = m_kubeContext->text().trimmed();
    p.kubeNamespace = m_kubeNamespace->text().trimmed();
    p.burninAgentPath = m_burninPath->text().trimmed();
    p.burninImage = m_burninImage->text().trimmed();
    return p;
}

QString ProfileDialog::validationError() const
{
    const ClusterProfile p = profile();
    if (p.name.isEmpty())
        return tr("Give the profile a name.");
    if (m_taken.contains(p.name))
        return tr("A profile named \"%1\" exists already: pick another name.").arg(p.name);
    if (p.sshHost.isEmpty())
        return tr("Enter the SSH host (the cluster's login node or bastion).");
    for (const auto &pair : p.remoteEnvironment)
        if (!EnvironmentVariable::isValidName(pair.first))
            return tr("\"%1\" is not a valid environment variable name (letters, digits, _; not starting with a digit).")
                .arg(pair.first);
    if (!p.prometheusUrl.isEmpty()) {
        const QUrl url(p.prometheusUrl, QUrl::StrictMode);
        if (!url.isValid() || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))
            || url.host().isEmpty())
            return tr("The Prometheus URL must look like http://host:9090 or https://host.");
    }
    if (!p.alertmanagerUrl.isEmpty()) {
        const QUrl url(p.alertmanagerUrl, QUrl::StrictMode);
        if (!url.isValid() || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))
            || url.host().isEmpty())
            return tr("The Alertmanager URL must look like http://host:9093 or https://host.");
    }
    if (!p.grafanaNodeUrl.isEmpty())
        if (const QString problem = GrafanaLink::problem(p.grafanaNodeUrl); !problem.isEmpty())
            return tr("Grafana node URL: %1.").arg(problem);
    if (!p.grafanaJobUrl.isEmpty())
        if (const QString problem = GrafanaLink::problem(p.grafanaJobUrl); !problem.isEmpty())
            return tr("Grafana job URL: %1.").arg(problem);
    return {};
}

void ProfileDialog::revalidate()
{
    const QString error = validationError();
    m_error->setText(error);
    if (QPushButton *save = m_buttons ? m_buttons->button(QDialogButtonBox::Save) : nullptr)
        save->setEnabled(error.isEmpty());
}

void ProfileDialog::accept()
{
    revalidate();
    if (validationError().isEmpty())
        QDialog::accept();
}

} // namespace strata
