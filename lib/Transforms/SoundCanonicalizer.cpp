//===- SoundCanonicalizer.cpp - canonicalize without unsound rewrites -----===//
//
// A few of MLIR's canonicalization patterns assume more than the ops mean,
// and turn some programs into others that compute something else. obs
// runs the canonicalizer before its proof and in every lowering, so each
// of them made a kernel that obs accepted answer wrongly, on some targets
// and not others (docs/Rationale.md, "Canonicalization that keeps the
// meaning"). They are left out of every obs pipeline, by name.
//
//===----------------------------------------------------------------------===//

#include "Obs/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

ArrayRef<std::string> mlir::obs::getUnsoundCanonicalizations() {
  static const std::string names[] = {
      // scf.for's trip count is computed in the counter's own type:
      // `-100 to 100 step 1` over i8 has 200 trips, whose difference wraps
      // to -56, and the loop is erased as running none (or inlined as
      // running once, where a wide step wraps it to one trip).
      "(anonymous namespace)::SimplifyTrivialLoops",
      // index_cast (index_cast x) is x only where the middle type holds x:
      // through i8, 128 becomes -128, and through i1, 1 becomes -1 (a read
      // outside its array that the fold hid from the proof).
      "(anonymous namespace)::IndexCastOfIndexCast",
      "(anonymous namespace)::IndexCastUIOfIndexCastUI",
      // truncf (sitofp x) rounds twice, sitofp x once: 2^60 + 2^36 + 1 is
      // 2^60 through f64 to f32, and 2^60 + 2^37 directly.
      "(anonymous namespace)::TruncFSIToFPToSIToFP",
      "(anonymous namespace)::TruncFUIToFPToUIToFP",
  };
  return names;
}

std::unique_ptr<Pass> mlir::obs::createSoundCanonicalizerPass() {
  // The `canonicalize` pass's own default; GreedyRewriteConfig's is
  // bottom-up.
  GreedyRewriteConfig config;
  config.setUseTopDownTraversal(true);
  return createSoundCanonicalizerPass(config);
}

std::unique_ptr<Pass>
mlir::obs::createSoundCanonicalizerPass(const GreedyRewriteConfig &config) {
  ArrayRef<std::string> unsound = getUnsoundCanonicalizations();
  return createCanonicalizerPass(config, unsound);
}
