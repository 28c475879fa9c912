/* The benchmark's output: a readable table, CSV, or JSON (layout in bench/JSON.md). */
#include "tool.h"

#include <math.h>
#include <string.h>

/* ---- JSON ---- */

/* Length of a valid UTF-8 sequence at s (1..4), or 0 when it is not one. */
static size_t utf8_length(const unsigned char *s) {
  size_t len = s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC2 ? 2 : 0;
  if (s[0] >= 0xF5 || len == 0) return 0;
  for (size_t i = 1; i < len; i++)
    if ((s[i] & 0xC0) != 0x80) return 0;
  return len;
}

void tool_json_string(FILE *out, const char *s) {
  const unsigned char *p = (const unsigned char *)(s ? s : "");
  fputc('"', out);
  while (*p) {
    unsigned char c = *p;
    if (c == '"' || c == '\\') {
      fputc('\\', out);
      fputc(c, out);
      p++;
    } else if (c == '\n') {
      fputs("\\n", out);
      p++;
    } else if (c == '\t') {
      fputs("\\t", out);
      p++;
    } else if (c < 0x20 || c == 0x7F) {
      fprintf(out, "\\u%04x", c);
      p++;
    } else if (c < 0x80) {
      fputc(c, out);
      p++;
    } else {
      size_t len = utf8_length(p);
      if (len) {
        fwrite(p, 1, len, out);
        p += len;
      } else { /* not UTF-8 (a Latin-1 driver string): keep the byte as that code point */
        fprintf(out, "\\u%04x", c);
        p++;
      }
    }
  }
  fputc('"', out);
}

static void json_number(FILE *out, double v) {
  if (isfinite(v))
    fprintf(out, "%.6g", v);
  else
    fputs("null", out);
}

static void json_key(FILE *out, const char *key) {
  tool_json_string(out, key);
  fputs(": ", out);
}

/* Writes `separator`, then "key": "value", both escaped. */
static void json_string_field(FILE *out, const char *separator, const char *key,
                              const char *value) {
  fputs(separator, out);
  json_key(out, key);
  tool_json_string(out, value);
}

static void json_device(FILE *out, const ocf_device_info *info) {
  json_string_field(out, "  \"device\": {\n    ", "name", info->device_name);
  json_string_field(out, ",\n    ", "vendor", info->vendor);
  json_string_field(out, ",\n    ", "platform", info->platform_name);
  json_string_field(out, ",\n    ", "driver", info->driver_version);
  json_string_field(out, ",\n    ", "opencl", info->device_version);
  json_string_field(out, ",\n    ", "type", tool_device_type_name(info->type));
  fprintf(out,
          ",\n    \"index\": \"%u:%u\",\n    \"compute_units\": %u,\n    \"max_clock_mhz\": %u,"
          "\n    \"global_mem_bytes\": %llu,\n    \"local_mem_bytes\": %llu,"
          "\n    \"max_workgroup_size\": %zu\n  },\n",
          info->platform_index, info->device_index, (unsigned)info->compute_units,
          (unsigned)info->max_clock_mhz, (unsigned long long)info->global_mem_bytes,
          (unsigned long long)info->local_mem_bytes, info->max_workgroup_size);
}

static void json_row(FILE *out, const tool_row *r) {
  json_string_field(out, "    {", "op", r->op);
  json_string_field(out, ", ", "shape", r->shape);
  fputs(", \"dims\": [", out);
  for (int d = 0; d < r->ndims; d++)
    fprintf(out, "%s%zu", d ? ", " : "", r->dims[d]);
  json_string_field(out, "], ", "variant", r->variant);
  fprintf(out, ", \"workgroup_size\": %zu, \"sweep\": %s", r->workgroup_size,
          r->sweep ? "true" : "false");
  json_string_field(out, ",\n     ", "status", tool_row_status_name(r->status));
  fprintf(out, ", \"repeats\": %d, \"median_ms\": ", r->repeats);
  json_number(out, r->median_ms);
  fputs(", \"min_ms\": ", out);
  json_number(out, r->min_ms);
  fputs(", \"max_ms\": ", out);
  json_number(out, r->max_ms);
  fputs(",\n     \"p10_ms\": ", out);
  json_number(out, r->p10_ms);
  fputs(", \"p50_ms\": ", out);
  json_number(out, r->median_ms);
  fputs(", \"p90_ms\": ", out);
  json_number(out, r->p90_ms);
  fputs(",\n     \"rate\": ", out);
  json_number(out, r->rate);
  json_string_field(out, ", ", "unit", r->unit);
  fputs(", \"percent_of_ceiling\": ", out);
  json_number(out, r->percent_of_ceiling);
  fputs(", \"speedup_vs_baseline\": ", out);
  json_number(out, r->speedup);
  fputs(",\n     \"max_error\": ", out);
  json_number(out, r->verdict.max_error);
  fputs(", \"tolerance\": ", out);
  json_number(out, r->verdict.tolerance);
  json_string_field(out, ", ", "error_measure", r->verdict.measure);
  json_string_field(out, ", ", "checked", r->checked);
  json_string_field(out, ",\n     ", "note", r->note);
  json_string_field(out, ", ", "plan", r->plan);
  fputs("}", out);
}

