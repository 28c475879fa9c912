/*
 * The embedded kernel sources (cmake/embed_kernels.cmake, src/runtime/sources.c) against the
 * kernel descriptors (src/kernels/): device-free (label "plan").
 *
 * The host passes every tunable, so the schema is the one source of defaults: every `#ifndef X`
 * of a program's files is followed by `#error "X: ..."` (a missing define is a compile error,
 * never a second default), except the library's own OCF_* switches. What a program requires
 * that way is exactly what each of its kernels' descriptors lists, and ocf_plan_verify (every
 * plan) checks that a plan carries every define its kernels list: so a plan that compiles
 * carries every value the kernel reads. Each kernel is compiled in its program alone
 * (`#ifdef OCF_KERNEL_<name>`), and the benchmark-only kernels (the baselines) in no product
 * program. Each kernel's parameters, in every definition of it (under an alias such as
 * WGMMA_ENTRY too, through parameter macros such as TILED_PARAMS), are its descriptor's
 * arguments by name and in order: what the binding sets is what the kernel reads.
 */
#include "kernels/kernels.h"
#include "runtime/sources.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

enum { MAX_NAMES = 64, NAME_CHARS = 48 };

/* The names a program requires: every `#ifndef NAME` followed by `#error "NAME`. */
typedef struct name_set {
  char names[MAX_NAMES][NAME_CHARS];
  unsigned count;
} name_set;

static int set_has(const name_set *set, const char *name) {
  for (unsigned i = 0; i < set->count; i++)
    if (strcmp(set->names[i], name) == 0) return 1;
  return 0;
}

/* The identifier at p (letters, digits, underscores) into out; its length. */
static size_t identifier(const char *p, char *out, size_t capacity) {
  size_t n = 0;
  while ((p[n] == '_' || (p[n] >= 'A' && p[n] <= 'Z') || (p[n] >= 'a' && p[n] <= 'z') ||
          (p[n] >= '0' && p[n] <= '9')) &&
         n + 1 < capacity) {
    out[n] = p[n];
    n++;
  }
  out[n] = '\0';
  return n;
}

/* Scans one file of a program: adds what it requires to *set; 0, or -1 after printing each
   `#ifndef` of a tunable that a default follows instead of an #error. */
static int scan_file(const char *program, const char *file, const char *text, name_set *set) {
  int status = 0;
  for (const char *line = text; line && *line;
       line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
    if (strncmp(line, "#ifndef ", 8) != 0) continue;
    char name[NAME_CHARS];
    if (identifier(line + 8, name, sizeof name) == 0) continue;
    if (strncmp(name, "OCF_", 4) == 0) continue; /* the library's switches: lab hooks, guards */
    const char *next = strchr(line, '\n');
    char expected[NAME_CHARS + 16];
    snprintf(expected, sizeof expected, "#error \"%s:", name);
    if (!next || strncmp(next + 1, expected, strlen(expected)) != 0) {
      print_error("%s: %s: #ifndef %s is not followed by %s ...\"\n", program, file, name,
                  expected);
      status = -1;
      continue;
    }
    if (!set_has(set, name)) {
      assert_true(set->count < MAX_NAMES);
      snprintf(set->names[set->count++], NAME_CHARS, "%s", name);
    }
  }
  return status;
}

/* What a program requires; -1 when some tunable has a default. */
static int program_requires(const ocf_program_source *source, name_set *set) {
  int status = 0;
  memset(set, 0, sizeof *set);
  for (unsigned f = 0; f < source->count; f++)
    if (scan_file(source->name, source->files[f], source->texts[f], set) != 0) status = -1;
  return status;
}

/* Whether a program's text holds `#ifdef OCF_KERNEL_<name>` (at a line's start). */
static int program_compiles(const ocf_program_source *source, const char *kernel) {
  char guard[NAME_CHARS + 32];
  snprintf(guard, sizeof guard, "#ifdef OCF_KERNEL_%s\n", kernel);
  for (unsigned f = 0; f < source->count; f++)
    for (const char *at = strstr(source->texts[f], guard); at; at = strstr(at + 1, guard))
      if (at == source->texts[f] || at[-1] == '\n') return 1;
  return 0;
}

/* Every program: files in build order, cl/common.cl first, texts of the stated lengths, digests
   of their own. */
