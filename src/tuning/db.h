/*
 * The tuning database: one text file per device, written by `oclfuse tune`, read by every context
 * on that device. The format (documented in docs/TUNING.md) is line-oriented and versioned:
 *
 *   oclfuse-tuning 1                     format version (a newer one is ignored)
 *   library 0.2.0                        the library version that wrote it
 *   vendor NVIDIA Corporation            CL_DEVICE_VENDOR
 *   device NVIDIA H200                   CL_DEVICE_NAME
 *   driver 580.159.04                    CL_DRIVER_VERSION
 *   entry softmax f32 * wg=256 vw=4      op, data type, shape class (* = every class), values
 *   entry softmax f32 wide items=16
 *   end 2                                the number of entries: a truncated file lacks it
 *
 * Lines starting with '#' and blank lines are comments. Values are the same "name=value" text as
 * the built-in rows, parsed by the same parser. This file holds the pure parser and writer; no
 * file system, no OpenCL (db_files.c reads and writes the files).
 */
#ifndef OCLFUSE_TUNING_DB_H
#define OCLFUSE_TUNING_DB_H

#include "tuning/tuning.h"

#include <stddef.h>

enum { OCF_TUNING_DB_FORMAT = 1 };

typedef struct ocf_tuning_entry {
  ocf_op op;
  ocf_dtype dtype;
  int shape_class; /* an index of ocf_shape_class_name, or -1 for every class */
  char *values;    /* "name=value ..." */
} ocf_tuning_entry;

typedef struct ocf_tuning_db {
  unsigned format;
  char library[32];
  char vendor[128];
  char device[128];
  char driver[64];
  size_t entry_count;
  ocf_tuning_entry *entries;
} ocf_tuning_db;

/* The largest file the reader accepts; a database is a few KiB. */
#define OCF_TUNING_DB_MAX_BYTES ((size_t)1 << 20)

/*
 * Parses `length` bytes of text into *db (which the caller frees with ocf_tuning_db_free).
 * Any deviation from the format (an unknown line, a missing or repeated header line, an unknown
 * op, data type, class or tunable, a value that is not an int, a NUL byte, a missing or wrong
 * `end` line, a newer format) is OCF_ERR_INVALID_VALUE with the line in the last-error text, and
 * *db is left empty.
 */
ocf_status ocf_tuning_db_parse(const char *text, size_t length, ocf_tuning_db *db);

/* Frees what ocf_tuning_db_parse or ocf_tuning_db_add allocated; leaves *db empty. */
void ocf_tuning_db_free(ocf_tuning_db *db);

/* Appends an entry (values copied). OCF_ERR_OUT_OF_HOST_MEMORY on failure. */
ocf_status ocf_tuning_db_add(ocf_tuning_db *db, ocf_op op, ocf_dtype dtype, int shape_class,
                             const char *values);

/* The database as text (malloc'd, NUL-terminated); NULL when out of memory. */
char *ocf_tuning_db_format(const ocf_tuning_db *db);

/* Applies the entries of `db` for (op, dtype, shape_class) on top of *values: fp32 entries
   first for a 16-bit type, and within a type the every-class entries before the class's own. */
ocf_status ocf_tuning_db_apply(const ocf_tuning_db *db, ocf_op op, ocf_dtype dtype,
                               unsigned shape_class, ocf_tuning_values *values);

#endif /* OCLFUSE_TUNING_DB_H */
