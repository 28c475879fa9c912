/*
 * The planner and the tuning rows, for devices that are not here: what the plan suites share
 * (listed below, label "plan", an executable each). These suites link only the device-free
 * objects (oclfuse_plan: tuning, planning, kernel descriptors) and no OpenCL library, so they run
 * where no OpenCL platform is installed, and a planner that called OpenCL would not even link. No
 * test creates a context.
 *
 * Each device is described as a context would see it (an ocf_device_info made into
 * ocf_device_facts, the kernel limits learnt from built kernels set by hand), its built-in tuning
 * resolved, and then:
 *   - the plan of each op is asserted for a table of shapes, the edges between plans included;
 *   - every default plan, under kernel limits of 1 to 256 work-items and 16 KiB of local memory,
 *     fits and meets the assumptions its kernels write down;
 *   - a workgroup size the caller fixed is kept as given, or refused when the device cannot run
 *     it.
 * The expected values are derived in the comments beside them from the rules the planner and the
 * tunables document (src/plan/, src/tuning/schema_<op>.c, the notes in src/tuning/builtin.tuning)
 * and from the kernels' own headers (cl/<op>.cl), not read off the planner's code.
 *
 * The suites: test_plan.c (device facts, the tuning rows, every default plan of every op, fixed
 * sizes, the plan's own checks, bf16_cvt), test_plan_add.c, test_plan_softmax.c,
 * test_plan_matmul.c (the tiled and skinny plans, padded and split), test_plan_matmul_mma.c
 * (mma.sync and the few-row kernels), test_plan_matmul_wgmma.c (Hopper's warpgroup units),
 * test_plan_attention.c and test_plan_norm.c. This fixture (plan_fixture.c) holds the devices,
 * reading plans, the calls of each op, and the kernels' assumptions that more than one suite
 * checks.
 */

#ifndef OCLFUSE_PLAN_FIXTURE_H
#define OCLFUSE_PLAN_FIXTURE_H

#include "plan/plan.h"
#include "tuning/db.h"
#include "tuning/shape_class.h"
#include "tuning/tuning.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka.h needs the three headers above first. */
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define KIB 1024ull

enum { AUTO = OCF_VARIANT_AUTO, GENERAL = OCF_VARIANT_GENERAL, BASELINE = OCF_VARIANT_BASELINE };

/* ---- the devices ---- */

typedef enum device_id {
  H200,         /* NVIDIA's OpenCL; its compiler reports 256 work-items for these kernels */
  POCL,         /* PoCL 3.1 on the 2-core CI machine, as clinfo reports it there */
  AMD_GPU,      /* wavefront 64; ROCm reports 256 work-items a workgroup by default */
  AMD_GPU_1024, /* the same GPU where the runtime reports 1024 */
  INTEL_GPU,    /* Xe graphics: 512 work-items, 64 KiB local memory */
  LLVMPIPE,     /* Mesa 22.3 rusticl on llvmpipe, as on the CI machine: kernels report 32 */
  APPLE_CPU,    /* Apple's CPU device: work-items along dimension 0 only, kernels report 1 */
  MALI,         /* ARM Mali (Bifrost): a device maximum of 384, small local memory; kernels
                   report what their registers allow (8 to 32 here) */
  ADRENO,       /* Qualcomm Adreno: two compute units, 32 KiB local memory, register-limited */
  OCLGRIND,     /* Oclgrind 21.10's simulator: every device type at once (15), one compute unit */
  DEVICE_COUNT
} device_id;

typedef struct fake_device {
  const char *name, *vendor, *platform;
  cl_device_type type;
  unsigned compute_units;
  size_t max_workgroup, items[3];
  unsigned long long local_bytes;
} fake_device;

#define GPU CL_DEVICE_TYPE_GPU
#define CPU CL_DEVICE_TYPE_CPU

/* The devices, one a device_id (plan_fixture.c). */
extern const fake_device devices[DEVICE_COUNT];

/* The description a context would read from the device. */
ocf_device_info info_of(device_id id);

/* The device's facts once every kernel has reported a limit of `learnt` work-items (0: none
   reported yet, before the first build). */
ocf_device_facts facts_of(device_id id, size_t learnt);

/* The built-in tuning of `op` for a device; resolving it must succeed. */
ocf_tuning_values tuning_of(const ocf_device_facts *facts, device_id id, ocf_op op);

/* The built-in matmul tuning of a data type on a device. */
ocf_tuning_values matmul_tuning(const ocf_device_facts *facts, device_id id, ocf_dtype dtype);

/* The H200's resolved tuning (built-in values and its shipped database, which applies whole) into
 *table, for the facts *facts. */
void resolve_h200(ocf_device_facts *facts, ocf_tuning_table *table);

/* The H200 as a context sees it once the probe of `bytes` of local memory ran right (0: before
   any probe), its wgmma probe failed: the mma.sync kernel's plans (the wgmma kernel's gates are
   test_plan_matmul_wgmma's). */
ocf_device_facts h200_probed(unsigned long long bytes);

/* `facts` with the H200's memory sizes (141 GiB, allocations of 35 GiB): the scratch cap of the
   split, last-wave, staged and padded plans is an eighth of the memory and one allocation, 0
   where the sizes are unknown. */
ocf_device_facts with_h200_memory(ocf_device_facts facts);

/* ---- reading plans ---- */

/* The kernel's name from its descriptor, "?" for none. */
const char *kernel_name(ocf_kernel_id id);

