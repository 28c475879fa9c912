#include "matmul_check.h"
static void test_placeholder(void **state) { (void)ocft_get_env(state); }
int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_placeholder)};
  return cmocka_run_group_tests_name("x", tests, ocft_group_setup, ocft_group_teardown);
}
