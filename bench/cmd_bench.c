/*
 * `oclfuse bench`: times the ops against their baselines and the device's measured ceiling.
 *
 * The default run (no --op, no --sizes) is sized by device type: on PoCL with 2 CPU cores
 * within a few minutes; on a large GPU it is the 114 rows of every op's bench_gpu shapes and
 * calls (harness/op_*.c). A GPU estimate (H200): the ceiling and add up to 2^28 elements take
 * well under a second of device time; softmax 8 shapes of at most 1 GiB, likewise; matmul
 * 256..8192 is ~2-3 s for liboclfuse and CLBlast (8192^3 is 1.1 TFLOP, ~50 ms a call, x ~13
 * calls x 3 variants), plus the naive kernel, ~1 s a call at 4096 (cut to 3 repeats, so ~5 s)
 * and skipped at 8192; attention's prefill calls (275 GFLOP at 4 x 32 x 4096^2 x 128) a few
 * ms a call, with their unfused baseline beside them; the host's share is the program builds
 * and the references (calls past 2^32 flops checked on sampled rows, 1-6 s each on one host
 * core). On 2026-12-05 the H200 run had reached 88 of its rows in 140 s, before the sampled
 * references; no complete GPU run is timed yet.
 */
#include "tool.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static void usage(FILE *out) {
  fputs("usage: oclfuse bench [options]\n"
        "\n"
        "Times every op (--op below) on the device (profiling events, median of repeats after\n"
        "warm-up) against their baselines and the same run's ceiling (copy bandwidth, FMA peak).\n"
        "Every variant is checked against the CPU reference first (the error models of\n"
        "`oclfuse check`): a wrong one is reported as wrong and not timed.\n"
        "\n"
        "Each row names the kernel and workgroup size the library chose (the table's\n"
        "kernel/workgroup column, the `plan` field of CSV and JSON). %ceil is the rate as a\n"
        "percentage of the same run's ceiling for the op's own traffic: a stream kernel with\n"
        "two reads and a write (add), a copy (softmax, norm), the FMA peak (matmul,\n"
        "attention), each the best call of several. Above 100 the note says \"cache-resident\"\n"
        "where the call's bytes fit the device's cache (CL_DEVICE_GLOBAL_MEM_CACHE_SIZE), and\n"
        "otherwise that the ceiling kernel reached less than the call. err/tol: the worst\n"
        "error over its tolerance.\n"
        "Rows refused by the device (a workgroup size) or skipped on purpose (a size beyond\n"
        "its memory, a missing CLBlast) carry a note and are not failures; a wrong or failed\n"
        "row is (exit status 1, the report still complete), and so is a run in which no op\n"
        "could be measured at all. SIGINT or SIGTERM (Ctrl-C, timeout) stops the run after the\n"
        "call it is measuring and reports the rows measured so far (JSON: \"interrupted\": true;\n"
        "exit status 1); a second signal ends it at once.\n"
        "\n"
        "options:\n",
        out);
  tool_usage_ops(out);
  fputs("  --sizes CALLS     the calls to time (default: a sweep chosen by device type), in the\n"
        "                    language below, which tune and check take too\n"
        "  --repeat N        timed calls per measurement (default 10 on a GPU, 5 on a CPU;\n"
        "                    calls slower than the time budget get fewer, at least 3)\n"
        "  --flush-mib N     before each timed call, fill a buffer of N MiB so that the call\n"
        "                    finds nothing of the last call in the cache, and time the call from\n"
        "                    the fill's end to its last kernel's end (default 512 on a GPU; 0 on\n"
        "                    a CPU device: calls back to back, each from the previous one's end)\n"
        "  --format F        table (default), csv or json (layout: JSON.md, installed with\n"
        "                    the tool in share/doc/oclfuse)\n"
        "  --plot DIR        also write PNG charts (gnuplot), their data and charts.gp into DIR\n"
        "  --sweep-wg        also time each op at every workgroup size the device allows\n"
        "  --compare A.json [B.json]\n"
        "                    compare two saved runs (--format json) row by row, without a\n"
        "                    device; with one file, run as the other options say and compare\n"
        "                    this run (B) with it (A), printing the comparison instead of the\n"
        "                    report. Per row: both medians, their ratio (above 1: B faster) and\n"
        "                    each run's spread (p90 - p10) / p50 of its repeats; ~ marks a\n"
        "                    ratio within the larger spread. Rows match by op, call, variant\n"
        "                    and workgroup size\n"
        "\n",
        out);
  tool_usage_sizes(out);
  tool_usage_common(out, 1);
}

