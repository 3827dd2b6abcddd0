#include "submit_job_dialog.h"

#include "job_templates.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>

namespace strata {

namespace {

QStringList splitNodes(const QString &text)
{
    return text.split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts);
}

} // namespace

SubmitJobDialog::SubmitJobDialog(const SnapshotPtr &snapshot, const QStringList &pickedNodes,
                                 QWidget *parent)
    : QDialog(parent), m_snapshot(snapshot)
{
    setObjectName(QStringLiteral("submitJobDialog"));
    setWindowTitle(tr("Submit a job"));
    auto *layout = new QVBoxLayout(this);
    auto *form = new QFormLayout;
    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("jobName"));
    m_name->setPlaceholderText(tr("empty: the script's #SBATCH --job-name"));
    m_partition = new QComboBox(this);
    m_partition->setObjectName(QStringLiteral("partition"));
    m_partition->addItem(tr("(cluster default)"), QString());
    if (snapshot)
        for (const Partition &p : snapshot->partitions)
            m_partition->addItem(p.isDefault ? tr("%1 (default)").arg(p.name) : p.name, p.name);
    m_nodes = new QSpinBox(this);
    m_nodes->setObjectName(QStringLiteral("nodeCount"));
    m_nodes->setRange(1, snapshot ? qMax(1, int(snapshot->nodes.size())) : 1);
    m_nodeList = new QLineEdit(pickedNodes.join(QLatin1Char(',')), this);
    m_nodeList->setObjectName(QStringLiteral("nodeList"));
    m_nodeList->setPlaceholderText(tr("any nodes; or pick them in the Nodes table first"));
    if (!pickedNodes.isEmpty())
        m_nodes->setValue(int(pickedNodes.size()));
    m_gpusPerNode = new QSpinBox(this);
    m_gpusPerNode->setObjectName(QStringLiteral("gpusPerNode"));
    m_gpusPerNode->setValue(1);
    m_timeLimit = new QSpinBox(this);
    m_timeLimit->setObjectName(QStringLiteral("timeLimit"));
    m_timeLimit->setRange(0, 60 * 24 * 30);
    m_timeLimit->setValue(60);
    m_timeLimit->setSuffix(tr(" min"));
    m_timeLimit->setSpecialValueText(tr("partition default"));
    m_output = new QLineEdit(this);
    m_output->setObjectName(QStringLiteral("outputPath"));
    m_output->setPlaceholderText(tr("empty: slurm-%j.out in the submit directory"));
    m_exclusive = new QCheckBox(tr("Whole nodes (exclusive)"), this);
    m_template = new QComboBox(this);
    m_template->setObjectName(QStringLiteral("template"));
    for (const JobTemplates::Template &t : JobTemplates::builtIn())
        m_template->addItem(t.description.isEmpty() ? t.name : QStringLiteral("%1 \u2014 %2").arg(t.name, t.description),
                            t.script);
    m_script = new QPlainTextEdit(this);
    m_script->setObjectName(QStringLiteral("script"));
    m_script->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_script->setTabChangesFocus(true);
    m_script->setMinimumHeight(160);

    m_kubernetes = snapshot && snapshot->orchestrator == OrchestratorKind::Kubernetes;
    form->addRow(tr("&Name:"), m_name);
    if (m_kubernetes) {
        setWindowTitle(tr("Create Kubernetes Job"));
        m_image = new QLineEdit(this);
        m_image->setObjectName(QStringLiteral("image"));
        m_image->setPlaceholderText(tr("container image, e.g. nvcr.io/nvidia/pytorch:24.10-py3"));
        m_namespace = new QLineEdit(QStringLiteral("default"), this);
        m_namespace->setObjectName(QStringLiteral("namespace"));
        form->addRow(tr("&Image:"), m_image);
        form->addRow(tr("Name&space:"), m_namespace);
        connect(m_image, &QLineEdit::textChanged, this, &SubmitJobDialog::revalidate);
        m_partition->hide();
        m_output->hide();
        m_exclusive->hide();
    } else {
        form->addRow(tr("&Partition:"), m_partition);
    }
    form->addRow(tr("N&odes:"), m_nodes);
    form->addRow(tr("Node &list:"), m_nodeList);
    form->addRow(tr("&GPUs per node:"), m_gpusPerNode);
    form->addRow(tr("&Time limit:"), m_timeLimit);
    if (!m_kubernetes) {
        form->addRow(tr("O&utput file:"), m_output);
        form->addRow(QString(), m_exclusive);
    }
    form->addRow(tr("T&emplate:"), m_template);
    layout->addLayout(form);
    auto *scriptLabel = new QLabel(tr("&Script:"), this);
    scriptLabel->setBuddy(m_script);
    layout->addWidget(scriptLabel);
    layout->addWidget(m_script, 1);
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("submitError"));
    m_error->setWordWrap(true);
    layout->addWidget(m_error);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_submit = buttons->addButton(tr("&Submit"), QDialogButtonBox::AcceptRole);
    m_submit->setObjectName(QStringLiteral("submit"));
    layout->addWidget(buttons);

    connect(buttons, &QDialogButtonBox::accepted, this, &SubmitJobDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_template, &QComboBox::activated, this,
            [this](int index) { m_script->setPlainText(m_template->itemData(index).toString()); });
    connect(m_script, &QPlainTextEdit::textChanged, this, &SubmitJobDialog::revalidate);
    connect(m_nodeList, &QLineEdit::textChanged, this, [this] {
        const int picked = int(splitNodes(m_nodeList->text()).size());
        if (picked > 0)
            m_nodes->setValue(picked);
        updateGpuLimit();
        revalidate();
    });
    connect(m_nodes, &QSpinBox::valueChanged, this, &SubmitJobDialog::revalidate);
    connect(m_partition, &QComboBox::currentIndexChanged, this, &SubmitJobDialog::updateGpuLimit);
    if (m_template->count() > 0)
        m_script->setPlainText(m_template->itemData(0).toString());
    updateGpuLimit();
    revalidate();
    resize(640, 620);
}

