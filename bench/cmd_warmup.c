/*
 * `oclfuse warmup`: prepares every program the ops need on a device (ocf_warmup), so that the
 * on-disk program cache holds them for later processes; with --first-calls, instead times the
 * first call of each op in this process, which is what a service pays at start-up.
 */
#include "tool.h"

#include <stdlib.h>
#include <string.h>

static void usage(FILE *out) {
  fprintf(out,
          "usage: oclfuse warmup [options]\n"
          "\n"
          "Builds, or loads from the on-disk program cache, every program the ops will need on\n"
          "the device and runs each kernel once on no work, so that later processes find them in\n"
          "the cache (OCLFUSE_CACHE=0 turns the cache off; OCLFUSE_VERBOSE=1 lists each build).\n"
          "\n"
          "options:\n"
          "  --op OP           add, softmax or matmul (default: every op)\n"
          "  --first-calls     do not warm up: time the first call of each op in this process\n"
          "                    (small shapes, wall clock, up to the call's completion)\n");
  tool_usage_common(out, 1);
}

/* The first call of each op on a small problem, in wall-clock milliseconds. */
static int first_calls(ocf_context *ctx, const char *only) {
  enum { N = 4096, R = 64, C = 1000, M = 128 };
  float *host = malloc(sizeof(float) * N * 3);
  if (!host) return TOOL_EXIT_FAILURE;
  ocft_fill_uniform(host, N * 3, -1.0f, 1.0f, 11);
  cl_mem a = tool_buffer(ctx, N, host), b = tool_buffer(ctx, N, host + N);
  cl_mem c = tool_buffer(ctx, (size_t)R * C, NULL), d = tool_buffer(ctx, (size_t)R * C, NULL);
  int rc = 0;
  for (int op = 0; op < 3 && a && b && c && d; op++) {
    const char *name = op == 0 ? "add" : op == 1 ? "softmax" : "matmul";
    if (only && strcmp(only, name)) continue;
    double start = tool_clock_ms();
    ocf_status status;
    if (op == 0)
      status = ocf_add(ctx, N, a, 0, b, 0, c, 0, NULL);
    else if (op == 1)
      status = ocf_softmax(ctx, R, C, c, 0, C, d, 0, C, NULL);
    else
      status = ocf_matmul(ctx, OCF_NO_TRANS, OCF_NO_TRANS, M, M / 4, M / 4, 1.0f, a, 0, M / 4, b, 0,
                          M / 4, 0.0f, c, 0, M / 4, NULL);
    if (status == OCF_SUCCESS) status = (ocf_status)clFinish(ocf_context_queue(ctx));
    double ms = tool_clock_ms() - start;
    if (status != OCF_SUCCESS) {
      char text[1024];
      tool_status_text(text, sizeof text,
                       op == 0   ? "ocf_add"
                       : op == 1 ? "ocf_softmax"
                                 : "ocf_matmul",
                       status);
      tool_error("%s", text);
      rc = TOOL_EXIT_FAILURE;
      continue;
    }
    printf("first call  %-8s %9.2f ms\n", name, ms);
  }
  if (!a || !b || !c || !d) rc = TOOL_EXIT_FAILURE;
  cl_mem buffers[] = {a, b, c, d};
  for (size_t i = 0; i < 4; i++)
    if (buffers[i]) clReleaseMemObject(buffers[i]);
  free(host);
  return rc;
}

int cmd_warmup(int argc, char **argv) {
  const char *device = NULL, *op = NULL;
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
      if (r < 0) return TOOL_EXIT_USAGE;
      if (strcmp(v, "add") && strcmp(v, "softmax") && strcmp(v, "matmul")) {
        tool_error("--op wants add, softmax or matmul, not '%s'", v);
        return TOOL_EXIT_USAGE;
      }
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
    rc = first_calls(ctx, op);
  } else {
    /* One op at a time, so that a cold cache (minutes on a CPU device) shows progress. */
    static const char *const ops[] = {"add", "softmax", "matmul"};
    size_t plans = 0, step = 0;
    tool_progress_begin(op ? 1 : 3);
    for (size_t i = 0; i < 3 && rc == TOOL_EXIT_OK; i++) {
      if (op && strcmp(op, ops[i])) continue;
      tool_progress_step(++step, "%s: building its programs, or loading them from the cache",
                         ops[i]);
      size_t op_plans = 0;
      ocf_status status = ocf_warmup(ctx, ops[i], &op_plans);
      if (status != OCF_SUCCESS) {
        char text[1024];
        tool_status_text(text, sizeof text, "ocf_warmup", status);
        tool_error("%s", text);
        rc = TOOL_EXIT_FAILURE;
      }
      plans += op_plans;
    }
    tool_progress_clear();
    if (rc == TOOL_EXIT_OK)
      printf("warm-up     %-8s %9.0f ms, %zu kernel plans\n", op ? op : "all",
             tool_clock_ms() - created, plans);
  }
  ocf_context_release(ctx);
  return rc;
}