static void test_programs_assembled(void **state) {
  (void)state;
  for (unsigned p = 0; p < OCF_PROGRAM_COUNT; p++) {
    const ocf_program_source *source = ocf_program_source_get((ocf_program_id)p);
    assert_non_null(source);
    assert_true(source->count >= 2);
    assert_string_equal(source->files[0], "common.cl");
    for (unsigned f = 0; f < source->count; f++)
      assert_int_equal(strlen(source->texts[f]), source->lengths[f]);
    for (unsigned q = 0; q < p; q++)
      assert_true(ocf_program_sources[q].digest != source->digest);
  }
  assert_null(ocf_program_source_get(OCF_PROGRAM_COUNT));
}

/* No tunable has a default in the kernels, and each kernel's descriptor lists exactly what its
   program requires. */
static void test_defines_required(void **state) {
  (void)state;
  int failures = 0;
  for (unsigned p = 0; p < OCF_PROGRAM_COUNT; p++) {
    const ocf_program_source *source = ocf_program_source_get((ocf_program_id)p);
    name_set required;
    if (program_requires(source, &required) != 0) failures++;
    for (unsigned k = 0; k < OCF_KERNEL_COUNT; k++) {
      const ocf_kernel_desc *desc = ocf_kernel_desc_get((ocf_kernel_id)k);
      if (desc->program != (ocf_program_id)p) continue;
      name_set listed;
      memset(&listed, 0, sizeof listed);
      for (const char *const *name = desc->defines; *name; name++) {
        if (!set_has(&required, *name)) {
          print_error("%s lists -D%s, which program %s does not require (#ifndef ... #error)\n",
                      desc->name, *name, source->name);
          failures++;
        }
        assert_true(listed.count < MAX_NAMES);
        snprintf(listed.names[listed.count++], NAME_CHARS, "%s", *name);
      }
      for (unsigned i = 0; i < required.count; i++)
        if (!set_has(&listed, required.names[i])) {
          print_error("program %s requires -D%s, which %s's descriptor does not list\n",
                      source->name, required.names[i], desc->name);
          failures++;
        }
    }
  }
  assert_int_equal(failures, 0);
}

/* Each kernel is compiled in its own program and in no other: the benchmark's baselines sit in
   programs of their own, the product programs hold none of them. */
static void test_kernels_in_their_program(void **state) {
  (void)state;
  int failures = 0;
  for (unsigned k = 0; k < OCF_KERNEL_COUNT; k++) {
    const ocf_kernel_desc *desc = ocf_kernel_desc_get((ocf_kernel_id)k);
    for (unsigned p = 0; p < OCF_PROGRAM_COUNT; p++) {
      const ocf_program_source *source = ocf_program_source_get((ocf_program_id)p);
      const int compiles = program_compiles(source, desc->name);
      if (compiles != (desc->program == (ocf_program_id)p)) {
        print_error("kernel %s %s in program %s\n", desc->name,
                    compiles ? "is compiled" : "is missing", source->name);
        failures++;
      }
    }
  }
  assert_int_equal(failures, 0);
}

/* Whether one of the program's files holds `#define ALIAS NAME` (a kernel written once under an
   alias: the wgmma kernels' WGMMA_ENTRY, TMA_ENTRY and SK_ENTRY, whose aliases one fragment
   defines and another uses). */
static int defines_alias(const ocf_program_source *source, const char *alias, const char *name) {
  char line[2 * NAME_CHARS + 16];
  snprintf(line, sizeof line, "#define %s %s\n", alias, name);
  for (unsigned f = 0; f < source->count; f++)
    if (strstr(source->texts[f], line) != NULL) return 1;
  return 0;
}

/* The body of object-like macro `name` as one of the program's files #defines it (continuation
   lines joined), into out; 0 when no file defines it. */
static int macro_body(const ocf_program_source *source, const char *name, char *out,
                      size_t capacity) {
  char head[NAME_CHARS + 16];
  snprintf(head, sizeof head, "#define %s", name);
  for (unsigned f = 0; f < source->count; f++)
    for (const char *at = strstr(source->texts[f], head); at; at = strstr(at + 1, head)) {
      const char after = at[strlen(head)];
      if (after != ' ' && after != '\\') continue; /* a longer name, or a function-like macro */
      size_t n = 0;
      for (const char *p = at + strlen(head); *p && n + 1 < capacity; p++) {
        if (*p == '\\' && p[1] == '\n') {
          p++;
          continue;
        }
        if (*p == '\n') break;
        out[n++] = *p;
      }
      out[n] = '\0';
      return 1;
    }
  return 0;
}

