//===- SourceNesting.cpp - files nested past the parser's stack ----------===//

#include "Obs/Support/SourceNesting.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

std::optional<size_t> obs::findExcessiveNesting(StringRef text) {
  // Openers still open, innermost last; a closer pops only its own opener, so
  // a stray `>` (as in `->`) cannot hide depth.
  SmallVector<char> open;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    switch (c) {
    case '/':
      if (i + 1 < e && text[i + 1] == '/')
        i = std::min(text.find('\n', i), e - 1);
      break;
    case '"':
      // A string literal, with backslash escapes, ends at its quote or at
      // the end of the line as the lexer's does.
      for (++i; i < e && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\')
          ++i;
      break;
    case '{':
    case '[':
    case '(':
    case '<':
      if (open.size() == kMaxSourceNesting)
        return i;
      open.push_back(c);
      break;
    case '}':
    case ']':
    case ')':
    case '>': {
      char opener = c == '}' ? '{' : c == ']' ? '[' : c == ')' ? '(' : '<';
      if (!open.empty() && open.back() == opener)
        open.pop_back();
      break;
    }
    default:
      break;
    }
  }
  return std::nullopt;
}

LogicalResult obs::checkSourceNesting(llvm::SourceMgr &sourceMgr) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  std::optional<size_t> offset = findExcessiveNesting(buffer->getBuffer());
  if (!offset)
    return success();
  sourceMgr.PrintMessage(
      llvm::errs(),
      llvm::SMLoc::getFromPointer(buffer->getBufferStart() + *offset),
      llvm::SourceMgr::DK_Error,
      "brackets nested more than " + llvm::Twine(kMaxSourceNesting) +
          " levels deep: obs does not parse this file");
  return failure();
}
