/* `oclfuse devices`: every OpenCL platform and device, and the one the default rule picks. */
#include "tool.h"

#include <stdlib.h>
#include <string.h>

static void usage(FILE *out) {
  fprintf(out, "usage: oclfuse devices\n"
               "\n"
               "Lists every OpenCL device of every platform as P:D (the indices --device takes),\n"
               "with its type, name, vendor, compute units, memory, maximum workgroup size,\n"
               "driver and OpenCL version, and says which device is chosen when no --device is\n"
               "given ($OCLFUSE_DEVICE, else the first GPU, else the first device).\n");
}

static double mib(cl_ulong bytes) {
  return (double)bytes / (1024.0 * 1024.0);
}

int cmd_devices(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      usage(stdout);
      return 0;
    }
    fprintf(stderr, "oclfuse devices: unknown argument '%s' (see oclfuse devices --help)\n",
            argv[i]);
    return 2;
  }
  size_t count = 0;
  ocf_status status = ocf_devices_list(NULL, 0, &count);
  if (status != OCF_SUCCESS) {
    fprintf(stderr, "oclfuse devices: %s: %s\n", ocf_status_name(status), ocf_last_error());
    return 1;
  }
  if (count == 0) {
    printf("no OpenCL devices (is an ICD installed, e.g. pocl-opencl-icd?)\n");
    return 1;
  }
  ocf_device_info *devices = calloc(count, sizeof *devices);
  for (size_t i = 0; devices && i < count; i++)
    ocf_device_info_init(&devices[i]);
  if (!devices) {
    fprintf(stderr, "oclfuse devices: out of host memory\n");
    return 1;
  }
  size_t listed = 0;
  status = ocf_devices_list(devices, count, &listed);
  if (status != OCF_SUCCESS) {
    fprintf(stderr, "oclfuse devices: %s: %s\n", ocf_status_name(status), ocf_last_error());
    free(devices);
    return 1;
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
    printf("\ndefault: none: %s: %s\n", ocf_status_name(status), ocf_last_error());
  return status == OCF_SUCCESS ? 0 : 1;
}
