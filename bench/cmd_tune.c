/*
 * `oclfuse tune`: searches each op's tunables per shape class on the chosen device and writes the
 * winners to the user's tuning database, which every later context on that device reads.
 *
 * For each (op, class) the search (tuner.c) starts from the choice in force without a user
 * database (built-in rows and shipped databases) and times candidates on the class's
 * representative shapes through the same path as `oclfuse bench`: every candidate is checked
 * against the CPU reference first, and a wrong one never wins. A class keeps the built-in choice
 * unless a candidate beats it by 2 % on the geometric mean of the class's shapes and is no more
 * than 2 % slower on any one of them (on the H200, a tile set 16 % faster on one ragged shape and
 * 16 % slower on another would otherwise win), so no class gets slower. The budget is shared by the
 * classes left; progress (every measured candidate) goes to <database>.progress, so an
 * interrupted run resumes where it stopped, and the database is rewritten after each class.
 */
#include "tool.h"

#include "oclfuse_internal.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *out) {
  fprintf(
      out,
      "usage: oclfuse tune [options]\n"
      "\n"
      "Searches each op's tunables (workgroup sizes, vector widths, tile sets, kernel choices)\n"
      "for every shape class on the device, checking every candidate against the CPU\n"
      "reference before timing it, and writes the winners to the user's tuning database\n"
      "($OCLFUSE_TUNING_DIR, else $XDG_CACHE_HOME/oclfuse, else ~/.cache/oclfuse), which\n"
      "every later program on this device, driver and library version reads.\n"
      "\n"
      "options:\n");
  tool_usage_ops(out);
  fprintf(out,
          "  --sizes CALLS     tune for these calls (the language of `oclfuse bench --help`,\n"
          "                    data types and every op's options included) instead of each\n"
          "                    class's representative shapes: the calls are grouped by the\n"
          "                    database's key, (op, data type, shape class), each group's first\n"
          "                    4 are timed together, and the winners are written as the entries\n"
          "                    of those keys, which every call of that op, type and class then\n"
          "                    uses (--show names the classes); other entries are kept\n"
          "  --budget SECONDS  time for the whole search (default 240 on a GPU, 600 on a CPU);\n"
          "                    a class keeps the best found so far when it runs out\n"
          "  --build-threads N compile candidates' programs on N threads while the main thread\n"
          "                    times (serially, with nothing else on the device); default: one\n"
          "                    less than the host's cores on a GPU, 0 on a CPU device (whose\n"
          "                    cores run the timed kernels). Needs the disk program cache\n"
          "  --fresh           ignore the progress of an interrupted run and start over\n"
          "  --show            print the tuning in force for the device and exit\n"
          "  --list            print every op's tunables, ranges and shape classes and exit\n");
  tool_usage_common(out, 1);
  fputs("Nothing beating the built-in choice is not a failure; no class measured at all is.\n",
        out);
}

enum { POOL_MAX_WORKERS = 64 }; /* build threads at most */

typedef struct tune_options {
  int ops[TOOL_MAX_OPS]; /* by the harness's table, whose ops are the library's (in order) */
  const char *sizes;
  int build_threads; /* -1: by device type */
  double budget_s;   /* 0: by device type */
  int fresh, show, list;
  const char *device;
} tune_options;

static int parse_ops(const char *text, tune_options *o) {
  memset(o->ops, 0, sizeof o->ops);
  const char *p = text;
  for (;;) {
    size_t length = strcspn(p, ",");
    char name[16];
    if (length == 0 || length >= sizeof name) goto bad;
    memcpy(name, p, length);
    name[length] = '\0';
    if (!strcmp(name, "all")) {
      for (tool_op op = 0; op < tool_op_count(); op++)
        o->ops[op] = 1;
    } else {
      tool_op op = tool_op_from_name(name);
      if (op < 0 || op >= OCF_OP_COUNT) goto bad;
      o->ops[op] = 1;
    }
    if (!p[length]) return 0;
    p += length + 1;
  }
bad:;
  char names[160];
  ocft_op_names_text(", ", names, sizeof names);
  tool_error("--op wants %s or all, not '%s'", names, text);
  return -1;
}

/* 0 parsed, 1 help or version shown, -1 error (printed). */
static int parse_options(int argc, char **argv, tune_options *o) {
  memset(o, 0, sizeof *o);
  o->build_threads = -1;
  for (tool_op op = 0; op < tool_op_count(); op++)
    o->ops[op] = 1;
  for (int i = 1; i < argc; i++) {
    const char *v = NULL;
    int r = 0;
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      usage(stdout);
      return 1;
    } else if (!strcmp(argv[i], "--fresh")) {
      o->fresh = 1;
    } else if (!strcmp(argv[i], "--show")) {
      o->show = 1;
    } else if (!strcmp(argv[i], "--list")) {
      o->list = 1;
    } else if (!strcmp(argv[i], "--version")) {
      tool_print_version();
      return 1;
    } else if (!strcmp(argv[i], "--quiet")) {
      tool_set_quiet(1);
    } else if ((r = tool_option(argc, argv, &i, "--op", &v)) != 0) {
      if (r < 0 || parse_ops(v, o)) return -1;
    } else if ((r = tool_option(argc, argv, &i, "--build-threads", &v)) != 0) {
      if (r < 0) return -1;
      if (!strcmp(v, "0")) {
        o->build_threads = 0;
      } else if (tool_parse_count(v, POOL_MAX_WORKERS, &o->build_threads)) {
        tool_error("--build-threads wants a number from 0 to %d, not '%s'", POOL_MAX_WORKERS, v);
        return -1;
      }
    } else if ((r = tool_option(argc, argv, &i, "--sizes", &v)) != 0) {
      if (r < 0) return -1;
      o->sizes = v;
    } else if ((r = tool_option(argc, argv, &i, "--budget", &v)) != 0) {
      int seconds = 0;
      if (r < 0) return -1;
      if (tool_parse_count(v, 86400, &seconds)) {
        tool_error("--budget wants seconds from 1 to 86400, not '%s'", v);
        return -1;
      }
      o->budget_s = seconds;
    } else if ((r = tool_option(argc, argv, &i, "--device", &v)) != 0) {
      if (r < 0) return -1;
      o->device = v;
    } else {
      tool_error("unknown option '%s' (see oclfuse tune --help)", argv[i]);
      return -1;
    }
  }
  return 0;
}

