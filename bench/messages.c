/*
 * What the tool says on stderr, and the parts of every command's help that are the same for all:
 *
 *   errors    "oclfuse <command>: <what>", always printed
 *   notes     the same prefix, left out with --quiet
 *   progress  "oclfuse <command>: [i/N] <step>, about 1m05s left", left out with --quiet; on a
 *             terminal one status line redrawn in place (and cleared before anything else is
 *             printed), elsewhere (a log, CI) one line per step
 *
 * A library failure reads "<function>: <argument>: <why> (<STATUS>)", the function named once
 * whether or not the library's own message starts with it.
 */
#include "tool.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char command[32] = "oclfuse";
static int quiet;

static struct {
  size_t total;
  double started_ms;
  int open; /* a terminal status line is showing */
} progress;

void tool_set_command(const char *name) {
  snprintf(command, sizeof command, "oclfuse %s", name);
}

void tool_set_quiet(int on) {
  quiet = on;
}

int tool_is_quiet(void) {
  return quiet;
}

void tool_progress_clear(void) {
  if (!progress.open) return;
  fputs("\r\033[K", stderr);
  progress.open = 0;
}

static void say(const char *fmt, va_list ap) {
  tool_progress_clear();
  fflush(stdout);
  fprintf(stderr, "%s: ", command);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

void tool_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  say(fmt, ap);
  va_end(ap);
}

void tool_note(const char *fmt, ...) {
  if (quiet) return;
  va_list ap;
  va_start(ap, fmt);
  say(fmt, ap);
  va_end(ap);
}

void tool_progress_begin(size_t total) {
  progress.total = total;
  progress.started_ms = tool_clock_ms();
}

static void progress_line(const char *text) {
  if (quiet) return;
  if (isatty(STDERR_FILENO)) {
    fflush(stdout);
    /* Cut to an 80-column terminal so that the line never wraps (a wrapped line cannot be
       redrawn with a carriage return). */
    int room = 78 - (int)strlen(command);
    fprintf(stderr, "\r\033[K%s: %.*s", command, room > 20 ? room : 20, text);
    progress.open = 1;
  } else {
    fprintf(stderr, "%s: %s\n", command, text);
  }
  fflush(stderr);
}

void tool_progress_text(const char *fmt, ...) {
  char text[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  progress_line(text);
}

void tool_progress_step(size_t step, const char *fmt, ...) {
  if (quiet) return;
  char what[400], left[48] = "";
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  size_t total = step > progress.total ? step : progress.total, done = step ? step - 1 : 0;
  if (done > 0) {
    /* Every step counted alike: a rough figure, which it says. */
    double seconds =
        (tool_clock_ms() - progress.started_ms) / 1e3 / (double)done * (double)(total - done);
    snprintf(left, sizeof left, ", about %dm%02ds left", (int)seconds / 60, (int)seconds % 60);
  }
  tool_progress_text("[%zu/%zu] %s%s", step, total, what, left);
}

void tool_status_text(char *err, size_t errlen, const char *function, int status) {
  const char *last = ocf_last_error();
  size_t length = strlen(function);
  const char *name = ocf_status_name((ocf_status)status);
  if (!last[0])
    snprintf(err, errlen, "%s: %s (%s)", function, ocf_status_message((ocf_status)status), name);
  else if (!strncmp(last, function, length) && last[length] == ':')
    snprintf(err, errlen, "%s (%s)", last, name);
  else
    snprintf(err, errlen, "%s: %s (%s)", function, last, name);
}

int tool_library_failure(int status, const char *what, char *err, size_t errlen) {
  tool_status_text(err, errlen, what, status);
  return status == OCF_ERR_INVALID_WORKGROUP ? TOOL_REFUSED : TOOL_FAILED;
}

int tool_out_of_device_memory(int status) {
  return status == CL_MEM_OBJECT_ALLOCATION_FAILURE || status == CL_INVALID_BUFFER_SIZE;
}

int tool_open_context(const char *spec, ocf_context **ctx) {
  ocf_status status = ocf_context_create(spec, ctx);
  if (status == OCF_SUCCESS) return TOOL_EXIT_OK;
  char text[1024];
  tool_status_text(text, sizeof text, "ocf_context_create", status);
  tool_error("%s", text);
  /* A device the user named, by --device or $OCLFUSE_DEVICE, that is malformed or absent is a
     usage error either way; no device at all on the machine is a failure. */
  const char *env = getenv("OCLFUSE_DEVICE");
  int named = (spec && spec[0]) || (env && env[0]);
  return named && (status == OCF_ERR_INVALID_SPEC || status == OCF_ERR_NO_DEVICE)
             ? TOOL_EXIT_USAGE
             : TOOL_EXIT_FAILURE;
}

int tool_print_version(void) {
  printf("oclfuse %s\n", ocf_version_string());
  return TOOL_EXIT_OK;
}

void tool_usage_common(FILE *out, int with_device) {
  if (with_device)
    fputs("  --device SPEC     \"P:D\" indices or a name substring (see `oclfuse devices`)\n", out);
  fputs("  --quiet           no progress lines or notes on stderr (results and errors still "
        "print)\n"
        "  --version         print the version and exit\n"
        "  -h, --help        this text\n"
        "\n"
        "Exit status: 0 all good, 1 a failure or nothing measured, 2 bad usage (the table: "
        "oclfuse --help).\n"
        "Environment: OCLFUSE_DEVICE, OCLFUSE_TUNING_DIR, OCLFUSE_TUNING_DB, OCLFUSE_CACHE,\n"
        "OCLFUSE_VERBOSE (what each does: oclfuse --help).\n",
        out);
}

/* Every variable that src/ and bench/ read with getenv (the tests' own OCLFUSE_TEST_* are in
   DEVELOPERS.md). */
const char tool_environment_table[] =
    "environment:\n"
    "  OCLFUSE_DEVICE      the device when --device is not given: \"P:D\" indices or a\n"
    "                      substring of a platform, device or vendor name, case ignored\n"
    "                      (PoCL's platform is \"Portable Computing Language\": `portable`;\n"
    "                      Mesa's is `rusticl`); unset: the first GPU, else the first device\n"
    "  OCLFUSE_TUNING_DIR  the folder of the user's tuning databases and of the compiled\n"
    "                      programs (programs/); default $XDG_CACHE_HOME/oclfuse, else\n"
    "                      $HOME/.cache/oclfuse\n"
    "  OCLFUSE_TUNING_DB   0: ignore the user's tuning database (tune sets it while it measures)\n"
    "  OCLFUSE_CACHE       0: no on-disk program cache; always: store programs when a context\n"
    "                      is released on every device (default: on GPUs; on CPUs only by\n"
    "                      warmup)\n"
    "  OCLFUSE_VERBOSE     set and not 0: one line on stderr per call's plan and per program\n"
    "                      build\n";

const char tool_exit_status_table[] =
    "exit status, the same for every command:\n"
    "  0  all good: everything asked for ran, and every result checked was right (rows the\n"
    "     device refuses or that are skipped on purpose, with a note, are not failures)\n"
    "  1  a failure: a wrong result, a call that failed, or nothing measured at all\n"
    "  2  bad usage: an unknown command or option, a bad value, or a device named by --device\n"
    "     or $OCLFUSE_DEVICE that is malformed or matches nothing\n";
