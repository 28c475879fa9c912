/*
 * `oclfuse warmup`: prepares every program the ops need on a device (ocf_warmup), so that the
 * on-disk program cache holds them for later processes; with --first-calls, instead times the
 * first call of each op in this process, which is what a service pays at start-up.
 */
#include "tool.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void usage(FILE *out) {
  fprintf(out,
          "usage: oclfuse warmup [options]\n"
          "\n"
          "Builds, or loads from the on-disk program cache, every program the ops will need on\n"
          "the device and runs each kernel once on no work, so that later processes find them in\n"
          "the cache (OCLFUSE_CACHE=0 turns the cache off; OCLFUSE_VERBOSE=1 lists each build).\n"
          "\n"
          "options:\n");
  tool_usage_ops(out);
  fprintf(out,
          "  --first-calls     do not warm up: time the first call of each op in this process\n"
          "                    (small shapes, wall clock, up to the call's completion)\n"
          "\n"
          "Progress: one line per op when it starts, then every few seconds the time it has\n"
          "taken so far (the library does not say how many programs are left, so there is no\n"
          "estimate of the time left), and per op the plans prepared and their mean time.\n");
  tool_usage_common(out, 1);
}

/* The first call of each op on its first small shape (the harness's table), in wall-clock
   milliseconds up to its completion. */
static int first_calls(ocf_context *ctx, const int only[TOOL_MAX_OPS]) {
  int rc = 0;
  for (tool_op op = 0; op < tool_op_count(); op++) {
    if (!only[op]) continue;
    const ocft_op_case *c = tool_op_case(op);
    ocft_call call;
    if (ocft_call_make(&call, c, c->small.d[0], 11) ||
        ocft_call_buffers(&call, ocf_context_cl_context(ctx)) != CL_SUCCESS) {
      tool_error("could not prepare the buffers of %s", c->function);
      ocft_call_free(&call);
      rc = TOOL_EXIT_FAILURE;
      continue;
    }
    double start = tool_clock_ms();
    ocf_status status = ocft_call_device(&call, ctx, NULL);
    if (status == OCF_SUCCESS) status = (ocf_status)clFinish(ocf_context_queue(ctx));
    double ms = tool_clock_ms() - start;
    ocft_call_free(&call);
    if (status != OCF_SUCCESS) {
      char text[1024];
      tool_status_text(text, sizeof text, c->function, status);
      tool_error("%s", text);
      rc = TOOL_EXIT_FAILURE;
      continue;
    }
    printf("first call  %-8s %9.2f ms\n", c->name, ms);
  }
  return rc;
}

/* --op: a comma list of the table's ops and all; 0, or -1 (printed). */
static int parse_ops(const char *text, int ops[TOOL_MAX_OPS]) {
  memset(ops, 0, TOOL_MAX_OPS * sizeof *ops);
  const char *p = text;
  for (;;) {
    size_t length = strcspn(p, ",");
    char name[32] = "";
    if (length < sizeof name) memcpy(name, p, length), name[length] = '\0';
    tool_op op = length < sizeof name ? tool_op_from_name(name) : -1;
    if (op >= 0) {
      ops[op] = 1;
    } else if (length == 3 && !strncmp(p, "all", 3)) {
      for (op = 0; op < tool_op_count(); op++)
        ops[op] = 1;
    } else {
      char names[160];
      ocft_op_names_text(", ", names, sizeof names);
      tool_error("--op wants %s or all, or a comma list, not '%.*s'", names, (int)length, p);
      return -1;
    }
    if (!p[length]) return 0;
    p += length + 1;
  }
}

/* While one op warms up (seconds to minutes on a cold cache), a line every few seconds with the
   time it has taken so far. */
typedef struct heartbeat {
  pthread_mutex_t lock;
  pthread_cond_t done_changed;
  int done;
  size_t step, total;
  const char *op;
  double started_ms;
} heartbeat;

static void *heartbeat_main(void *arg) {
  heartbeat *h = arg;
  pthread_mutex_lock(&h->lock);
  while (!h->done) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 5;
    pthread_cond_timedwait(&h->done_changed, &h->lock, &until);
    if (h->done) break;
    int seconds = (int)((tool_clock_ms() - h->started_ms) / 1e3);
    tool_progress_text("[%zu/%zu] %s: building or loading its programs, %dm%02ds so far", h->step,
                       h->total, h->op, seconds / 60, seconds % 60);
  }
  pthread_mutex_unlock(&h->lock);
  return NULL;
}

