//===- obs-fuzz.cpp - a differential fuzzer for obs programs --------------===//
//
//   obs-fuzz --programs=N --seed=S [--save=DIR]
//
// Generates random well-typed kernels (ProgramGenerator.h), runs each on the
// ref target, then on the cpu target as written and through random subsets
// and orders of the refinement passes, under forward, reverse and shuffled
// thread orders, and compares every result with ref. A kernel whose
// user-written syncs the verifier rejects, as written or for the threads a
// pipeline's work assignment chose, is counted, not failed; so is one
// over one of the compiler's limits (shared memory, inlined reads, the
// proof's accesses), and one whose estimated work (estimateWork) is over
// --max-work, which is not run at all. Rejections and limits are told by the
// kind their errors carry (Obs/Support/ErrorKinds.h), not by their wording.
// A mismatch, a crash, a timeout, or a pipeline that fails on a kernel that
// runs as written is a failure: the program is saved to DIR with what failed
// and how to run it, and reduced (steps removed, repeats shortened,
// properties dropped while the failure stays) into a -reduced.mlir next to
// it.
//
// Each program runs in a child process, so a crash is a finding rather than
// the end of the run. Exits with 0 only when nothing failed.
//
// This file is the driver: options, programs and configurations drawn from
// the seed, child processes, reports, saving and reduction. What a child
// runs on one program is ProgramChecks.cpp's.
//
//===----------------------------------------------------------------------===//

#include "DeviceGenerator.h"
#include "Obs/InitAll.h"
#include "Obs/Support/ProcessMemory.h"
#include "ProgramChecks.h"
#include "ProgramGenerator.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace mlir;
using namespace obs_fuzz;
namespace cl = llvm::cl;

static cl::OptionCategory fuzzCategory("obs-fuzz options");
static cl::opt<unsigned> numPrograms("programs",
                                     cl::desc("How many programs to test"),
                                     cl::init(100), cl::cat(fuzzCategory));
static cl::opt<uint64_t> seed("seed", cl::desc("The first random seed"),
                              cl::init(1), cl::cat(fuzzCategory));
static cl::opt<unsigned>
    firstProgram("first",
                 cl::desc("The first program of the seed to test: with "
                          "--programs=1, program N alone, as a failure report "
                          "names it"),
                 cl::init(0), cl::cat(fuzzCategory));
static cl::opt<unsigned>
    maxLength("max-length",
              cl::desc("The longest array a program works on (1 to 1024); "
                       "at 1024, one program in 25 is a long scan of an "
                       "array over half a block's shared memory instead"),
              cl::init(1024), cl::cat(fuzzCategory));
/// The most random pipelines a program may take (--pipelines): each
/// compiles the program again.
static constexpr unsigned kMostPipelines = 64;
static cl::opt<unsigned> pipelinesPerProgram(
    "pipelines",
    cl::desc("Random refinement pipelines per program, besides the kernel as "
             "written"),
    cl::init(2), cl::cat(fuzzCategory));
static cl::opt<std::string>
    saveDir("save", cl::desc("Where failing programs and their reductions go"),
            cl::init("obs-fuzz-failures"), cl::cat(fuzzCategory));
static cl::opt<unsigned> timeout(
    "timeout",
    cl::desc("Seconds of CPU time a program may take before it is a failure "
             "(and four times as many seconds of wall-clock time)"),
    cl::init(120), cl::cat(fuzzCategory));
static cl::opt<double> maxWork(
    "max-work",
    cl::desc("Programs whose kernel as written would evaluate more elements "
             "than this (recomputation by fusion included, as estimated) are "
             "counted, not run"),
    cl::init(8388608), cl::cat(fuzzCategory));
static cl::opt<unsigned> jobs("jobs", cl::desc("Programs checked at once"),
                              cl::init(1), cl::cat(fuzzCategory));
static cl::opt<bool> verbose("verbose", cl::desc("A line for every program"),
                             cl::init(false), cl::cat(fuzzCategory));