void tool_plan_brief(const char *plan, char *out, size_t capacity) {
  out[0] = '\0';
  if (!plan[0]) return;
  size_t name = strcspn(plan, " ");
  const char *wg = strstr(plan, " wg=");
  size_t wg_length = wg ? strcspn(wg + 4, " ") : 0;
  int more = 0;
  for (const char *p = strstr(plan, " + "); p; p = strstr(p + 3, " + "))
    more++;
  if (more)
    snprintf(out, capacity, "%.*s/%.*s+%d", (int)name, plan, (int)wg_length, wg ? wg + 4 : "",
             more);
  else
    snprintf(out, capacity, "%.*s/%.*s", (int)name, plan, (int)wg_length, wg ? wg + 4 : "");
}

static void report_json(FILE *out, const tool_results *results, const tool_report_meta *meta) {
  fputs("{\n  \"tool\": \"oclfuse bench\",\n  \"version\": ", out);
  tool_json_string(out, ocf_version_string());
  fputs(",\n", out);
  json_device(out, meta->info);
  fputs("  \"settings\": {", out);
  json_key(out, "ops");
  tool_json_string(out, meta->ops);
  fprintf(out, ", \"repeat\": %d, \"sweep_wg\": %s, \"flush_mib\": %zu},\n", meta->repeats,
          meta->sweep_wg ? "true" : "false", meta->flush_bytes >> 20);
  fputs("  \"ceiling\": {\"copy_gbps\": ", out);
  json_number(out, meta->ceiling->copy_gbps);
  fputs(", \"copy_kernel_gbps\": ", out);
  json_number(out, meta->ceiling->copy_kernel_gbps);
  fputs(", \"copy_buffer_gbps\": ", out);
  json_number(out, meta->ceiling->copy_buffer_gbps);
  fputs(", \"stream_gbps\": ", out);
  json_number(out, meta->ceiling->stream_gbps);
  fputs(", \"fma_gflops\": ", out);
  json_number(out, meta->ceiling->fma_gflops);
  fputs(", \"cache_bytes\": ", out);
  json_number(out, meta->ceiling->cache_bytes);
  fputs("},\n  \"seconds\": ", out);
  json_number(out, meta->seconds);
  fprintf(out, ",\n  \"interrupted\": %s", meta->interrupted ? "true" : "false");
  fputs(",\n  \"results\": [\n", out);
  for (size_t i = 0; i < results->count; i++) {
    json_row(out, &results->rows[i]);
    fputs(i + 1 < results->count ? ",\n" : "\n", out);
  }
  fputs("  ]\n}\n", out);
}

/* ---- CSV ---- */

static void csv_field(FILE *out, const char *s) {
  if (!strpbrk(s, ",\"\r\n")) {
    fputs(s, out);
    return;
  }
  fputc('"', out);
  for (; *s; s++) {
    if (*s == '"') fputc('"', out);
    fputc(*s, out);
  }
  fputc('"', out);
}

static void csv_number(FILE *out, double v) {
  fputc(',', out);
  if (isfinite(v)) fprintf(out, "%.6g", v);
}

