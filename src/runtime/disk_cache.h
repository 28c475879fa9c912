/*
 * The on-disk program cache: program binaries (CL_PROGRAM_BINARIES) under the cache folder
 * (runtime/files.h), in programs/<key>.bin, where the key is a digest of everything that changes
 * the binary: the program's source and cl/common.cl (their digests), the build options, the
 * platform, device, vendor and driver, and the library version. A file holds its full key text
 * and a checksum of the binary, is written atomically, and is trusted only when both match; a
 * binary the driver rejects falls back to a source build, which replaces the file.
 * The folder and the policy are a context's settings (ocf_context_config, else OCLFUSE_CACHE:
 * 0 turns the cache off, always stores binaries when a context is released on every device; by
 * default CPU devices store them only in a warm-up: see ocf_context_release).
 */
#ifndef OCLFUSE_DISK_CACHE_H
#define OCLFUSE_DISK_CACHE_H

#include "oclfuse.h"

#include <stddef.h>

typedef struct ocf_disk_key {
  char text[1024]; /* every input of the key, readable: stored in the file */
  char path[4096]; /* the file */
  int enabled;     /* the context has a cache folder and its cache is not off */
} ocf_disk_key;

typedef enum ocf_cache_policy {
  OCF_CACHE_OFF,     /* OCLFUSE_CACHE=0 */
  OCF_CACHE_DEFAULT, /* unset or anything else */
  OCF_CACHE_ALWAYS   /* OCLFUSE_CACHE=always */
} ocf_cache_policy;

/* The policy OCLFUSE_CACHE asks for (read now). */
ocf_cache_policy ocf_disk_cache_policy(void);

/* Fills the key of a program built with `options` from a source of digest `digest` on the
   device `info`, its file in the folder `dir` ("": no file, the key is not enabled). */
void ocf_disk_key_make(ocf_disk_key *key, const ocf_device_info *info, unsigned long long digest,
                       const char *options, const char *dir);

/* The cached binary for the key (malloc'd), or -1 when there is none or the file is not
   exactly what the key names (a corrupt, truncated or colliding file). */
int ocf_disk_cache_load(const ocf_disk_key *key, unsigned char **binary, size_t *length);

/* Stores a binary for the key, atomically. Returns 0, or -1 (the folder is read-only, ...). */
int ocf_disk_cache_store(const ocf_disk_key *key, const unsigned char *binary, size_t length);

/* Removes the key's file (after the driver refused its binary). */
void ocf_disk_cache_remove(const ocf_disk_key *key);

#endif /* OCLFUSE_DISK_CACHE_H */