/* ocf_warmup of one op, with the heartbeat above unless quiet. */
static ocf_status warm_op(ocf_context *ctx, const char *op, size_t step, size_t total,
                          size_t *plans) {
  heartbeat h;
  memset(&h, 0, sizeof h);
  pthread_mutex_init(&h.lock, NULL);
  pthread_cond_init(&h.done_changed, NULL);
  h.step = step;
  h.total = total;
  h.op = op;
  h.started_ms = tool_clock_ms();
  tool_progress_text("[%zu/%zu] %s: building or loading its programs", step, total, op);
  pthread_t thread;
  int beating = !tool_is_quiet() && pthread_create(&thread, NULL, heartbeat_main, &h) == 0;
  ocf_status status = ocf_warmup(ctx, op, plans);
  pthread_mutex_lock(&h.lock);
  h.done = 1;
  pthread_cond_signal(&h.done_changed);
  pthread_mutex_unlock(&h.lock);
  if (beating) pthread_join(thread, NULL);
  pthread_cond_destroy(&h.done_changed);
  pthread_mutex_destroy(&h.lock);
  return status;
}

int cmd_warmup(int argc, char **argv) {
  const char *device = NULL, *op = NULL;
  int ops[TOOL_MAX_OPS] = {0};
  for (tool_op i = 0; i < tool_op_count(); i++)
    ops[i] = 1;
  int first = 0;
  for (int i = 1; i < argc; i++) {
    const char *v = NULL;
    int r = 0;
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      usage(stdout);
      return TOOL_EXIT_OK;
    } else if (!strcmp(argv[i], "--version")) {
      return tool_print_version();
    } else if (!strcmp(argv[i], "--first-calls")) {
      first = 1;
    } else if (!strcmp(argv[i], "--quiet")) {
      tool_set_quiet(1);
    } else if ((r = tool_option(argc, argv, &i, "--op", &v)) != 0) {
      if (r < 0 || parse_ops(v, ops)) return TOOL_EXIT_USAGE;
      op = v;
    } else if ((r = tool_option(argc, argv, &i, "--device", &v)) != 0) {
      if (r < 0) return TOOL_EXIT_USAGE;
      device = v;
    } else {
      tool_error("unknown option '%s' (see oclfuse warmup --help)", argv[i]);
      return TOOL_EXIT_USAGE;
    }
  }
  double start = tool_clock_ms();
  ocf_context *ctx = NULL;
  int opened = tool_open_context(device, &ctx);
  if (opened != TOOL_EXIT_OK) return opened;
  double created = tool_clock_ms();
  int rc = TOOL_EXIT_OK;
  printf("context     %17.2f ms\n", created - start);
  fflush(stdout);
  if (first) {
    rc = first_calls(ctx, ops);
  } else {
    /* One op at a time, so that a cold cache (minutes on a CPU device) shows progress. */
    size_t plans = 0, step = 0, total = 0;
    for (tool_op i = 0; i < tool_op_count(); i++)
      total += (size_t)ops[i];
    for (tool_op i = 0; i < tool_op_count() && rc == TOOL_EXIT_OK; i++) {
      if (!ops[i]) continue;
      const char *name = tool_op_name(i);
      size_t op_plans = 0;
      double op_start = tool_clock_ms();
      ocf_status status = warm_op(ctx, name, ++step, total, &op_plans);
      double op_ms = tool_clock_ms() - op_start;
      if (status != OCF_SUCCESS) {
        char text[1024];
        tool_status_text(text, sizeof text, "ocf_warmup", status);
        tool_error("%s", text);
        rc = TOOL_EXIT_FAILURE;
      } else {
        tool_progress_clear();
        printf("warm-up     %-8s %9.0f ms, %zu kernel plans (%.0f ms each)\n", name, op_ms,
               op_plans, op_plans ? op_ms / (double)op_plans : 0.0);
        fflush(stdout);
      }
      plans += op_plans;
    }
    tool_progress_clear();
    if (rc == TOOL_EXIT_OK && total > 1)
      printf("warm-up     %-8s %9.0f ms, %zu kernel plans\n", op ? op : "all",
             tool_clock_ms() - created, plans);
  }
  ocf_context_release(ctx);
  return rc;
}