static void report_csv(FILE *out, const tool_results *results, const tool_report_meta *meta) {
  fputs("device,platform,driver,op,shape,dim0,dim1,dim2,variant,workgroup_size,sweep,status,"
        "repeats,median_ms,min_ms,max_ms,rate,unit,percent_of_ceiling,speedup_vs_baseline,"
        "max_error,tolerance,error_measure,checked,note,plan\n",
        out);
  for (size_t i = 0; i < results->count; i++) {
    const tool_row *r = &results->rows[i];
    csv_field(out, meta->info->device_name);
    fputc(',', out);
    csv_field(out, meta->info->platform_name);
    fputc(',', out);
    csv_field(out, meta->info->driver_version);
    fputc(',', out);
    csv_field(out, r->op);
    fputc(',', out);
    csv_field(out, r->shape);
    for (int d = 0; d < 3; d++) {
      if (d < r->ndims)
        fprintf(out, ",%zu", r->dims[d]);
      else
        fputc(',', out);
    }
    fputc(',', out);
    csv_field(out, r->variant);
    fprintf(out, ",%zu,%d,%s,%d", r->workgroup_size, r->sweep, tool_row_status_name(r->status),
            r->repeats);
    csv_number(out, r->median_ms);
    csv_number(out, r->min_ms);
    csv_number(out, r->max_ms);
    csv_number(out, r->rate);
    fputc(',', out);
    csv_field(out, r->unit);
    csv_number(out, r->percent_of_ceiling);
    csv_number(out, r->speedup);
    csv_number(out, r->verdict.max_error);
    csv_number(out, r->verdict.tolerance);
    fputc(',', out);
    csv_field(out, r->verdict.measure);
    fputc(',', out);
    csv_field(out, r->checked);
    fputc(',', out);
    csv_field(out, r->note);
    fputc(',', out);
    csv_field(out, r->plan);
    fputc('\n', out);
  }
}

/* "the stream bandwidth (add), the copy bandwidth (softmax, norm, attention in GB/s) or the FMA
   peak (matmul, attention)": each ceiling with the ops the harness's table measures against it
   (an op whose bandwidth-bound calls are rated in GB/s against the copy too). */
static void ceilings_text(char *out, size_t capacity) {
  static const char *const names[] = {[OCFT_CEILING_STREAM] = "the stream bandwidth",
                                      [OCFT_CEILING_COPY] = "the copy bandwidth",
                                      [OCFT_CEILING_FMA] = "the FMA peak"};
  enum { kinds = sizeof names / sizeof names[0] };
  char parts[kinds][128];
  size_t count = 0;
  for (size_t kind = 0; kind < kinds; kind++) {
    char ops[96] = "";
    for (tool_op op = 0; op < tool_op_count(); op++) {
      const ocft_op_case *c = tool_op_case(op);
      const int in_bytes = kind == OCFT_CEILING_COPY && c->traffic && c->ceiling != kind;
      if (c->ceiling == (ocft_ceiling)kind || in_bytes)
        snprintf(ops + strlen(ops), sizeof ops - strlen(ops), "%s%s%s", ops[0] ? ", " : "", c->name,
                 in_bytes ? " in GB/s" : "");
    }
    if (ops[0]) snprintf(parts[count++], sizeof parts[0], "%s (%s)", names[kind], ops);
  }
  out[0] = '\0';
  for (size_t i = 0; i < count; i++)
    snprintf(out + strlen(out), capacity - strlen(out), "%s%s",
             i == 0           ? ""
             : i + 1 == count ? " or "
                              : ", ",
             parts[i]);
}

/* ---- table ---- */

static void table_number(FILE *out, int width, const char *format, double v) {
  if (isfinite(v))
    fprintf(out, format, width, v);
  else
    fprintf(out, "%*s", width, "-");
}

static void table_error(FILE *out, const tool_row *r) {
  if (isnan(r->verdict.max_error))
    fprintf(out, "%10s", "-");
  else if (isinf(r->verdict.max_error))
    fprintf(out, "%10s", "inf/NaN");
  else
    fprintf(out, "%10.2g", r->verdict.max_error);
}

