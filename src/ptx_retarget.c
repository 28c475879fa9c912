/* The sm_90a retarget of PTX text (ptx_retarget.h). */
#include "ptx_retarget.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ocf_retarget_result refuse(char *why, size_t why_size, const char *format, ...) {
  if (why && why_size) {
    va_list args;
    va_start(args, format);
    vsnprintf(why, why_size, format, args);
    va_end(args);
  }
  return OCF_RETARGET_REFUSED;
}

/* A line of the text: [start, end) without its newline; `next` is where the next one starts. */
typedef struct line {
  const char *start, *body, *end, *next; /* body: after the indentation */
} line;

static int next_line(const char *limit, const char *at, line *l) {
  if (at >= limit) return 0;
  const char *eol = memchr(at, '\n', (size_t)(limit - at));
  l->start = at;
  l->end = eol ? eol : limit;
  l->next = eol ? eol + 1 : limit;
  l->body = at;
  while (l->body < l->end && (*l->body == ' ' || *l->body == '\t'))
    l->body++;
  return 1;
}

static int starts(const line *l, const char *word) {
  const size_t n = strlen(word);
  return (size_t)(l->end - l->body) >= n && memcmp(l->body, word, n) == 0;
}

/* "sm_90" followed by the end of the name: 0 no, 1 sm_90, 2 sm_90a. */
static int target_kind(const line *l) {
  const char *p = l->body + strlen(".target");
  while (p < l->end && (*p == ' ' || *p == '\t'))
    p++;
  const size_t left = (size_t)(l->end - p);
  if (left < 5 || memcmp(p, "sm_90", 5) != 0) return 0;
  const char after = left > 5 ? p[5] : '\0';
  if (after == 'a') {
    const char after_a = left > 6 ? p[6] : '\0';
    return after_a == '\0' || after_a == ',' || after_a == ' ' || after_a == '\t' || after_a == '\r'
               ? 2
               : 0;
  }
  return after == '\0' || after == ',' || after == ' ' || after == '\t' || after == '\r' ? 1 : 0;
}

/* Parses ".version MAJOR.MINOR"; 0 when malformed. */
static int version_of(const line *l, int *major, int *minor) {
  const char *p = l->body + strlen(".version");
  if (p >= l->end || (*p != ' ' && *p != '\t')) return 0;
  while (p < l->end && (*p == ' ' || *p == '\t'))
    p++;
  int values[2] = {0, 0};
  for (int part = 0; part < 2; part++) {
    const char *digits = p;
    while (p < l->end && *p >= '0' && *p <= '9' && p - digits < 4)
      values[part] = values[part] * 10 + (*p++ - '0');
    if (p == digits) return 0;
    if (part == 0) {
      if (p >= l->end || *p != '.') return 0;
      p++;
    }
  }
  while (p < l->end && (*p == ' ' || *p == '\t' || *p == '\r'))
    p++;
  if (p != l->end) return 0;
  *major = values[0], *minor = values[1];
  return 1;
}

