/*
 * The planner on described devices: add's plans (src/plan/plan_add.c, cl/add.cl) for a table of
 * devices, kernel limits, sizes, offsets and variants. The method, the devices and the helpers:
 * tests/plan_fixture.h; every default add plan against its kernels' assumptions: test_plan.c.
 */

#include "plan_fixture.h"

typedef struct add_case {
  device_id device;
  size_t learnt; /* the kernel limit learnt so far, 0: none */
  size_t n, x_off, y_off, out_off;
  int variant;
  const char *shape, *values;
} add_case;

/*
 * Rules (cl/add.cl, src/tuning/schema_add.c): add_vector when every offset is a multiple of VW,
 * add_general otherwise or when asked for, add_baseline (one element a work-item) when asked
 * for. The workgroup is the tuned `wg`, cut to the device's and the kernel's limits. The vector
 * and general kernels loop grid-stride over at most wg x compute units x groups_per_unit
 * work-items (no cap when groups_per_unit is 0: one vector a work-item), and over at least the
 * work-items the ragged tail needs (n % VW of them).
 *
 * Rows: H200 wg=256 vw=4 groups_per_unit=16 (the cap: 256 x 132 x 16 = 540672 work-items);
 * CPUs wg=64 vw=8 groups_per_unit=0; AMD wg=256 vw=4 16; Intel wg=256 vw=4 8; Mali and Adreno
 * have no row of their own: the fallbacks wg=128 vw=4 groups_per_unit=8.
 */