/* Appends to names (from *count on) the parameter names of the list in [p, end) (comments left
   out): each parameter's last identifier, or, where a parameter is one name that the program
   #defines (TILED_PARAMS, MASK_PARAMS), the names of its body's list; 0, or -1 past MAX_NAMES
   or too deep. */
static int parameter_names(const ocf_program_source *source, const char *p, const char *end,
                           char names[][NAME_CHARS], int *count, int depth) {
  char last[NAME_CHARS] = "";
  int words = 0, level = 0;
  for (; p <= end; p++) {
    if (p < end && p[0] == '/' && p[1] == '*') {
      const char *close = strstr(p + 2, "*/");
      p = close ? close + 1 : end;
      continue;
    }
    if (p < end && (*p == '(' || *p == '[')) level++;
    if (p < end && (*p == ')' || *p == ']')) level--;
    if (p == end || (*p == ',' && level == 0)) {
      char body[2048];
      if (words == 1 && depth < 4 && macro_body(source, last, body, sizeof body)) {
        if (parameter_names(source, body, body + strlen(body), names, count, depth + 1) != 0)
          return -1;
      } else if (words > 0) {
        if (*count == MAX_NAMES) return -1;
        snprintf(names[(*count)++], NAME_CHARS, "%s", last);
      }
      words = 0;
      continue;
    }
    char word[NAME_CHARS];
    const size_t n = identifier(p, word, sizeof word);
    if (n > 0) {
      if (!(word[0] >= '0' && word[0] <= '9')) {
        snprintf(last, sizeof last, "%s", word);
        words++;
      }
      p += n - 1;
    }
  }
  return 0;
}

/* The ')' that closes the '(' at open; NULL when the text ends first. */
static const char *closing(const char *open) {
  int depth = 0;
  for (const char *p = open; *p; p++) {
    if (*p == '(') depth++;
    if (*p == ')' && --depth == 0) return p;
  }
  return NULL;
}

/* Each kernel's parameters in its program's source, by name and in order, are its descriptor's
   arguments: the binding sets argument i from the frame field the descriptor names, so a
   parameter added to a kernel and not to its descriptor (or the other way) would bind the wrong
   values, which only a GPU run would show for the NVIDIA-only kernels. Every definition counts
   (a kernel written under #if in two forms must match in both). */
static void test_parameters_match_descriptors(void **state) {
  (void)state;
  int failures = 0;
  static char names[MAX_NAMES][NAME_CHARS];
  for (unsigned k = 0; k < OCF_KERNEL_COUNT; k++) {
    const ocf_kernel_desc *desc = ocf_kernel_desc_get((ocf_kernel_id)k);
    const ocf_program_source *source = ocf_program_source_get(desc->program);
    int definitions = 0;
    for (unsigned f = 0; f < source->count; f++)
      for (const char *at = strstr(source->texts[f], "__kernel"); at;
           at = strstr(at + 8, "__kernel")) {
        /* `__kernel [attributes] void NAME(`: the name after the void */
        const char *name = strstr(at, "void");
        if (!name) break;
        name += 4;
        while (*name == ' ' || *name == '\n')
          name++;
        char kernel[NAME_CHARS];
        const char *open = name + identifier(name, kernel, sizeof kernel);
        while (*open == ' ' || *open == '\n')
          open++;
        if (*open != '(') continue;
        if (strcmp(kernel, desc->name) != 0 && !defines_alias(source, kernel, desc->name)) continue;
        definitions++;
        const char *close = closing(open);
        int count = 0;
        if (!close || parameter_names(source, open + 1, close, names, &count, 0) != 0) count = -1;
        int same = count == (int)desc->arg_count;
        for (int i = 0; same && i < count; i++)
          same = strcmp(names[i], desc->args[i].name) == 0;
        if (!same) {
          print_error("%s (%s): %d parameters, its descriptor %u arguments; first difference:\n",
                      desc->name, source->files[f], count, desc->arg_count);
          for (int i = 0; i < count || i < (int)desc->arg_count; i++)
            if (i >= count || i >= (int)desc->arg_count ||
                strcmp(names[i], desc->args[i].name) != 0) {
              print_error("  %d: %s in the source, %s in the descriptor\n", i,
                          i < count ? names[i] : "-",
                          i < (int)desc->arg_count ? desc->args[i].name : "-");
              break;
            }
          failures++;
        }
      }
    if (definitions == 0) {
      print_error("%s: no definition found in program %s\n", desc->name, source->name);
      failures++;
    }
  }
  assert_int_equal(failures, 0);
}

