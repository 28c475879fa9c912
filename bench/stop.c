/*
 * Stopping a bench between calls: SIGINT or SIGTERM (Ctrl-C, `timeout`, a job scheduler) asks
 * the run to stop after the call it is measuring, so that the rows already measured are still
 * reported (a JSON run used to lose them all: its object is written at the end). The handler only
 * sets a flag, which the series read between calls (tool_stop_requested); it is installed once
 * with SA_RESETHAND, so a second signal ends the process at once, and SA_RESTART, so that the
 * OpenCL runtime's waits go on.
 */
#include "tool.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int signal_number) {
  stop_signal = signal_number;
}

void tool_stop_on_signals(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = on_stop_signal;
  action.sa_flags = SA_RESETHAND | SA_RESTART;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, NULL);
  sigaction(SIGTERM, &action, NULL);
}

int tool_stop_requested(void) {
  return stop_signal != 0;
}

const char *tool_stop_signal_name(void) {
  return stop_signal == SIGINT ? "SIGINT" : stop_signal == SIGTERM ? "SIGTERM" : "";
}
