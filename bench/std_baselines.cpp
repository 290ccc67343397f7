//===- std_baselines.cpp - what C++ users would otherwise call ------------===//
//
// Times std::inclusive_scan, std::sort and std::reduce on the numbers of a
// text file (one i32 per line), the same data bench/run gives obs-run, and
// prints for each the fastest and the median of N runs after a warm-up:
//
//   obs-bench-std NUMBERS.txt N
//   std::inclusive_scan: fastest 0.512 ms, median 0.530 ms
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <numeric>
#include <vector>

using Clock = std::chrono::steady_clock;

static void report(const char *name, std::vector<double> times,
                   long long check) {
  std::sort(times.begin(), times.end());
  std::printf("%s: fastest %.3f ms, median %.3f ms (result %lld)\n", name,
              times.front(), times[times.size() / 2], check);
}

/// Times `body` (which returns something to keep it from being optimised
/// away) `runs` times after a warm-up.
template <typename Body>
static void time(const char *name, unsigned runs, Body body) {
  long long check = body();
  std::vector<double> times;
  for (unsigned run = 0; run < runs; ++run) {
    auto start = Clock::now();
    check = body();
    std::chrono::duration<double, std::milli> elapsed = Clock::now() - start;
    times.push_back(elapsed.count());
  }
  report(name, times, check);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: obs-bench-std NUMBERS.txt RUNS\n");
    return 1;
  }
  std::ifstream file(argv[1]);
  if (!file) {
    std::fprintf(stderr, "obs-bench-std: cannot read '%s'\n", argv[1]);
    return 1;
  }
  std::vector<int32_t> numbers;
  for (long long x; file >> x;)
    numbers.push_back(static_cast<int32_t>(x));
  unsigned runs = static_cast<unsigned>(std::atoi(argv[2]));
  if (numbers.empty() || runs == 0) {
    std::fprintf(stderr, "obs-bench-std: no numbers or no runs\n");
    return 1;
  }
  std::vector<int32_t> out(numbers.size());
  // The same wrap-around i32 arithmetic as the obs kernels.
  auto add = [](int32_t a, int32_t b) {
    return static_cast<int32_t>(static_cast<uint32_t>(a) +
                                static_cast<uint32_t>(b));
  };
  time("std::inclusive_scan", runs, [&] {
    std::inclusive_scan(numbers.begin(), numbers.end(), out.begin(), add);
    return static_cast<long long>(out.back());
  });
  time("std::sort", runs, [&] {
    std::copy(numbers.begin(), numbers.end(), out.begin());
    std::sort(out.begin(), out.end());
    return static_cast<long long>(out[out.size() / 2]);
  });
  time("std::reduce", runs, [&] {
    return static_cast<long long>(
        std::reduce(numbers.begin(), numbers.end(), int32_t(0), add));
  });
  return 0;
}