/* A value of the plan by name: an upper-case name is a -D value, parts / part_vecs / scratch /
   local_mem / fixed / splits / k_split / swapped / max_regs / staged_k / staged_ld / staged_a /
   scratch_written / pad_lda / pad_rows_a / pad_ldb / pad_rows_b / lw_first the plan's fields. -1
   when the plan has no such value. */
long long plan_value(const ocf_plan *plan, const char *name);

/* Asserts that the planner succeeded, that the plan's steps read `shape` and that every
   "NAME=value" of `values` holds. */
void expect_plan(const char *what, ocf_status status, const ocf_plan *plan, const char *shape,
                 const char *values);

/* Asserts that the planner made a plan. */
void expect_success(const char *what, ocf_status status);

/* Asserts a refusal with OCF_ERR_INVALID_WORKGROUP whose message has `message`. */
void expect_refused(const char *what, ocf_status status, const char *message);

/* A -D value of the plan, -1 when the plan has none. */
long long define_of(const ocf_plan *plan, const char *name);

/* ---- the calls ---- */

/* Where rows start: offsets, and the leading dimensions as the row length rounded up to
   `round` floats (1: tight) plus a pad; in_place: out is in. */
typedef struct layout {
  size_t in_off, in_pad, out_off, out_pad, round;
  int in_place;
} layout;

/* The layouts of the softmax suites (plan_fixture.c). */
extern const layout ALIGNED, TIGHT, IN_OFF_1, LD_PLUS_2, BOTH_OFF_1, IN_PLACE;

/* An fp32 softmax of rows x cols laid out as `l`, with that variant and fixed workgroup
   (0: none). */
ocf_softmax_call softmax_call(size_t rows, size_t cols, const layout *l, int variant,
                              size_t workgroup);

/* The call for a row-major m x n x k product with every leading dimension `ld` (0: tight). */
ocf_matmul_call matmul_call(int trans_a, int trans_b, size_t m, size_t n, size_t k, size_t ld,
                            size_t a_off, int variant, size_t workgroup);

/* A tight m x n x k product of two `dtype` operands into fp32, in `precision`. */
ocf_matmul_call typed_call(size_t m, size_t n, size_t k, ocf_dtype dtype, ocf_precision precision);

/* An fp32 RMSNorm (rms 1) or LayerNorm (0, with its bias) of rows x cols with a weight, a
   residual and res_out, every operand at offset `off` and rows cols + ld_extra apart. */
ocf_norm_call norm_call_of(int rms, size_t rows, size_t cols, size_t off, size_t ld_extra,
                           int variant, size_t workgroup);

/* Asserts the plan as expect_plan does, and that it asks for the probe `probe` (of
   `probe_bytes` bytes when one). */
void plan_mma_case(const char *what, const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                   const ocf_matmul_call *call, const char *shape, const char *values, int probe,
                   size_t probe_bytes);

/* ---- the kernels' assumptions ---- */

/* Reports a broken assumption of a plan and fails. */
#define ASSUME(cond, ...)                                                         \
  do {                                                                            \
    if (!(cond)) {                                                                \
      char plan_text_[512];                                                       \
      ocf_plan_describe(plan, plan_text_, sizeof plan_text_);                     \
      print_error("%s: %s does not hold\n  plan: %s\n", what, #cond, plan_text_); \
      print_error(__VA_ARGS__);                                                   \
      fail();                                                                     \
    }                                                                             \
  } while (0)

/* What every plan owes the device: the planner's own check, each step's workgroup within the
   kernel's learnt limit, the device's and the work-item sizes, local memory within the
   device's. */
void check_fits(const char *what, const ocf_plan *plan, const ocf_device_facts *facts);

/* cl/softmax_vector.clh: vector access only where out's rows have in's heads (in_off = out_off and
   in_ld = out_ld modulo VW); at most 256 floats a work-item in registers
   (src/tuning/schema_softmax.c); local vectors only in resident and coop, in workgroups of 4 or
   more, in the local memory planned; never resident or coop with one or two work-items of
   scalar access (PoCL 3.1 aborts on them: softmax_general instead). Then per kernel:
   softmax_rows a 2-D SEG x (WG / SEG) workgroup, its row within SEG x ITEMS vectors;
   the others WG work-items along dimension 0 in every step; coop exactly one workgroup a
   slice (no grid-stride loop), no slice empty, each within what a workgroup holds, never in
   place, scratch for the slots; split parts cover the row, none empty, with scratch for their
   pairs; the baseline's scratch a max and a sum a row. */
void check_softmax_assumptions(const char *what, const ocf_plan *plan, const ocf_softmax_call *c);

/* cl/matmul.cl: an NDIMC x MDIMC workgroup; the tiling rules (tiles multiples of 4, whole
   vectors, K slices of 4, at most 256 accumulators and 16 rows or columns a work-item), the
   local memory the tiles take (twice for 3XTF32, which stages two parts of each input), a grid
   of tiles x splits x batch covering C, the fast kernel only for whole tiles and K slices,
   aligned vector loads only where the operand allows them; split K: K ranges of whole K slices
   covering K, scratch for every split's C, the reduce over every element; the skinny program
   only for a short side of at most 16; a register cap only where the compiler takes one. */
void check_matmul_assumptions(const char *what, const ocf_plan *plan, const ocf_matmul_call *c,
                              const ocf_device_facts *facts);

#endif
