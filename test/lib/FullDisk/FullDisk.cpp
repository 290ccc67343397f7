//===- FullDisk.cpp - a full disk under one directory, as a test double ---===//
//
// Preloaded into a tool (LD_PRELOAD), it makes every write into a file
// under the directory $OBS_FULL_DISK_UNDER fail with ENOSPC once the file's
// descriptor has taken $OBS_FULL_DISK_BYTES bytes (0 when unset), as a full
// disk does: what the compile cache writes there meets a full disk at any
// point, without one. Other files are written as usual.
//
//===----------------------------------------------------------------------===//

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <unistd.h>

namespace {
constexpr int kMostDescriptors = 4096;
/// The bytes written through each descriptor since it was opened.
long long writtenThrough[kMostDescriptors];

/// Whether descriptor `fd` is a file under $OBS_FULL_DISK_UNDER.
bool isUnderFullDisk(int fd) {
  const char *under = std::getenv("OBS_FULL_DISK_UNDER");
  if (!under || !*under || fd < 3 || fd >= kMostDescriptors)
    return false;
  char link[64], path[PATH_MAX];
  std::snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
  ssize_t length = readlink(link, path, sizeof(path) - 1);
  if (length < 0)
    return false;
  path[length] = '\0';
  return std::strncmp(path, under, std::strlen(under)) == 0;
}
} // namespace

extern "C" ssize_t write(int fd, const void *data, size_t bytes) {
  static auto *realWrite =
      reinterpret_cast<ssize_t (*)(int, const void *, size_t)>(
          dlsym(RTLD_NEXT, "write"));
  if (!isUnderFullDisk(fd))
    return realWrite(fd, data, bytes);
  const char *limit = std::getenv("OBS_FULL_DISK_BYTES");
  long long left = (limit ? std::atoll(limit) : 0) - writtenThrough[fd];
  if (left <= 0) {
    errno = ENOSPC;
    return -1;
  }
  if (static_cast<long long>(bytes) > left)
    bytes = static_cast<size_t>(left);
  ssize_t written = realWrite(fd, data, bytes);
  if (written > 0)
    writtenThrough[fd] += written;
  return written;
}

extern "C" int close(int fd) {
  static auto *realClose =
      reinterpret_cast<int (*)(int)>(dlsym(RTLD_NEXT, "close"));
  if (fd >= 0 && fd < kMostDescriptors)
    writtenThrough[fd] = 0;
  return realClose(fd);
}
