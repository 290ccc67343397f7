// CUB's device-wide scan, sum and radix sort of the same ints obs-run
// --bench is given (one number per line in FILE, or 2^20 random ones), timed
// with CUDA events: the GPU rows bench/run prints next to obs's.
//
//   nvcc -arch=sm_90 -O2 cub_device.cu -o cub-device && ./cub-device RUNS FILE
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

static float timeIt(int runs, void (*body)(void *), void *state) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  body(state);
  std::vector<float> times;
  for (int run = 0; run < runs; ++run) {
    cudaEventRecord(start);
    body(state);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

struct State {
  int *in, *out;
  void *temp;
  size_t tempBytes;
  int n;
};

int main(int argc, char **argv) {
  int runs = argc > 1 ? std::atoi(argv[1]) : 20;
  State s{};
  std::vector<int> host;
  if (argc > 2) {
    FILE *file = std::fopen(argv[2], "r");
    if (!file) {
      std::fprintf(stderr, "cub-device: cannot open %s\n", argv[2]);
      return 1;
    }
    int value;
    while (std::fscanf(file, "%d", &value) == 1)
      host.push_back(value);
    std::fclose(file);
  } else {
    host.resize(1 << 20);
    for (int &value : host)
      value = std::rand() % 2001 - 1000;
  }
  s.n = static_cast<int>(host.size());
  cudaMalloc(&s.in, s.n * sizeof(int));
  cudaMalloc(&s.out, s.n * sizeof(int));
  cudaMemcpy(s.in, host.data(), s.n * sizeof(int), cudaMemcpyHostToDevice);
  size_t scanBytes = 0, sortBytes = 0, sumBytes = 0;
  cub::DeviceScan::InclusiveSum(nullptr, scanBytes, s.in, s.out, s.n);
  cub::DeviceRadixSort::SortKeys(nullptr, sortBytes, s.in, s.out, s.n);
  cub::DeviceReduce::Sum(nullptr, sumBytes, s.in, s.out, s.n);
  s.tempBytes = std::max({scanBytes, sortBytes, sumBytes});
  cudaMalloc(&s.temp, s.tempBytes);
  float scan = timeIt(runs, [](void *p) {
    State &s = *static_cast<State *>(p);
    cub::DeviceScan::InclusiveSum(s.temp, s.tempBytes, s.in, s.out, s.n);
  }, &s);
  float sum = timeIt(runs, [](void *p) {
    State &s = *static_cast<State *>(p);
    cub::DeviceReduce::Sum(s.temp, s.tempBytes, s.in, s.out, s.n);
  }, &s);
  float sort = timeIt(runs, [](void *p) {
    State &s = *static_cast<State *>(p);
    cub::DeviceRadixSort::SortKeys(s.temp, s.tempBytes, s.in, s.out, s.n);
  }, &s);
  // GB/s of the floor: read the input once, write the output once.
  double bytes = 2.0 * s.n * sizeof(int);
  std::printf("scan cub::DeviceScan::InclusiveSum: median %.3f ms, %.2f GB/s\n",
              scan, bytes / (scan * 1e6));
  std::printf("reduce cub::DeviceReduce::Sum: median %.3f ms, %.2f GB/s\n",
              sum, s.n * sizeof(int) / (sum * 1e6));
  std::printf("sort cub::DeviceRadixSort::SortKeys: median %.3f ms, %.2f GB/s\n",
              sort, bytes / (sort * 1e6));
  return 0;
}