/* Whether one of a program's files #defines `name` (a macro of its own, which a condition may
   read). */
static int program_defines(const ocf_program_source *source, const char *name) {
  for (unsigned f = 0; f < source->count; f++)
    for (const char *line = source->texts[f]; line && *line;
         line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
      while (*line == ' ')
        line++;
      char defined[NAME_CHARS];
      if (strncmp(line, "#define ", 8) == 0 && identifier(line + 8, defined, sizeof defined) &&
          strcmp(defined, name) == 0)
        return 1;
    }
  return 0;
}

/* Adds to *read every identifier a preprocessor condition of `text` names (#if, #elif, #ifdef,
   #ifndef; comments left out), but `defined` and the compiler's own __NAMES__. */
static void conditions_read(const char *text, name_set *read) {
  for (const char *line = text; line && *line;
       line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
    const char *p = line;
    while (*p == ' ')
      p++;
    if (*p++ != '#') continue;
    while (*p == ' ')
      p++;
    if (strncmp(p, "if", 2) != 0 && strncmp(p, "elif", 4) != 0) continue;
    p += strncmp(p, "elif", 4) == 0     ? 4
         : strncmp(p, "ifndef", 6) == 0 ? 6
         : strncmp(p, "ifdef", 5) == 0  ? 5
                                        : 2;
    const char *eol = strchr(p, '\n');
    if (!eol) eol = p + strlen(p);
    while (p < eol) {
      if (p[0] == '/' && (p[1] == '/' || p[1] == '*')) break; /* a comment to the line's end */
      char name[NAME_CHARS];
      size_t n = identifier(p, name, sizeof name);
      if (n == 0) {
        p++;
        continue;
      }
      p += n;
      if ((name[0] >= '0' && name[0] <= '9') || strcmp(name, "defined") == 0 ||
          strncmp(name, "__", 2) == 0 || set_has(read, name))
        continue; /* a number, or no define of the library's */
      assert_true(read->count < MAX_NAMES);
      snprintf(read->names[read->count++], NAME_CHARS, "%s", name);
    }
  }
}

/* What a program's conditions read that it does not require: a define's misspelt name (an
   #if of an undefined name is 0, silently), or an optional value. A program whose kernels can
   be a plan's earlier step (matmul_pad, matmul_stage) is built with only the defines its
   descriptors list (ocf_plan_program_options), so it may read no other; the optional values
   of the shared headers are listed here, each where its programs read it. */
