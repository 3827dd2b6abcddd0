#include "burnin_window.h"

#include "models/burnin_live_model.h"

#include "burnin/burnin_session.h"
#include "slurm/hostlist.h"

#include <QCloseEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QProgressBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace strata {

namespace {

QString figure(const std::optional<double> &v)
{
    if (!v)
        return QStringLiteral("–");
    const double a = std::fabs(*v);
    return a >= 100 ? QString::number(*v, 'f', 1) : QString::number(*v, 'g', 3);
}

QString percent(const std::optional<double> &v)
{
    return v ? QStringLiteral("%1%").arg(std::lround(*v)) : QStringLiteral("–");
}

QString writeFile(const QString &path, const QByteArray &bytes)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return QObject::tr("cannot write %1: %2").arg(path, file.errorString());
    return {};
}

} // namespace

BurninWindow::BurninWindow(BurninSession *session, const BurninRequest &request, QWidget *parent)
    : QWidget(parent, Qt::Window), m_session(session), m_request(request), m_model(new BurninLiveModel(this)),
      m_title(new QLabel(this)), m_state(new QLabel(this)), m_progress(new QProgressBar(this)),
      m_cancel(new QPushButton(tr("&Cancel burn-in"), this)), m_exportJson(new QPushButton(tr("Export &JSON…"), this)),
      m_exportHtml(new QPushButton(tr("Export &HTML…"), this)), m_tabs(new QTabWidget(this)),
      m_table(new QTableView(this)), m_problems(new QLabel(this)), m_reportTable(new QTableWidget(this)),
      m_reportNotes(new QLabel(this)), m_startedAt(QDateTime::currentDateTimeUtc())
{
    setObjectName(QStringLiteral("burninWindow"));
    setAttribute(Qt::WA_DeleteOnClose);
    session->setParent(this);
    const QString nodes = Hostlist::compress(request.nodes);
    setWindowTitle(tr("Burn-in %1").arg(nodes));
    m_model->reset(request.gpusByNode, request.tests);

    auto *layout = new QVBoxLayout(this);
    QFont big = m_title->font();
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.2);
    m_title->setFont(big);
    m_title->setObjectName(QStringLiteral("burninTitle"));
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_title);
    auto *header = new QHBoxLayout;
    m_state->setObjectName(QStringLiteral("burninState"));
    m_state->setWordWrap(true);
    header->addWidget(m_state, 1);
    m_progress->setObjectName(QStringLiteral("burninProgress"));
    m_progress->setAccessibleName(tr("Tests done"));
    m_progress->setFormat(tr("%v of %m tests"));
    header->addWidget(m_progress);
    m_cancel->setObjectName(QStringLiteral("cancelBurnin"));
    header->addWidget(m_cancel);
    m_exportJson->setObjectName(QStringLiteral("exportJson"));
    m_exportHtml->setObjectName(QStringLiteral("exportHtml"));
    m_exportJson->setEnabled(false);
    m_exportHtml->setEnabled(false);
    header->addWidget(m_exportJson);
    header->addWidget(m_exportHtml);
    layout->addLayout(header);

    auto *live = new QWidget(this);
    auto *liveLayout = new QVBoxLayout(live);
    liveLayout->setContentsMargins(0, 0, 0, 0);
    m_table->setObjectName(QStringLiteral("burninLiveTable"));
    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 4);
    m_table->horizontalHeader()->setStretchLastSection(true);
    // Fixed widths from the font, not ResizeToContents: that measures every row, and a fleet
    // burn-in has 16,000.
    const QFontMetrics metrics = m_table->fontMetrics();
    m_table->horizontalHeader()->setDefaultSectionSize(metrics.horizontalAdvance(QStringLiteral("000000.0")) + 12);
    m_table->setColumnWidth(BurninLiveModel::NodeColumn, metrics.horizontalAdvance(QStringLiteral("gpu-node0000")) + 12);
    m_table->setColumnWidth(BurninLiveModel::GpuColumn, metrics.horizontalAdvance(QStringLiteral("GPU00")) + 12);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    liveLayout->addWidget(m_table, 1);
    m_problems->setObjectName(QStringLiteral("burninProblems"));
    m_problems->setWordWrap(true);
    m_problems->setTextFormat(Qt::PlainText);
    m_problems->hide();
    liveLayout->addWidget(m_problems);
    m_tabs->addTab(live, tr("&Live"));

    auto *reportPage = new QWidget(this);
    auto *reportLayout = new QVBoxLayout(reportPage);
    reportLayout->setContentsMargins(0, 0, 0, 0);
    m_reportTable->setObjectName(QStringLiteral("burninReportTable"));
    m_reportTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_reportTable->verticalHeader()->hide();
    m_reportTable->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_reportTable->verticalHeader()->setDefaultSectionSize(m_reportTable->fontMetrics().height() + 4);
    m_reportTable->horizontalHeader()->setStretchLastSection(true);
    m_reportTable->setAlternatingRowColors(true);
    reportLayout->addWidget(m_reportTable, 1);
    m_reportNotes->setObjectName(QStringLiteral("burninReportNotes"));
    m_reportNotes->setWordWrap(true);
    m_reportNotes->setTextFormat(Qt::PlainText);
    m_reportNotes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    reportLayout->addWidget(m_reportNotes);
    m_tabs->addTab(reportPage, tr("&Report"));
    m_tabs->setTabEnabled(1, false);
    m_tabs->setObjectName(QStringLiteral("burninTabs"));
    layout->addWidget(m_tabs, 1);

    connect(session, &BurninSession::stageChanged, this, &BurninWindow::onStage);
    connect(session, &BurninSession::submitted, this, [this](const QString &jobId) {
        m_jobId = jobId;
        updateHeader();
    });
    connect(session, &BurninSession::eventReceived, this, [this](const QString &node, const BurninEvent &event) {
        m_model->add(node, event);
        if (!m_model->state().problems().isEmpty()) {
            m_problems->setText(m_model->state().problems().join(QLatin1Char('\n')));
            m_problems->show();
        }
        updateHeader();
    });
    connect(session, &BurninSession::completed, this, &BurninWindow::onCompleted);
    connect(session, &BurninSession::failed, this, &BurninWindow::onFailed);
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        // Asks first, with Enter and Escape on the harmless button: a burn-in of many nodes is
        // minutes of work and a cancelled one gives no verdict (issue 33).
        auto *box = new QMessageBox(QMessageBox::Warning, tr("Cancel burn-in"),
                                    tr("Cancel the burn-in? Its jobs are stopped and the GPUs not yet tested get no verdict."),
                                    QMessageBox::NoButton, this);
        box->setObjectName(QStringLiteral("confirmCancelBurnin"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        QPushButton *yes = box->addButton(tr("Cancel burn-in"), QMessageBox::AcceptRole);
        yes->setObjectName(QStringLiteral("confirm"));
        QPushButton *keep = box->addButton(tr("Keep running"), QMessageBox::RejectRole);
        keep->setObjectName(QStringLiteral("keep"));
        box->setDefaultButton(keep);
        box->setEscapeButton(keep);
        connect(yes, &QPushButton::clicked, this, [this] {
            if (m_finished || !m_error.isEmpty())
                return;
            m_cancelRequested = true;
            m_cancel->setEnabled(false);
            m_stage = tr("cancelling");
            updateHeader();
            m_session->cancel();
        });
        box->open();
    });
    connect(m_exportJson, &QPushButton::clicked, this, [this] { exportAs(QStringLiteral("json")); });
    connect(m_exportHtml, &QPushButton::clicked, this, [this] { exportAs(QStringLiteral("html")); });
    resize(1000, 560);
    updateHeader();
}

