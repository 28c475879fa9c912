/*
 * The tuner's hooks for the build pool and its order, without a device (bench/tuner.c): every
 * candidate measured was handed to the prepare callback first (so a pool can build it ahead),
 * and after a pass the tunable that gained goes first. Plain C: prints one line per failure,
 * exits 1 if any.
 *   Usage: oclfuse_tuner_pool_test
 */
#include "tool.h"

#include "oclfuse_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define EXPECT(cond)                                         \
  do {                                                       \
    if (!(cond)) {                                           \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                            \
    }                                                        \
  } while (0)

enum { MAX_SEEN = 512 };

typedef struct fake {
  char prepared[MAX_SEEN][256];
  int prepared_count;
  char measured[MAX_SEEN][256];
  int measured_count;
  int unprepared; /* measured without having been prepared (the start aside) */
} fake;

static int value_of(const char *values, const char *name) {
  char key[64];
  snprintf(key, sizeof key, "%s=", name);
  const char *at = strstr(values, key);
  return at ? atoi(at + strlen(key)) : -1;
}

/* Faster with vw 16 (the only gain), everything else equal. */
static void fake_measure(void *user, const char *values, tune_result *result) {
  fake *f = user;
  int seen = f->measured_count == 0; /* the start is never prepared */
  for (int i = 0; i < f->prepared_count && !seen; i++)
    seen = !strcmp(f->prepared[i], values);
  f->unprepared += !seen;
  if (f->measured_count < MAX_SEEN)
    snprintf(f->measured[f->measured_count++], sizeof f->measured[0], "%s", values);
  memset(result, 0, sizeof *result);
  result->outcome = TUNE_OK;
  result->score_ms = value_of(values, "vw") == 16 ? 1.0 : 2.0;
}

static void fake_prepare(void *user, const char *const *values, int count) {
  fake *f = user;
  for (int i = 0; i < count && f->prepared_count < MAX_SEEN; i++)
    snprintf(f->prepared[f->prepared_count++], sizeof f->prepared[0], "%s", values[i]);
}

int main(void) {
  static fake f;
  tune_search search = {OCF_OP_ADD, "wg=64 vw=4 groups_per_unit=8", fake_measure, NULL,
                        &f,         tool_clock_ms() + 60e3,         0.02,         3,
                        0.02};
  tune_summary summary;
  EXPECT(tune_run_prepared(&search, fake_prepare, &summary) == 0);
  EXPECT(value_of(summary.best, "vw") == 16);
  EXPECT(f.unprepared == 0);
  EXPECT(f.prepared_count >= f.measured_count - 1);
  /* Pass 2 starts with vw, the tunable that gained: the first candidate measured after the
     last one of pass 1 (groups_per_unit's, from vw=16) changes vw, not wg. */
  int last_pass1 = -1, i = 1;
  while (i < f.measured_count &&
         !(value_of(f.measured[i], "vw") == 16 && value_of(f.measured[i], "groups_per_unit") != 8))
    i++;
  while (i < f.measured_count && value_of(f.measured[i], "vw") == 16 &&
         value_of(f.measured[i], "groups_per_unit") != 8)
    last_pass1 = i++;
  EXPECT(last_pass1 > 0 && last_pass1 + 1 < f.measured_count);
  if (last_pass1 > 0 && last_pass1 + 1 < f.measured_count) {
    const char *next = f.measured[last_pass1 + 1];
    EXPECT(value_of(next, "vw") != 16 && value_of(next, "wg") == 64);
  }
  printf("%d failed\n", failures);
  return failures ? 1 : 0;
}