/* ---- representative shapes of each class ---- */

enum { MAX_CLASS_SHAPES = TUNE_MAX_SHAPES };

typedef struct class_shapes {
  tool_spec shapes[MAX_CLASS_SHAPES];
  int count;
} class_shapes;

/* The tool's op numbers are the library's (tuning/tuning.h). */
_Static_assert((int)TOOL_OP_ADD == (int)OCF_OP_ADD && (int)TOOL_OP_SOFTMAX == (int)OCF_OP_SOFTMAX &&
                   (int)TOOL_OP_MATMUL == (int)OCF_OP_MATMUL,
               "tool_op and ocf_op differ");

/* The shapes that stand for a class: the op case's (harness/op_<op>.c, tune_shapes). */
static void representative_shapes(ocf_op op, unsigned shape_class, int gpu, class_shapes *out) {
  memset(out, 0, sizeof *out);
  const ocft_op_case *c = ocft_op_at((size_t)op);
  if (!c || !c->tune_shapes) return;
  size_t d[OCFT_TUNE_SHAPES][OCFT_MAX_DIMS];
  memset(d, 0, sizeof d);
  const size_t count = c->tune_shapes(shape_class, gpu, d);
  for (size_t i = 0; i < count && i < OCFT_TUNE_SHAPES && out->count < MAX_CLASS_SHAPES; i++) {
    tool_spec *spec = &out->shapes[out->count++];
    tool_spec_init(spec, (tool_op)op);
    memcpy(spec->d, d[i], sizeof spec->d);
    spec->ndims = c->ndims;
  }
}

/* ---- the build pool: candidates' programs compiled on the host's cores, timing serial ---- */

/*
 * Each worker takes a candidate, opens a context of its own on the device, sets the candidate's
 * values there and enqueues the class's calls on fresh buffers behind a user event (a gate), so
 * that the library builds every program the candidate's calls need, then releases the context,
 * which stores the binaries in the on-disk program cache. The kernels wait behind their gate
 * until the main thread, between two measurements, opens it and waits for them: nothing runs on
 * the device while a candidate is timed. The timing context then loads those programs from the
 * disk cache instead of compiling them. A candidate that comes up for measurement before a
 * worker took it is simply built by the timing context, as without a pool.
 */
enum { POOL_MAX_JOBS = 64, POOL_MAX_GATES = 256 };

typedef enum job_state { JOB_QUEUED, JOB_BUILDING, JOB_BUILT, JOB_TAKEN } job_state;

typedef struct pool_job {
  char values[2048];
  job_state state;
} pool_job;

typedef struct build_pool {
  pthread_mutex_t lock;
  pthread_cond_t changed;
  pthread_t threads[POOL_MAX_WORKERS];
  int workers, stop;
  const char *device; /* --device, or NULL */
  /* The class being tuned, set by the main thread while no job builds. */
  ocf_op op;
  ocf_dtype dtype;
  unsigned shape_class;
  class_shapes shapes;
  pool_job jobs[POOL_MAX_JOBS];
  size_t job_count;
  struct gate {
    cl_event event;
    cl_command_queue queue;
    ocf_context *ctx; /* released once its calls ran: it stores their binaries on disk then */
  } gates[POOL_MAX_GATES];
  size_t gate_count;
  int built;        /* candidates a worker prepared */
  double worker_ms; /* their time, summed over workers */
} build_pool;

static pool_job *pool_find(build_pool *pool, const char *values) {
  for (size_t i = 0; i < pool->job_count; i++)
    if (!strcmp(pool->jobs[i].values, values)) return &pool->jobs[i];
  return NULL;
}

/* One candidate's calls on a context of its own; the gates go to the pool. */
static void pool_build(build_pool *pool, const char *values, ocf_op op, ocf_dtype dtype,
                       unsigned shape_class, const class_shapes *shapes) {
  ocf_context *ctx = NULL;
  if (ocf_context_create(pool->device, &ctx) != OCF_SUCCESS) return;
  ocf_device_info info;
  ocf_device_info_init(&info);
  ocf_context_device_info(ctx, &info);
  cl_int e = CL_SUCCESS;
  cl_command_queue queue = clCreateCommandQueue(ocf_context_cl_context(ctx), info.device, 0, &e);
  cl_event gate = e == CL_SUCCESS ? clCreateUserEvent(ocf_context_cl_context(ctx), &e) : NULL;
  if (gate &&
      ocf_context_set_tuning(ctx, ocf_op_schema_get(op)->name, dtype,
                             ocf_shape_class_name(op, shape_class), values) == OCF_SUCCESS) {
    for (int i = 0; i < shapes->count; i++) {
      ocf_launch launch = OCF_LAUNCH_INIT;
      launch.queue = queue;
      launch.num_wait_events = 1;
      launch.wait_events = &gate;
      char err[256];
      const tool_spec *spec = &shapes->shapes[i];
      tool_series_of(spec->op)->enqueue_bare(ctx, spec, &launch, err, sizeof err);
    }
  }
  /* The context lives until its calls have run (pool_open_gates): its programs and kernels stay
     referenced by those calls behind the gate, and releasing it then stores what it built in
     the disk cache, before the candidate is measured. (Released here, with its calls still
     waiting for the gate, the pool crashed on the H200 when the gate opened; kept, it runs.) */
  int kept = 0;
  pthread_mutex_lock(&pool->lock);
  if (gate && pool->gate_count < POOL_MAX_GATES) {
    pool->gates[pool->gate_count].event = gate;
    pool->gates[pool->gate_count].queue = queue;
    pool->gates[pool->gate_count++].ctx = ctx;
    kept = 1;
  }
  pthread_mutex_unlock(&pool->lock);
  if (kept) return; /* pool_open_gates releases all three */
  if (gate) {       /* no room among the gates: let its kernels run now (rare) */
    clSetUserEventStatus(gate, CL_COMPLETE);
    clFinish(queue);
    clReleaseEvent(gate);
  }
  if (queue) clReleaseCommandQueue(queue);
  ocf_context_release(ctx);
}

