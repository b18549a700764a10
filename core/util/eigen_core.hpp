#pragma once
// Eigen's core, included once for the whole project. With AVX-512 enabled, GCC 12 reports
// -Wmaybe-uninitialized inside Eigen's packet code, where the _mm512_undefined_* placeholders are
// deliberately left unset and then overwritten. The warning is attributed to the intrinsics
// header, so it is silenced for the lines included here.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <Eigen/Core>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
