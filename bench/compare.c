/*
 * `oclfuse bench --compare A.json [B.json]`: two runs side by side, row by row. Rows match by
 * op, shape (the call, options included), variant, workgroup size and sweep; for each, the
 * medians, their ratio, and each run's spread (p90 - p10) / p50 of its repeats, so that a
 * difference can be told from noise. The reader takes the layout `oclfuse bench --format json`
 * writes (bench/JSON.md), through a small JSON parser that keeps what the comparison needs.
 */
#include "tool.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- a minimal JSON reader: values are skipped or kept by key ---- */

typedef struct json_in {
  const char *p, *end;
  int failed;
} json_in;

static void ws(json_in *in) {
  while (in->p < in->end && isspace((unsigned char)*in->p))
    in->p++;
}

static int eat(json_in *in, char c) {
  ws(in);
  if (in->p < in->end && *in->p == c) {
    in->p++;
    return 1;
  }
  return 0;
}

/* A string into out (escapes other than \" \\ \/ \n \t \uXXXX below 0x80 become '?'). */
static int json_string(json_in *in, char *out, size_t capacity) {
  ws(in);
  if (in->p >= in->end || *in->p != '"') return in->failed = 1, -1;
  in->p++;
  size_t n = 0;
  while (in->p < in->end && *in->p != '"') {
    char c = *in->p++;
    if (c == '\\' && in->p < in->end) {
      char e = *in->p++;
      c = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'u' ? '?' : e;
      if (e == 'u') {
        unsigned code = 0;
        for (int i = 0; i < 4 && in->p < in->end; i++, in->p++)
          code = code * 16 + (unsigned)(isdigit((unsigned char)*in->p)
                                            ? *in->p - '0'
                                            : (tolower((unsigned char)*in->p) - 'a' + 10) & 15);
        if (code < 0x80) c = (char)code;
      }
    }
    if (out && n + 1 < capacity) out[n++] = c;
  }
  if (in->p >= in->end) return in->failed = 1, -1;
  in->p++;
  if (out) out[n] = '\0';
  return 0;
}

static double json_number(json_in *in) {
  ws(in);
  if (in->end - in->p >= 4 && !strncmp(in->p, "null", 4)) {
    in->p += 4;
    return NAN;
  }
  char *stop = NULL;
  double v = strtod(in->p, &stop);
  if (stop == in->p) {
    in->failed = 1;
    return NAN;
  }
  in->p = stop;
  return v;
}

static void json_skip(json_in *in);

static void skip_container(json_in *in, char close) {
  if (eat(in, close)) return;
  do {
    if (close == '}') {
      json_string(in, NULL, 0);
      if (!eat(in, ':')) in->failed = 1;
    }
    json_skip(in);
  } while (!in->failed && eat(in, ','));
  if (!eat(in, close)) in->failed = 1;
}

static void json_skip(json_in *in) {
  ws(in);
  if (in->p >= in->end) {
    in->failed = 1;
  } else if (*in->p == '"') {
    json_string(in, NULL, 0);
  } else if (*in->p == '{') {
    in->p++;
    skip_container(in, '}');
  } else if (*in->p == '[') {
    in->p++;
    skip_container(in, ']');
  } else if (in->end - in->p >= 4 && !strncmp(in->p, "true", 4)) {
    in->p += 4;
  } else if (in->end - in->p >= 5 && !strncmp(in->p, "false", 5)) {
    in->p += 5;
  } else {
    json_number(in);
  }
}

/* ---- a run as the comparison sees it ---- */

typedef struct cmp_row {
  char op[16], shape[128], variant[24], status[16], unit[16];
  double workgroup_size, median_ms, p10_ms, p90_ms, rate;
  int sweep;
} cmp_row;

typedef struct cmp_run {
  char name[256]; /* the file, or "this run" */
  char device[256];
  cmp_row *rows;
  size_t count;
} cmp_run;

static void read_row(json_in *in, cmp_row *r) {
  memset(r, 0, sizeof *r);
  r->median_ms = r->p10_ms = r->p90_ms = r->rate = NAN;
  if (!eat(in, '{')) {
    in->failed = 1;
    return;
  }
  if (eat(in, '}')) return;
  do {
    char key[64];
    if (json_string(in, key, sizeof key) || !eat(in, ':')) return;
    ws(in);
    if (!strcmp(key, "op"))
      json_string(in, r->op, sizeof r->op);
    else if (!strcmp(key, "shape"))
      json_string(in, r->shape, sizeof r->shape);
    else if (!strcmp(key, "variant"))
      json_string(in, r->variant, sizeof r->variant);
    else if (!strcmp(key, "status"))
      json_string(in, r->status, sizeof r->status);
    else if (!strcmp(key, "unit"))
      json_string(in, r->unit, sizeof r->unit);
    else if (!strcmp(key, "workgroup_size"))
      r->workgroup_size = json_number(in);
    else if (!strcmp(key, "median_ms"))
      r->median_ms = json_number(in);
    else if (!strcmp(key, "p10_ms"))
      r->p10_ms = json_number(in);
    else if (!strcmp(key, "p90_ms"))
      r->p90_ms = json_number(in);
    else if (!strcmp(key, "rate"))
      r->rate = json_number(in);
    else if (!strcmp(key, "sweep")) {
      r->sweep = in->end - in->p >= 4 && !strncmp(in->p, "true", 4);
      json_skip(in);
    } else
      json_skip(in);
  } while (!in->failed && eat(in, ','));
  if (!eat(in, '}')) in->failed = 1;
}

