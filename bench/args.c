/* Option and number parsing for the subcommands: strict, so a typo is an error, not a default. */
#include "tool.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int parse_decimal(const char *text, unsigned long long *value) {
  if (!text || !isdigit((unsigned char)text[0])) return -1;
  errno = 0;
  char *end = NULL;
  unsigned long long v = strtoull(text, &end, 10);
  if (errno || *end) return -1;
  *value = v;
  return 0;
}

int tool_parse_size(const char *text, size_t *value) {
  unsigned long long v = 0;
  if (text && text[0] == '2' && text[1] == '^') {
    if (parse_decimal(text + 2, &v) || v > 62 || v >= sizeof(size_t) * CHAR_BIT) return -1;
    *value = (size_t)1 << v;
    return 0;
  }
  if (parse_decimal(text, &v) || v > SIZE_MAX) return -1;
  *value = (size_t)v;
  return 0;
}

int tool_parse_count(const char *text, int max, int *value) {
  unsigned long long v = 0;
  if (parse_decimal(text, &v) || v == 0 || v > (unsigned long long)max) return -1;
  *value = (int)v;
  return 0;
}

int tool_option(int argc, char **argv, int *i, const char *name, const char **value) {
  const char *arg = argv[*i];
  size_t len = strlen(name);
  if (strncmp(arg, name, len) != 0) return 0;
  if (arg[len] == '=') {
    *value = arg + len + 1;
    return 1;
  }
  if (arg[len] != '\0') return 0;
  if (*i + 1 >= argc) {
    tool_error("option %s needs a value", name);
    return -1;
  }
  *i += 1;
  *value = argv[*i];
  return 1;
}
