/* Program binaries on disk (format: a header line, the key line, then the binary). */
#include "runtime/disk_cache.h"

#include "runtime/files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The file: "oclfuse-binary 1 <length> <fnv1a of the binary, 16 hex>\n<key text>\n<binary>". */
#define MAGIC "oclfuse-binary 1"
/* Program binaries of these kernels are at most a few MiB; more is not one of ours. */
#define MAX_FILE_BYTES ((size_t)64 << 20)

ocf_cache_policy ocf_disk_cache_policy(void) {
  const char *value = getenv("OCLFUSE_CACHE");
  if (value && strcmp(value, "0") == 0) return OCF_CACHE_OFF;
  if (value && strcmp(value, "always") == 0) return OCF_CACHE_ALWAYS;
  return OCF_CACHE_DEFAULT;
}

void ocf_disk_key_make(ocf_disk_key *key, const ocf_device_info *info, unsigned long long digest,
                       const char *options, const char *dir) {
  memset(key, 0, sizeof *key);
  snprintf(key->text, sizeof key->text,
           "source %016llx | options %s | platform %s | device %s | vendor %s | driver %s | "
           "library %s",
           digest, options, info->platform_name, info->device_name, info->vendor,
           info->driver_version, ocf_version_string());
  if (!dir || !dir[0]) return;
  unsigned long long hash = ocf_fnv1a(OCF_FNV_START, key->text, strlen(key->text));
  int n = snprintf(key->path, sizeof key->path, "%s/%016llx.bin", dir, hash);
  key->enabled = n > 0 && (size_t)n < sizeof key->path;
}

int ocf_disk_cache_load(const ocf_disk_key *key, unsigned char **binary, size_t *length) {
  *binary = NULL;
  *length = 0;
  if (!key->enabled) return -1;
  char *data = NULL;
  size_t size = 0;
  if (ocf_read_file(key->path, MAX_FILE_BYTES, &data, &size) != 0) return -1;
  /* Header line, then the key line, then exactly `declared` bytes. */
  char *header_end = memchr(data, '\n', size);
  size_t key_length = strlen(key->text);
  unsigned long long declared = 0, checksum = 0;
  int ok = header_end && sscanf(data, MAGIC " %llu %16llx", &declared, &checksum) == 2 &&
           strncmp(data, MAGIC " ", strlen(MAGIC) + 1) == 0;
  size_t body = ok ? (size_t)(header_end - data) + 1 : 0;
  ok = ok && size - body > key_length && memcmp(data + body, key->text, key_length) == 0 &&
       data[body + key_length] == '\n';
  body += key_length + 1;
  ok = ok && declared == size - body && declared > 0 &&
       ocf_fnv1a(OCF_FNV_START, data + body, (size_t)declared) == checksum;
  if (!ok) {
    free(data);
    return -1;
  }
  unsigned char *copy = malloc((size_t)declared);
  if (copy) memcpy(copy, data + body, (size_t)declared);
  free(data);
  if (!copy) return -1;
  *binary = copy;
  *length = (size_t)declared;
  return 0;
}

int ocf_disk_cache_store(const ocf_disk_key *key, const unsigned char *binary, size_t length) {
  if (!key->enabled || length == 0) return -1;
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", key->path);
  char *slash = strrchr(dir, '/');
  if (!slash) return -1;
  *slash = '\0';
  if (ocf_make_dirs(dir) != 0) return -1;
  char header[128];
  int header_length = snprintf(header, sizeof header, MAGIC " %zu %016llx\n", length,
                               ocf_fnv1a(OCF_FNV_START, binary, length));
  size_t key_length = strlen(key->text);
  size_t total = (size_t)header_length + key_length + 1 + length;
  unsigned char *file = malloc(total);
  if (!file) return -1;
  memcpy(file, header, (size_t)header_length);
  memcpy(file + header_length, key->text, key_length);
  file[(size_t)header_length + key_length] = '\n';
  memcpy(file + header_length + key_length + 1, binary, length);
  int result = ocf_write_file_atomic(key->path, file, total);
  free(file);
  return result;
}

void ocf_disk_cache_remove(const ocf_disk_key *key) {
  if (key->enabled) unlink(key->path);
}