/* Parses a bench JSON text into *run; 0, or -1 with err saying what is wrong. */
static int parse_run(const char *text, size_t length, cmp_run *run, char *err, size_t errlen) {
  json_in in = {text, text + length, 0};
  int saw_results = 0;
  if (!eat(&in, '{')) goto bad;
  do {
    char key[64];
    if (json_string(&in, key, sizeof key) || !eat(&in, ':')) goto bad;
    if (!strcmp(key, "device")) {
      if (!eat(&in, '{')) goto bad;
      if (!eat(&in, '}')) {
        do {
          char inner[64];
          if (json_string(&in, inner, sizeof inner) || !eat(&in, ':')) goto bad;
          ws(&in);
          if (!strcmp(inner, "name") && *in.p == '"')
            json_string(&in, run->device, sizeof run->device);
          else
            json_skip(&in);
        } while (!in.failed && eat(&in, ','));
        if (!eat(&in, '}')) goto bad;
      }
    } else if (!strcmp(key, "results")) {
      saw_results = 1;
      if (!eat(&in, '[')) goto bad;
      if (eat(&in, ']')) continue;
      do {
        cmp_row *grown = realloc(run->rows, (run->count + 1) * sizeof *run->rows);
        if (!grown) {
          snprintf(err, errlen, "out of host memory");
          return -1;
        }
        run->rows = grown;
        read_row(&in, &run->rows[run->count++]);
      } while (!in.failed && eat(&in, ','));
      if (!eat(&in, ']')) goto bad;
    } else {
      json_skip(&in);
    }
  } while (!in.failed && eat(&in, ','));
  if (in.failed || !eat(&in, '}') || !saw_results) goto bad;
  return 0;
bad:
  snprintf(err, errlen, "not the JSON of `oclfuse bench --format json` (at byte %zu)",
           (size_t)(in.p - text));
  return -1;
}

static int load_file(const char *path, cmp_run *run) {
  memset(run, 0, sizeof *run);
  snprintf(run->name, sizeof run->name, "%s", path);
  FILE *f = fopen(path, "rb");
  if (!f) {
    tool_error("--compare: cannot read '%s'", path);
    return -1;
  }
  size_t capacity = 1 << 16, length = 0;
  char *text = malloc(capacity);
  while (text) { /* one byte kept for the terminator, which strtod needs */
    size_t got = fread(text + length, 1, capacity - 1 - length, f);
    length += got;
    if (length < capacity - 1) break;
    char *grown = capacity < ((size_t)1 << 28) ? realloc(text, capacity * 2) : NULL;
    if (!grown) {
      free(text);
      text = NULL;
      break;
    }
    text = grown;
    capacity *= 2;
  }
  fclose(f);
  if (!text) {
    tool_error("--compare: '%s' is too large or memory ran out", path);
    return -1;
  }
  text[length] = '\0';
  char err[160];
  int rc = parse_run(text, length, run, err, sizeof err);
  free(text);
  if (rc) tool_error("--compare: '%s': %s", path, err);
  return rc;
}

static void free_run(cmp_run *run) {
  free(run->rows);
  memset(run, 0, sizeof *run);
}

/* (p90 - p10) / p50 of a row's repeats, NaN when unknown. */
static double spread(const cmp_row *r) {
  return r->median_ms > 0.0 ? (r->p90_ms - r->p10_ms) / r->median_ms : NAN;
}

static const cmp_row *match(const cmp_run *run, const cmp_row *r) {
  for (size_t i = 0; i < run->count; i++) {
    const cmp_row *o = &run->rows[i];
    if (!strcmp(o->op, r->op) && !strcmp(o->shape, r->shape) && !strcmp(o->variant, r->variant) &&
        o->workgroup_size == r->workgroup_size && o->sweep == r->sweep)
      return o;
  }
  return NULL;
}

static void percent(FILE *out, double v) {
  if (isfinite(v))
    fprintf(out, " %6.1f%%", 100.0 * v);
  else
    fprintf(out, " %7s", "-");
}

