/**
 * @file oclfuse.h
 * liboclfuse: fused, tunable OpenCL kernels for C and C++ programs.
 *
 * The whole public API is in this header. The operations, row-major:
 *
 *     add      out[i] = x[i] + y[i]                                   i < n
 *     softmax  out[r][c] = exp(in[r][c] - max_r) / sum_k exp(in[r][k] - max_r)
 *     matmul   C = alpha * op(A) * op(B) + beta * C                   (GEMM)
 *     layernorm, rmsnorm  each row normalized (ocf_norm_options)
 *     attention out = softmax(scale * Q K^T + mask) V  (fused: the scores stay on chip)
 *
 * Every call comes in two forms:
 *   - a device-buffer call (cl_mem + element offsets + row strides), asynchronous, enqueued on the
 *     context's queue or the one given in an ocf_launch, composing with the caller's OpenCL code;
 *   - a host-array call (suffix _host) that copies in, runs and copies out, synchronously.
 *
 * Sizes, offsets and row strides (leading dimensions) count elements, never bytes.
 * Element data types (ocf_dtype) are fp32 by default; the typed calls (suffix _ex) take the
 * storage type of each operand: ocf_softmax_ex and ocf_matmul_ex take fp32, fp16 and bf16.
 *
 * Every fallible call returns an ocf_status. On failure no output was touched and the call's
 * events (ocf_launch.event, first_event) were not set; ocf_last_error() then says why in words
 * (thread-local), naming the OpenCL call that failed and its error or, for a failed program
 * build, giving the build log. Nothing was enqueued either, with one exception: a call of several
 * kernels (softmax's split plan for a few long rows and its baseline variant, matmul's split-K)
 * whose later kernel fails to enqueue leaves the earlier ones queued; they write only the call's
 * own scratch memory and finish on their own, after the launch's wait list. The one status after
 * which an output will still change is OCF_ERR_ENQUEUED_WITHOUT_EVENT (see ocf_launch.first_event).
 *
 * Asynchrony: a device-buffer call checks its arguments, builds the programs it needs the first
 * time a context needs them (a compile of up to seconds, in the calling thread, unless the
 * on-disk cache or ocf_warmup() has them), enqueues its kernels and returns; the results are
 * there once the call's event (ocf_launch.event) has completed. Buffers are the caller's: the
 * library does not keep them past the call, and OpenCL keeps them alive for the enqueued kernels.
 * What the checks learn of a buffer that cannot change (its context, size, a sub-buffer's parent
 * and origin) is kept until the buffer is destroyed, so that a repeated call asks OpenCL nothing
 * about it and sets no kernel argument again: the first call that passes a buffer registers one
 * destructor callback on it (clSetMemObjectDestructorCallback; it runs briefly on the thread
 * that destroys the buffer, also after every context is released; on Linux the library is
 * linked so that dlclose does not unload it). Where the runtime does not run such callbacks
 * inside clReleaseMemObject (probed when a context is made), or refuses one, nothing is kept.
 *
 * Thread safety: calls on one context from several threads are safe. Releasing a context while
 * another thread uses it is not. Functions without a context are safe from any thread.
 *
 * OpenCL version: this header includes <CL/cl.h>. When the includer has not defined
 * CL_TARGET_OPENCL_VERSION, it defines it as 300, the Khronos headers' own default, so that they
 * declare what they would anyway without printing a note in every program; define it before
 * including any OpenCL header to choose another. The library itself uses OpenCL 1.2 calls only.
 *
 * Growing structs: ocf_launch, ocf_device_info and the options structs of the _ex calls start
 * with a `size` member. Initialise them with their `OCF_*_INIT` macro or `*_init` function, which
 * sets `size` to the sizeof the caller was compiled with, so that a newer library that has added
 * members at the end can tell which ones the caller knows.
 */
#ifndef OCLFUSE_H
#define OCLFUSE_H

#ifndef CL_TARGET_OPENCL_VERSION
/** The OpenCL API version the Khronos headers declare (300: their default, without their note);
 *  set only when the includer has not chosen one. */
#define CL_TARGET_OPENCL_VERSION 300
#endif
#ifdef __APPLE__
#include <OpenCL/cl.h>
#else
#include <CL/cl.h>
#endif

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Export and version ------------------------------------------------------------------- */

/** Marks the library's exported functions (default visibility; dllexport when building it on
    Windows). */
#if defined(_WIN32) && defined(OCLFUSE_SHARED_BUILD)
#define OCF_API __declspec(dllexport)
#elif defined(__GNUC__) && __GNUC__ >= 4
#define OCF_API __attribute__((visibility("default")))
#else
#define OCF_API
#endif

/* The one place the version is set: CMakeLists.txt reads these three lines. Before 1.0 every
   minor version may change the ABI (the SONAME is liboclfuse.so.MAJOR.MINOR). */
#define OCF_VERSION_MAJOR 0 /**< The header's major version. */
#define OCF_VERSION_MINOR 4 /**< The header's minor version. */
#define OCF_VERSION_PATCH 0 /**< The header's patch version. */
/** The header's version as one number, MAJOR * 10000 + MINOR * 100 + PATCH (200 for 0.2.0). */
#define OCF_VERSION_NUMBER (OCF_VERSION_MAJOR * 10000 + OCF_VERSION_MINOR * 100 + OCF_VERSION_PATCH)

/** Returns OCF_VERSION_NUMBER of the library actually linked (may differ from the header's). */
OCF_API unsigned ocf_version_number(void);
/** Returns the linked library's version as "MAJOR.MINOR.PATCH" (a static string). */
OCF_API const char *ocf_version_string(void);

/* ---- Status ------------------------------------------------------------------------------- */

/**
 * Status codes. 0 is success. Negative values from -1 to -999 are OpenCL's own error codes,
 * passed through unchanged (CL_OUT_OF_RESOURCES is -5 here too). The library's own codes live in
 * their own range, from -2000 down, listed once in OCF_STATUS_LIST so that the enum, the names and
 * the messages cannot drift apart: X(name, value, message) for each.
 */
#define OCF_STATUS_LIST(X)                                                                       \
  X(OCF_SUCCESS, 0, "success")                                                                   \
  X(OCF_ERR_NULL_ARGUMENT, -2001, "a required pointer or handle is NULL")                        \
  X(OCF_ERR_INVALID_VALUE, -2002, "an argument is outside its allowed values")                   \
  X(OCF_ERR_SIZE_OVERFLOW, -2003, "the sizes give an extent that overflows")                     \
  X(OCF_ERR_BUFFER_TOO_SMALL, -2004, "a buffer is smaller than its offset plus extent")          \
  X(OCF_ERR_INVALID_STRIDE, -2005, "a row stride (leading dimension) is shorter than a row")     \
  X(OCF_ERR_INVALID_WORKGROUP, -2006, "the workgroup size cannot run on this device and kernel") \
  X(OCF_ERR_ALIASING, -2007, "an output overlaps an input where that is not allowed")            \
  X(OCF_ERR_BUILD_FAILED, -2008, "the OpenCL program failed to build")                           \
  X(OCF_ERR_NO_DEVICE, -2009, "no OpenCL device matches")                                        \
  X(OCF_ERR_INVALID_SPEC, -2010, "the device spec is malformed")                                 \
  X(OCF_ERR_OUT_OF_HOST_MEMORY, -2011, "out of host memory")                                     \
  X(OCF_ERR_UNSUPPORTED, -2012, "the device or the library lacks a capability this call needs")  \
  X(OCF_ERR_CONTEXT_MISMATCH, -2013, "a buffer or queue belongs to another OpenCL context")      \
  X(OCF_ERR_KERNEL_MISMATCH, -2014, "a built kernel's arguments differ from its description")    \
  X(OCF_ERR_INVALID_STRUCT, -2015, "a struct's size member is not one this library knows")       \
  X(OCF_ERR_ENQUEUED_WITHOUT_EVENT, -2016,                                                       \
    "the call is enqueued and will write its output, but its events could not be returned")

/** What a call returns: OCF_SUCCESS (0), an OpenCL error code, or one of OCF_STATUS_LIST. */
typedef enum ocf_status {
#define OCF_STATUS_ENUM_(name, value, message) name = value,
  OCF_STATUS_LIST(OCF_STATUS_ENUM_)
#undef OCF_STATUS_ENUM_
} ocf_status;

/** Returns the status's symbol ("OCF_ERR_ALIASING", "CL_OUT_OF_RESOURCES", "OCF_UNKNOWN_STATUS"
    for a value no one defines): a static string, never NULL. */
OCF_API const char *ocf_status_name(ocf_status status);
/** Returns a one-line description of the status: a static string, never NULL. */
OCF_API const char *ocf_status_message(ocf_status status);
/**
 * Returns the calling thread's text about its last failed call: which argument (argument
 * checks name the function and argument, "ocf_softmax: in: buffer holds ..."), which limit,
 * the OpenCL error name, the build log; "" when the last call succeeded. Thread-local; the
 * library owns the text, which stays valid until this thread's next liboclfuse call.
 */
OCF_API const char *ocf_last_error(void);
/**
 * Returns what the calling thread's last successful op call enqueued: its kernels, workgroup
 * sizes and compile-time parameters, e.g. "softmax_rows wg=128 groups=512 (-DWG=128 -DVW=4 ...)";
 * "" when the last call enqueued nothing. Thread-local and owned by the library, like
 * ocf_last_error(). OCLFUSE_VERBOSE=1 (or verbosity OCF_LOG_DEBUG in ocf_context_config) logs
 * the same line to stderr (or the context's log callback) for every call.
 */
OCF_API const char *ocf_last_plan(void);

/* ---- Data types --------------------------------------------------------------------------- */

/**
 * Storage type of an operand's elements. Arithmetic inside the kernels is fp32 whatever the
 * storage; a 16-bit output is rounded to nearest even. OCF_F16 (IEEE binary16) and OCF_BF16
 * (bfloat16, the top half of an fp32) are taken by ocf_softmax_ex, ocf_matmul_ex,
 * ocf_layernorm and ocf_rmsnorm (ocf_add is fp32 only).
 */
typedef enum ocf_dtype { OCF_F32 = 0, OCF_F16 = 1, OCF_BF16 = 2 } ocf_dtype;

/** Returns the size in bytes of one element of `dtype` (4 or 2), or 0 for a value out of range. */
OCF_API size_t ocf_dtype_size(ocf_dtype dtype);
/** Returns "f32", "f16" or "bf16"; "?" for a value out of range. A static string, never NULL. */
OCF_API const char *ocf_dtype_name(ocf_dtype dtype);

