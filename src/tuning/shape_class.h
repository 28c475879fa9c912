/*
 * Shape classes: the groups of call shapes that a tuning database can give values of their own
 * (softmax rows of 64 columns and of a million want different kernels). Each op has a fixed list
 * of named classes; every call falls in exactly one. Pure functions, no OpenCL calls.
 */
#ifndef OCLFUSE_SHAPE_CLASS_H
#define OCLFUSE_SHAPE_CLASS_H

#include "tuning/tuning.h"

#include <stddef.h>

enum { OCF_MAX_SHAPE_CLASSES = 6 };

/* A call's sizes as the classes see them. add: {n}; softmax: {rows, cols}; matmul: {m, n, k};
   attention: {lq, lk, d}. */
typedef struct ocf_shape {
  size_t d[3];
} ocf_shape;

/* How many classes `op` has (at least 1). */
unsigned ocf_shape_class_count(ocf_op op);
/* The name of class `index` of `op` ("wide"); NULL out of range. */
const char *ocf_shape_class_name(ocf_op op, unsigned index);
/* A one-line description of the class ("cols 2049 .. 16384"); NULL out of range. */
const char *ocf_shape_class_doc(ocf_op op, unsigned index);
/* The index of the class named `name`, or -1. */
int ocf_shape_class_find(ocf_op op, const char *name);
/* The class a call of `op` with these sizes falls in. */
unsigned ocf_shape_class_of(ocf_op op, const ocf_shape *shape);

#endif /* OCLFUSE_SHAPE_CLASS_H */