static cl::opt<bool> countOnly(
    "count-only",
    cl::desc("Count what the programs of the seed exercise (launches of each "
             "kind, written sync properties) without running them"),
    cl::init(false), cl::cat(fuzzCategory));
static cl::opt<int> printOnly("print",
                              cl::desc("Print program N of the seed and stop"),
                              cl::init(-1), cl::cat(fuzzCategory));
static cl::opt<bool> deviceMode(
    "device",
    cl::desc("Random device-level programs (obs.device_map, _scan, _sort, "
             "_reduce on memrefs of run-time length) instead of kernels: each "
             "compiled once for ref and for cpu through obs-optimize, the "
             "kernels as written and a random refinement pipeline, run on "
             "three lengths, and checked against an oracle computed from the "
             "ops' definitions (DeviceGenerator.h)"),
    cl::init(false), cl::cat(fuzzCategory));
// For testing obs-fuzz itself: a miscompilation to find, save and reduce.
cl::opt<std::string> obs_fuzz::testMiscompileOp(
    "test-miscompile-op",
    cl::desc("Testing obs-fuzz: pretend the cpu target miscompiles every "
             "kernel (with --device, every program) that uses this op (the "
             "lowest bit of its first result number flips)"),
    cl::Hidden, cl::cat(fuzzCategory));

namespace {

/// The configurations tried for program `index`: the kernel as written,
/// then random subsets and orders of the refinement passes.
std::vector<Configuration> configurationsFor(uint64_t index) {
  std::mt19937_64 rng(seed * 7919 + index * 104729 + 17);
  auto uniform = [&](uint64_t lo, uint64_t hi) {
    return std::uniform_int_distribution<uint64_t>(lo, hi)(rng);
  };
  std::vector<Configuration> result;
  static const char *orders[] = {"forward", "reverse", "shuffle"};
  auto addOrders = [&](std::vector<std::string> passes) {
    for (const char *order : orders) {
      Configuration c;
      c.passes = passes;
      c.order = order;
      c.orderSeed = uniform(1, 1000);
      c.blockOrder = orders[uniform(0, 2)];
      c.blockSeed = uniform(1, 1000);
      result.push_back(c);
    }
  };
  addOrders({});
  static const char *strategies[] = {"strided", "blocked", "compact", "cost"};
  static const uint64_t threads[] = {0, 1, 32, 64, 96, 128, 256, 1024};
  for (unsigned p = 0; p < pipelinesPerProgram; ++p) {
    std::string strategy = strategies[uniform(0, 3)];
    // The cost strategy refines each strategy's copy before it costs it,
    // with some of the passes, so that their choices on every copy are
    // fuzzed too.
    if (strategy == "cost")
      strategy += uniform(0, 1) ? " refine-with=promote-registers,inplace"
                                : " refine-with=inplace";
    std::vector<std::string> passes = {
        "obs-assign-work{threads=" + std::to_string(threads[uniform(0, 7)]) +
            " strategy=" + strategy + "}",
        "obs-inplace", "obs-plan-shared", "obs-elide-warp-syncs",
        uniform(0, 1) ? "obs-promote-registers"
                      : "obs-promote-registers{shuffles=false}"};
    std::shuffle(passes.begin(), passes.end(), rng);
    passes.resize(uniform(1, passes.size()));
    addOrders(passes);
  }
  return result;
}

/// The seed of program `index`'s random input (of its first length, for
/// a device program; the others follow it).
uint64_t inputSeedOf(uint64_t index) { return seed * 31 + index; }

/// The pipelines of device program `index`: ref, and the cpu target through
/// obs-optimize as obs-run runs it, through obs-optimize with a random
/// strategy, and through a random refinement pipeline (configurationsFor's,
/// which may leave a plan's kernels over the shared-memory limit: only
/// obs-optimize must fit), each under random thread and block orders. The
/// kernels as written are not tried: without obs-plan-shared every sync of
/// a tile's network takes a buffer of its own.
std::vector<DevicePipeline> devicePipelinesFor(uint64_t index) {
  std::vector<Configuration> random = configurationsFor(index);
  // configurationsFor gives the kernel as written under three orders, then
  // each refinement pipeline under three.
  std::mt19937_64 rng(seed * 7919 + index * 104729 + 23);
  auto uniform = [&](size_t lo, size_t hi) {
    return std::uniform_int_distribution<size_t>(lo, hi)(rng);
  };
  std::vector<DevicePipeline> pipelines = {{"ref", "obs-reference"}};
  pipelines.push_back({"cpu through obs-optimize",
                       "obs-optimize," + random[uniform(0, 2)].lowering()});
  static const char *strategies[] = {"strided", "blocked", "compact", "cost"};
  std::string strategy = strategies[uniform(0, 3)];
  pipelines.push_back({"cpu through obs-optimize{strategy=" + strategy + "}",
                       "obs-optimize{strategy=" + strategy + "}," +
                           random[uniform(0, 2)].lowering()});
  if (random.size() > 3)
    pipelines.push_back({"cpu refined",
                         "obs-expand-device," +
                             random[uniform(3, random.size() - 1)].pipeline(),
                         /*mayExceedLimits=*/true});
  return pipelines;
}

/// A check running in a child process.
struct Child {
  pid_t pid;
  int fd;
  /// The configuration the child is running, in memory shared with it, so
  /// that a crash still names the configuration to reduce with.
  int *progress;
};

/// Starts `check` in a child, which reports through a pipe.
Child startChild(const std::function<Report()> &check) {
  int fds[2];
  if (pipe(fds) != 0) {
    perror("obs-fuzz: pipe");
    exit(2);
  }
  fflush(stdout);
  llvm::outs().flush();
  auto *progress =
      static_cast<int *>(mmap(nullptr, sizeof(int), PROT_READ | PROT_WRITE,
                              MAP_SHARED | MAP_ANONYMOUS, -1, 0));
  if (progress == MAP_FAILED) {
    perror("obs-fuzz: mmap");
    exit(2);
  }
  *progress = -1;
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    childProgress = progress;
    // CPU time, so that a loaded machine does not turn slow programs into
    // timeouts; the wall clock only catches a child that stops running.
    // LLVM's crash handler would print a stack dump for SIGXCPU; no core
    // file either.
    struct rlimit cpu = {timeout, timeout + 5}, noCore = {0, 0};
    setrlimit(RLIMIT_CPU, &cpu);
    setrlimit(RLIMIT_CORE, &noCore);
    signal(SIGXCPU, SIG_DFL);
    alarm(4 * timeout);
    Report report = check();
    ssize_t written = write(fds[1], &report, sizeof(report));
    (void)written;
    _exit(0);
  }
  close(fds[1]);
  return {pid, fds[0], progress};
}

