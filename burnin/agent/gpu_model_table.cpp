#include "gpu_model_table.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <vector>

namespace strata::burn {

namespace {

struct Row
{
    const char *model;
    const char *names; // token patterns, each ending in '|'; tokens separated by spaces
    const char *exact; // whole names, each ending in '|'
    double bf16Tflops;
    double hbmTBps;
};

const Row kRows[] = {
#include "gpu_model_rows.inc"
};

std::string lower(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

std::vector<std::string> tokens(std::string_view s)
{
    std::vector<std::string> out;
    std::string current;
    for (char c : lower(s)) {
        if (c == '-' || c == '_' || c == '/' || std::isspace(static_cast<unsigned char>(c))) {
            if (!current.empty())
                out.push_back(current);
            current.clear();
        } else {
            current += c;
        }
    }
    if (!current.empty())
        out.push_back(current);
    return out;
}

std::vector<std::string> split(std::string_view list)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    for (std::size_t bar = list.find('|'); bar != std::string_view::npos; bar = list.find('|', start)) {
        out.emplace_back(list.substr(start, bar - start));
        start = bar + 1;
    }
    return out;
}

} // namespace

std::optional<GpuModelSpec> gpuModelForName(std::string_view name)
{
    const std::vector<std::string> list = tokens(name);
    if (list.empty())
        return std::nullopt;
    const std::string whole = lower(name);
    for (const Row &row : kRows) {
        const std::vector<std::string> exact = split(row.exact);
        if (lower(row.model) == whole || std::find(exact.begin(), exact.end(), whole) != exact.end())
            return GpuModelSpec{row.model, row.bf16Tflops, row.hbmTBps};
    }
    const std::set<std::string> present(list.begin(), list.end());
    const Row *best = nullptr;
    std::size_t bestScore = 0;
    bool tie = false;
    for (const Row &row : kRows) {
        for (const std::string &pattern : split(row.names)) {
            const std::vector<std::string> wanted = tokens(pattern);
            if (wanted.empty() || wanted.size() < bestScore)
                continue;
            if (!std::all_of(wanted.begin(), wanted.end(), [&](const std::string &t) { return present.count(t) > 0; }))
                continue;
            if (wanted.size() > bestScore) {
                best = &row;
                bestScore = wanted.size();
                tie = false;
            } else if (best != &row) {
                tie = true;
            }
        }
    }
    if (!best || tie)
        return std::nullopt;
    return GpuModelSpec{best->model, best->bf16Tflops, best->hbmTBps};
}

} // namespace strata::burn
