/* oclfuse: the command-line tool. Dispatches to one subcommand per file (cmd_*.c). */
#include "tool.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *out) {
  char ops[128]; /* the harness's table of ops, so that a new op is named here too */
  ocft_op_names_text(" and ", ops, sizeof ops);
  fprintf(out,
          "usage: oclfuse <command> [options]\n"
          "\n"
          "liboclfuse %s: fused, tunable OpenCL kernels (%s).\n"
          "\n"
          "commands:\n"
          "  devices   list every OpenCL platform and device, and the default choice\n"
          "  check     run every op on a device and compare with the CPU reference\n"
          "  bench     time the ops against their baselines and the device's ceiling\n"
          "  tune      search the tunables per shape class and write the tuning database\n"
          "  warmup    build every program the ops need into the on-disk cache\n"
          "\n"
          "`oclfuse <command> --help` describes a command's options. Every command takes\n"
          "--quiet (no progress lines or notes on stderr), --version and --help.\n"
          "A device is chosen with --device SPEC: \"P:D\" indices (see `oclfuse devices`) or a\n"
          "name substring; without it, $OCLFUSE_DEVICE, else the first GPU, else any device.\n"
          "Messages on stderr start with the command (\"oclfuse bench: ...\"); a library error\n"
          "names the function and the argument (\"ocf_softmax: in: ... (OCF_ERR_...)\").\n"
          "\n"
          "%s"
          "\n"
          "%s",
          ocf_version_string(), ops, tool_exit_status_table, tool_environment_table);
}

typedef struct command {
  const char *name;
  int (*run)(int argc, char **argv);
} command;

int main(int argc, char **argv) {
  static const command commands[] = {{"devices", cmd_devices},
                                     {"check", cmd_check},
                                     {"bench", cmd_bench},
                                     {"tune", cmd_tune},
                                     {"warmup", cmd_warmup}};
  if (argc < 2) {
    usage(stderr);
    return TOOL_EXIT_USAGE;
  }
  const char *name = argv[1];
  if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
    usage(stdout);
    return TOOL_EXIT_OK;
  }
  if (!strcmp(name, "--version")) return tool_print_version();
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (!strcmp(name, commands[i].name)) {
      tool_set_command(name);
      return commands[i].run(argc - 1, argv + 1);
    }
  tool_error("unknown command '%s' (see oclfuse --help)", name);
  return TOOL_EXIT_USAGE;
}
