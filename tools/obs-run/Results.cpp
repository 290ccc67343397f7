//===- Results.cpp - what obs-run prints after a run ----------------------===//

#include "Results.h"
#include "Obs/Runner/HostData.h"
#include "RuntimeReports.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>
#include <string>

using namespace mlir;
using namespace obs_run;

unsigned obs_run::firstPrinted(const obs::Job &job) {
  return job.numInputs == job.arrays.size() ? 0 : job.numInputs;
}

void obs_run::compareWithReference(obs::Job &job, obs::Job &reference,
                                   StringRef targetName) {
  for (unsigned a = firstPrinted(job); a < job.arrays.size(); ++a) {
    HostArray &mine = job.arrays[a], &theirs = reference.arrays[a];
    for (uint64_t k = 0; k < mine.getNumScalars(); ++k) {
      Number x = mine.get(k), y = theirs.get(k);
      bool same = x.isFloat ? (x.real == y.real ||
                               (std::isnan(x.real) && std::isnan(y.real)))
                            : x.integer == y.integer;
      if (same)
        continue;
      std::string left, right;
      llvm::raw_string_ostream l(left), r(right);
      auto show = [](llvm::raw_ostream &os, const Number &n) {
        if (n.isFloat)
          os << n.real;
        else
          os << n.integer;
      };
      show(l, x);
      show(r, y);
      fail(targetName + " and ref differ: result " +
           llvm::Twine(a - firstPrinted(job)) + ", number " + llvm::Twine(k) +
           " is " + left + " on " + targetName + " but " + right + " on ref");
    }
  }
}

void obs_run::writeResults(obs::Job &job, StringRef outputFile) {
  unsigned numResults = job.arrays.size() - firstPrinted(job);
  for (unsigned index = 0; index < numResults; ++index) {
    HostArray &result = job.arrays[firstPrinted(job) + index];
    if (outputFile.empty()) {
      result.print(llvm::outs());
      llvm::outs() << "\n";
      continue;
    }
    if (llvm::Error error =
            result.write(getNumberedPath(outputFile, index, numResults)))
      fail(llvm::toString(std::move(error)));
  }
}

int obs_run::finishOutput(int code) {
  llvm::outs().flush();
  if (!llvm::outs().has_error())
    return code;
  llvm::errs() << "obs-run: cannot write the standard output: "
               << llvm::outs().error().message() << "\n";
  llvm::outs().clear_error();
  return 1;
}
