#pragma once

#include "display_preferences.h"

#include <QDialog>

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace strata {

// Refresh interval, units, the heatmap's default metric and the terminal of "Open shell".
// GUI thread; open() it.
class PreferencesDialog : public QDialog
{
    Q_OBJECT
public:
    // defaultTerminal: what an empty terminal command stands for (shown as the placeholder).
    explicit PreferencesDialog(const DisplayPreferences &preferences, QWidget *parent = nullptr,
                               const QString &defaultTerminal = {});

    DisplayPreferences preferences() const;

private:
    QSpinBox *m_refresh;
    QComboBox *m_temperature;
    QComboBox *m_memory;
    QComboBox *m_metric;
    QLineEdit *m_terminal;
};

} // namespace strata