static void *pool_worker(void *arg) {
  build_pool *pool = arg;
  pthread_mutex_lock(&pool->lock);
  for (;;) {
    pool_job *job = NULL;
    for (size_t i = 0; i < pool->job_count && !job; i++)
      if (pool->jobs[i].state == JOB_QUEUED) job = &pool->jobs[i];
    if (pool->stop) break;
    if (!job) {
      pthread_cond_wait(&pool->changed, &pool->lock);
      continue;
    }
    job->state = JOB_BUILDING;
    char values[2048];
    snprintf(values, sizeof values, "%s", job->values);
    ocf_op op = pool->op;
    ocf_dtype dtype = pool->dtype;
    unsigned shape_class = pool->shape_class;
    class_shapes shapes = pool->shapes;
    pthread_mutex_unlock(&pool->lock);
    double started = tool_clock_ms();
    pool_build(pool, values, op, dtype, shape_class, &shapes);
    pthread_mutex_lock(&pool->lock);
    pool->worker_ms += tool_clock_ms() - started;
    pool->built++;
    job = pool_find(pool, values);
    if (job) job->state = JOB_BUILT;
    pthread_cond_broadcast(&pool->changed);
  }
  pthread_mutex_unlock(&pool->lock);
  return NULL;
}

/* Lets the kernels the workers left behind their gates run, and waits for them (main thread,
   between measurements). */
static void pool_open_gates(build_pool *pool) {
  pthread_mutex_lock(&pool->lock);
  size_t count = pool->gate_count;
  struct gate gates[POOL_MAX_GATES];
  memcpy(gates, pool->gates, count * sizeof gates[0]);
  pool->gate_count = 0;
  pthread_mutex_unlock(&pool->lock);
  for (size_t i = 0; i < count; i++) {
    clSetUserEventStatus(gates[i].event, CL_COMPLETE);
    clFinish(gates[i].queue);
    clReleaseEvent(gates[i].event);
    clReleaseCommandQueue(gates[i].queue);
    ocf_context_release(gates[i].ctx);
  }
}

/* Starts `workers` threads; 0, or -1 when none could start (the tuner then builds alone). */
static int pool_start(build_pool *pool, int workers, const char *device) {
  memset(pool, 0, sizeof *pool);
  pthread_mutex_init(&pool->lock, NULL);
  pthread_cond_init(&pool->changed, NULL);
  pool->device = device;
  for (int i = 0; i < workers && i < POOL_MAX_WORKERS; i++)
    if (pthread_create(&pool->threads[pool->workers], NULL, pool_worker, pool) == 0)
      pool->workers++;
  return pool->workers ? 0 : -1;
}

static void pool_stop(build_pool *pool) {
  pthread_mutex_lock(&pool->lock);
  pool->stop = 1;
  pthread_cond_broadcast(&pool->changed);
  pthread_mutex_unlock(&pool->lock);
  for (int i = 0; i < pool->workers; i++)
    pthread_join(pool->threads[i], NULL);
  pool_open_gates(pool);
  pthread_cond_destroy(&pool->changed);
  pthread_mutex_destroy(&pool->lock);
}

/* A new class: drops the queued candidates of the last one (waiting for those being built). */
static void pool_begin_class(build_pool *pool, ocf_op op, ocf_dtype dtype, unsigned shape_class,
                             const class_shapes *shapes) {
  pthread_mutex_lock(&pool->lock);
  for (;;) {
    int building = 0;
    for (size_t i = 0; i < pool->job_count; i++)
      building |= pool->jobs[i].state == JOB_BUILDING;
    if (!building) break;
    pthread_cond_wait(&pool->changed, &pool->lock);
  }
  pool->job_count = 0;
  pool->op = op;
  pool->dtype = dtype;
  pool->shape_class = shape_class;
  pool->shapes = *shapes;
  pthread_mutex_unlock(&pool->lock);
  pool_open_gates(pool);
}

/* Queues candidates not seen before in this class. */
static void pool_prepare(build_pool *pool, const char *const *values, int count) {
  pthread_mutex_lock(&pool->lock);
  for (int i = 0; i < count; i++) {
    if (pool_find(pool, values[i])) continue;
    if (pool->job_count == POOL_MAX_JOBS) { /* forget finished jobs to make room */
      size_t kept = 0;
      for (size_t j = 0; j < pool->job_count; j++)
        if (pool->jobs[j].state == JOB_QUEUED || pool->jobs[j].state == JOB_BUILDING)
          pool->jobs[kept++] = pool->jobs[j];
      pool->job_count = kept;
      if (kept == POOL_MAX_JOBS) break;
    }
    pool_job *job = &pool->jobs[pool->job_count++];
    snprintf(job->values, sizeof job->values, "%s", values[i]);
    job->state = JOB_QUEUED;
  }
  pthread_cond_broadcast(&pool->changed);
  pthread_mutex_unlock(&pool->lock);
}