/// Reads the report of a child that has exited with `status` from its pipe;
/// a crash, a timeout or a missing report is a failure, and sets `crashed`.
Report collectReport(Child child, int status, bool &crashed) {
  Report report;
  ssize_t got = read(child.fd, &report, sizeof(report));
  close(child.fd);
  int running = *child.progress;
  munmap(child.progress, sizeof(int));
  crashed = got != static_cast<ssize_t>(sizeof(report)) || !WIFEXITED(status) ||
            WEXITSTATUS(status) != 0;
  if (!crashed)
    return report;
  report = Report();
  report.outcome = Outcome::Failed;
  report.failingPipeline = running;
  setMessage(
      report,
      WIFSIGNALED(status)
          ? (WTERMSIG(status) == SIGALRM || WTERMSIG(status) == SIGXCPU
                 ? std::string("timed out")
                 : std::string("crashed: ") + strsignal(WTERMSIG(status)))
          : "exited with " + std::to_string(WEXITSTATUS(status)));
  return report;
}

/// Waits for `child` and returns its report.
Report finishChild(Child child, bool &crashed) {
  int status = 0;
  waitpid(child.pid, &status, 0);
  return collectReport(child, status, crashed);
}

Report checkInChild(const std::string &text, uint64_t inputSeed,
                    const std::vector<Configuration> &configurations,
                    bool &crashed) {
  return finishChild(
      startChild([&] { return checkProgram(text, inputSeed, configurations); }),
      crashed);
}