void SubmitJobDialog::updateGpuLimit()
{
    // The most GPUs one node of the choice has: picked nodes, else the partition's.
    int most = 0;
    if (m_snapshot) {
        const QStringList picked = splitNodes(m_nodeList->text());
        const QString partition = m_partition->currentData().toString();
        for (const Node &n : m_snapshot->nodes)
            if (picked.isEmpty() ? partition.isEmpty() || n.partitions.contains(partition) : picked.contains(n.name))
                most = qMax(most, n.gpuCount);
    }
    m_gpusPerNode->setRange(0, qMax(most, 0));
}

QStringList SubmitJobDialog::templateNames() const
{
    QStringList names;
    for (int i = 0; i < m_template->count(); ++i)
        names << m_template->itemText(i).section(QStringLiteral(" \u2014 "), 0, 0);
    return names;
}

void SubmitJobDialog::useTemplate(const QString &name)
{
    const int index = int(templateNames().indexOf(name));
    if (index < 0)
        return;
    m_template->setCurrentIndex(index);
    m_script->setPlainText(m_template->itemData(index).toString());
}

JobSubmission SubmitJobDialog::submission() const
{
    JobSubmission s;
    s.name = m_name->text().trimmed();
    s.partition = m_partition->currentData().toString();
    s.nodeList = splitNodes(m_nodeList->text());
    s.nodes = m_nodes->value();
    s.gpusPerNode = m_gpusPerNode->value();
    s.timeLimitMinutes = m_timeLimit->value();
    s.outputPath = m_output->text().trimmed();
    s.exclusive = m_exclusive->isChecked();
    s.script = m_script->toPlainText();
    if (m_kubernetes) {
        s.image = m_image->text().trimmed();
        s.partition = m_namespace->text().trimmed(); // the namespace plays the partition's part
        s.outputPath.clear();
        s.exclusive = false;
    }
    return s;
}

QString SubmitJobDialog::validationError() const
{
    const JobSubmission s = submission();
    if (m_kubernetes && s.image.isEmpty())
        return tr("A Kubernetes Job needs a container image.");
    if (m_kubernetes && s.script.trimmed().isEmpty())
        return tr("The script (run by /bin/sh -c in the container) is empty.");
    if (!m_kubernetes && !s.script.startsWith(QLatin1String("#!")))
        return tr("The script must start with an interpreter line such as #!/bin/bash.");
    if (!s.nodeList.isEmpty() && m_snapshot)
        for (const QString &node : s.nodeList)
            if (!m_snapshot->node(node))
                return tr("The cluster has no node named \"%1\".").arg(node);
    if (!s.nodeList.isEmpty() && s.nodeList.size() > s.nodes)
        return tr("%1 nodes are listed but only %2 requested.").arg(s.nodeList.size()).arg(s.nodes);
    return {};
}

void SubmitJobDialog::revalidate()
{
    const QString error = validationError();
    m_error->setText(error);
    if (m_submit)
        m_submit->setEnabled(error.isEmpty());
}

void SubmitJobDialog::accept()
{
    if (validationError().isEmpty())
        QDialog::accept();
}

} // namespace strata