static void test_defines_read(void **state) {
  (void)state;
  static const struct {
    const char *program, *name;
  } optional[] = {
      /* cl/attention_common.clh: the join of a row's ranges in the kernel that writes them
         (attention_lanes, attention_mma_split); the other attention programs never join */
      {"attention", "JOIN"},
      {"attention_decode", "JOIN"},
      {"attention_block", "JOIN"},
      {"attention_wgmma_nv", "JOIN"},
      /* cl/attention_mma_prims.clh: fp32 products' TF32 parts, which attention's wgmma kernel
         and the few-row kernel of 16-bit operands never take */
      {"attention_wgmma_nv", "PRECISION"},
      {"matmul_few_mma", "PRECISION"},
  };
  int failures = 0;
  for (unsigned p = 0; p < OCF_PROGRAM_COUNT; p++) {
    const ocf_program_source *source = ocf_program_source_get((ocf_program_id)p);
    name_set required, read;
    program_requires(source, &required);
    memset(&read, 0, sizeof read);
    for (unsigned f = 0; f < source->count; f++)
      conditions_read(source->texts[f], &read);
    for (unsigned i = 0; i < read.count; i++) {
      const char *name = read.names[i];
      if (set_has(&required, name) || program_defines(source, name) ||
          strncmp(name, "OCF_", 4) == 0)
        continue;
      int allowed = 0;
      for (size_t o = 0; o < sizeof optional / sizeof optional[0]; o++)
        allowed = allowed || (strcmp(optional[o].program, source->name) == 0 &&
                              strcmp(optional[o].name, name) == 0);
      if (!allowed) {
        print_error("program %s: a condition reads %s, which it neither requires nor defines\n",
                    source->name, name);
        failures++;
      }
    }
  }
  assert_int_equal(failures, 0);
  /* The scan itself: names of conditions, not of comments, numbers or `defined`. */
  name_set read;
  memset(&read, 0, sizeof read);
  conditions_read("#if defined(JOIN) && JOIN > 0x1Fu // not THIS\n  #elif VW == 2 /* NOR */\n"
                  "#ifdef OCF_KERNEL_x\nint IGNORED;\n",
                  &read);
  assert_int_equal(read.count, 3);
  assert_true(set_has(&read, "JOIN") && set_has(&read, "VW") && set_has(&read, "OCF_KERNEL_x"));
}

/* Whether text defines a variadic macro ("..." in a #define's parameters, or __VA_ARGS__). */
static int has_variadic_macro(const char *text) {
  if (strstr(text, "__VA_ARGS__")) return 1;
  for (const char *at = strstr(text, "#define"); at; at = strstr(at + 1, "#define")) {
    const char *open = strchr(at, '('), *eol = strchr(at, '\n');
    if (!open || (eol && open > eol)) continue;
    const char *close = strchr(open, ')');
    if (!close || (eol && close > eol)) continue;
    for (const char *c = open; c + 2 < close; c++)
      if (c[0] == '.' && c[1] == '.' && c[2] == '.') return 1;
  }
  return 0;
}

/* No program defines a variadic macro: clang (PoCL, rusticl, Oclgrind) takes them in OpenCL C,
   NVIDIA's compiler refuses the whole program ("variadic macros not supported in OpenCL"). */
static void test_no_variadic_macros(void **state) {
  (void)state;
  int failures = 0;
  for (unsigned p = 0; p < OCF_PROGRAM_COUNT; p++) {
    const ocf_program_source *source = ocf_program_source_get((ocf_program_id)p);
    for (unsigned f = 0; f < source->count; f++)
      if (has_variadic_macro(source->texts[f])) {
        print_error("program %s: %s defines a variadic macro\n", source->name, source->files[f]);
        failures++;
      }
  }
  assert_int_equal(failures, 0);
  assert_true(has_variadic_macro("#define F(a, ...) g(a)\n"));
  assert_true(has_variadic_macro("#define F(a) g(a, __VA_ARGS__)\n"));
  assert_false(has_variadic_macro("#define F(a, b) g(a, b)\n#define N 3 /* ... */\n"));
}

/* The scan itself: a default is refused, an #error naming another define is refused, the
   library's switches are left alone. */
static void test_scan_refuses_defaults(void **state) {
  (void)state;
  name_set set;
  memset(&set, 0, sizeof set);
  assert_int_equal(scan_file("p", "f", "#ifndef WG\n#error \"WG: passed\"\n#endif\n", &set), 0);
  assert_int_equal(set.count, 1);
  assert_int_equal(scan_file("p", "f", "#ifndef VW\n#define VW 4\n#endif\n", &set), -1);
  assert_int_equal(scan_file("p", "f", "#ifndef VW\n#error \"WG: passed\"\n#endif\n", &set), -1);
  assert_int_equal(scan_file("p", "f", "#ifndef OCF_MMA_LADDR\n#define OCF_MMA_LADDR 0\n", &set),
                   0);
  assert_int_equal(set.count, 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_programs_assembled),
      cmocka_unit_test(test_defines_required),
      cmocka_unit_test(test_kernels_in_their_program),
      cmocka_unit_test(test_scan_refuses_defaults),
      cmocka_unit_test(test_parameters_match_descriptors),
      cmocka_unit_test(test_no_variadic_macros),
      cmocka_unit_test(test_defines_read),
  };
  return cmocka_run_group_tests_name("kernel_sources", tests, NULL, NULL);
}
