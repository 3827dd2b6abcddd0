#pragma once

#include "display_preferences.h"

#include <QDialog>

class QComboBox;
class QSpinBox;

namespace strata {

// Refresh interval, units and the heatmap's default metric. GUI thread; open() it.
class PreferencesDialog : public QDialog
{
    Q_OBJECT
public:
    explicit PreferencesDialog(const DisplayPreferences &preferences, QWidget *parent = nullptr);

    DisplayPreferences preferences() const;

private:
    QSpinBox *m_refresh;
    QComboBox *m_temperature;
    QComboBox *m_memory;
    QComboBox *m_metric;
};

} // namespace strata
