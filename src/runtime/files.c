/* The cache folder, whole-file reads and atomic writes (POSIX). */
#include "runtime/files.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ocf_cache_dir(char *out, size_t capacity) {
  const char *dir = getenv("OCLFUSE_TUNING_DIR");
  int n = -1;
  if (dir && dir[0]) {
    n = snprintf(out, capacity, "%s", dir);
  } else if ((dir = getenv("XDG_CACHE_HOME")) && dir[0] == '/') {
    n = snprintf(out, capacity, "%s/oclfuse", dir);
  } else if ((dir = getenv("HOME")) && dir[0]) {
    n = snprintf(out, capacity, "%s/.cache/oclfuse", dir);
  }
  return n > 0 && (size_t)n < capacity ? 0 : -1;
}

int ocf_read_file(const char *path, size_t max_bytes, char **data, size_t *length) {
  *data = NULL;
  *length = 0;
  /* Opened without blocking, then checked to be a regular file: a FIFO (or a device) at the
     path would block open() and read() until a writer came, whoever put it there. */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return -1;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0 ||
      (unsigned long long)st.st_size > max_bytes) {
    close(fd);
    return -1;
  }
  /* A regular file's reads never block; clear the flag all the same. */
  int flags = fcntl(fd, F_GETFL);
  if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
    close(fd);
    return -1;
  }
  size_t size = (size_t)st.st_size;
  char *buffer = malloc(size + 1);
  if (!buffer) {
    close(fd);
    return -1;
  }
  size_t done = 0;
  while (done < size) {
    ssize_t n = read(fd, buffer + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += (size_t)n;
  }
  close(fd);
  if (done != size) {
    free(buffer);
    return -1;
  }
  buffer[size] = '\0';
  *data = buffer;
  *length = size;
  return 0;
}

int ocf_make_dirs(const char *path) {
  char partial[4096];
  size_t length = strlen(path);
  if (length == 0 || length >= sizeof partial) return -1;
  memcpy(partial, path, length + 1);
  for (size_t i = 1; i <= length; i++) {
    if (partial[i] != '/' && partial[i] != '\0') continue;
    char saved = partial[i];
    partial[i] = '\0';
    if (mkdir(partial, 0755) != 0 && errno != EEXIST) return -1;
    partial[i] = saved;
  }
  return 0;
}

int ocf_write_file_atomic(const char *path, const void *data, size_t length) {
  static unsigned counter = 0;
  char temporary[4200];
  unsigned serial = __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED);
  int n = snprintf(temporary, sizeof temporary, "%s.%ld.%u.tmp", path, (long)getpid(), serial);
  if (n < 0 || (size_t)n >= sizeof temporary) return -1;
  int fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return -1;
  const char *bytes = data;
  size_t done = 0;
  while (done < length) {
    ssize_t written = write(fd, bytes + done, length - done);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) break;
    done += (size_t)written;
  }
  int ok = done == length && fsync(fd) == 0;
  ok = close(fd) == 0 && ok;
  if (!ok || rename(temporary, path) != 0) {
    unlink(temporary);
    return -1;
  }
  return 0;
}

void ocf_file_slug(const char *text, char *out, size_t capacity) {
  size_t used = 0;
  int dash = 0;
  for (const char *c = text; *c && used + 1 < capacity; c++) {
    if (isalnum((unsigned char)*c)) {
      if (dash && used > 0 && used + 2 < capacity) out[used++] = '-';
      out[used++] = (char)tolower((unsigned char)*c);
      dash = 0;
    } else {
      dash = 1;
    }
  }
  if (capacity) out[used] = '\0';
}

unsigned long long ocf_fnv1a(unsigned long long hash, const void *data, size_t length) {
  const unsigned char *bytes = data;
  for (size_t i = 0; i < length; i++) {
    hash ^= bytes[i];
    hash *= 1099511628211ull;
  }
  return hash;
}
