/*
 * The library's files: where its cache folder is, reading a whole small file, and writing one
 * atomically (a temporary file in the same folder, then rename), so that a reader never sees a
 * half-written file and two writers of the same file leave one whole copy. POSIX only.
 */
#ifndef OCLFUSE_FILES_H
#define OCLFUSE_FILES_H

#include <stddef.h>

/*
 * Writes the environment's tuning folder into out: $OCLFUSE_TUNING_DIR, else
 * $XDG_CACHE_HOME/oclfuse, else $HOME/.cache/oclfuse. Returns 0, or -1 when none is set or the
 * path does not fit. Read when a context is created, unless its config names the folder or
 * ignores the environment (api/context.c).
 */
int ocf_cache_dir(char *out, size_t capacity);

/* Reads a whole regular file of at most max_bytes into a malloc'd buffer (NUL-terminated, the
   terminator not counted in *length). Returns 0, or -1 (missing, unreadable, too large, or not a
   regular file: a FIFO, a device or a folder is refused without blocking). */
int ocf_read_file(const char *path, size_t max_bytes, char **data, size_t *length);

/* Creates `path` and its parent folders (mode 0755). Returns 0, or -1. */
int ocf_make_dirs(const char *path);

/* Writes data to path atomically: a uniquely named temporary file beside it, then rename.
   Returns 0, or -1 (the folder is missing or read-only, the disk is full, ...). */
int ocf_write_file_atomic(const char *path, const void *data, size_t length);

/* A file-name-safe copy of text: letters and digits kept (lower-cased), runs of anything else
   turned into one '-', at most capacity - 1 bytes. */
void ocf_file_slug(const char *text, char *out, size_t capacity);

/* FNV-1a of a string, continuing from `hash` (start with OCF_FNV_START). */
#define OCF_FNV_START 14695981039346656037ull
unsigned long long ocf_fnv1a(unsigned long long hash, const void *data, size_t length);

#endif /* OCLFUSE_FILES_H */