/* Before `values` is measured: its build, if a worker has it, is waited for; if still queued, it
   is taken back (the timing context builds it); then the gates open. */
static void pool_before_measure(build_pool *pool, const char *values) {
  pthread_mutex_lock(&pool->lock);
  pool_job *job = pool_find(pool, values);
  if (job && job->state == JOB_QUEUED) job->state = JOB_TAKEN;
  while ((job = pool_find(pool, values)) && job->state == JOB_BUILDING)
    pthread_cond_wait(&pool->changed, &pool->lock);
  pthread_mutex_unlock(&pool->lock);
  pool_open_gates(pool);
}

/* ---- measuring a candidate ---- */

typedef struct tune_state {
  tool_bench_env *env;
  ocf_op op;
  unsigned shape_class;
  ocf_dtype dtype;
  class_shapes shapes;
  /* The class's name in the progress file: the class itself for its representative shapes,
     "class@dtype#hash" for a user's calls (--sizes), whose times are of other shapes. */
  char key[64];
  FILE *progress_file;
  const char *progress_path;
  /* What an interrupted run measured for this class, read back from the progress file. */
  struct tried {
    char values[2048];
    tune_result result;
  } * tried;
  size_t tried_count;
  /* The kernel and workgroup each candidate measured here ran with (its first shape's plan). */
  struct planned {
    char values[2048];
    char kernel[64];
  } * plans;
  size_t plan_count;
  double started_ms, deadline_ms;
  build_pool *pool; /* NULL: no build pool */
} tune_state;

/* Remembers the kernel a candidate's first shape ran, for the summary. */
static void keep_plan(tune_state *s, const char *values, const tool_results *results) {
  if (results->count == 0 || results->rows[0].status != ROW_OK) return;
  void *grown = realloc(s->plans, (s->plan_count + 1) * sizeof *s->plans);
  if (!grown) return; /* the summary then says "-" */
  s->plans = grown;
  struct planned *p = &s->plans[s->plan_count++];
  snprintf(p->values, sizeof p->values, "%s", values);
  tool_plan_brief(results->rows[0].plan, p->kernel, sizeof p->kernel);
}

static const char *plan_of(const tune_state *s, const char *values) {
  for (size_t i = 0; i < s->plan_count; i++)
    if (!strcmp(s->plans[i].values, values)) return s->plans[i].kernel;
  return NULL;
}

static int find_tried(const tune_state *s, const char *values, tune_result *result) {
  for (size_t i = 0; i < s->tried_count; i++)
    if (!strcmp(s->tried[i].values, values)) {
      *result = s->tried[i].result;
      return 1;
    }
  return 0;
}

/* Times the class's shapes with `values` set on the context for this op and class. */
static void measure_candidate(void *user, const char *values, tune_result *result) {
  tune_state *s = user;
  if (find_tried(s, values, result)) return;
  if (s->pool) pool_before_measure(s->pool, values);
  memset(result, 0, sizeof *result);
  result->outcome = TUNE_FAILED;
  result->score_ms = INFINITY;
  const char *op_name = ocf_op_schema_get(s->op)->name;
  const char *class_name = ocf_shape_class_name(s->op, s->shape_class);
  if (ocf_context_set_tuning(s->env->ctx, op_name, s->dtype, class_name, values) != OCF_SUCCESS)
    goto record;
  tool_results results = {NULL, 0, 0};
  s->env->results = &results;
  int fatal = 0;
  for (int i = 0; i < s->shapes.count && !fatal; i++) {
    const tool_spec *shape = &s->shapes.shapes[i];
    /* The op's series (its own, or the generic one: norm timed as matmul before). */
    fatal = tool_series_of((tool_op)s->op)->bench(s->env, shape, 1);
  }
  double log_sum = 0.0;
  int timed = 0, wrong = 0;
  for (size_t i = 0; i < results.count; i++) {
    const tool_row *row = &results.rows[i];
    if (row->status == ROW_WRONG) wrong = 1;
    if (row->status == ROW_OK && row->median_ms > 0.0) {
      log_sum += log(row->median_ms);
      if (timed < TUNE_MAX_SHAPES) result->shape_ms[timed] = row->median_ms;
      timed++;
    }
  }
  keep_plan(s, values, &results);
  tool_results_free(&results);
  s->env->results = NULL;
  if (wrong) {
    result->outcome = TUNE_WRONG;
  } else if (!fatal && timed == s->shapes.count && timed > 0) {
    result->outcome = TUNE_OK;
    result->score_ms = exp(log_sum / timed);
    result->shapes = timed < TUNE_MAX_SHAPES ? timed : TUNE_MAX_SHAPES;
  }
record:
  if (s->progress_file) {
    fprintf(s->progress_file, "tried %s %s %s %.6g %d", op_name, s->key,
            result->outcome == TUNE_OK      ? "ok"
            : result->outcome == TUNE_WRONG ? "wrong"
                                            : "failed",
            result->score_ms, result->shapes);
    for (int i = 0; i < result->shapes; i++)
      fprintf(s->progress_file, " %.6g", result->shape_ms[i]);
    fprintf(s->progress_file, " %s\n", values);
    fflush(s->progress_file);
  }
}

