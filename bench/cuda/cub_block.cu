// CUB's block-wide building blocks for the same jobs: BlockScan, BlockReduce and
// BlockRadixSort over 512 ints per block, 256 threads with 2 items each, and
// WarpScan over 32 ints, one warp with one item each.
//
//   nvcc -arch=sm_90 -ptx cub_block.cu
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/warp/warp_scan.cuh>

extern "C" __global__ void cub_block_scan(const int *in, int *out) {
  using BlockScan = cub::BlockScan<int, 256>;
  __shared__ typename BlockScan::TempStorage temp;
  int items[2];
  int base = blockIdx.x * 512 + threadIdx.x * 2;
  items[0] = in[base];
  items[1] = in[base + 1];
  BlockScan(temp).InclusiveSum(items, items);
  out[base] = items[0];
  out[base + 1] = items[1];
}

// CUB's device scan tile: 16 items a thread, in registers, the warps'
// scans by shuffles (BLOCK_SCAN_WARP_SCANS), loaded as obs's tile scan
// loads them (a thread's 16 consecutive items).
extern "C" __global__ void cub_tile_scan(const int *in, int *out) {
  using BlockScan = cub::BlockScan<int, 256, cub::BLOCK_SCAN_WARP_SCANS>;
  __shared__ typename BlockScan::TempStorage temp;
  int items[16];
  int base = blockIdx.x * 4096 + threadIdx.x * 16;
  for (int i = 0; i < 16; ++i)
    items[i] = in[base + i];
  BlockScan(temp).InclusiveSum(items, items);
  for (int i = 0; i < 16; ++i)
    out[base + i] = items[i];
}

extern "C" __global__ void cub_block_radix_sort(const int *in, int *out) {
  using BlockSort = cub::BlockRadixSort<int, 256, 2>;
  __shared__ typename BlockSort::TempStorage temp;
  int keys[2];
  int base = blockIdx.x * 512 + threadIdx.x * 2;
  keys[0] = in[base];
  keys[1] = in[base + 1];
  BlockSort(temp).Sort(keys);
  out[base] = keys[0];
  out[base + 1] = keys[1];
}

extern "C" __global__ void cub_warp_scan(const int *in, int *out) {
  using WarpScan = cub::WarpScan<int>;
  __shared__ typename WarpScan::TempStorage temp;
  int place = blockIdx.x * 32 + threadIdx.x;
  int item = in[place];
  WarpScan(temp).InclusiveSum(item, item);
  out[place] = item;
}

extern "C" __global__ void cub_block_reduce(const int *in, int *out) {
  using BlockReduce = cub::BlockReduce<int, 256>;
  __shared__ typename BlockReduce::TempStorage temp;
  int items[2];
  int base = blockIdx.x * 512 + threadIdx.x * 2;
  items[0] = in[base];
  items[1] = in[base + 1];
  int total = BlockReduce(temp).Sum(items);
  if (threadIdx.x == 0)
    out[blockIdx.x] = total;
}
