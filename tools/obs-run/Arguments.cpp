//===- Arguments.cpp - obs-run's arguments before LLVM's parser -----------===//

#include "Arguments.h"
#include "llvm/ADT/StringRef.h"

std::optional<std::string> obs_run::takeThreadsArgument(int &argc,
                                                        char **argv) {
  std::optional<std::string> value;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (arg == "--") {
      while (i < argc)
        argv[kept++] = argv[i++];
      break;
    }
    if (!arg.consume_front("--") && !arg.consume_front("-")) {
      argv[kept++] = argv[i];
      continue;
    }
    if (arg.consume_front("threads=")) {
      value = arg.str();
      continue;
    }
    // A bare --threads at the end has no value: parseThreads says so.
    if (arg == "threads") {
      value = i + 1 < argc ? std::string(argv[++i]) : std::string();
      continue;
    }
    argv[kept++] = argv[i];
  }
  argc = kept;
  return value;
}
