#pragma once

#include <QWidget>

class QPlainTextEdit;

namespace strata {

// The window's log: action results, refresh errors and connection events with a time stamp,
// instead of message boxes. Keeps the last few thousand lines. GUI thread.
class LogPanel : public QWidget
{
    Q_OBJECT
public:
    enum class Level { Info, Success, Error };

    explicit LogPanel(QWidget *parent = nullptr);
    void append(Level level, const QString &text);
    QString text() const;
    int lineCount() const;

private:
    QPlainTextEdit *m_text;
};

} // namespace strata