/*
 * Host conversions between fp32 and the 16-bit storage types, bit for bit the conversions the
 * kernels make (cl/common.cl), so that a caller can prepare 16-bit inputs and read 16-bit outputs
 * on the host. Each converts n elements of `in` into `out`, elements counted, not bytes; the
 * arrays are the caller's and not kept. `out` must not overlap `in` except at the same address
 * (in place: the 16-bit results packed into the front of the fp32 array, or widened over it),
 * else OCF_ERR_ALIASING; a NULL array with n > 0 is OCF_ERR_NULL_ARGUMENT; n = 0 does nothing.
 * No context and no OpenCL call: thread-safe, and they work with no device at all.
 */

/**
 * fp32 -> IEEE binary16 (cl_half bits), as vstore_half_rte: rounded to nearest, ties to even;
 * a magnitude that rounds past 65504 (from 65520 up) and an infinity give an infinity of its
 * sign; a NaN gives the quiet NaN 0x7e00 with its sign (the payload is dropped: OpenCL leaves
 * a NaN's fp16 payload to the device, and devices differ, PoCL storing 0x7fff, so only NaN-ness
 * and sign are common to all). Below fp16's normal range (2^-14) results are fp16 subnormals,
 * multiples of 2^-24 rounded to nearest even (gradual underflow, no flush to zero): magnitudes
 * up to 2^-25 give a zero of their sign. Every non-NaN input gives the device's bits.
 */
OCF_API ocf_status ocf_float_to_half(size_t n, const float *in, cl_half *out);
/** IEEE binary16 -> fp32, exact for every one of the 65536 patterns (as vload_half): subnormals
    become normal floats, infinities stay infinite, a NaN keeps its sign and payload (shifted to
    the top of the fp32 mantissa; a signalling NaN stays signalling). See ocf_float_to_half for
    n, the arrays and the statuses. */
OCF_API ocf_status ocf_half_to_float(size_t n, const cl_half *in, float *out);
/**
 * fp32 -> bfloat16 (the top 16 bits of an fp32, as cl_ushort), as the kernels store OCF_BF16:
 * rounded to nearest, ties to even, a carry running into the exponent up to an infinity
 * (magnitudes from 0x7f7f8000, 2^128 (1 - 2^-9), up); a NaN stays a NaN of its sign with the
 * top of its payload, made quiet (bit 0x0040 set). fp32 subnormals round like any other value to
 * bf16 subnormals (no flush to zero). See ocf_float_to_half for n, the arrays and the statuses.
 */
OCF_API ocf_status ocf_float_to_bfloat16(size_t n, const float *in, cl_ushort *out);
/** bfloat16 -> fp32: exact (the bits become the top half of the float, the low half 0), for every
    pattern, NaNs and subnormals included. See ocf_float_to_half for n, the arrays and the
    statuses. */
OCF_API ocf_status ocf_bfloat16_to_float(size_t n, const cl_ushort *in, float *out);

/* ---- Devices ------------------------------------------------------------------------------ */

/** One OpenCL device as the library sees it. Strings are truncated to fit, always terminated.
    The OpenCL handles are not retained: they live as long as the platform's driver. */
typedef struct ocf_device_info {
  size_t size;               /**< sizeof(ocf_device_info): set by ocf_device_info_init */
  unsigned platform_index;   /**< position in clGetPlatformIDs' list */
  unsigned device_index;     /**< position in that platform's clGetDeviceIDs(CL_DEVICE_TYPE_ALL) */
  cl_platform_id platform;   /**< the OpenCL platform */
  cl_device_id device;       /**< the OpenCL device */
  cl_device_type type;       /**< CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_CPU, ... */
  char platform_name[128];   /**< CL_PLATFORM_NAME */
  char device_name[128];     /**< CL_DEVICE_NAME */
  char vendor[128];          /**< CL_DEVICE_VENDOR */
  char driver_version[64];   /**< CL_DRIVER_VERSION */
  char device_version[64];   /**< CL_DEVICE_VERSION: "OpenCL 3.0 CUDA", ... */
  cl_uint compute_units;     /**< CL_DEVICE_MAX_COMPUTE_UNITS */
  cl_uint max_clock_mhz;     /**< CL_DEVICE_MAX_CLOCK_FREQUENCY, in MHz */
  cl_ulong global_mem_bytes; /**< CL_DEVICE_GLOBAL_MEM_SIZE, in bytes */
  cl_ulong local_mem_bytes;  /**< CL_DEVICE_LOCAL_MEM_SIZE, in bytes */
  size_t max_workgroup_size; /**< CL_DEVICE_MAX_WORK_GROUP_SIZE, in work-items */
  size_t max_work_item_sizes[3]; /**< CL_DEVICE_MAX_WORK_ITEM_SIZES, first three dimensions */
  cl_ulong max_alloc_bytes;      /**< CL_DEVICE_MAX_MEM_ALLOC_SIZE, in bytes */
  /** NVIDIA's compute capability, major part (CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV of
      cl_nv_device_attribute_query: 9 on an H200); 0 where the device reports none */
  cl_uint nv_compute_capability_major;
  /** NVIDIA's compute capability, minor part (CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV); 0 where
      the device reports none */
  cl_uint nv_compute_capability_minor;
} ocf_device_info;

/** Zeroes *info and sets its size member: call it before passing an ocf_device_info in.
    Accepts NULL (does nothing). */
OCF_API void ocf_device_info_init(ocf_device_info *info);

/**
 * Lists every device of every platform, into the caller's array. Writes up to `capacity`
 * entries to `devices` (which may be NULL when capacity is 0) and the total number of devices to
 * *count, so a first call with capacity 0 sizes the array. devices[0].size is the size of every
 * element of the array (initialise each with ocf_device_info_init). No platform at all is a
 * success with *count 0; a device whose driver cannot describe it is left out. Blocking (OpenCL
 * queries); thread-safe.
 */
OCF_API ocf_status ocf_devices_list(ocf_device_info *devices, size_t capacity, size_t *count);

/**
 * Resolves a device spec to one device, the same way ocf_context_create() does:
 *   - NULL or "": the environment variable OCLFUSE_DEVICE if set, else the first GPU of any
 *     platform, else the first device of any type;
 *   - "P:D": platform index P, device index D (decimal);
 *   - any other text: the first device whose "platform device" name contains it, ignoring case.
 *
 * A spec made only of digits, ':', signs and spaces is read as "P:D": one that is not exactly
 * two non-negative indices ("-1:0", "0:", "1:2:3") is OCF_ERR_INVALID_SPEC. Returns
 * OCF_ERR_NO_DEVICE when nothing matches. device->size must be set (ocf_device_info_init).
 * Blocking (OpenCL queries); thread-safe.
 */
OCF_API ocf_status ocf_device_select(const char *spec, ocf_device_info *device);

/* ---- Context ------------------------------------------------------------------------------ */

/** One device, its OpenCL context and default queue, its tuning, and the programs built for it.
    Opaque; created by ocf_context_create() or ocf_context_wrap(), freed by ocf_context_release().
    Calls on one context from several threads are safe. */
typedef struct ocf_context ocf_context;

/**
 * Creates a context on the device named by `spec` (see ocf_device_select), with its own
 * OpenCL context and a profiling-enabled in-order command queue, and resolves its tuning (which
 * reads the user's tuning database, if any). Builds no program. Blocking; thread-safe. *ctx is
 * set only on success; the caller owns it and releases it with ocf_context_release().
 */
OCF_API ocf_status ocf_context_create(const char *spec, ocf_context **ctx);

/**
 * Creates a context over the caller's own OpenCL objects, which are retained (not owned: the
 * caller still releases its references). `queue` must belong to `context` and `device`; it is
 * the default queue of every call and may be out of order
 * (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE): every command a call enqueues waits by event for the
 * one before it (a call's scratch fill, its kernels, and a host-array call's transfers), the
 * first for the launch's wait list, and a host-array call returns only after its read-back of
 * the output, which waits for the call's last kernel. Separate calls on such a queue are
 * ordered only by the events the caller passes between them. Time events of its calls only if
 * the caller created it with
 * CL_QUEUE_PROFILING_ENABLE. *ctx is set only on success; release it with ocf_context_release().
 */
OCF_API ocf_status ocf_context_wrap(cl_context context, cl_device_id device, cl_command_queue queue,
                                    ocf_context **ctx);

/**
 * Waits for the context's default queue to finish (clFinish), writes the programs it built to the
 * on-disk program cache, and releases the context, its programs and its references to the
 * OpenCL objects. Accepts NULL. Must not run while another thread uses the context; events the
 * caller received stay the caller's to release.
 */
OCF_API void ocf_context_release(ocf_context *ctx);

/** Returns the context's OpenCL context (not retained: valid while ctx lives); NULL for NULL. */
OCF_API cl_context ocf_context_cl_context(const ocf_context *ctx);
/** Returns the context's OpenCL device (not retained: valid while ctx lives); NULL for NULL. */
OCF_API cl_device_id ocf_context_device(const ocf_context *ctx);
/** Returns the context's default queue (not retained: valid while ctx lives); NULL for NULL. The
    caller may enqueue its own work on it, and clFinish it to wait for the library's calls. */
OCF_API cl_command_queue ocf_context_queue(const ocf_context *ctx);
/** Copies the context's device description into *info (info->size must be set). Thread-safe. */
OCF_API ocf_status ocf_context_device_info(const ocf_context *ctx, ocf_device_info *info);

/* ---- Context configuration -------------------------------------------------------------- */

/*
 * A context reads its settings once, when it is created: from an ocf_context_config given to
 * ocf_context_create_ex() or ocf_context_wrap_ex(), else from the environment, else from the
 * built-in defaults. For each setting, in this order of precedence:
 *
 *   setting          config member        environment                   built-in default
 *   device           (spec argument)      OCLFUSE_DEVICE (spec NULL)    first GPU, else any
 *   tuning folder    tuning_dir           OCLFUSE_TUNING_DIR, else      none (no user database)
 *                                         $XDG_CACHE_HOME/oclfuse, else
 *                                         $HOME/.cache/oclfuse
 *   user database    user_tuning          OCLFUSE_TUNING_DB=0: off      on
 *   program cache    cache_dir            -                             programs/ in the tuning
 *                                                                       folder (none: cache off)
 *   cache policy     program_cache        OCLFUSE_CACHE (0, always)     OCF_PROGRAM_CACHE_ON
 *   verbosity        verbosity            OCLFUSE_VERBOSE (not 0: all)  quiet
 *   messages to      log, log_user        -                             stderr, "oclfuse: ..."
 *   workspace pool   workspace_pool       -                             on
 *
 * With config.ignore_environment set, no environment variable is read at all: a setting the
 * config leaves at its default takes the built-in default. Changing the environment after a
 * context was created does not change that context.
 */

/** How detailed a library message is (what ocf_context_config.verbosity lets through). */
typedef enum ocf_log_level {
  OCF_LOG_WARNING = 1, /**< something was ignored or fell back: a tuning database or a cached
                            binary that does not fit, a cache folder that cannot be written */
  OCF_LOG_INFO = 2,    /**< program builds (milliseconds, from disk or source), binaries stored,
                            where the tuning came from, warm-ups, probes of matrix units */
  OCF_LOG_DEBUG = 3    /**< one line for every call: its plan, as ocf_last_plan() gives it */
} ocf_log_level;

