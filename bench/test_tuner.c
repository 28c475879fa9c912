/*
 * The tuner's search (bench/tuner.c) driven by made-up measurements, without a device: the
 * fastest right candidate wins, a wrong one never does however fast it is, nor one that is
 * faster on the mean but slower on one shape, the deadline is kept, and a start that cannot be
 * measured right is reported.
 */
#include "oclfuse_internal.h"
#include "tool.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka.h needs the three headers above first. */
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A made-up add: time falls as the workgroup grows to 256 and rises after; vw=16 is wrong
   (and would be the fastest of all); groups_per_unit=64 fails to run. */
typedef struct fake {
  int measured, wrong_seen;
  const char *wrong_values; /* a substring that marks the broken candidate */
} fake;

static int value_of(const char *values, const char *name) {
  char key[32];
  snprintf(key, sizeof key, "%s=", name);
  const char *at = strstr(values, key);
  return at ? atoi(at + strlen(key)) : -1;
}

static void fake_measure(void *user, const char *values, tune_result *result) {
  fake *f = user;
  f->measured++;
  int wg = value_of(values, "wg"), vw = value_of(values, "vw"),
      gpu = value_of(values, "groups_per_unit");
  result->outcome = TUNE_OK;
  result->score_ms = 1.0 + fabs(log2((double)wg / 256.0)) + 4.0 / vw;
  if (strstr(values, f->wrong_values)) {
    result->outcome = TUNE_WRONG;
    result->score_ms = 0.001; /* the fastest: it must still lose */
    f->wrong_seen++;
  }
  if (gpu == 64) result->outcome = TUNE_FAILED;
}

static void test_tuner_wrong_candidate_never_wins(void **state) {
  (void)state;
  fake f = {0, 0, "vw=16"};
  tune_search search = {OCF_OP_ADD, "wg=64 vw=4 groups_per_unit=8", fake_measure, NULL,
                        &f,         tool_clock_ms() + 60e3,         0.02,         3,
                        0.02};
  tune_summary summary;
  assert_int_equal(tune_run(&search, &summary), 0);
  assert_true(f.wrong_seen > 0);              /* the broken candidate was measured... */
  assert_null(strstr(summary.best, "vw=16")); /* ...and lost */
  assert_int_equal(value_of(summary.best, "wg"), 256);
  assert_int_equal(value_of(summary.best, "vw"), 8); /* the best right width */
  assert_true(summary.best_ms < summary.start_ms);
  assert_true(summary.wrong > 0);
  assert_int_equal(summary.complete, 1);
  assert_int_equal(summary.evaluated, f.measured);
}

static void test_tuner_keeps_the_start_when_nothing_beats_it(void **state) {
  (void)state;
  fake f = {0, 0, "no such value"};
  tune_search search = {OCF_OP_ADD, "wg=256 vw=16 groups_per_unit=8", fake_measure, NULL,
                        &f,         tool_clock_ms() + 60e3,           0.02,         3,
                        0.02};
  tune_summary summary;
  assert_int_equal(tune_run(&search, &summary), 0);
  assert_string_equal(summary.best, "wg=256 vw=16 groups_per_unit=8");
  assert_true(summary.best_ms == summary.start_ms);
}

static void test_tuner_stops_at_the_deadline(void **state) {
  (void)state;
  fake f = {0, 0, "no such value"};
  tune_search search = {OCF_OP_ADD, "wg=64 vw=4 groups_per_unit=8", fake_measure, NULL,
                        &f,         tool_clock_ms() - 1.0,          0.02,         3,
                        0.02};
  tune_summary summary;
  assert_int_equal(tune_run(&search, &summary), 0);
  assert_int_equal(f.measured, 1); /* the start only */
  assert_int_equal(summary.complete, 0);
  assert_string_equal(summary.best, "wg=64 vw=4 groups_per_unit=8");
}

/* Two made-up shapes: a larger workgroup halves the first one's time and adds 10 % to the
   second's. The mean falls, but the second shape's users would lose: the start must stay. */
static void two_shape_measure(void *user, const char *values, tune_result *result) {
  fake *f = user;
  f->measured++;
  double wg = (double)value_of(values, "wg");
  result->outcome = TUNE_OK;
  result->shapes = 2;
  result->shape_ms[0] = 64.0 / wg;
  result->shape_ms[1] = wg > 64 ? 1.1 : 1.0;
  result->score_ms = sqrt(result->shape_ms[0] * result->shape_ms[1]);
}

static void test_tuner_refuses_a_mean_bought_with_a_slower_shape(void **state) {
  (void)state;
  fake f = {0, 0, "none"};
  tune_search search = {OCF_OP_ADD,
                        "wg=64 vw=4 groups_per_unit=8",
                        two_shape_measure,
                        NULL,
                        &f,
                        tool_clock_ms() + 60e3,
                        0.02,
                        3,
                        0.02};
  tune_summary summary;
  assert_int_equal(tune_run(&search, &summary), 0);
  assert_int_equal(value_of(summary.best, "wg"), 64);
  assert_true(summary.best_ms == summary.start_ms);
  assert_true(summary.shape_losses > 0);
  /* With a loss of 20 % allowed per shape, the faster mean wins. */
  search.max_shape_loss = 0.2;
  search.deadline_ms = tool_clock_ms() + 60e3;
  assert_int_equal(tune_run(&search, &summary), 0);
  assert_true(value_of(summary.best, "wg") > 64);
  assert_true(summary.best_ms < summary.start_ms);
}

static void test_tuner_reports_an_unmeasurable_start(void **state) {
  (void)state;
  fake f = {0, 0, "vw=4"};
  tune_search search = {OCF_OP_ADD, "wg=64 vw=4 groups_per_unit=8", fake_measure, NULL,
                        &f,         tool_clock_ms() + 60e3,         0.02,         3,
                        0.02};
  tune_summary summary;
  assert_int_equal(tune_run(&search, &summary), -1);
  /* Start values that break the rules are not measured at all. */
  fake g = {0, 0, "none"};
  tune_search invalid = {OCF_OP_SOFTMAX,
                         "wg=32 min_wg=64",
                         fake_measure,
                         NULL,
                         &g,
                         tool_clock_ms() + 60e3,
                         0.02,
                         3,
                         0.02};
  assert_int_equal(tune_run(&invalid, &summary), -1);
  assert_int_equal(g.measured, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tuner_wrong_candidate_never_wins),
      cmocka_unit_test(test_tuner_keeps_the_start_when_nothing_beats_it),
      cmocka_unit_test(test_tuner_stops_at_the_deadline),
      cmocka_unit_test(test_tuner_refuses_a_mean_bought_with_a_slower_shape),
      cmocka_unit_test(test_tuner_reports_an_unmeasurable_start),
  };
  return cmocka_run_group_tests_name("tuner", tests, NULL, NULL);
}
