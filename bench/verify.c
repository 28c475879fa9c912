/*
 * The correctness gate's verdicts. The comparisons themselves, and the error model of each op,
 * are the harness's (harness/tolerance.h), shared with the tests.
 */
#include "tool.h"

void tool_verdict_init(tool_verdict *v) {
  ocft_check empty;
  ocft_check_start(&empty);
  tool_verdict_set(v, &empty);
}

void tool_verdict_set(tool_verdict *v, const ocft_check *check) {
  v->max_error = check->ratio;
  v->tolerance = 1.0;
  v->measure = "err/tol";
  v->checked = check->checked;
  v->worst = check->worst;
  v->pass = ocft_check_passed(check);
}