/** ocf_context_config.verbosity: the environment decides (OCLFUSE_VERBOSE set to anything but
    "" or "0" lets every level through, else none), or nothing with ignore_environment. */
#define OCF_VERBOSITY_ENV 0
/** ocf_context_config.verbosity: no message at all. */
#define OCF_VERBOSITY_QUIET (-1)

/**
 * Receives the library's messages for a context: `level`, and `message`, one line of text
 * without the "oclfuse: " prefix and without a newline, valid during the call only. It is called
 * from whichever thread makes the call that produced the message (a call on the context, its
 * creation or release), one call at a time per context: the library serializes the calls of one
 * context's callback. It must not call liboclfuse functions on the same context.
 */
typedef void (*ocf_log_fn)(void *user, ocf_log_level level, const char *message);

/** Three-way settings of ocf_context_config: the default (environment, then built-in), on, off. */
typedef enum ocf_switch {
  OCF_SWITCH_DEFAULT = 0, /**< the environment's choice, else the built-in default */
  OCF_SWITCH_ON = 1,      /**< on */
  OCF_SWITCH_OFF = 2      /**< off */
} ocf_switch;

/** When the on-disk program cache reads and writes binaries (ocf_context_config.program_cache). */
typedef enum ocf_program_cache {
  OCF_PROGRAM_CACHE_DEFAULT = 0, /**< OCLFUSE_CACHE decides ("0": OFF, "always": ALWAYS, else
                                      ON); ON with ignore_environment */
  OCF_PROGRAM_CACHE_OFF = 1,     /**< no binary is read or written */
  OCF_PROGRAM_CACHE_ON = 2,      /**< binaries are read; written at release on GPUs, and on CPU
                                      devices (where a binary costs a compile of every kernel)
                                      only by ocf_warmup() */
  OCF_PROGRAM_CACHE_ALWAYS = 3   /**< binaries are read, and written at every release */
} ocf_program_cache;

/**
 * Settings of a context, read by ocf_context_create_ex() and ocf_context_wrap_ex() during the call
 * only: strings are copied, so the caller may free them afterwards. Initialise with
 * OCF_CONTEXT_CONFIG_INIT (or ocf_context_config_init) and set what you need; members left at
 * their defaults (NULL, 0) take the environment's value, then the built-in one (see the table
 * above). A config whose size member is 0 or smaller than the first version's is
 * OCF_ERR_INVALID_STRUCT. A service that keeps its files and messages to itself:
 * @code
 *     ocf_context_config config = OCF_CONTEXT_CONFIG_INIT;
 *     config.ignore_environment = 1;
 *     config.tuning_dir = "/var/cache/myservice/oclfuse";
 *     config.verbosity = OCF_LOG_WARNING;
 *     config.log = my_log;          // void my_log(void *user, ocf_log_level, const char *)
 *     config.log_user = my_logger;
 *     status = ocf_context_create_ex("NVIDIA", &config, &ctx);
 * @endcode
 */
typedef struct ocf_context_config {
  size_t size; /**< sizeof(ocf_context_config): set by OCF_CONTEXT_CONFIG_INIT */
  /** Non-zero: read no environment variable (OCLFUSE_DEVICE for a NULL spec, the folders,
      OCLFUSE_TUNING_DB, OCLFUSE_CACHE, OCLFUSE_VERBOSE): defaults are the built-in ones. */
  int ignore_environment;
  /** The folder of the user tuning database (the file `oclfuse tune` writes, read at creation,
      named by ocf_tuning_database_path()); NULL: from the environment. It also holds the program
      cache (programs/ in it) unless cache_dir names another folder. */
  const char *tuning_dir;
  /** The folder of the on-disk program cache (its files directly in it, created on the first
      store); NULL: programs/ in the tuning folder. */
  const char *cache_dir;
  ocf_program_cache program_cache; /**< when binaries are read and written */
  ocf_switch user_tuning;          /**< whether the user tuning database is read */
  /** The most detailed ocf_log_level delivered, OCF_VERBOSITY_QUIET for none, or
      OCF_VERBOSITY_ENV (0). A log callback receives only what this lets through: set it (to
      OCF_LOG_WARNING, say) along with `log`. */
  int verbosity;
  ocf_log_fn log; /**< where messages go; NULL: stderr, one line each, "oclfuse: " first */
  void *log_user; /**< passed to `log` as its first argument */
  /** OCF_SWITCH_OFF: no workspace pool; a call of several kernels with no caller workspace
      creates its scratch buffer and releases it when its kernels finish (see ocf_launch). */
  ocf_switch workspace_pool;
} ocf_context_config;

/** An ocf_context_config with every default (the environment's, then the built-in ones). */
#define OCF_CONTEXT_CONFIG_INIT                                                               \
  {                                                                                           \
    sizeof(ocf_context_config), 0, NULL, NULL, OCF_PROGRAM_CACHE_DEFAULT, OCF_SWITCH_DEFAULT, \
        OCF_VERBOSITY_ENV, NULL, NULL, OCF_SWITCH_DEFAULT                                     \
  }
/** Zeroes *config and sets its size member; the same as OCF_CONTEXT_CONFIG_INIT. Accepts NULL. */
OCF_API void ocf_context_config_init(ocf_context_config *config);

/**
 * ocf_context_create() with settings: `config` NULL is OCF_CONTEXT_CONFIG_INIT (the environment's
 * settings, as ocf_context_create). The device comes from `spec` as in ocf_device_select(),
 * except that with config->ignore_environment a NULL or "" spec does not read OCLFUSE_DEVICE.
 * Messages of the creation itself (the device chosen, the tuning's origin, databases ignored) go
 * to the config's log callback. Out-of-range values in config are OCF_ERR_INVALID_VALUE; a
 * folder path longer than the library takes (4000 bytes) is OCF_ERR_INVALID_VALUE. Blocking;
 * thread-safe. *ctx is set only on success.
 */
OCF_API ocf_status ocf_context_create_ex(const char *spec, const ocf_context_config *config,
                                         ocf_context **ctx);

/** ocf_context_wrap() with settings (`config` as in ocf_context_create_ex; NULL: the
    environment's). *ctx is set only on success. */
OCF_API ocf_status ocf_context_wrap_ex(cl_context context, cl_device_id device,
                                       cl_command_queue queue, const ocf_context_config *config,
                                       ocf_context **ctx);

/**
 * Changes where the context's messages go and how detailed they are, for the calls that follow:
 * `verbosity` as in ocf_context_config (OCF_VERBOSITY_ENV: the level resolved at creation),
 * `log` NULL for stderr. Thread-safe: a message being delivered finishes first, and the old
 * callback is not called once this returns. The folders and the cache policy are fixed at
 * creation (programs already cached would not follow a new folder): create another context to
 * change them. OCF_ERR_INVALID_VALUE for a verbosity out of range.
 */
OCF_API ocf_status ocf_context_set_log(ocf_context *ctx, int verbosity, ocf_log_fn log,
                                       void *log_user);

/** Returns the context's tuning folder, resolved at creation ("" when it has none); the context
    owns the text, valid while it lives. */
OCF_API const char *ocf_context_tuning_dir(const ocf_context *ctx);
/** Returns the context's program cache folder, resolved at creation ("" when the cache is off or
    no folder could be named); the context owns the text, valid while it lives. */
OCF_API const char *ocf_context_cache_dir(const ocf_context *ctx);

/* ---- Tuning ------------------------------------------------------------------------------- */

/*
 * Every op has named tunables (workgroup sizes, vector widths, tile sets, kernel choices: the
 * list with ranges: `oclfuse tune --list`; the values in force: `oclfuse tune --show`),
 * per data type and per shape class (softmax: narrow, medium, wide, long, huge rows; matmul:
 * skinny, small_k, large_k, small, large; add: small, large). A context resolves them once, at
 * creation, from these sources, each overriding the ones before it:
 *   1. the built-in values for the device's vendor, type and name;
 *   2. the tuning databases shipped in the library for measured devices;
 *   3. the user's database for this device, driver and library version, written by
 *      `oclfuse tune`, in the tuning folder (ocf_context_config.tuning_dir, else
 *      $OCLFUSE_TUNING_DIR, else $XDG_CACHE_HOME/oclfuse, else ~/.cache/oclfuse)
 *      (a file that is corrupt, truncated, for another device or version is ignored;
 *      a warning message says why: OCLFUSE_VERBOSE=1 or ocf_context_config.verbosity);
 * then ocf_context_set_tuning's values override them for that context. Every source passes the
 * same validator. The caller's launch settings (ocf_launch.workgroup_size) come before all.
 */

/** Returns how many ops this library has (5 in this version: add, softmax, matmul, norm (both
    ocf_layernorm and ocf_rmsnorm) and attention; a later version may have more). Their names
    index the tuning calls, ocf_warmup and the tool. */
OCF_API size_t ocf_op_count(void);

/** Returns the name of op `index` ("add"; 0 <= index < ocf_op_count()), or NULL past the last;
    the library owns the text. */
OCF_API const char *ocf_op_name(size_t index);

/**
 * Sets tunables of `op` (a name of ocf_op_name: "add", "softmax", "matmul", "norm",
 * "attention") for data type `dtype` and shape class `shape_class` (NULL or "*": every class
 * of the op) on this context, from text
 * "name=value name=value ..."; tunables not named keep their values. Names are those of the
 * kernel families ("tiled.set0.kwg", "skinny.wg", "mma.on", "long_rows.items", "rows.seg_items")
 * or, as before them, the unqualified format-1 names ("set0.kwg", "sk_wg", "mma", "items",
 * "seg_items"), each of which still names exactly one tunable (docs/TUNING.md lists both);
 * ocf_context_get_tuning writes the family names. NULL or "" for `values`
 * restores the values the context resolved at creation. Values that break a tunable's range or
 * rule are OCF_ERR_INVALID_VALUE and change nothing. The text is read during the call only.
 * Thread-safe; calls already enqueued are not affected, later calls build the programs the new
 * values need. The tunables and classes: `oclfuse tune --list`; where the values come from:
 * docs/TUNING.md.
 */
OCF_API ocf_status ocf_context_set_tuning(ocf_context *ctx, const char *op, ocf_dtype dtype,
                                          const char *shape_class, const char *values);

/**
 * Writes the values in force for `op`, `dtype` and `shape_class` as "name=value ..." text into
 * the caller's `values` (`capacity` bytes, always terminated; OCF_ERR_BUFFER_TOO_SMALL when cut
 * short): every tunable, under its kernel family's name (matmul's take about 1300 bytes; 2048
 * hold any op's). shape_class NULL or "*" is allowed when every class of the op has the same
 * values. Thread-safe.
 */