static void report_progress(void *user, int done, int planned, const char *values,
                            const tune_result *result, double best_ms) {
  tune_state *s = user;
  double left_s = (s->deadline_ms - tool_clock_ms()) / 1e3;
  if (left_s < 0) left_s = 0;
  char outcome[48];
  if (result->outcome == TUNE_OK)
    snprintf(outcome, sizeof outcome, "%.4g ms", result->score_ms);
  else
    snprintf(outcome, sizeof outcome, "%s", result->outcome == TUNE_WRONG ? "WRONG" : "failed");
  /* The time left is what the class's share of the budget allows: at most that. */
  tool_progress_text("[%d/%d] %s %s, at most %dm%02ds left: %s (best %.4g ms) %.60s%s", done,
                     planned > done ? planned : done, ocf_op_schema_get(s->op)->name, s->key,
                     (int)left_s / 60, (int)left_s % 60, outcome, best_ms, values,
                     strlen(values) > 60 ? "..." : "");
}

static void prepare_candidates(void *user, const char *const *values, int count) {
  tune_state *s = user;
  if (!s->pool) return;
  const char *fresh[32];
  int n = 0;
  tune_result known;
  for (int i = 0; i < count && n < 32; i++)
    if (!find_tried(s, values[i], &known)) fresh[n++] = values[i];
  pool_prepare(s->pool, fresh, n);
}

/* ---- progress file: "tried <op> <class> <ok|wrong|failed> <ms> <n> <n shape ms> <values>" ---- */

static void load_progress(const char *path, const char *header, tune_state *s) {
  FILE *f = fopen(path, "r");
  if (!f) return;
  char line[4096];
  if (!fgets(line, sizeof line, f) || strcmp(line, header) != 0) { /* another device/version */
    fclose(f);
    return;
  }
  while (fgets(line, sizeof line, f)) {
    char op[16], cls[32], outcome[16];
    tune_result result;
    memset(&result, 0, sizeof result);
    int consumed = 0;
    /* A line without the shape count (an older run's) is measured again. */
    if (sscanf(line, "tried %15s %31s %15s %lf %d %n", op, cls, outcome, &result.score_ms,
               &result.shapes, &consumed) != 5 ||
        result.shapes < 0 || result.shapes > TUNE_MAX_SHAPES)
      continue;
    if (strcmp(op, ocf_op_schema_get(s->op)->name) || strcmp(cls, s->key)) continue;
    const char *at = line + consumed;
    int shapes_read = 0;
    for (int i = 0; i < result.shapes; i++) {
      char *end = NULL;
      result.shape_ms[i] = strtod(at, &end);
      if (end == at) break;
      at = end;
      shapes_read++;
    }
    if (shapes_read != result.shapes) continue;
    at += strspn(at, " ");
    void *grown = realloc(s->tried, (s->tried_count + 1) * sizeof *s->tried);
    if (!grown) break;
    s->tried = grown;
    struct tried *t = &s->tried[s->tried_count];
    snprintf(t->values, sizeof t->values, "%s", at);
    t->values[strcspn(t->values, "\n")] = '\0';
    result.outcome = !strcmp(outcome, "ok")      ? TUNE_OK
                     : !strcmp(outcome, "wrong") ? TUNE_WRONG
                                                 : TUNE_FAILED;
    t->result = result;
    s->tried_count++;
  }
  fclose(f);
}

/* ---- --show ---- */

static int show_tuning(ocf_context *ctx, const ocf_device_info *info, const tune_options *o) {
  char path[4096] = "(no cache folder)";
  ocf_tuning_database_path(ctx, path, sizeof path);
  printf("device   %s (%s), driver %s\n", info->device_name, info->vendor, info->driver_version);
  printf("database %s\n", path);
  printf("in force %s\n", ocf_context_tuning_origin(ctx));
  for (int op = 0; op < OCF_OP_COUNT; op++) {
    if (!o->ops[op]) continue;
    const char *name = ocf_op_schema_get((ocf_op)op)->name;
    printf("\n%s (f32)\n", name);
    for (unsigned c = 0; c < ocf_shape_class_count((ocf_op)op); c++) {
      char values[2048];
      const char *cls = ocf_shape_class_name((ocf_op)op, c);
      if (ocf_context_get_tuning(ctx, name, OCF_F32, cls, values, sizeof values) != OCF_SUCCESS)
        snprintf(values, sizeof values, "(%s)", ocf_last_error());
      printf("  %-8s %-58s\n           %s\n", cls, ocf_shape_class_doc((ocf_op)op, c), values);
    }
  }
  return 0;
}

/* ---- --list: the schemas ---- */

static int list_tunables(const tune_options *o) {
  for (int op = 0; op < OCF_OP_COUNT; op++) {
    if (!o->ops[op]) continue;
    const ocf_op_schema *schema = ocf_op_schema_get((ocf_op)op);
    printf("%s tunables (name, range, default without a tuning row):\n", schema->name);
    for (unsigned i = 0; i < schema->count; i++) {
      const ocf_tunable *t = &schema->tunables[i];
      printf("  %-16s %5d .. %-6d%s default %-5d %s\n", t->name, t->min, t->max,
             t->pow2 ? " pow2" : "     ", t->fallback, t->doc);
    }
    printf("  rules:");
    for (unsigned r = 0; r < schema->rule_count; r++) {
      const char *why = schema->rules[r].why;
      int repeated = 0;
      for (unsigned e = 0; e < r; e++)
        repeated = repeated || !strcmp(schema->rules[e].why, why);
      if (!repeated) printf("%s %s", r ? ";" : "", why);
    }
    printf("%s\n  shape classes:\n", schema->rule_count ? "" : " none");
    for (unsigned c = 0; c < ocf_shape_class_count((ocf_op)op); c++)
      printf("    %-8s %s\n", ocf_shape_class_name((ocf_op)op, c),
             ocf_shape_class_doc((ocf_op)op, c));
    printf("\n");
  }
  return 0;
}

