/*
 * What the two files of matmul's Hopper planner share: plan_matmul_wgmma.c (the rules, and the
 * direct, split and TMA-fed plans) and plan_matmul_wgmma_staged.c (rule 4, the staged and copied
 * plans). Private to those two files; their comments at the definitions say more.
 */
#ifndef OCLFUSE_PLAN_MATMUL_WGMMA_PARTS_H
#define OCLFUSE_PLAN_MATMUL_WGMMA_PARTS_H

#include "plan/plan.h"

#include <stddef.h>

typedef struct wg_geometry {
  unsigned bn, consumers, stages, group_m;
  int c_stage; /* the TMA form's staged epilogue (wgmma.c_stage) */
  int persist; /* the TMA form's persistent tiles (rule 7, wgmma.persist): 0 a workgroup a
                  tile, 1 a workgroup a unit, 2 that with stream-K */
  unsigned sk_rest, sk_pieces; /* stream-K's last partial wave: its tiles, the pieces of each */
  unsigned wait_limit; /* the TMA form's polls of a barrier before it gives up: 0 none (plans),
                          the probe's bound */
} wg_geometry;

/* A wgmma plan of a call (the direct plans' plan_direct, the staged ones' plan_staged). */
typedef ocf_mma_outcome (*wgmma_planner)(const ocf_device_facts *, const ocf_tuning_values *,
                                         const ocf_matmul_call *, ocf_plan *);

/* Whether an operand's offset, leading dimension and batch stride are multiples of `step`. */
int ocf_wgmma_rows_on_steps(size_t step, size_t off, size_t ld, size_t stride, size_t batch);
/* Whether an operand's offset, leading dimension and batch stride are whole 16-byte chunks. */
int ocf_wgmma_chunk_aligned(ocf_dtype dtype, size_t off, size_t ld, size_t stride, size_t batch);
/* The -D values of a wgmma plan: C's epilogue (call NULL: a probe's), A, B and g's tile. */
void ocf_wgmma_define_all(ocf_plan *plan, ocf_dtype dtype, int trans_b, const wg_geometry *g,
                          const ocf_matmul_call *call);
/* Rules 2 and 3: the tile, ring and workgroups of the call's C into *out, *groups_out. */
ocf_mma_outcome ocf_wgmma_plan_geometry(const ocf_device_facts *facts,
                                        const ocf_tuning_values *tuning,
                                        const ocf_matmul_call *call, const int direct,
                                        wg_geometry *out, size_t *groups_out);
/* Rule 7's persistent tiles (and stream-K) for `kernel`, into g and *groups; 1 where they apply. */
int ocf_wgmma_take_persistent(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                              const ocf_matmul_call *call, ocf_kernel_id kernel, size_t before,
                              wg_geometry *g, size_t *groups);
/* Rule 4's wgmma step after the copies: `plain`, or its TMA-fed twin `tma` (rule 7). */
void ocf_wgmma_add_copied_step(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                               const ocf_matmul_call *multiplied, ocf_kernel_id plain,
                               ocf_kernel_id tma, const wg_geometry *g, size_t groups,
                               ocf_plan *plan);
/* `planner`'s plan with three consumers where all its steps are TMA-fed, else with two. */
ocf_mma_outcome ocf_wgmma_plan_consumers(wgmma_planner planner, const ocf_device_facts *facts,
                                         const ocf_tuning_values *tuning,
                                         const ocf_matmul_call *call, ocf_plan *plan);

#endif /* OCLFUSE_PLAN_MATMUL_WGMMA_PARTS_H */
