/* The plan cache of a context (runtime/plan_cache.h): a chained hash table over a fixed array
   of entries, evicted by a clock. */
#include "runtime/plan_cache.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { BUCKETS = 2 * OCF_PLAN_CACHE_ENTRIES, NONE = -1 };

typedef struct entry {
  int used;       /* holds a plan */
  int referenced; /* found since the clock hand last passed */
  int next;       /* the next entry of its bucket, NONE */
  unsigned bucket;
  unsigned long long generation;
  ocf_op op;
  size_t call_size;
  unsigned char call[OCF_CALL_MAX];
  ocf_cached_plan value;
} entry;

struct ocf_plan_cache {
  int heads[BUCKETS]; /* first entry of each bucket, NONE */
  entry entries[OCF_PLAN_CACHE_ENTRIES];
  unsigned hand; /* the clock's next candidate */
  ocf_plan_cache_stats stats;
};

/* FNV-1a over the op and the call's bytes, eight at a time. */
static unsigned bucket_of(ocf_op op, const void *call, size_t call_size) {
  uint64_t h = 1469598103934665603ull ^ (uint64_t)op;
  const unsigned char *p = call;
  size_t i = 0;
  for (; i + 8 <= call_size; i += 8) {
    uint64_t word;
    memcpy(&word, p + i, sizeof word);
    h = (h ^ word) * 1099511628211ull;
  }
  for (; i < call_size; i++)
    h = (h ^ p[i]) * 1099511628211ull;
  h ^= h >> 29;
  return (unsigned)(h % BUCKETS);
}

static int same_key(const entry *e, ocf_op op, const void *call, size_t call_size) {
  return e->op == op && e->call_size == call_size && memcmp(e->call, call, call_size) == 0;
}

/* The entry of the key (any generation), or NONE; *bucket gets the key's bucket. */
static int lookup(const ocf_plan_cache *cache, ocf_op op, const void *call, size_t call_size,
                  unsigned *bucket) {
  *bucket = bucket_of(op, call, call_size);
  for (int i = cache->heads[*bucket]; i != NONE; i = cache->entries[i].next)
    if (same_key(&cache->entries[i], op, call, call_size)) return i;
  return NONE;
}

static void unlink_entry(ocf_plan_cache *cache, int index) {
  entry *e = &cache->entries[index];
  int *link = &cache->heads[e->bucket];
  while (*link != NONE && *link != index)
    link = &cache->entries[*link].next;
  if (*link == index) *link = e->next;
  e->used = 0;
  e->next = NONE;
  cache->stats.entries--;
}

const ocf_cached_plan *ocf_plan_cache_find(ocf_plan_cache *cache, ocf_op op, const void *call,
                                           size_t call_size, unsigned long long generation) {
  if (!cache || call_size > OCF_CALL_MAX) return NULL;
  unsigned bucket;
  int i = lookup(cache, op, call, call_size, &bucket);
  if (i == NONE || cache->entries[i].generation != generation) {
    cache->stats.misses++;
    return NULL;
  }
  cache->stats.hits++;
  cache->entries[i].referenced = 1;
  return &cache->entries[i].value;
}

/* An unused entry, or the first one the clock finds not referenced since its last pass. */
static int victim(ocf_plan_cache *cache) {
  for (;;) {
    entry *e = &cache->entries[cache->hand];
    int index = (int)cache->hand;
    cache->hand = (cache->hand + 1) % OCF_PLAN_CACHE_ENTRIES;
    if (!e->used) return index;
    if (!e->referenced) {
      unlink_entry(cache, index);
      cache->stats.evictions++;
      return index;
    }
    e->referenced = 0;
  }
}

static ocf_plan_cache *cache_new(void) {
  ocf_plan_cache *cache = calloc(1, sizeof *cache);
  if (!cache) return NULL;
  for (int b = 0; b < BUCKETS; b++)
    cache->heads[b] = NONE;
  for (int i = 0; i < OCF_PLAN_CACHE_ENTRIES; i++)
    cache->entries[i].next = NONE;
  return cache;
}

void ocf_plan_cache_insert(ocf_plan_cache **cache, ocf_op op, const void *call, size_t call_size,
                           unsigned long long generation, const ocf_cached_plan *value) {
  if (call_size > OCF_CALL_MAX) return;
  if (!*cache && !(*cache = cache_new())) return;
  ocf_plan_cache *c = *cache;
  unsigned bucket;
  int i = lookup(c, op, call, call_size, &bucket);
  if (i == NONE) {
    i = victim(c);
    entry *e = &c->entries[i];
    e->used = 1;
    e->bucket = bucket;
    e->op = op;
    e->call_size = call_size;
    memcpy(e->call, call, call_size);
    e->next = c->heads[bucket];
    c->heads[bucket] = i;
    c->stats.entries++;
  }
  entry *e = &c->entries[i];
  e->referenced = 1;
  e->generation = generation;
  e->value = *value;
}

void ocf_plan_cache_remove(ocf_plan_cache *cache, ocf_op op, const void *call, size_t call_size) {
  if (!cache || call_size > OCF_CALL_MAX) return;
  unsigned bucket;
  int i = lookup(cache, op, call, call_size, &bucket);
  if (i != NONE) unlink_entry(cache, i);
}

void ocf_plan_cache_clear(ocf_plan_cache *cache) {
  if (!cache) return;
  for (int i = 0; i < OCF_PLAN_CACHE_ENTRIES; i++)
    if (cache->entries[i].used) unlink_entry(cache, i);
}

void ocf_plan_cache_stats_get(const ocf_plan_cache *cache, ocf_plan_cache_stats *stats) {
  if (cache)
    *stats = cache->stats;
  else
    memset(stats, 0, sizeof *stats);
}

void ocf_plan_cache_free(ocf_plan_cache *cache) {
  free(cache);
}
