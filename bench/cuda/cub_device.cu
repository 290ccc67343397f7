// CUB's device-wide jobs on the same ints obs-run --bench is given (one
// number per line in FILE, or 2^20 random ones), timed with CUDA events: the
// GPU rows bench/run prints next to obs's. Each line starts with the obs
// entry it stands beside: scan, reduce, sort (radix), sort_by_magnitude (a
// stable merge sort by |x|), histogram (256 bins of the values 0 .. 255)
// and counting_sort (that histogram, an exclusive scan of the bins and a
// fill, as bench/cuda/cub_jobs.cu writes them).
//
//   nvcc -arch=sm_90 -O2 cub_device.cu -o cub-device && ./cub-device RUNS FILE
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_merge_sort.cuh>
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
  int *bins, *starts;
  void *temp;
  size_t tempBytes;
  int n;
};

struct ByMagnitude {
  __device__ bool operator()(int x, int y) const {
    return max(x, -x) < max(y, -y);
  }
};

// Block b writes its bin's run of keys.
__global__ void fill(const int *starts, const int *counts, int *out) {
  int bin = blockIdx.x;
  for (int i = threadIdx.x; i < counts[bin]; i += blockDim.x)
    out[starts[bin] + i] = bin;
}

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
  cudaMalloc(&s.bins, 256 * sizeof(int));
  cudaMalloc(&s.starts, 256 * sizeof(int));
  size_t scanBytes = 0, sortBytes = 0, sumBytes = 0, mergeBytes = 0,
         histogramBytes = 0, binScanBytes = 0;
  cub::DeviceScan::InclusiveSum(nullptr, scanBytes, s.in, s.out, s.n);
  cub::DeviceRadixSort::SortKeys(nullptr, sortBytes, s.in, s.out, s.n);
  cub::DeviceReduce::Sum(nullptr, sumBytes, s.in, s.out, s.n);
  cub::DeviceMergeSort::StableSortKeysCopy(nullptr, mergeBytes, s.in, s.out,
                                           s.n, ByMagnitude());
  cub::DeviceHistogram::HistogramEven(nullptr, histogramBytes, s.in, s.bins,
                                      257, 0, 256, s.n);
  cub::DeviceScan::ExclusiveSum(nullptr, binScanBytes, s.bins, s.starts, 256);
  s.tempBytes = std::max({scanBytes, sortBytes, sumBytes, mergeBytes,
                          histogramBytes, binScanBytes});
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
  float merge = timeIt(runs, [](void *p) {
    State &s = *static_cast<State *>(p);
    cub::DeviceMergeSort::StableSortKeysCopy(s.temp, s.tempBytes, s.in, s.out,
                                             s.n, ByMagnitude());
  }, &s);
  float histogram = timeIt(runs, [](void *p) {
    State &s = *static_cast<State *>(p);
    cub::DeviceHistogram::HistogramEven(s.temp, s.tempBytes, s.in, s.bins,
                                        257, 0, 256, s.n);
  }, &s);
  float counting = timeIt(runs, [](void *p) {
    State &s = *static_cast<State *>(p);
    cub::DeviceHistogram::HistogramEven(s.temp, s.tempBytes, s.in, s.bins,
                                        257, 0, 256, s.n);
    cub::DeviceScan::ExclusiveSum(s.temp, s.tempBytes, s.bins, s.starts, 256);
    fill<<<256, 256>>>(s.starts, s.bins, s.out);
  }, &s);
  // GB/s of the floor: read the input once, write the output once.
  double bytes = 2.0 * s.n * sizeof(int);
  std::printf("scan cub::DeviceScan::InclusiveSum: median %.3f ms, %.2f GB/s\n",
              scan, bytes / (scan * 1e6));
  std::printf("reduce cub::DeviceReduce::Sum: median %.3f ms, %.2f GB/s\n",
              sum, s.n * sizeof(int) / (sum * 1e6));
  std::printf("sort cub::DeviceRadixSort::SortKeys: median %.3f ms, %.2f GB/s\n",
              sort, bytes / (sort * 1e6));
  std::printf("sort_by_magnitude cub::DeviceMergeSort::StableSortKeysCopy: "
              "median %.3f ms, %.2f GB/s\n",
              merge, bytes / (merge * 1e6));
  std::printf("histogram cub::DeviceHistogram::HistogramEven: median %.3f ms, "
              "%.2f GB/s\n",
              histogram, s.n * sizeof(int) / (histogram * 1e6));
  std::printf("counting_sort cub::DeviceHistogram, DeviceScan and a fill: "
              "median %.3f ms, %.2f GB/s\n",
              counting, bytes / (counting * 1e6));
  return 0;
}
