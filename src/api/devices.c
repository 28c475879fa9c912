/* Device listing and selection by spec ("P:D", a name substring, or the default rule). */
#include "runtime/context.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The ICD loader returns this (cl_khr_icd) when no platform is installed: not an error here,
   just zero devices. */
#define OCF_CL_PLATFORM_NOT_FOUND_KHR (-1001)

/* Copies a string query's answer into out (capacity bytes, cut to fit, always terminated). The
   strings name the device in tuning rows and cache keys, so a query that fails is a failure of
   the description, not an empty name. */
static ocf_status info_string(cl_platform_id platform, cl_device_id device, cl_uint what,
                              const char *what_name, char *out, size_t capacity) {
  size_t size = 0;
  out[0] = '\0';
  cl_int err = device ? clGetDeviceInfo(device, what, 0, NULL, &size)
                      : clGetPlatformInfo(platform, what, 0, NULL, &size);
  if (err != CL_SUCCESS) return ocf_fail_cl(err, what_name);
  if (size == 0) return OCF_SUCCESS;
  char *full = malloc(size);
  if (!full) return ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "%s: %zu bytes", what_name, size);
  err = device ? clGetDeviceInfo(device, what, size, full, NULL)
               : clGetPlatformInfo(platform, what, size, full, NULL);
  if (err == CL_SUCCESS) {
    full[size - 1] = '\0';
    strncpy(out, full, capacity - 1);
    out[capacity - 1] = '\0';
  }
  free(full);
  return err == CL_SUCCESS ? OCF_SUCCESS : ocf_fail_cl(err, what_name);
}

/* The query names of cl_nv_device_attribute_query (not in every OpenCL header). */
#define OCF_CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define OCF_CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001

/* NVIDIA's compute capability where the device has the extension that reports it; 0.0
   elsewhere, and where a query fails (a device still describes itself without it). */
static void nv_compute_capability(cl_device_id device, ocf_device_info *info) {
  info->nv_compute_capability_major = info->nv_compute_capability_minor = 0;
  size_t size = 0;
  if (clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, NULL, &size) != CL_SUCCESS || size == 0)
    return;
  char *extensions = malloc(size);
  if (!extensions) return;
  int has = clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, size, extensions, NULL) == CL_SUCCESS &&
            strstr(extensions, "cl_nv_device_attribute_query") != NULL;
  free(extensions);
  cl_uint major = 0, minor = 0;
  if (!has ||
      clGetDeviceInfo(device, OCF_CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof major, &major,
                      NULL) != CL_SUCCESS ||
      clGetDeviceInfo(device, OCF_CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof minor, &minor,
                      NULL) != CL_SUCCESS)
    return;
  info->nv_compute_capability_major = major;
  info->nv_compute_capability_minor = minor;
}

