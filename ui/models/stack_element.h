#pragma once

#include <QString>

namespace strata {

// One thing a person can pick in the stack: an instance type, a node, one GPU, a partition,
// a job or a framework (what runs inside jobs).
struct StackElement
{
    enum class Layer { None, InstanceType, Node, Gpu, Partition, Job, Framework };
    Layer layer = Layer::None;
    QString key;  // instance type, node name, partition name, job id or framework (for a GPU: its node)
    int gpu = -1; // GPU index, Layer::Gpu only

    static StackElement instanceType(const QString &name) { return {Layer::InstanceType, name, -1}; }
    static StackElement node(const QString &name) { return {Layer::Node, name, -1}; }
    static StackElement gpuOf(const QString &node, int index) { return {Layer::Gpu, node, index}; }
    static StackElement partition(const QString &name) { return {Layer::Partition, name, -1}; }
    static StackElement job(const QString &id) { return {Layer::Job, id, -1}; }
    static StackElement framework(const QString &name) { return {Layer::Framework, name, -1}; }

    bool isValid() const { return layer != Layer::None && !key.isEmpty(); }
    bool operator==(const StackElement &) const = default;
};

} // namespace strata