BurninWindow::~BurninWindow() = default;

void BurninWindow::closeEvent(QCloseEvent *event)
{
    if (!m_finished && m_error.isEmpty() && !m_jobId.isEmpty())
        Q_EMIT detached(m_jobId);
    QWidget::closeEvent(event);
}

void BurninWindow::setAttachedJob(const QString &jobId)
{
    m_jobId = jobId;
    updateHeader();
}

QString BurninWindow::stateText() const
{
    return m_state->text();
}

void BurninWindow::onStage(const QString &stage)
{
    m_stage = stage;
    updateHeader();
}

void BurninWindow::updateHeader()
{
    const QString nodes = Hostlist::compress(m_request.nodes);
    m_title->setText(m_jobId.isEmpty() ? tr("Burn-in on %1").arg(nodes) : tr("Burn-in job %1 on %2").arg(m_jobId, nodes));
    const BurninLiveState &s = m_model->state();
    m_progress->setMaximum(std::max(1, s.testsExpected()));
    m_progress->setValue(s.testsDone());
    QString text;
    // Judged against a datasheet only where some test had a spec figure (the CPU backend has none).
    const bool judgedAgainstSpec = std::any_of(m_report.gpus.begin(), m_report.gpus.end(), [](const BurninReportGpu &g) {
        return std::any_of(g.tests.begin(), g.tests.end(), [](const BurninReportTest &t) { return t.pctOfSpec.has_value(); });
    });
    if (m_cancelRequested && (m_finished || !m_error.isEmpty()))
        text = tr("Cancelled after %1 of %2 tests: no verdict on the GPUs not tested.")
                   .arg(s.testsDone()).arg(s.testsExpected())
               + (m_report.drained.isEmpty() ? QString() : QLatin1Char(' ') + tr("Drained: %1.").arg(m_report.drained.join(QLatin1String(", "))));
    else if (!m_error.isEmpty())
        text = tr("Failed: %1").arg(m_error);
    else if (m_finished)
        text = m_report.passed ? (judgedAgainstSpec ? tr("Passed: every GPU within its datasheet and its peers.")
                                                    : tr("Passed: every GPU consistent with its peers (no datasheet figure to "
                                                         "judge this backend against)."))
                               : (m_report.failedGpus() == 1 ? tr("FAILED: 1 GPU failed.") : tr("FAILED: %1 GPUs failed.").arg(m_report.failedGpus()))
                                     + (m_report.problems.isEmpty() ? QString() : QLatin1Char(' ') + m_report.problems.first());
    else
        text = tr("%1 · %2 · %3 failing so far")
                   .arg(m_stage.isEmpty() ? tr("starting") : m_stage,
                        tr("%1 for %2 s each").arg(m_request.tests.join(QStringLiteral(", "))).arg(m_request.durationSeconds),
                        s.failing() == 1 ? tr("1 GPU") : tr("%1 GPUs").arg(s.failing()));
    m_state->setText(text);
}