ocf_status ocf_device_info_fill(cl_platform_id platform, cl_device_id device,
                                ocf_device_info *info) {
  info->size = sizeof *info;
  info->platform = platform;
  info->device = device;
  const struct {
    cl_device_id device; /* NULL: a platform query */
    cl_uint what;
    const char *name;
    char *out;
    size_t capacity;
  } strings[] = {
      {NULL, CL_PLATFORM_NAME, "clGetPlatformInfo(CL_PLATFORM_NAME)", info->platform_name,
       sizeof info->platform_name},
      {device, CL_DEVICE_NAME, "clGetDeviceInfo(CL_DEVICE_NAME)", info->device_name,
       sizeof info->device_name},
      {device, CL_DEVICE_VENDOR, "clGetDeviceInfo(CL_DEVICE_VENDOR)", info->vendor,
       sizeof info->vendor},
      {device, CL_DRIVER_VERSION, "clGetDeviceInfo(CL_DRIVER_VERSION)", info->driver_version,
       sizeof info->driver_version},
      {device, CL_DEVICE_VERSION, "clGetDeviceInfo(CL_DEVICE_VERSION)", info->device_version,
       sizeof info->device_version},
  };
  for (size_t i = 0; i < OCF_ARRAY_LEN(strings); i++) {
    ocf_status status = info_string(platform, strings[i].device, strings[i].what, strings[i].name,
                                    strings[i].out, strings[i].capacity);
    if (status != OCF_SUCCESS) return status;
  }

  struct {
    cl_device_info what;
    const char *name;
    void *value;
    size_t size;
  } numbers[] = {
#define OCF_NUMBER_(what, field) \
  {what, "clGetDeviceInfo(" #what ")", &info->field, sizeof info->field}
      OCF_NUMBER_(CL_DEVICE_TYPE, type),
      OCF_NUMBER_(CL_DEVICE_MAX_COMPUTE_UNITS, compute_units),
      OCF_NUMBER_(CL_DEVICE_MAX_CLOCK_FREQUENCY, max_clock_mhz),
      OCF_NUMBER_(CL_DEVICE_GLOBAL_MEM_SIZE, global_mem_bytes),
      OCF_NUMBER_(CL_DEVICE_LOCAL_MEM_SIZE, local_mem_bytes),
      OCF_NUMBER_(CL_DEVICE_MAX_WORK_GROUP_SIZE, max_workgroup_size),
      OCF_NUMBER_(CL_DEVICE_MAX_MEM_ALLOC_SIZE, max_alloc_bytes),
#undef OCF_NUMBER_
  };
  for (size_t i = 0; i < OCF_ARRAY_LEN(numbers); i++) {
    cl_int err = clGetDeviceInfo(device, numbers[i].what, numbers[i].size, numbers[i].value, NULL);
    if (err != CL_SUCCESS) return ocf_fail_cl(err, numbers[i].name);
  }
  /* A device may report more than three dimensions; the query must make room for all. */
  size_t item_limits[16] = {0};
  size_t limits_size = 0;
  cl_int err = clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, 0, NULL, &limits_size);
  if (err == CL_SUCCESS && (limits_size > sizeof item_limits || limits_size < sizeof(size_t)))
    err = CL_INVALID_VALUE;
  if (err == CL_SUCCESS)
    err = clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, limits_size, item_limits, NULL);
  if (err != CL_SUCCESS) return ocf_fail_cl(err, "clGetDeviceInfo(CL_DEVICE_MAX_WORK_ITEM_SIZES)");
  for (size_t d = 0; d < 3; d++)
    info->max_work_item_sizes[d] = d < limits_size / sizeof(size_t) ? item_limits[d] : 1;
  nv_compute_capability(device, info);
  return OCF_SUCCESS;
}

int ocf_device_has_extension(cl_device_id device, const char *name) {
  size_t size = 0, len = strlen(name);
  if (len == 0 || clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, NULL, &size) != CL_SUCCESS ||
      size == 0)
    return 0;
  char *list = malloc(size + 1);
  if (!list) return 0;
  int found = 0;
  if (clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, size, list, NULL) == CL_SUCCESS) {
    list[size] = '\0';
    for (const char *at = list; !found && (at = strstr(at, name)) != NULL; at += len)
      found = (at == list || at[-1] == ' ') && (at[len] == ' ' || at[len] == '\0');
  }
  free(list);
  return found;
}

/* Calls visit(info, user) for every device of every platform until it returns non-zero.
   Platforms that report no devices are skipped, as an ICD loader may list a vendor whose driver
   is not usable on this machine. A platform whose device query fails, or a device that cannot
   describe itself (a broken driver, or a runtime out of memory), is left out too rather than
   hiding every other device; the first such failure is kept in *skipped (its status, and its
   text in skipped_text), so that a selection that finds nothing can give it as the reason. */
typedef int (*device_visitor)(const ocf_device_info *info, void *user);

typedef struct skipped_device {
  ocf_status status; /* OCF_SUCCESS: nothing was left out */
  char text[256];
} skipped_device;

static void skip_device(skipped_device *skipped, ocf_status status) {
  if (skipped->status == OCF_SUCCESS) {
    skipped->status = status;
    snprintf(skipped->text, sizeof skipped->text, "%s", ocf_last_error());
  }
  ocf_error_clear();
}

static ocf_status for_each_device(device_visitor visit, void *user, skipped_device *skipped) {
  skipped->status = OCF_SUCCESS;
  skipped->text[0] = '\0';
  cl_uint platform_count = 0;
  cl_int err = clGetPlatformIDs(0, NULL, &platform_count);
  if (err == OCF_CL_PLATFORM_NOT_FOUND_KHR) return OCF_SUCCESS;
  if (err != CL_SUCCESS) return ocf_fail_cl(err, "clGetPlatformIDs");
  if (platform_count == 0) return OCF_SUCCESS;
  cl_platform_id *platforms = malloc(platform_count * sizeof *platforms);
  if (!platforms) return ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "cannot allocate the platform list");
  err = clGetPlatformIDs(platform_count, platforms, NULL);
  if (err != CL_SUCCESS) {
    free(platforms);
    return ocf_fail_cl(err, "clGetPlatformIDs");
  }
  ocf_status status = OCF_SUCCESS;
  int stop = 0;
  for (cl_uint p = 0; p < platform_count && !stop && status == OCF_SUCCESS; p++) {
    cl_uint device_count = 0;
    err = clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, NULL, &device_count);
    if (err == CL_DEVICE_NOT_FOUND || (err == CL_SUCCESS && device_count == 0)) continue;
    if (err != CL_SUCCESS) {
      skip_device(skipped, ocf_fail_cl(err, "clGetDeviceIDs"));
      continue;
    }
    cl_device_id *devices = malloc(device_count * sizeof *devices);
    if (!devices) {
      status = ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "cannot allocate the device list");
      break;
    }
    err = clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, device_count, devices, NULL);
    if (err != CL_SUCCESS) skip_device(skipped, ocf_fail_cl(err, "clGetDeviceIDs"));
    for (cl_uint d = 0; err == CL_SUCCESS && d < device_count && !stop; d++) {
      ocf_device_info info;
      memset(&info, 0, sizeof info);
      info.platform_index = p;
      info.device_index = d;
      ocf_status described = ocf_device_info_fill(platforms[p], devices[d], &info);
      if (described != OCF_SUCCESS) {
        skip_device(skipped, described);
        continue;
      }
      stop = visit(&info, user);
    }
    free(devices);
  }
  free(platforms);
  return status;
}