/* ---- the run ---- */

typedef struct class_outcome {
  ocf_op op;
  unsigned shape_class;
  ocf_dtype dtype;
  class_shapes user;   /* --sizes: the user's calls of this op, data type and class (count 0: the
                          class's representative shapes) */
  size_t user_dropped; /* calls of the class beyond MAX_CLASS_SHAPES, not timed */
  tune_summary summary;
  int measured;
  char kernel[64]; /* the kernel/workgroup the chosen values ran, "" when not seen this run */
} class_outcome;

/* The tuning key of a call: the data type and shape class the library looks its values up by,
   by the op's own rule (its registry row, through ocf_op_tuning_key), for the call's sizes and
   the storage type of its first input. */
static void key_of(const tool_spec *s, ocf_dtype *dtype, unsigned *shape_class) {
  *dtype = OCF_F32;
  *shape_class = 0;
  ocf_op_tuning_key((ocf_op)s->op, s->d, tool_spec_dtype(s), dtype, shape_class);
}

/* --sizes: one outcome per tuning key, with the user's calls of that key as its shapes. */
static size_t group_calls(const tool_spec_list *specs, class_outcome *outcomes) {
  size_t count = 0;
  for (size_t i = 0; i < specs->count; i++) {
    const tool_spec *s = &specs->specs[i];
    ocf_dtype dtype;
    unsigned shape_class;
    key_of(s, &dtype, &shape_class);
    size_t g = 0;
    while (g < count && !(outcomes[g].op == (ocf_op)s->op && outcomes[g].dtype == dtype &&
                          outcomes[g].shape_class == shape_class))
      g++;
    if (g == count) {
      memset(&outcomes[count], 0, sizeof outcomes[0]);
      outcomes[count].op = (ocf_op)s->op;
      outcomes[count].dtype = dtype;
      outcomes[count++].shape_class = shape_class;
    }
    class_shapes *user = &outcomes[g].user;
    if (user->count < MAX_CLASS_SHAPES)
      user->shapes[user->count++] = *s;
    else
      outcomes[g].user_dropped++;
  }
  return count;
}

/* The progress file's name of a user's key: "large@bf16#<hash of the calls>", so that a run with
   other calls (or the class's own shapes) does not take these times for its own. */
static void progress_key(const class_outcome *c, char *out, size_t capacity) {
  unsigned long long hash = 14695981039346656037ull;
  for (int i = 0; i < c->user.count; i++) {
    char text[256];
    tool_spec_text(&c->user.shapes[i], text, sizeof text);
    hash = ocf_fnv1a(hash, text, strlen(text) + 1);
  }
  snprintf(out, capacity, "%s@%s#%08llx", ocf_shape_class_name(c->op, c->shape_class),
           ocf_dtype_name(c->dtype), hash & 0xffffffffull);
}

/* The tuned classes' values as a database for the device; 0, or -1 (printed). */
static int write_database(const char *path, const ocf_device_info *info,
                          const class_outcome *outcomes, size_t count) {
  ocf_tuning_db db;
  memset(&db, 0, sizeof db);
  snprintf(db.library, sizeof db.library, "%s", ocf_version_string());
  snprintf(db.vendor, sizeof db.vendor, "%s", info->vendor);
  snprintf(db.device, sizeof db.device, "%s", info->device_name);
  snprintf(db.driver, sizeof db.driver, "%s", info->driver_version);
  int failed = 0;
  /* What the database already holds for this device, driver and library is kept, but for the
     (op, data type, class) entries this run measured: a run with --sizes adds to a full tune. */
  ocf_tuning_db old;
  memset(&old, 0, sizeof old);
  size_t old_length = 0;
  char *old_text = NULL;
  if (ocf_read_file(path, OCF_TUNING_DB_MAX_BYTES, &old_text, &old_length) == 0 && old_text &&
      ocf_tuning_db_parse(old_text, old_length, &old) == OCF_SUCCESS &&
      !strcmp(old.library, db.library) && !strcmp(old.vendor, db.vendor) &&
      !strcmp(old.device, db.device) && !strcmp(old.driver, db.driver)) {
    for (size_t e = 0; e < old.entry_count && !failed; e++) {
      const ocf_tuning_entry *entry = &old.entries[e];
      int replaced = 0;
      for (size_t i = 0; i < count; i++)
        replaced = replaced || (outcomes[i].measured && outcomes[i].op == entry->op &&
                                outcomes[i].dtype == entry->dtype &&
                                (int)outcomes[i].shape_class == entry->shape_class);
      if (!replaced)
        failed = ocf_tuning_db_add(&db, entry->op, entry->dtype, entry->shape_class,
                                   entry->values) != OCF_SUCCESS;
    }
  }
  free(old_text);
  ocf_tuning_db_free(&old);
  for (size_t i = 0; i < count && !failed; i++) {
    const class_outcome *c = &outcomes[i];
    /* A class whose built-in choice nothing beat gets no entry: later built-in improvements
       then reach it. */
    if (!c->measured || !(c->summary.best_ms < c->summary.start_ms)) continue;
    failed = ocf_tuning_db_add(&db, c->op, c->dtype, (int)c->shape_class, c->summary.best) !=
             OCF_SUCCESS;
  }
  char *text = failed ? NULL : ocf_tuning_db_format_sparse(&db, info);
  ocf_tuning_db_free(&db);
  if (!text) {
    tool_error("out of memory writing the database");
    return -1;
  }
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", path);
  char *slash = strrchr(dir, '/');
  if (slash) *slash = '\0';
  int rc = ocf_make_dirs(dir) == 0 ? ocf_write_file_atomic(path, text, strlen(text)) : -1;
  free(text);
  if (rc) tool_error("cannot write %s: %s", path, strerror(errno));
  return rc;
}

