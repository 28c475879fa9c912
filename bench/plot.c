/*
 * --plot DIR: PNG charts through gnuplot. Writes one data file per chart and a script,
 * charts.gp, into DIR (so that `cd DIR && gnuplot charts.gp` redraws them), then runs gnuplot
 * on it:
 *   add.png       GB/s against n, liboclfuse and the baseline, the copy ceiling as a line
 *   softmax.png   GB/s per shape (narrow to wide), fused and three-kernel, the copy ceiling
 *   matmul.png    GFLOP/s against N when every call is square (N x N x N, no options), else
 *                 per call in the order measured (labelled with the call), liboclfuse, naive,
 *                 CLBlast, the FMA peak
 *   <op>.png      any other op of the harness's table: its rate per shape, in the order measured
 *   sweep_<op>.png  time against workgroup size (with --sweep-wg), for every op
 */
#include "tool.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define MAX_POINTS 256

typedef struct series {
  const char *variant;
  const char *title;
} series;

typedef struct chart {
  const char *name; /* file stem */
  const char *op;
  int sweep;
  int by_index; /* softmax: x is the shape's position, labelled with the shape */
  const char *title, *xlabel, *ylabel;
  const series *lines;
  size_t line_count;
  double ceiling;
  const char *ceiling_title;
} chart;