/// What a report of a mismatch or a failure says, for the output and the
/// saved program.
std::string describeFailure(const Report &report) {
  return (report.outcome == Outcome::Mismatch ? "mismatch: " : "failure: ") +
         std::string(report.message);
}

/// Calls `f` on the index of each program of --first to --first +
/// --programs, in order.
void forEachIndex(const std::function<void(uint64_t)> &f) {
  for (uint64_t index = firstProgram; index < firstProgram + numPrograms;
       ++index)
    f(index);
}

/// Checks programs --first to --first + --programs, up to --jobs at a time,
/// each in a child: `check(index)` says what a child runs (nothing: the
/// program is skipped), and `handle` takes each report as it comes.
void checkPrograms(
    const std::function<std::function<Report()>(uint64_t)> &check,
    const std::function<void(uint64_t, const Report &, bool)> &handle) {
  std::map<pid_t, std::pair<uint64_t, Child>> running;
  uint64_t next = firstProgram;
  uint64_t end = uint64_t(firstProgram) + numPrograms;
  while (next < end || !running.empty()) {
    while (next < end && running.size() < std::max(1u, jobs.getValue())) {
      if (std::function<Report()> work = check(next)) {
        Child child = startChild(work);
        running[child.pid] = {next, child};
      }
      ++next;
    }
    if (running.empty())
      continue; // Every program left was skipped.
    // The first child to finish: read its report before reaping it.
    int status = 0;
    pid_t done = waitpid(-1, &status, WNOHANG);
    if (done <= 0) {
      fd_set ready;
      FD_ZERO(&ready);
      int highest = 0;
      for (auto &[pid, entry] : running) {
        FD_SET(entry.second.fd, &ready);
        highest = std::max(highest, entry.second.fd);
      }
      select(highest + 1, &ready, nullptr, nullptr, nullptr);
      for (auto it = running.begin(); it != running.end(); ++it)
        if (FD_ISSET(it->second.second.fd, &ready)) {
          auto [index, child] = it->second;
          running.erase(it);
          bool crashed = false;
          Report report = finishChild(child, crashed);
          handle(index, report, crashed);
          break;
        }
      continue;
    }
    // Exited before its report was read (a crash): its pipe is at EOF.
    auto it = running.find(done);
    if (it == running.end())
      continue;
    auto [index, child] = it->second;
    running.erase(it);
    bool crashed = false;
    Report report = collectReport(child, status, crashed);
    handle(index, report, crashed);
  }
}

/// Reduces a failing program while the same configuration fails the same
/// way, and returns the smallest found.
Program reduce(Program program, uint64_t inputSeed,
               const Configuration &configuration, Outcome outcome,
               bool crashed) {
  std::vector<Configuration> only = {configuration};
  unsigned budget = 300;
  bool progress = true;
  while (progress && budget > 0) {
    progress = false;
    for (Program &candidate : simplerPrograms(program)) {
      if (budget-- == 0)
        break;
      bool candidateCrashed = false;
      Report report = checkInChild(printProgram(candidate), inputSeed, only,
                                   candidateCrashed);
      if (report.outcome == outcome && candidateCrashed == crashed) {
        program = std::move(candidate);
        progress = true;
        break;
      }
    }
  }
  return program;
}

