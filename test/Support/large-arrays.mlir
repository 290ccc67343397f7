// RUN: obs-opt %s --test-obs-large-arrays | FileCheck %s

// Tests of lib/Support/HugePages.cpp: the ranges of huge pages that large
// arrays free are kept by the tools for the next ones, split for a smaller
// array and merged again with their freed neighbours, and the arrays alive
// keep their contents through all of it.

// CHECK: huge-page aligned: 1
// CHECK-NEXT: takes the front of a freed range: 1
// CHECK-NEXT: takes what is left of it: 1
// CHECK-NEXT: others keep their contents: 1
// CHECK-NEXT: freed neighbours merge: 1
// CHECK-NEXT: a growing vector keeps its elements: 1
// CHECK-NEXT: still intact: 1
module {}
