// Sklansky's prefix sum of N = 2 * 256 ints per block, written by hand the
// way seed 000's generated CUDA reads: the block's array in shared memory,
// one __syncthreads per level, each of the 256 threads adding the pivot into
// one element of the second half of its segment (a perfect division of
// labour, which obs's `compact` assignment reproduces).
//
//   nvcc -arch=sm_90 -ptx -DN=512 sklansky.cu
#ifndef N
#define N 512
#endif
#define THREADS (N / 2)

extern "C" __global__ void sklansky(const int *in, int *out) {
  __shared__ int s[N];
  int t = threadIdx.x;
  int base = blockIdx.x * N;
  s[t] = in[base + t];
  s[t + THREADS] = in[base + t + THREADS];
  __syncthreads();
  for (int half = 1; half < N; half *= 2) {
    int segment = t / half;
    int first = segment * 2 * half;
    s[first + half + t % half] += s[first + half - 1];
    __syncthreads();
  }
  out[base + t] = s[t];
  out[base + t + THREADS] = s[t + THREADS];
}