/// Writes `program` to `name`.mlir under --save, with what failed; false
/// (with a line on stderr) where it cannot.
bool save(const std::string &name, const Program &program, uint64_t inputSeed,
          const Configuration *configuration, const std::string &what) {
  std::string path = saveDir + "/" + name + ".mlir";
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    llvm::errs() << "obs-fuzz: cannot write '" << path << "': " << ec.message()
                 << "\n";
    return false;
  }
  os << "// obs-fuzz --seed=" << seed << ": " << what << "\n";
  os << "// Input: --input=random:" << inputSeed << ":-100:100\n";
  os << "// Expected: obs-run " << name << ".mlir "
     << (program.launch ? "--entry=launch" : "--kernel=fuzz")
     << " --target=ref --input=random:" << inputSeed << ":-100:100\n";
  if (configuration)
    os << "// Failing: obs-opt " << name
       << ".mlir --pass-pipeline='builtin.module(" << configuration->pipeline()
       << ")'\n";
  os << "\n" << printProgram(program);
  os.close();
  if (os.has_error()) {
    llvm::errs() << "obs-fuzz: cannot write '" << path
                 << "': " << os.error().message() << "\n";
    os.clear_error();
    return false;
  }
  return true;
}

} // namespace

/// obs-fuzz --device: device programs against the oracle. A failure is
/// saved with its lengths and failing pipeline; it is not reduced (a
/// program is at most three device ops).
int fuzzDevices() {
  auto programFor = [&](uint64_t index) {
    std::mt19937_64 rng(seed * 1000003 + index);
    return generateDeviceProgram(rng);
  };
  if (printOnly >= 0) {
    llvm::outs() << printDeviceProgram(programFor(printOnly));
    return 0;
  }
  uint64_t programs = 0, pipelines = 0, runs = 0, resources = 0, mismatches = 0,
           failures = 0, longest = 0;
  std::map<DeviceStep::Kind, uint64_t> steps;
  std::map<DeviceScalar, uint64_t> inputs;
  uint64_t inPlace = 0, merged = 0, called = 0, calledIndirectly = 0,
           broadcasts = 0;
  auto tally = [&](const DeviceProgram &program) {
    ++inputs[program.input];
    for (const DeviceStep &step : program.steps) {
      ++steps[step.kind];
      inPlace += step.inPlace;
      merged += step.merge;
      broadcasts += step.broadcast >= 0;
      called += step.placement != DeviceStep::Inline;
      calledIndirectly += step.placement == DeviceStep::IndirectCall;
    }
    for (uint64_t length : program.lengths)
      longest = std::max(longest, length);
  };
  auto printTally = [&] {
    llvm::outs() << "  " << steps[DeviceStep::Map] << " maps (" << broadcasts
                 << " of a broadcast reduction), " << steps[DeviceStep::Scan]
                 << " scans, " << steps[DeviceStep::SegmentedScan]
                 << " segmented scans, " << steps[DeviceStep::Sort]
                 << " sorts, " << steps[DeviceStep::ArgSort]
                 << " key-value sorts (" << merged << " merged), "
                 << steps[DeviceStep::Reduce] << " reductions (" << inPlace
                 << " ops in place, " << called << " in helpers, "
                 << calledIndirectly << " called indirectly); lengths up to "
                 << longest << "; inputs of";
    for (auto [scalar, count] : inputs)
      llvm::outs() << " " << getName(scalar) << " " << count;
    llvm::outs() << "\n";
  };
  if (countOnly) {
    forEachIndex([&](uint64_t index) { tally(programFor(index)); });
    printTally();
    return 0;
  }
  auto handle = [&](uint64_t index, const Report &report, bool crashed) {
    DeviceProgram program = programFor(index);
    ++programs;
    tally(program);
    pipelines += report.pipelines;
    runs += report.runs;
    resources += report.resources;
    std::string lengths;
    for (uint64_t length : program.lengths)
      lengths += (lengths.empty() ? "" : ", ") + std::to_string(length);
    if (verbose)
      llvm::outs() << "program " << index << " (" << program.steps.size()
                   << " device ops, lengths " << lengths << "): "
                   << (report.outcome == Outcome::Agreed     ? "agreed"
                       : report.outcome == Outcome::Mismatch ? "MISMATCH"
                                                             : "FAILED")
                   << (report.message[0] ? std::string(": ") + report.message
                                         : std::string())
                   << "\n";
    if (report.outcome == Outcome::Agreed)
      return;
    if (report.outcome == Outcome::Mismatch)
      ++mismatches;
    else
      ++failures;
    std::string what = describeFailure(report);
    llvm::outs() << "program " << index << ": " << what << "\n";
    llvm::sys::fs::create_directories(saveDir);
    std::string name =
        "device-" + std::to_string(seed) + "-" + std::to_string(index);
    std::string path = saveDir + "/" + name + ".mlir";
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec) {
      llvm::errs() << "obs-fuzz: cannot write '" << path
                   << "': " << ec.message() << "\n";
      return;
    }
    std::vector<DevicePipeline> tried = devicePipelinesFor(index);
    uint64_t inputSeed = inputSeedOf(index);
    os << "// obs-fuzz --device --seed=" << seed << ": " << what << "\n";
    for (auto [k, length] : llvm::enumerate(program.lengths))
      os << "// Run: obs-run " << name
         << ".mlir --entry=entry --length=" << length
         << " --input=random:" << inputSeed + k << ":-100:100\n";
    if (report.failingPipeline >= 0)
      os << "// Failing: obs-opt " << name << ".mlir --pass-pipeline='builtin."
         << "module(" << tried[report.failingPipeline].text << ")'\n";
    os << "\n" << printDeviceProgram(program);
    llvm::outs() << "  saved " << path << "\n";
    llvm::outs().flush();
  };
  checkPrograms(
      [&](uint64_t index) -> std::function<Report()> {
        return [program = programFor(index), index,
                tried = devicePipelinesFor(index)] {
          return checkDeviceProgram(program, inputSeedOf(index), tried);
        };
      },
      handle);
  llvm::outs() << "obs-fuzz --device --seed=" << seed << ": " << programs
               << " programs, " << pipelines << " pass pipelines, " << runs
               << " runs, " << resources
               << " refinements over a compiler limit, " << mismatches
               << " mismatches, " << failures << " failures\n";
  printTally();
  return mismatches + failures ? 1 : 0;
}

