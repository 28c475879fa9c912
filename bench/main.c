/* oclfuse: the command-line tool. Dispatches to one subcommand per file (cmd_*.c). */
#include "tool.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *out) {
  fprintf(out,
          "usage: oclfuse <command> [options]\n"
          "\n"
          "liboclfuse %s: fused, tunable OpenCL kernels (add, softmax, matmul).\n"
          "\n"
          "commands:\n"
          "  devices   list every OpenCL platform and device, and the default choice\n"
          "  check     run every op on a device and compare with the CPU reference\n"
          "  bench     time the ops against their baselines and the device's ceiling\n"
          "  tune      search the tunables per shape class and write the tuning database\n"
          "  warmup    build every program the ops need into the on-disk cache\n"
          "\n"
          "`oclfuse <command> --help` describes a command's options.\n"
          "A device is chosen with --device SPEC: \"P:D\" indices (see `oclfuse devices`) or a\n"
          "name substring; without it, $OCLFUSE_DEVICE, else the first GPU, else any device.\n",
          ocf_version_string());
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const char *command = argv[1];
  if (!strcmp(command, "--help") || !strcmp(command, "-h") || !strcmp(command, "help")) {
    usage(stdout);
    return 0;
  }
  if (!strcmp(command, "--version")) {
    printf("oclfuse %s\n", ocf_version_string());
    return 0;
  }
  if (!strcmp(command, "devices")) return cmd_devices(argc - 1, argv + 1);
  if (!strcmp(command, "check")) return cmd_check(argc - 1, argv + 1);
  if (!strcmp(command, "bench")) return cmd_bench(argc - 1, argv + 1);
  if (!strcmp(command, "tune")) return cmd_tune(argc - 1, argv + 1);
  if (!strcmp(command, "warmup")) return cmd_warmup(argc - 1, argv + 1);
  fprintf(stderr, "oclfuse: unknown command '%s'\n\n", command);
  usage(stderr);
  return 2;
}