OCF_API ocf_status ocf_context_get_tuning(ocf_context *ctx, const char *op, ocf_dtype dtype,
                                          const char *shape_class, char *values, size_t capacity);

/** Returns where the context's tuning came from, e.g. "built-in + shipped nvidia-h200.tuning +
    user /home/me/.cache/oclfuse/...tuning"; the context owns the text, valid while it lives. */
OCF_API const char *ocf_context_tuning_origin(const ocf_context *ctx);

/** Writes the path of the user tuning database for the context's device (whether or not it
    exists) into the caller's `path` (`capacity` bytes), in the context's tuning folder (resolved
    at creation: ocf_context_config.tuning_dir, else the environment). OCF_ERR_UNSUPPORTED when
    the context has no tuning folder (no HOME, or ignore_environment without tuning_dir) or the
    path does not fit. Touches no file. */
OCF_API ocf_status ocf_tuning_database_path(const ocf_context *ctx, char *path, size_t capacity);

/**
 * Builds, or loads from the on-disk program cache, every program `op` (a name of ocf_op_name:
 * "add", "softmax", "matmul", "norm", "attention"; NULL: every op) will need on this device
 * with its tuning in force, and runs each kernel once on no work, so that a service pays the
 * compile cost at start-up rather than in its first calls. Writes the number of distinct kernel
 * plans prepared to *plans (may be NULL).
 * Blocking: it runs the kernels on the context's default queue and waits for that queue
 * (clFinish), so it also waits for work enqueued there before. Safe to call from several
 * threads. The disk cache (programs/ under the tuning folder above, or
 * ocf_context_config.cache_dir) keeps the binaries for the next process; OCLFUSE_CACHE=0 or
 * OCF_PROGRAM_CACHE_OFF turns it off.
 */
OCF_API ocf_status ocf_warmup(ocf_context *ctx, const char *op, size_t *plans);

/* ---- Launch settings ---------------------------------------------------------------------- */

/**
 * Optional settings of a device-buffer call; pass NULL for all defaults. Initialise with
 * OCF_LAUNCH_INIT (or ocf_launch_init) and set what you need:
 * @code
 *     ocf_launch launch = OCF_LAUNCH_INIT;
 *     launch.event = &done;
 * @endcode
 * A launch whose size member is 0 or smaller than the first version's is OCF_ERR_INVALID_STRUCT.
 * The library reads the struct during the call only.
 */
typedef struct ocf_launch {
  size_t size; /**< sizeof(ocf_launch): set by OCF_LAUNCH_INIT */
  /** Work-items per workgroup, 0 for the tuned default. For matmul it must be a power of two;
      the work-items are laid out as a near-square 2-D workgroup over one output tile. A size the
      device or the kernel cannot run is OCF_ERR_INVALID_WORKGROUP. */
  size_t workgroup_size;
  cl_command_queue queue;  /**< NULL: the context's queue. Must belong to the context's device. */
  cl_uint num_wait_events; /**< the number of events in wait_events */
  /** The call's commands start after these (not released). Each must be an event of the
      context's OpenCL context: NULL is OCF_ERR_NULL_ARGUMENT, one of another context
      OCF_ERR_CONTEXT_MISMATCH (checked with clGetEventInfo before anything is enqueued). */
  const cl_event *wait_events;
  /** If not NULL, receives an event that completes when every kernel of the call has (the
      call's last kernel: a call of several kernels orders them on the queue); the caller owns
      it and releases it with clReleaseEvent. A call with no work gives a marker event after the
      wait list. On failure it is not written. */
  cl_event *event;
  int variant; /**< 0 (OCF_VARIANT_AUTO). Tests and benchmarks only: see ocf_variant. */
  /** If not NULL, receives an event for the call's first kernel (for a one-kernel call, the same
      kernel as `event`, retained separately): its CL_PROFILING_COMMAND_START and `event`'s
      CL_PROFILING_COMMAND_END bound the whole call, so a caller can time a call of several
      kernels. Needs `event` too; release it with clReleaseEvent. With no work, it is NULL.
      Should the runtime fail to retain the one-kernel call's event for it (after the kernel is
      queued), the call returns OCF_ERR_ENQUEUED_WITHOUT_EVENT: neither event is set and the
      kernel will still write the output (wait for the queue before reading it). */
  cl_event *first_event;
  /** The caller's workspace for the call's scratch memory, instead of the context's pool (see
      "Workspaces" below): `workspace_size` bytes from byte `workspace_offset` of this buffer of
      the context's OpenCL context, not overlapping an operand of the call (OCF_ERR_ALIASING).
      NULL: none (offset and size must then be 0). Its size bounds the call's plan: a plan
      needing more takes fewer ranges of its split, or none. Calls whose plan needs no scratch
      (every ocf_add, most softmax and matmul calls) check it and leave it alone. */
  cl_mem workspace;
  /** In bytes; 0 or a multiple of the device's CL_DEVICE_MEM_BASE_ADDR_ALIGN (given in bits:
      128 bytes on many GPUs), as the call hands its kernels a sub-buffer from there. */
  size_t workspace_offset;
  size_t workspace_size; /**< bytes lent from workspace_offset */
} ocf_launch;

/** An ocf_launch with every default and its size member set, for initialising one. */
#define OCF_LAUNCH_INIT \
  { sizeof(ocf_launch), 0, NULL, 0, NULL, NULL, 0, NULL, NULL, 0, 0 }
/** Zeroes *launch and sets its size member; the same as OCF_LAUNCH_INIT. Accepts NULL. */
OCF_API void ocf_launch_init(ocf_launch *launch);

/* ---- add ---------------------------------------------------------------------------------- */

/**
 * out[out_offset + i] = x[x_offset + i] + y[y_offset + i] for i < n (offsets in elements, fp32).
 * In-place is allowed (out is x or y at the same offset); any other overlap of out with an input
 * is OCF_ERR_ALIASING. n = 0 succeeds and enqueues nothing (but a marker when launch->event is
 * asked for). Asynchronous: enqueues one kernel on the launch's queue and returns; out holds the
 * sums once launch->event has completed. Exact: fp32 addition is correctly rounded.
 */
OCF_API ocf_status ocf_add(ocf_context *ctx, size_t n, cl_mem x, size_t x_offset, cl_mem y,
                           size_t y_offset, cl_mem out, size_t out_offset,
                           const ocf_launch *launch);

/** Host-array form of ocf_add: copies x and y to temporary device buffers, runs on the context's
    queue and copies out back before returning (so it also waits for earlier work on that
    queue). out may equal x or y; the arrays are the caller's and not kept. */
OCF_API ocf_status ocf_add_host(ocf_context *ctx, size_t n, const float *x, const float *y,
                                float *out);

/* ---- softmax ------------------------------------------------------------------------------ */

/**
 * Row softmax of a rows x cols fp32 matrix whose row r starts at element in_offset + r * in_ld;
 * row r of the result goes to out_offset + r * out_ld (offsets and strides in elements, a stride
 * at least cols). Elements between the rows of out (a stride beyond cols) are not written.
 * out may be in at the same offset and stride (in place), or share in's buffer without sharing an
 * element: rows of one stride may interleave (in in columns 0..7 and out in columns 8..15 of a
 * matrix 16 wide: in_offset 0, out_offset 8, both strides 16). An out that shares an element with
 * in otherwise is OCF_ERR_ALIASING; with two strides (or element sizes), any meeting of the spans
 * from first to last element counts as sharing.
 * Asynchronous: enqueues one to three kernels on the launch's queue and returns; out holds the
 * result once launch->event has completed. rows or cols 0 succeeds and enqueues nothing.
 *
 * Non-finite inputs behave as torch.softmax does:
 *   - a -inf entry gives 0 (exp(-inf - max) = 0) and does not disturb the rest of the row;
 *   - a row of only -inf gives NaN everywhere (the max is -inf and -inf - -inf is NaN);
 *   - a +inf entry makes the whole row NaN (the max is +inf, inf - inf is NaN, and the NaN
 *     reaches every entry through the row sum);
 *   - any NaN in a row makes the whole row NaN.
 * Large magnitudes do not overflow: the row max is subtracted before exp.
 */
OCF_API ocf_status ocf_softmax(ocf_context *ctx, size_t rows, size_t cols, cl_mem in,
                               size_t in_offset, size_t in_ld, cl_mem out, size_t out_offset,
                               size_t out_ld, const ocf_launch *launch);

/**
 * Options of ocf_softmax_ex. Initialise with OCF_SOFTMAX_OPTIONS_INIT.
 * Each row r takes part over its first len_r columns (its kept length), the smallest of:
 *   - cols;
 *   - lengths[lengths_offset + r], when lengths is given (a length above cols counts as cols);
 *   - (r mod causal_period) + causal_offset + 1, when causal is set.
 * The causal band is PyTorch's is_causal (a lower triangle with its diagonal, aligned at the top
 * left) for a block of queries that starts at key position causal_offset: row r is query
 * q = r mod causal_period of its head, at absolute position q + causal_offset, and sees the keys
 * 0 .. q + causal_offset. For a [heads * nq, nk] score matrix of nq queries per head, set
 * causal_period = nq (one head: causal_period = rows); causal_offset = nk - nq aligns the last
 * query with the last key (a decoding step, or a query block at the end of the keys), and
 * causal_offset = 0 is square causal attention; a row whose band reaches cols keeps every column.
 * With lengths and causal both, the kept length is the smaller of the two (a padded batch of
 * causal rows).
 * With m the max of x over the kept columns and t = scale * (x - m) (no finite input overflows):
 *     softmax      out = exp(t) / sum exp(t)          log-softmax   out = t - log(sum exp(t))
 * over the kept columns; the columns at or past len_r are written as 0 (-inf for log-softmax)
 * whatever they hold, and are never read. A row of kept length 0 (lengths[r] = 0) is all 0 (all
 * -inf). The non-finite rules of ocf_softmax hold over the kept columns, for both: a NaN or +inf
 * there, or all of them -inf, make those columns NaN; a -inf entry gives 0 (-inf).
 * log-softmax keeps its precision for rows far from zero (it never takes the log of a rounded
 * exp). The mask is computed on the device, in the same pass as the softmax: the call never reads
 * device data on the host, and returns at once whatever its wait list holds (an unset user event
 * included); the lengths are read by the kernels, after the wait list. Refused before anything
 * is enqueued, out untouched: a scale that is not finite and > 0 or a data type out of range
 * (OCF_ERR_INVALID_VALUE), a lengths_offset without lengths (OCF_ERR_NULL_ARGUMENT), a lengths
 * buffer shorter than lengths_offset + rows (OCF_ERR_BUFFER_TOO_SMALL), of another context
 * (OCF_ERR_CONTEXT_MISMATCH) or overlapping out (OCF_ERR_ALIASING); causal with causal_period 0,
 * or with causal_period + causal_offset beyond SIZE_MAX, or a causal_period or causal_offset
 * other than 0 without causal (OCF_ERR_INVALID_VALUE).
 * Growing struct: a caller built against an older header (size up to lengths_offset) gets no
 * causal band.
 */
