// cudahist: how a tuning policy reaches a build. Each module's *_tuning.h
// holds its policy: a struct whose every field is a number that trades speed
// on one GPU against another, with its reason beside it (the measurements
// behind each are in docs/tuning.md), whose constexpr member functions give
// the numbers that follow from fields (a variant that changes the field
// changes them with it), and the one instance that the kernels and their
// Create read at compile time (launch/launch_tuning.h holds what every
// module shares):
//
//   constexpr XPolicy kXPolicy = CUDAHIST_TUNED(XPolicy, CUDAHIST_TUNE_X);
//
// The variant builds of bench/ alone (the meson option kernel-variants) define
// CUDAHIST_TUNE_X, as statements on the policy `p`, without spaces or commas:
//
//   -DCUDAHIST_TUNE_HISTOGRAM=p.privatized.deep_min_rounds=16;p.two_phase.threads=1024
//
// One policy serves every architecture measured (sm_90: H100, H200). A kernel
// whose best numbers differed by architecture would get one instance per
// architecture, chosen in Create by the device's compute capability and given
// to the kernel as a template argument, as CUB's dispatch chooses its policies.
#pragma once

#define CUDAHIST_TUNED(Policy, tune) \
  [] {                               \
    Policy p;                        \
    tune;                            \
    return p;                        \
  }()