typedef struct list_state {
  ocf_device_info *out;
  size_t capacity;
  size_t count;
} list_state;

static int list_visit(const ocf_device_info *info, void *user) {
  list_state *state = user;
  if (state->count < state->capacity) {
    /* The caller's elements are devices[0].size bytes apart (its own sizeof). */
    size_t stride = state->out->size;
    ocf_device_info_copy_out((ocf_device_info *)((char *)state->out + state->count * stride),
                             stride, info);
  }
  state->count++;
  return 0;
}

ocf_status ocf_devices_list(ocf_device_info *devices, size_t capacity, size_t *count) {
  ocf_error_clear();
  if (!count) return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_devices_list: count is NULL");
  if (!devices && capacity > 0)
    return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_devices_list: devices is NULL but capacity is %zu",
                    capacity);
  if (capacity > 0) {
    ocf_status status = ocf_check_struct_size("ocf_devices_list: devices[0]", devices->size,
                                              OCF_DEVICE_INFO_FIRST_SIZE);
    if (status != OCF_SUCCESS) return status;
  }
  list_state state = {devices, capacity, 0};
  skipped_device skipped; /* the listing leaves such devices out */
  ocf_status status = for_each_device(list_visit, &state, &skipped);
  if (status == OCF_SUCCESS) *count = state.count;
  return status;
}

/* A selection rule: which device to keep, filled in by the visitor. */
typedef enum rule_kind { RULE_INDEX, RULE_NAME, RULE_TYPE } rule_kind;

typedef struct select_state {
  rule_kind kind;
  unsigned platform_index, device_index; /* RULE_INDEX */
  const char *name;                      /* RULE_NAME */
  cl_device_type type;                   /* RULE_TYPE */
  int found;
  ocf_device_info match;
} select_state;

static int select_visit(const ocf_device_info *info, void *user) {
  select_state *state = user;
  int hit = 0;
  switch (state->kind) {
  case RULE_INDEX:
    hit =
        info->platform_index == state->platform_index && info->device_index == state->device_index;
    break;
  case RULE_NAME:
    hit = ocf_contains_nocase(info->platform_name, state->name) ||
          ocf_contains_nocase(info->device_name, state->name) ||
          ocf_contains_nocase(info->vendor, state->name);
    break;
  case RULE_TYPE:
    hit = (info->type & state->type) != 0;
    break;
  }
  if (hit) {
    state->found = 1;
    state->match = *info;
  }
  return hit;
}

/* Reads one index of a "P:D" spec at *text: optional spaces, decimal digits (at least one, a
   value up to 65535), optional spaces. Moves *text past it; -1 when there is no such index. */
static int parse_index(const char **text, unsigned *value) {
  const char *c = *text;
  while (isspace((unsigned char)*c))
    c++;
  if (!isdigit((unsigned char)*c)) return -1; /* a sign ("-1:0") or nothing (":0") */
  unsigned long v = 0;
  for (; isdigit((unsigned char)*c); c++) {
    v = v * 10 + (unsigned long)(*c - '0');
    if (v > 65535) return -1;
  }
  while (isspace((unsigned char)*c))
    c++;
  *value = (unsigned)v;
  *text = c;
  return 0;
}

/* Parses "P:D" (decimal indices). Returns 1 for a valid index spec, 0 when the spec is not one
   at all (it has a character other than digits, signs, ':' and spaces: a name, which may contain
   ':'), -1 when it looks like one but is malformed ("0:", ":1", "1:2:3", "-1:0", an index out
   of range). */
