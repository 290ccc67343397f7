// Batcher's bitonic sort of N ints per block by hand (512 unless -DN= says
// otherwise): N/2 threads, one compare-and-swap each per step, the direction
// of each pair from its index, a __syncthreads after every step.
//
//   nvcc -arch=sm_90 -ptx [-DN=1024] bitonic.cu
#ifndef N
#define N 512
#endif
#define THREADS (N / 2)

extern "C" __global__ void bitonic(const int *in, int *out) {
  __shared__ int s[N];
  int t = threadIdx.x;
  int base = blockIdx.x * N;
  s[t] = in[base + t];
  s[t + THREADS] = in[base + t + THREADS];
  __syncthreads();
  for (int size = 2; size <= N; size *= 2) {
    for (int stride = size / 2; stride > 0; stride /= 2) {
      int i = 2 * t - (t & (stride - 1));
      int j = i + stride;
      bool ascending = (i & size) == 0;
      int a = s[i], b = s[j];
      if ((a > b) == ascending) {
        s[i] = b;
        s[j] = a;
      }
      __syncthreads();
    }
  }
  out[base + t] = s[t];
  out[base + t + THREADS] = s[t + THREADS];
}
