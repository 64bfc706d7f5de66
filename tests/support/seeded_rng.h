// tests/support/seeded_rng.h: the random generator of a randomized test. It
// is seeded by FreshSeed() (a fresh seed per run, or CUDAHIST_TEST_SEED to
// replay one) and every failure in its scope prints that seed.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

#include "test_planes.h"

namespace cudahist_test {

// A local variable only: its trace leaves GoogleTest's trace stack when it
// goes out of scope, in the order scopes end.
class SeededRng : public std::mt19937_64 {
 public:
  SeededRng() : SeededRng(FreshSeed()) {}

 private:
  explicit SeededRng(uint64_t seed)
      : std::mt19937_64(seed), trace_(__FILE__, __LINE__,
               "seed " + std::to_string(seed) + " (replay: CUDAHIST_TEST_SEED=" + std::to_string(seed) + ")") {}
  ::testing::ScopedTrace trace_;
};

}  // namespace cudahist_test
