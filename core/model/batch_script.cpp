#include "batch_script.h"

#include "shell_words.h"

#include <QHash>
#include <QSet>

namespace strata {

using namespace Qt::StringLiterals;

QString BatchScriptContent::sbatchOption(const QString &name) const
{
    for (qsizetype i = sbatchOptions.size() - 1; i >= 0; --i)
        if (sbatchOptions[i].first == name)
            return sbatchOptions[i].second;
    return {};
}

QString JobFabric::efaName(Efa efa)
{
    switch (efa) {
    case Efa::Yes:
        return u"yes"_s;
    case Efa::No:
        return u"no"_s;
    case Efa::Unknown:
        break;
    }
    return u"unknown"_s;
}

namespace BatchScript {

namespace {

bool isName(QStringView text)
{
    if (text.isEmpty() || !(text[0].isLetter() || text[0] == u'_') || text[0].unicode() > 127)
        return false;
    for (const QChar c : text)
        if (c.unicode() > 127 || !(c.isLetterOrNumber() || c == u'_'))
            return false;
    return true;
}

// "NAME=value" with a valid NAME: the position of '='; -1 otherwise.
qsizetype assignmentAt(const QString &word)
{
    const qsizetype eq = word.indexOf(u'=');
    return eq > 0 && isName(QStringView(word).left(eq)) ? eq : -1;
}

// The line without a trailing comment (a '#' that starts a word outside quotes).
QString withoutComment(const QString &line)
{
    const qsizetype at = ShellWords::findUnquoted(
        line, [&line](qsizetype i) { return line[i] == u'#' && (i == 0 || line[i - 1].isSpace()); });
    return at < 0 ? line : line.left(at);
}

// Split at ; && || | and & outside quotes and $( ), keeping redirections (2>&1, &>) whole.
QStringList statementsOf(const QString &line)
{
    QStringList out;
    qsizetype start = 0;
    const auto cut = [&](qsizetype end) {
        const QString s = line.mid(start, end - start).trimmed();
        if (!s.isEmpty())
            out << s;
        start = end + 1;
    };
    int depth = 0;
    ShellWords::findUnquoted(line, [&](qsizetype i) {
        const QChar c = line[i];
        if (c == u'(' && i > 0 && (line[i - 1] == u'$' || depth > 0)) {
            ++depth;
        } else if (c == u')' && depth > 0) {
            --depth;
        } else if (depth == 0 && (c == u';' || c == u'|')) {
            cut(i); // the second of ;; || is a cut before an empty statement
        } else if (depth == 0 && c == u'&') {
            const bool redirection = (i > 0 && (line[i - 1] == u'>' || line[i - 1] == u'<'))
                || (i + 1 < line.size() && line[i + 1] == u'>');
            if (!redirection)
                cut(i);
        }
        return false;
    });
    cut(line.size());
    return out;
}

// Where an unquoted here-document operator (<< or <<-, not <<<) starts; -1 when none.
qsizetype unquotedHeredoc(const QString &line)
{
    const qsizetype at = ShellWords::findUnquoted(
        line, [&line](qsizetype i) { return line[i] == u'<' && i + 1 < line.size() && line[i + 1] == u'<'; });
    return at >= 0 && at + 2 < line.size() && line[at + 2] == u'<' ? -1 : at;
}

// Shell words that only shape control flow: dropped from the front of a statement.
const QSet<QString> &leadingKeywords()
{
    static const QSet<QString> words{u"if"_s, u"then"_s, u"else"_s, u"elif"_s, u"do"_s, u"while"_s, u"until"_s,
                                     u"!"_s, u"time"_s, u"exec"_s, u"nohup"_s, u"{"_s, u"("_s};
    return words;
}

const QHash<QString, QString> &shortSbatchOptions()
{
    static const QHash<QString, QString> names{{u"N"_s, u"nodes"_s},     {u"n"_s, u"ntasks"_s},
                                               {u"G"_s, u"gpus"_s},      {u"J"_s, u"job-name"_s},
                                               {u"p"_s, u"partition"_s}, {u"t"_s, u"time"_s},
                                               {u"c"_s, u"cpus-per-task"_s}, {u"A"_s, u"account"_s},
                                               {u"o"_s, u"output"_s},    {u"e"_s, u"error"_s}};
    return names;
}

void readSbatchLine(const QString &rest, BatchScriptContent &out)
{
    const QStringList words = ShellWords::split(withoutComment(rest));
    for (qsizetype i = 0; i < words.size(); ++i) {
        const QString &w = words[i];
        QString name, value;
        bool valueInline = false;
        if (w.startsWith("--"_L1)) {
            const qsizetype eq = w.indexOf(u'=');
            name = eq < 0 ? w.mid(2) : w.mid(2, eq - 2);
            if (eq >= 0)
                value = w.mid(eq + 1), valueInline = true;
        } else if (w.size() >= 2 && w[0] == u'-' && w[1] != u'-') {
            name = shortSbatchOptions().value(w.mid(1, 1), w.mid(1, 1));
            if (w.size() > 2)
                value = w.mid(w[2] == u'=' ? 3 : 2), valueInline = true;
        } else {
            continue;
        }
        if (!valueInline && i + 1 < words.size() && !words[i + 1].startsWith(u'-'))
            value = words[++i];
        if (!name.isEmpty())
            out.sbatchOptions.append({name, value});
    }
}

QString unquoted(QString value)
{
    if (value.size() >= 2 && (value.front() == u'"' || value.front() == u'\'') && value.back() == value.front())
        value = value.mid(1, value.size() - 2);
    return value;
}

void readStatement(const QString &text, BatchScriptContent &out)
{
    QStringList words = ShellWords::split(text, ShellWords::Substitutions::KeepWhole);
    while (!words.isEmpty() && leadingKeywords().contains(words.first()))
        words.removeFirst();
    if (words.isEmpty())
        return;
    static const QSet<QString> ignored{u"fi"_s, u"done"_s, u"esac"_s, u"}"_s, u")"_s, u"for"_s, u"case"_s,
                                       u"function"_s, u"return"_s, u"set"_s, u"shift"_s, u"trap"_s, u"unset"_s};
    if (ignored.contains(words.first()))
        return;
    using Statement = BatchScriptContent::Statement;
    static const QSet<QString> declarations{u"export"_s, u"declare"_s, u"typeset"_s, u"readonly"_s, u"local"_s};
    if (declarations.contains(words.first())) {
        const bool exported = words.first() == "export"_L1
            || words.mid(1).contains(u"-x"_s) || words.mid(1).contains(u"-gx"_s);
        for (qsizetype i = 1; i < words.size(); ++i) {
            const QString &w = words[i];
            if (w.startsWith(u'-'))
                continue;
            const qsizetype eq = assignmentAt(w);
            Statement s;
            s.kind = Statement::Kind::Assignment;
            s.exported = exported;
            if (eq > 0) {
                s.name = w.left(eq);
                s.value = w.mid(eq + 1);
            } else if (isName(w)) {
                s.name = w; // export NAME: exports what was set before; value stays empty
            } else {
                continue;
            }
            out.statements << s;
        }
        return;
    }
    qsizetype k = 0;
    while (k < words.size() && assignmentAt(words[k]) > 0)
        ++k;
    const bool prefix = k < words.size(); // VAR=x cmd: VAR is in cmd's environment
    for (qsizetype i = 0; i < k; ++i) {
        Statement s;
        s.kind = Statement::Kind::Assignment;
        const qsizetype eq = assignmentAt(words[i]);
        s.name = words[i].left(eq);
        s.value = words[i].mid(eq + 1);
        s.exported = prefix;
        out.statements << s;
    }
    if (prefix) {
        Statement s;
        s.kind = Statement::Kind::Command;
        s.text = text;
        out.statements << s;
    }
}

void readFabric(BatchScriptContent &out)
{
    QStringList names;
    QHash<QString, QString> values;
    for (const BatchScriptContent::Statement &s : std::as_const(out.statements)) {
        if (s.kind != BatchScriptContent::Statement::Kind::Assignment)
            continue;
        if (!s.name.startsWith("NCCL_"_L1) && !s.name.startsWith("FI_"_L1) && !s.name.startsWith("OFI_NCCL_"_L1))
            continue;
        if (s.valueUnknown) {
            if (!values.contains(s.name))
                names << s.name;
            values.insert(s.name, u'<' + s.value + u'>');
            continue;
        }
        if (s.value.isEmpty() && !s.exported)
            continue;
        if (s.value.isEmpty() && values.contains(s.name))
            continue; // `export NAME` after NAME=value
        if (!values.contains(s.name))
            names << s.name;
        values.insert(s.name, unquoted(s.value));
    }
    JobFabric &f = out.fabric;
    for (const QString &name : std::as_const(names))
        f.settings << name + u'=' + values.value(name);
    QString provider = values.value(u"FI_PROVIDER"_s).trimmed().toLower();
    const QString ncclNet = values.value(u"NCCL_NET"_s).trimmed().toLower();
    bool efaSetting = false;
    for (const QString &name : std::as_const(names))
        efaSetting = efaSetting || name.startsWith("FI_EFA_"_L1);
    if (provider.startsWith(u'<'))
        provider.clear(); // set from elsewhere: says nothing here
    if (provider == "efa"_L1)
        f.usesEfa = JobFabric::Efa::Yes;
    else if (!provider.isEmpty() && !provider.startsWith(u'$'))
        f.usesEfa = JobFabric::Efa::No;
    else if (ncclNet == "socket"_L1 || ncclNet == "ib"_L1)
        f.usesEfa = JobFabric::Efa::No;
    else if (efaSetting)
        f.usesEfa = JobFabric::Efa::Yes;
}

// "h100:8" -> 8, "8" -> 8; 0 when not a count.
int lastCount(const QString &text)
{
    bool ok = false;
    const int v = text.section(u':', -1).toInt(&ok);
    return ok && v > 0 ? v : 0;
}

int plainCount(const QString &text)
{
    bool ok = false;
    const int v = text.toInt(&ok);
    return ok && v > 0 ? v : 0;
}

// A tiny integer evaluator for $(( )): + - * / % and parentheses over numbers and variables.
class Arithmetic
{
public:
    Arithmetic(QStringView text, const QHash<QString, QString> &vars) : m_text(text), m_vars(vars) {}
    std::optional<qint64> evaluate()
    {
        const auto v = sum();
        skipBlanks();
        return v && m_pos == m_text.size() ? v : std::nullopt;
    }

private:
    void skipBlanks()
    {
        while (m_pos < m_text.size() && m_text[m_pos].isSpace())
            ++m_pos;
    }
    std::optional<qint64> sum()
    {
        auto left = product();
        while (left) {
            skipBlanks();
            if (m_pos >= m_text.size() || (m_text[m_pos] != u'+' && m_text[m_pos] != u'-'))
                break;
            const QChar op = m_text[m_pos++];
            const auto right = product();
            if (!right)
                return std::nullopt;
            left = op == u'+' ? *left + *right : *left - *right;
        }
        return left;
    }
    std::optional<qint64> product()
    {
        auto left = atom();
        while (left) {
            skipBlanks();
            if (m_pos >= m_text.size() || (m_text[m_pos] != u'*' && m_text[m_pos] != u'/' && m_text[m_pos] != u'%'))
                break;
            const QChar op = m_text[m_pos++];
            const auto right = atom();
            if (!right || (op != u'*' && *right == 0))
                return std::nullopt;
            if (op == u'*' && (qAbs(*left) > 1000000000 || qAbs(*right) > 1000000000))
                return std::nullopt;
            left = op == u'*' ? *left * *right : op == u'/' ? *left / *right : *left % *right;
        }
        return left;
    }
    std::optional<qint64> atom()
    {
        skipBlanks();
        if (m_pos >= m_text.size() || ++m_depth > 32)
            return std::nullopt;
        if (m_text[m_pos] == u'(') {
            ++m_pos;
            const auto v = sum();
            skipBlanks();
            if (!v || m_pos >= m_text.size() || m_text[m_pos] != u')')
                return std::nullopt;
            ++m_pos;
            return v;
        }
        if (m_text[m_pos] == u'$')
            ++m_pos;
        const qsizetype start = m_pos;
        while (m_pos < m_text.size() && (m_text[m_pos].isLetterOrNumber() || m_text[m_pos] == u'_'))
            ++m_pos;
        const QStringView word = m_text.sliced(start, m_pos - start);
        if (word.isEmpty())
            return std::nullopt;
        bool ok = false;
        qint64 v = word.toLongLong(&ok);
        if (!ok) {
            if (!m_vars.contains(word.toString()))
                return std::nullopt;
            v = m_vars.value(word.toString()).trimmed().toLongLong(&ok);
            if (!ok)
                return std::nullopt;
        }
        return v;
    }