ocf_retarget_result ocf_ptx_retarget(const char *text, size_t length, char **out,
                                     size_t *out_length, char *why, size_t why_size) {
  *out = NULL;
  *out_length = 0;
  if (!text || length == 0) return refuse(why, why_size, "no PTX text");
  if (memchr(text, '\0', length)) return refuse(why, why_size, "a NUL byte inside: not PTX text");
  const char *limit = text + length;
  const size_t prefix = strlen(OCF_PTX_SM90A_PREFIX);
  /* First pass: what the text holds. */
  int targets = 0, kind = 0, versions = 0, major = 0, minor = 0;
  size_t prefixed = 0;
  line l;
  for (const char *at = text; next_line(limit, at, &l); at = l.next) {
    if (starts(&l, OCF_PTX_SM90A_PREFIX)) {
      prefixed++;
    } else if (starts(&l, ".target") &&
               (l.body + 7 == l.end || l.body[7] == ' ' || l.body[7] == '\t')) {
      targets++;
      kind = target_kind(&l);
      if (!kind) {
        const size_t shown = (size_t)(l.end - l.body) < 60 ? (size_t)(l.end - l.body) : 60;
        return refuse(why, why_size, "unexpected target line \"%.*s\" (sm_90 or sm_90a wanted)",
                      (int)shown, l.body);
      }
    } else if (starts(&l, ".version")) {
      versions++;
      if (!version_of(&l, &major, &minor))
        return refuse(why, why_size, "a .version line that does not parse");
    }
  }
  if (versions != 1) return refuse(why, why_size, "%d .version lines (one wanted)", versions);
  if (targets != 1) return refuse(why, why_size, "%d .target lines (one wanted)", targets);
  const int old_version =
      major < OCF_PTX_SM90A_VERSION_MAJOR ||
      (major == OCF_PTX_SM90A_VERSION_MAJOR && minor < OCF_PTX_SM90A_VERSION_MINOR);
  if (prefixed == 0 && (kind == 1 || !old_version)) return OCF_RETARGET_NONE;

  /* Second pass: the rewritten text (never longer than the input plus one byte for the 'a' and
     the longest version line). */
  char *o = malloc(length + 32);
  if (!o) return refuse(why, why_size, "out of host memory");
  size_t n = 0;
  for (const char *at = text; next_line(limit, at, &l); at = l.next) {
    const size_t indent = (size_t)(l.body - l.start);
    if (starts(&l, OCF_PTX_SM90A_PREFIX)) {
      memcpy(o + n, l.start, indent), n += indent;
      memcpy(o + n, l.body + prefix, (size_t)(l.next - l.body) - prefix);
      n += (size_t)(l.next - l.body) - prefix;
    } else if (starts(&l, ".target") && kind == 1 && target_kind(&l) == 1) {
      const char *name = l.body + strlen(".target"); /* target_kind found the name after it */
      while (*name == ' ' || *name == '\t')
        name++;
      const size_t head = (size_t)(name + 5 - l.start);
      memcpy(o + n, l.start, head), n += head;
      o[n++] = 'a';
      memcpy(o + n, name + 5, (size_t)(l.next - (name + 5))), n += (size_t)(l.next - (name + 5));
    } else if (starts(&l, ".version") && old_version) {
      n += (size_t)sprintf(o + n, "%.*s.version %d.%d%s", (int)indent, l.start,
                           OCF_PTX_SM90A_VERSION_MAJOR, OCF_PTX_SM90A_VERSION_MINOR,
                           l.next > l.end ? "\n" : "");
    } else {
      memcpy(o + n, l.start, (size_t)(l.next - l.start)), n += (size_t)(l.next - l.start);
    }
  }
  o[n] = '\0';
  *out = o;
  *out_length = n;
  return OCF_RETARGET_DONE;
}

/* Whether text (length bytes) targets sm_90a: a line ".target sm_90a" (then the end of the line,
   a comma or a blank) and no line left behind the sm_90a prefix. */
static int is_sm90a_text(const char *text, size_t length) {
  int target = 0;
  const char *limit = text + length;
  for (const char *at = text; at < limit;) {
    const char *eol = memchr(at, '\n', (size_t)(limit - at));
    const char *end = eol ? eol : limit, *body = at;
    while (body < end && (*body == ' ' || *body == '\t'))
      body++;
    const size_t n = (size_t)(end - body);
    if (n >= strlen(OCF_PTX_SM90A_PREFIX) &&
        memcmp(body, OCF_PTX_SM90A_PREFIX, strlen(OCF_PTX_SM90A_PREFIX)) == 0)
      return 0;
    if (n >= 14 && memcmp(body, ".target sm_90a", 14) == 0 &&
        (n == 14 || body[14] == ',' || body[14] == ' ' || body[14] == '\t' || body[14] == '\r'))
      target = 1;
    at = eol ? eol + 1 : limit;
  }
  return target;
}

/* The retargeted form of `length` bytes of PTX (malloc'd, NUL-terminated), or NULL with why. */
static char *retargeted(const char *text, size_t length, size_t *out_length, char *why,
                        size_t why_size) {
  char *out = NULL;
  const ocf_retarget_result result =
      ocf_ptx_retarget(text, length, &out, out_length, why, why_size);
  if (result == OCF_RETARGET_REFUSED) return NULL;
  if (result == OCF_RETARGET_NONE) {
    out = malloc(length + 1);
    if (!out) {
      refuse(why, why_size, "out of host memory");
      return NULL;
    }
    memcpy(out, text, length);
    out[length] = '\0';
    *out_length = length;
  }
  if (!is_sm90a_text(out, *out_length)) {
    refuse(why, why_size, "the text does not target sm_90a (sm_90 PTX without `%s` lines)",
           OCF_PTX_SM90A_PREFIX);
    free(out);
    return NULL;
  }
  return out;
}

char *ocf_ptx_sm90a_form(const unsigned char *binary, size_t length, size_t *out_length, char *why,
                         size_t why_size) {
  *out_length = 0;
  /* a binary that ends in NUL bytes (a driver may count a terminator) is PTX without them */
  while (length > 0 && binary[length - 1] == '\0')
    length--;
  size_t n = 0;
  char *out = retargeted((const char *)binary, length, &n, why, why_size);
  if (out) *out_length = n + 1; /* with its terminator, as the lab handed it to the driver */
  return out;
}
