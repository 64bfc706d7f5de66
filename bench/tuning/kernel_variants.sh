#!/usr/bin/env bash
# bench/tuning/kernel_variants.sh: the one way to build tuning variants of a module's
# kernels side by side, sourced by bench/tuning/tune_privatized.sh, tune_signalstats.sh,
# tune_scopes.sh and tune_segmented.sh (here, before scripts/gpuhost-pack.sh).
#
#   build_kernel_variants MODULE OUTDIR NAME=FLAGS...
#       MODULE: histogram, signalstats, scopes or regions. Configures the variants'
#       build folder (KERNEL_VARIANTS_BUILD, default build-variants: sm_90, no
#       plugin, no examples) with the meson option
#       kernel-variants=MODULE:NAME=FLAGS,... (bench/meson.build: the module's
#       kernel sources compiled again with FLAGS, which override fields of its
#       policies: -DCUDAHIST_TUNE_WALK=p.loads_per_thread=4;...,
#       kernels/launch/policy.h), builds the module's benchmark once
#       per variant and copies it, stripped, to OUTDIR/BENCHMARK-NAME. Earlier
#       variants of the same module in OUTDIR are removed; OUTDIR/variants.txt
#       lists every variant there as "BENCHMARK-NAME FLAGS". The rest of the
#       library is built once in that folder and kept between calls.
#   build_standard_variants MODULE [OUTDIR] [NAME | NAME=FLAGS]...
#       a tune script's `build`: its standard variants (its array
#       standard_variants, looked up by standard_variant NAME) or those given.
#
# The default OUTDIR of the four scripts is build-variants/kernel-variants
# (KERNEL_VARIANTS_BUILD/kernel-variants): each script replaces its own
# module's variants there and leaves the others', and scripts/gpuhost-pack.sh
# packs all of them as kernel_variants.tar.xz (rm -rf that folder to pack none);
# scripts/gpuhost-run.sh's steps histogram_variants, signalstats_variants,
# scope_variants and region_variants run them on the GPU host.

kernel_variants_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
kernel_variants_build=${KERNEL_VARIANTS_BUILD:-$kernel_variants_root/build-variants}
# shellcheck disable=SC2034  # read by the scripts that source this file
kernel_variants_default_out=$kernel_variants_build/kernel-variants

# The benchmark that times a module's kernels (bench/meson.build's module_benchmarks).
benchmark_of_module() {
  case $1 in
    histogram) echo histbench ;;
    signalstats) echo signalstats_bench ;;
    scopes) echo scopebench ;;
    regions) echo analytics_bench ;;
    *) echo "kernel_variants: no module '$1' (histogram, signalstats, scopes or regions)" >&2; return 2 ;;
  esac
}

build_kernel_variants() {
  local module=${1:?usage: build_kernel_variants MODULE OUTDIR NAME=FLAGS...} out=${2:?OUTDIR}
  shift 2
  [ $# -gt 0 ] || { echo "kernel_variants: no variant for $module" >&2; return 2; }
  local bench build=$kernel_variants_build
  bench=$(benchmark_of_module "$module") || return 2
  export PATH="/usr/local/cuda/bin:$PATH" CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(dirname "$kernel_variants_root")}
  local entries=() targets=() variant name
  for variant in "$@"; do
    [[ $variant == *=* ]] || { echo "kernel_variants: '$variant' is not NAME=FLAGS" >&2; return 2; }
    name=${variant%%=*}
    [[ $name =~ ^[A-Za-z0-9_]+$ ]] || { echo "kernel_variants: variant name '$name': letters, digits and _ only" >&2; return 2; }
    [[ $variant != *,* ]] || { echo "kernel_variants: '$variant': no commas in flags (meson splits the option on them)" >&2; return 2; }
    entries+=("$module:$variant")
    targets+=("bench/$bench-$name")
  done
  local list log=$build/kernel-variants.log
  list=$(IFS=,; echo "${entries[*]}")
  mkdir -p "$build"
  if [ -f "$build/build.ninja" ]; then
    meson configure "$build" "-Dkernel-variants=$list" > "$log" 2>&1 || { cat "$log"; return 1; }
  else
    meson setup "$build" "$kernel_variants_root" -Dcuda-arch=90 -Dplugin=disabled -Dexamples=disabled \
      -Dintrospection=disabled "-Dkernel-variants=$list" > "$log" 2>&1 || { cat "$log"; return 1; }
  fi
  nice ninja -C "$build" -j"${KERNEL_VARIANTS_JOBS:-2}" "${targets[@]}" >> "$log" 2>&1 ||
    { tail -30 "$log"; return 1; }
  mkdir -p "$out"
  rm -f "$out/$bench"-*
  : > "$out/variants.txt.new"
  if [ -f "$out/variants.txt" ]; then grep -v "^$bench-" "$out/variants.txt" > "$out/variants.txt.new" || true; fi
  for variant in "$@"; do
    name=${variant%%=*}
    strip -o "$out/$bench-$name" "$build/bench/$bench-$name"
    echo "$bench-$name ${variant#*=}" >> "$out/variants.txt.new"
    echo "built $bench-$name (${variant#*=})"
  done
  mv "$out/variants.txt.new" "$out/variants.txt"
}

# The NAME=FLAGS of the sourcing script's standard variant NAME (its array
# standard_variants).
standard_variant() {
  local v
  for v in "${standard_variants[@]}"; do [ "${v%%=*}" = "$1" ] && { echo "$v"; return 0; }; done
  echo "$(basename "$0" .sh): no standard variant '$1'" >&2
  return 2
}

# build_standard_variants MODULE [OUTDIR] [NAME | NAME=FLAGS]...: MODULE's
# variants named (standard ones) or given, all the standard ones when none,
# into OUTDIR (default kernel_variants_default_out), which it leaves in
# kernel_variants_out.
build_standard_variants() {
  local module=$1; shift
  kernel_variants_out=$kernel_variants_default_out
  if [ $# -gt 0 ] && [[ $1 != *=* ]] && ! standard_variant "$1" > /dev/null 2>&1; then kernel_variants_out=$1; shift; fi
  [ $# -gt 0 ] || set -- "${standard_variants[@]}"
  local variants=() variant
  for variant in "$@"; do
    [[ $variant == *=* ]] || variant=$(standard_variant "$variant") || return 2
    variants+=("$variant")
  done
  build_kernel_variants "$module" "$kernel_variants_out" "${variants[@]}"
}