/* Prints the comparison of b against a; returns how many rows were compared. */
static size_t print_comparison(FILE *out, const cmp_run *a, const cmp_run *b) {
  int width = 16;
  for (size_t i = 0; i < b->count; i++)
    if ((int)strlen(b->rows[i].shape) > width) width = (int)strlen(b->rows[i].shape);
  fprintf(out, "A  %s (%s)\nB  %s (%s)\n", a->name, a->device, b->name, b->device);
  fprintf(out, "ratio: A's median over B's (above 1: B is faster); spread: (p90 - p10) / p50 of "
               "a run's repeats;\n~ marks a ratio within the larger spread of the two (noise)\n\n");
  fprintf(out, "%-8s %-*s %-13s %5s %10s %10s %8s %8s %8s\n", "op", width, "shape", "variant", "wg",
          "A ms", "B ms", "ratio", "spread A", "spread B");
  size_t compared = 0;
  for (size_t i = 0; i < b->count; i++) {
    const cmp_row *rb = &b->rows[i];
    if (!strcmp(rb->op, "ceiling")) continue;
    const cmp_row *ra = match(a, rb);
    fprintf(out, "%-8s %-*s %-13s ", rb->op, width, rb->shape, rb->variant);
    if (rb->workgroup_size > 0)
      fprintf(out, "%5.0f ", rb->workgroup_size);
    else
      fprintf(out, "%5s ", "auto");
    if (!ra) {
      if (isfinite(rb->median_ms))
        fprintf(out, "%10s %10.4g   only in B\n", "-", rb->median_ms);
      else
        fprintf(out, "%10s %10s   only in B (%s)\n", "-", "-", rb->status);
      continue;
    }
    if (!(ra->median_ms > 0.0) || !(rb->median_ms > 0.0)) {
      fprintf(out, "%10s %10s   not timed in both (A %s, B %s)\n", "-", "-", ra->status,
              rb->status);
      continue;
    }
    double ratio = ra->median_ms / rb->median_ms;
    double sa = spread(ra), sb = spread(rb);
    double noise = isfinite(sa) && isfinite(sb) ? (sa > sb ? sa : sb) : NAN;
    fprintf(out, "%10.4g %10.4g %7.3fx", ra->median_ms, rb->median_ms, ratio);
    percent(out, sa);
    percent(out, sb);
    if (isfinite(noise) && fabs(ratio - 1.0) <= noise) fprintf(out, "  ~");
    fprintf(out, "\n");
    compared++;
  }
  for (size_t i = 0; i < a->count; i++) {
    const cmp_row *ra = &a->rows[i];
    if (strcmp(ra->op, "ceiling") && !match(b, ra)) {
      fprintf(out, "%-8s %-*s %-13s ", ra->op, width, ra->shape, ra->variant);
      if (ra->workgroup_size > 0)
        fprintf(out, "%5.0f ", ra->workgroup_size);
      else
        fprintf(out, "%5s ", "auto");
      if (isfinite(ra->median_ms))
        fprintf(out, "%10.4g %10s   only in A\n", ra->median_ms, "-");
      else
        fprintf(out, "%10s %10s   only in A (%s)\n", "-", "-", ra->status);
    }
  }
  return compared;
}

int tool_compare_files(const char *a_path, const char *b_path) {
  cmp_run a, b;
  if (load_file(a_path, &a)) return TOOL_EXIT_USAGE;
  if (load_file(b_path, &b)) {
    free_run(&a);
    return TOOL_EXIT_USAGE;
  }
  size_t compared = print_comparison(stdout, &a, &b);
  free_run(&a);
  free_run(&b);
  if (!compared) tool_error("no row of one run matches a timed row of the other");
  return compared ? TOOL_EXIT_OK : TOOL_EXIT_FAILURE;
}

int tool_compare_run(const char *a_path, const tool_results *results,
                     const tool_report_meta *meta) {
  cmp_run a, b;
  if (load_file(a_path, &a)) return TOOL_EXIT_USAGE;
  /* This run, through the same JSON the files hold: one reader for both. */
  char *text = NULL;
  size_t length = 0;
  FILE *mem = open_memstream(&text, &length);
  if (!mem) {
    free_run(&a);
    tool_error("out of host memory");
    return TOOL_EXIT_FAILURE;
  }
  tool_report(mem, FORMAT_JSON, results, meta);
  fclose(mem);
  memset(&b, 0, sizeof b);
  snprintf(b.name, sizeof b.name, "this run");
  char err[160];
  int rc = parse_run(text, length, &b, err, sizeof err);
  free(text);
  if (rc) {
    tool_error("--compare: this run's report: %s", err);
    free_run(&a);
    return TOOL_EXIT_FAILURE;
  }
  size_t compared = print_comparison(stdout, &a, &b);
  free_run(&a);
  free_run(&b);
  if (!compared) tool_error("no row of this run matches a timed row of %s", a_path);
  return compared ? TOOL_EXIT_OK : TOOL_EXIT_FAILURE;
}