static void report_table(FILE *out, const tool_results *results, const tool_report_meta *meta) {
  const ocf_device_info *info = meta->info;
  const tool_ceiling *c = meta->ceiling;
  fprintf(out, "device   %u:%u %s (%s, %s, %u compute units)\n", info->platform_index,
          info->device_index, info->device_name, tool_device_type_name(info->type), info->vendor,
          (unsigned)info->compute_units);
  fprintf(out, "platform %s, driver %s, %s\n", info->platform_name, info->driver_version,
          info->device_version);
  fprintf(out,
          "ceiling  copy %.1f GB/s (float4 kernel %.1f, clEnqueueCopyBuffer %.1f), stream "
          "(2 reads, 1 write) %.1f GB/s, FMA peak %.1f GFLOP/s: each the best call; cache "
          "%.3g MiB\n",
          c->copy_gbps, c->copy_kernel_gbps, c->copy_buffer_gbps, c->stream_gbps, c->fma_gflops,
          c->cache_bytes / 1048576.0);
  if (meta->flush_bytes)
    fprintf(out,
            "each timed call after a %zu MiB fill (the cache flushed), from the fill's end "
            "to the call's last kernel's end\n",
            meta->flush_bytes >> 20);
  else
    fprintf(out, "timed calls back to back, each from the previous call's end (no cache flush)\n");
  char ceilings[256];
  ceilings_text(ceilings, sizeof ceilings);
  fprintf(out,
          "times: device-side, median of repeats after warm-up; %%ceil is of %s;\nerr/tol: the "
          "worst error over its own tolerance (1 the limit, - unchecked)\n",
          ceilings);
  int sweep_header = 0, shape_width = 16;
  const char *last_op = "";
  for (size_t i = 0; i < results->count; i++) {
    const tool_row *r = &results->rows[i];
    if (r->sweep && !sweep_header) {
      fprintf(out, "\nworkgroup size sweep (oclfuse variant, refused = the library rejects it)\n");
      sweep_header = 1;
      last_op = "";
    }
    if (strcmp(last_op, r->op) != 0) {
      /* The shape column as wide as the op's longest call (options included). */
      shape_width = 16;
      for (size_t j = i; j < results->count && !strcmp(results->rows[j].op, r->op); j++)
        if ((int)strlen(results->rows[j].shape) > shape_width)
          shape_width = (int)strlen(results->rows[j].shape);
      fprintf(out, "\n%-8s %-*s %-13s %5s %-26s %-7s %9s %9s %9s %10s %-7s %6s %7s %10s  %s\n",
              "op", shape_width, "shape", "variant", "wg", "kernel/workgroup", "status",
              "median ms", "min ms", "max ms", "rate", "unit", "%ceil", "speedup", "err/tol",
              "checked / note");
      last_op = r->op;
    }
    fprintf(out, "%-8s %-*s %-13s ", r->op, shape_width, r->shape, r->variant);
    if (r->workgroup_size)
      fprintf(out, "%5zu ", r->workgroup_size);
    else
      fprintf(out, "%5s ", "auto");
    char brief[64];
    tool_plan_brief(r->plan, brief, sizeof brief);
    fprintf(out, "%-26s %-7s ", brief[0] ? brief : "-", tool_row_status_name(r->status));
    table_number(out, 9, "%*.4f", r->median_ms);
    fputc(' ', out);
    table_number(out, 9, "%*.4f", r->min_ms);
    fputc(' ', out);
    table_number(out, 9, "%*.4f", r->max_ms);
    fputc(' ', out);
    table_number(out, 10, "%*.1f", r->rate);
    fprintf(out, " %-7s ", r->unit);
    table_number(out, 6, "%*.1f", r->percent_of_ceiling);
    fputc(' ', out);
    table_number(out, 7, "%*.2f", r->speedup);
    fputc(' ', out);
    table_error(out, r);
    fprintf(out, "  %s%s%s\n", r->checked, r->checked[0] && r->note[0] ? "; " : "", r->note);
  }
  for (size_t i = 0; i < results->count; i++)
    if (strstr(results->rows[i].note, "cache-resident")) {
      fprintf(out, "\n\"cache-resident\": the call's bytes fit the device's cache, which moves "
                   "them faster than the memory\nthe ceiling kernels measure on large buffers.\n");
      break;
    }
  fprintf(out, "\n%.1f s in all%s\n", meta->seconds,
          meta->interrupted ? " (interrupted: the rows measured before the signal)" : "");
}

void tool_report(FILE *out, tool_format format, const tool_results *results,
                 const tool_report_meta *meta) {
  if (format == FORMAT_JSON)
    report_json(out, results, meta);
  else if (format == FORMAT_CSV)
    report_csv(out, results, meta);
  else
    report_table(out, results, meta);
}