typedef struct ocf_softmax_options {
  size_t size;         /**< sizeof(ocf_softmax_options): set by OCF_SOFTMAX_OPTIONS_INIT */
  ocf_dtype in_dtype;  /**< storage type of `in` (offsets and strides count its elements) */
  ocf_dtype out_dtype; /**< storage type of `out`; in place needs the same element size */
  float scale;         /**< softmax(scale * x) (a temperature); finite and > 0; 1 by default */
  int log;             /**< non-zero: log-softmax */
  /** Optional per-row valid lengths: lengths[lengths_offset + r] (cl_uint; above cols counts as
      cols) is how many leading columns of row r take part. NULL: every row has all cols. */
  cl_mem lengths;
  size_t lengths_offset; /**< in cl_uint elements */
  int causal;            /**< non-zero: the causal band (no buffer), see above; 0 by default */
  size_t causal_period;  /**< with causal: rows per head (queries per head), at least 1 */
  size_t causal_offset;  /**< with causal: key position of each head's first query (row) */
} ocf_softmax_options;

/** An ocf_softmax_options with every default (fp32, scale 1, softmax, full rows, no band). */
#define OCF_SOFTMAX_OPTIONS_INIT \
  { sizeof(ocf_softmax_options), OCF_F32, OCF_F32, 1.0f, 0, NULL, 0, 0, 0, 0 }

/** ocf_softmax with options (NULL: OCF_SOFTMAX_OPTIONS_INIT), read during the call only. */
OCF_API ocf_status ocf_softmax_ex(ocf_context *ctx, size_t rows, size_t cols, cl_mem in,
                                  size_t in_offset, size_t in_ld, cl_mem out, size_t out_offset,
                                  size_t out_ld, const ocf_softmax_options *options,
                                  const ocf_launch *launch);

/** Host-array form of ocf_softmax: copies in to a temporary device buffer, runs on the context's
    queue and copies the rows of out back before returning (elements between rows keep their
    values). out and in follow ocf_softmax's rule (in place with out_ld == in_ld, or no element
    shared); the arrays are not kept. */
OCF_API ocf_status ocf_softmax_host(ocf_context *ctx, size_t rows, size_t cols, const float *in,
                                    size_t in_ld, float *out, size_t out_ld);

/**
 * Host-array form of ocf_softmax_ex: every option of `options` (NULL: OCF_SOFTMAX_OPTIONS_INIT)
 * means what it means there, with host arrays in place of the buffers. `in` holds rows x cols
 * elements of options->in_dtype with row stride in_ld, `out` the same of options->out_dtype with
 * out_ld (fp32 as float, fp16 as cl_half bits, bf16 as cl_ushort bits: see ocf_float_to_half and
 * friends); strides and offsets in elements. The valid lengths come as the host array `lengths`
 * (cl_uint, read at lengths[options->lengths_offset + r] for each row r; NULL: full rows), and
 * options->lengths, a cl_mem, must be NULL (OCF_ERR_INVALID_VALUE otherwise). out and in follow
 * ocf_softmax's rule: in place (same address and stride; same element size) or no element
 * shared, interleaved rows allowed; elements between out's rows keep their values.
 * Synchronous: copies the spans of in, out (when it has gaps) and the lengths to temporary
 * device buffers, runs ocf_softmax_ex on the context's queue and copies out's span back once
 * that call's event has completed (right on an out-of-order queue too). Every bad argument
 * (those of ocf_softmax_ex, NULL arrays) is refused before anything is enqueued; a length above
 * cols counts as cols, as in ocf_softmax_ex; out untouched. Thread-safe like every call on a
 * context; the arrays are not kept.
 */
OCF_API ocf_status ocf_softmax_host_ex(ocf_context *ctx, size_t rows, size_t cols, const void *in,
                                       size_t in_ld, void *out, size_t out_ld,
                                       const cl_uint *lengths, const ocf_softmax_options *options);

/* ---- LayerNorm and RMSNorm ---------------------------------------------------------------- */

/**
 * Options of ocf_layernorm and ocf_rmsnorm. Initialise with OCF_NORM_OPTIONS_INIT.
 *
 * Each row r of the rows x cols input is normalized over its cols elements, in fp32 arithmetic
 * whatever the storage types. With x the row (after the residual add, below):
 *
 *     LayerNorm  y = (x - mean) * rstd * weight + bias,  rstd = 1 / sqrt(var + eps)
 *     RMSNorm    y = x * rstd * weight,                  rstd = 1 / sqrt(mean(x^2) + eps)
 *
 * var is the population variance (divided by cols), as torch.nn.functional.layer_norm has it.
 * The mean and variance are exact two-pass statistics, shifted by the row's first element, so
 * rows far from zero (1e4 + noise) keep their precision (docs/NORM.md). Their sums follow the
 * kernel's vectors, and a row that starts inside a vector is summed in another order than the
 * same row on a vector's start: the same data at another offset or row stride may differ in
 * the last bits (within the error bound docs/NORM.md argues), as may another device or plan.
 *
 * Residual (the pre-norm block's update): with `residual` set, x = round(in + residual) to
 * residual_dtype (the sum in fp32, then stored as that type would store it) is what is
 * normalized, and with `residual_out` set it is also written there (residual_out_offset +
 * r * residual_out_ld, in residual_dtype). residual_out may be exactly residual (same buffer,
 * offset and stride: the update in place) or share no element with any operand.
 *
 * Statistics for a backward pass: `mean` (LayerNorm only) and `rstd` receive one float per row,
 * at mean_offset + r and rstd_offset + r, as the kernels used them (fp32 buffers).
 *
 * Non-finite values: a NaN or an infinity anywhere in a row (of x after the residual add) makes
 * every output of that row NaN (y and its statistics; the written x' keeps its values); other
 * rows are unaffected. A row whose sum, variance or mean square overflows fp32 (magnitudes near
 * 1.8e19 and up) comes out NaN too. eps must be finite and >= 0; with eps = 0 a row of variance
 * 0 (RMSNorm: a row of zeros) gives NaN (0 * inf), as PyTorch does; with eps > 0 a constant row
 * gives y = bias.
 *
 * Refused before anything is enqueued, every output untouched: a data type out of range or eps
 * not finite and >= 0 (OCF_ERR_INVALID_VALUE); an offset or stride given for an absent buffer
 * (OCF_ERR_NULL_ARGUMENT, as softmax's lengths_offset); a bias or mean for ocf_rmsnorm
 * (OCF_ERR_INVALID_VALUE); residual_out without residual (OCF_ERR_NULL_ARGUMENT); any buffer too
 * small for its offset plus extent (weight and bias: cols elements; mean and rstd: rows floats) or
 * of another context; strides shorter than cols; overlaps other than out exactly in place of in and
 * residual_out exactly in place of residual (OCF_ERR_ALIASING); a launch workspace meeting any
 * operand. Growing struct.
 */
typedef struct ocf_norm_options {
  size_t size;                /**< sizeof(ocf_norm_options): set by OCF_NORM_OPTIONS_INIT */
  ocf_dtype in_dtype;         /**< storage type of `in` (offsets and strides count its elements) */
  ocf_dtype out_dtype;        /**< storage type of `out`; in place needs the same element size */
  float eps;                  /**< added to the variance (mean square); finite and >= 0; 1e-5 */
  cl_mem weight;              /**< gamma, cols elements of weight_dtype; NULL: 1 */
  size_t weight_offset;       /**< in elements (0 without weight) */
  cl_mem bias;                /**< beta (LayerNorm only), cols elements of weight_dtype; NULL: 0 */
  size_t bias_offset;         /**< in elements (0 without bias) */
  ocf_dtype weight_dtype;     /**< storage type of weight and bias */
  cl_mem residual;            /**< added to `in` before normalizing; NULL: none */
  size_t residual_offset;     /**< in elements of residual_dtype */
  size_t residual_ld;         /**< row stride of residual, at least cols (0 without residual) */
  ocf_dtype residual_dtype;   /**< storage type of residual and residual_out */
  cl_mem residual_out;        /**< receives x = in + residual; NULL: not written */
  size_t residual_out_offset; /**< in elements of residual_dtype */
  size_t residual_out_ld;     /**< row stride of residual_out (0 without residual_out) */
  cl_mem mean;                /**< LayerNorm: receives each row's mean (float); NULL: not written */
  size_t mean_offset;         /**< in floats */
  cl_mem rstd;                /**< receives each row's rstd (float); NULL: not written */
  size_t rstd_offset;         /**< in floats */
} ocf_norm_options;

/** An ocf_norm_options with every default (fp32, eps 1e-5, no weight, bias, residual or
    statistics). */
#define OCF_NORM_OPTIONS_INIT                                                                 \
  {                                                                                           \
    sizeof(ocf_norm_options), OCF_F32, OCF_F32, 1e-5f, NULL, 0, NULL, 0, OCF_F32, NULL, 0, 0, \
        OCF_F32, NULL, 0, 0, NULL, 0, NULL, 0                                                 \
  }

/**
 * LayerNorm of each row of a rows x cols matrix (see ocf_norm_options for the formula and every
 * option; NULL options: OCF_NORM_OPTIONS_INIT): row r of `in` starts at element
 * in_offset + r * in_ld, row r of `out` at out_offset + r * out_ld (elements of the options'
 * types; strides at least cols). out may be in exactly (same buffer, offset and stride: in
 * place) or share no element with it. Elements between rows are not written. rows or cols 0
 * succeeds and enqueues nothing. Asynchronous: enqueues one to three kernels on the launch's
 * queue and returns; the outputs are there once launch->event has completed. Thread-safe like
 * every call on a context.
 */
OCF_API ocf_status ocf_layernorm(ocf_context *ctx, size_t rows, size_t cols, cl_mem in,
                                 size_t in_offset, size_t in_ld, cl_mem out, size_t out_offset,
                                 size_t out_ld, const ocf_norm_options *options,
                                 const ocf_launch *launch);

/** RMSNorm of each row, y = x / sqrt(mean(x^2) + eps) * weight: as ocf_layernorm in every other
    respect (options->bias and options->mean must be NULL). */
OCF_API ocf_status ocf_rmsnorm(ocf_context *ctx, size_t rows, size_t cols, cl_mem in,
                               size_t in_offset, size_t in_ld, cl_mem out, size_t out_offset,
                               size_t out_ld, const ocf_norm_options *options,
                               const ocf_launch *launch);

