#pragma once
// Eigen's special functions (erf on arrays, a vector at a time), included as core/util/eigen_core.hpp
// includes Eigen's core: with GCC 12's false AVX-512 -Wmaybe-uninitialized silenced for its lines.
#include "core/util/eigen_core.hpp"
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <unsupported/Eigen/SpecialFunctions>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