static void print_summary(const class_outcome *outcomes, size_t count, double seconds) {
  tool_progress_clear();
  printf("\n%-8s %-8s %10s %10s %8s  %-24s %s\n", "op", "class", "before ms", "after ms", "speedup",
         "kernel/workgroup", "values (after)");
  for (size_t i = 0; i < count; i++) {
    const class_outcome *c = &outcomes[i];
    const char *op = ocf_op_schema_get(c->op)->name;
    char cls[48];
    snprintf(cls, sizeof cls, "%s%s%s", ocf_shape_class_name(c->op, c->shape_class),
             c->dtype == OCF_F32 ? "" : "/", c->dtype == OCF_F32 ? "" : ocf_dtype_name(c->dtype));
    if (!c->measured) {
      printf("%-8s %-8s %10s %10s %8s  %-24s %s\n", op, cls, "-", "-", "-", "-", "not measured");
      continue;
    }
    char refused[96] = "";
    if (c->summary.shape_losses)
      snprintf(refused, sizeof refused, " (%d faster on the mean refused: slower on a shape)",
               c->summary.shape_losses);
    printf("%-8s %-8s %10.4g %10.4g %7.2fx  %-24s %s%s%s\n", op, cls, c->summary.start_ms,
           c->summary.best_ms, c->summary.start_ms / c->summary.best_ms,
           c->kernel[0] ? c->kernel : "(resumed)", c->summary.best,
           c->summary.complete ? "" : " (budget ran out)", refused);
  }
  printf("\n%.0f s in all; times are geometric means of each class's shapes (device-side "
         "medians)\n",
         seconds);
}