/**
 * Host-array form of ocf_layernorm: every option means what it means there, with host arrays in
 * place of the buffers, each starting at its array's first element plus the options' offset.
 * The options' cl_mem members must be NULL (OCF_ERR_INVALID_VALUE otherwise); the arrays come as
 * arguments: weight and bias (weight_dtype), residual and residual_out (residual_dtype, strides
 * residual_ld and residual_out_ld; residual_out may be residual itself, same stride), mean and
 * rstd (float), each NULL when not used. Elements are fp32 as float, fp16 as cl_half bits, bf16
 * as cl_ushort bits. in and out: in place (same array and stride) or no element shared; every
 * output shares no byte with any other array but residual_out with residual in place.
 * Synchronous: copies the spans to temporary device buffers, runs the device call on the
 * context's queue and copies the outputs back once its event has completed; elements between
 * rows keep their values. Every bad argument is refused before anything is enqueued, the
 * outputs untouched. The arrays are not kept.
 */
OCF_API ocf_status ocf_layernorm_host(ocf_context *ctx, size_t rows, size_t cols, const void *in,
                                      size_t in_ld, void *out, size_t out_ld, const void *weight,
                                      const void *bias, const void *residual, void *residual_out,
                                      float *mean, float *rstd, const ocf_norm_options *options);

/** Host-array form of ocf_rmsnorm, as ocf_layernorm_host without bias and mean. */
OCF_API ocf_status ocf_rmsnorm_host(ocf_context *ctx, size_t rows, size_t cols, const void *in,
                                    size_t in_ld, void *out, size_t out_ld, const void *weight,
                                    const void *residual, void *residual_out, float *rstd,
                                    const ocf_norm_options *options);

/**
 * Writes to *bytes the workspace (ocf_launch.workspace_size) that ocf_layernorm (rms = 0) or
 * ocf_rmsnorm (rms != 0) with the same arguments would use given at least as much (a smaller one
 * bounds the plan: see Workspaces): 0 when its plan needs none (the split of long rows needs
 * one). The arguments are checked as the call checks them where they
 * concern sizes and values; the options' buffers are not queried (only whether each is set).
 * Builds the plan's programs as the first such call would. Blocking; thread-safe.
 */
OCF_API ocf_status ocf_norm_workspace_size(ocf_context *ctx, int rms, size_t rows, size_t cols,
                                           size_t in_offset, size_t in_ld, size_t out_offset,
                                           size_t out_ld, const ocf_norm_options *options,
                                           const ocf_launch *launch, size_t *bytes);

/* ---- matmul (GEMM) ------------------------------------------------------------------------ */

/** Whether matmul reads an operand as stored (op(X) = X) or transposed (op(X) = X^T). */
typedef enum ocf_transpose { OCF_NO_TRANS = 0, OCF_TRANS = 1 } ocf_transpose;

/**
 * C = alpha * op(A) * op(B) + beta * C, row-major fp32, C is m x n, op(A) is m x k, op(B) is
 * k x n. A is stored m x k (lda >= k) or, transposed, k x m (lda >= m); likewise B is k x n
 * (ldb >= n) or n x k (ldb >= k); ldc >= n. Offsets and leading dimensions are in elements.
 * k = 0 gives beta * C; beta = 0 overwrites C without reading it (NaNs in C do not propagate),
 * as BLAS does. C must not overlap A or B (OCF_ERR_ALIASING). m or n 0 succeeds and enqueues
 * nothing. Asynchronous: enqueues one kernel on the launch's queue and returns; C holds the
 * result once launch->event has completed. Each element is one dot product summed in order of
 * p = 0 .. k-1 in fp32.
 */
OCF_API ocf_status ocf_matmul(ocf_context *ctx, ocf_transpose trans_a, ocf_transpose trans_b,
                              size_t m, size_t n, size_t k, float alpha, cl_mem a, size_t a_offset,
                              size_t lda, cl_mem b, size_t b_offset, size_t ldb, float beta,
                              cl_mem c, size_t c_offset, size_t ldc, const ocf_launch *launch);

/** How fp32 inputs are multiplied. FP32 is exact-product SIMT arithmetic (the reference).
    TF32 truncates A and B to TF32 (toward zero: the low 13 mantissa bits dropped, 10 kept, as
    Hopper's wgmma and cuBLAS's TF32 GEMM read fp32 data; an infinity stays one, a NaN a NaN)
    and accumulates in fp32: elementwise error within about
    (2^-9 + (k + 2) 2^-23) |alpha| |A||B|. 3XTF32 splits each input x into big = tf32(x),
    rounded to nearest (ties away from zero, as PTX cvt.rna.tf32.f32), and
    small = tf32(x - big) and adds big_a big_b + small_a big_b + big_a small_b: fp32-class
    accuracy for finite inputs (an infinite input gives NaN, inf * 0 in the small products).
    Devices with matrix units run TF32 and 3XTF32 on them, others with the same arithmetic on
    SIMT (on NVIDIA compute capability 9.0, 16-bit calls, and TF32 calls with B transposed,
    with A not transposed and the rows, offsets and batch strides of A and B aligned to 16
    bytes take the warpgroup units, wgmma, after a probe on the context; the same truncation,
    epilogue and error bound, with one exception: there the matrix unit itself truncates, and
    reads a NaN whose payload lies only in the dropped bits, 0x7f800001..0x7f801fff or
    0xff800001..0xff801fff, as an infinity of its sign). Where the matmul tunable
    wgmma.stage_min is set (0, off, by default: see docs/GEMM.md), 3XTF32 calls and the
    other TF32 calls (B stored k x n, A transposed or off 16 bytes) of at least stage_min^3
    products (m n k batch) take wgmma through a staging kernel that first writes the operands as
    K-major TF32 values into scratch memory (3XTF32: A as [small, big, big] and B as
    [big, small, big] along K, one TF32 product over 3k): the same arithmetic, error bound and
    NaNs as the other kernels (but for a TF32 A read as it lies, which keeps the exception),
    and scratch of (m + n) k' 4 bytes a product (k' = k or 3k, rounded up to 4; only B's
    n k' 4 for TF32 with A as it lies), at most an eighth of the device's memory: from the
    context's pool or the launch's workspace (see ocf_matmul_workspace_size); a workspace too
    small for it (see Workspaces), or scratch the device cannot allocate, runs the call on the
    next kernel instead (no error). fp16 and bf16 inputs are exact in TF32, so the modes
    change nothing for them. */
typedef enum ocf_precision {
  OCF_PRECISION_FP32 = 0,
  OCF_PRECISION_TF32 = 1,
  OCF_PRECISION_3XTF32 = 2
} ocf_precision;

/** The activation of a fused epilogue, applied to alpha * op(A) op(B) + beta * C + bias. */
typedef enum ocf_activation {
  OCF_ACTIVATION_NONE = 0,      /**< none */
  OCF_ACTIVATION_RELU = 1,      /**< max(x, 0) */
  OCF_ACTIVATION_GELU_ERF = 2,  /**< x / 2 * (1 + erf(x / sqrt(2))) */
  OCF_ACTIVATION_GELU_TANH = 3, /**< x / 2 * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 x^3))) */
  OCF_ACTIVATION_SILU = 4       /**< x / (1 + exp(-x)) */
} ocf_activation;

/** Which way a bias vector runs: one value per column of C (n values) or per row (m values). */
typedef enum ocf_bias_axis { OCF_BIAS_NONE = 0, OCF_BIAS_N = 1, OCF_BIAS_M = 2 } ocf_bias_axis;

/** The storage order of A, B and C. COL_MAJOR is BLAS's: element (i, j) of a matrix with leading
    dimension ld is at i + j * ld, and lda, ldb, ldc are column strides. */
typedef enum ocf_layout { OCF_ROW_MAJOR = 0, OCF_COL_MAJOR = 1 } ocf_layout;

/** Options of ocf_matmul_ex. Initialise with OCF_MATMUL_OPTIONS_INIT. */
typedef struct ocf_matmul_options {
  size_t size; /**< sizeof(ocf_matmul_options): set by OCF_MATMUL_OPTIONS_INIT */
  /** Storage types of A, B and C (offsets and strides count elements): any mix of fp32, fp16
      and bf16; arithmetic is fp32, and a 16-bit C is rounded to nearest even. @{ */
  ocf_dtype a_dtype;
  ocf_dtype b_dtype;
  ocf_dtype c_dtype;
  /** @} */
  ocf_precision precision; /**< for fp32 A and B; products of 16-bit inputs are exact in fp32 */
  /** COL_MAJOR runs the row-major product C^T = op(B)^T op(A)^T on the same memory: every
      shape, stride and batch rule below then reads "column" for "row". */
  ocf_layout layout;
  /** Strided batch: `batch` independent products (0 or 1: one) in one launch, matrix i of A at
      a_offset + i * stride_a (likewise B and C), strides in elements; stride_a or stride_b 0
      shares one matrix across the batch. Each operand's whole batch, (batch - 1) * stride plus
      one matrix's extent, must fit its buffer (OCF_ERR_SIZE_OVERFLOW when it overflows size_t,
      OCF_ERR_BUFFER_TOO_SMALL when it does not fit). The span of the C's must not overlap the
      span of the A's, the B's or the bias (OCF_ERR_ALIASING), and no element may belong to two
      C's of the batch: interleaved C's (stride_c = n with ldc = batch * n) are fine,
      stride_c = 0 with batch > 1 is OCF_ERR_ALIASING. */
  size_t batch;
  /** Elements from one matrix of a batch to the next, in A, B and C. @{ */
  size_t stride_a, stride_b, stride_c;
  /** @} */
  /** Fused epilogue: C = act(alpha * op(A) op(B) + beta * C + bias), in registers before the
      one store. The bias is bias[bias_offset + j] (OCF_BIAS_N) or [bias_offset + i]
      (OCF_BIAS_M), of type bias_dtype, shared by every product of a batch; the buffer must hold
      bias_offset + n (or m) elements. A bias_axis without a bias is OCF_ERR_NULL_ARGUMENT, a
      bias without an axis OCF_ERR_INVALID_VALUE. With alpha 0 or k 0, C = act(beta * C + bias)
      and A and B are not read. */
  ocf_activation activation;
  ocf_bias_axis bias_axis; /**< whether there is a bias, and which way it runs */
  cl_mem bias;             /**< the bias vector (NULL with OCF_BIAS_NONE) */
  size_t bias_offset;      /**< in elements of bias_dtype */
  ocf_dtype bias_dtype;    /**< storage type of the bias */
} ocf_matmul_options;

/** An ocf_matmul_options with every default (fp32, FP32 precision, row-major, one product, no
    epilogue). */
#define OCF_MATMUL_OPTIONS_INIT                                                                  \
  {                                                                                              \
    sizeof(ocf_matmul_options), OCF_F32, OCF_F32, OCF_F32, OCF_PRECISION_FP32, OCF_ROW_MAJOR, 1, \
        0, 0, 0, OCF_ACTIVATION_NONE, OCF_BIAS_NONE, NULL, 0, OCF_F32                            \
  }

