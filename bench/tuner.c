/*
 * The tuner's search: coordinate descent over an op's named tunables, with every candidate
 * checked (by the measure callback) before its time may count. Independent of OpenCL, so that
 * tests can drive it with a made-up measure (bench/test_tuner.c: a wrong candidate must never
 * win, however fast).
 */
#include "tool.h"

#include "oclfuse_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

double tool_clock_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

enum { MAX_NEIGHBOURS = 7 };

/* The values a tunable tries next to `v`: a quarter, half, double and four times (powers of two
   stay powers of two), for small ranges one step each way, and 0 where 0 is in range (a mode of
   its own, e.g. coop_spin=0: no cooperating workgroups); in range, without repeats. */
static int neighbours(const ocf_tunable *t, int v, int *out) {
  int candidates[MAX_NEIGHBOURS] = {v / 4, v / 2, v * 2, v * 4, v - 1, v + 1, 0};
  if (v == 0) { /* 0 is a mode of its own (e.g. no grid-stride loop): try a few real values */
    candidates[0] = 1;
    candidates[1] = 4;
    candidates[2] = 16;
    candidates[3] = 64;
  }
  int use_steps = !t->pow2 && t->max - t->min <= 16;
  int count = 0;
  for (int i = 0; i < MAX_NEIGHBOURS; i++) {
    int c = candidates[i];
    if ((i == 4 || i == 5) && !use_steps) continue;
    if (c == v || c < t->min || c > t->max) continue;
    if (t->pow2 && c != 0 && (c & (c - 1)) != 0) continue;
    int repeated = 0;
    for (int j = 0; j < count; j++)
      repeated = repeated || out[j] == c;
    if (!repeated) out[count++] = c;
  }
  return count;
}

/* Whether `r` is no slower than `start` on any shape, by more than `loss`. Shapes whose times
   are unknown (either side) do not count. */
static int no_shape_slower(const tune_result *r, const tune_result *start, double loss) {
  int shapes = r->shapes < start->shapes ? r->shapes : start->shapes;
  for (int i = 0; i < shapes && i < TUNE_MAX_SHAPES; i++)
    if (r->shape_ms[i] > start->shape_ms[i] * (1.0 + loss)) return 0;
  return 1;
}

/* Parses values text into v; 0, or -1 when the text is not valid for the op. */
static int parse_values(int op, const char *text, ocf_tuning_values *v) {
  ocf_tuning_fallbacks((ocf_op)op, v);
  return ocf_tuning_parse((ocf_op)op, text, v, "tuner") == OCF_SUCCESS ? 0 : -1;
}

int tune_pass_size(int op, const char *values) {
  const ocf_op_schema *schema = ocf_op_schema_get((ocf_op)op);
  ocf_tuning_values v;
  if (!schema || parse_values(op, values, &v)) return 0;
  int total = 0;
  for (unsigned i = 0; i < schema->count; i++) {
    int next[MAX_NEIGHBOURS];
    int count = neighbours(&schema->tunables[i], v.v[i], next);
    for (int j = 0; j < count; j++) {
      ocf_tuning_values c = v;
      c.v[i] = next[j];
      if (ocf_tuning_check((ocf_op)op, &c, "tuner") == OCF_SUCCESS) total++;
    }
  }
  return total;
}

/* The candidates of tunable i next to `from` that pass the validator, as texts; returns how many
   (at most MAX_NEIGHBOURS). */
static int candidate_texts(int op, const ocf_op_schema *schema, unsigned i,
                           const ocf_tuning_values *from, char texts[][OCF_TUNING_TEXT_MAX]) {
  int next[MAX_NEIGHBOURS];
  int count = neighbours(&schema->tunables[i], from->v[i], next), n = 0;
  for (int j = 0; j < count; j++) {
    ocf_tuning_values candidate = *from;
    candidate.v[i] = next[j];
    if (ocf_tuning_check((ocf_op)op, &candidate, "tuner") != OCF_SUCCESS) continue;
    ocf_tuning_format((ocf_op)op, &candidate, texts[n], OCF_TUNING_TEXT_MAX);
    n++;
  }
  return n;
}

/* Hands the candidates of tunable order[at] and, speculatively, of order[at + 1] (from the same
   values) to the prepare callback. */