int tool_gnuplot_available(void) {
  int status = system("gnuplot --version >/dev/null 2>&1");
  return status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* Writes s as a gnuplot double-quoted string: \\ and \" escaped, a newline as \n. */
static void gp_text(FILE *out, const char *s) {
  fputc('"', out);
  for (; *s; s++) {
    if (*s == '\n') {
      fputs("\\n", out);
      continue;
    }
    if (*s == '"' || *s == '\\') fputc('\\', out);
    if ((unsigned char)*s >= 0x20) fputc(*s, out);
  }
  fputc('"', out);
}

/* Writes s as a gnuplot single-quoted string (a quote is doubled; nothing else is special). */
static void gp_string(FILE *out, const char *s) {
  fputc('\'', out);
  for (; *s; s++) {
    if (*s == '\'') fputc('\'', out);
    if ((unsigned char)*s >= 0x20) fputc(*s, out);
  }
  fputc('\'', out);
}

static int row_in_chart(const tool_row *r, const chart *c) {
  if (strcmp(r->op, c->op) != 0 || r->sweep != c->sweep) return 0;
  return 1;
}

static double row_x(const tool_row *r, const chart *c) {
  return c->sweep ? (double)r->workgroup_size : (double)r->dims[0];
}

static double row_y(const tool_row *r, const chart *c) {
  if (r->status != ROW_OK) return NAN;
  return c->sweep ? r->median_ms : r->rate;
}

/* Writes DIR/<name>.dat; sets has_data[line] for lines with at least one point. Returns the
   number of points, or -1 when the file cannot be written. */
static int write_data(const char *dir, const tool_results *results, const chart *c, int *has_data) {
  const tool_row *keys[MAX_POINTS];
  size_t count = 0;
  for (size_t i = 0; i < results->count && count < MAX_POINTS; i++) {
    const tool_row *r = &results->rows[i];
    if (!row_in_chart(r, c)) continue;
    int seen = 0;
    for (size_t k = 0; k < count && !seen; k++)
      seen = c->sweep ? keys[k]->workgroup_size == r->workgroup_size
                      : !strcmp(keys[k]->shape, r->shape);
    if (!seen) keys[count++] = r;
  }
  if (count == 0) return 0;
  /* Points along a numeric x axis go in increasing x (an insertion sort: a few dozen points), so
     that a shape measured out of order (1000 after 8192) does not fold the line back. */
  for (size_t k = 1; !c->by_index && k < count; k++)
    for (size_t j = k; j > 0 && row_x(keys[j - 1], c) > row_x(keys[j], c); j--) {
      const tool_row *swap = keys[j];
      keys[j] = keys[j - 1];
      keys[j - 1] = swap;
    }
  size_t path_len = strlen(dir) + strlen(c->name) + 8;
  char *path = malloc(path_len);
  if (!path) return -1;
  snprintf(path, path_len, "%s/%s.dat", dir, c->name);
  FILE *f = fopen(path, "w");
  if (!f) {
    tool_error("cannot write %s", path);
    free(path);
    return -1;
  }
  fprintf(f, "# x label");
  for (size_t l = 0; l < c->line_count; l++)
    fprintf(f, " %s", c->lines[l].variant);
  fprintf(f, "\n");
  for (size_t k = 0; k < count; k++) {
    if (c->by_index)
      fprintf(f, "%zu %s", k, keys[k]->shape);
    else
      fprintf(f, "%.17g %s", row_x(keys[k], c), keys[k]->shape);
    for (size_t l = 0; l < c->line_count; l++) {
      double y = NAN;
      for (size_t i = 0; i < results->count; i++) {
        const tool_row *r = &results->rows[i];
        if (row_in_chart(r, c) && !strcmp(r->variant, c->lines[l].variant) &&
            (c->sweep ? r->workgroup_size == keys[k]->workgroup_size
                      : !strcmp(r->shape, keys[k]->shape)))
          y = row_y(r, c);
      }
      if (isfinite(y)) {
        fprintf(f, " %.6g", y);
        has_data[l] = 1;
      } else {
        fprintf(f, " ?");
      }
    }
    fprintf(f, "\n");
  }
  int bad = ferror(f);
  if (fclose(f) || bad) {
    tool_error("error writing %s", path);
    free(path);
    return -1;
  }
  free(path);
  return (int)count;
}

/* Appends the commands for one chart to the script; 1 written, 0 nothing to draw, -1 error. */
static int script_chart(FILE *gp, const char *dir, const tool_results *results, const chart *c,
                        const ocf_device_info *info) {
  int has_data[8] = {0};
  int points = write_data(dir, results, c, has_data);
  if (points <= 0) return points;
  int any = 0;
  for (size_t l = 0; l < c->line_count; l++)
    any |= has_data[l];
  if (!any) {
    tool_error("no successful %s rows: %s.png not drawn", c->op, c->name);
    return 0;
  }
  char title[512];
  snprintf(title, sizeof title, "%s\n%s (%s)", c->title, info->device_name, info->driver_version);
  fprintf(gp, "\nreset\nset terminal pngcairo size 1000,620 noenhanced font 'sans,11'\n");
  fprintf(gp, "set output '%s.png'\nset datafile missing '?'\nset grid\n", c->name);
  fprintf(gp, "set key below\nset title ");
  gp_text(gp, title);
  fprintf(gp, "\nset xlabel ");
  gp_string(gp, c->xlabel);
  fprintf(gp, "\nset ylabel ");
  gp_string(gp, c->ylabel);
  fprintf(gp, "\nset yrange [0:*]\n");
  if (c->by_index) {
    fprintf(gp, "set xrange [-0.5:%d-0.5]\nset xtics rotate by -20\n", points);
  } else {
    /* n spans 2^16..2^28: powers read best; N and workgroup sizes as plain numbers. */
    fprintf(gp, "set logscale x 2\nset format x '%s'\n",
            !strcmp(c->op, "add") && !c->sweep ? "2^%L" : "%g");
    if (c->sweep) fprintf(gp, "set logscale y 10\nset yrange [*:*]\n");
  }
  fprintf(gp, "plot ");
  int first = 1;
  for (size_t l = 0; l < c->line_count; l++) {
    if (!has_data[l]) continue;
    fprintf(gp, "%s'%s.dat' using 1:%zu%s with linespoints lw 2 pt 7 title ", first ? "" : ", ",
            c->name, l + 3, c->by_index ? ":xticlabels(2)" : "");
    gp_string(gp, c->lines[l].title);
    first = 0;
  }
  if (isfinite(c->ceiling) && c->ceiling > 0.0) {
    char label[128];
    snprintf(label, sizeof label, "%s %.0f", c->ceiling_title, c->ceiling);
    fprintf(gp, ", %.6g with lines dt 2 lw 2 lc rgb 'black' title ", c->ceiling);
    gp_string(gp, label);
  }
  fprintf(gp, "\n");
  return 1;
}

int tool_plot(const char *dir, const tool_results *results, const tool_ceiling *ceiling,
              const ocf_device_info *info) {
  static const series add_lines[] = {{"oclfuse", "liboclfuse (AUTO)"},
                                     {"baseline", "baseline: 1 element per work-item"}};
  static const series softmax_lines[] = {{"oclfuse", "liboclfuse fused (AUTO)"},
                                         {"baseline", "baseline: 3 kernels (max, exp-sum, div)"}};
  static const series matmul_lines[] = {{"oclfuse", "liboclfuse (AUTO)"},
                                        {"baseline", "naive: 1 output per work-item"},
                                        {"clblast", "CLBlast SGEMM"},
                                        {"clblast-tuned", "CLBlast, H200-tuned Xgemm"}};
  static const series sweep_lines[] = {{"oclfuse", "liboclfuse (AUTO)"}};
  /* Square plain calls read best against N; any other set of calls is drawn call by call. */
  int square = 1;
  for (size_t i = 0; i < results->count; i++) {
    const tool_row *r = &results->rows[i];
    if (!strcmp(r->op, "matmul") && !r->sweep &&
        (r->dims[0] != r->dims[1] || r->dims[1] != r->dims[2] || strchr(r->shape, ':')))
      square = 0;
  }
  /* The charts the tool draws its own way, then one per other op of the table, then a sweep
     chart per op. */
  const chart own[] = {
      {"add", "add", 0, 0, "add: out = x + y", "elements n", "GB/s (3 x 4n bytes / median time)",
       add_lines, 2, ceiling->copy_gbps, "copy ceiling GB/s"},
      {"softmax", "softmax", 0, 1, "row softmax", "shape (rows x cols)",
       "effective GB/s (rows x cols x bytes of an input and an output element)", softmax_lines, 2,
       ceiling->copy_gbps, "copy ceiling GB/s"},
      {"matmul", "matmul", 0, !square,
       square ? "SGEMM C = A B, square N x N x N" : "GEMM, call by call",
       square ? "N" : "call (M x N x K and options)",
       square ? "GFLOP/s (2 N^3 / median time)" : "GFLOP/s (2 m n k batch / median time)",
       matmul_lines, 4, ceiling->fma_gflops, "FMA peak GFLOP/s"},
  };
  chart charts[2 * TOOL_MAX_OPS];
  static char sweep_names[TOOL_MAX_OPS][48], sweep_titles[TOOL_MAX_OPS][96];
  size_t chart_count = 0;
  for (tool_op op = 0; op < tool_op_count(); op++) {
    const ocft_op_case *c = tool_op_case(op);
    chart *k = &charts[chart_count++];
    *k = (chart){c->name,
                 c->name,
                 0,
                 1,
                 c->name,
                 "shape",
                 c->unit,
                 sweep_lines,
                 1,
                 c->ceiling == OCFT_CEILING_FMA ? ceiling->fma_gflops : ceiling->copy_gbps,
                 c->ceiling == OCFT_CEILING_FMA ? "FMA peak GFLOP/s" : "copy ceiling GB/s"};
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
      if (!strcmp(own[i].op, c->name)) *k = own[i];
  }
  for (tool_op op = 0; op < tool_op_count(); op++) {
    const char *name = tool_op_name(op);
    snprintf(sweep_names[op], sizeof sweep_names[op], "sweep_%s", name);
    snprintf(sweep_titles[op], sizeof sweep_titles[op], "%s: time against workgroup size", name);
    charts[chart_count++] =
        (chart){sweep_names[op], name, 1,   0, sweep_titles[op], "workgroup size", "median ms",
                sweep_lines,     1,    NAN, ""};
  }
  size_t path_len = strlen(dir) + 16;
  char *path = malloc(path_len);
  if (!path) return -1;
  snprintf(path, path_len, "%s/charts.gp", dir);
  FILE *gp = fopen(path, "w");
  if (!gp) {
    tool_error("cannot write %s", path);
    free(path);
    return -1;
  }
  fprintf(gp, "# oclfuse bench charts: run `gnuplot charts.gp` in this directory.\n");
  int rc = 0, drawn = 0;
  for (size_t i = 0; i < chart_count && rc == 0; i++) {
    int r = script_chart(gp, dir, results, &charts[i], info);
    if (r < 0) rc = -1;
    drawn += r > 0;
  }
  if (fclose(gp) && rc == 0) rc = -1;
  if (rc == 0 && drawn == 0) {
    tool_error("nothing to plot (no successful rows)");
    rc = -1;
  }
  if (rc == 0 && !tool_gnuplot_available()) {
    tool_error("no gnuplot: wrote the data and %s; run `gnuplot charts.gp` in that "
               "directory to draw the PNGs",
               path);
    rc = -1;
  } else if (rc == 0) {
    /* The directory goes to gnuplot as a quoted string, never through a shell. */
    FILE *pipe = popen("gnuplot", "w");
    if (!pipe) {
      tool_error("cannot run gnuplot");
      rc = -1;
    } else {
      fprintf(pipe, "cd ");
      gp_string(pipe, dir);
      fprintf(pipe, "\nload 'charts.gp'\n");
      int status = pclose(pipe);
      if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        tool_error("gnuplot failed on %s (its messages are above)", path);
        rc = -1;
      }
    }
  }
  free(path);
  return rc;
}
