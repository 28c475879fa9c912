/* Runs a fuzz target over files and folders of inputs (no libFuzzer): the corpus as a test. */
#include "fuzz.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static unsigned replayed;

static int replay_file(const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file) {
    fprintf(stderr, "cannot open %s\n", path);
    return 1;
  }
  size_t capacity = 1 << 16, size = 0;
  uint8_t *data = malloc(capacity);
  size_t got;
  while (data && (got = fread(data + size, 1, capacity - size, file)) > 0) {
    size += got;
    if (size == capacity) {
      uint8_t *grown = realloc(data, capacity *= 2);
      if (!grown) free(data);
      data = grown;
    }
  }
  fclose(file);
  if (!data) return 1;
  LLVMFuzzerTestOneInput(data, size);
  free(data);
  replayed++;
  return 0;
}

static int replay_path(const char *path) {
  struct stat info;
  if (stat(path, &info) != 0) {
    fprintf(stderr, "no such input: %s\n", path);
    return 1;
  }
  if (!S_ISDIR(info.st_mode)) return replay_file(path);
  DIR *dir = opendir(path);
  if (!dir) return 1;
  int failures = 0;
  struct dirent *entry;
  while ((entry = readdir(dir)) != NULL) {
    if (entry->d_name[0] == '.') continue;
    char child[4096];
    snprintf(child, sizeof child, "%s/%s", path, entry->d_name);
    failures += replay_path(child);
  }
  closedir(dir);
  return failures;
}

int main(int argc, char **argv) {
  LLVMFuzzerInitialize(&argc, &argv);
  int failures = 0;
  for (int i = 1; i < argc; i++)
    failures += replay_path(argv[i]);
  printf("replayed %u inputs\n", replayed);
  return failures != 0 || replayed == 0;
}
