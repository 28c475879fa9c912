/*
 * The series of each op: the tool's own (baselines, every option of the --sizes language) for
 * the ops listed here by name, the generic one (bench_generic.c, the harness's plain call) for
 * any other op of the harness's table.
 */
#include "tool.h"

#include <string.h>

static size_t two_rows(const tool_bench_env *env, tool_op op) {
  (void)op;
  return env->library_only ? 1 : 2; /* oclfuse and baseline */
}

/* oclfuse, baseline, CLBlast, and CLBlast tuned where its parameters apply. */
static size_t matmul_rows(const tool_bench_env *env, tool_op op) {
  (void)op;
  if (env->library_only) return 1;
  return 3 + (size_t)(tool_clblast_available() && tool_clblast_tuned_applies(&env->info));
}

static int sweep_add(tool_bench_env *env, tool_op op, const size_t *d, const size_t *wgs,
                     size_t count) {
  (void)op;
  return tool_sweep_add(env, d[0], wgs, count);
}

static int sweep_softmax(tool_bench_env *env, tool_op op, const size_t *d, const size_t *wgs,
                         size_t count) {
  (void)op;
  return tool_sweep_softmax(env, d[0], d[1], wgs, count);
}

/* matmul's sweep is square (N x N x N). */
static int sweep_matmul(tool_bench_env *env, tool_op op, const size_t *d, const size_t *wgs,
                        size_t count) {
  (void)op;
  return tool_sweep_matmul(env, d[0], wgs, count);
}

static const tool_op_series own[] = {
    {"add", tool_bench_add, two_rows, sweep_add, tool_add_enqueue_bare},
    {"softmax", tool_bench_softmax, two_rows, sweep_softmax, tool_softmax_enqueue_bare},
    {"matmul", tool_bench_matmul, matmul_rows, sweep_matmul, tool_matmul_enqueue_bare},
};

/* Read-only, so that the tuner's build threads may look series up too. */
static const tool_op_series generic = {NULL, tool_bench_generic, tool_generic_rows,
                                       tool_sweep_generic, tool_generic_enqueue_bare};

const tool_op_series *tool_series_of(tool_op op) {
  const ocft_op_case *c = tool_op_case(op);
  if (!c) return NULL;
  for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
    if (!strcmp(own[i].name, c->name)) return &own[i];
  return &generic;
}