static int parse_index_spec(const char *spec, unsigned *platform, unsigned *device) {
  if (!strchr(spec, ':')) return 0;
  for (const char *c = spec; *c; c++)
    if (*c != ':' && *c != '-' && *c != '+' && !isdigit((unsigned char)*c) &&
        !isspace((unsigned char)*c))
      return 0;
  const char *c = spec;
  unsigned p = 0, d = 0;
  if (parse_index(&c, &p) != 0 || *c != ':') return -1;
  c++;
  if (parse_index(&c, &d) != 0 || *c != '\0') return -1;
  *platform = p;
  *device = d;
  return 1;
}

/* Nothing matched, but a device was left out because it failed to describe itself: that
   failure is the answer (it may have been the device asked for), with its status. `wanted` says
   what was looked for. */
static ocf_status not_found_because(const skipped_device *skipped, const char *wanted) {
  return ocf_fail(skipped->status, "no OpenCL device %s, and a device was left out: %s", wanted,
                  skipped->text);
}

static ocf_status select_by_spec(const char *spec, const char *origin, ocf_device_info *device) {
  select_state state;
  memset(&state, 0, sizeof state);
  int index_form = parse_index_spec(spec, &state.platform_index, &state.device_index);
  if (index_form < 0)
    return ocf_fail(OCF_ERR_INVALID_SPEC,
                    "device spec \"%s\"%s is malformed: expected PLATFORM:DEVICE indices "
                    "(e.g. 0:1) or a name substring",
                    spec, origin);
  state.kind = index_form ? RULE_INDEX : RULE_NAME;
  state.name = spec;
  skipped_device skipped;
  ocf_status status = for_each_device(select_visit, &state, &skipped);
  if (status != OCF_SUCCESS) return status;
  if (!state.found && skipped.status != OCF_SUCCESS) {
    char wanted[160];
    snprintf(wanted, sizeof wanted, "matches \"%.100s\"%s", spec, origin);
    return not_found_because(&skipped, wanted);
  }
  if (!state.found)
    return ocf_fail(OCF_ERR_NO_DEVICE, "no OpenCL device matches \"%s\"%s (see `oclfuse devices`)",
                    spec, origin);
  *device = state.match;
  return OCF_SUCCESS;
}

ocf_status ocf_device_select_internal(const char *spec, ocf_device_info *device) {
  return ocf_device_select_env(spec, 1, device);
}

ocf_status ocf_device_select_env(const char *spec, int use_environment, ocf_device_info *device) {
  if (spec && spec[0]) return select_by_spec(spec, "", device);
  const char *env = use_environment ? getenv("OCLFUSE_DEVICE") : NULL;
  if (env && env[0]) return select_by_spec(env, " (from OCLFUSE_DEVICE)", device);

  static const cl_device_type preference[] = {CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ALL};
  for (size_t i = 0; i < OCF_ARRAY_LEN(preference); i++) {
    select_state state;
    memset(&state, 0, sizeof state);
    state.kind = RULE_TYPE;
    state.type = preference[i];
    skipped_device skipped;
    ocf_status status = for_each_device(select_visit, &state, &skipped);
    if (status != OCF_SUCCESS) return status;
    if (state.found) {
      *device = state.match;
      return OCF_SUCCESS;
    }
    /* A device left out may have been the GPU preferred: do not fall back past it. */
    if (skipped.status != OCF_SUCCESS)
      return not_found_because(&skipped, i == 0 ? "of type GPU" : "of any type");
  }
  return ocf_fail(OCF_ERR_NO_DEVICE,
                  "no OpenCL device found: is an ICD installed (e.g. pocl-opencl-icd)?");
}

ocf_status ocf_device_select(const char *spec, ocf_device_info *device) {
  ocf_error_clear();
  if (!device) return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_device_select: device is NULL");
  ocf_status status =
      ocf_check_struct_size("ocf_device_select: device", device->size, OCF_DEVICE_INFO_FIRST_SIZE);
  if (status != OCF_SUCCESS) return status;
  ocf_device_info found;
  status = ocf_device_select_internal(spec, &found);
  if (status == OCF_SUCCESS) ocf_device_info_copy_out(device, device->size, &found);
  return status;
}

void ocf_device_info_init(ocf_device_info *info) {
  if (!info) return;
  memset(info, 0, sizeof *info);
  info->size = sizeof *info;
}

void ocf_device_info_copy_out(ocf_device_info *dst, size_t dst_size, const ocf_device_info *src) {
  memcpy(dst, src, dst_size < sizeof *src ? dst_size : sizeof *src);
  dst->size = dst_size;
}