typedef struct bench_options {
  int ops[TOOL_MAX_OPS]; /* by the harness's table */
  const char *ops_text;
  const char *sizes;
  int repeats;   /* 0: by device type */
  int flush_mib; /* -1: by device type */
  tool_format format;
  const char *plot_dir;
  int sweep_wg;
  const char *device;
  const char *compare_a, *compare_b; /* --compare A [B] */
} bench_options;

static void every_op(bench_options *o) {
  for (tool_op op = 0; op < tool_op_count(); op++)
    o->ops[op] = 1;
}

static int parse_ops(const char *text, bench_options *o) {
  memset(o->ops, 0, sizeof o->ops);
  const char *p = text;
  while (1) {
    size_t len = strcspn(p, ",");
    char name[32] = "";
    if (len < sizeof name) memcpy(name, p, len), name[len] = '\0';
    tool_op op = len < sizeof name ? tool_op_from_name(name) : -1;
    if (op >= 0) {
      o->ops[op] = 1;
    } else if (len == 3 && !strncmp(p, "all", 3)) {
      every_op(o);
    } else {
      char names[160];
      ocft_op_names_text(", ", names, sizeof names);
      tool_error("unknown op '%.*s' (%s or all)", (int)len, p, names);
      return -1;
    }
    if (!p[len]) break;
    p += len + 1;
  }
  o->ops_text = text;
  return 0;
}

/* 0 = parsed, 1 = --help or --version shown, -1 = error (printed). */
static int parse_options(int argc, char **argv, bench_options *o) {
  memset(o, 0, sizeof *o);
  every_op(o);
  o->ops_text = "all";
  o->flush_mib = -1;
  for (int i = 1; i < argc; i++) {
    const char *v = NULL;
    int r = 0;
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      usage(stdout);
      return 1;
    } else if (!strcmp(argv[i], "--sweep-wg")) {
      o->sweep_wg = 1;
    } else if (!strcmp(argv[i], "--version")) {
      tool_print_version();
      return 1;
    } else if (!strcmp(argv[i], "--quiet")) {
      tool_set_quiet(1);
    } else if ((r = tool_option(argc, argv, &i, "--op", &v)) != 0) {
      if (r < 0 || parse_ops(v, o)) return -1;
    } else if ((r = tool_option(argc, argv, &i, "--sizes", &v)) != 0) {
      if (r < 0) return -1;
      o->sizes = v;
    } else if ((r = tool_option(argc, argv, &i, "--repeat", &v)) != 0) {
      if (r < 0) return -1;
      if (tool_parse_count(v, 10000, &o->repeats)) {
        tool_error("--repeat wants a number from 1 to 10000, not '%s'", v);
        return -1;
      }
    } else if ((r = tool_option(argc, argv, &i, "--flush-mib", &v)) != 0) {
      if (r < 0) return -1;
      if (!strcmp(v, "0")) {
        o->flush_mib = 0;
      } else if (tool_parse_count(v, 65536, &o->flush_mib)) {
        tool_error("--flush-mib wants a number from 0 to 65536, not '%s'", v);
        return -1;
      }
    } else if ((r = tool_option(argc, argv, &i, "--format", &v)) != 0) {
      if (r < 0) return -1;
      if (!strcmp(v, "table"))
        o->format = FORMAT_TABLE;
      else if (!strcmp(v, "csv"))
        o->format = FORMAT_CSV;
      else if (!strcmp(v, "json"))
        o->format = FORMAT_JSON;
      else {
        tool_error("unknown format '%s' (table, csv or json)", v);
        return -1;
      }
    } else if ((r = tool_option(argc, argv, &i, "--plot", &v)) != 0) {
      if (r < 0) return -1;
      if (!v[0]) {
        tool_error("--plot needs a directory");
        return -1;
      }
      o->plot_dir = v;
    } else if ((r = tool_option(argc, argv, &i, "--device", &v)) != 0) {
      if (r < 0) return -1;
      o->device = v;
    } else if ((r = tool_option(argc, argv, &i, "--compare", &v)) != 0) {
      if (r < 0) return -1;
      o->compare_a = v;
      /* A second file, when the next argument is not an option. */
      if (i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0) o->compare_b = argv[++i];
    } else {
      tool_error("unknown option '%s' (see oclfuse bench --help)", argv[i]);
      return -1;
    }
  }
  return 0;
}

