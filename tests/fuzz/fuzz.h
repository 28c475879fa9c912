/*
 * The libFuzzer entry points every target in tests/fuzz defines. Built with clang
 * -fsanitize=fuzzer (OCLFUSE_FUZZ=ON) they are fuzzers; linked with replay.c by any compiler they
 * replay a corpus (tests/fuzz/corpus/<target>/: the seeds and every input that once found a bug)
 * as a regular test.
 */
#ifndef OCLFUSE_FUZZ_H
#define OCLFUSE_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Ends the process with a message when a property of the library does not hold: the fuzzer
   keeps the input that led here, and the replay test fails on it. */
#define FUZZ_CHECK(condition, ...)                                                     \
  do {                                                                                 \
    if (!(condition)) {                                                                \
      fprintf(stderr, "%s:%d: property broken: %s: ", __FILE__, __LINE__, #condition); \
      fprintf(stderr, __VA_ARGS__);                                                    \
      fprintf(stderr, "\n");                                                           \
      abort();                                                                         \
    }                                                                                  \
  } while (0)

#endif /* OCLFUSE_FUZZ_H */