static const add_case add_cases[] = {
    /* 1000 floats, aligned: 250 float4 in one group of 256 work-items. */
    {H200, 0, 1000, 0, 0, 0, AUTO, "add_vector wg=256 groups=1", "WG=256 VW=4 fixed=0"},
    /* The same once the 256 cap is learnt: the row was measured under it, nothing changes. */
    {H200, 256, 1000, 0, 0, 0, AUTO, "add_vector wg=256 groups=1", "WG=256 VW=4"},
    /* 2^24 floats = 4194304 float4, above the 540672 cap: 132 x 16 = 2112 groups. */
    {H200, 0, 1 << 24, 0, 0, 0, AUTO, "add_vector wg=256 groups=2112", "WG=256 VW=4"},
    {H200, 256, 1 << 24, 0, 0, 0, AUTO, "add_vector wg=256 groups=2112", "WG=256 VW=4"},
    /* 2^20 floats = 262144 float4, below the cap: one vector a work-item, 1024 groups. */
    {H200, 0, 1 << 20, 0, 0, 0, AUTO, "add_vector wg=256 groups=1024", "WG=256 VW=4"},
    /* Offsets that are all multiples of 4 keep the vector kernel ... */
    {H200, 0, 1000, 4, 8, 12, AUTO, "add_vector wg=256 groups=1", "VW=4"},
    /* ... and any one that is not takes the scalar kernel: 1000 elements, 4 groups. */
    {H200, 0, 1000, 2, 0, 0, AUTO, "add_general wg=256 groups=4", "WG=256"},
    {H200, 0, 1000, 0, 1, 0, AUTO, "add_general wg=256 groups=4", "WG=256"},
    {H200, 0, 1000, 0, 0, 3, AUTO, "add_general wg=256 groups=4", "WG=256"},
    /* The scalar loop has the same cap: 2^24 elements in 2112 groups. */
    {H200, 0, 1 << 24, 1, 0, 0, AUTO, "add_general wg=256 groups=2112", "WG=256"},
    {H200, 0, 1000, 0, 0, 0, GENERAL, "add_general wg=256 groups=4", "WG=256"},
    /* The baseline has no loop: 2^24 / 256 = 65536 groups. */
    {H200, 0, 1 << 24, 0, 0, 0, BASELINE, "add_baseline wg=256 groups=65536", "WG=256"},
    {H200, 0, 1000, 0, 0, 0, BASELINE, "add_baseline wg=256 groups=4", "WG=256"},
    /* Fewer floats than a vector: no whole vector, 3 tail work-items, one group. */
    {H200, 0, 3, 0, 0, 0, AUTO, "add_vector wg=256 groups=1", "VW=4"},
    /* n = 0 plans one group (the op enqueues nothing). */
    {H200, 0, 0, 0, 0, 0, AUTO, "add_vector wg=256 groups=1", "VW=4"},
    /* A lower learnt limit (a register-heavy build): 128 work-items, the same 2112 groups. */
    {H200, 128, 1 << 24, 0, 0, 0, AUTO, "add_vector wg=128 groups=2112", "WG=128"},

    /* PoCL: 4099 floats are 512 float8 (the first 3 work-items also take the 3-float tail):
       8 groups of 64. */
    {POCL, 0, 4099, 0, 0, 0, AUTO, "add_vector wg=64 groups=8", "WG=64 VW=8"},
    /* An offset of 4 is not a multiple of 8: 4099 elements, ceil(4099 / 64) = 65 groups. */
    {POCL, 0, 4099, 4, 4, 4, AUTO, "add_general wg=64 groups=65", "WG=64"},
    /* No cap on a CPU: 2^24 / 8 / 64 = 32768 groups. */
    {POCL, 0, 1 << 24, 0, 0, 0, AUTO, "add_vector wg=64 groups=32768", "WG=64 VW=8"},

    /* llvmpipe: the CPU row before the first build, then its kernels' 32. */
    {LLVMPIPE, 0, 4099, 0, 0, 0, AUTO, "add_vector wg=64 groups=8", "WG=64 VW=8"},
    {LLVMPIPE, 32, 4099, 0, 0, 0, AUTO, "add_vector wg=32 groups=16", "WG=32 VW=8"},
    /* Apple's CPU with a kernel limit of 1: one work-item a group, 512 vectors. */
    {APPLE_CPU, 1, 4099, 0, 0, 0, AUTO, "add_vector wg=1 groups=512", "WG=1 VW=8"},
    {APPLE_CPU, 1, 4099, 1, 0, 0, AUTO, "add_general wg=1 groups=4099", "WG=1"},

    /* AMD: cap 256 x 60 x 16 = 245760 work-items, 960 groups; the same with a 1024 device. */
    {AMD_GPU, 0, 1 << 24, 0, 0, 0, AUTO, "add_vector wg=256 groups=960", "WG=256 VW=4"},
    {AMD_GPU_1024, 0, 1 << 24, 0, 0, 0, AUTO, "add_vector wg=256 groups=960", "WG=256 VW=4"},
    /* Intel: cap 256 x 96 x 8, 768 groups. */
    {INTEL_GPU, 0, 1 << 24, 0, 0, 0, AUTO, "add_vector wg=256 groups=768", "WG=256 VW=4"},
    /* Mali, fallbacks: cap 128 x 12 x 8, 96 groups; under kernel limits of 32 and 8 the groups
       shrink and the count stays 12 x 8. */
    {MALI, 0, 1 << 24, 0, 0, 0, AUTO, "add_vector wg=128 groups=96", "WG=128 VW=4"},
    {MALI, 32, 1 << 24, 0, 0, 0, AUTO, "add_vector wg=32 groups=96", "WG=32 VW=4"},
    {MALI, 8, 1 << 24, 0, 0, 0, AUTO, "add_vector wg=8 groups=96", "WG=8 VW=4"},
    /* Adreno, fallbacks: 2 compute units, cap 128 x 2 x 8: 16 groups. */
    {ADRENO, 0, 1 << 24, 0, 0, 0, AUTO, "add_vector wg=128 groups=16", "WG=128 VW=4"},
};

static void test_plan_add_table(void **state) {
  (void)state;
  for (size_t i = 0; i < ARRAY_LEN(add_cases); i++) {
    const add_case *c = &add_cases[i];
    ocf_device_facts facts = facts_of(c->device, c->learnt);
    ocf_tuning_values tuning = tuning_of(&facts, c->device, OCF_OP_ADD);
    const ocf_add_call call = {c->n, c->x_off, c->y_off, c->out_off, OCF_F32, c->variant, 0};
    ocf_plan plan;
    char what[160];
    snprintf(what, sizeof what, "add case %zu on %s (limit %zu), n %zu, offsets %zu %zu %zu", i,
             devices[c->device].name, c->learnt, c->n, c->x_off, c->y_off, c->out_off);
    expect_plan(what, ocf_plan_add(&facts, &tuning, &call, &plan), &plan, c->shape, c->values);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_plan_add_table),
  };
  return cmocka_run_group_tests_name("plan_add", tests, NULL, NULL);
}
