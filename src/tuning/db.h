/*
 * The tuning database: one text file per device, written by `oclfuse tune`, read by every context
 * on that device. The format (documented in docs/TUNING.md) is line-oriented and versioned:
 *
 *   oclfuse-tuning 2                     format version (1 is read too; a newer one is refused)
 *   library 0.2.0                        the library version that wrote it
 *   vendor NVIDIA Corporation            CL_DEVICE_VENDOR
 *   device NVIDIA H200                   CL_DEVICE_NAME
 *   driver 580.159.04                    CL_DRIVER_VERSION
 *   entry softmax f32 * long_rows.wg=256 op, data type, shape class (* = every class), values:
 *   entry softmax f32 wide long_rows.items=16       only those that differ from what the entry
 *   end 2                                           applies over; `end`: the number of entries
 *
 * The library's built-in values are a file of the same format (src/tuning/builtin.tuning) whose
 * header is the one line `builtin` instead of library / vendor / device / driver, and whose
 * entries (every class: `*`) apply to the devices of the `match` line before them:
 *
 *   match vendor=nvidia type=gpu device=H200     any of the three; `match any`: every device
 *
 * Lines starting with '#' and blank lines are comments. Values are "name=value" text read by
 * ocf_tuning_parse; format 1 wrote every tunable of an entry under its format-1 name, which the
 * parser still reads. This file holds the pure parser and writer; no file system, no OpenCL.
 */
#ifndef OCLFUSE_TUNING_DB_H
#define OCLFUSE_TUNING_DB_H

#include "tuning/shape_class.h"
#include "tuning/tuning.h"

#include <stddef.h>

enum { OCF_TUNING_DB_FORMAT = 2, OCF_TUNING_DB_OLDEST_FORMAT = 1 };

/* Values of every op, data type and shape class. */
typedef ocf_tuning_values ocf_tuning_table[OCF_OP_COUNT][OCF_DTYPE_COUNT][OCF_MAX_SHAPE_CLASSES];

typedef struct ocf_tuning_entry {
  ocf_op op;
  ocf_dtype dtype;
  int shape_class; /* an index of ocf_shape_class_name, or -1 for every class */
  char *values;    /* "name=value ..." */
  /* A built-in file's entries: the devices of their `match` line (ocf_tuning_key's fields). */
  int vendor;          /* an ocf_vendor, or OCF_VENDOR_ANY */
  cl_device_type type; /* 0: any */
  char *device;        /* a substring of the device name; NULL: any */
  size_t line;         /* where the entry is in its file */
} ocf_tuning_entry;

typedef struct ocf_tuning_db {
  unsigned format;
  int builtin; /* a file of built-in values (header `builtin`, entries keyed by `match`) */
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

/* Appends an entry for every device (values copied). OCF_ERR_OUT_OF_HOST_MEMORY on failure. */
ocf_status ocf_tuning_db_add(ocf_tuning_db *db, ocf_op op, ocf_dtype dtype, int shape_class,
                             const char *values);

/* The database as text (malloc'd, NUL-terminated); NULL when out of memory. */
char *ocf_tuning_db_format(const ocf_tuning_db *db);

/* Applies the entries of `db` for (op, dtype, shape_class) on top of *values: fp32 entries
   first for a 16-bit type, and within a type the every-class entries before the class's own. */
ocf_status ocf_tuning_db_apply(const ocf_tuning_db *db, ocf_op op, ocf_dtype dtype,
                               unsigned shape_class, ocf_tuning_values *values);

/* Applies `db` to the values of every op, type and class of *table, all or nothing: every result
   must pass the validator (`origin` names the database in its error). */
ocf_status ocf_tuning_db_apply_all(const ocf_tuning_db *db, ocf_tuning_table *table,
                                   const char *origin);

/* Whether a shipped database is for a device: its vendor line a case-insensitive substring of
   the device's vendor or platform name, and its device line one of the device's name. */
int ocf_tuning_db_matches(const ocf_tuning_db *db, const char *vendor, const char *platform_name,
                          const char *device_name);

/*
 * Rewrites every entry of one class as only what differs from the values the reader has when
 * it applies the entry: `base` (what the database is applied over), then the database's
 * entries that apply before it (fp32 ones for a 16-bit type, every-class ones before a class's
 * own). An fp32 entry applies to the 16-bit types as well, so it keeps what differs for any of
 * them. Every-class entries stay as they are. OCF_ERR_INVALID_VALUE when an entry does not
 * parse (the database is then unchanged).
 */
ocf_status ocf_tuning_db_make_sparse(ocf_tuning_db *db, const ocf_tuning_table *base);

/* A shipped database that ocf_tuning_resolve_library skipped (it does not parse, or its values
   break a rule once applied): its name; the reason is the last-error text. */
typedef void (*ocf_tuning_skipped_fn)(void *user, const char *name);

/*
 * The values built into the library for a device, for every op, type and class: the built-in
 * values (builtin.tuning, ocf_tuning_resolve), then every shipped database for the device
 * (ocf_tuning_db_matches), each all or nothing. `origin` gets where they came from
 * ("built-in + shipped nvidia-h200.tuning"). OCF_ERR_INVALID_VALUE when the built-in values
 * do not resolve (a library bug the device-free tests catch).
 */
ocf_status ocf_tuning_resolve_library(const ocf_device_facts *facts, const char *vendor,
                                      const char *platform_name, const char *device_name,
                                      ocf_tuning_table *table, char *origin, size_t capacity,
                                      ocf_tuning_skipped_fn skipped, void *user);

/* What `oclfuse tune` writes for a device: the database as text (ocf_tuning_db_format) with its
   class entries made sparse (ocf_tuning_db_make_sparse) over the values built into the library
   for the device (ocf_tuning_resolve_library), which is what its reader applies them over;
   entries stay whole if that fails. NULL when out of memory. */
char *ocf_tuning_db_format_sparse(ocf_tuning_db *db, const ocf_device_info *info);

#endif /* OCLFUSE_TUNING_DB_H */
