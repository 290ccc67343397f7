//===- NetworkPicture.cpp - a kernel drawn as the papers draw networks ----===//

#include "NetworkPicture.h"
#include "Obs/Analysis/KernelSimulation.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Format.h"
#include <map>
#include <set>

using namespace mlir;
using namespace mlir::obs;

namespace {
/// What one stage does: for each set of elements read together, the
/// elements computed from them. A comparator reads two elements and writes
/// two; a fan's combine reads the pivot and one element.
struct Stage {
  std::map<std::set<int64_t>, std::set<int64_t>> writesByReads;
};

/// Geometry of the picture.
constexpr double kMargin = 40, kColumn = 40, kLane = 12, kRow = 18, kTop = 30;

/// The elements each stage reads and writes, and how many wires the
/// picture draws (one past the highest element touched).
struct Network {
  std::vector<Stage> stages;
  int64_t wires = 0;
};

/// Where each stage and each link of it goes in the picture.
struct Layout {
  /// Per stage, the lane of each of its links (in the order of
  /// Stage::writesByReads).
  std::vector<std::vector<unsigned>> lanes;
  /// Where each stage's column starts; the last entry is where the last
  /// one ends.
  std::vector<double> columnStart;
  double width = 0, height = 0;

  double x(unsigned column) const { return columnStart[column]; }
  double y(int64_t wire) const { return kTop + kMargin / 2 + wire * kRow; }
};
} // namespace

/// A coordinate as the picture writes it.
static auto num(double v) { return llvm::format("%.1f", v); }

/// Builds into `scratch` a copy of `kernel` with its threads, its shared
/// plan and its syncs' refinements taken off. A kernel that asks where its
/// block is, or how much of its chunk is present, is drawn as block 0 of a
/// launch with every element present: the proofs take both to be any value,
/// which has no one picture, but every block's network is one block's.
static KernelOp copyPlain(KernelOp kernel, ModuleOp scratch) {
  OpBuilder builder(kernel.getContext());
  builder.setInsertionPointToEnd(scratch.getBody());
  auto plain = cast<KernelOp>(builder.clone(*kernel));
  plain.removeThreadsAttr();
  (void)takeSharedPlan(plain);
  plain.walk([](SyncOp sync) {
    sync.removeScopeAttr();
    sync.removePlacementAttr();
    sync.removeHowAttr();
    sync.removePlanAttr();
  });
  plain.walk([&](Operation *op) {
    std::optional<int64_t> value;
    if (isa<BlockIdOp>(op))
      value = 0;
    else if (auto extent = dyn_cast<ExtentOp>(op))
      value = cast<ArrType>(extent.getArray().getType()).getLength();
    if (!value)
      return;
    builder.setInsertionPoint(op);
    op->replaceAllUsesWith(
        arith::ConstantIndexOp::create(builder, op->getLoc(), *value));
    op->erase();
  });
  return plain;
}

/// The stages of the network `run` ran, in its `phases` phases.
static Network collectStages(const BlockRun &run, unsigned phases) {
  // Stages: per phase and thread, what was written and what was read.
  Network network;
  std::vector<
      std::map<unsigned, std::pair<std::set<int64_t>, std::set<int64_t>>>>
      perThread(phases);
  for (const Access &access : run.getAccesses()) {
    // A thread's fold over a whole input (an element-level reduce or scan)
    // reads it all; the picture draws the network's links, not folds.
    if (access.element < 0)
      continue;
    auto &[written, read] = perThread[access.phase][access.thread];
    (access.write ? written : read).insert(access.element);
    network.wires = std::max(network.wires, access.element + 1);
  }
  network.stages.resize(phases);
  for (unsigned phase = 0; phase < phases; ++phase)
    for (auto &[thread, sets] : perThread[phase])
      if (!sets.first.empty())
        network.stages[phase].writesByReads[sets.second].insert(
            sets.first.begin(), sets.first.end());
  return network;
}

/// The sync of `syncs` (the kernel's, in program order) that barrier
/// `barrier` of `run` is, or null for a barrier of the lowering's own.
static SyncOp syncOf(const BlockRun &run, ArrayRef<SyncOp> syncs,
                     unsigned barrier) {
  Operation *op = run.getBarriers()[barrier].op;
  IntegerAttr index =
      ObsDialect::SyncIndexAttrHelper(op->getContext()).getAttr(op);
  if (!index || index.getInt() < 0 ||
      index.getInt() >= static_cast<int64_t>(syncs.size()))
    return {};
  return syncs[index.getInt()];
}

