#include "preferences_dialog.h"

#include "views/heatmap_metric.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QVBoxLayout>

namespace strata {

PreferencesDialog::PreferencesDialog(const DisplayPreferences &p, QWidget *parent, const QString &defaultTerminal)
    : QDialog(parent), m_refresh(new QSpinBox(this)), m_temperature(new QComboBox(this)),
      m_memory(new QComboBox(this)), m_metric(new QComboBox(this)), m_terminal(new QLineEdit(this))
{
    setObjectName(QStringLiteral("preferencesDialog"));
    setWindowTitle(tr("Preferences"));
    auto *layout = new QVBoxLayout(this);
    auto *form = new QFormLayout;
    m_refresh->setObjectName(QStringLiteral("refreshInterval"));
    m_refresh->setRange(0, 3600);
    m_refresh->setSuffix(tr(" s"));
    m_refresh->setSpecialValueText(tr("as set in each cluster profile"));
    m_refresh->setValue(p.refreshIntervalSeconds);
    m_temperature->setObjectName(QStringLiteral("temperatureUnit"));
    m_temperature->addItem(tr("Celsius (°C)"), int(DisplayPreferences::TemperatureUnit::Celsius));
    m_temperature->addItem(tr("Fahrenheit (°F)"), int(DisplayPreferences::TemperatureUnit::Fahrenheit));
    m_temperature->setCurrentIndex(m_temperature->findData(int(p.temperatureUnit)));
    m_memory->setObjectName(QStringLiteral("memoryUnit"));
    m_memory->addItem(tr("GiB"), int(DisplayPreferences::MemoryUnit::GiB));
    m_memory->addItem(tr("MiB"), int(DisplayPreferences::MemoryUnit::MiB));
    m_memory->setCurrentIndex(m_memory->findData(int(p.memoryUnit)));
    m_metric->setObjectName(QStringLiteral("heatmapMetric"));
    for (HeatmapMetric::Kind k : HeatmapMetric::all())
        m_metric->addItem(HeatmapMetric::label(k), HeatmapMetric::id(k));
    m_metric->setCurrentIndex(qMax(0, m_metric->findData(p.heatmapMetric)));
    form->addRow(tr("&Refresh every:"), m_refresh);
    form->addRow(tr("&Temperatures in:"), m_temperature);
    form->addRow(tr("&Memory in:"), m_memory);
    form->addRow(tr("&Heatmap shows:"), m_metric);
    m_terminal->setObjectName(QStringLiteral("terminalCommand"));
    m_terminal->setText(p.terminalCommand);
    m_terminal->setPlaceholderText(defaultTerminal);
    m_terminal->setClearButtonEnabled(true);
    m_terminal->setToolTip(tr("The terminal \"Open shell\" starts. {command} is the ssh command (one argument "
                              "per word when it stands alone, one quoted string inside a longer word such "
                              "as sh -c \"{command}; read\"), {title} the window title. Empty: $TERMINAL, "
                              "else x-terminal-emulator, else xterm."));
    m_terminal->setAccessibleName(tr("Terminal command"));
    form->addRow(tr("Te&rminal:"), m_terminal);
    layout->addLayout(form);
    auto *note = new QLabel(tr("Colours follow the desktop's light or dark palette; the heatmap "
                               "scale (viridis) reads on both."),
                            this);
    note->setWordWrap(true);
    layout->addWidget(note);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

DisplayPreferences PreferencesDialog::preferences() const
{
    DisplayPreferences p;
    p.refreshIntervalSeconds = m_refresh->value() == 1 ? 2 : m_refresh->value();
    p.temperatureUnit = DisplayPreferences::TemperatureUnit(m_temperature->currentData().toInt());
    p.memoryUnit = DisplayPreferences::MemoryUnit(m_memory->currentData().toInt());
    p.heatmapMetric = m_metric->currentData().toString();
    p.terminalCommand = m_terminal->text().trimmed();
    return p;
}

} // namespace strata