namespace {

/// The kernel program at `index` of this run: generated from the seed and
/// the index alone.
Program kernelProgramFor(uint64_t index) {
  std::mt19937_64 rng(seed * 1000003 + index);
  return generateProgram(rng, maxLength);
}

/// What the programs exercised: launches of each kind, and written
/// properties, alone and under a `threads` attribute.
struct KernelTally {
  uint64_t launched = 0, laidOut = 0, inPlace = 0, throughViews = 0,
           written = 0, writtenUnderThreads = 0, dataLoops = 0, scatters = 0,
           combined = 0, globalScatters = 0, longScans = 0, longFolds = 0,
           neighbours = 0, gathers = 0, rawGpu = 0, helperCalls = 0, unsafe = 0;

  /// Counts what `program` exercises.
  void add(const Program &program) {
    if (program.launch) {
      ++launched;
      laidOut += program.launch->layouts;
      inPlace += program.launch->kind == Launch::InPlace;
      throughViews += program.launch->kind == Launch::Views;
    }
    if (hasWrittenProperty(program)) {
      ++written;
      writtenUnderThreads += program.threads.has_value();
    }
    std::string text = printProgram(program);
    if (isLongScan(program)) {
      ++longScans;
      longFolds += llvm::any_of(program.steps, [](const Step &step) {
        return step.kind == Step::Scan && step.difference;
      });
    }
    dataLoops += llvm::StringRef(text).contains("scf.while");
    neighbours += hasStep(program, Step::Neighbour);
    gathers += hasStep(program, Step::Gather);
    rawGpu += hasStep(program, Step::RawGpu);
    helperCalls += program.launch && program.launch->call != Launch::NoCall;
    unsafe += isUnsafe(program);
    scatters += llvm::StringRef(text).contains("obs.scatter");
    combined += llvm::StringRef(text).contains(" combine(");
    globalScatters += llvm::StringRef(text).contains(" global : ");
  }

