/*
 * The plan cache of a context: for a call seen before, its plan, its built and checked kernels
 * and its description, found with one hash lookup, so that a repeated call does no tuning
 * lookup, no planning, no option string and no program cache search (src/runtime/run.c).
 *
 * Keyed by the op and the bytes of its call struct (every argument that decides the plan:
 * shape, offsets and strides, data types and options, the caller's variant and workgroup size)
 * and valid for one generation of the context's tuning and facts (ctx->plan_generation, raised
 * whenever tuning is set or a fact is learnt: a limit, a local budget, a probe's outcome). A
 * bounded table (clock eviction); every function is called with ctx->lock held. The kernels are
 * the program cache's, valid until the context is released.
 */
#ifndef OCLFUSE_PLAN_CACHE_H
#define OCLFUSE_PLAN_CACHE_H

#include "ops/registry.h"
#include "runtime/context.h"

#include <stddef.h>

enum { OCF_PLAN_CACHE_ENTRIES = 128, OCF_PLAN_DESCRIPTION_MAX = 512 };

/* What a cached call runs. */
typedef struct ocf_cached_plan {
  ocf_plan plan;
  ocf_built_kernel *kernels[OCF_PLAN_MAX_STEPS]; /* built and checked against the plan */
  char description[OCF_PLAN_DESCRIPTION_MAX];    /* ocf_plan_describe's line */
} ocf_cached_plan;

typedef struct ocf_plan_cache ocf_plan_cache;

/* Counters for tests and the log. */
typedef struct ocf_plan_cache_stats {
  size_t entries, hits, misses, evictions;
} ocf_plan_cache_stats;

/* The entry of (op, call) made in `generation`, or NULL; valid while the lock is held. A NULL
   cache finds nothing. */
const ocf_cached_plan *ocf_plan_cache_find(ocf_plan_cache *cache, ocf_op op, const void *call,
                                           size_t call_size, unsigned long long generation);
/* Stores an entry for (op, call) made in `generation`, replacing one of the same key or, when
   full, the least recently used (about); *cache is allocated on first use (nothing is stored
   when that fails: the cache is an optimisation). */
void ocf_plan_cache_insert(ocf_plan_cache **cache, ocf_op op, const void *call, size_t call_size,
                           unsigned long long generation, const ocf_cached_plan *value);
/* Removes the entry of (op, call), if any. */
void ocf_plan_cache_remove(ocf_plan_cache *cache, ocf_op op, const void *call, size_t call_size);
/* Removes every entry (the counters stay). */
void ocf_plan_cache_clear(ocf_plan_cache *cache);
void ocf_plan_cache_stats_get(const ocf_plan_cache *cache, ocf_plan_cache_stats *stats);
/* Frees the cache (NULL: nothing). */
void ocf_plan_cache_free(ocf_plan_cache *cache);

#endif /* OCLFUSE_PLAN_CACHE_H */