/** ocf_matmul with options (NULL: OCF_MATMUL_OPTIONS_INIT), read during the call only. */
OCF_API ocf_status ocf_matmul_ex(ocf_context *ctx, ocf_transpose trans_a, ocf_transpose trans_b,
                                 size_t m, size_t n, size_t k, float alpha, cl_mem a,
                                 size_t a_offset, size_t lda, cl_mem b, size_t b_offset, size_t ldb,
                                 float beta, cl_mem c, size_t c_offset, size_t ldc,
                                 const ocf_matmul_options *options, const ocf_launch *launch);

/** Host-array form of ocf_matmul: copies A, B (and C when beta != 0) to temporary device
    buffers, runs on the context's queue and copies the m x n results back into c before
    returning (elements between its rows keep their values). The arrays are not kept. */
OCF_API ocf_status ocf_matmul_host(ocf_context *ctx, ocf_transpose trans_a, ocf_transpose trans_b,
                                   size_t m, size_t n, size_t k, float alpha, const float *a,
                                   size_t lda, const float *b, size_t ldb, float beta, float *c,
                                   size_t ldc);

/**
 * Host-array form of ocf_matmul_ex: every option of `options` (NULL: OCF_MATMUL_OPTIONS_INIT:
 * data types, precision, layout, strided batch, epilogue) means what it means there, with host
 * arrays in place of the buffers and each operand starting at its array's first element. A, B
 * and C hold elements of a_dtype, b_dtype and c_dtype (fp32 as float, fp16 as cl_half bits,
 * bf16 as cl_ushort bits: see ocf_float_to_half and friends); a batch's matrices lie stride_a
 * (stride_b, stride_c) elements apart in one array. The bias comes as the host array `bias`, of
 * bias_dtype, read at bias[options->bias_offset + j] (or + i, by bias_axis); options->bias, a
 * cl_mem, must be NULL (OCF_ERR_INVALID_VALUE otherwise); a bias_axis without `bias` is
 * OCF_ERR_NULL_ARGUMENT, a `bias` without an axis OCF_ERR_INVALID_VALUE. C's span (the batch's
 * first to last element) must not overlap A's, B's or the bias's (OCF_ERR_ALIASING).
 * Synchronous: copies the spans of A, B, C and the bias to temporary device buffers, runs
 * ocf_matmul_ex on the context's queue and copies C's span back once that call's event has
 * completed (right on an out-of-order queue too); elements between C's rows and matrices keep
 * their values (they go to the device and come back unchanged). Every bad argument is refused
 * before anything is enqueued, c untouched. Thread-safe like every call on a context; the arrays
 * are not kept.
 */
OCF_API ocf_status ocf_matmul_host_ex(ocf_context *ctx, ocf_transpose trans_a,
                                      ocf_transpose trans_b, size_t m, size_t n, size_t k,
                                      float alpha, const void *a, size_t lda, const void *b,
                                      size_t ldb, float beta, void *c, size_t ldc, const void *bias,
                                      const ocf_matmul_options *options);

/* ---- attention ---------------------------------------------------------------------------- */

/**
 * Options of ocf_attention. Initialise with OCF_ATTENTION_OPTIONS_INIT.
 *
 * The mask: key j of a (batch, head) takes part in query row i's softmax when
 *   - j < len_b, the batch's valid key length: min(lk, lengths[lengths_offset + batch]) when
 *     lengths is given (a length above lk counts as lk), else lk; and
 *   - with causal: j <= i + causal_offset, where causal_offset is lk - lq unless
 *     causal_offset_set is non-zero (then the signed causal_offset given). The default is
 *     FlashAttention's bottom-right alignment: the last query row sees every key, and with
 *     lq == lk it is the usual lower triangle with its diagonal. The offset comes from the call's
 *     lk, not from the lengths: a padded batch that wants its causal band aligned to each
 *     sequence's own end runs one call per sequence.
 *
 * Rules, as ocf_softmax's over the kept keys: a query row that keeps no key (len_b 0, or causal
 * with i + causal_offset < 0) gives out = 0 and lse = -inf; a NaN score (a NaN in q's row or in
 * a kept key's k row, or inf * 0) makes that row's out and lse NaN, and so does a +inf score or
 * a row whose kept scores are all -inf. A NaN or infinity in a kept key's v row reaches every
 * row that keeps that key.
 *
 * Refused before anything is enqueued: a data type out of range or a scale that is not finite
 * (OCF_ERR_INVALID_VALUE), a lengths_offset without lengths or an lse_offset without
 * lse (OCF_ERR_NULL_ARGUMENT), a lengths buffer shorter than lengths_offset + b or an lse buffer
 * shorter than lse_offset + b * h * lq floats (OCF_ERR_BUFFER_TOO_SMALL), either of another
 * context (OCF_ERR_CONTEXT_MISMATCH), an lse overlapping q, k, v, out or the lengths, or out
 * overlapping the lengths (OCF_ERR_ALIASING), causal_offset_set or causal_offset without causal
 * (OCF_ERR_INVALID_VALUE).
 */
typedef struct ocf_attention_options {
  size_t size; /**< sizeof(ocf_attention_options): set by OCF_ATTENTION_OPTIONS_INIT */
  /** softmax(scale * Q K^T): finite (negative allowed); 0 (the default) means 1 / sqrt(d) */
  float scale;
  /** Storage types of Q, K, V and out (offsets and strides count their elements): fp32, fp16
      or bf16 each; the softmax and the accumulation are fp32, a 16-bit out is rounded to
      nearest even. @{ */
  ocf_dtype q_dtype;
  ocf_dtype k_dtype;
  ocf_dtype v_dtype;
  ocf_dtype out_dtype;
  /** @} */
  int causal;              /**< non-zero: the causal mask (see above); 0 by default */
  int causal_offset_set;   /**< non-zero: use causal_offset; 0: the offset is lk - lq */
  long long causal_offset; /**< with causal_offset_set: query i sees keys j <= i + this */
  /** Optional per-batch valid key lengths: lengths[lengths_offset + batch] (cl_uint; above lk
      counts as lk). NULL: every batch has lk keys. */
  cl_mem lengths;
  size_t lengths_offset; /**< in cl_uint elements */
  /** Optional output: the log-sum-exp of each query row's scaled scores, log(sum_j
      exp(scale q_i . k_j)) over its kept keys, as floats at lse[lse_offset + (batch * h +
      head) * lq + i] (dense [b, h, lq]); -inf for a row with no kept key. NULL: not written. */
  cl_mem lse;
  size_t lse_offset; /**< in floats */
  /** How the products of fp32 Q, K and V may be formed (ignored unless all three are fp32:
      16-bit inputs are exact either way; options of the first layout, without this field, read
      as FP32). FP32 (the default): exact fp32 products on every
      kernel. TF32 and 3XTF32 let the matrix-unit kernel run where it is taken (NVIDIA compute
      capability 8.0 or higher, after the matrix units' probe; the mma.* tunables), with the
      arithmetic of ocf_precision: TF32 truncates Q, K, V and the softmax weights to TF32
      (relative error 2^-10 a product), 3XTF32 splits each into two TF32 parts and adds three
      products (about 2^-20 a product: SDPA's memory-efficient kernel computes fp32 attention
      this way on such GPUs). Elsewhere, and for calls that kernel does not take (decoding
      steps, d above 128), the call runs in FP32, within either bound. 3XTF32 is for finite
      inputs: an infinite element of q, k or v gives NaN where it is used, as ocf_matmul's. */
  ocf_precision precision;
} ocf_attention_options;

/** An ocf_attention_options with every default (fp32, scale 1 / sqrt(d), no mask, no lse, FP32
    products). */
#define OCF_ATTENTION_OPTIONS_INIT                                                             \
  {                                                                                            \
    sizeof(ocf_attention_options), 0.0f, OCF_F32, OCF_F32, OCF_F32, OCF_F32, 0, 0, 0, NULL, 0, \
        NULL, 0, OCF_PRECISION_FP32                                                            \
  }

/**
 * Fused attention: out = softmax(scale * Q K^T + mask) V, per batch and head, with the scores
 * never written to memory. Q is [b, h, lq, d], K and V are [b, h_kv, lk, d] and out is
 * [b, h, lq, d]; h must be a multiple of h_kv, and query head `head` reads key and value head
 * head / (h / h_kv) (grouped-query attention; h_kv = h is multi-head, h_kv = 1 multi-query).
 * d is 1 .. 256.
 *
 * Layout: element (batch, head, row, c) of a tensor is at its offset + batch * strides[0] +
 * head * strides[1] + row * strides[2] + c (elements of its storage type, never bytes): the d
 * elements of a row are contiguous, the other three strides are free (a head-interleaved
 * [b, l, h, d] tensor has strides {l h d, d, h d}). strides NULL: dense [b, h, l, d]. A row stride
 * below d is OCF_ERR_INVALID_STRIDE (also for one row, as BLAS does). Inputs may take any
 * batch and head strides, 0 included (a tensor shared across the batch); out's elements must be
 * distinct: sorted by stride, each of its dimensions with more than one index must step past the
 * whole extent of the smaller ones (else OCF_ERR_ALIASING), and out must not overlap q, k or v
 * (their spans from first to last element; OCF_ERR_ALIASING). Elements between out's rows are
 * not written.
 *
 * Sizes: d 0 or above 256, h_kv 0 with h > 0, or h not a multiple of h_kv is
 * OCF_ERR_INVALID_VALUE; an extent that overflows is OCF_ERR_SIZE_OVERFLOW; a buffer smaller
 * than its offset plus extent is OCF_ERR_BUFFER_TOO_SMALL. b, h or lq 0 succeeds and enqueues
 * nothing; lk 0 gives out = 0 (and lse = -inf) for every row. See ocf_attention_options for
 * the mask, the non-finite rules and the other refusals; nothing is enqueued and out is
 * untouched after any refusal.
 *
 * Asynchronous: enqueues its kernels on the launch's queue and returns; out (and lse) hold the
 * result once launch->event has completed. One kernel, or two for the decode split: a call with
 * few query rows for the device (b * h * ceil(lq / rows a workgroup) below what fills it) and
 * long rows of keys splits each row's keys over workgroups and merges their partial sums, the
 * first kernel writing only scratch memory (see Workspaces; b * h * lq * splits * (d + 2)
 * floats), or, where the device orders its workgroups (NVIDIA's decoding, decode.join), one
 * kernel whose last workgroup of each block of rows merges them (with arrival counters, see
 * Workspaces). launch->workgroup_size, when set, is the work-items of a workgroup (query rows times
 * work-items per row, see docs/ATTENTION.md), and the call is not split, except on a device whose
 * driver ends long loops early (Mesa's llvmpipe): there rows of many keys are always split, and
 * rows that would need more than 1024 splits are refused with OCF_ERR_UNSUPPORTED.
 *
 * launch->variant OCF_VARIANT_BASELINE runs the unfused composition instead, for tests and
 * benchmarks: S = scale Q K^T (ocf_matmul_ex, fp32 scores in a buffer the call creates and
 * releases, b * h * lq * lk floats), P = softmax(S) in place with the causal band
 * (ocf_softmax_ex), out = P V (ocf_matmul_ex), each call after the one before, the last one's
 * event the call's. It refuses with OCF_ERR_UNSUPPORTED, before anything is enqueued, lengths,
 * lse, a negative causal offset and an out whose heads the last product cannot write in one
 * call (grouped heads need each key head's query heads one after another in out, and b above 1
 * a batch stride of h heads).
 */
