/* Says whether the CPU this runs on (or the one qemu emulates) has AVX2: the
 * same question the CPU backends' target_clones resolvers ask when the
 * library loads. */
#include <stdio.h>

int main(void) {
  __builtin_cpu_init();
  puts(__builtin_cpu_supports("avx2") ? "avx2" : "no avx2");
  return 0;
}