/* ---- sizes: the calls to measure (the language of spec.c) ---- */

/* The calls of each op, in the table's order. */
typedef struct size_lists {
  tool_spec specs[TOOL_MAX_OPS][TOOL_MAX_SPECS];
  size_t count[TOOL_MAX_OPS];
} size_lists;

static void split_specs(const tool_spec_list *list, size_lists *l) {
  for (tool_op op = 0; op < tool_op_count(); op++)
    l->count[op] = tool_specs_of(list, op, l->specs[op], TOOL_MAX_SPECS);
}

static int parse_sizes(const char *text, const bench_options *o, size_lists *l) {
  static tool_spec_list list; /* large: off the stack */
  char err[256];
  if (tool_specs_parse(text, o->ops, &list, err, sizeof err)) {
    tool_error("--sizes: %s", err);
    return -1;
  }
  split_specs(&list, l);
  return 0;
}

/* Each op's default calls on this device type (the harness's table); 0, or -1 (said) where an
   op's own calls do not parse, which test_spec.c rules out. */
static int default_sizes(int gpu, size_lists *l) {
  memset(l, 0, sizeof *l);
  for (tool_op op = 0; op < tool_op_count(); op++) {
    char err[256];
    const int n = tool_default_specs(op, gpu, l->specs[op], TOOL_MAX_SPECS, err, sizeof err);
    if (n < 0) {
      tool_error("the default calls of %s: %s", tool_op_name(op), err);
      return -1;
    }
    l->count[op] = (size_t)n;
  }
  return 0;
}

/* ---- the run ---- */

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int make_dir(const char *dir) {
  if (mkdir(dir, 0777) == 0 || errno == EEXIST) {
    struct stat st;
    if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) return 0;
  }
  tool_error("cannot use '%s' as the plot directory: %s", dir, strerror(errno ? errno : ENOTDIR));
  return -1;
}

static int any_bad_row(const tool_results *results) {
  for (size_t i = 0; i < results->count; i++)
    if (results->rows[i].status == ROW_WRONG || results->rows[i].status == ROW_FAILED) return 1;
  return 0;
}

/* Whether some op (not the ceiling) got a row measured. */
static int measured_any(const tool_results *results) {
  for (size_t i = 0; i < results->count; i++)
    if (results->rows[i].status == ROW_OK && strcmp(results->rows[i].op, "ceiling") != 0) return 1;
  return 0;
}

/* The rows the run will add, one progress step each (the series in bench_*.c add one row per
   shape and variant, or per workgroup size in the sweep, whether they measure it or skip it). */
static size_t planned_rows(const tool_bench_env *env, const bench_options *o,
                           const size_lists *sizes) {
  size_t rows = 4; /* the ceiling: copy kernel, copy buffer, stream kernel, FMA peak */
  size_t wgs[40];
  size_t with_non_powers = tool_sweep_sizes(env, 1, wgs, sizeof wgs / sizeof wgs[0]);
  size_t powers = tool_sweep_sizes(env, 0, wgs, sizeof wgs / sizeof wgs[0]);
  for (tool_op op = 0; op < tool_op_count(); op++) {
    if (!o->ops[op]) continue;
    rows += tool_series_of(op)->rows_per_call(env, op) * sizes->count[op];
    if (o->sweep_wg) rows += tool_op_case(op)->sweep_non_powers ? with_non_powers : powers;
  }
  return rows;
}

