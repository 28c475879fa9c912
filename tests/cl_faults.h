/*
 * Fault injection into the OpenCL calls the library makes, and an account of the OpenCL objects
 * they create. tests/cl_faults.c defines __wrap_clX for every OpenCL entry point liboclfuse
 * imports; the test links with -Wl,--wrap=clX for each (the list is read from cl_faults.c, and
 * `ctest -R faults_cover` checks it against the library's imports), so every call, the
 * library's and the test's own, goes through a wrapper.
 *
 * Only calls made inside a window (ocft_faults_open .. close, on the thread that opened it) are
 * the library's: they are numbered 1, 2, ... and the armed one fails without reaching the
 * runtime, returning the armed OpenCL error (through errcode_ret for a create call). Releases
 * are never failed: a release cannot be undone or retried, and runtimes fail it only for an
 * invalid handle, which the accounting below reports instead.
 *
 * Accounting: every object created or retained inside a window (contexts, queues, buffers,
 * programs, kernels, events) counts +1, every release of such an object -1, wherever and on
 * whichever thread it happens (the library releases scratch buffers from event callbacks).
 * Devices are left out: the library only meets root devices, whose retain and release change no
 * reference count. An object still counted after the library let go of everything is a leak.
 */
#ifndef OCLFUSE_CL_FAULTS_H
#define OCLFUSE_CL_FAULTS_H

#include "oclfuse.h"

#include <stddef.h>

/* Starts numbering and accounting the calling thread's OpenCL calls (the library's). */
void ocft_faults_open(void);
/* Stops numbering; releases still count. */
void ocft_faults_close(void);

/* Numbered call `at` (from 1 at the last reset; 0: none) fails with `code`. */
void ocft_faults_arm(unsigned long at, cl_int code);
/* The `nth` numbered call of the function `name` (from 1) fails with `code`. */
void ocft_faults_arm_named(const char *name, unsigned nth, cl_int code);
/* Numbering starts again from 1, nothing armed, nothing failed yet. */
void ocft_faults_reset(void);

/* How many calls were numbered since the last reset. */
unsigned long ocft_faults_count(void);
/* The name of numbered call i (1-based, as far as the log reaches); "?" beyond it. */
const char *ocft_faults_call_name(unsigned long i);
/* Where numbered call i was made from (the return address of its wrapper: one per call site in
   the caller's code), as far as the log reaches; NULL beyond it. */
const void *ocft_faults_call_site(unsigned long i);
/* The function that was made to fail since the last reset; NULL when none was. */
const char *ocft_faults_failed(void);

/* Counts the objects still held (+1 and -1 as above), waiting up to `wait_ms` for releases made
   from event callbacks; writes a description of what is left ("2 cl_event, 1 cl_mem") into
   `left`. Returns the number of references left. */
size_t ocft_faults_live(char *left, size_t capacity, unsigned wait_ms);
/* Forgets every counted object (after a reported leak, so that the next run starts clean). */
void ocft_faults_forget(void);

/* ---- the order of commands, for out-of-order queues ----
   While recording (from ocft_order_start to ocft_order_stop), every command the window's thread
   enqueues is kept with its event (one of the wrapper's own when the caller asked for none) and
   its wait list, and clFinish as a point where everything before is complete. */

/* Starts recording (forgetting what was recorded before). */
void ocft_order_start(void);
/* Stops recording and releases the recorded events. */
void ocft_order_stop(void);
/* How many commands were recorded. */
unsigned ocft_order_count(void);
/* Whether the recorded commands run in the order they were enqueued on any queue, out of order
   included: each waits (directly or through the events it waits for) for the one before it,
   unless that one was complete when its call returned (a blocking transfer or clFinish); and
   the first waits for each of the caller's `first_waits` events. If not, writes why. */
int ocft_order_check(cl_uint first_waits, const cl_event *first_wait_list, char *why,
                     size_t capacity);

#endif /* OCLFUSE_CL_FAULTS_H */