/// Lays out `network`: links whose spans overlap are drawn side by side, in
/// lanes, as the papers draw comparators: first fit by span.
static Layout layOut(const Network &network) {
  unsigned phases = network.stages.size();
  Layout layout;
  layout.lanes.resize(phases);
  layout.columnStart.assign(phases + 1, kMargin);
  for (unsigned phase = 0; phase < phases; ++phase) {
    std::vector<std::vector<std::pair<int64_t, int64_t>>> used;
    for (auto &[read, written] : network.stages[phase].writesByReads) {
      unsigned lane = 0;
      if (read.size() >= 2) {
        int64_t low = std::min(*read.begin(), *written.begin());
        int64_t high = std::max(*read.rbegin(), *written.rbegin());
        auto overlaps = [&](unsigned l) {
          return llvm::any_of(used[l], [&](auto span) {
            return low <= span.second && span.first <= high;
          });
        };
        while (lane < used.size() && overlaps(lane))
          ++lane;
        if (lane == used.size())
          used.emplace_back();
        used[lane].push_back({low, high});
      }
      layout.lanes[phase].push_back(lane);
    }
    double columnWidth =
        std::max<double>(kColumn, kColumn / 2 + used.size() * kLane);
    layout.columnStart[phase + 1] = layout.columnStart[phase] + columnWidth;
  }
  layout.width = kMargin + layout.columnStart[phases];
  layout.height =
      kTop + kMargin + std::max<int64_t>(network.wires - 1, 0) * kRow;
  return layout;
}

/// Writes the picture's header, its style and its wires.
static void writePrologue(llvm::raw_ostream &os, const Layout &layout,
                          StringRef name, int64_t wires, unsigned phases) {
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\""
     << num(layout.width) << "\" height=\"" << num(layout.height)
     << "\" viewBox=\"0 0 " << num(layout.width) << " " << num(layout.height)
     << "\">\n";
  os << "<title>@" << name << ": " << wires << " wires, " << phases
     << " stages</title>\n";
  os << "<style>\n"
        "  .wire { stroke: #888; stroke-width: 1 }\n"
        "  .link { stroke: #000; stroke-width: 2 }\n"
        "  .move { stroke: #36c; stroke-width: 1 }\n"
        "  .tap { fill: #000 }\n"
        "  .node { fill: #fff; stroke: #000 }\n"
        "  .barrier { stroke: #999; stroke-dasharray: 2 2 }\n"
        "  .sync { stroke: #c00; stroke-width: 2 }\n"
        "  .sync.warp { stroke: #e90; stroke-dasharray: 6 3 }\n"
        "  .sync.registers, .sync.shuffle { stroke: #393; "
        "stroke-dasharray: 2 3 }\n"
        "  .label { font: 10px sans-serif; fill: #c00; text-anchor: middle }\n"
        "</style>\n";
  os << "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n";
  for (int64_t wire = 0; wire < wires; ++wire)
    os << "<line class=\"wire\" x1=\"" << num(layout.x(0)) << "\" y1=\""
       << num(layout.y(wire)) << "\" x2=\"" << num(layout.x(phases))
       << "\" y2=\"" << num(layout.y(wire)) << "\"/>\n";
}

/// Writes the links of stage `stage`, in column `phase`.
static void writeStage(llvm::raw_ostream &os, const Layout &layout,
                       const Stage &stage, unsigned phase) {
  unsigned index = 0;
  // A thread that reads one element only moves it (or leaves it);
  // elements read together are combined: one link per set of them, over
  // the wires read and written. In a flattened ilv the results may be
  // stored away from their inputs; the link spans both.
  for (auto &[read, written] : stage.writesByReads) {
    double centre = layout.x(phase) + kColumn / 4 +
                    kLane * (layout.lanes[phase][index++] + 0.5);
    if (read.size() == 1) {
      for (int64_t element : written)
        if (element != *read.begin())
          os << "<line class=\"move\" x1=\"" << num(layout.x(phase))
             << "\" y1=\"" << num(layout.y(*read.begin())) << "\" x2=\""
             << num(layout.x(phase + 1)) << "\" y2=\"" << num(layout.y(element))
             << "\"/>\n";
      continue;
    }
    if (read.empty())
      continue;
    std::set<int64_t> span(read);
    span.insert(written.begin(), written.end());
    os << "<line class=\"link\" x1=\"" << num(centre) << "\" y1=\""
       << num(layout.y(*span.begin())) << "\" x2=\"" << num(centre)
       << "\" y2=\"" << num(layout.y(*span.rbegin())) << "\"/>\n";
    for (int64_t wire : read)
      os << "<circle class=\"tap\" cx=\"" << num(centre) << "\" cy=\""
         << num(layout.y(wire)) << "\" r=\"3\"/>\n";
    for (int64_t wire : written)
      if (!read.count(wire))
        os << "<circle class=\"node\" cx=\"" << num(centre) << "\" cy=\""
           << num(layout.y(wire)) << "\" r=\"3\"/>\n";
  }
}

