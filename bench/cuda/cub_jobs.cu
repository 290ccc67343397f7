// The device jobs of obs's examples written with CUB, for bench/run's
// compile-time rows: `nvcc -ptx -DJOB_<NAME>` compiles one of them, as
// `obs-run --emit=ptx` compiles obs's.
//
//   JOB_SCAN           examples/device/scan.mlir @scan (inclusive sum)
//   JOB_REDUCE         examples/device/reduce.mlir @reduce (sum)
//   JOB_SORT           examples/device/sort.mlir @sort (i32, ascending)
//   JOB_SORT_BY        examples/device/sort_by.mlir @sort_by_magnitude
//                      (a stable merge sort by |x|)
//   JOB_HISTOGRAM      examples/obsidian/histogram.mlir @histogram
//                      (256 bins of the values 0 .. 255)
//   JOB_COUNTING_SORT  examples/obsidian/counting_sort.mlir @counting_sort
//                      (histogram, exclusive scan of the bins, fill)
#include <cstddef>

#if defined(JOB_SCAN)
#include <cub/device/device_scan.cuh>
void scan(const int *in, int *out, int n, void *temp, size_t &bytes) {
  cub::DeviceScan::InclusiveSum(temp, bytes, in, out, n);
}
#elif defined(JOB_REDUCE)
#include <cub/device/device_reduce.cuh>
void reduce(const int *in, int *sum, int n, void *temp, size_t &bytes) {
  cub::DeviceReduce::Sum(temp, bytes, in, sum, n);
}
#elif defined(JOB_SORT)
#include <cub/device/device_radix_sort.cuh>
void sort(const int *in, int *out, int n, void *temp, size_t &bytes) {
  cub::DeviceRadixSort::SortKeys(temp, bytes, in, out, n);
}
#elif defined(JOB_SORT_BY)
#include <cub/device/device_merge_sort.cuh>
struct ByMagnitude {
  __device__ bool operator()(int x, int y) const {
    return max(x, -x) < max(y, -y);
  }
};
void sortByMagnitude(int *keys, int n, void *temp, size_t &bytes) {
  cub::DeviceMergeSort::StableSortKeys(temp, bytes, keys, n, ByMagnitude());
}
#elif defined(JOB_HISTOGRAM) || defined(JOB_COUNTING_SORT)
#include <cub/device/device_histogram.cuh>
void histogram(const int *in, int *bins, int n, void *temp, size_t &bytes) {
  cub::DeviceHistogram::HistogramEven(temp, bytes, in, bins, 257, 0, 256, n);
}
#if defined(JOB_COUNTING_SORT)
#include <cub/device/device_scan.cuh>
// Block b writes its bin's run of keys.
__global__ void fill(const int *starts, const int *counts, int *out) {
  int bin = blockIdx.x;
  for (int i = threadIdx.x; i < counts[bin]; i += blockDim.x)
    out[starts[bin] + i] = bin;
}
void countingSort(const int *in, int *bins, int *starts, int *out, int n,
                  void *temp, size_t &bytes) {
  histogram(in, bins, n, temp, bytes);
  cub::DeviceScan::ExclusiveSum(temp, bytes, bins, starts, 256);
  fill<<<256, 256>>>(starts, bins, out);
}
#endif
#else
#error "define one JOB_<NAME>"
#endif
