//===- ObsCanonicalize.cpp - the algebraic laws as rewrite patterns -------===//