/// Writes the line that ends stage `phase`: the sync `sync`, marked by
/// kind, or where it is null a barrier of the lowering's own (a repeat's
/// copy of its input into shared memory).
static void writeStageEnd(llvm::raw_ostream &os, const Layout &layout,
                          unsigned phase, SyncOp sync) {
  double at = layout.x(phase + 1);
  if (!sync) {
    os << "<line class=\"barrier\" x1=\"" << num(at) << "\" y1=\"" << num(kTop)
       << "\" x2=\"" << num(at) << "\" y2=\""
       << num(layout.height - kMargin / 4) << "\"/>\n";
    return;
  }
  // An array kept by its threads (registers, shuffles) has no barrier:
  // its line is the storage's.
  bool warp = sync.getScopeOrDefault() == SyncScope::Warp;
  bool inPlace = sync.getPlacementOrDefault() == Placement::InPlace;
  std::string kind = warp ? "warp" : "block";
  if (sync.isKeptByThreads())
    kind = stringifyStorage(sync.getStorageOrDefault()).str();
  std::string label = kind;
  if (inPlace) {
    kind += " inplace";
    label += " IP";
  }
  os << "<line class=\"sync " << kind << "\" x1=\"" << num(at) << "\" y1=\""
     << num(kTop) << "\" x2=\"" << num(at) << "\" y2=\""
     << num(layout.height - kMargin / 4) << "\"/>\n";
  os << "<text class=\"label\" x=\"" << num(at) << "\" y=\"" << num(kTop - 8)
     << "\">" << label << "</text>\n";
}

LogicalResult mlir::obs::drawNetwork(KernelOp kernel, llvm::raw_ostream &os) {
  // The copy and its simulation create ops of the dialects the proof's
  // passes depend on; outside a pass, nothing else loads them.
  MLIRContext *context = kernel.getContext();
  DialectRegistry dialects;
  createObsVerifySync()->getDependentDialects(dialects);
  context->appendDialectRegistry(dialects);
  for (StringRef name : dialects.getDialectNames())
    context->getOrLoadDialect(name);
  // The data flow, from a copy with one thread per element and nothing
  // refined: fresh buffers, so every stage's reads are of its inputs.
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(kernel.getLoc());
  KernelOp plain = copyPlain(kernel, *scratch);
  if (plain.getBlockThreads() > KernelOp::kMaxThreads)
    return kernel.emitOpError()
           << "has " << plain.getBlockThreads()
           << " elements in a stage; --emit=svg draws at most "
           << KernelOp::kMaxThreads;
  FailureOr<KernelSimulation> simulation = simulateKernel(plain);
  if (failed(simulation))
    return failure();
  const BlockRun &run = simulation->run;
  if (run.dependsOnData())
    return kernel.emitOpError()
           << "reads or writes elements at places that depend on data (an "
              "obs.index at a place from data, a scatter's places); its "
              "network has no fixed picture";

  unsigned phases = run.getBarriers().size() + 1;
  Network network = collectStages(run, phases);
  // A wire per element of the longest array read or written: an
  // obs.global argument's places reach across a whole launch.
  constexpr int64_t kMostWires = 4 * KernelOp::kMaxThreads;
  if (network.wires > kMostWires)
    return kernel.emitOpError()
           << "reads or writes element " << network.wires - 1
           << " of an array; --emit=svg draws at most " << kMostWires
           << " wires";
  // The syncs as the kernel has them, in the order the barriers are passed.
  SmallVector<SyncOp> syncs;
  kernel.walk([&](SyncOp sync) { syncs.push_back(sync); });
  Layout layout = layOut(network);

  writePrologue(os, layout, kernel.getSymName(), network.wires, phases);
  for (unsigned phase = 0; phase < phases; ++phase) {
    writeStage(os, layout, network.stages[phase], phase);
    if (phase + 1 < phases)
      writeStageEnd(os, layout, phase, syncOf(run, syncs, phase));
  }
  os << "</svg>\n";
  return success();
}