int cmd_bench(int argc, char **argv) {
  bench_options o;
  int parsed = parse_options(argc, argv, &o);
  if (parsed) return parsed > 0 ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
  if (o.compare_b) return tool_compare_files(o.compare_a, o.compare_b);
  static size_lists sizes_given, defaults; /* large: off the stack */
  memset(&sizes_given, 0, sizeof sizes_given);
  if (o.sizes && parse_sizes(o.sizes, &o, &sizes_given)) return TOOL_EXIT_USAGE;
  if (o.plot_dir) {
    /* Without gnuplot the run still writes the data and charts.gp (to draw elsewhere), but
       ends with status 1: the PNGs asked for are missing. */
    if (!tool_gnuplot_available())
      tool_error("gnuplot is not installed or not on PATH (Debian/Ubuntu: "
                 "apt-get install gnuplot-nox): --plot will write data and charts.gp only");
    if (make_dir(o.plot_dir)) return TOOL_EXIT_FAILURE;
  }

  double started = now_seconds();
  tool_stop_on_signals();
  ocf_context *ctx = NULL;
  int opened = tool_open_context(o.device, &ctx);
  if (opened != TOOL_EXIT_OK) return opened;
  tool_bench_env env;
  memset(&env, 0, sizeof env);
  env.ctx = ctx;
  ocf_device_info_init(&env.info);
  ocf_context_device_info(ctx, &env.info);
  env.gpu = (env.info.type & CL_DEVICE_TYPE_GPU) != 0;
  env.max_alloc = tool_max_alloc(env.info.device);
  env.repeats = o.repeats ? o.repeats : env.gpu ? 10 : 5;
  if (default_sizes(env.gpu, &defaults)) {
    ocf_context_release(ctx);
    return TOOL_EXIT_FAILURE;
  }
  const size_lists *sizes = o.sizes ? &sizes_given : &defaults;

  tool_timer timer;
  tool_results results = {NULL, 0, 0};
  tool_ceiling ceiling;
  env.timer = &timer;
  env.results = &results;
  int rc = TOOL_EXIT_FAILURE;
  if (tool_timer_init(&timer, ctx, env.gpu ? 1000.0 : 400.0, tool_is_quiet()) == 0 &&
      tool_timer_set_flush(&timer, tool_flush_bytes(o.flush_mib, env.gpu, env.max_alloc)) == 0) {
    timer.rows = &results;
    size_t planned = planned_rows(&env, &o, sizes);
    tool_note("%s (%s), %s sizes, %d repeats, %s, %zu rows", env.info.device_name,
              tool_device_type_name(env.info.type),
              o.sizes   ? "given"
              : env.gpu ? "default GPU"
                        : "default CPU",
              env.repeats, timer.flush ? "cache flushed before each call" : "calls back to back",
              planned);
    tool_progress_begin(planned);
    int fatal = tool_ceiling_measure(&timer, env.gpu, env.repeats, &results, &ceiling);
    for (tool_op op = 0; !fatal && op < tool_op_count(); op++)
      if (o.ops[op]) fatal = tool_series_of(op)->bench(&env, sizes->specs[op], sizes->count[op]);
    if (!fatal && o.sweep_wg) fatal = tool_bench_sweep(&env, o.ops);
    tool_progress_clear();
    if (tool_stop_requested())
      tool_error("%s: stopped after the call it was measuring; reporting what was measured",
                 tool_stop_signal_name());
    else if (fatal)
      tool_error("stopped early (see above); reporting what was measured");
    tool_results_finish(&results, &ceiling);
    tool_report_meta meta = {&env.info,
                             &ceiling,
                             env.repeats,
                             o.ops_text,
                             o.sweep_wg,
                             timer.flush_bytes,
                             now_seconds() - started,
                             tool_stop_requested()};
    int compared = TOOL_EXIT_OK;
    if (o.compare_a)
      compared = tool_compare_run(o.compare_a, &results, &meta);
    else
      tool_report(stdout, o.format, &results, &meta);
    fflush(stdout);
    rc = fatal || tool_stop_requested() || any_bad_row(&results) ? TOOL_EXIT_FAILURE : compared;
    if (!measured_any(&results)) {
      tool_error("nothing was measured: every row was skipped or failed (see their notes)");
      rc = TOOL_EXIT_FAILURE;
    }
    if (o.plot_dir) {
      if (tool_plot(o.plot_dir, &results, &ceiling, &env.info))
        rc = TOOL_EXIT_FAILURE;
      else
        tool_note("charts written to %s", o.plot_dir);
    }
    tool_timer_release(&timer);
  }
  tool_results_free(&results);
  tool_clblast_release();
  ocf_context_release(ctx);
  return rc;
}