  /// Prints the counts on one line of standard output.
  void print() const {
    llvm::outs() << "  " << launched << " launched over blocks (" << laidOut
                 << " with layouts, " << inPlace << " in place, "
                 << throughViews << " through views of one allocation), "
                 << written << " with written sync properties ("
                 << writtenUnderThreads << " under a threads attribute), "
                 << dataLoops << " with loops of data-dependent trip count, "
                 << scatters << " with scatters (" << combined
                 << " with a combine, " << globalScatters
                 << " into a launch's output), " << longScans
                 << " scans of arrays no stage may hold (" << longFolds
                 << " of a difference), " << neighbours
                 << " reading neighbours near the ends, " << gathers
                 << " gathering at places from data, " << rawGpu
                 << " with gpu ops in element code, " << helperCalls
                 << " launching through a helper, " << unsafe << " unsafe\n";
  }
};

/// The counts of a kernel run: its programs, pipelines and runs, and how
/// they ended.
struct KernelTotals {
  uint64_t programs = 0, pipelines = 0, runs = 0, rejected = 0,
           unsafePrograms = 0, acceptedUnsafe = 0, resources = 0,
           tooMuchWork = 0, mismatches = 0, failures = 0;
  KernelTally tally;
};

/// Adds the report of kernel program `index` to `totals`, prints it under
/// --verbose, and saves a mismatch or failure with its reduction.
void handleKernelReport(KernelTotals &totals, uint64_t index,
                        const Report &given, bool crashed) {
  Program program = kernelProgramFor(index);
  // A program the generator made unsafe must be rejected, or stopped, on
  // every target.
  Report report = given;
  if (isUnsafe(program) && report.outcome == Outcome::Agreed) {
    report.outcome = Outcome::Failed;
    ++totals.acceptedUnsafe;
    setMessage(report, "an unsafe program (a read outside an array, a "
                       "place a scatter writes twice, a gpu op in element "
                       "code, or a helper passed the global it writes) "
                       "runs on every target");
  }
  uint64_t inputSeed = inputSeedOf(index);
  std::vector<Configuration> configurations = configurationsFor(index);
  ++totals.programs;
  totals.tally.add(program);
  totals.pipelines += report.pipelines;
  totals.runs += report.runs;
  totals.rejected += report.rejected;
  totals.unsafePrograms += report.unsafe;
  totals.resources += report.resources;
  if (verbose)
    llvm::outs() << "program " << index << " (" << program.length
                 << " elements, " << countSteps(program) << " steps): "
                 << (report.outcome == Outcome::Agreed     ? "agreed"
                     : report.outcome == Outcome::Rejected ? "rejected"
                     : report.outcome == Outcome::Unsafe
                         ? "unsafe, rejected or stopped on every target"
                     : report.outcome == Outcome::OverLimit ? "over a limit"
                     : report.outcome == Outcome::Mismatch  ? "MISMATCH"
                                                            : "FAILED")
                 << (report.message[0] ? std::string(": ") + report.message
                                       : std::string())
                 << "\n";
  if (report.outcome != Outcome::Mismatch && report.outcome != Outcome::Failed)
    return;
  if (report.outcome == Outcome::Mismatch)
    ++totals.mismatches;
  else
    ++totals.failures;
  const Configuration *failing = report.failingPipeline >= 0
                                     ? &configurations[report.failingPipeline]
                                     : nullptr;
  std::string what = describeFailure(report);
  llvm::outs() << "program " << index << ": " << what << "\n";
  llvm::sys::fs::create_directories(saveDir);
  std::string name =
      "fuzz-" + std::to_string(seed) + "-" + std::to_string(index);
  // Not reduced where it cannot be kept: the reduction runs it again and
  // again.
  if (!save(name, program, inputSeed, failing, what))
    return;
  // A timeout is not reduced: each candidate could take the whole timeout.
  Program reduced = program;
  if (failing && StringRef(report.message) != "timed out")
    reduced = reduce(program, inputSeed, *failing, report.outcome, crashed);
  if (!save(name + "-reduced", reduced, inputSeed, failing, what))
    return;
  llvm::outs() << "  saved " << saveDir << "/" << name << ".mlir ("
               << countSteps(program) << " steps) and " << name
               << "-reduced.mlir (" << countSteps(reduced) << " steps)\n";
  llvm::outs().flush();
}

/// Prints the summary line of a kernel run and what its programs
/// exercised.
void printKernelSummary(const KernelTotals &totals) {
  llvm::outs() << "obs-fuzz --seed=" << seed << ": " << totals.programs
               << " programs, " << totals.pipelines << " pass pipelines, "
               << totals.runs << " runs, " << totals.rejected
               << " rejected by the verifier, " << totals.unsafePrograms
               << " unsafe (rejected or stopped on every target), "
               << totals.acceptedUnsafe << " unsafe accepted, "
               << totals.resources << " over a compiler limit, "
               << totals.tooMuchWork << " over the work limit, "
               << totals.mismatches << " mismatches, " << totals.failures
               << " failures\n";
  totals.tally.print();
}

/// obs-fuzz without --device: kernel programs on ref and on cpu, through
/// random pipelines; prints one program under --print, counts what the
/// programs exercise under --count, and otherwise checks them all. Returns
/// the exit status.
int fuzzKernels() {
  if (printOnly >= 0) {
    llvm::outs() << printProgram(kernelProgramFor(printOnly));
    return 0;
  }

  KernelTotals totals;
  if (countOnly) {
    forEachIndex(
        [&](uint64_t index) { totals.tally.add(kernelProgramFor(index)); });
    totals.tally.print();
    return 0;
  }

  checkPrograms(
      [&](uint64_t index) -> std::function<Report()> {
        // Exponential recomputation is the program's, not a bug: skip it
        // rather than wait for the timeout.
        Program program = kernelProgramFor(index);
        if (double work = estimateWork(program); work > maxWork) {
          ++totals.programs;
          ++totals.tooMuchWork;
          if (verbose)
            llvm::outs() << "program " << index << ": over the work limit ("
                         << llvm::format("%.3g", work) << " evaluations)\n";
          return nullptr;
        }
        return [text = printProgram(program), index,
                configurations = configurationsFor(index)] {
          return checkProgram(text, inputSeedOf(index), configurations);
        };
      },
      [&](uint64_t index, const Report &report, bool crashed) {
        handleKernelReport(totals, index, report, crashed);
      });
  printKernelSummary(totals);
  return totals.mismatches + totals.failures ? 1 : 0;
}

/// Checks the options that the command line parser cannot; prints an error
/// and returns false if one is out of range.
bool checkOptions() {
  if (maxLength < 1 || maxLength > 1024) {
    llvm::errs() << "obs-fuzz: --max-length must be 1 to 1024\n";
    return false;
  }
  // An empty directory saved into the root (`/fuzz-1-0.mlir`).
  if (saveDir.empty()) {
    llvm::errs() << "obs-fuzz: --save needs a directory\n";
    return false;
  }
  if (timeout < 1) {
    llvm::errs() << "obs-fuzz: --timeout must be at least 1 second\n";
    return false;
  }
  // NaN compares false, and was taken as no limit.
  if (!(maxWork >= 0) || !std::isfinite(maxWork)) {
    llvm::errs() << "obs-fuzz: --max-work must be a finite number, 0 or "
                    "more\n";
    return false;
  }
  if (pipelinesPerProgram > kMostPipelines) {
    llvm::errs() << "obs-fuzz: --pipelines must be at most " << kMostPipelines
                 << "\n";
    return false;
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  obs::guardToolProcess("obs-fuzz");
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  obs::registerAllPasses();
  cl::HideUnrelatedOptions(fuzzCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "obs-fuzz: random obs kernels on ref and on cpu, through random "
      "refinement pipelines and thread orders\n");
  if (!checkOptions())
    return 2;

  DialectRegistry registry;
  obs::registerAllDialects(registry);
  // Dialects load on demand, in each child, as in obs-opt: the parser loads
  // what the program uses and each pass what it declares. Loading them all
  // up front hid a pass that built gpu ops without declaring the gpu
  // dialect (obs-assign-work, until 6b6970a).
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  sharedContext = &context;
  if (deviceMode)
    return fuzzDevices();
  return fuzzKernels();
}