OCF_API ocf_status ocf_attention(ocf_context *ctx, size_t b, size_t h, size_t h_kv, size_t lq,
                                 size_t lk, size_t d, cl_mem q, size_t q_offset,
                                 const size_t *q_strides, cl_mem k, size_t k_offset,
                                 const size_t *k_strides, cl_mem v, size_t v_offset,
                                 const size_t *v_strides, cl_mem out, size_t out_offset,
                                 const size_t *out_strides, const ocf_attention_options *options,
                                 const ocf_launch *launch);

/**
 * Host-array form of ocf_attention: q, k, v and out are host arrays of their options' storage
 * types (fp32 as float, fp16 as cl_half bits, bf16 as cl_ushort bits), each tensor starting at
 * its array's first element, with the strides of ocf_attention (NULL: dense). The valid lengths
 * come as the host array `lengths` (b cl_uint, NULL: none) and the log-sum-exp goes to the host
 * array `lse` (b * h * lq floats, NULL: none); options->lengths and options->lse, cl_mems, must
 * be NULL (OCF_ERR_INVALID_VALUE otherwise), and their offsets 0. out must not overlap q, k, v,
 * lengths or lse, nor lse any of them (their spans; OCF_ERR_ALIASING). Synchronous: copies the
 * spans to temporary device buffers, runs ocf_attention on the context's queue and copies out
 * (elements between its rows keep their values) and lse back once its event has completed.
 * Every bad argument is refused before anything is enqueued, out and lse untouched.
 */
OCF_API ocf_status ocf_attention_host(ocf_context *ctx, size_t b, size_t h, size_t h_kv, size_t lq,
                                      size_t lk, size_t d, const void *q, const size_t *q_strides,
                                      const void *k, const size_t *k_strides, const void *v,
                                      const size_t *v_strides, void *out, const size_t *out_strides,
                                      const cl_uint *lengths, float *lse,
                                      const ocf_attention_options *options);

/* ---- Workspaces ------------------------------------------------------------------------- */

/*
 * Some plans run several kernels that share scratch memory on the device: softmax's split of a
 * few long rows (two kernels, or one cooperative kernel) and its unfused baseline, matmul's
 * split-K (partial sums, then their reduction), the norms' split of long rows, attention's
 * decode split (each range of keys' partial sums, then their merge) and its unfused baseline
 * (the scores, and its three calls' scratch, which they are lent); one kernel too, where it
 * writes what it later reads: Hopper's TMA-fed GEMM keeps the tensor maps each workgroup makes
 * (256 bytes a workgroup, after a split's partial sums; a workspace short of them runs the
 * cp.async form). Each op's
 * ..._workspace_size query says how much a call takes. That memory comes from, in this order:
 *   1. the caller's workspace, ocf_launch.workspace: nothing is allocated. It bounds the plan,
 *      as cuBLAS's workspace does: a call whose plan needs more runs the best plan that fits it
 *      (fewer ranges of a split, or no split: slower, and its last bits may differ, as a sum in
 *      another order), and touches no byte past workspace_size. Only a plan with no smaller form
 *      refuses a workspace too small, with OCF_ERR_BUFFER_TOO_SMALL (the text names both
 *      sizes) and nothing enqueued: the unfused baselines (launch->variant
 *      OCF_VARIANT_BASELINE), and attention's rows of many keys on a device whose driver ends
 *      long loops early (see ocf_attention). The ..._workspace_size queries give the size of
 *      the call's unbounded plan, the one a workspace of at least that size runs. The call
 *      zero-fills the bytes it uses and writes them in its kernels, after the launch's wait
 *      list; calls that share a workspace must be ordered by the caller (one in-order queue, or
 *      events), as the library does not track it.
 *   2. the context's pool, for calls on the context's default queue when that queue is in order
 *      (every ocf_context_create queue; a wrapped queue unless created out of order): one buffer,
 *      grown to the largest scratch asked for and kept until ocf_context_release() or
 *      ocf_context_trim_workspace(); the queue's order keeps a call from overwriting scratch that
 *      an earlier call's kernels still read. Calls from several threads share it safely (each
 *      enqueues under the context's lock). Attention's unfused baseline, a chain of calls, takes
 *      the buffer out of the pool for the chain and gives it back; a call meanwhile finds the
 *      pool empty and fills it anew (the larger of the two buffers stays).
 *   3. otherwise (another queue, an out-of-order default queue, or workspace_pool off): a buffer
 *      created for the call and released when its kernels finish.
 * The scratch's contents between calls are unspecified.
 *
 * A few plans also keep arrival counters (attention's decoding kernels that join their own key
 * ranges: docs/ATTENTION.md, decode.join): a few bytes a block of rows, which every call leaves
 * as it found them. The context keeps a set for each of the first 8 in-order queues it runs
 * such a call on, and retains those queues until ocf_context_release(); a call on an
 * out-of-order queue, or on a later queue, creates its own and releases it when its kernel
 * finishes. Calls on one queue are ordered by it, so they share a set safely.
 */

/**
 * Writes to *bytes the workspace (ocf_launch.workspace_size) that ocf_softmax_ex with the same
 * arguments would use given at least as much (a launch workspace's own size does not bound the
 * answer: a smaller one bounds the call's plan, see Workspaces): 0 when its plan needs none.
 * The arguments are those of the call, checked the same way where they concern sizes; `in` and
 * `out` may be NULL (they serve only to tell an in-place call, which can plan differently: with
 * either NULL the size covers both cases), the lengths in the options are not read, and the
 * launch's workgroup size and variant count. Builds the plan's programs as the first such call
 * would (learning the kernels' limits, which can change a plan), so the size stays right for that
 * call on this context until its tuning changes (ocf_context_set_tuning). Blocking; thread-safe.
 */
OCF_API ocf_status ocf_softmax_workspace_size(ocf_context *ctx, size_t rows, size_t cols, cl_mem in,
                                              size_t in_offset, size_t in_ld, cl_mem out,
                                              size_t out_offset, size_t out_ld,
                                              const ocf_softmax_options *options,
                                              const ocf_launch *launch, size_t *bytes);

/**
 * Writes to *bytes the workspace that ocf_matmul_ex with the same arguments would use given at
 * least as much (a smaller one bounds the plan: see Workspaces): 0 when its plan needs none
 * (split-K needs one, and so do the staged TF32 and 3XTF32 plans of compute capability 9.0: see
 * ocf_precision, and the padded plans of fp32 A or B whose offset, leading dimension or batch
 * stride is not a multiple of 4, where the matmul tunables tiled.pad_min and tiled.pad_sides turn
 * them on (off in the schema; NVIDIA's built-in values from 1024^3 products whose sides are whole
 * tiles: docs/GEMM.md). The arguments are those of the call, checked the same way where they
 * concern sizes; the buffers a, b, c and options->bias may be NULL (they do not change the plan).
 * Builds the plan's programs as the first such call would, and on a device with matrix units may
 * run their one-time probe, so the size stays right for that call on this context until its tuning
 * changes. Blocking; thread-safe.
 */
OCF_API ocf_status ocf_matmul_workspace_size(ocf_context *ctx, ocf_transpose trans_a,
                                             ocf_transpose trans_b, size_t m, size_t n, size_t k,
                                             float alpha, cl_mem a, size_t a_offset, size_t lda,
                                             cl_mem b, size_t b_offset, size_t ldb, float beta,
                                             cl_mem c, size_t c_offset, size_t ldc,
                                             const ocf_matmul_options *options,
                                             const ocf_launch *launch, size_t *bytes);

/**
 * Writes to *bytes the workspace that ocf_attention with the same arguments would use given at
 * least as much (a smaller one bounds the plan: see Workspaces): 0 when its plan needs none (the
 * decode split of long key rows needs one: each range's partial sums). The arguments are those of
 * the call without its buffers, checked the same way where they concern sizes and values; the
 * options' buffers (lengths, lse) are not queried, only whether each is set. For the unfused
 * baseline (launch->variant OCF_VARIANT_BASELINE) it is the composition's whole memory: its fp32
 * scores (b h lq lk floats, rounded up to the device's base address alignment), then the most
 * scratch any of its calls asks for (they are lent the rest); that call refuses a smaller
 * workspace, and without one borrows the pool, or makes a buffer, of this size. Builds the
 * plan's programs as the first such call would, so the size stays right for that call on this
 * context until its tuning changes. Blocking; thread-safe.
 */
OCF_API ocf_status ocf_attention_workspace_size(
    ocf_context *ctx, size_t b, size_t h, size_t h_kv, size_t lq, size_t lk, size_t d,
    size_t q_offset, const size_t *q_strides, size_t k_offset, const size_t *k_strides,
    size_t v_offset, const size_t *v_strides, size_t out_offset, const size_t *out_strides,
    const ocf_attention_options *options, const ocf_launch *launch, size_t *bytes);

/** Writes to *bytes the size of the context's workspace pool now (0: empty) and, if `creations`
    is not NULL, how many buffers the pool has created so far. Thread-safe. */
OCF_API ocf_status ocf_context_workspace_pool(ocf_context *ctx, size_t *bytes, size_t *creations);

/** Gives the pool's buffer back (released once the kernels that use it finish); the next call
    that needs scratch creates one again. Thread-safe. */
OCF_API ocf_status ocf_context_trim_workspace(ocf_context *ctx);

/* ---- For tests and benchmarks (not a stable API) ------------------------------------------ */

/**
 * ocf_launch.variant picks a kernel other than the fastest, so that tests and benchmarks can run
 * the slow, obviously right kernels beside the fast ones. Programs should leave it 0; these
 * values may change between versions.
 */
typedef enum ocf_variant {
  OCF_VARIANT_AUTO = 0,    /**< the fastest kernel whose assumptions the call meets */
  OCF_VARIANT_GENERAL = 1, /**< the general kernel, right for any size, offset and stride */
  OCF_VARIANT_BASELINE = 2 /**< the unfused / untiled baseline: one element per work-item add,
                              three-kernel softmax, one-output-per-work-item matmul, norm's
                              separate passes, attention's matmul, softmax and matmul (see
                              ocf_attention) */
} ocf_variant;

#ifdef __cplusplus
}
#endif

#endif /* OCLFUSE_H */
