/*
 * Fuzz target: the device-spec parser (ocf_device_select: "P:D" indices, a name substring, the
 * default rule). For any text: no crash, no leak, no undefined behaviour; the answer is a device
 * (its description filled), OCF_ERR_INVALID_SPEC or OCF_ERR_NO_DEVICE, with a reason that names
 * the spec; a spec of two plain indices is never malformed, and one made only of digits, ':',
 * signs and spaces that is not two plain indices always is.
 */
#include "fuzz.h"
#include "oclfuse.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  /* The default rule reads it: a spec of NULL or "" must not depend on the caller's shell. */
  unsetenv("OCLFUSE_DEVICE");
  return 0;
}

/* 1: exactly "<digits>:<digits>" with optional spaces around each index, each at most 65535;
   0: only digits, ':', signs and spaces, but not that; -1: other characters (a name). */
static int index_form(const char *spec) {
  if (!strchr(spec, ':')) return -1;
  for (const char *c = spec; *c; c++)
    if (!isdigit((unsigned char)*c) && !isspace((unsigned char)*c) && *c != ':' && *c != '-' &&
        *c != '+')
      return -1;
  const char *c = spec;
  for (int part = 0; part < 2; part++) {
    while (isspace((unsigned char)*c))
      c++;
    if (!isdigit((unsigned char)*c)) return 0;
    unsigned long value = 0;
    for (; isdigit((unsigned char)*c); c++)
      if ((value = value * 10 + (unsigned long)(*c - '0')) > 65535) return 0;
    while (isspace((unsigned char)*c))
      c++;
    if (part == 0 && *c++ != ':') return 0;
  }
  return *c == '\0';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char spec[256];
  size_t length = size < sizeof spec - 1 ? size : sizeof spec - 1;
  memcpy(spec, data, length);
  spec[length] = '\0';
  ocf_device_info info;
  ocf_device_info_init(&info);
  ocf_status status = ocf_device_select(spec, &info);
  FUZZ_CHECK(status == OCF_SUCCESS || status == OCF_ERR_INVALID_SPEC || status == OCF_ERR_NO_DEVICE,
             "\"%s\" gave %s: %s", spec, ocf_status_name(status), ocf_last_error());
  if (status == OCF_SUCCESS) {
    FUZZ_CHECK(info.device != NULL && info.size == sizeof info, "\"%s\": no device filled", spec);
    FUZZ_CHECK(index_form(spec) != 0, "\"%s\" is malformed but selected a device", spec);
    return 0;
  }
  FUZZ_CHECK(ocf_last_error()[0] != '\0', "\"%s\": refused without a reason", spec);
  if (spec[0])
    FUZZ_CHECK(strstr(ocf_last_error(), spec) != NULL, "the reason does not name \"%s\"", spec);
  const int form = index_form(spec);
  FUZZ_CHECK(form != 1 || status == OCF_ERR_NO_DEVICE, "\"%s\" is two indices but %s", spec,
             ocf_status_name(status));
  FUZZ_CHECK(form != 0 || status == OCF_ERR_INVALID_SPEC, "\"%s\" is malformed but %s", spec,
             ocf_status_name(status));
  FUZZ_CHECK(form != -1 || status == OCF_ERR_NO_DEVICE, "\"%s\" is a name but %s", spec,
             ocf_status_name(status));
  return 0;
}
