#include "shell_words.h"

namespace strata::ShellWords {

qsizetype closingBracket(const QString &text, qsizetype open)
{
    if (open < 0 || open >= text.size() || (text[open] != u'(' && text[open] != u'{'))
        return -1;
    const QChar opener = text[open];
    const QChar closer = opener == u'(' ? u')' : u'}';
    int depth = 0;
    for (qsizetype i = open; i < text.size(); ++i) {
        if (text[i] == opener)
            ++depth;
        else if (text[i] == closer && --depth == 0)
            return i;
    }
    return -1;
}

QStringList split(const QString &text, Substitutions substitutions)
{
    QStringList out;
    QString word;
    bool inWord = false;
    QChar quote;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (substitutions == Substitutions::KeepWhole && quote != u'\'' && c == u'$' && i + 1 < text.size()
            && (text[i + 1] == u'(' || text[i + 1] == u'{')) {
            const qsizetype end = closingBracket(text, i + 1);
            if (end > 0) {
                word += text.mid(i, end - i + 1);
                inWord = true;
                i = end;
                continue;
            }
        }
        if (!quote.isNull()) {
            if (c == quote)
                quote = QChar();
            else if (c == u'\\' && quote == u'"' && i + 1 < text.size())
                word += text[++i];
            else
                word += c;
        } else if (c == u'\'' || c == u'"') {
            quote = c;
            inWord = true;
        } else if (c == u'\\' && i + 1 < text.size()) {
            word += text[++i];
            inWord = true;
        } else if (c.isSpace()) {
            if (inWord)
                out << word;
            word.clear();
            inWord = false;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (inWord)
        out << word;
    return out;
}

qsizetype findUnquoted(const QString &text, const std::function<bool(qsizetype)> &isWanted)
{
    QChar quote;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (!quote.isNull()) {
            if (c == quote)
                quote = QChar();
            else if (c == u'\\' && quote == u'"')
                ++i;
        } else if (c == u'\\') {
            ++i;
        } else if (c == u'\'' || c == u'"') {
            quote = c;
        } else if (isWanted(i)) {
            return i;
        }
    }
    return -1;
}

} // namespace strata::ShellWords