    QStringView m_text;
    const QHash<QString, QString> &m_vars;
    qsizetype m_pos = 0;
    int m_depth = 0;
};

QString expand(const QString &text, QHash<QString, QString> &vars, int depth = 0)
{
    if (depth > 4)
        return text;
    QString out;
    bool inSingle = false;
    bool inDouble = false; // an apostrophe inside double quotes quotes nothing
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (out.size() > kMaxLineChars)
            return text; // runaway growth (X=$X$X...): leave it as written
        if (c == u'\\' && !inSingle && i + 1 < text.size()) {
            out += c;
            out += text[++i]; // \$ is a dollar sign, not an expansion
            continue;
        }
        if ((c == u'\'' && !inDouble) || (c == u'"' && !inSingle)) {
            (c == u'"' ? inDouble : inSingle) = !(c == u'"' ? inDouble : inSingle);
            out += c;
            continue;
        }
        if (inSingle || c != u'$' || i + 1 >= text.size()) {
            out += c;
            continue;
        }
        const QChar next = text[i + 1];
        if (next == u'(' && i + 2 < text.size() && text[i + 2] == u'(') {
            const qsizetype end = ShellWords::closingBracket(text, i + 1);
            if (end > 0) {
                const QString inner = text.mid(i + 3, end - i - 4);
                const auto value = Arithmetic(inner, vars).evaluate();
                if (value) {
                    out += QString::number(*value);
                    i = end;
                    continue;
                }
            }
            out += c;
        } else if (next == u'(') {
            const qsizetype end = ShellWords::closingBracket(text, i + 1);
            out += end > 0 ? text.mid(i, end - i + 1) : text.mid(i);
            i = end > 0 ? end : text.size();
        } else if (next == u'{') {
            const qsizetype end = ShellWords::closingBracket(text, i + 1);
            if (end < 0) {
                out += c;
                continue;
            }
            const QString inner = text.mid(i + 2, end - i - 2);
            qsizetype nameEnd = 0;
            while (nameEnd < inner.size() && (inner[nameEnd].isLetterOrNumber() || inner[nameEnd] == u'_'))
                ++nameEnd;
            const QString name = inner.left(nameEnd);
            const QStringView op = QStringView(inner).mid(nameEnd);
            const bool known = vars.contains(name) && (!op.startsWith(u':') || !vars.value(name).isEmpty());
            if (op.isEmpty() && known) {
                out += vars.value(name);
            } else if ((op.startsWith(u":-"_s) || op.startsWith(u":="_s) || op.startsWith(u'-') || op.startsWith(u'='))
                       && isName(name)) {
                if (known) {
                    out += vars.value(name);
                } else {
                    const QString fallback = expand(op.mid(op.startsWith(u':') ? 2 : 1).toString(), vars, depth + 1);
                    if (op.contains(u'='))
                        vars.insert(name, fallback);
                    out += fallback;
                }
            } else {
                out += text.mid(i, end - i + 1);
            }
            i = end;
        } else if (next.isLetter() || next == u'_') {
            qsizetype end = i + 1;
            while (end < text.size() && (text[end].isLetterOrNumber() || text[end] == u'_'))
                ++end;
            const QString name = text.mid(i + 1, end - i - 1);
            out += vars.contains(name) ? vars.value(name) : text.mid(i, end - i);
            i = end - 1;
        } else {
            out += c;
        }
    }
    return out;
}

} // namespace

BatchScriptContent parse(const QByteArray &content)
{
    return parse(content, {});
}

BatchScriptContent parse(const QByteArray &content, const QVector<BatchScriptContent::Statement> &environment)
{
    BatchScriptContent out;
    out.statements = environment;
    QByteArray bytes = content;
    if (bytes.size() > kMaxBytes) {
        out.truncated = true;
        bytes.truncate(kMaxBytes);
        const qsizetype lastLine = bytes.lastIndexOf('\n');
        if (lastLine > 0)
            bytes.truncate(lastLine + 1);
    }
    bytes.replace("\r\n", "\n");
    QString text = QString::fromUtf8(bytes);
    for (QChar &c : text)
        if ((c.unicode() < 0x20 && c != u'\n' && c != u'\t') || c.unicode() == 0x7f)
            c = u' ';

    bool inHeader = true;
    QString logical;
    bool skipping = false;
    QString heredocEnd; // inside a here-document: the line that ends it
    bool heredocTabs = false;
    const QStringList lines = text.split(u'\n');
    for (const QString &physical : lines) {
        if (!heredocEnd.isEmpty()) {
            if ((heredocTabs ? physical.trimmed() : physical) == heredocEnd)
                heredocEnd.clear();
            continue;
        }
        const bool continued = physical.endsWith(u'\\') && !physical.trimmed().startsWith(u'#');
        if (!skipping && logical.size() + physical.size() <= kMaxLineChars)
            logical += continued ? physical.chopped(1) : physical;
        else
            skipping = true;
        if (continued)
            continue;
        if (skipping) {
            ++out.skippedLines;
            skipping = false;
            logical.clear();
            continue;
        }
        const QString line = logical.trimmed();
        logical.clear();
        if (line.isEmpty())
            continue;
        if (line.startsWith(u'#')) {
            if (inHeader && line.startsWith("#SBATCH"_L1) && (line.size() == 7 || line[7].isSpace()))
                readSbatchLine(line.mid(7), out);
            continue;
        }
        inHeader = false;
        const QString code = withoutComment(line);
        // A here-document's body is data (a config file, a hostfile), not commands.
        if (const qsizetype at = unquotedHeredoc(code); at >= 0) {
            QString word = code.mid(at + 2);
            heredocTabs = word.startsWith(u'-');
            if (heredocTabs)
                word = word.mid(1);
            word = word.trimmed();
            qsizetype end = 0;
            while (end < word.size() && !word[end].isSpace() && !QStringView(u"<>|&;()").contains(word[end]))
                ++end;
            word = word.left(end);
            word.remove(u'\'').remove(u'"').remove(u'\\');
            heredocEnd = word;
        }
        for (const QString &statement : statementsOf(code))
            readStatement(statement, out);
    }
    readFabric(out);
    return out;
}

BatchScriptAllocation allocation(const BatchScriptContent &script, int jobNodes, int jobGpusPerNode)
{
    BatchScriptAllocation a;
    a.nodes = jobNodes > 0 ? jobNodes : plainCount(script.sbatchOption(u"nodes"_s));
    a.tasksPerNode = plainCount(script.sbatchOption(u"ntasks-per-node"_s));
    a.tasks = plainCount(script.sbatchOption(u"ntasks"_s));
    if (a.tasks == 0 && a.nodes > 0 && a.tasksPerNode > 0)
        a.tasks = a.nodes * a.tasksPerNode;
    a.gpusPerNode = jobGpusPerNode;
    if (a.gpusPerNode <= 0)
        a.gpusPerNode = lastCount(script.sbatchOption(u"gpus-per-node"_s));
    if (a.gpusPerNode <= 0) {
        for (const QString &gres : script.sbatchOption(u"gres"_s).split(u','))
            if (gres.startsWith("gpu:"_L1) && (a.gpusPerNode = lastCount(gres)) > 0)
                break;
    }
    if (a.gpusPerNode <= 0 && a.nodes > 0)
        if (const int total = lastCount(script.sbatchOption(u"gpus"_s)); total > 0 && total % a.nodes == 0)
            a.gpusPerNode = total / a.nodes;
    return a;
}

QVector<QStringList> commands(const BatchScriptContent &script, const BatchScriptAllocation &allocation)
{
    QVector<QStringList> out;
    for (BatchScriptCommand &command : commandsWithEnvironment(script, allocation, {}))
        out << std::move(command.words);
    return out;
}

QVector<BatchScriptCommand> commandsWithEnvironment(const BatchScriptContent &script,
                                                    const BatchScriptAllocation &allocation,
                                                    const QStringList &environmentNames)
{
    QHash<QString, QString> vars;
    QSet<QString> exported;
    const auto seed = [&](std::initializer_list<QLatin1StringView> names, int value) {
        if (value > 0)
            for (const QLatin1StringView name : names) {
                vars.insert(QString(name), QString::number(value));
                exported.insert(QString(name));
            }
    };
    seed({"SLURM_NNODES"_L1, "SLURM_JOB_NUM_NODES"_L1}, allocation.nodes);
    seed({"SLURM_GPUS_ON_NODE"_L1, "SLURM_GPUS_PER_NODE"_L1}, allocation.gpusPerNode);
    seed({"SLURM_NTASKS"_L1, "SLURM_NPROCS"_L1}, allocation.tasks);
    seed({"SLURM_NTASKS_PER_NODE"_L1}, allocation.tasksPerNode);
    QVector<BatchScriptCommand> out;
    for (const BatchScriptContent::Statement &s : script.statements) {
        if (s.kind == BatchScriptContent::Statement::Kind::Assignment) {
            if (s.exported)
                exported.insert(s.name);
            if (s.value.isEmpty() && !s.valueUnknown && vars.contains(s.name))
                continue; // `export NAME`
            if (s.valueUnknown)
                vars.remove(s.name);
            else if (s.value.contains("$("_L1) && !s.value.contains("$(("_L1))
                vars.remove(s.name); // a command's output: unknown here
            else if (s.value.contains(u'`'))
                vars.remove(s.name);
            else
                vars.insert(s.name, expand(s.value, vars));
            continue;
        }
        QStringList words = ShellWords::split(expand(s.text, vars), ShellWords::Substitutions::KeepWhole);
        while (!words.isEmpty() && (leadingKeywords().contains(words.first()) || assignmentAt(words.first()) > 0))
            words.removeFirst();
        if (words.isEmpty())
            continue;
        BatchScriptCommand command;
        command.words = std::move(words);
        for (const QString &name : environmentNames)
            if (exported.contains(name) && vars.contains(name))
                command.environment.insert(name, unquoted(vars.value(name)));
        out << std::move(command);
    }
    return out;
}

} // namespace BatchScript
} // namespace strata