void BurninWindow::onCompleted(const BurninVerdict &verdict, const QStringList &drained, const QStringList &notDrained)
{
    m_finished = true;
    m_model->finish(verdict);
    m_report = BurninReport::build(verdict, m_session->runs());
    m_report.jobId = m_jobId.isEmpty() ? m_session->jobId() : m_jobId;
    m_report.startedAt = m_startedAt;
    m_report.finishedAt = QDateTime::currentDateTimeUtc();
    m_report.drained = drained;
    m_report.notDrained = notDrained;
    m_cancel->setEnabled(false);
    m_exportJson->setEnabled(true);
    m_exportHtml->setEnabled(true);
    fillReport();
    m_tabs->setTabEnabled(1, true);
    m_tabs->setCurrentIndex(1);
    updateHeader();
    Q_EMIT finished(m_report);
}

void BurninWindow::onFailed(const QString &error)
{
    m_error = error;
    m_cancel->setEnabled(false);
    updateHeader();
    Q_EMIT failed(error);
}

void BurninWindow::fillReport()
{
    QStringList tests;
    for (const BurninReportGpu &g : m_report.gpus)
        for (const BurninReportTest &t : g.tests)
            if (!tests.contains(t.test))
                tests << t.test;
    QStringList headers{tr("Node"), tr("GPU"), tr("Model"), tr("Verdict")};
    for (const QString &t : tests)
        headers << QStringLiteral("%1 %2").arg(t, BurninReport::unitOf(t)) << tr("of spec") << tr("of peers");
    headers << tr("max °C") << tr("max W") << tr("min SM MHz") << tr("Reasons");
    m_reportTable->clear();
    m_reportTable->setColumnCount(int(headers.size()));
    m_reportTable->setHorizontalHeaderLabels(headers);
    m_reportTable->setRowCount(int(m_report.gpus.size()));
    const QColor failColour(0xc6, 0x28, 0x28);
    for (int row = 0; row < m_report.gpus.size(); ++row) {
        const BurninReportGpu &g = m_report.gpus[row];
        int column = 0;
        const auto set = [&](const QString &text, bool fail = false, bool left = false) {
            auto *item = new QTableWidgetItem(text);
            item->setTextAlignment((left ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter);
            if (fail)
                item->setForeground(failColour);
            m_reportTable->setItem(row, column++, item);
        };
        set(g.node, false, true);
        set(QString::number(g.gpu));
        set(g.model.isEmpty() ? g.backend : g.model, false, true);
        set(g.passed ? tr("pass") : tr("FAIL"), !g.passed, true);
        for (const QString &name : tests) {
            const auto it = std::find_if(g.tests.begin(), g.tests.end(), [&](const BurninReportTest &t) { return t.test == name; });
            if (it == g.tests.end()) {
                set(QStringLiteral("–"));
                set(QStringLiteral("–"));
                set(QStringLiteral("–"));
                continue;
            }
            set(it->skipped ? tr("skipped") : figure(it->figure), !it->passed && !it->skipped);
            set(percent(it->pctOfSpec));
            set(percent(it->pctOfPeers));
        }
        set(figure(g.maxTempC));
        set(figure(g.maxPowerW));
        set(figure(g.minSmClockMHz));
        set(g.reasons.join(QStringLiteral("; ")), !g.reasons.isEmpty(), true);
    }
    // One pass over the rows the report has (one per GPU; a fleet's report is rarely opened).
    m_reportTable->resizeColumnsToContents();
    QStringList notes;
    for (const QString &p : m_report.problems)
        notes << tr("Problem: %1").arg(p);
    for (const QString &d : m_report.drained)
        notes << tr("Drained: %1").arg(d);
    notes << m_report.notDrained;
    for (const QString &n : m_report.notes)
        notes << tr("Note: %1").arg(n);
    m_reportNotes->setText(notes.join(QLatin1Char('\n')));
}

QString BurninWindow::exportJson(const QString &path) const
{
    return writeFile(path, QJsonDocument(m_report.toJson()).toJson(QJsonDocument::Indented));
}

QString BurninWindow::exportHtml(const QString &path) const
{
    return writeFile(path, m_report.toHtml().toUtf8());
}

void BurninWindow::exportAs(const QString &format)
{
    const bool json = format == QLatin1String("json");
    const QString suggested = QStringLiteral("burnin-%1.%2").arg(m_report.jobId.isEmpty() ? QStringLiteral("report") : m_report.jobId, format);
    auto *dialog = new QFileDialog(this, json ? tr("Export the report as JSON") : tr("Export the report as HTML"), suggested,
                                   json ? tr("JSON (*.json)") : tr("HTML page (*.html)"));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, [this, json](const QString &path) {
        const QString error = json ? exportJson(path) : exportHtml(path);
        m_reportNotes->setText((error.isEmpty() ? tr("Written to %1").arg(path) : error) + QLatin1Char('\n') + m_reportNotes->text());
    });
    dialog->open();
}

} // namespace strata