int cmd_tune(int argc, char **argv) {
  tune_options o;
  int parsed = parse_options(argc, argv, &o);
  if (parsed) return parsed > 0 ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
  if (o.list) return list_tunables(&o);
  static tool_spec_list specs; /* large: off the stack */
  if (o.sizes) {
    char err[256];
    if (tool_specs_parse(o.sizes, o.ops, &specs, err, sizeof err)) {
      tool_error("--sizes: %s", err);
      return TOOL_EXIT_USAGE;
    }
  }
  double started = tool_clock_ms();

  /* The database path, from a context that reads it as any program would. */
  ocf_context *ctx = NULL;
  int opened = tool_open_context(o.device, &ctx);
  if (opened != TOOL_EXIT_OK) return opened;
  ocf_device_info info;
  ocf_device_info_init(&info);
  ocf_context_device_info(ctx, &info);
  if (o.show) {
    int rc = show_tuning(ctx, &info, &o);
    ocf_context_release(ctx);
    return rc;
  }
  char path[4096];
  ocf_status status = ocf_tuning_database_path(ctx, path, sizeof path);
  if (status != OCF_SUCCESS) {
    char text[1024];
    tool_status_text(text, sizeof text, "ocf_tuning_database_path", status);
    tool_error("%s", text);
    ocf_context_release(ctx);
    return TOOL_EXIT_FAILURE;
  }
  ocf_context_release(ctx);

  /* Measure from the built-in choice (and shipped databases), not from an earlier tuning. */
  setenv("OCLFUSE_TUNING_DB", "0", 1);
  opened = tool_open_context(o.device, &ctx);
  if (opened != TOOL_EXIT_OK) return opened;
  tool_bench_env env;
  memset(&env, 0, sizeof env);
  env.ctx = ctx;
  env.info = info;
  env.gpu = (info.type & CL_DEVICE_TYPE_GPU) != 0;
  env.max_alloc = tool_max_alloc(info.device);
  env.repeats = env.gpu ? 10 : 5;
  env.library_only = 1;
  tool_timer timer;
  /* Timed as `oclfuse bench` times by default: the cache flushed before each call on a GPU. */
  if (tool_timer_init(&timer, ctx, env.gpu ? 300.0 : 400.0, 1)) {
    ocf_context_release(ctx);
    return TOOL_EXIT_FAILURE;
  }
  if (tool_timer_set_flush(&timer, tool_flush_bytes(-1, env.gpu, env.max_alloc))) {
    tool_timer_release(&timer);
    ocf_context_release(ctx);
    return TOOL_EXIT_FAILURE;
  }
  env.timer = &timer;

  /* The build pool: on a GPU every host core but this one compiles ahead. */
  int threads = o.build_threads;
  if (threads < 0) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    threads = env.gpu && cores > 1
                  ? (int)(cores - 1 < POOL_MAX_WORKERS ? cores - 1 : POOL_MAX_WORKERS)
                  : 0;
  }
  const char *cache = getenv("OCLFUSE_CACHE");
  if (threads > 0 && cache && !strcmp(cache, "0")) {
    tool_note("OCLFUSE_CACHE=0: no build pool (its builds reach the timing through the disk "
              "cache)");
    threads = 0;
  }
  /* A CPU device's contexts store binaries at release only when asked to. */
  if (threads > 0 && !env.gpu && !cache) setenv("OCLFUSE_CACHE", "always", 1);
  static build_pool pool_storage;
  build_pool *pool =
      threads > 0 && pool_start(&pool_storage, threads, o.device) == 0 ? &pool_storage : NULL;
  if (pool) tool_note("building candidates on %d threads", pool->workers);

  char progress_path[4200], header[512];
  snprintf(progress_path, sizeof progress_path, "%s.progress", path);
  snprintf(header, sizeof header, "oclfuse-tune-progress 2 | %s | %s | %s | %s\n", info.vendor,
           info.device_name, info.driver_version, ocf_version_string());
  static class_outcome outcomes[TOOL_MAX_SPECS + OCF_OP_COUNT * OCF_MAX_SHAPE_CLASSES];
  size_t outcome_count = o.sizes ? group_calls(&specs, outcomes) : 0;
  for (int op = 0; !o.sizes && op < OCF_OP_COUNT; op++)
    for (unsigned c = 0; o.ops[op] && c < ocf_shape_class_count((ocf_op)op); c++) {
      memset(&outcomes[outcome_count], 0, sizeof outcomes[0]);
      outcomes[outcome_count].op = (ocf_op)op;
      outcomes[outcome_count].dtype = OCF_F32;
      outcomes[outcome_count++].shape_class = c;
    }
  for (size_t i = 0; i < outcome_count; i++)
    if (outcomes[i].user_dropped)
      tool_note("%s %s %s: %zu more calls of this key are not timed (the first %d are)",
                ocf_op_schema_get(outcomes[i].op)->name, ocf_dtype_name(outcomes[i].dtype),
                ocf_shape_class_name(outcomes[i].op, outcomes[i].shape_class),
                outcomes[i].user_dropped, MAX_CLASS_SHAPES);

  /* The progress file: kept unless --fresh, appended to as candidates are measured. */
  int resume = 0;
  if (!o.fresh) {
    FILE *f = fopen(progress_path, "r");
    char first[512];
    resume = f && fgets(first, sizeof first, f) && strcmp(first, header) == 0;
    if (f) fclose(f);
  }
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", path);
  char *slash = strrchr(dir, '/');
  if (slash) *slash = '\0';
  FILE *progress = NULL;
  if (ocf_make_dirs(dir) == 0) progress = fopen(progress_path, resume ? "a" : "w");
  if (progress && !resume) fputs(header, progress);
  if (!progress) tool_error("cannot write %s: the run will not be resumable", progress_path);

  double budget_ms = (o.budget_s > 0 ? o.budget_s : env.gpu ? 240.0 : 600.0) * 1e3;
  double deadline = started + budget_ms;
  tool_note("%s, %zu shape classes, budget %.0f s%s", info.device_name, outcome_count,
            budget_ms / 1e3, resume ? ", resuming an interrupted run" : "");
  int measured_any = 0;
  for (size_t i = 0; i < outcome_count; i++) {
    class_outcome *c = &outcomes[i];
    const char *op_name = ocf_op_schema_get(c->op)->name;
    const char *cls = ocf_shape_class_name(c->op, c->shape_class);
    char label[48]; /* "wide/bf16": the class and a type other than fp32, for messages */
    snprintf(label, sizeof label, "%s%s%s", cls, c->dtype == OCF_F32 ? "" : "/",
             c->dtype == OCF_F32 ? "" : ocf_dtype_name(c->dtype));
    tune_state state;
    memset(&state, 0, sizeof state);
    state.env = &env;
    state.op = c->op;
    state.shape_class = c->shape_class;
    state.dtype = c->dtype;
    state.progress_file = progress;
    if (c->user.count) {
      state.shapes = c->user;
      progress_key(c, state.key, sizeof state.key);
    } else {
      representative_shapes(c->op, c->shape_class, env.gpu, &state.shapes);
      snprintf(state.key, sizeof state.key, "%s", cls);
    }
    if (resume) load_progress(progress_path, header, &state);
    state.pool = pool;
    if (pool) pool_begin_class(pool, c->op, c->dtype, c->shape_class, &state.shapes);
    /* The classes left share what is left of the budget. */
    double now = tool_clock_ms();
    state.deadline_ms = now + (deadline - now) / (double)(outcome_count - i);
    char start[2048];
    status = ocf_context_get_tuning(ctx, op_name, c->dtype, cls, start, sizeof start);
    if (status != OCF_SUCCESS) {
      char text[1024];
      tool_status_text(text, sizeof text, "ocf_context_get_tuning", status);
      tool_error("%s", text);
      continue;
    }
    tune_search search = {
        (int)c->op, start, measure_candidate, report_progress, &state, state.deadline_ms, 0.02,
        3,          0.02};
    c->measured = tune_run_prepared(&search, prepare_candidates, &c->summary) == 0;
    const char *kernel = plan_of(&state, c->summary.best);
    snprintf(c->kernel, sizeof c->kernel, "%s", kernel ? kernel : "");
    free(state.tried);
    free(state.plans);
    if (!c->measured) {
      tool_error("%s %s: the built-in choice could not be measured right", op_name, label);
      continue;
    }
    measured_any = 1;
    /* Each class's own values stay set while the next is tuned (classes do not overlap). */
    ocf_context_set_tuning(ctx, op_name, c->dtype, cls, c->summary.best);
    if (write_database(path, &info, outcomes, i + 1) == 0)
      tool_note("%s %s done: %.4g -> %.4g ms; %s updated", op_name, label, c->summary.start_ms,
                c->summary.best_ms, path);
  }
  if (progress) fclose(progress);
  if (pool) {
    pool_stop(pool);
    tool_note("the build pool prepared %d candidates (%.0f s of its threads' time)", pool->built,
              pool->worker_ms / 1e3);
  }
  int rc = measured_any ? TOOL_EXIT_OK : TOOL_EXIT_FAILURE;
  if (measured_any && write_database(path, &info, outcomes, outcome_count) == 0) {
    remove(progress_path); /* complete: nothing to resume */
    print_summary(outcomes, outcome_count, (tool_clock_ms() - started) / 1e3);
    printf("database %s\n", path);
  } else {
    rc = TOOL_EXIT_FAILURE;
  }
  tool_timer_release(&timer);
  tool_clblast_release();
  ocf_context_release(ctx);
  return rc;
}
