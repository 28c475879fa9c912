/* `oclfuse devices`: every OpenCL platform and device, and the one the default rule picks. */
#include "tool.h"

#include <stdlib.h>
#include <string.h>

static void usage(FILE *out) {
  fprintf(out, "usage: oclfuse devices [options]\n"
               "\n"
               "Lists every OpenCL device of every platform as P:D (the indices --device takes),\n"
               "with its type, name, vendor, compute units, memory, maximum workgroup size,\n"
               "driver and OpenCL version, and says which device is chosen when no --device is\n"
               "given ($OCLFUSE_DEVICE, else the first GPU, else the first device). Finding no\n"
               "device at all is a failure (exit status 1).\n"
               "\n"
               "options:\n");
  tool_usage_common(out, 0);
}

static double mib(cl_ulong bytes) {
  return (double)bytes / (1024.0 * 1024.0);
}

int cmd_devices(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      usage(stdout);
      return TOOL_EXIT_OK;
    } else if (!strcmp(argv[i], "--version")) {
      return tool_print_version();
    } else if (!strcmp(argv[i], "--quiet")) {
      tool_set_quiet(1); /* nothing to leave out: devices prints no progress */
    } else {
      tool_error("unknown option '%s' (see oclfuse devices --help)", argv[i]);
      return TOOL_EXIT_USAGE;
    }
  }
  size_t count = 0;
  ocf_status status = ocf_devices_list(NULL, 0, &count);
  if (status != OCF_SUCCESS) {
    char text[1024];
    tool_status_text(text, sizeof text, "ocf_devices_list", status);
    tool_error("%s", text);
    return TOOL_EXIT_FAILURE;
  }
  if (count == 0) {
    tool_error("no OpenCL devices (is an ICD installed, e.g. pocl-opencl-icd?)");
    return TOOL_EXIT_FAILURE;
  }
  ocf_device_info *devices = calloc(count, sizeof *devices);
  for (size_t i = 0; devices && i < count; i++)
    ocf_device_info_init(&devices[i]);
  if (!devices) {
    tool_error("out of host memory");
    return TOOL_EXIT_FAILURE;
  }
  size_t listed = 0;
  status = ocf_devices_list(devices, count, &listed);
  if (status != OCF_SUCCESS) {
    char text[1024];
    tool_status_text(text, sizeof text, "ocf_devices_list", status);
    tool_error("%s", text);
    free(devices);
    return TOOL_EXIT_FAILURE;
  }
  if (listed < count) count = listed;
  unsigned last_platform = (unsigned)-1;
  for (size_t i = 0; i < count; i++) {
    const ocf_device_info *d = &devices[i];
    if (d->platform_index != last_platform) {
      printf("platform %u: %s\n", d->platform_index, d->platform_name);
      last_platform = d->platform_index;
    }
    printf("  %u:%u  %-11s %s\n", d->platform_index, d->device_index,
           tool_device_type_name(d->type), d->device_name);
    printf("        vendor %s\n", d->vendor);
    printf("        %u compute units, %u MHz, local memory %.0f KiB, global memory %.0f MiB, "
           "max workgroup size %zu\n",
           (unsigned)d->compute_units, (unsigned)d->max_clock_mhz, mib(d->local_mem_bytes) * 1024.0,
           mib(d->global_mem_bytes), d->max_workgroup_size);
    printf("        driver %s, %s\n", d->driver_version, d->device_version);
  }
  free(devices);

  ocf_device_info chosen;
  ocf_device_info_init(&chosen);
  const char *env = getenv("OCLFUSE_DEVICE");
  status = ocf_device_select(NULL, &chosen);
  if (status == OCF_SUCCESS)
    printf("\ndefault: %u:%u %s (%s)\n", chosen.platform_index, chosen.device_index,
           chosen.device_name,
           env && env[0] ? "from $OCLFUSE_DEVICE"
                         : "no $OCLFUSE_DEVICE: the first GPU, else the "
                           "first device");
  else
    printf("\ndefault: none: %s (%s)\n", ocf_last_error(), ocf_status_name(status));
  if (status == OCF_SUCCESS) return TOOL_EXIT_OK;
  /* A $OCLFUSE_DEVICE that names nothing is the same usage error as a bad --device elsewhere. */
  return env && env[0] && (status == OCF_ERR_INVALID_SPEC || status == OCF_ERR_NO_DEVICE)
             ? TOOL_EXIT_USAGE
             : TOOL_EXIT_FAILURE;
}
