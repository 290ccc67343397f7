// CUB's device-wide scan and radix sort of 2^20 ints, timed with CUDA
// events: the GPU rows bench/run prints next to obs-run --bench.
//
//   nvcc -arch=sm_90 -O2 cub_device.cu -o cub-device && ./cub-device RUNS
#include <cub/device/device_radix_sort.cuh>
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
  s.n = 1 << 20;
  std::vector<int> host(s.n);
  for (int i = 0; i < s.n; ++i)
    host[i] = std::rand() % 2001 - 1000;
  cudaMalloc(&s.in, s.n * sizeof(int));
  cudaMalloc(&s.out, s.n * sizeof(int));
  cudaMemcpy(s.in, host.data(), s.n * sizeof(int), cudaMemcpyHostToDevice);
  size_t scanBytes = 0, sortBytes = 0;
  cub::DeviceScan::InclusiveSum(nullptr, scanBytes, s.in, s.out, s.n);
  cub::DeviceRadixSort::SortKeys(nullptr, sortBytes, s.in, s.out, s.n);
  s.tempBytes = std::max(scanBytes, sortBytes);
  cudaMalloc(&s.temp, s.tempBytes);
  float scan = timeIt(runs, [](void *p) {
    State &s = *static_cast<State *>(p);
    cub::DeviceScan::InclusiveSum(s.temp, s.tempBytes, s.in, s.out, s.n);
  }, &s);
  float sort = timeIt(runs, [](void *p) {
    State &s = *static_cast<State *>(p);
    cub::DeviceRadixSort::SortKeys(s.temp, s.tempBytes, s.in, s.out, s.n);
  }, &s);
  double bytes = 2.0 * s.n * sizeof(int);
  std::printf("cub::DeviceScan::InclusiveSum: median %.3f ms, %.2f GB/s\n",
              scan, bytes / (scan * 1e6));
  std::printf("cub::DeviceRadixSort::SortKeys: median %.3f ms, %.2f GB/s\n",
              sort, bytes / (sort * 1e6));
  return 0;
}