static void prepare_next(const tune_search *search, tune_prepare_fn prepare,
                         const ocf_op_schema *schema, const unsigned *order, unsigned at,
                         const ocf_tuning_values *from) {
  if (!prepare) return;
  static char texts[2 * MAX_NEIGHBOURS][OCF_TUNING_TEXT_MAX];
  const char *list[2 * MAX_NEIGHBOURS];
  int n = candidate_texts(search->op, schema, order[at], from, texts);
  if (at + 1 < schema->count)
    n += candidate_texts(search->op, schema, order[at + 1], from, texts + n);
  for (int i = 0; i < n; i++)
    list[i] = texts[i];
  prepare(search->user, list, n);
}

int tune_run(const tune_search *search, tune_summary *summary) {
  return tune_run_prepared(search, NULL, summary);
}

int tune_run_prepared(const tune_search *search, tune_prepare_fn prepare, tune_summary *summary) {
  const ocf_op_schema *schema = ocf_op_schema_get((ocf_op)search->op);
  memset(summary, 0, sizeof *summary);
  summary->start_ms = summary->best_ms = NAN;
  ocf_tuning_values best;
  if (!schema || parse_values(search->op, search->start, &best) ||
      ocf_tuning_check((ocf_op)search->op, &best, "tuner") != OCF_SUCCESS)
    return -1;
  ocf_tuning_format((ocf_op)search->op, &best, summary->best, sizeof summary->best);

  tune_result start;
  search->measure(search->user, summary->best, &start);
  summary->evaluated = 1;
  int planned = tune_pass_size(search->op, summary->best) + 1;
  if (search->progress)
    search->progress(search->user, 1, planned, summary->best, &start, start.score_ms);
  if (start.outcome != TUNE_OK) return -1;
  summary->start_ms = summary->best_ms = start.score_ms;

  summary->complete = 1;
  /* The order of the tunables in a pass, and what each gained (ms) in the passes so far. */
  unsigned order[OCF_TUNING_MAX];
  double gain[OCF_TUNING_MAX];
  for (unsigned i = 0; i < schema->count; i++) {
    order[i] = i;
    gain[i] = 0.0;
  }
  for (int pass = 0; pass < search->max_passes; pass++) {
    int changed = 0;
    /* Largest gain first (a stable insertion sort: ties keep the schema's order). */
    for (unsigned a = 1; a < schema->count; a++)
      for (unsigned b = a; b > 0 && gain[order[b]] > gain[order[b - 1]]; b--) {
        unsigned t = order[b];
        order[b] = order[b - 1];
        order[b - 1] = t;
      }
    for (unsigned at = 0; at < schema->count; at++) {
      const unsigned i = order[at];
      prepare_next(search, prepare, schema, order, at, &best);
      int next[MAX_NEIGHBOURS];
      int count = neighbours(&schema->tunables[i], best.v[i], next);
      ocf_tuning_values round_best = best;
      double round_ms = summary->best_ms;
      for (int j = 0; j < count; j++) {
        if (tool_clock_ms() >= search->deadline_ms) {
          summary->complete = 0;
          goto done;
        }
        ocf_tuning_values candidate = best;
        candidate.v[i] = next[j];
        if (ocf_tuning_check((ocf_op)search->op, &candidate, "tuner") != OCF_SUCCESS) continue;
        char text[OCF_TUNING_TEXT_MAX];
        ocf_tuning_format((ocf_op)search->op, &candidate, text, sizeof text);
        tune_result result;
        search->measure(search->user, text, &result);
        summary->evaluated++;
        summary->wrong += result.outcome == TUNE_WRONG;
        summary->failed += result.outcome == TUNE_FAILED;
        int faster = result.outcome == TUNE_OK && result.score_ms < round_ms;
        int fair = faster && no_shape_slower(&result, &start, search->max_shape_loss);
        summary->shape_losses += faster && !fair;
        if (fair) {
          round_ms = result.score_ms;
          round_best = candidate;
        }
        if (search->progress)
          search->progress(search->user, summary->evaluated, planned, text, &result,
                           round_ms < summary->best_ms ? round_ms : summary->best_ms);
      }
      /* The tunable's best neighbour replaces its value only when clearly faster: noise must not
         walk the values away from a choice that is as good. */
      if (round_ms < summary->best_ms * (1.0 - search->min_gain)) {
        gain[i] += summary->best_ms - round_ms;
        best = round_best;
        summary->best_ms = round_ms;
        ocf_tuning_format((ocf_op)search->op, &best, summary->best, sizeof summary->best);
        changed = 1;
      }
    }
    if (!changed) break;
    planned = summary->evaluated + tune_pass_size(search->op, summary->best);
  }
done:
  return 0;
}
